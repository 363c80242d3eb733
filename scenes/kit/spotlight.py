"""The box that moves over an equation's terms as the picture computes them (softmax(QKᵀ/√dₖ)V lighting up).

A small explicit object, handed from beat to beat, instead of a `self.lit_box` that beats set behind each other's
backs: the one piece of mutable state it holds is the box now on screen.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import Animation, Create, FadeOut, Mobject, ReplacementTransform, RoundedRectangle, VGroup

from . import layout, palette
from .on_screen import boundary_box

#: How far the box stands off its terms where the equation leaves room (a bracket, a neighbouring letter nearer
#: than twice this pulls that side in to halfway).
BOX_BUFF = 0.08


def lit_band() -> layout.Region:
    """The top band less room under it for a lit term's box: a formula whose terms light up is fitted here, so its
    box stays in the band (a formula filling the band's height put the box's lower side on the picture's first
    label, α₃ⱼ under softmax(QKᵀ/√dₖ)V). Above, the frame's margin holds the box."""
    band = layout.top_band()
    return layout.Region(band.left, band.right, band.bottom + BOX_BUFF + 0.03, band.top)


def term_box(eq: Mobject, keys: Sequence[str], color=palette.ACCENT) -> RoundedRectangle:
    """A box round the named terms of `eq` whose sides run through no other glyph of the equation. Typst packs
    math tightly (the "(" before XXᵀ is 0.04 off it, K touches Q), so a box BOX_BUFF wide of a term cut through
    its brackets and neighbours: each side now stands BOX_BUFF off, or halfway to the nearest glyph beyond it.
    A glyph centred inside the terms' span (a fraction bar between lit terms) is framed with them, and so is the
    partner of a bracket framed that way ("softmax(" brings its ")")."""
    inside = {id(part) for key in keys for part in eq.select(key).family_members_with_points()}
    glyphs = [boundary_box(part) for part in eq.family_members_with_points() if id(part) not in inside]
    span = terms = _union([boundary_box(eq.select(key)) for key in keys])
    beyond, brackets = glyphs, []
    while framed := [g for g in beyond if _centred_in(g, span) or any(_partner(g, b) for b in brackets)]:
        brackets += [g for g in framed if g[3] - g[2] > terms[3] - terms[2]]  # taller than the terms: a bracket
        span = _union([span, *framed])  # framing one may bring another's centre inside
        beyond = [g for g in beyond if g not in framed and not _centred_in(g, span)]
    left, right, bottom, top = span
    across_rows = [g for g in beyond if g[2] < top and g[3] > bottom]  # beside the terms, left or right
    across_columns = [g for g in beyond if g[0] < right and g[1] > left]  # above or below them
    left -= _side(left - g[1] for g in across_rows if g[1] <= left + 1e-6)
    right += _side(g[0] - right for g in across_rows if g[0] >= right - 1e-6)
    bottom -= _side(bottom - g[3] for g in across_columns if g[3] <= bottom + 1e-6)
    top += _side(g[2] - top for g in across_columns if g[2] >= top - 1e-6)
    box = RoundedRectangle(corner_radius=0.05, width=right - left, height=top - bottom, color=color, stroke_width=3)
    return box.move_to(np.array([(left + right) / 2, (bottom + top) / 2, 0.0]))


def _side(gaps) -> float:
    """BOX_BUFF, or half the nearest gap where a glyph stands nearer than twice that."""
    return min([BOX_BUFF, *(max(gap, 0.0) / 2 for gap in gaps)])


def _centred_in(glyph, span) -> bool:
    return span[0] <= (glyph[0] + glyph[1]) / 2 <= span[1] and span[2] <= (glyph[2] + glyph[3]) / 2 <= span[3]


def _partner(glyph, bracket) -> bool:
    """The same height on the same line: the other half of a pair of brackets."""
    return abs(glyph[2] - bracket[2]) < 0.02 and abs(glyph[3] - bracket[3]) < 0.02 and glyph != bracket


def _union(boxes) -> tuple[float, float, float, float]:
    return (min(b[0] for b in boxes), max(b[1] for b in boxes), min(b[2] for b in boxes), max(b[3] for b in boxes))


class TermLight:
    """`on(eq, keys, color)` moves the highlight onto the named terms of `eq` (a `math` with `group`s) and paints
    them; `off()` takes it away. Both return the animations to play with the picture's own."""

    def __init__(self) -> None:
        self.box: Mobject | None = None

    def on(self, eq: Mobject, keys: Sequence[str], color=palette.ACCENT, paint: Sequence[str] | None = None
           ) -> list[Animation]:
        """The terms named in `paint` (default: all of `keys`) take `color`; the box takes it too."""
        box = term_box(eq, keys, color)
        painted = VGroup(*(eq.select(k) for k in (keys if paint is None else paint)))
        anims: list[Animation] = [painted.animate.set_color(color)] if len(painted) else []
        anims.append(ReplacementTransform(self.box, box) if self.box is not None else Create(box))
        self.box = box
        return anims

    def off(self) -> list[Animation]:
        box, self.box = self.box, None
        return [FadeOut(box)] if box is not None else []

    def forget(self) -> None:
        """The box left the screen some other way (the stage was cleared)."""
        self.box = None
