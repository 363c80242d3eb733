"""An oversized composition under a moving camera: numbers where the shot makes them legible, shaded cells elsewhere.

Where a composition cannot fit the body above the legibility floor (eight words of width-6 vectors side by side,
eleven rows), a scene builds it at a legible size, bigger than the frame (`build_legible`), and moves the camera
onto the part being worked on. What the shot shows is then decided here, by one rule: a text (a number, a word, a
name) is shown when it lies wholly inside the shot's body and comes out at or above the floor through the shot's
zoom; otherwise it is hidden, and a matrix cell whose number is hidden is shaded by its value instead (blue / red,
as in a heat map), so the pulled-back whole still shows the shape of the data.

    build_legible(mob, region)              fit `mob` if it fits legibly (False), else scale it to the floor (True)
    shot_state(scene, shot, within)         the animations that put `within` in that state (play them with the move)
    apply_shot_state(shot, within)          the same at once, for parts not on screen yet (they enter in that state)

`AttentionScene.frame_on` / `pull_back` move the camera; pass `*shot_state(self, shot, comp)` along.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

import numpy as np
from manim import Animation, DecimalNumber, Mobject, Rectangle, Text, Typst, VMobject
from manim.mobject.text import typst_mobject

from . import camera_moves, layout, palette, typography
from .light_animations import ALPHAS, FillTo, OpacityTo, plain
from .numbers import TracedNumber
from .on_screen import boundary_box
from .widgets import TensorGrid

#: Text is shown only when it comes out at least this much above the floor (the gates' own tolerance is below 1).
SAFETY = 1.0
#: How far (as a share of the floor) a size may fall short of it by rounding alone and still count as at the floor: a
#: composition fitted to the floor measures its numbers at 26 ± 1e-12 (a size read back from scaled glyph heights),
#: and one hidden by that noise alone would stay a shade in a shot where its row-mates read as numbers.
ROUNDING = 1e-9
#: How far into the frame's margin a text may reach and still be shown, as a share of the margin: a composition
#: fitted to the frame may use half of it (head_split's maps of many heads), and its words must not vanish there.
MARGIN_REACH = 0.5
#: The most a too-large composition is shrunk towards the floor: built so its smallest text reads at the floor times
#: this (a little room above the floor for the camera's framing margin).
BUILD_MARGIN = 1.04


#: What reads as one text, for the camera and the quality gates alike (scenes.quality.inspection walks a scene with
#: these, and gathers a torn formula's loose glyphs besides): a traced number, Typst/MathTypst, Pango text, and a
#: bare DecimalNumber (which the number gate then refuses: every shown number is traced).
TEXT_TYPES = (TracedNumber, Typst, Text, DecimalNumber)


def text_units(mob: Mobject) -> list[Mobject]:
    """The outermost texts of `mob` (TEXT_TYPES), as the quality gates see them."""
    return outermost(mob, TEXT_TYPES)


def outermost(mob: Mobject, types: type | tuple[type, ...]) -> list[Mobject]:
    """The members of `mob` of `types` that lie in no other such member (a grid's cells count as their grid)."""
    found: list[Mobject] = []

    def visit(m: Mobject) -> None:
        if isinstance(m, types):
            found.append(m)
            return
        for sub in m.submobjects:
            visit(sub)

    visit(mob)
    return found


#: manim's Typst.font_size, read from the height it measures (see `typst_font_size`).
_TYPST_FONT_SIZE = Typst.__dict__["font_size"]


def typst_font_size(leaf: Typst) -> float | None:
    """`leaf.font_size` when `leaf.height > 0`, else None: manim's own formula (its height over its height as built,
    per point) from one measure of the height, where asking `height > 0` and then `font_size` measured it twice (the
    close-up asks it of every text on every camera move)."""
    height = leaf.height
    if not height > 0:
        return None
    if type(leaf).font_size is not _TYPST_FONT_SIZE:  # a subclass that says its size its own way
        return leaf.font_size
    return height / leaf.initial_height / typst_mobject.SCALE_FACTOR_PER_FONT_POINT


def font_size(unit: Mobject) -> float | None:
    """The smallest Typst size inside a text unit (as built, before any camera zoom)."""
    sizes = [size for leaf in unit.get_family()
             if isinstance(leaf, Typst) and (size := typst_font_size(leaf)) is not None]
    return min(sizes) if sizes else None


def smallest_font(mob: Mobject) -> float:
    return smallest_sizes(mob)[0]


def smallest_sizes(mob: Mobject) -> tuple[float, float | None]:
    """`mob`'s smallest text (MIN_FONT_SIZE where it has none) and smallest traced number (None where it shows none),
    from one measure of each text: compose asks both of every form it weighs."""
    sized = [(unit, size) for unit in text_units(mob) if (size := font_size(unit)) is not None]
    numbers = [size for unit, size in sized if isinstance(unit, TracedNumber)]
    return min((size for _, size in sized), default=typography.MIN_FONT_SIZE), min(numbers, default=None)


def floor_scale(mob: Mobject) -> float:
    """The factor that sets `mob`'s smallest text at the floor, with the margin a composition built for the camera
    keeps above it (BUILD_MARGIN): what `build_legible` scales a picture too large for its region by."""
    return to_floor(smallest_font(mob))


def to_floor(smallest: float) -> float:
    """The factor that sets a smallest text of size `smallest` at the floor, BUILD_MARGIN above it."""
    return typography.MIN_FONT_SIZE * BUILD_MARGIN / smallest


def build_legible(mob: Mobject, region: layout.Region | None = None) -> bool:
    """Fit `mob` into `region` (default: the body) when its smallest text stays legible there, and say False;
    otherwise scale it only as far as keeps that text at the floor (BUILD_MARGIN above it), centre it on the
    region, bigger than the region, and say True: the scene then frames its parts with the camera."""
    region = region or layout.body()
    smallest = smallest_font(mob)
    if layout.fits_legibly(mob, region, smallest):
        layout.fit_into(mob, region)
        return False
    mob.scale(to_floor(smallest))
    mob.move_to(region.center)
    return True


def legible_in(unit: Mobject, shot: camera_moves.Shot, region: layout.Region | None = None, *,
               floor: float | None = None) -> bool:
    """Whether the shot shows `unit` whole, under the top band (or in `region`'s height), at or above the floor
    (`floor`, default typography.MIN_FONT_SIZE)."""
    return _legible(font_size(unit), boundary_box(unit), shot, layout.frame(), region or layout.body(), floor)


def legible_all(units: Sequence[Mobject], shot: camera_moves.Shot, region: layout.Region | None = None, *,
                floors: Sequence[float | None] | None = None) -> list[bool]:
    """`legible_in` of every unit (`floors`: each unit's floor, default the floor), from one `text_measures`."""
    whole, body = layout.frame(), region or layout.body()
    floors = floors if floors is not None else [None] * len(units)
    return [_legible(size, box, shot, whole, body, floor)
            for (size, box), floor in zip(text_measures(units), floors)]


def _legible(size: float | None, box: tuple[float, float, float, float], shot: camera_moves.Shot,
             whole: layout.Region, body: layout.Region, floor: float | None) -> bool:
    if size is not None and \
            size * shot.zoom < (typography.MIN_FONT_SIZE if floor is None else floor) * SAFETY * (1 - ROUNDING):
        return False
    zoom = shot.zoom
    left, right = (box[0] - shot.center[0]) * zoom, (box[1] - shot.center[0]) * zoom
    bottom, top = (box[2] - shot.center[1]) * zoom, (box[3] - shot.center[1]) * zoom
    reach = layout.MARGIN * MARGIN_REACH  # a text may reach this far into the frame's margin and still read whole
    return (left >= whole.left - reach and right <= whole.right + reach and bottom >= whole.bottom - reach
            and top <= body.top)


@dataclass
class _Held:
    """What a sweep reads back while the picture is held still (`held_still`)."""

    #: each text's measure by id (the text kept alive with it, so no id is reused); None for a text that moves
    measures: dict[int, tuple[Mobject, tuple | None]] = field(default_factory=dict)
    #: the texts and the numbered cells of each `within` a shot state was asked of, by id
    parts: dict[int, tuple[Mobject, list[Mobject], list]] = field(default_factory=dict)
    #: the ids of every member of what moves with the camera (its frame, the pinned formula, the band's cover): a
    #: text with such a member is measured afresh every time
    moving: frozenset[int] = frozenset()
    #: what a sweep's helpers found once and may read back until the sweep ends (`still_notes`)
    notes: dict = field(default_factory=dict)
    #: each mobject's box by id (kept alive with it); None for one with a member that moves with the camera
    boxes: dict[int, tuple[Mobject, tuple | None]] = field(default_factory=dict)


#: The sweep under way, if any: set by `held_still` for its duration, as a context variable (no module state).
_HELD: ContextVar[_Held | None] = ContextVar("held_still", default=None)


@contextmanager
def held_still(scene, moving: Sequence[Mobject]) -> Iterator[None]:
    """While the camera only moves over the picture (a sweep: camera moves whose plays change texts' and cells'
    opacity and fill, never their points), each text's measure (`text_measures`) is taken once and read back, and
    so are the texts and numbered cells of the `within` a shot state is asked of. `moving`: what the moves carry
    along (the pinned formula, the band's cover); their texts are measured afresh each time. Nothing is held when
    some mobject on the stage has an updater (it could move a text between two moves) or the scene has one."""
    if _HELD.get() is not None or scene.updaters or any(m.updaters for m in scene.get_mobject_family_members()):
        yield
        return
    frame = getattr(scene.camera, "frame", None)
    token = _HELD.set(_Held(moving=frozenset(
        id(m) for mob in [*moving, *([frame] if frame is not None else [])] for m in mob.get_family())))
    try:
        yield
    finally:
        _HELD.reset(token)


def holding_still() -> bool:
    """Whether a sweep holds the picture still now (`held_still`)."""
    return _HELD.get() is not None


def still_notes() -> dict | None:
    """A note book that lasts while the picture is held still (`held_still`), else None: what a sweep's helpers
    found once and may read back until the sweep ends."""
    held = _HELD.get()
    return held.notes if held is not None else None


def still_box(mob: Mobject) -> tuple[float, float, float, float]:
    """`boundary_box(mob)`, found once while the picture is held still (`held_still`: no point of it moves, so a
    sweep's close-ups measure the picture and its pieces once, not at every shot); a mobject with a member that
    moves with the camera is measured afresh."""
    held = _HELD.get()
    if held is None:
        return boundary_box(mob)
    kept = held.boxes.get(id(mob))
    if kept is None:
        box = boundary_box(mob)
        moves = any(id(member) in held.moving for member in mob.get_family())
        held.boxes[id(mob)] = (mob, None if moves else box)
        return box
    return kept[1] if kept[1] is not None else boundary_box(mob)


def text_measures(units: Sequence[Mobject]) -> list[tuple[float | None, tuple[float, float, float, float]]]:
    """`_measures` of `units`, each text measured once while the picture is `held_still` (the same floats: a text's
    measure does not depend on the texts measured with it)."""
    held = _HELD.get()
    if held is None:
        return _measures(units)
    still = held.measures
    missing = [unit for unit in units if id(unit) not in still]
    if missing:
        for unit, measure in zip(missing, _measures(missing)):
            still[id(unit)] = (unit, None if any(id(member) in held.moving for member in unit.get_family())
                               else measure)
    found = [still[id(unit)][1] for unit in units]
    if any(measure is None for measure in found):
        fresh = iter(_measures([unit for unit, measure in zip(units, found) if measure is None]))
        found = [measure if measure is not None else next(fresh) for measure in found]
    return found


def measure_texts(units: Sequence[Mobject]) -> list[tuple[float | None, tuple[float, float, float, float]]]:
    """(`font_size(unit)`, `boundary_box(unit)`) of every unit, measured now from one gathering of their points
    (never read back from a sweep's held measures: the quality gates measure what is on screen afresh)."""
    return _measures(units)


def _measures(units: Sequence[Mobject]) -> list[tuple[float | None, tuple[float, float, float, float]]]:
    """(`font_size(unit)`, `boundary_box(unit)`) of every unit, the same floats, from one gathering of their points.

    A close-up asks both of every text of a composition on every camera move (hundreds of texts, a few points arrays
    each): measured one by one, that is two walks of each family and a dozen small numpy reductions per glyph, a
    quarter of a headless run of causal_triangle. Here every family is walked once and its points joined into one
    array, reduced per text (`reduceat`): a box's edges are the minima and maxima of the same anchors, a Typst
    leaf's height the maximum minus the minimum of the same y coordinates, so every figure is the same. A text
    with a leaf that says its size its own way, or points holding a NaN, is measured the old way."""
    blocks: list[np.ndarray] = []  # every member's points, text by text
    steps: list[int] = []  # each block's anchor step (1: every point counts, as for a text that is no VMobject)
    unit_ends: list[int] = []  # where each text's blocks end
    heights: list[np.ndarray] = []  # the y coordinates of every member of every Typst leaf, leaf by leaf
    leaf_ends: list[int] = []
    leaves: list[tuple[int, Mobject]] = []  # (text, leaf)
    odd: set[int] = set()
    for index, unit in enumerate(units):
        family = unit.get_family()
        anchored = isinstance(unit, VMobject)
        for member in family:
            points = member.points
            if len(points):
                blocks.append(points)
                steps.append(getattr(member, "n_points_per_cubic_curve", 4) if anchored else 1)
            if isinstance(member, Typst):
                if type(member).font_size is not _TYPST_FONT_SIZE:
                    odd.add(index)
                for part in member.get_family():
                    if len(part.points):
                        heights.append(part.points[:, 1])
                leaf_ends.append(len(heights))
                leaves.append((index, member))
        unit_ends.append(len(blocks))
    boxes = _boxes(blocks, steps, unit_ends)
    spans = _spans(heights, leaf_ends)
    if boxes is None or spans is None:
        return [(font_size(unit), boundary_box(unit)) for unit in units]
    sizes: list[float | None] = [None] * len(units)
    for (index, leaf), height in zip(leaves, spans):
        if not height > 0:
            continue
        size = height / leaf.initial_height / typst_mobject.SCALE_FACTOR_PER_FONT_POINT
        sizes[index] = size if sizes[index] is None else min(sizes[index], size)
    for index in odd:
        sizes[index] = font_size(units[index])
    return list(zip(sizes, boxes))


def _boxes(blocks: list[np.ndarray], steps: list[int], unit_ends: list[int]
           ) -> list[tuple[float, float, float, float]] | None:
    """Each text's (left, right, bottom, top) over its members' anchors (on_screen._anchors: every step-th point and
    the one before it), zeros for a text without points; None where a NaN needs the old way."""
    zero = (0.0, 0.0, 0.0, 0.0)
    if not blocks:
        return [zero] * len(unit_ends)
    points = np.concatenate(blocks)
    if np.isnan(points[:, :2]).any():
        return None
    counts = np.fromiter((len(b) for b in blocks), dtype=np.int64, count=len(blocks))
    starts = np.cumsum(counts) - counts
    local = np.arange(len(points)) - np.repeat(starts, counts)
    step = np.repeat(np.asarray(steps, dtype=np.int64), counts)
    anchor = (local % step == 0) | (local % step == step - 1)
    lows = np.where(anchor[:, None], points[:, :2], np.inf)
    highs = np.where(anchor[:, None], points[:, :2], -np.inf)
    first_rows = np.concatenate([[0], np.cumsum(counts)])  # block b's rows start at first_rows[b]
    boxes, kept, begin = [], [], 0
    for end in unit_ends:
        kept.append((first_rows[begin], first_rows[end]) if end > begin else None)
        begin = end
    segments = [span[0] for span in kept if span is not None]
    if segments:
        mins, maxs = np.minimum.reduceat(lows, segments), np.maximum.reduceat(highs, segments)
    found = iter(range(len(segments)))
    for span in kept:
        if span is None:
            boxes.append(zero)
            continue
        k = next(found)
        boxes.append((float(mins[k, 0]), float(maxs[k, 0]), float(mins[k, 1]), float(maxs[k, 1])))
    return boxes


def _spans(columns: list[np.ndarray], ends: list[int]) -> list[float] | None:
    """Each leaf's largest minus smallest y (0 for a leaf without points), as length_over_dim gives it; None where a
    NaN needs the old way."""
    if not columns:
        return [0] * len(ends)
    values = np.concatenate(columns)
    if np.isnan(values).any():
        return None
    counts = np.fromiter((len(c) for c in columns), dtype=np.int64, count=len(columns))
    first = np.concatenate([[0], np.cumsum(counts)])
    spans, segments, begin = [], [], 0
    for end in ends:
        spans.append(first[begin] if end > begin else None)
        begin = end
    segments = [start for start in spans if start is not None]
    if segments:
        lows, highs = np.minimum.reduceat(values, segments), np.maximum.reduceat(values, segments)
    found = iter(range(len(segments)))
    out: list[float] = []
    for start in spans:
        if start is None:
            out.append(0)
            continue
        k = next(found)
        out.append(highs[k] - lows[k])
    return out


def _cells(within: Mobject):
    """(square, number, grid scale) for every numbered cell of every TensorGrid in `within` (a cell a transform has
    padded with faded copies still has its own square and number first)."""
    for grid in (m for m in within.get_family() if isinstance(m, TensorGrid)):
        numbers = grid.numbers()
        if not numbers:
            continue
        finite = [abs(n.value) for n in numbers if n.value == n.value and abs(n.value) != float("inf")]
        scale = max(finite) if finite else 1.0
        for row in grid.cells:
            for cell in row:
                square = next((m for m in cell.submobjects if isinstance(m, Rectangle)), None)
                number = next((m for m in cell.submobjects if isinstance(m, TracedNumber)), None)
                if square is None or number is None:
                    continue
                if not hasattr(square, "plain_cell"):
                    square.plain_cell = square.get_fill_opacity() < 0.05  # a bracketed matrix's see-through cell
                yield square, number, scale


#: The attribute a text hidden by a shot state carries: a weak reference to itself, so a copy made of it (a
#: transform's faded padding copy; copying keeps the reference as it is) does not count as hidden by the camera,
#: and stays faded.
HIDDEN_BY_SHOT = "hidden_by_shot"


def _hidden_by_shot(unit: Mobject) -> bool:
    mark = getattr(unit, HIDDEN_BY_SHOT, None)
    return mark is not None and mark() is unit


def _targets(shot: camera_moves.Shot, within: Mobject, region: layout.Region | None = None,
             number_floor: float | None = None):
    """Texts of `within` to hide or show again for `shot` (with their opacity), and the fill of every plain cell
    (its value's shade while its number is hidden, see-through while shown). `number_floor`: the size a traced
    number must reach on screen to be shown (default the floor, like every text): a worked computation's numbers
    may be held to typography.WORKED_NUMBER_SIZE, shaded below it."""
    changes = []
    units, cells = _parts(within)
    floors = [number_floor if isinstance(unit, TracedNumber) else None for unit in units]
    for unit, legible in zip(units, legible_all(units, shot, region, floors=floors)):
        if not legible and not _hidden_by_shot(unit) and _opacity(unit) > 0.05:
            changes.append((unit, 0.0))
        elif legible and _hidden_by_shot(unit):
            changes.append((unit, 1.0))
    changed = {id(unit): opacity for unit, opacity in changes}

    def hidden_after(number: Mobject) -> bool:
        return changed.get(id(number), 0.0 if _hidden_by_shot(number) else 1.0) == 0.0

    fills = [(square, color, 1.0 if hidden_after(number) else 0.0)
             for square, number, color in cells if square.plain_cell]
    return changes, fills


def _parts(within: Mobject) -> tuple[list[Mobject], list]:
    """`within`'s texts and its numbered cells (square, number, the shade of its value), found once while the
    picture is held still (`held_still`: no play then adds or removes a part, or changes a value)."""
    held = _HELD.get()
    if held is not None:
        known = held.parts.get(id(within))
        if known is not None and known[0] is within:
            return known[1], known[2]
    parts = text_units(within), [(square, number, palette.value_color(number.value, scale) if square.plain_cell
                                  else None) for square, number, scale in _cells(within)]
    if held is not None:
        held.parts[id(within)] = (within, *parts)
    return parts


def set_opacity(unit: Mobject, opacity: float) -> None:
    """`unit.set_opacity(opacity)`, member by member without manim's colour arrays made and matched per member (a
    close-up hides or shows thousands of numbers off screen): every member's fill, stroke and background stroke
    alpha set to `opacity`, and their opacity attributes, as VMobject.set_opacity leaves them. A unit with a member
    that is not a plain VMobject (its own set_fill or set_stroke), has a sheen (manim adds a lighter row) or an empty
    colour array goes to manim's own."""
    members = unit.get_family()
    if not all(_plain(member) for member in members):
        unit.set_opacity(opacity)
        return
    for member in members:
        for array, attribute in _ALPHAS:
            getattr(member, array)[:, 3] = opacity
            setattr(member, attribute, opacity)


_plain = plain
_ALPHAS = ALPHAS


def _opacity(unit: Mobject) -> float:
    return max((p.get_fill_opacity() for p in unit.family_members_with_points()), default=0.0)


def _record(changes) -> None:
    for unit, opacity in changes:
        setattr(unit, HIDDEN_BY_SHOT, weakref.ref(unit) if opacity == 0.0 else None)


def apply_shot_state(shot: camera_moves.Shot, within: Mobject, region: layout.Region | None = None, *,
                     number_floor: float | None = None) -> None:
    """Put `within` at once in the state `shot` shows (texts hidden or shown, cells shaded or clear): for parts
    that are not on screen yet, so they enter already in it."""
    changes, fills = _targets(shot, within, region, number_floor)
    for unit, opacity in changes:
        set_opacity(unit, opacity)
    for square, color, opacity in fills:
        square.set_fill(color, opacity=opacity)
    _record(changes)


def shot_state(scene, shot: camera_moves.Shot, within: Mobject, region: layout.Region | None = None, *,
               number_floor: float | None = None) -> list[Animation]:
    """The animations that bring `within` into the state `shot` shows, for the parts on screen (the others are set
    at once, so they enter in that state); play them with the camera move. `number_floor` as in `_targets`."""
    on_screen = _on_screen(scene)
    changes, fills = _targets(shot, within, region, number_floor)
    anims: list[Animation] = []
    for unit, opacity in changes:
        if id(unit) in on_screen:
            anims.append(OpacityTo(unit, opacity))
        else:
            set_opacity(unit, opacity)
    for square, color, opacity in fills:
        if abs(square.get_fill_opacity() - opacity) < 1e-3:
            continue
        if id(square) in on_screen:
            anims.append(FillTo(square, color, opacity))
        else:
            square.set_fill(color, opacity=opacity)
    _record(changes)
    return anims


def _on_screen(scene) -> set[int]:
    """The ids of every member of every mobject on the stage. While the picture is held still (no group gains or
    loses a part), the same stage list (the same mobjects, in the same order) has the same members: found once."""
    notes = still_notes()
    if notes is None:
        return set(map(id, scene.get_mobject_family_members()))
    stage = (tuple(map(id, scene.mobjects)), tuple(map(id, scene.foreground_mobjects)))
    known = notes.get("on_screen")
    if known is None or known[0] != stage:
        known = notes["on_screen"] = (stage, set(map(id, scene.get_mobject_family_members())))
    return known[1]


def whole_shot(mob: Mobject, region: layout.Region | None = None) -> camera_moves.Shot:
    """The shot `pull_back(whole=mob)` goes to."""
    return camera_moves.shot_on_all(mob, region)


def row_shot(mob: Mobject, region: layout.Region | None = None) -> camera_moves.Shot:
    """The shot `frame_on(mob)` goes to."""
    return camera_moves.shot_on(mob, region)


__all__ = ["build_legible", "shot_state", "apply_shot_state", "legible_in", "text_units", "whole_shot", "row_shot",
           "SAFETY", "BUILD_MARGIN"]
