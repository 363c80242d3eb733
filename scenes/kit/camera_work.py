"""The kit's row-by-row products for a composition too large to read whole: the camera follows the work.

`dot_every_row` and `scale_every_row` + `add_rows` (scenes.kit.products) assume the composition fits the body
legibly. When it does not (eight words of width-6 vectors, eleven rows), a scene builds it at a legible size with
`shot_content.build_legible` and calls these instead: the whole is shown first from afar (shaded cells stand in for the
numbers), the camera moves in on the first row, where its products travel and collapse at a legible size, then
pulls back to the whole, where the remaining rows are worked as shaded cells. `frame_part` ends a beat on the part
the caption talks about (the top score, the context vector), its numbers legible again.

Every move carries only the `pinned` mobjects (the step's formula) along, so they stay still on screen.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass

import numpy as np
from manim import Animation, FadeOut, Mobject, Rectangle, Scene, VGroup, config

from . import camera_moves, shot_content, layout, palette
from .on_screen import View, current_view, screen_box
from .light_animations import end_at_once
from .products import DotProducts, ShownProduct, WeightedRows, row_times_vector, settle
from .widgets import TensorGrid

#: How many rows are worked in close-up before the camera pulls back to the whole.
CLOSE_ROWS = 1
#: A row worked from afar goes quicker: the close-up has shown how.
AFAR_RUN_TIME = 0.5


class BandCover(Rectangle):
    """The opaque strip over the top band (`cover_top_band`): a kind of its own, so the stage itself says whether
    one is up (no flag on the scene)."""


def band_cover(scene: Scene) -> BandCover | None:
    """The top band's cover on the stage, if one is up."""
    return next((m for m in scene.mobjects if isinstance(m, BandCover)), None)


def cover_top_band(scene: Scene, region: layout.Region | None = None) -> BandCover:
    """An opaque strip over the top band (down to `region`'s top, default the body's), added once per stage with
    the camera at rest: the step's formula sits on it while an oversized composition passes under it. Every move
    here carries it along with the pinned mobjects and keeps it (and them) in front."""
    cover = band_cover(scene)
    if cover is not None:
        return cover
    top = (region or layout.body()).top
    half_height = config.frame_height / 2
    cover = BandCover(width=config.frame_width, height=half_height - top, stroke_width=0,
                      fill_color=palette.BACKGROUND, fill_opacity=1)
    cover.move_to([0, (half_height + top) / 2, 0])
    scene.add(cover)
    return cover


def _pinned(scene: Scene, pinned: Sequence[Mobject]) -> list[Mobject]:
    cover = band_cover(scene)
    extra = [cover] if cover is not None and cover not in pinned else []
    return [*extra, *pinned]


def pinned_on_screen(scene: Scene, pinned: Sequence[Mobject]) -> list[Mobject]:
    """`pinned` and, when it is on screen, the top band's cover: what a camera move carries along."""
    return _pinned(scene, pinned)


def keep_in_front(scene: Scene, pinned: Sequence[Mobject]) -> None:
    """The cover and the formula over whatever entered since (a product row arriving under the top band). While a
    sweep holds the picture still (no group on the stage gains or loses a part), a stage whose list of mobjects is
    the very one the last bringing to front left is left as it is: bringing the same mobjects to the front of it
    again changes nothing."""
    front = _pinned(scene, pinned)
    notes = shot_content.still_notes()
    if notes is not None and notes.get("front") == _stage_lists(scene, front):
        return
    scene.bring_to_front(*front)
    if notes is not None:
        notes["front"] = _stage_lists(scene, front)


def _stage_lists(scene: Scene, front: Sequence[Mobject]) -> tuple:
    """What bringing `front` to the front reads and writes: the mobjects it brings, the stage's lists (Scene.add
    restructures the moving mobjects too), by identity."""
    return tuple(tuple(map(id, mobs)) for mobs in (front, scene.mobjects, scene.foreground_mobjects,
                                                    scene.moving_mobjects))


