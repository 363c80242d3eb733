"""The language gate: every message the source marks (`_`, `n_`) is in every language's catalog, translated, not
fuzzy, and keeps the English message's named placeholders; a catalog entry the source no longer has is stale.

A render in another language never falls back to English for a message: this gate fails the suite first.
"""

from __future__ import annotations

import re
from pathlib import Path

from scenes.kit.translation import DOMAIN, LANGUAGES, catalog_path

ROOT = Path(__file__).resolve().parent.parent.parent
KEYWORDS = {"_": None, "N_": None, "n_": (1, 2)}
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def mappings(root: Path = ROOT) -> tuple[list[tuple[str, str]], dict[str, dict[str, str]]]:
    """The source that holds messages and how Babel reads it: babel.cfg's (method map, options map), the one file
    `pybabel extract` reads too."""
    from babel.messages.frontend import parse_mapping_cfg

    with (root / "babel.cfg").open(encoding="utf-8") as handle:
        return parse_mapping_cfg(handle)


def source_messages(root: Path = ROOT) -> dict[str | tuple[str, str], str]:
    """Every message marked in the source (a plural one as (singular, plural)), with where it first occurs."""
    from babel.messages.extract import extract_from_dir

    method_map, options_map = mappings(root)
    found: dict[str | tuple[str, str], str] = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(
            str(root), method_map, options_map=options_map, keywords=KEYWORDS, comment_tags=(),
            strip_comment_tags=True):
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


#: English words a French render never shows or says (none of them is also a French word: no "on", "or", "six",
#: "large", "stable", "compact", "score", "position", "attention", "module"; nor a loanword French ML prose uses:
#: "token", "dropout", "softmax"). The example's own tokens are quoted in a sentence, or a label of their own.
ENGLISH_ONLY = frozenset("""
    the and of is are was were be been being with without to for from each every this that these those which what
    where when how why who one two three four five seven eight nine ten eleven twelve weight weights head heads
    stage stages step steps word words sentence sentences highest lowest most least weighted query queries key keys
    value values row rows column columns matrix vector vectors encoder decoder hidden state states learned trained
    training train model mask masks masked future past previous next first last only all both same new not no by at
    in it its they their them we our you your has have had will would can could should must then than into over
    under between after before while gives give takes take becomes become shows show says say looks look attends
    attend spreads sharpens scaled scaling split splits stack stacked checklist mechanism normalize parallel patterns
    pattern output input translation english french dot product products cell cells shade shades number numbers sum
    sums here there now again more less larger smaller big also just still yet out up down left right back way
    example picture because so such other another own whole half wrong reference predicts predict
    generating generate goes go comes come get gets got do does done don doesn isn aren let lets make makes made
    keep keeps kept drop dropped dropping rescaled sees see seen read reads writes write written nobody task solved
    layer softer sharper ties tie tied scale regularization summary bottleneck trainable learnable
    soft several separate sequence fresh random digit digits asserted measured teacher forcing
""".split())
_QUOTED = re.compile(r"«[^»]*»|“[^”]*”")
_WORD = re.compile(r"\w+(?:-\w+)*")
#: A tensor's axes as the post's code names them, "(B, heads, T, head_dim)" or "batch, heads, T, head_dim": a run of
#: comma-separated names one of which is an identifier (an underscore in it) is code, whatever its words.
_AXES = re.compile(r"\b\w+(?:,\s*\w+)*,\s*\w*_\w*(?:,\s*\w+)*")
#: Hyphenated English terms French ML prose uses as they are ("des poids one-hot").
LOANWORDS = frozenset({"one-hot", "feed-forward"})


def english_words(text: str, own_words: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """The English-only words (ENGLISH_ONLY) of a French caption or on-screen text, outside quotation marks,
    identifiers and a tensor's axis names; a text that is one of `own_words` whole (the example's token "the" as a
    label) has none."""
    if text.strip() in own_words:
        return []
    words = [part for w in _WORD.findall(_AXES.sub(" ", _QUOTED.sub(" ", text))) if w.lower() not in LOANWORDS
             for part in w.split("-") if not any(c == "_" or c.isdigit() for c in part)]
    return [word for word in words if word.lower() in ENGLISH_ONLY]  # n_heads, d_k, h1: code and math


def all_problems() -> list[str]:
    """The gate over every language but the source's own."""
    messages = source_messages()
    return [problem for language in LANGUAGES if language != "en"
            for problem in catalog_problems(language, messages)]


__all__ = ["source_messages", "catalog_problems", "all_problems", "placeholders", "english_words", "ENGLISH_ONLY"]
