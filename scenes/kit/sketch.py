"""Weighing a form without its glyphs: the layout engine measures every arrangement a beat offers, and shows one.

`compose` builds a beat's forms in order until one reads at the worked size; in a phone frame a big example's forms
rarely do, so all of them are built (eleven arrangements of head_split's twelve-token maps) and all but one thrown
away: a third of such a run went into typesetting and copying numbers nobody saw. While `sketching()`, a traced
number holds a stand-in instead: each of its characters as one leaf spanning the character's box, at its size. A
form's size, its texts' sizes and baselines and where its parts sit are the real form's, which is all compose asks
of it; compose then builds the form it picked again, for real.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import numpy as np
from manim import DL, UR, Mobject, Typst, VGroup

_SKETCHING: ContextVar[bool] = ContextVar("sketching", default=False)

#: One stand-in per typeset number (the same key as its real glyph's), copied out like the real ones.
_STAND_INS: dict[tuple, Mobject] = {}


@contextmanager
def sketching() -> Iterator[None]:
    """Build what runs inside with stand-ins for traced numbers (see the module's docstring)."""
    token = _SKETCHING.set(True)
    try:
        yield
    finally:
        _SKETCHING.reset(token)


def active() -> bool:
    """Whether numbers built now are stand-ins."""
    return _SKETCHING.get()


def stand_in(key: tuple, glyph: Callable[[], Mobject]) -> Mobject:
    """A copy of the stand-in for the number `key` names, made once from its real glyph (`glyph()`)."""
    if key not in _STAND_INS:
        _STAND_INS[key] = _boxes_of(glyph())
    return _STAND_INS[key].copy()


def _boxes_of(glyph: Mobject) -> Mobject:
    """Each Typst character of `glyph` as one leaf holding only its box (a curve from corner to corner), with the
    character's own height as built, so the font size it reports (`shot_content.font_size`), its box and its bottom
    are the real character's: a number's size, box and baseline (`text.baseline_y`, the median of its glyphs'
    bottoms). A character drawn in several pieces (the minus of -∞) keeps its glyph: its pieces' bottoms count
    apart in the baseline."""
    chars = [m for m in glyph.get_family() if isinstance(m, Typst)]
    if any(len(char.submobjects) != 1 or len(char.points) for char in chars):
        return glyph
    leaves = []
    for char in chars:
        leaf = char.copy()
        leaf.submobjects = []
        lower, upper = char.get_corner(DL), char.get_corner(UR)
        leaf.points = np.array([lower, lower, upper, upper])
        leaves.append(leaf)
    return VGroup(*leaves)