def move_to_shot(scene: Scene, shot: camera_moves.Shot, within: Mobject, pinned: Sequence[Mobject], *animations,
                 run_time: float = 1.0, region: layout.Region | None = None,
                 number_floor: float | None = None) -> None:
    """Move the camera to `shot`, `within` taking the state that shot shows (texts only in `region`'s height,
    default the body; traced numbers only at `number_floor` or above, default the floor), `pinned` (and the top
    band's cover) still on screen. A close-up at the picture's edge slides to fill the body with it (filled_by)."""
    shot = filled_by(shot, within, region)
    keep_in_front(scene, pinned)
    moves = camera_moves.move_camera(scene, shot, pinned=_pinned(scene, pinned))
    state = shot_content.shot_state(scene, shot, within, region, number_floor=number_floor)
    if not animations and _state_ends_at_once(scene, moves, state):
        end_at_once(scene, state)
        scene.play(*moves, run_time=run_time)
    else:
        scene.play(*moves, *state, *animations, run_time=run_time)
    keep_in_front(scene, pinned)


def move_through(scene: Scene, shots: Iterable[camera_moves.Shot], within: Mobject, pinned: Sequence[Mobject],
                 *animations: Animation, run_time: float = 1.0, region: layout.Region | None = None) -> None:
    """`move_to_shot` to each of `shots` in turn (taken one at a time: a generator finds each shot after the moves
    before it), `animations` playing with the first move. From the first move that plays nothing of its own on,
    only the camera moves: the picture is held still (shot_content.held_still)."""
    with ExitStack() as still:
        for i, shot in enumerate(shots):
            if i == (1 if animations else 0):
                still.enter_context(shot_content.held_still(scene, _pinned(scene, pinned)))
            move_to_shot(scene, shot, within, pinned, *(animations if i == 0 else ()), run_time=run_time,
                         region=region)


def _state_ends_at_once(scene: Scene, moves: Sequence[Animation], state: Sequence[Animation]) -> bool:
    """Whether the shot state's opacity and fill animations may end at once beside a skipped play of the camera's
    moves (`light_animations.end_at_once`): every play of the scene is skipped to its end (a headless run: the
    renderer made to skip, which no play undoes; a render decides play by play, and never comes here), the picture is held
    still (a sweep: no updater anywhere, see shot_content.held_still), and no member of what they animate is one the
    moves animate, so neither's end depends on the other (nor does the gate on two animations of one mobject)."""
    if not state or not getattr(scene.renderer, "_original_skipping_status", False) \
            or not shot_content.holding_still():
        return False
    moving = {id(member) for move in moves for member in move.mobject.get_family()}
    return not any(id(member) in moving for animation in state for member in animation.mobject.get_family())


def _row_shot(candidates: Sequence[Mobject], region: layout.Region | None = None) -> camera_moves.Shot:
    """The shot on the first candidate that fits the body at the frame's own scale or closer (the last one
    otherwise): a whole row when it fits, else the part of it where the products arrive."""
    body = region or layout.body()
    for mob in candidates:
        if mob.width <= body.width - 2 * camera_moves.FRAMING_MARGIN and mob.height <= body.height - 2 * camera_moves.FRAMING_MARGIN:
            return camera_moves.shot_on(mob, region)
    return camera_moves.shot_on(candidates[-1], region)


def reads_in_one_shot(part: Mobject, region: layout.Region | None = None) -> bool:
    """Whether one shot on `part` shows every text of it whole and at or above the floor."""
    return shows_legibly(camera_moves.shot_on(part, region), part, region)


def shows_legibly(shot: camera_moves.Shot, part: Mobject, region: layout.Region | None = None) -> bool:
    """Whether `shot` shows every text of `part` whole and at or above the floor."""
    return all(shot_content.legible_all(shot_content.text_units(part), shot, region))


def sweep(scene: Scene, pieces: Sequence[Mobject], whole: Mobject, pinned: Sequence[Mobject], *,
          region: layout.Region | None = None, run_time: float = AFAR_RUN_TIME) -> None:
    """Frame `pieces` in order, as many together as one shot shows legibly: every number of a part too wide (or
    too tall) for one legible shot is seen legible once (a six-entry row across a phone's width)."""
    group: list[Mobject] = []
    # only the camera moves (and what it carries): every text of the picture measured once for all the shots
    with shot_content.held_still(scene, _pinned(scene, pinned)):
        for piece in pieces:
            if group and not reads_in_one_shot(VGroup(*group, piece), region):
                move_to_shot(scene, camera_moves.shot_on(VGroup(*group), region), whole, pinned, run_time=run_time,
                             region=region)
                group = []
            group.append(piece)
        if group:
            move_to_shot(scene, camera_moves.shot_on(VGroup(*group), region), whole, pinned, run_time=run_time,
                         region=region)


