"""The explainer's language: every sentence a viewer reads or hears is a gettext message, looked up in a catalog.

English is the source language: a message is its own English text. Another language's messages live in
`scenes/locale/<language>/LC_MESSAGES/explainer.po`, extracted from the source with Babel (`pybabel extract -F
babel.cfg`) and compiled to `.mo` (`compile_catalog`; the `.mo` files are build output, not committed). A scene
writes `_("…{word}…").format(word=...)` (named placeholders, so a translation may reorder them) and
`n_("one head", "{n} heads", n)` where the grammar follows a number.

A language asked for without its catalog is an error naming the valid languages; a message missing from a catalog
is caught by the language gate (`scenes.quality.language_gate`) before a render, never replaced by English in it.
Numbers are written from the locale's own symbols (Babel's CLDR data: a decimal comma in French), from the same
rounding as `numbers.format_value`; quotation marks, which CLDR data in Babel does not carry, from QUOTES.
"""

from __future__ import annotations

import gettext
import os
import tempfile
from functools import lru_cache
from pathlib import Path

#: The languages a clip can be rendered in; English first (the source, and the default).
LANGUAGES = ("en", "fr")
#: The environment variable a render sets for the storyboards it runs (as ATTENTION_EXAMPLE for the example).
LANGUAGE_ENV_VAR = "ATTENTION_LANGUAGE"
DOMAIN = "explainer"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
#: Opening and closing quotation marks (French: guillemets with a no-break space inside).
QUOTES = {"en": ("“", "”"), "fr": ("«\u00a0", "\u00a0»")}


def check_language(language: str) -> str:
    """`language` if it is one the explainer speaks; else a ValueError that names the valid ones."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}: choose one of {', '.join(LANGUAGES)}")
    return language


def active_language() -> str:
    """The language of the storyboard being run (ATTENTION_LANGUAGE; English by default)."""
    return check_language(os.environ.get(LANGUAGE_ENV_VAR, "en") or "en")


def catalog_path(language: str, suffix: str = ".po") -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


def compile_catalog(language: str) -> Path:
    """Compile the language's `.po` into its `.mo` where the `.mo` is missing or older (written whole, never half)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    source, target = catalog_path(language), catalog_path(language, ".mo")
    if not source.exists():
        raise FileNotFoundError(f"no catalog for {language!r}: {source.relative_to(LOCALE_DIR.parent.parent)}")
    if target.exists() and target.stat().st_mtime >= source.stat().st_mtime:
        return target
    with source.open("rb") as handle:
        catalog = read_po(handle, locale=language, domain=DOMAIN)
    # a name of its own: two processes compiling at once must not write into, or rename, each other's file
    with tempfile.NamedTemporaryFile("wb", dir=target.parent, prefix=f"{target.name}.", suffix=".part",
                                     delete=False) as handle:
        write_mo(handle, catalog)
    Path(handle.name).replace(target)
    return target


@lru_cache(maxsize=None)
def translations(language: str) -> gettext.NullTranslations:
    """English: the messages themselves. Another language: its compiled catalog (compiled first if stale)."""
    if check_language(language) == "en":
        return gettext.NullTranslations()
    with compile_catalog(language).open("rb") as handle:
        return gettext.GNUTranslations(handle)


def _(message: str) -> str:
    """`message` in the active language (an empty text stays empty: gettext's "" is the catalog's header)."""
    return translations(active_language()).gettext(message) if message else message


def N_(message: str) -> str:
    """`message` itself: marks a message kept in a constant (a stage's name, a checklist item) for extraction;
    the code that shows it translates it then, with `_`, in the language active at that moment."""
    return message


def n_(singular: str, plural: str, n: int) -> str:
    """The form of the message that goes with the count `n`, in the active language (its plural rules)."""
    return translations(active_language()).ngettext(singular, plural, n)


def capitalized(text: str) -> str:
    """`text` with its first letter upper case: a message that opens with a placeholder ("{source} only")."""
    return text[:1].upper() + text[1:]


#: Between numbers listed in a sentence: a comma in English; a semicolon in French, whose decimal sign is the comma
#: ("0,73 ; 0,35"), with the no-break space French puts before it.
NUMBER_SEPARATORS = {"en": ", ", "fr": "\u00a0; "}


def numbers_listed(texts, language: str | None = None) -> str:
    """Numbers (already written by `format_value`) joined as a sentence lists them: "0.73, 0.35"; "0,73 ; 0,35"."""
    return NUMBER_SEPARATORS[check_language(language or active_language())].join(texts)


def localized_number(text: str, language: str | None = None) -> str:
    """A number formatted the English way ("-0.73", as numbers.format_value rounds it) in the language's own
    symbols: its decimal sign and minus sign from the locale (French: "-0,73")."""
    from babel.numbers import get_decimal_symbol, get_minus_sign_symbol

    language = language or active_language()
    if language == "en":
        return text
    decimal, minus = get_decimal_symbol(language), get_minus_sign_symbol(language)
    return text.replace(".", "\0").replace("-", minus).replace("\0", decimal)


def decimal_sign(language: str | None = None) -> str:
    """The language's decimal sign ("." in English, "," in French), from the locale."""
    from babel.numbers import get_decimal_symbol

    language = check_language(language or active_language())
    return "." if language == "en" else get_decimal_symbol(language)


def number_value(text: str, language: str | None = None) -> float:
    """A number as written for a viewer in the language ("-0,73", "−0.73") read back as a float (ValueError if it
    is no number): what the gates compare with the computation."""
    return float(text.replace("−", "-").replace(decimal_sign(language), "."))


def quoted(text: str, language: str | None = None) -> str:
    """`text` between the language's quotation marks (an example's token stays as it is inside them)."""
    opening, closing = QUOTES[check_language(language or active_language())]
    return f"{opening}{text}{closing}"


def listed(items: list[str], language: str | None = None) -> str:
    """Items joined as the language lists them ("a, b and c"; "a, b et c"), from Babel's list patterns."""
    from babel.lists import format_list

    return format_list(list(items), locale=check_language(language or active_language()))
