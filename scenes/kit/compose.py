"""The layout engine: a beat gives its content in the forms it may take; the kit picks the form and the plan.

A scene never asks whether its picture fits. It hands `compose` the arrangements its content can take (built by
the kit's pieces: a product side by side or stacked, words beside their rows or beside the sums, ...), and the
region it belongs to. One preference order, the same for every scene, frame and example:

1. **worked**: the first form whose numbers read at typography.WORKED_NUMBER_SIZE or more once fitted, every
   other text at the floor or more (a form `all_worked`, a formula, holds every text to the worked size);
2. **floor**: the first form whose smallest text (numbers included) stays at the floor once fitted;
   (a form marked `last_resort`, packed closer than the kit likes, only where no other form reaches 1 or 2);
3. **camera**: the first form made for close-ups (`Form.close_up`), else the one whose text comes out largest
   of those no wider than the region at the floor (the camera then only pans down), else the narrowest,
   built at the floor (larger than the region), for the camera to show part by part: the part being worked on
   framed with its numbers, shades only for the rest.

It returns the fitted composition and a `Plan`, both settled for the rest of the beat: the motion helpers
(`scenes.kit.staging`) take the plan and do what it says, so no scene writes `if big`.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from manim import DOWN, Mobject

from . import layout, shot_content, sketch, typography

#: The rungs of the preference order, best first (a Plan says which one won).
WORKED, FLOOR, CAMERA = "worked", "floor", "camera"


@dataclass(frozen=True)
class Form:
    """One arrangement of a beat's content: `build()` makes it (unfitted); `whole(built)` is what to fit and
    measure (default: what `build` returned; a form may return a record of parts). `region`: where this form is
    fitted, when not compose's own (a form that gives up the top band takes the whole frame)."""

    name: str
    build: Callable[[], Any]
    whole: Callable[[Any], Mobject] = lambda built: built
    region: layout.Region | None = None
    close_up: bool = False  #: made for the camera: what a close-up frames sits together (a word by its score)
    grow: bool = True  #: fitted larger than built where there is room (False: only shrunk, as a stacked formula)
    marks: bool = False  #: its grids' cells hold marks (a ✓/✗ table): their shades stand in for no numbers
    #: False: a form made only to reach the floor (tighter cells, fewer labels than the roomier forms before it);
    #: where no form reaches the floor, the camera shows one of the others, as though it had not been offered.
    camera: bool = True
    #: packed closer than the kit likes (numbers a hairline apart): taken only where no other form reads at the
    #: floor (such a form is also made with camera=False: never filmed)
    last_resort: bool = False
    #: a form whose every text is what the beat works on (a formula on one line): it counts as worked only where
    #: its smallest text reads at the worked size, as numbers do; else a later form that does is taken
    all_worked: bool = False


@dataclass(frozen=True)
class Plan:
    """How a composed picture is shown: `rung` (WORKED, FLOOR or CAMERA), the form chosen, the region it was
    fitted into, and the mobjects that stay still on screen while a camera moves (the step's formula)."""

    whole: Mobject
    form: str
    rung: str
    region: layout.Region
    pinned: tuple[Mobject, ...] = ()

    @property
    def camera(self) -> bool:
        """Whether the camera shows the picture part by part (it is larger than the region at the floor)."""
        return self.rung == CAMERA


def smallest_number(mob: Mobject) -> float | None:
    """The smallest font size of a traced number in `mob`, as built (None when it shows no number)."""
    return shot_content.smallest_sizes(mob)[1]


#: Two forms this close in width at the floor (relatively) are equally narrow: what tells them apart is a rounding.
TIED = 1e-6

fill_factor = layout.fill_factor  #: how far a form is scaled to fill its region (the one formula, in layout)


def shows_shades(mob: Mobject) -> bool:
    """Whether `mob` holds a grid whose cells are shades without their numbers (a heat map built without values):
    shades stand in for numbers only as the last resort, on the camera's rung."""
    from .widgets import TensorGrid

    return any(isinstance(m, TensorGrid) and m.cells and not m.numbers() and m.shading != "none"
               for m in mob.get_family())


def rung_of(mob: Mobject, region: layout.Region, *, grow: bool = True, marks: bool = False,
            all_worked: bool = False) -> str:
    """The best rung `mob` reaches in `region` (fitted larger only if `grow`): WORKED, FLOOR or CAMERA (a form
    that shows numbers as shades is on the camera's rung, whatever its size, unless its cells hold `marks`;
    `all_worked`: its every text is held to the worked size, as numbers are)."""
    if shows_shades(mob) and not marks:
        return CAMERA
    factor = fill_factor(mob, region, grow=grow)
    smallest, smallest_number_size = shot_content.smallest_sizes(mob)
    text = smallest * factor
    numbers = smallest if all_worked else smallest_number_size
    tolerance = 1 - shot_content.ROUNDING
    if text < typography.MIN_FONT_SIZE * tolerance:
        return CAMERA
    if numbers is None or numbers * factor >= typography.WORKED_NUMBER_SIZE * tolerance:
        return WORKED
    return FLOOR