def unread_pieces(scene: Scene, pieces: Sequence[Mobject], region: layout.Region | None = None) -> list[Mobject]:
    """`pieces` less those the camera shows legibly where it is now: a sweep after a worked row's close-up frames
    what that close-up did not read, not again the cells the viewer has just read in it."""
    view = current_view(scene)
    here = camera_moves.Shot(np.array([view.center_x, view.center_y, 0.0]), view.width)
    return [piece for piece in pieces if not shows_legibly(here, piece, region)]


def filled_by(shot: camera_moves.Shot, whole: Mobject, region: layout.Region | None = None) -> camera_moves.Shot:
    """`shot` slid, along each axis where `whole` is larger than `region` (default: the body) in that shot, until
    `whole` reaches the region's edge on the side it fell short of: a close-up on a piece at a picture's edge shows
    the picture beside it, not empty background (a head's name above its map was framed alone, its map's column
    words cut at the frame's edge and hidden). The piece stays in view: it lies inside `whole`. A slide that would
    cut at the region's edge a piece the region could hold whole (a sliver of K's bracket, a row of word boxes
    under a pinned heading) is not made; a piece larger than the region is cut in any close-up."""
    body, margin = region or layout.body(), camera_moves.FRAMING_MARGIN / 2
    view = _view(shot)
    left, right, bottom, top = _still_screen_box(whole, view)
    dx = _closing_the_gap(left, right, body.left + margin, body.right - margin)
    dy = _closing_the_gap(bottom, top, body.bottom + margin, body.top - margin)
    if dx == 0.0 and dy == 0.0:
        return shot
    slid = camera_moves.Shot(shot.center - [dx / view.zoom, dy / view.zoom, 0.0], shot.width)
    newly_cut = (piece for piece in _drawn_pieces(whole) if _fits(piece, view, body)
                 and _cuts(slid, piece, region) and not _cuts(shot, piece, region))
    return shot if any(newly_cut) else slid


def _still_screen_box(mob: Mobject, view: View) -> tuple[float, float, float, float]:
    """`screen_box`, from the box a sweep that holds the picture still found once (`shot_content.still_box`)."""
    return view.box_to_screen(shot_content.still_box(mob))


def _drawn_pieces(whole: Mobject) -> list[Mobject]:
    """What a viewer takes as one thing: each grid or map whole, each text outside them, each drawn shape outside
    both (a word's box, an arrow). Found once while a sweep holds the picture still (no group gains a part)."""
    notes = shot_content.still_notes()
    key = ("drawn pieces", id(whole))
    if notes is not None and key in notes:
        return notes[key][1]
    pieces = _find_drawn_pieces(whole)
    if notes is not None:
        notes[key] = (whole, pieces)
    return pieces


def _find_drawn_pieces(whole: Mobject) -> list[Mobject]:
    from .attention_map import AttentionMap

    grids = shot_content.outermost(whole, (TensorGrid, AttentionMap))
    inside = {id(m) for grid in grids for m in grid.get_family()}
    texts = [unit for unit in shot_content.text_units(whole) if id(unit) not in inside]
    inside.update(id(m) for text in texts for m in text.get_family())
    shapes = [m for m in whole.family_members_with_points() if id(m) not in inside and _drawn(m)]
    return grids + texts + shapes


def _drawn(shape: Mobject) -> bool:
    stroke = shape.get_stroke_width() > 0 and shape.get_stroke_opacity() > 0 if hasattr(shape, "get_stroke_width") \
        else False
    return stroke or (shape.get_fill_opacity() > 0 if hasattr(shape, "get_fill_opacity") else False)


def _fits(piece: Mobject, view: View, region: layout.Region) -> bool:
    left, right, bottom, top = _still_screen_box(piece, view)
    return right - left <= region.width and top - bottom <= region.height


#: The share of the region a gap of empty background must exceed before a close-up slides to close it: a narrow one
#: is the picture's margin; sliding for it brought a strip of the next part's column words in over the map.
EMPTY_SHARE = 0.25


def _closing_the_gap(low: float, high: float, edge_low: float, edge_high: float) -> float:
    """How far (on screen) to move a span [low, high] larger than [edge_low, edge_high] so it leaves no gap there
    wider than EMPTY_SHARE of the region."""
    room = edge_high - edge_low
    if high - low <= room:
        return 0.0
    if low - edge_low > EMPTY_SHARE * room:
        return edge_low - low
    if edge_high - high > EMPTY_SHARE * room:
        return edge_high - high
    return 0.0


