"""The two languages the encoder–decoder scenes name: the active example's own, never typed into a caption.

The post's example reads English and writes French; an example file may say otherwise (`source_language`,
`target_language` in `[encoder_decoder]`), and every caption that names a language reads it from here.
"""

from __future__ import annotations

from attention_math import examples


def source_language() -> str:
    """The language of the sentence the encoder reads ("English" in the post)."""
    return examples.active_spec().encoder_decoder.source_language


def target_language() -> str:
    """The language the decoder writes ("French" in the post)."""
    return examples.active_spec().encoder_decoder.target_language
