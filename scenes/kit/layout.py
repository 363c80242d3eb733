"""Layout by construction: named gaps, the frame's regions, and fitting a composition into them.

Scenes place kit pieces relative to each other (`next_to`, `arrange`) with the gaps named here, then let
`fit_into` shrink a composition that would not fit the region it belongs to. So a sentence of eight tokens or a
6-wide embedding gets a smaller composition, never one that runs off the frame; the legibility floor is checked by
the quality gates, not assumed. No scene types a coordinate: the only numbers are these, in one place.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Mobject, config

# --- named gaps (scene units; the frame is 8 units tall) -------------------------------------------------------
HAIRLINE = 0.04  #: a highlight box around a single cell
TIGHT = 0.1  #: a label against the thing it names (a number above its bar)
NEAR = 0.2  #: a name beside its matrix, words in a row
GAP = 0.35  #: between the parts of one composition
APART = 0.6  #: between compositions that read as separate steps
FAR = 1.0  #: between steps joined by an arrow (room for the arrow and its tag)
NUDGE = 0.2  #: how far an entering mobject slides in (FadeIn(shift=UP * NUDGE))

#: Margin kept free at every frame edge.
MARGIN = 0.3
#: Height reserved at the top for a step formula or heading, and at the bottom for nothing (subtitles are separate).
TOP_BAND = 1.1
BOTTOM_BAND = 0.3


@dataclass(frozen=True)
class Region:
    """An axis-aligned box of the frame, in scene units."""

    left: float
    right: float
    bottom: float
    top: float

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.top - self.bottom

    @property
    def center(self) -> np.ndarray:
        return np.array([(self.left + self.right) / 2, (self.bottom + self.top) / 2, 0.0])

    def top_edge(self) -> np.ndarray:
        return np.array([(self.left + self.right) / 2, self.top, 0.0])

    def split_columns(self, *weights: float, gap: float = APART) -> list["Region"]:
        """Side-by-side sub-regions whose widths follow `weights`, separated by `gap`."""
        total = sum(weights)
        usable = self.width - gap * (len(weights) - 1)
        regions, x = [], self.left
        for w in weights:
            width = usable * w / total
            regions.append(Region(x, x + width, self.bottom, self.top))
            x += width + gap
        return regions

    def split_rows(self, *weights: float, gap: float = GAP) -> list["Region"]:
        """Stacked sub-regions, top first, whose heights follow `weights`."""
        total = sum(weights)
        usable = self.height - gap * (len(weights) - 1)
        regions, y = [], self.top
        for w in weights:
            height = usable * w / total
            regions.append(Region(self.left, self.right, y - height, y))
            y -= height + gap
        return regions


def frame() -> Region:
    """The whole frame minus the margin."""
    half_w, half_h = config.frame_width / 2, config.frame_height / 2
    return Region(-half_w + MARGIN, half_w - MARGIN, -half_h + MARGIN, half_h - MARGIN)


def body() -> Region:
    """The frame below the top band (where a step formula or heading sits)."""
    whole = frame()
    return Region(whole.left, whole.right, whole.bottom + BOTTOM_BAND, whole.top - TOP_BAND)


def inset(region: Region, pad: float) -> Region:
    """`region` with `pad` taken off every side."""
    return Region(region.left + pad, region.right - pad, region.bottom + pad, region.top - pad)


def page() -> Region:
    """Where a page of text (a checklist) sits: the frame with a margin that reads as a page, not a full-bleed wall;
    a portrait frame is too narrow to give it up, and keeps its whole width."""
    return frame() if is_tall() else inset(frame(), APART)


def top_band() -> Region:
    whole = frame()
    return Region(whole.left, whole.right, whole.top - TOP_BAND, whole.top)


#: The most `fit_into` enlarges a composition to fill its region: a lone vector of three numbers should fill the
#: frame's width only so far (at this growth a number set at NUMBER_SIZE reads at about 70 points).
MAX_GROWTH = 2.0


def fill_factor(mob: Mobject, region: Region, *, grow: bool = True) -> float:
    """How far `fit_into` scales `mob` to fill `region`: shrinking what would not fit, enlarging what would leave
    it mostly empty up to MAX_GROWTH (`grow=False`: only shrinking). The one formula every fitting reads."""
    factor = min(region.width / max(mob.width, 1e-6), region.height / max(mob.height, 1e-6))
    return min(factor, MAX_GROWTH if grow else 1.0)


def fit_into(mob: Mobject, region: Region, *, center: bool = True, grow: bool = True) -> Mobject:
    """Scale `mob` to fill `region` (shrinking what would not fit, enlarging what would leave it mostly empty, up
    to MAX_GROWTH), and centre it there (unless `center=False`). `grow=False` only shrinks."""
    factor = fill_factor(mob, region, grow=grow)
    if abs(factor - 1.0) > 1e-9:
        mob.scale(factor)
    if center:
        mob.move_to(region.center)
    return mob


def keep_inside(mob: Mobject, region: Region | None = None) -> Mobject:
    """Shift `mob` (no scaling) the least distance that brings it inside `region` (default: the frame)."""
    region = region or frame()
    dx = max(0.0, region.left - mob.get_left()[0]) - max(0.0, mob.get_right()[0] - region.right)
    dy = max(0.0, region.bottom - mob.get_bottom()[1]) - max(0.0, mob.get_top()[1] - region.top)
    mob.shift(RIGHT * dx + UP * dy)
    return mob


def between(a: Mobject, b: Mobject) -> np.ndarray:
    """The point midway between the facing edges of two mobjects side by side (for "×", "=", "→")."""
    left, right = (a, b) if a.get_center()[0] <= b.get_center()[0] else (b, a)
    return (left.get_right() + right.get_left()) / 2


def below(a: Mobject, b: Mobject) -> np.ndarray:
    """The point midway between the bottom of `a` and the top of `b` below it."""
    return (a.get_bottom() + b.get_top()) / 2


def is_tall(region: Region | None = None) -> bool:
    """Whether `region` (default: the body) is taller than wide: a portrait frame's body is (3.9 × 6 units)."""
    region = region or body()
    return region.height > region.width