def _dot_row_pieces(comp: DotProducts, i: int, extra: Sequence[Mobject]) -> list[Mobject]:
    """Row i of a product, in reading order: its matrix row's cells, the vector's entries, the row's products,
    then its sum (and word); `sweep` frames as many together as read."""
    return [*comp.matrix.row(i), *comp.vector.row(0), *comp.products.row(i), comp.result.cell(i), *extra]


def _scale_row_pieces(comp: WeightedRows, i: int, extra: Sequence[Mobject]) -> list[Mobject]:
    """Row i of a weighted sum, in reading order: its word, its weight, its matrix row's cells, its products."""
    return [*extra, comp.weights.cell(i), *comp.matrix.row(i), *comp.products.row(i)]


def show_whole(scene: Scene, whole: Mobject, pinned: Sequence[Mobject], *introductions: Animation,
               run_time: float = 1.2, region: layout.Region | None = None,
               with_move: Sequence[Animation] = ()) -> camera_moves.Shot:
    """Pull the camera out until all of `whole` fits the body (its numbers shaded, its small texts hidden), then
    play `introductions` (the FadeIns of the parts); `with_move` plays with the camera's move; returns the whole's
    shot."""
    shot = camera_moves.shot_on_all(whole, region)
    shot_content.apply_shot_state(shot, whole, region)
    cover_top_band(scene, region)
    scene.play(*camera_moves.move_camera(scene, shot, pinned=_pinned(scene, pinned)), *with_move, run_time=0.8)
    if introductions:
        scene.play(*introductions, run_time=run_time)
    keep_in_front(scene, pinned)
    return shot


@dataclass(frozen=True)
class RowWork:
    """One row of a worked product, as the camera needs it: what a close-up may frame (the most first), what must
    read in it, the motion that works the row (given the last row's box, a run time and whether it is the first
    row), and the row's pieces in reading order for a sweep when no one shot reads it."""

    shots: Sequence[Mobject]
    subject: Mobject
    work: Callable[[Mobject | None, float, bool], ShownProduct]
    pieces: Sequence[Mobject]


def every_row(scene: Scene, rows: Sequence[RowWork], whole: Mobject, pinned: Sequence[Mobject], *,
              settled: tuple[Sequence[Mobject], Callable[[ShownProduct], Sequence[Mobject]]], first_run_time: float,
              region: layout.Region | None = None, every_row_close: bool = False) -> list[ShownProduct]:
    """Work `rows` under a camera: the first CLOSE_ROWS in close-up, then the whole, where the others are worked
    as shaded cells; or, with `every_row_close`, every row in close-up with its numbers legible (the later ones
    quicker, swept in pieces where one shot does not read), and the camera pulls back to the whole at the end.
    `settled`: the grids the travelling pieces become once every row is worked, and the pieces of one row."""
    shown: list[ShownProduct] = []
    whole_shot = camera_moves.shot_on_all(whole, region)
    for i, row in enumerate(rows):
        close = every_row_close or i < CLOSE_ROWS
        if close:
            shot = _row_shot(row.shots, region)
            move_to_shot(scene, shot, whole, pinned, run_time=1.0 if i < CLOSE_ROWS else AFAR_RUN_TIME,
                         region=region)
        elif i == CLOSE_ROWS:
            move_to_shot(scene, whole_shot, whole, pinned, region=region)
        run_time = first_run_time if i < CLOSE_ROWS else (AFAR_RUN_TIME * 2 if close else AFAR_RUN_TIME)
        shown.append(row.work(shown[-1].box if shown else None, run_time, i == 0))
        keep_in_front(scene, pinned)
        if every_row_close and not shows_legibly(shot, row.subject, region):
            sweep(scene, unread_pieces(scene, row.pieces, region), whole, pinned, region=region)
    units, pieces_of = settled
    settle(scene, units, [m for s in shown for m in pieces_of(s)])
    keep_in_front(scene, pinned)
    if len(rows) <= CLOSE_ROWS or every_row_close:
        move_to_shot(scene, whole_shot, whole, pinned, region=region)
    return shown


