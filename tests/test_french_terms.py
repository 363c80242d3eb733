"""The French names of the field's terms (issue 43): a French screen, caption or narration names a term the French way,
the same way in every message; the English name is given only quoted, where the French post introduces it.

The language gate's word list (scenes.quality.language_gate.ENGLISH_ONLY) holds single words; a term of two words
each of which could pass alone is held here, over the French catalog every French render reads its words from, and
over the French post the page shows."""

from __future__ import annotations

import re

import pytest

from scenes.kit.translation import DOMAIN, catalog_path

#: English term (as the English messages write it) -> the French term every French message uses for it.
FRENCH_TERMS = {"teacher forcing": "forçage par l’enseignant"}

_QUOTED = re.compile(r"«[^»]*»")


def _said(text: str) -> str:
    """`text` without its quotations, spaces made plain (a no-break space is a space), lower case."""
    return re.sub(r"\s+", " ", _QUOTED.sub(" ", text.replace("\u00a0", " "))).lower()


def french_entries() -> list[tuple[str, str]]:
    """Every (English message, French form) of the French catalog; a plural message gives one pair per form."""
    from babel.messages.pofile import read_po

    with catalog_path("fr").open("rb") as handle:
        catalog = read_po(handle, locale="fr", domain=DOMAIN)
    pairs = []
    for entry in catalog:
        if not entry.id:
            continue
        english = " ".join(entry.id) if isinstance(entry.id, (tuple, list)) else entry.id
        forms = entry.string if isinstance(entry.string, (tuple, list)) else [entry.string]
        pairs += [(english, form) for form in forms]
    return pairs


def english_terms_in(text: str) -> list[str]:
    return [term for term in FRENCH_TERMS if term in _said(text)]


def test_the_check_reads_a_term_however_it_is_spaced_or_capitalised_and_allows_it_quoted():
    assert english_terms_in("Teacher\u00a0forcing\u00a0: « le » est noté") == ["teacher forcing"]
    assert english_terms_in("C’est le teacher   forcing.") == ["teacher forcing"]
    assert english_terms_in("le forçage par l’enseignant (en anglais, «\u00a0teacher forcing\u00a0»)") == []
    assert english_terms_in("Pas d’enseignant : le modèle se corrige seul.") == []


def test_no_french_message_names_a_term_in_english():
    entries = french_entries()
    assert len(entries) > 300  # the whole catalog was read
    problems = [f"{terms} in {french!r}" for _english, french in entries if (terms := english_terms_in(french))]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("term", sorted(FRENCH_TERMS))
def test_every_french_message_for_a_term_uses_its_one_french_name(term):
    """Wherever the English message names the term, its French form names it the French way (one name, the same on
    the screen, in the captions and in the narration)."""
    entries = [(english, french) for english, french in french_entries() if term in english.lower()]
    assert len(entries) >= 3  # learned_alignment's note, teacher_forcing's caption and its narration
    problems = [french for _english, french in entries if FRENCH_TERMS[term] not in _said(french)]
    assert not problems, "\n".join(problems)


def test_the_french_post_names_the_terms_the_french_way():
    """The page's French post names each term as the clips do; the English name only quoted, where it is defined."""
    from rendering.site.post_text import FRENCH_POST_PATH

    post = FRENCH_POST_PATH.read_text(encoding="utf-8")
    for term, french in FRENCH_TERMS.items():
        assert term not in _said(post), f"{term!r} unquoted in the French post"
        assert french in _said(post)