def flow_direction(region: Region | None = None) -> np.ndarray:
    """The direction the parts of one composition follow each other in `region` (default: the body): side by side
    (RIGHT) in a wide region, stacked (DOWN) in a tall one. So X · W_Q = Q reads left to right in landscape and
    top to bottom in portrait, laid out again for the frame rather than cropped or letterboxed."""
    return DOWN if is_tall(region) else RIGHT


def flow(*mobs: Mobject, region: Region | None = None, gap: float = GAP, **arrange) -> "Mobject":
    """The mobjects arranged in `region`'s flow direction (`flow_direction`) with `gap`, as one VGroup (not
    fitted: pass it to `fit_into` or `legible_fit.fit_legibly`). `aligned_edge` and the like pass to `arrange`."""
    from manim import VGroup

    return VGroup(*mobs).arrange(flow_direction(region), buff=gap, **arrange)


def side_by_side_or_stacked(*mobs: Mobject, width: float, gap: float = APART) -> "Mobject":
    """The mobjects in the body's flow direction (`flow`), or one under the other where that is wider than
    `width` (a claim "q ≠ word" that must keep q at its size). Not fitted."""
    group = flow(*mobs, gap=gap)
    if group.width > width:
        group.arrange(DOWN, buff=gap)
    return group


def row_of(*mobs: Mobject, gap: float = GAP, region: Region | None = None) -> list[Mobject]:
    """Arrange mobjects left to right with `gap` and fit the row into `region` (default: the body)."""
    from manim import VGroup

    group = VGroup(*mobs).arrange(RIGHT, buff=gap)
    fit_into(group, region or body())
    return list(mobs)


__all__ = [
    "HAIRLINE", "TIGHT", "NEAR", "GAP", "APART", "FAR", "NUDGE", "MARGIN", "Region", "frame", "body", "top_band", "inset", "page",
    "fill_factor", "fit_into", "keep_inside", "between", "below", "row_of", "side_by_side_or_stacked", "is_tall", "flow_direction", "flow", "UP", "DOWN", "LEFT", "RIGHT",
]


def fit_factor(mob: Mobject, region: Region) -> float:
    """The factor `fit_into` would shrink `mob` by to fit `region` (1.0 when it already fits)."""
    return fill_factor(mob, region, grow=False)


def fits_legibly(mob: Mobject, region: Region, font_size: float) -> bool:
    """Whether `mob`, shrunk into `region`, keeps text set at `font_size` at or above the legibility floor.

    A scene asks this before choosing an arrangement: when the answer is no, it reorganises (fewer things side by
    side, a redundant copy dropped) instead of shrinking below typography.MIN_FONT_SIZE.
    """
    from . import typography

    return font_size * fit_factor(mob, region) >= typography.MIN_FONT_SIZE


def fit_best(candidates, region: Region) -> Mobject:
    """Of several arrangements of the same content, fit the one that needs the least shrinking into `region`.

    Two panels side by side suit three tokens; eight tokens need them stacked. Build both, keep the larger (the
    first on a tie), so a composition reorganises instead of shrinking below the legibility floor.
    """
    return fit_into(max(candidates, key=lambda mob: fill_factor(mob, region)), region)


def numbers_or_shades(build, region: Region, *, font_size: float, shaded_cell: float, tries: int = 5) -> Mobject:
    """A composition of matrices with their numbers if it fits `region` legibly, else with shaded cells; fitted.

    `build(None)` draws the matrices with numbers; `build(side)` draws them as shaded cells of that side (no
    numbers). Shaded cells shrink (at most `tries` times) until the composition's labels, set at `font_size`,
    stay at or above the legibility floor once fitted: so a wide example loses its digits, never its legibility.
    """
    mob = build(None)
    if fits_legibly(mob, region, font_size):
        return fit_into(mob, region)
    side = shaded_cell
    for _ in range(tries):
        mob = build(side)
        if fits_legibly(mob, region, font_size):
            break
        side *= fit_factor(mob, region)
    return fit_into(mob, region)
