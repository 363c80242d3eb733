"""Fitting a composition without letting its text fall below the legibility floor.

`layout.fit_into` scales a composition to fill its region, however small that makes its text. A scene that shows
an example of any size asks here instead: of several arrangements of the same content (square rows, compact rows,
key words standing upright), take the first that fills the region with its smallest text at or above
`typography.MIN_FONT_SIZE`; and fit it so that it never goes below the floor (a composition that still does not fit
comes out larger than its region, for the camera to follow).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from manim import Mobject, Typst

from . import layout, typography


def smallest_text(mob: Mobject) -> float:
    """The smallest font size of any text in `mob`, as built (the quality gates hold it to the floor on screen)."""
    sizes = [leaf.font_size for leaf in mob.get_family() if isinstance(leaf, Typst) and leaf.height > 0]
    return min(sizes) if sizes else typography.MIN_FONT_SIZE


fill_factor = layout.fill_factor  #: how far a composition is scaled to fill its region (the one formula, in layout)


def fits_at_floor(mob: Mobject, region: layout.Region) -> bool:
    """Whether `mob`, fitted into `region`, keeps its smallest text at or above the floor."""
    return fill_factor(mob, region) * smallest_text(mob) >= typography.MIN_FONT_SIZE


def reads_worked(mob: Mobject, region: layout.Region, number_size: float) -> bool:
    """Whether `mob`, fitted into `region`, sets numbers built at `number_size` at typography.WORKED_NUMBER_SIZE or
    more (the size a worked computation's numbers should read at)."""
    return fill_factor(mob, region) * number_size >= typography.WORKED_NUMBER_SIZE - 1e-6


def first_worked(builds: Iterable[Callable[[], Any]], region: layout.Region, *, number_size: float,
                 whole: Callable[[Any], Mobject] = lambda built: built) -> Any:
    """Of several arrangements, the first whose numbers (built at `number_size`) read at the worked size once
    fitted into `region`; when none does, `first_legible`'s choice among the same arrangements (each built once:
    building is the costly part). Not yet fitted: pass it to `fit_legibly`."""
    built_ones = []
    for build in builds:
        built = build()
        mob = whole(built)
        if reads_worked(mob, region, number_size) and fits_at_floor(mob, region):
            return built
        built_ones.append(built)
    return _most_legible(built_ones, region, whole)


def first_legible(builds: Iterable[Callable[[], Any]], region: layout.Region, *,
                  whole: Callable[[Any], Mobject] = lambda built: built) -> Any:
    """Of several arrangements (each built by a call), the first that fits `region` above the legibility floor,
    else the one whose text comes out largest (the first of equals: a denser arrangement that does not help, as
    compact rows for a composition too wide, is not taken). Not yet fitted: pass it to `fit_legibly`. A build may
    return a record of parts: `whole(record)` then gives the mobject to measure. Arrangements after the first that
    fits are never built."""
    built_ones = []
    for build in builds:
        built = build()
        if fits_at_floor(whole(built), region):
            return built
        built_ones.append(built)
    return _most_legible(built_ones, region, whole)


def _most_legible(built_ones: list[Any], region: layout.Region, whole: Callable[[Any], Mobject]) -> Any:
    """The first arrangement that fits at the floor, else the one whose text comes out largest (first of equals)."""
    best, best_size = None, 0.0
    for built in built_ones:
        mob = whole(built)
        if fits_at_floor(mob, region):
            return built
        size = fill_factor(mob, region) * smallest_text(mob)
        if size > best_size + 1e-6:
            best, best_size = built, size
    if best is None:
        raise ValueError("first_legible needs at least one arrangement to build")
    return best


def fit_legibly(mob: Mobject, region: layout.Region) -> bool:
    """Fit `mob` into `region` like `layout.fit_into`; where that would set its smallest text below the floor,
    scale it to the floor instead (centred on the region, larger than it). True when it fits whole."""
    factor = fill_factor(mob, region)
    floor = typography.MIN_FONT_SIZE / smallest_text(mob)
    mob.scale(max(factor, floor))
    mob.move_to(region.center)
    return factor >= floor


__all__ = ["smallest_text", "fill_factor", "fits_at_floor", "reads_worked", "first_worked", "first_legible",
           "fit_legibly"]


def row_heights() -> tuple[float, ...]:
    """The heights a product's or map's rows may take, roomiest first: the kit's square rows, compact ones (one line
    of text), then rows padded by a hairline only (a sentence too long for square rows)."""
    from .products import NUMBER, compact_row
    from .text import label

    return typography.CELL, compact_row(NUMBER), label("Ag", font_size=NUMBER).height + 2 * layout.HAIRLINE


#: The room each side of a number in a narrow frame's map: the shaded cells' edges part the numbers.
NARROW_NUMBER_PAD = 0.03


def map_styles() -> list[dict]:
    """An attention map's arrangements, roomiest first: square rows, compact rows, then upright key words (over
    compact, then hairline rows), then with its numbers and row words closer (a narrow frame)."""
    return [style for style, _packed in map_styles_marked()]


def map_styles_marked() -> list[tuple[dict, bool]]:
    """map_styles, each with whether it is packed closer than the kit likes (the numbers a hairline apart): a last
    resort, taken only where no roomier style reads at the floor."""
    heights = row_heights()
    roomy = [dict(cell_size=heights[0]), dict(cell_size=heights[1]), dict(cell_size=heights[1], upright_keys=True),
             dict(cell_size=heights[-1], upright_keys=True)]
    packed = dict(cell_size=heights[-1], upright_keys=True, number_pad=NARROW_NUMBER_PAD, row_label_gap=layout.TIGHT)
    return [(style, False) for style in roomy] + [(packed, True)]
