"""A small grid always reads whole: its values are numbers on screen, never colour shades standing in for them.

The layout engine (scenes.kit.compose) lets shades stand in for numbers only on its last rung, where even the
stacked form at the floor is larger than the frame and the camera shows the picture part by part. A grid of a few
rows and columns never needs that: the post's example (three or four words, vectors of three to six numbers) reads
whole in every frame, so a shade there means a form is missing, not that the picture is large. Only a grid larger
than SHADE_FREE_SIDE on a side (twelve words) may show shades, for the parts not being worked on (the story gate
holds the worked part to its numbers).

The check runs after every animation: a cell in view whose shade is drawn while its number is hidden. A cell of a
picture the layout engine films (compose's camera rung, larger than the frame even at the floor) may shade, as the
issue of the engine allows for the parts not being worked on; the story gate holds the worked part to its numbers,
and the post's example is held to no shade at all (tests/test_shade_gate.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from manim import Mobject, config

from scenes.kit.numbers import TracedNumber
from scenes.kit.shot_content import TEXT_TYPES as _TEXTS
from scenes.kit.on_screen import View, screen_box
from scenes.kit.widgets import TensorGrid

#: A grid with no side longer than this reads whole in every frame: none of its values may show as a shade.
SHADE_FREE_SIDE = 8
#: Below this opacity a fill or a number counts as not drawn.
UNDRAWN = 0.05


@dataclass(frozen=True)
class ShadedGrid:
    """A grid seen with `count` of its values as shades (their numbers hidden)."""

    path: str
    rows: int
    cols: int
    count: int
    filmed: bool = False  #: its cells belong to a picture on the camera's rung (compose.mark_filmed)

    @property
    def small(self) -> bool:
        return max(self.rows, self.cols) <= SHADE_FREE_SIDE

    @property
    def judged(self) -> bool:
        """Whether its shades are a problem: a small grid's, unless the layout engine films its picture (larger
        than the frame at the floor: there shades stand for the parts not worked on, and the story gate holds the
        worked part to its numbers)."""
        return self.small and not self.filmed

    def describe(self) -> str:
        return f"{self.count} value(s) of {self.path} ({self.rows}×{self.cols}) shown as shades, their numbers hidden"


def _drawn(mob: Mobject) -> bool:
    """Some member with points is filled at UNDRAWN or above (the family's largest fill opacity reaches it): asked
    member by member until one is, without first listing the members with points (a drawn number answers at its
    first glyph). The answer does not depend on the order of the walk, so it walks the family as it is stored."""
    return any_member(mob, lambda part: part.get_fill_opacity() >= UNDRAWN)


#: More members than any scene's family has: a walk that gets here has met a mobject inside itself.
_MEMBERS_GUARD = 200_000


def any_member(mob: Mobject, drawn) -> bool:
    """Whether `drawn` holds for some member of `mob`'s family with points: the same answer as
    `any(drawn(p) for p in mob.family_members_with_points())`, found by a walk that stops at the first such member.
    A walk longer than any real family has met a mobject inside itself, and asks manim's family instead."""
    pending = [mob]
    take, push = pending.pop, pending.extend
    walked = 0
    while pending:
        member = take()
        if len(member.points) > 0 and drawn(member):
            return True
        if member.submobjects:
            push(member.submobjects)
            walked += len(member.submobjects)
            if walked > _MEMBERS_GUARD:
                return any(drawn(part) for part in mob.family_members_with_points())
    return False


def _in_view(box: tuple[float, float, float, float]) -> bool:
    half_w, half_h = config.frame_width / 2, config.frame_height / 2
    left, right, bottom, top = box
    return right > -half_w and left < half_w and top > -half_h and bottom < half_h


def _shaded(cell: Mobject, view: View) -> bool:
    """A grid cell in view whose shade is drawn while every number it holds is hidden (a plain bool: the counts
    made of it go into the inspection's JSON, where numpy's bool would not)."""
    numbers = [m for m in cell.submobjects[1:] if isinstance(m, TracedNumber)]
    return bool(numbers and _drawn(cell[0]) and not any(_drawn(n) for n in numbers)
                and _in_view(screen_box(cell[0], view)))


def filmed(cell: Mobject) -> bool:
    """Whether the cell belongs to a picture the layout engine put on the camera's rung (compose.mark_filmed):
    larger than the frame even at the floor, so its parts not being worked on may stand as shades."""
    return bool(cell.__dict__.get("filmed"))


def shaded_cells(grid: TensorGrid, view: View) -> int:
    """How many of `grid`'s cells are in view as a drawn shade whose number is hidden."""
    return sum(_shaded(cell, view) for row in grid.cells for cell in row)


def shaded_grids(mobjects: Iterable[Mobject], view: View) -> list[ShadedGrid]:
    """Every grid on screen with values shown as shades, one entry per grid (its path and shape). A cell is found
    wherever it is, inside its grid or on screen on its own (a staging that moves the cells apart), by what every
    TensorGrid cell carries: its grid's path and shape."""
    counts: dict[tuple[str, tuple[int, int], bool], int] = {}
    for mob in _grid_cells(mobjects):
        key = (mob.grid_path, mob.grid_shape, filmed(mob))
        counts[key] = counts.get(key, 0) + _shaded(mob, view)
    return [ShadedGrid(path, rows, cols, count, on_camera) for (path, (rows, cols), on_camera), count
            in counts.items() if count]


#: More mobjects than any scene holds: a walk that gets here has met a mobject inside itself (see _grid_cells).
_CYCLE_GUARD = 1_000_000


def _grid_cells(mobjects: Iterable[Mobject]) -> list[Mobject]:
    """Every mobject under `mobjects` that carries a grid cell's shape, each once. A text (a number, a word) holds
    no cell, so the walk does not go into its glyphs (most of a grid's members); nor does it ask each member for
    the attribute through manim's `Mobject.__getattr__` (a miss runs Python code), but reads the member's own
    attributes, where the grid put it. A walk that meets a mobject inside itself asks every family instead."""
    tops = list(mobjects)
    cells: list[Mobject] = []
    seen: set[int] = set()
    pending = tops[::-1]
    visited = 0
    while pending:
        mob = pending.pop()
        if mob.__dict__.get("grid_shape") is not None and id(mob) not in seen:
            seen.add(id(mob))
            cells.append(mob)
        if isinstance(mob, _TEXTS):
            continue
        submobjects = mob.submobjects
        if submobjects:
            pending.extend(submobjects[::-1])
            visited += len(submobjects)
            if visited > _CYCLE_GUARD:
                return _grid_cells_family_by_family(tops)
    return cells


def _grid_cells_family_by_family(tops: list[Mobject]) -> list[Mobject]:
    cells, seen = [], set()
    for top in tops:
        for mob in top.get_family():
            if getattr(mob, "grid_shape", None) is not None and id(mob) not in seen:
                seen.add(id(mob))
                cells.append(mob)
    return cells


__all__ = ["SHADE_FREE_SIDE", "ShadedGrid", "shaded_cells", "shaded_grids"]
