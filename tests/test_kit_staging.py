"""staging's row-at-a-time work and its sweeps (scenes.kit.staging.work_rows, end_over, grid_tiles): the grouping of
a row's parts into shots, a wide grid's blocks, and what plays at rest."""

from __future__ import annotations

import torch
from manim import Animation, Square, VGroup, tempconfig

from scenes.kit import camera_work, compose, layout, staging
from scenes.kit.numbers import Source
from scenes.kit.widgets import TensorGrid
from scenes.quality.headless import resolution_480p


class _Recorder:
    """A stand-in scene: records each play's animations (at rest nothing else is asked of it)."""

    def __init__(self):
        self.plays = []

    def play(self, *animations, run_time=1.0):
        self.plays.append((animations, run_time))


def _row(count: float, side: float) -> list[Square]:
    return [Square(side).move_to([k * side, 0, 0]) for k in range(count)]


def test_parts_are_grouped_left_to_right_as_many_as_a_shot_holds():
    region = layout.Region(-2.0, 2.0, -3.0, 3.0)  # 4 wide: the framing margins leave a little less
    parts = _row(8, 1.0)  # 8 wide
    groups = staging._shot_groups(parts, region)
    assert [k for group in groups for k in group] == list(range(8)), "every part once, in order"
    room = region.width - 2 * staging.camera_moves.FRAMING_MARGIN
    assert all(VGroup(*(parts[k] for k in group)).width <= room + 1e-9 for group in groups)
    assert len(groups) >= 8 / room  # no fewer shots than the width needs


def test_at_rest_each_phase_of_each_row_is_one_play_a_row_after_another():
    scene = _Recorder()
    plan = compose.Plan(VGroup(), "f", compose.WORKED, layout.Region(-2, 2, -3, 3))
    cells = [_row(3, 0.5) for _ in range(2)]
    rows = [[[(cell, [Animation(cell)]) for cell in row], [(row[0], [Animation(row[0])])]] for row in cells]
    staging.work_rows(scene, plan, rows, run_time=0.3)
    assert [len(animations[0].animations) for animations, _ in scene.plays] == [3, 1, 3, 1]
    assert all(run_time == 0.3 for _, run_time in scene.plays)


def test_at_rest_end_over_only_plays_what_it_is_given():
    scene = _Recorder()
    plan = compose.Plan(VGroup(), "f", compose.FLOOR, layout.Region(-2, 2, -3, 3))
    staging.end_over(scene, plan, [_row(3, 1.0)])
    assert scene.plays == []
    square = Square()
    staging.end_over(scene, plan, [[square]], Animation(square))
    assert len(scene.plays) == 1


class _Stage(_Recorder):
    """A stand-in scene with mobjects on screen (look_at asks what is)."""

    def __init__(self, *shown):
        super().__init__()
        self.shown = shown

    def get_mobject_family_members(self):
        return [m for mob in self.shown for m in mob.get_family()]


def test_at_rest_look_at_plays_before_animations_and_after_at_once_and_fades_in_only_what_is_not_on_screen():
    """A group whose parts came in one by one counts as on screen; a part not yet shown fades in with the rest."""
    bars, numbers, title = Square(), Square(), Square()
    scene = _Stage(bars, numbers)  # the group VGroup(bars, numbers) itself was never added
    plan = compose.Plan(VGroup(), "f", compose.WORKED, layout.Region(-2, 2, -3, 3))
    before, now, after = Animation(bars), Animation(numbers), Animation(title)
    staging.look_at(scene, plan, [title], now, before=[before], after=[after],
                    fading_in=[VGroup(bars, numbers), title], run_time=0.4)
    assert len(scene.plays) == 1
    animations, run_time = scene.plays[0]
    assert animations[:3] == (before, now, after) and len(animations) == 4 and run_time == 0.4
    assert animations[3].mobject is title  # the FadeIn of what was not on screen, nothing for the group


