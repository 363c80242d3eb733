"""Sizes as a phone held upright shows them: the clip fills the page's width, 390 CSS px.

The issue's legibility targets are in CSS px on such a phone: every text at least 10 CSS px and every number at
least 12 in the portrait clip. A text's CSS size here is the height of a digit set at its on-screen font size
(what "a digit 12 px tall at 480p" measures), over the frame's width in scene units, times 390: so it depends on
the frame's shape (scenes.frame), not on the render's pixel count.
"""

from __future__ import annotations

import functools

from manim import config

PHONE_CSS_WIDTH = 390  #: CSS px across a common phone held upright (the clip is shown this wide)
MIN_TEXT_CSS_PX = 10.0  #: the smallest a text may come out in the portrait clip
MIN_NUMBER_CSS_PX = 12.0  #: the smallest a number may come out in the portrait clip


@functools.cache
def digit_height_per_point() -> float:
    """Scene units of a digit's height per font point, measured on the kit's own text (its font, through Typst)."""
    from .text import label

    reference = 100.0
    return label("0", font_size=reference).height / reference


def css_px(font_size: float, frame_width: float | None = None) -> float:
    """How tall, in CSS px on the phone, a digit set at `font_size` (as seen on screen) comes out."""
    width = config.frame_width if frame_width is None else frame_width
    return font_size * digit_height_per_point() * PHONE_CSS_WIDTH / width


def held_upright() -> bool:
    """Whether the frame is a portrait one: the clip the phone plays when held upright, which the targets bind."""
    return config.frame_width < config.frame_height


__all__ = ["PHONE_CSS_WIDTH", "MIN_TEXT_CSS_PX", "MIN_NUMBER_CSS_PX", "digit_height_per_point", "css_px",
           "held_upright"]
