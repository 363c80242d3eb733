"""The page's and the decks' own words (buttons, labels, announcements, the byline) in the language of the output.

They are messages of the explainer's catalog like every caption: marked in the templates with `_("…")` and
`n_("…", "…", n)` (babel.cfg's jinja2 section extracts them, and the language gate reads the templates the same
way), in Python with `N_` and shown through `text`. Numbers and other values are named placeholders,
`{n}`/`{total}`, filled here for the HTML and by the page's scripts for what they announce (the scripts read their
messages, unformatted, from a JSON block the template writes: no English in the JavaScript).

English is the source: a message is its own text. In another language a message its catalog lacks is an error
naming it, never English on a French page (the language gate fails the suite first).
"""

from __future__ import annotations

import gettext

from rendering.languages import DEFAULT_LANGUAGE, translation


class MissingMessage(LookupError):
    """A page's or deck's message that the language's catalog does not translate."""


def _catalog(language: str) -> gettext.NullTranslations:
    return translation.translations(translation.check_language(language))


def _translated(key, language: str) -> None:
    """Raise MissingMessage unless `language`'s compiled catalog has `key` (a msgid, or (msgid, 0) of a plural)."""
    catalog = _catalog(language)
    found = getattr(catalog, "_catalog", {})
    if key not in found or not found[key]:
        shown = key[0] if isinstance(key, tuple) else key
        raise MissingMessage(f"no {language!r} translation of the page's message {shown!r} in "
                             f"{translation.catalog_path(language).name}: add it (pybabel extract, then translate)")


def gettext_in(language: str, message: str) -> str:
    """`message` in `language`, unformatted (placeholders kept for the page's scripts)."""
    if language == DEFAULT_LANGUAGE or not message:
        return message
    _translated(message, language)
    return _catalog(language).gettext(message)


def ngettext_in(language: str, singular: str, plural: str, n: int) -> str:
    """The form of the message that goes with `n` in `language` (its plural rules), unformatted."""
    if language == DEFAULT_LANGUAGE:
        return singular if n == 1 else plural
    _translated((singular, 0), language)
    return _catalog(language).ngettext(singular, plural, n)


def text(message: str, language: str, **values) -> str:
    """A message marked with N_ in Python, in `language`, its placeholders filled from `values`."""
    translated = gettext_in(language, message)
    return translated.format(**values) if values else translated


def number(value: float, language: str, decimals: int) -> str:
    """A decimal number as `language` writes it ("14.99", "14,99"), rounded to `decimals`."""
    return translation.localized_number(f"{value:.{decimals}f}", language)


def template_functions(language: str) -> dict:
    """`_` and `n_` for the templates of a page or deck in `language`: `_("…{title}…", title=...)` fills the named
    placeholders it is given (none: the message as it is, for a script to fill); `n_(singular, plural, n, ...)`
    fills `{n}` too."""
    def _(message: str, **values) -> str:
        return text(message, language, **values)

    def n_(singular: str, plural: str, n: int, **values) -> str:
        return ngettext_in(language, singular, plural, n).format(n=n, **values)

    return {"_": _, "n_": n_}
