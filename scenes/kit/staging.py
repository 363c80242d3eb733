"""Motion that follows a composition's plan (scenes.kit.compose): the scene says what happens, the plan how.

Each helper does the same thing for every rung: with the picture at rest (WORKED, FLOOR) it plays the motion in
place; under the CAMERA plan it shows the whole from afar, works each row in close-up (its numbers legible), and
ends on the part the caption talks about. A scene calls them unconditionally.

    enter(scene, plan, *fade_ins, scaffold=...)      bring the picture in (the camera pulled back over it, then on
                                                     `then_on`, what the caption names)
    dot_every_row(scene, plan, comp, ...)            products and sums, row by row (products.dot_every_row)
    scale_every_row(scene, plan, comp, ...)          weights times rows (products.scale_every_row)
    end_on(scene, plan, part, *animations)           frame `part` (a no-op at rest: it is on screen already)
    end_along(scene, plan, name, grid)               frame a named row vector, in pieces if it is too long
    back_to_rest(scene, plan, *animations)           the camera back at rest as the next picture takes over
    clear_to(scene, plan, keep)                      everything but `keep` fades, the camera back at rest
    follow_along(scene, plan, mob, within)           the camera's move keeping `mob` in view along a long strip
    hang_from_top(plan)                              a picture taller than its region starts at the region's top
    enter_below(scene, plan, part, *fade_ins)        parts entering below the frame come in shaded
    settle_below(plan, part)                         the same state set at once, before something travels in
    pan_down(scene, plan, part)                      the camera pans down to `part` (no zoom)
    scroll_to(scene, plan, part, rows=, head=)       a table growing down past the frame scrolls like a page, by
                                                     whole rows, its head kept in view where the rows fit under it;
                                                     scroll_back: to the page's top again
    draw_on(scene, plan, *marks)                     draw boxes or lines on the picture, under the top band's
                                                     cover and the pinned formula
    rest_as(scene, plan, overviews)                  the camera back at rest, the worked whole turned into its
                                                     overview (the first that fits the region, numbers as shades)
    end_across(scene, plan, parts)                   frame `parts` (a map's words, then its columns) left to right,
                                                     as many at once as one legible shot holds
    come_to_rest(scene, pinned, *animations)         the same where the step before's plan is not at hand: from
                                                     wherever the camera is, `pinned` still on screen
    end_over(scene, plan, rows)                      frame every part of a grid at the frame's own scale (no zoom):
                                                     in bands of rows a shot's height holds, each across its columns
    grid_tiles(grid, region)                         a grid too wide for a shot as blocks read one shot each
    work_rows(scene, plan, rows)                     a grid worked a row at a time (scores into weights, rows into
                                                     their sums): at rest in place, under the camera plan each row
                                                     in close-up, panned left to right where it is wider than a shot
    in_view(scene, mob)                              `mob`, placed for the frame at rest, where the camera now shows
                                                     that place (a note in the top band after the camera moved)
    look_at(scene, plan, parts, ...)                 a picture running below the frame: the camera pans down (no
                                                     zoom) to the first of `parts` one shot holds; look_back: up again
    out_over(scene, plan, *animations)               the camera moves out over a whole built larger than its region
                                                     (its small texts hidden), `pinned` as large on screen as before
    read_closely(scene, plan, part, shades, numbers) a part shown as shades: the camera in on it until `numbers`
                                                     read in their place, then back to where it was
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import numpy as np
from manim import (
    UP, Animation, Create, FadeIn, FadeOut, FadeTransform, Group, LaggedStart, Mobject, Rectangle,
    ReplacementTransform, Scene, VGroup, config,
)

from . import camera_moves, shot_content, camera_work, layout, on_screen, palette, products, typography
from .compose import Form, Plan, mark_filmed
from .camera_work import fade_out_all  # taking a piece off the stage whole, wherever its parts were added
from .products import DotProducts, ShownProduct, WeightedRows
from .widgets import TensorGrid

#: How long the parts take to come in at rest, and the scaffold (signs, empty brackets) after them.
ENTER_TIME = 1.2
SCAFFOLD_TIME = 0.5


def enter(scene: Scene, plan: Plan, *introductions: Animation, scaffold: Sequence[Animation] = (),
          run_time: float = ENTER_TIME, then_on: Mobject | None = None, with_the_move: bool = False,
          carried: Sequence[Mobject] = (), from_anywhere: bool = False) -> None:
    """Play `introductions` (the parts' FadeIns), then `scaffold`; under the camera plan the camera first pulls
    back over the whole, the pinned formula still on screen, then (given `then_on`, what the caption names)
    frames that part legibly (`end_on`). Under the camera plan, `with_the_move`: the introductions play during
    the pull-back, so what they bring from the picture before (numbers travelling into the whole) takes the
    whole's shot state as it lands, never shown below the floor; `carried`: what the last picture leaves on
    screen to turn into this one (a matrix the product takes over) takes that state while the camera pulls back,
    filmed with the whole it turns into (its shades are the overview's). `from_anywhere`: the camera may still be
    where a step before left it; at rest it comes back with the introductions (under the camera plan it moves from
    there anyway)."""
    if plan.camera:
        shot = camera_moves.shot_on_all(plan.whole, plan.region)
        if with_the_move:
            camera_work.cover_top_band(scene, plan.region)
            camera_work.move_to_shot(scene, shot, plan.whole, plan.pinned, *introductions, run_time=run_time,
                                region=plan.region)
            if scaffold:
                scene.play(*scaffold, run_time=SCAFFOLD_TIME)
        else:
            with_move = shot_content.shot_state(scene, shot, VGroup(*carried), plan.region) if carried else []
            mark_filmed(VGroup(*carried))  # turning into the filmed whole, it is filmed with it (its shades allowed)
            camera_work.show_whole(scene, plan.whole, plan.pinned, *introductions, *scaffold, run_time=run_time,
                              region=plan.region, with_move=with_move)
        if then_on is not None:
            end_on(scene, plan, then_on)
        return
    if from_anywhere and not camera_moves.at_rest(scene):
        come_to_rest(scene, plan.pinned, *introductions, run_time=run_time)
    elif introductions:  # none: under the camera plan the pull-back alone (the parts come in later, worked)
        scene.play(*introductions, run_time=run_time)
    if scaffold:
        scene.play(*scaffold, run_time=SCAFFOLD_TIME)


def dot_every_row(scene: Scene, plan: Plan, comp: DotProducts, *, labels: Sequence[Mobject] = (),
                  color=palette.KEY, with_first_products: Iterable[Animation] = (),
                  with_first_sum: Iterable[Animation] = ()) -> list[ShownProduct]:
    """Every row of `comp` dotted with its vector; under the camera plan each row in close-up with `labels[i]`."""
    if plan.camera:
        return camera_work.dot_every_row(scene, comp, plan.whole, plan.pinned, labels=labels, color=color,
                                    with_first_products=with_first_products, with_first_sum=with_first_sum,
                                    region=plan.region, every_row_close=True)
    return products.dot_every_row(scene, comp, color=color, with_first_products=with_first_products,
                                  with_first_sum=with_first_sum)


def scale_every_row(scene: Scene, plan: Plan, comp: WeightedRows, *, labels: Sequence[Mobject] = (),
                    color=palette.VALUE, with_first: Iterable[Animation] = ()) -> list[ShownProduct]:
    """Every row of `comp` scaled by its weight; under the camera plan each row in close-up with `labels[i]`."""
    if plan.camera:
        return camera_work.scale_every_row(scene, comp, plan.whole, plan.pinned, labels=labels, color=color,
                                      with_first=with_first, region=plan.region, every_row_close=True)
    return products.scale_every_row(scene, comp, color=color, with_first=with_first)


def end_on(scene: Scene, plan: Plan, part: Mobject, *animations: Animation, run_time: float = 1.0) -> None:
    """Frame `part` (the top score and its word) under the camera plan, its texts legible: in one shot where one
    shot can show them all legibly, else piece after piece in reading order (rows, or a row's cells), as many
    together as read (`animations` play with the first move). At rest it is on screen already: play `animations`
    only."""
    if not plan.camera:
        if animations:
            scene.play(*animations, run_time=run_time)
        return
    pieces = legible_pieces(part, plan)
    if len(pieces) <= 1:
        camera_work.frame_part(scene, part, plan.whole, plan.pinned, *animations, run_time=run_time, region=plan.region)
        return
    if animations:
        scene.play(*animations, run_time=run_time)
    camera_work.sweep(scene, pieces, plan.whole, plan.pinned, region=plan.region)


def legible_pieces(part: Mobject, plan: Plan) -> list[Mobject]:
    """`part` itself where one shot shows every text of it legibly; else its pieces in reading order: a grid's
    rows (a row too wide, its cells), a group's parts, each split again the same way."""
    if camera_work.reads_in_one_shot(part, plan.region) or not shot_content.text_units(part):
        return [part] if shot_content.text_units(part) else []
    if isinstance(part, TensorGrid):
        rows = [part.row(r) for r in range(part.rows)]
        if all(camera_work.reads_in_one_shot(row, plan.region) for row in rows):
            return rows  # the sweep frames as many whole rows together as one shot reads
        return grid_tiles(part, plan.region)
    pieces = [piece for sub in part.submobjects for piece in legible_pieces(sub, plan)]
    return pieces or [part]


def grid_tiles(grid: TensorGrid, region: layout.Region | None = None) -> list[Mobject]:
    """A grid whose rows are too wide for one legible shot, as blocks of cells in reading order (bands of rows top
    to bottom, each band's column groups left to right), each block as many columns as one shot reads and then as
    many rows: a tall, narrow phone frame shows a twelve-row grid in a few blocks of whole columns instead of two
    pieces of every row, every number still read once at the frame's own scale."""
    def block(rows: Sequence[int], columns: Sequence[int]) -> VGroup:
        return VGroup(*(grid.cells[r][c] for r in rows for c in columns))

    def reads(rows: Sequence[int], columns: Sequence[int]) -> bool:
        return camera_work.reads_in_one_shot(block(rows, columns), region)

    columns: list[list[int]] = [[]]
    for c in range(grid.cols):
        if columns[-1] and not reads([0], [*columns[-1], c]):
            columns.append([])
        columns[-1].append(c)
    bands: list[list[int]] = [[]]
    for r in range(grid.rows):
        if bands[-1] and not all(reads([*bands[-1], r], group) for group in columns):
            bands.append([])
        bands[-1].append(r)
    return [block(band, group) for band in bands for group in columns]


def end_along(scene: Scene, plan: Plan, name: Mobject, grid) -> None:
    """Frame the named row vector `grid` under the camera plan, in pieces where it is too long for the frame."""
    if plan.camera:
        camera_work.frame_along(scene, name, grid, plan.whole, plan.pinned, region=plan.region)


def back_to_rest(scene: Scene, plan: Plan, *animations: Animation, run_time: float = 1.2) -> None:
    """Play `animations` (the next step's picture taking over); under the camera plan the camera comes back to the
    frame at rest with them, and the band's cover goes (at rest nothing passes under the formula)."""
    if not plan.camera:
        if animations:
            scene.play(*animations, run_time=run_time)
        return
    _to_rest(scene, plan, VGroup(), *animations, run_time=run_time)


def _to_rest(scene: Scene, plan: Plan, within: Mobject, *animations: Animation, run_time: float) -> None:
    """The camera back at rest under the camera plan, `within` taking the state the frame at rest shows, `animations`
    playing with the move; the band's cover goes."""
    camera_work.move_to_shot(scene, camera_moves.rest_shot(), within, plan.pinned, *animations, run_time=run_time,
                             region=plan.region)
    scene.remove(camera_work.cover_top_band(scene, plan.region))


def clear_to(scene: Scene, plan: Plan, keep: Sequence[Mobject], *, run_time: float = 0.6) -> None:
    """Everything on the stage but `keep` (the band's strip) fades out, under the camera plan as the camera comes
    back to rest: the stage cleared for the next picture."""
    kept = {id(m) for part in keep for m in part.get_family()}
    cover = camera_work.band_cover(scene)
    leaving = [m for m in _stage(scene, ()).submobjects if id(m) not in kept and m is not cover]
    back_to_rest(scene, plan, *(FadeOut(m) for m in leaving), run_time=run_time)


def follow_along(scene: Scene, plan: Plan, mob: Mobject, within: Mobject) -> list[Animation]:
    """Under the camera plan, the camera's move (as animations to play with the step's own) that keeps `mob` (the
    word being read) in view along a strip wider than the frame, never past the strip's ends, `within` taking the
    state that shot shows; at rest, nothing to add."""
    if not plan.camera:
        return []
    half = config.frame_width / 2 - layout.MARGIN
    x = float(np.clip(mob.get_center()[0], plan.whole.get_left()[0] + half, plan.whole.get_right()[0] - half))
    shot = camera_moves.Shot(np.array([x, 0.0, 0.0]), config.frame_width)
    return [*camera_moves.move_camera(scene, shot, pinned=[]), *shot_content.shot_state(scene, shot, within)]


def hang_from_top(plan: Plan) -> None:
    """Under the camera plan, hang the picture from its region's top (the camera then pans down over the rest);
    at rest it stays fitted where compose put it."""
    if plan.camera:
        plan.whole.shift(UP * (plan.region.top - plan.whole.get_top()[1]))


def enter_below(scene: Scene, plan: Plan, part: Mobject, *introductions: Animation, run_time: float = 1.5) -> None:
    """Play `introductions` for `part`; under the camera plan, what of it lies outside the frame at rest enters
    hidden (shaded cells, no text), to show once the camera is on it."""
    settle_below(plan, part)
    scene.play(*introductions, run_time=run_time)


def settle_below(plan: Plan, part: Mobject) -> None:
    """Under the camera plan, what of `part` (not on screen yet) lies outside the frame at rest takes the state the
    frame shows (shaded cells, no text), so whatever travels into it arrives in that state; at rest, nothing."""
    if plan.camera:
        shot_content.apply_shot_state(camera_moves.rest_shot(), part, plan.region)


#: How long the camera takes to pan down to the rest of a hung picture.
PAN_TIME = 2.0


def pan_down(scene: Scene, plan: Plan, part: Mobject) -> None:
    """Under the camera plan, pan (no zoom) until `part` is in view, its texts legible; at rest, nothing."""
    if plan.camera:
        shot = camera_moves.shot_on(part, plan.region, max_zoom=1.0)
        camera_work.move_to_shot(scene, shot, plan.whole, plan.pinned, run_time=PAN_TIME, region=plan.region)


#: How long a scroll down a growing table takes.
SCROLL_TIME = 0.5


def scroll_to(scene: Scene, plan: Plan, part: Mobject, *animations: Animation, rows: Sequence[Mobject] = (),
              head: Mobject | None = None, run_time: float = SCROLL_TIME) -> None:
    """Under the camera plan of a table hung from its region's top and longer than it, pan (no zoom) down until
    `part` (its next row) shows whole, as a page scrolls: by whole `rows` (the first that leaves room for `part`
    comes to the top, so none is cut), `head` (its header) staying in view over them where every row fits the room
    under it, else scrolling away with them. `animations` play with the move; what leaves the room hides. Where
    `part` shows already, or at rest, only `animations` play (nothing when there are none)."""
    room, kept = _scroll_room(plan, rows, head) if plan.camera else (plan.region, ())
    y = _scrolled_to(scene, part, rows, room) if plan.camera else None
    if y is None:
        if animations:
            scene.play(*animations, run_time=run_time)
        return
    camera_work.cover_top_band(scene, room)
    shot = camera_moves.Shot(np.array([0.0, y, 0.0]), config.frame_width)
    within = VGroup(*rows) if kept else plan.whole
    camera_work.move_to_shot(scene, shot, within, [*plan.pinned, *kept], *animations, run_time=run_time,
                             region=room)


def _scroll_room(plan: Plan, rows: Sequence[Mobject],
                 head: Mobject | None) -> tuple[layout.Region, tuple[Mobject, ...]]:
    """Where on screen a table's rows scroll, and what stays in view over them: the room under `head` where every
    row fits it, else the plan's whole region."""
    if head is None or not rows:
        return plan.region, ()
    margin = camera_moves.FRAMING_MARGIN
    # the first row's place at rest (the camera moves, the rows never do): where a row brought up sits, under the head
    room = layout.Region(plan.region.left, plan.region.right, plan.region.bottom, rows[0].get_top()[1] + margin)
    if all(row.height <= room.height - 2 * margin for row in rows):
        return room, (head,)
    return plan.region, ()


def _scrolled_to(scene: Scene, part: Mobject, rows: Sequence[Mobject], room: layout.Region) -> float | None:
    """The camera's height that shows `part` whole in `room` (on screen), the page scrolled by whole `rows` where
    one leaves room for it, the room's top in the gap over that row (None: no move)."""
    view, margin = on_screen.current_view(scene), camera_moves.FRAMING_MARGIN

    def top_at(mob: Mobject, above: Mobject | None = None) -> float:
        """The camera's height that brings `mob`'s top to the room's top: mid-way to the row `above` it, if any."""
        gap = (above.get_bottom()[1] - mob.get_top()[1]) / 2 if above is not None else margin
        return mob.get_top()[1] + min(gap, margin) - room.top

    def shows(y: float) -> bool:
        return part.get_bottom()[1] - y >= room.bottom + margin - 1e-6 and part.get_top()[1] - y <= room.top

    if shows(view.center_y):
        return None
    stops = [top_at(row, above) for row, above in zip(rows, [None, *rows[:-1]])]
    return next((y for y in stops if y < view.center_y - 1e-6 and shows(y)), top_at(part))


def scroll_back(scene: Scene, plan: Plan, *animations: Animation, run_time: float = SCROLL_TIME) -> None:
    """After `scroll_to`, the camera back at rest (the page at its top), what the frame at rest shows coming back
    and the band's cover gone; `animations` play with the move. At rest, only `animations` play."""
    if not plan.camera or camera_moves.at_rest(scene):
        if animations:
            scene.play(*animations, run_time=run_time)
        return
    _to_rest(scene, plan, plan.whole, *animations, run_time=run_time)


def draw_on(scene: Scene, plan: Plan, *marks: Mobject, lag_ratio: float = 0.1, run_time: float = 1.0) -> None:
    """Draw `marks` (boxes on a grid's cells, a line across it) on the picture, under the top band's cover and the
    pinned legend or formula: in a close-up part of the picture passes under the band, and what a plain Create
    brings in would be drawn over them."""
    scene.add(*marks)
    camera_work.keep_in_front(scene, plan.pinned)
    scene.play(*(Create(mark, lag_ratio=lag_ratio, introducer=False) for mark in marks), run_time=run_time)


#: How long the camera takes to come back to rest from a close-up.
REST_TIME = 0.8


def pull_back(scene: Scene, plan: Plan) -> None:
    """Under the camera plan, the camera pulls back over the whole, as it came in: the parts read in close-up now
    shades, the pattern they make in view, so a beat does not end on a picture cut at the frame's edge. At rest,
    nothing."""
    if plan.camera:
        camera_work.show_whole(scene, plan.whole, plan.pinned, region=plan.region)


def rest_as(scene: Scene, plan: Plan, overviews: Sequence[Form], *animations: Animation,
            run_time: float = REST_TIME) -> Mobject:
    """Under the camera plan, the camera back at rest while the worked whole turns into its overview (the same
    content with its numbers as shades, each having been read in close-up): the first of `overviews` (roomiest
    first) that fits the plan's region as built, else the last shrunk into it; so what follows finds the region's
    room. At rest, play `animations` only. Returns the picture now on screen."""
    if not plan.camera:
        if animations:
            scene.play(*animations, run_time=run_time)
        return plan.whole
    picture = None
    for form in overviews:
        picture = form.whole(form.build())
        if picture.width <= plan.region.width and picture.height <= plan.region.height:
            break
    picture = layout.fit_into(picture, plan.region, grow=False)
    come_to_rest(scene, plan.pinned, FadeTransform(plan.whole, picture), *animations, run_time=run_time)
    return picture


def end_across(scene: Scene, plan: Plan, parts: Sequence[Mobject], *animations: Animation,
               run_time: float = 1.0) -> None:
    """Under the camera plan, frame `parts` left to right (a map's row words, then its columns), as many together
    as a shot at the frame's own scale holds (the camera pans from one to the next, no zoom; down a part taller
    than the frame holds), so that every number is seen legible once (a grid too big for a narrow frame at the
    floor); `animations` play with the first move.
    At rest, play `animations` only."""
    if not plan.camera:
        if animations:
            scene.play(*animations, run_time=run_time)
        return
    room = plan.region.width - 2 * camera_moves.FRAMING_MARGIN
    pieces: list[list[Mobject]] = [[]]
    for part in parts:
        if pieces[-1] and VGroup(*pieces[-1], part).width > room:
            pieces.append([])
        pieces[-1].append(part)
    shots = [shot for piece in pieces for shot in _down(VGroup(*piece), plan.region)]
    # built at the floor: the camera pans, it never zooms in on a small piece
    camera_work.move_through(scene, shots, plan.whole, plan.pinned, *animations, run_time=run_time, region=plan.region)


def _down(piece: Mobject, region: layout.Region) -> list[camera_moves.Shot]:
    """Shots at the frame's own scale on `piece`: one where it is no taller than the region holds, else top to
    bottom, each as tall as the region holds (a column of eleven words in a phone's frame)."""
    room = region.height - 2 * camera_moves.FRAMING_MARGIN
    stops = int(np.ceil(piece.height / room - 1e-6))
    if stops <= 1:
        return [camera_moves.shot_on(piece, region, max_zoom=1.0)]
    top, step = piece.get_top()[1] - room / 2, (piece.height - room) / (stops - 1)
    x = piece.get_center()[0]
    return [camera_moves.shot_on(Rectangle(width=piece.width, height=room).move_to([x, top - k * step, 0]), region,
                           max_zoom=1.0) for k in range(stops)]


def come_to_rest(scene: Scene, pinned: Sequence[Mobject | None], *animations: Animation,
                 run_time: float = REST_TIME, staying: Sequence[Mobject] = (),
                 region: layout.Region | None = None) -> None:
    """The camera back at rest from wherever a step before left it (its plan not at hand), playing `animations`
    (the last picture leaving, a part of it moving into this one); what of `pinned` (the formula, its highlight)
    and the top band's cover is on screen moves along; `staying` (what of the last picture stays) takes the state
    the frame at rest shows in `region`. With the camera at rest already, just play `animations`."""
    if camera_moves.at_rest(scene):
        if animations:
            scene.play(*animations, run_time=run_time)
        return
    shown = {id(m) for m in scene.get_mobject_family_members()}
    carried = [m for m in camera_work.pinned_on_screen(scene, [m for m in pinned if m is not None]) if id(m) in shown]
    camera_work.keep_in_front(scene, carried)
    states = shot_content.shot_state(scene, camera_moves.rest_shot(), VGroup(*staying), region) if staying else []
    scene.play(*camera_moves.move_camera(scene, camera_moves.rest_shot(), pinned=carried), *states, *animations,
               run_time=run_time)


#: How long each move of end_over takes.
AFTER_TIME = 0.5

#: One step of a row's work: a part of the row (a cell, its word, its sum) and the animations that land on it.
RowPart = tuple[Mobject, Sequence[Animation]]


def work_rows(scene: Scene, plan: Plan, rows: Sequence[Sequence[Sequence[RowPart]]], *, run_time: float = 0.6,
              lag: float = 0.0) -> None:
    """Work a grid a row at a time, so at most one row's travelling copies are in flight over the settled numbers.
    `rows[i]` is row i's phases, played one after another (the scores becoming weights, then the weights into the
    row's sum); a phase is its parts in reading order, each with the animations that land on it (a part may have
    none: the row's word, framed with its cells). At rest each phase is one play (its animations lagged by `lag`).
    Under the camera plan each phase is seen in close-up at the frame's own scale (the whole is built at the
    floor, the camera pans and never zooms): its parts grouped left to right, as many together as a shot holds,
    the camera moving to each group while that group's animations play."""
    for row in rows:
        for phase in row:
            if not plan.camera:
                animations = [a for _, anims in phase for a in anims]
                if animations:
                    scene.play(LaggedStart(*animations, lag_ratio=lag), run_time=run_time)
                continue
            for group in _shot_groups([part for part, _ in phase], plan.region):
                shot = camera_moves.shot_on(VGroup(*(phase[k][0] for k in group)), plan.region, max_zoom=1.0)
                camera_work.move_to_shot(scene, shot, plan.whole, plan.pinned, *(a for k in group for a in phase[k][1]),
                                    run_time=run_time, region=plan.region)


def end_over(scene: Scene, plan: Plan, rows: Sequence[Sequence[Mobject]], *animations: Animation,
             run_time: float = AFTER_TIME) -> None:
    """Under the camera plan, show every part of a grid (`rows`, each its parts left to right) once at the frame's
    own scale, so each of its numbers is seen legible (the whole is built at the floor; the camera pans, never
    zooms): in bands of as many rows as a shot's height holds, top to bottom, each band left to right, as many
    parts together as a shot's width holds (the rows may hold differing counts: a map's upper triangle). A grid
    no taller than a shot is one band. `animations` play with the first move. At rest, play `animations` only."""
    if not plan.camera:
        if animations:
            scene.play(*animations, run_time=run_time)
        return
    shots = []
    for band in _row_bands(rows, plan.region.height - 2 * camera_moves.FRAMING_MARGIN):
        parts = sorted((part for row in band for part in row), key=lambda part: part.get_center()[0])
        shots.extend(VGroup(*(parts[k] for k in group)) for group in _shot_groups(parts, plan.region))
    camera_work.move_through(scene, (camera_moves.shot_on(piece, plan.region, max_zoom=1.0) for piece in shots),
                             plan.whole, plan.pinned, *animations, run_time=run_time, region=plan.region)


def _row_bands(rows: Sequence[Sequence[Mobject]], room: float) -> list[list[Sequence[Mobject]]]:
    """`rows` (the empty ones left out) in bands top to bottom, each as many rows as fit `room` in height (a row
    taller than that alone)."""
    bands: list[list[Sequence[Mobject]]] = []
    for row in (row for row in rows if len(row)):
        if bands and VGroup(*(part for kept in bands[-1] for part in kept), *row).height <= room:
            bands[-1].append(row)
        else:
            bands.append([row])
    return bands


def _shot_groups(parts: Sequence[Mobject], region: layout.Region) -> list[list[int]]:
    """The indices of `parts` grouped left to right, as many together as one shot at the frame's scale holds."""
    room = region.width - 2 * camera_moves.FRAMING_MARGIN
    groups: list[list[int]] = [[]]
    for k, part in enumerate(parts):
        if groups[-1] and VGroup(*(parts[g] for g in groups[-1]), part).width > room:
            groups.append([])
        groups[-1].append(k)
    return [group for group in groups if group]


def in_view(scene: Scene, mob: Mobject) -> Mobject:
    """`mob`, placed for the frame at rest, moved to where the camera now shows that place (at rest: unmoved), at
    the size it would have on screen at rest."""
    if camera_moves.at_rest(scene):
        return mob
    view = camera_moves.current_view(scene)
    return mob.scale(1 / view.zoom, about_point=np.zeros(3)).shift([view.center_x, view.center_y, 0])


#: How long the camera takes to look down a picture running below the frame, and back up.
LOOK_TIME = 0.8


def _stage(scene: Scene, leaving: Sequence[Mobject]) -> Mobject:
    """Everything on screen but the camera's frame and `leaving` (what fades with the move): what a shot hides where
    it cuts it off."""
    faded = {id(m) for part in leaving for m in part.get_family()}
    frame = getattr(scene.camera, "frame", None)
    return Group(*(m for m in scene.mobjects if m is not frame and id(m) not in faded))


def _on_screen(mob: Mobject, shown: set) -> bool:
    """Whether `mob` is on screen: itself, or every one of its parts (a group whose parts came in one by one)."""
    return id(mob) in shown or bool(mob.submobjects) and all(_on_screen(sub, shown) for sub in mob.submobjects)


def look_at(scene: Scene, plan: Plan, parts: Sequence[Mobject], *animations: Animation,
            fading_in: Sequence[Mobject] = (), before: Sequence[Animation] = (), after: Sequence[Animation] = (),
            run_time: float = LOOK_TIME) -> None:
    """A picture that runs below the frame (the camera plan of a picture hung from its region's top): play `before`,
    then pan (no zoom) down to the first of `parts` that the frame's height holds (else the last), its top at the
    frame's top, `fading_in` (what the shot at rest leaves out) fading in and `animations` playing with the move;
    what the shot cuts off is hidden while it is framed; then play `after` (what lands there once it is settled in
    view). At rest everything is on screen: `before`, `animations`, `after` and the fade-ins of what of `fading_in`
    is not on screen yet play together (nothing when there are none)."""
    if not plan.camera:
        shown = set(map(id, scene.get_mobject_family_members()))
        entering = [FadeIn(m) for m in fading_in if not _on_screen(m, shown)]
        if before or animations or after or entering:
            scene.play(*before, *animations, *after, *entering, run_time=run_time)
        return
    if before:
        scene.play(*before, run_time=run_time)
    room = layout.frame()
    seen = next((part for part in parts if part.height <= room.height - camera_moves.FRAMING_MARGIN), parts[-1])
    top = seen.get_top()[1] + camera_moves.FRAMING_MARGIN - config.frame_y_radius  # its top at the frame's top
    shot = camera_moves.Shot(np.array([0.0, top, 0.0]), config.frame_width)
    camera_work.move_to_shot(scene, shot, _stage(scene, fading_in), [], *(FadeIn(m) for m in fading_in), *animations,
                        run_time=run_time, region=room)
    if after:
        scene.play(*after, run_time=run_time)


def look_back(scene: Scene, plan: Plan, *animations: Animation, fading_out: Sequence[Mobject] = (),
              run_time: float = LOOK_TIME) -> None:
    """After `look_at`, the camera back at rest (no zoom), `fading_out` (what the shot at rest leaves out) fading
    with the move and `animations` playing with it; what the frame at rest shows whole comes back. At rest, play
    `animations` only (nothing when there are none)."""
    if not plan.camera or camera_moves.at_rest(scene):
        if animations:
            scene.play(*animations, run_time=run_time)
        return
    camera_work.move_to_shot(scene, camera_moves.rest_shot(), _stage(scene, fading_out), [],
                        *(FadeOut(m) for m in fading_out), *animations, run_time=run_time, region=layout.frame())


def out_over(scene: Scene, plan: Plan, *animations: Animation, instead: Sequence[Animation] | None = None,
             run_time: float = 1.0) -> None:
    """Under the camera plan, where the plan's whole is larger than its region (built at the floor), the camera
    moves out until all of it shows there (never in): its texts too small there hidden, its numbers as shades, the
    plan's pinned mobjects (the steps that stay) as large on screen as before; `instead` (default `animations`)
    plays with the move (what would land on a text the shot hides leaves instead). Where the whole shows at rest
    (any rung), play `animations` only."""
    shot = camera_moves.shot_on_all(plan.whole, plan.region)
    if not plan.camera or shot.zoom >= 1 - 1e-9:
        if animations:
            scene.play(*animations, run_time=run_time)
        return
    shot_content.apply_shot_state(shot, plan.whole, layout.frame())
    moving = animations if instead is None else instead
    scene.play(*moving, *camera_moves.move_camera(scene, shot, pinned=list(plan.pinned)), run_time=run_time)


def read_closely(scene: Scene, plan: Plan, part: Mobject, shades: Mobject, numbers: Mobject, *,
                 pinned: Sequence[Mobject] = (), hold: float = 1.5) -> Mobject:
    """Under the camera plan, where `shades` (a vector of `part`, its word and name) stand for numbers: the camera
    moves in on the largest of `part`, the shades with what names them (`part`'s name), the shades alone, that makes
    `numbers` (built over the shades, not yet on screen) legible (closer than camera_moves.MAX_ZOOM where tiny cells need
    it), the numbers taking the shades' place; after
    `hold` seconds it moves back to where it was, the numbers back into shades. Where no shot makes them legible, it
    moves in on `part` still (the shades and their word read there). What the shots cut off (the next word, the
    steps beside it) is hidden while framed; `pinned` (the note in the top band) stays on screen. At rest nothing.
    Returns what then stands for the part's vector (the shades again)."""
    if not plan.camera:
        return shades
    floor = typography.MIN_FONT_SIZE * shot_content.BUILD_MARGIN
    size = shot_content.smallest_font(numbers)
    name = getattr(part, "name", VGroup())
    closest = max(camera_moves.MAX_ZOOM, floor / size)  # shades of tiny cells: as close as their numbers need
    shots = [(c, camera_moves.shot_on(c, max_zoom=closest)) for c in (part, VGroup(name, shades), shades)]
    legible = [(c, shot) for c, shot in shots if size * shot.zoom >= floor * (1 - shot_content.ROUNDING)]
    if not legible and camera_moves.at_rest(scene):
        return shades
    back = camera_moves.current_view(scene)
    back = camera_moves.Shot(np.array([back.center_x, back.center_y, 0.0]), config.frame_width / back.zoom)
    frame = getattr(scene.camera, "frame", None)
    stage = Group(*(m for m in scene.mobjects if m is not frame and m not in pinned))
    in_view(scene, camera_work.cover_top_band(scene))
    shot = legible[0][1] if legible else camera_moves.shot_on(part)
    word = getattr(part, "word", None)
    word = [] if word is None or id(word) in set(map(id, scene.get_mobject_family_members())) else [word]
    shot_content.apply_shot_state(shot, VGroup(*word))
    again = shades.copy()  # before the shades turn into the numbers
    into = [ReplacementTransform(shades, numbers)] if legible else []
    camera_work.move_to_shot(scene, shot, stage, pinned, *into, *(FadeIn(w) for w in word))
    scene.wait(hold)
    out = [ReplacementTransform(numbers, again)] if legible else []
    camera_work.move_to_shot(scene, back, stage, pinned, *out, *(FadeOut(w) for w in word))
    return again if legible else shades


__all__ = ["fade_out_all", "enter", "dot_every_row", "scale_every_row", "end_on", "end_along", "back_to_rest",
           "come_to_rest", "rest_as", "end_across", "follow_along", "hang_from_top", "enter_below", "pan_down",
           "end_over", "work_rows", "grid_tiles", "in_view", "look_at", "look_back", "out_over", "read_closely"]
