"""Weighing a form without its glyphs: the layout engine measures every arrangement a beat offers, and shows one.

`compose` builds a beat's forms in order until one reads at the worked size; in a phone frame a big example's forms
rarely do, so all of them are built (eleven arrangements of head_split's twelve-token maps) and all but one thrown
away: a third of such a run went into typesetting and copying numbers nobody saw. While `sketching()`, a traced
number holds a stand-in instead: one leaf spanning the number's box, at its size, with a mark at its baseline. A
form's size, its texts' sizes and baselines and where its parts sit are the real form's, which is all compose asks
of it; compose then builds the form it picked again, for real.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import numpy as np
from manim import DL, UR, Mobject, Typst, VMobject
from manim.constants import SCALE_FACTOR_PER_FONT_POINT

from .kept import Kept

_SKETCHING: ContextVar[bool] = ContextVar("sketching", default=False)

#: One stand-in per typeset number (the same key as its real glyph's), copied out like the real ones; the most
#: recently used 4096 are kept, as the real ones are.
_STAND_INS: Kept[Mobject] = Kept(4096)


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
    return _STAND_INS.get(key, lambda: _boxes_of(glyph())).copy()


def _boxes_of(glyph: Mobject) -> Mobject:
    """`glyph` as one Typst leaf holding only its box (a curve from corner to corner), with the height as built that
    makes it report `glyph`'s font size (`shot_content.font_size`), and inside it a mark at `glyph`'s baseline
    (`text.baseline_y`: the median of its glyphs' bottoms, which the two bottoms give back): a number's size, box
    and baseline in two members, where its glyphs take two per character."""
    from .shot_content import font_size
    from .text import baseline_y

    first = next(m for m in glyph.get_family() if isinstance(m, Typst))
    box = first.copy()
    box.submobjects = []
    lower, upper = glyph.get_corner(DL), glyph.get_corner(UR)
    box.points = np.array([lower, lower, upper, upper])
    box.initial_height = (upper[1] - lower[1]) / (font_size(glyph) * SCALE_FACTOR_PER_FONT_POINT)
    line = [glyph.get_center()[0], baseline_y(glyph), lower[2]]
    box.add(VMobject().set_points(np.array([line] * 4)))
    return box
