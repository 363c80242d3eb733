"""The two languages the encoder–decoder scenes name: the active example's own, never typed into a caption.

The post's example reads English and writes French; an example file may say otherwise (`source_language`,
`target_language` in `[encoder_decoder]`), and every caption that names a language reads it from here, in the language of the run.
"""

from __future__ import annotations

from attention_math import examples

from .translation import N_, _

#: The post's example's languages, as its spec names them: messages, so a French render names them in French
#: ("anglais", "français"); an example file's own names are shown as it writes them.
POST_LANGUAGES = (N_("English"), N_("French"))


def source_language() -> str:
    """The language of the sentence the encoder reads ("English" in the post)."""
    return _name(examples.active_spec().encoder_decoder.source_language)


def target_language() -> str:
    """The language the decoder writes ("French" in the post)."""
    return _name(examples.active_spec().encoder_decoder.target_language)


def _name(language: str) -> str:
    """A language's name in the language of the run (an empty name stays empty: gettext("") is the header)."""
    return _(language) if language else language
