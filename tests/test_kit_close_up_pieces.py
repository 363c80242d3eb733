"""A close-up shows pieces, not slivers of them (scenes.kit.camera_work.shot_without_slivers): a grid the shot on a
part would cut at the frame's edge is taken in whole where everything then framed still reads, else the shot moves
off it, the part still whole in view."""

from __future__ import annotations

import torch
from manim import LEFT, RIGHT, VGroup, config

from scenes.kit import camera_moves, camera_work, layout
from scenes.kit.numbers import Source
from scenes.kit.on_screen import View, screen_box
from scenes.kit.widgets import TensorGrid

REGION = layout.Region(-6.5, 6.5, -3.0, 3.0)
#: A region narrower than the frame: the frame shows around it what the shot cuts at its edge.
NARROW = layout.Region(-3.0, 3.0, -2.0, 2.0)


def _source() -> Source:
    source = Source.__new__(Source)
    source.name = "tiny"
    source.data = {"part": torch.tensor([[0.25, -0.5], [1.0, 0.75]]),
                   "small": torch.tensor([[0.1, 0.2], [0.3, 0.4]]),
                   "large": torch.arange(144, dtype=torch.float32).reshape(12, 12) / 10}
    return source


def _box(mob, shot):
    return screen_box(mob, View(shot.center[0], shot.center[1], shot.width,
                                shot.width * config.frame_height / config.frame_width))


def _whole_in(box, region) -> bool:
    return box[0] >= region.left - 1e-6 and box[1] <= region.right + 1e-6 and box[2] >= region.bottom - 1e-6 \
        and box[3] <= region.top + 1e-6


def _out_of_frame(box) -> bool:
    half_w, half_h = config.frame_width / 2, config.frame_height / 2
    return box[1] <= -half_w or box[0] >= half_w or box[3] <= -half_h or box[2] >= half_h


def test_a_grid_the_close_up_would_cut_is_taken_in_whole_where_it_still_reads():
    part = TensorGrid(_source(), "part")
    beside = TensorGrid(_source(), "small").next_to(part, LEFT, buff=0.3)
    plain = camera_moves.shot_on(part, NARROW)
    assert camera_work._cuts(plain, beside, NARROW), "the set-up: a shot on the part alone cuts its neighbour"
    shot = camera_work.shot_without_slivers(part, VGroup(part, beside), NARROW)
    assert _whole_in(_box(beside, shot), NARROW) and _whole_in(_box(part, shot), NARROW)
    assert camera_work.shows_legibly(shot, VGroup(part, beside), NARROW)


def test_a_grid_too_large_to_take_in_is_left_out_of_the_shot_and_the_part_stays_whole():
    part = TensorGrid(_source(), "part")
    large = TensorGrid(_source(), "large").next_to(part, LEFT, buff=1.0)
    plain = camera_moves.shot_on(part, REGION)
    assert camera_work._cuts(plain, large, REGION), "the set-up: a shot on the part alone cuts the large grid"
    shot = camera_work.shot_without_slivers(part, VGroup(part, large), REGION)
    assert _out_of_frame(_box(large, shot)), "no sliver of the large grid on screen"
    assert _whole_in(_box(part, shot), REGION) and camera_work.shows_legibly(shot, part, REGION)


def test_a_close_up_with_nothing_cut_is_the_plain_shot():
    part = TensorGrid(_source(), "part")
    far = TensorGrid(_source(), "small").next_to(part, RIGHT, buff=30.0)
    plain = camera_moves.shot_on(part, REGION)
    shot = camera_work.shot_without_slivers(part, VGroup(part, far), REGION)
    assert shot.width == plain.width and (shot.center == plain.center).all()