def dot_every_row(scene: Scene, comp: DotProducts, whole: Mobject, pinned: Sequence[Mobject], *,
                  labels: Sequence[Mobject] = (), color=palette.KEY, with_first_products: Iterable[Animation] = (),
                  with_first_sum: Iterable[Animation] = (), run_time: float = 1.2,
                  region: layout.Region | None = None, every_row_close: bool = False) -> list[ShownProduct]:
    """products.dot_every_row under a camera (`every_row`): a close-up frames the vector, the row, its products
    and sum, with its label (`labels[i]`, a word) when given."""
    def row(i: int) -> RowWork:
        matrix_row, products, result = comp.row(i)
        extra = [labels[i]] if i < len(labels) else []

        def work(box: Mobject | None, time: float, first: bool) -> ShownProduct:
            return row_times_vector(scene, matrix_row, comp.vector.body, products, result, color=color, box=box,
                                    with_products=with_first_products if first else (),
                                    with_sum=with_first_sum if first else (), run_time=time)

        return RowWork([VGroup(comp.vector, matrix_row, products, result, *extra),
                        VGroup(comp.vector, products, result, *extra), VGroup(comp.vector, products, result)],
                       VGroup(comp.vector, matrix_row, products, result), work, _dot_row_pieces(comp, i, extra))

    return every_row(scene, [row(i) for i in range(comp.matrix.rows)], whole, pinned,
                     settled=([comp.products, comp.result], lambda s: (s.products, s.result)),
                     first_run_time=run_time, region=region, every_row_close=every_row_close)


def scale_every_row(scene: Scene, comp: WeightedRows, whole: Mobject, pinned: Sequence[Mobject], *,
                    labels: Sequence[Mobject] = (), color=palette.VALUE, with_first: Iterable[Animation] = (),
                    run_time: float = 0.6, region: layout.Region | None = None,
                    every_row_close: bool = False) -> list[ShownProduct]:
    """products.scale_every_row under a camera (`every_row`): a close-up frames the row's word, weight, matrix
    row and products."""
    def row(i: int) -> RowWork:
        weight, matrix_row, products = comp.row(i)
        extra = [labels[i]] if i < len(labels) else []

        def work(box: Mobject | None, time: float, first: bool) -> ShownProduct:
            return row_times_vector(scene, matrix_row, weight, products, None, color=color, box=box,
                                    with_products=with_first if first else (), run_time=time)

        return RowWork([VGroup(*extra, weight, matrix_row, products), VGroup(weight, matrix_row, products),
                        VGroup(matrix_row, products), VGroup(products)],
                       VGroup(weight, matrix_row, products), work, _scale_row_pieces(comp, i, extra))

    return every_row(scene, [row(i) for i in range(comp.matrix.rows)], whole, pinned,
                     settled=([comp.products], lambda s: (s.products,)), first_run_time=max(run_time, 1.0),
                     region=region, every_row_close=every_row_close)


def frame_part(scene: Scene, part: Mobject, whole: Mobject, pinned: Sequence[Mobject], *animations,
               run_time: float = 1.0, region: layout.Region | None = None) -> camera_moves.Shot:
    """End on `part` (the top score and its word, the context vector): the camera moves in until it fills the
    body, its numbers legible again, the rest of `whole` shaded or out of the shot."""
    shot = shot_without_slivers(part, whole, region)
    move_to_shot(scene, shot, whole, pinned, *animations, run_time=run_time, region=region)
    return shot


def shot_without_slivers(part: Mobject, whole: Mobject, region: layout.Region | None = None) -> camera_moves.Shot:
    """The shot on `part`, widened to take in whole each grid of `whole` it would cut at the edge of `region`, as
    long as every text of what it then frames still reads, else moved off such a grid where `part` stays whole in
    view: a close-up shows pieces, not slivers of them (a bracket's corner in a colour that means Q, a strip of
    shades), wherever it can."""
    taken, shot = [part], camera_moves.shot_on(part, region)
    inside = {id(mob) for mob in part.get_family()}
    grids = [grid for grid in shot_content.outermost(whole, TensorGrid) if id(grid) not in inside]
    while True:
        cut = [grid for grid in grids if _cuts(shot, grid, region) and grid not in taken]
        if not cut:
            return shot
        framed = VGroup(*taken, *cut)
        wider = camera_moves.shot_on(framed, region)
        if not shows_legibly(wider, framed, region) or any(_cuts(wider, grid, region) for grid in cut):
            break
        taken, shot = [*taken, *cut], wider
    for grid in cut:
        shot = _moved_off(shot, VGroup(*taken), grid, region) or shot
    return shot