def test_at_rest_look_back_out_over_and_read_closely_play_only_what_they_are_given():
    scene = _Stage()
    plan = compose.Plan(VGroup(Square()), "f", compose.FLOOR, layout.Region(-2, 2, -3, 3))
    staging.look_back(scene, plan, fading_out=[Square()])
    staging.look_at(scene, plan, [Square()])
    assert scene.plays == []
    square = Square()
    staging.out_over(scene, plan, Animation(square), instead=[])
    assert len(scene.plays) == 1 and scene.plays[0][0][0].mobject is square
    shades = Square()
    assert staging.read_closely(scene, plan, VGroup(shades), shades, Square()) is shades
    assert len(scene.plays) == 1


class _DrawingStage(_Recorder):
    """A stand-in scene with a stage: what is on it, in drawing order, as each play starts."""

    def __init__(self, *mobjects):
        super().__init__()
        self.mobjects = list(mobjects)
        self.orders = []

    def add(self, *mobjects):
        self.mobjects = [m for m in self.mobjects if m not in mobjects] + list(mobjects)

    def bring_to_front(self, *mobjects):
        self.add(*mobjects)

    def play(self, *animations, run_time=1.0):
        super().play(*animations, run_time=run_time)
        self.orders.append(list(self.mobjects))


def test_marks_are_drawn_under_the_band_cover_and_the_pinned_legend():
    picture, legend, boxes = Square(4.0), Square(0.5), VGroup(Square(0.3), Square(0.3))
    cover = camera_work.BandCover(width=1.0, height=1.0)
    scene = _DrawingStage(cover, legend, picture)
    plan = compose.Plan(picture, "form", compose.CAMERA, layout.body(), (legend,))
    staging.draw_on(scene, plan, boxes, run_time=1.2)
    (animations, run_time), = scene.plays
    assert run_time == 1.2 and [a.mobject for a in animations] == [boxes]
    assert not animations[0].is_introducer()  # a Create that would put the boxes back on top as it starts
    order = scene.orders[0]
    assert order.index(boxes) < order.index(cover) and order.index(boxes) < order.index(legend)


class _AtRest:
    """A stand-in scene whose camera is at rest (no moving frame)."""

    camera = object()


def _table(count: int, height: float, top: float) -> list[Square]:
    """`count` rows `height` tall, stacked down from `top`, a gap of 0.4 between them."""
    return [Square(height).move_to([0, top - height / 2 - k * (height + 0.4), 0]) for k in range(count)]


def test_a_long_table_scrolls_by_whole_rows_until_the_next_row_shows():
    region = layout.Region(-3, 3, -4, 2)
    rows = _table(6, 1.0, 1.5)
    scene, margin = _AtRest(), staging.camera_moves.FRAMING_MARGIN
    assert staging._scrolled_to(scene, rows[1], rows, region) is None, "a row in view: no move"
    y = staging._scrolled_to(scene, rows[5], rows, region)
    assert rows[5].get_bottom()[1] - y >= region.bottom + margin - 1e-9, "the next row shows whole"
    edge = y + region.top  # the room's top edge, where the page is now cut
    cut = [row for row in rows if row.get_bottom()[1] < edge < row.get_top()[1]]
    assert not cut, "the room's top falls in a gap between rows: none cut"
    first_shown = next(k for k, row in enumerate(rows) if row.get_top()[1] <= edge)
    assert first_shown == 2, "the earliest row that leaves room for it: as much kept in view as fits"
    assert rows[1].get_bottom()[1] > edge, "the row above it has left the room whole"


def test_a_table_keeps_its_head_in_view_only_where_every_row_fits_under_it():
    head = Square(1.0).move_to([0, 1.5, 0])
    plan = compose.Plan(VGroup(), "wrapped", compose.CAMERA, layout.Region(-3, 3, -4, 2))
    short = _table(4, 1.0, 0.8)
    room, kept = staging._scroll_room(plan, short, head)
    assert kept == (head,) and abs(room.top - (short[0].get_top()[1] + staging.camera_moves.FRAMING_MARGIN)) < 1e-9
    tall = [*short, Square(4.6).move_to([0, -8, 0])]  # taller than the room under the head
    assert staging._scroll_room(plan, tall, head) == (plan.region, ())