def compose(forms: Sequence[Form], region: layout.Region | None = None, *,
            pinned: Sequence[Mobject] = ()) -> tuple[Any, Plan]:
    """Build the forms in order until one reads at the worked size, fit the chosen one into `region` (default: the
    body), and return (what its build returned, the plan). Forms after the one chosen are never built; forms after
    the first are weighed as sketches (`scenes.kit.sketch`: numbers as stand-ins of their size), and the one chosen
    is then built for real."""
    if not forms:
        raise ValueError("compose needs at least one form")
    region = region or layout.body()
    built: list[tuple[Form, Any, str]] = []
    for form in forms:
        if form.close_up and any(entry[2] != CAMERA for entry in built):
            continue  # a close-up form is for the camera only, and an earlier form needs none
        with sketch.sketching() if built else contextlib.nullcontext():  # the first is built for real
            made = form.build()
        rung = rung_of(form.whole(made), form.region or region, grow=form.grow, marks=form.marks,
                       all_worked=form.all_worked)
        built.append((form, made, rung))
        if rung == WORKED and not form.last_resort:
            break
    chosen = _preferred(built, region)
    form, made, rung = chosen
    if chosen is not built[0]:
        made = form.build()  # weighed as a sketch: now for real
    whole, region = form.whole(made), form.region or region
    if rung == CAMERA:
        shot_content.build_legible(whole, region)
        names_read_from_afar(whole, region)
        mark_filmed(whole)
    else:
        layout.fit_into(whole, region, grow=form.grow)
    return made, Plan(whole, form.name, rung, region, tuple(pinned))


def part_name(name: Mobject) -> Mobject:
    """Mark `name` as the name of a part of its picture ("head 2" over its map): where the picture is filmed, the
    name reads in the overview from afar too (`names_read_from_afar`), so the pulled-back maps keep their names."""
    name.part_name = True
    return name


def names_read_from_afar(whole: Mobject, region: layout.Region) -> None:
    """Grow each `part_name` of a filmed picture (about its lower edge, towards its part) until it reads at the
    floor in the shot that shows the whole (`camera_moves.shot_on_all`): the camera's overview, where the numbers
    are shades, still says which part is which. Close-ups then show the name larger than the rest."""
    from .camera_moves import shot_on_all

    names = [mob for mob in whole.get_family() if mob.__dict__.get("part_name")]
    wanted = typography.MIN_FONT_SIZE * shot_content.BUILD_MARGIN
    for _ in range(4):  # the names grow the whole a little, which zooms the overview out a little more
        zoom = min(1.0, shot_on_all(whole, region).zoom)
        small = [(name, wanted / (shot_content.font_size(name) * zoom)) for name in names]
        small = [(name, factor) for name, factor in small if factor > 1 + 1e-3]
        if not small:
            return
        for name, factor in small:
            name.scale(factor, about_edge=DOWN)


def mark_filmed(whole: Mobject) -> None:
    """Mark every grid cell of a picture put on the camera's rung: there (only there) a cell not being worked on
    may show its value as a shade (the shade gate asks the mark; the story gate holds the worked part)."""
    for mob in whole.get_family():
        if mob.__dict__.get("grid_shape") is not None:
            mob.filmed = True


def _preferred(built: list[tuple[Form, Any, str]], region: layout.Region) -> tuple[Form, Any, str]:
    for last_resort in (False, True):
        for wanted in (WORKED, FLOOR):
            for entry in built:
                if entry[2] == wanted and entry[0].last_resort == last_resort:
                    return entry
    # the camera's rung: forms made to be filmed
    built = [entry for entry in built if entry[0].camera] or built
    made_for_camera = [entry for entry in built if entry[0].close_up]
    if made_for_camera:
        return made_for_camera[0]
    chosen = to_film([entry[0].whole(entry[1]) for entry in built], [entry[0].region or region for entry in built])
    return built[chosen]


def to_film(wholes: Sequence[Mobject], regions: Sequence[layout.Region]) -> int:
    """Which of pictures larger than their regions at the floor the camera shows (its index): the one whose text
    comes out largest of those no wider than their region at the floor (the camera then only pans down), else the
    narrowest, with the least to pan across. The one camera rule, for compose and for a panel that picks its own
    arrangement (`score_bars.bars_or_rows`)."""
    @functools.cache
    def smallest_font(i: int) -> float:  # each picture's smallest text, measured once (nothing moves meanwhile)
        return shot_content.smallest_font(wholes[i])

    def floor_scale(i: int) -> float:  # shot_content.floor_scale, from the measured smallest text
        return shot_content.to_floor(smallest_font(i))

    def legibility(i: int) -> float:
        return fill_factor(wholes[i], regions[i]) * smallest_font(i)

    def width_at_floor(i: int) -> float:
        return wholes[i].width * floor_scale(i)

    def panned_across(i: int) -> float:
        """How much of its parts, at the floor, lies beyond its region's width: what the camera pans across."""
        scale, room = floor_scale(i), regions[i].width
        return sum(max(0.0, part.width * scale - room) for part in (wholes[i].submobjects or [wholes[i]]))

    indices = range(len(wholes))
    one_way = [i for i in indices if width_at_floor(i) <= regions[i].width]  # the camera only pans down it
    if not one_way:  # every form needs the camera to pan across too: the narrowest at the floor, the least panning
        narrowest = min(width_at_floor(i) for i in indices)
        # forms as narrow (their widest part the same, a matrix under a vector laid as a row or as a column) differ
        # only by a rounding: the one with less to pan across (the vector's row wider than the frame is one more)
        tied = [i for i in indices if width_at_floor(i) <= narrowest * (1 + TIED)]
        least = min(panned_across(i) for i in tied)
        return next(i for i in tied if panned_across(i) <= least + narrowest * TIED)  # the first of equals
    best = max(legibility(i) for i in one_way)
    return next(i for i in one_way if legibility(i) >= best - 1e-9)  # the first of equals


def single(name: str, build: Callable[[], Any], whole: Callable[[Any], Mobject] = lambda built: built) -> list[Form]:
    """The one form of content that has no other arrangement (compose still picks its rung)."""
    return [Form(name, build, whole)]


__all__ = ["WORKED", "FLOOR", "CAMERA", "Form", "Plan", "compose", "rung_of", "fill_factor", "smallest_number",
           "single", "to_film", "part_name"]