def _moved_off(shot: camera_moves.Shot, part: Mobject, grid: Mobject,
               region: layout.Region | None = None) -> camera_moves.Shot | None:
    """`shot` moved the least way that leaves `grid` out of `region` with `part` still whole in it (None: none
    does, the grid beside the part on no side)."""
    body, margin = region or layout.body(), camera_moves.FRAMING_MARGIN / 2
    screen = _screen()  # out of view: past the frame's edge (past the region's top, under the top band)
    view = _view(shot)
    p, g = screen_box(part, view), screen_box(grid, view)
    moves = []  # (dx, dy) on screen: what every piece moves by
    if g[1] <= p[0]:
        moves.append((screen.left - margin - g[1], 0.0))
    if g[0] >= p[1]:
        moves.append((screen.right + margin - g[0], 0.0))
    if g[3] <= p[2]:
        moves.append((0.0, screen.bottom - margin - g[3]))
    if g[2] >= p[3]:
        moves.append((0.0, body.top + margin - g[2]))
    fits = [(dx, dy) for dx, dy in moves if p[0] + dx >= body.left and p[1] + dx <= body.right
            and p[2] + dy >= body.bottom and p[3] + dy <= body.top]
    if not fits:
        return None
    dx, dy = min(fits, key=lambda move: abs(move[0]) + abs(move[1]))
    return camera_moves.Shot(shot.center - [dx / view.zoom, dy / view.zoom, 0.0], shot.width)


def _screen() -> layout.Region:
    """The frame to its very edges (layout.frame() keeps a margin): what is past it is out of view."""
    half_w, half_h = config.frame_width / 2, config.frame_height / 2
    return layout.Region(-half_w, half_w, -half_h, half_h)


def _view(shot: camera_moves.Shot) -> View:
    return View(shot.center[0], shot.center[1], shot.width, shot.width * config.frame_height / config.frame_width)


def _cuts(shot: camera_moves.Shot, piece: Mobject, region: layout.Region | None = None) -> bool:
    """Whether `shot` shows part of `piece` on screen (in the frame, under `region`'s top, default the body's), but
    not all of it in `region`."""
    body, screen = region or layout.body(), _screen()
    left, right, bottom, top = _still_screen_box(piece, _view(shot))
    seen = left < screen.right and right > screen.left and bottom < body.top and top > screen.bottom
    whole = left >= body.left and right <= body.right and bottom >= body.bottom and top <= body.top
    return seen and not whole


def frame_along(scene: Scene, name: Mobject, grid, whole: Mobject, pinned: Sequence[Mobject], *,
                run_time: float = 1.0, region: layout.Region | None = None) -> camera_moves.Shot:
    """`frame_part` on a named row vector (`name` and `grid`'s cells): at once where it fits the body at the frame's
    own scale, else in pieces from left to right, each as wide as fits (a row too long for a narrow frame at a
    legible size: six entries in a portrait frame), so that every number is seen legible once; returns the last
    shot."""
    body = region or layout.body()
    room = body.width - 2 * camera_moves.FRAMING_MARGIN
    pieces, piece = [], [name]
    for cell in (grid.cell(0, c) for c in range(grid.cols)):
        if len(piece) > 1 and VGroup(*piece, cell).width > room:
            pieces.append(VGroup(*piece))
            piece = []
        piece.append(cell)
    pieces.append(VGroup(*piece))
    if VGroup(name, grid).width <= room:
        pieces = [VGroup(name, grid)]
    shot = None
    with shot_content.held_still(scene, _pinned(scene, pinned)):  # only the camera moves from piece to piece
        for part in pieces:
            shot = frame_part(scene, part, whole, pinned, run_time=run_time, region=region)
    return shot




def fade_out_all(scene: Scene, piece: Mobject) -> list[Animation]:
    """FadeOuts that take `piece` off the screen whole: every mobject on the scene's list that is `piece`, a part of
    it or a group of its parts (a row of cells added on its own, a box later joined to it), each removed."""
    family = {id(m) for m in piece.get_family()}

    def part(mob: Mobject) -> bool:
        drawn = [sub for sub in mob.get_family() if sub.has_points()]
        return id(mob) in family or (bool(drawn) and all(id(sub) in family for sub in drawn))

    return [FadeOut(mob) for mob in scene.mobjects if part(mob)]


__all__ = ["CLOSE_ROWS", "RowWork", "every_row", "BandCover", "band_cover", "frame_along", "cover_top_band", "keep_in_front", "pinned_on_screen", "move_to_shot", "move_through",
           "show_whole", "dot_every_row", "scale_every_row", "frame_part", "shot_without_slivers", "fade_out_all",
           "reads_in_one_shot", "sweep", "unread_pieces"]