def _tall_grid() -> TensorGrid:
    """Twelve rows of six numbers, as the twelve-token example's Q is."""
    source = Source.__new__(Source)
    source.name, source.data = "tiles", {"q": torch.linspace(-1.0, 1.0, 72).reshape(12, 6)}
    return TensorGrid(source, "q")


def test_a_grid_too_wide_for_a_shot_is_swept_in_blocks_of_whole_columns_each_read_in_one_shot():
    """A phone frame's body, narrower than a row and as tall as a few rows: the sweep's pieces are blocks of cells
    in reading order, each reads in one shot, and each is as large as reads (one more column or row does not),
    so twelve rows take fewer shots than rows, where two pieces of every row took 24."""
    with tempconfig(resolution_480p("portrait")):
        grid = _tall_grid()
        cell_w, cell_h = grid.cells[0][0].width, grid.cells[0][0].height
        region = layout.Region(-1.3 * cell_w, 1.3 * cell_w, -2.6 * cell_h, 2.6 * cell_h)
        assert not camera_work.reads_in_one_shot(grid.row(0), region)
        tiles = staging.grid_tiles(grid, region)
        where = {id(cell): (r, c) for r, row in enumerate(grid.cells) for c, cell in enumerate(row)}
        seen = [[where[id(cell)] for cell in tile.submobjects] for tile in tiles]
        assert sorted(rc for tile in seen for rc in tile) == [(r, c) for r in range(12) for c in range(6)]
        bands = [min(r for r, _ in tile) for tile in seen]
        assert bands == sorted(bands), "bands of rows top to bottom"
        assert all(camera_work.reads_in_one_shot(tile, region) for tile in tiles)
        assert len(tiles) < grid.rows
        for cells in seen:
            rows, cols = sorted({r for r, _ in cells}), sorted({c for _, c in cells})
            assert len(cells) == len(rows) * len(cols), "a block, not a ragged piece"
            if cols[-1] + 1 < grid.cols:
                wider = VGroup(*(grid.cells[r][c] for r in rows for c in [*cols, cols[-1] + 1]))
                assert not camera_work.reads_in_one_shot(wider, region)
            if rows[-1] + 1 < grid.rows:
                taller = VGroup(*(grid.cells[r][c] for r in [*rows, rows[-1] + 1] for c in cols))
                assert not camera_work.reads_in_one_shot(taller, region)


def test_under_the_camera_end_over_frames_a_tall_wide_grid_in_bands_each_shot_inside_the_room(monkeypatch):
    """A map's upper triangle (row i holds the cells right of the diagonal) of twelve rows, each row wider than a
    shot, in a frame a few rows tall: every cell framed once, each shot within the room, and fewer shots than the
    pieces of each row framed on their own."""
    region = layout.Region(-2.0, 2.0, -3.0, 3.0)
    plan = compose.Plan(VGroup(), "f", compose.CAMERA, region)
    grid = [[Square(0.9).move_to([j * 1.0, -i * 1.0, 0]) for j in range(12)] for i in range(12)]
    rows = [row[i + 1:] for i, row in enumerate(grid)]
    framed = []
    monkeypatch.setattr(staging.camera_moves, "shot_on", lambda piece, region, max_zoom=None: piece)
    monkeypatch.setattr(staging.camera_work, "move_through",
                        lambda scene, shots, *rest, **options: framed.extend(shots))
    staging.end_over(_Recorder(), plan, rows)
    cells = [id(part) for shot in framed for part in shot.submobjects]
    assert sorted(cells) == sorted(id(part) for row in rows for part in row), "every cell once"
    room_w = region.width - 2 * staging.camera_moves.FRAMING_MARGIN
    room_h = region.height - 2 * staging.camera_moves.FRAMING_MARGIN
    assert all(shot.width <= room_w + 1e-9 and shot.height <= room_h + 1e-9 for shot in framed)
    one_row_at_a_time = sum(len(staging._shot_groups(row, region)) for row in rows if row)
    assert len(framed) < one_row_at_a_time
