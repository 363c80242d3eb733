"""The language gate: every message the source marks (`_`, `n_`) is in every language's catalog, translated, not
fuzzy, and keeps the English message's named placeholders; a catalog entry the source no longer has is stale.

A render in another language never falls back to English for a message: this gate fails the suite first.
"""

from __future__ import annotations

import re
from pathlib import Path

from scenes.kit.translation import DOMAIN, LANGUAGES, catalog_path

ROOT = Path(__file__).resolve().parent.parent.parent
#: The source that holds messages, and how Babel reads it (babel.cfg says the same for `pybabel extract`).
METHOD_MAP = [("scenes/**.py", "python"), ("rendering/**.py", "python")]
KEYWORDS = {"_": None, "n_": (1, 2)}
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def source_messages(root: Path = ROOT) -> dict[str | tuple[str, str], str]:
    """Every message marked in the source (a plural one as (singular, plural)), with where it first occurs."""
    from babel.messages.extract import extract_from_dir

    found: dict[str | tuple[str, str], str] = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(
            str(root), METHOD_MAP, keywords=KEYWORDS, comment_tags=(), strip_comment_tags=True):
        found.setdefault(message, f"{filename}:{lineno}")
    return found


def placeholders(text: str) -> set[str]:
    return set(_PLACEHOLDER.findall(text))


def catalog_problems(language: str, messages: dict | None = None, po_path: Path | None = None) -> list[str]:
    """One line per problem of `language`'s catalog against the source's messages."""
    from babel.messages.pofile import read_po

    messages = source_messages() if messages is None else messages
    po_path = po_path or catalog_path(language)
    if not po_path.exists():
        return [f"{language}: no catalog at {po_path.name} for {len(messages)} message(s)"]
    with po_path.open("rb") as handle:
        catalog = read_po(handle, locale=language, domain=DOMAIN)
    problems = []
    for message, where in messages.items():
        key = message[0] if isinstance(message, tuple) else message
        entry = catalog.get(key)
        if entry is None:
            problems.append(f"{language}: {where}: not in the catalog: {key!r}")
            continue
        if entry.fuzzy:
            problems.append(f"{language}: {where}: fuzzy: {key!r}")
        forms = list(entry.string) if isinstance(entry.string, (tuple, list)) else [entry.string]
        if not all(forms):
            problems.append(f"{language}: {where}: not translated: {key!r}")
            continue
        english = placeholders(" ".join(message) if isinstance(message, tuple) else message)
        for form in forms:
            extra = placeholders(form) - english
            if extra:
                problems.append(f"{language}: {where}: placeholder(s) {sorted(extra)} not in the English: {key!r}")
        missing = english - placeholders(forms[-1])
        if missing:
            problems.append(f"{language}: {where}: placeholder(s) {sorted(missing)} missing from {forms[-1]!r}")
    wanted = {m[0] if isinstance(m, tuple) else m for m in messages}
    problems += [f"{language}: stale entry (no longer in the source): {entry.id!r}" for entry in catalog
                 if entry.id and (entry.id[0] if isinstance(entry.id, tuple) else entry.id) not in wanted]
    return problems


def all_problems() -> list[str]:
    """The gate over every language but the source's own."""
    messages = source_messages()
    return [problem for language in LANGUAGES if language != "en"
            for problem in catalog_problems(language, messages)]


__all__ = ["source_messages", "catalog_problems", "all_problems", "placeholders"]
