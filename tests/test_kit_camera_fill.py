"""A close-up on a piece at a picture's edge shows the picture beside it, not empty background
(scenes.kit.camera_work.filled_by, used by the sweep that frames a part piece after piece)."""

from __future__ import annotations

import pytest
from manim import DOWN, UP, Rectangle, VGroup, config

from scenes.kit import camera_moves, camera_work, layout
from scenes.kit.on_screen import View, screen_box

REGION = layout.Region(-6.5, 6.5, -3.0, 3.0)


def _box(mob, shot):
    return screen_box(mob, View(shot.center[0], shot.center[1], shot.width,
                                shot.width * config.frame_height / config.frame_width))


def _tall_picture(name_height: float = 0.4):
    """A name above a map four frames tall (a head's name over a 12-token map, read in close-ups)."""
    grid = Rectangle(width=6.0, height=24.0)
    name = Rectangle(width=1.0, height=name_height).next_to(grid, UP, buff=0.2)
    return name, grid, VGroup(name, grid)


def test_the_shot_on_a_name_at_the_top_of_a_tall_picture_slides_down_until_the_picture_fills_the_region():
    name, grid, whole = _tall_picture()
    shot = camera_moves.shot_on(name, REGION)
    top_gap = REGION.top - _box(whole, shot)[3]
    assert top_gap > 0.25 * REGION.height  # centred on the name: half the region above it is empty
    filled = camera_work.filled_by(shot, whole, REGION)
    assert filled.width == shot.width
    assert _box(whole, filled)[3] == pytest.approx(REGION.top - camera_moves.FRAMING_MARGIN / 2)
    left, right, bottom, top = _box(name, filled)
    assert REGION.bottom <= bottom and top <= REGION.top and REGION.left <= left and right <= REGION.right


def test_a_picture_that_fits_the_region_is_not_slid_and_a_narrow_margin_is_left():
    small = Rectangle(width=2.0, height=2.0)
    shot = camera_moves.shot_on(small, REGION)
    assert list(camera_work.filled_by(shot, small, REGION).center) == list(shot.center)
    name, grid, whole = _tall_picture()
    near_top = camera_moves.shot_on(VGroup(name, grid.copy().set(height=4.0).next_to(name, DOWN, buff=0.2)), REGION)
    gap = REGION.top - _box(whole, near_top)[3]
    assert 0 < gap < 0.25 * REGION.height
    assert list(camera_work.filled_by(near_top, whole, REGION).center) == list(near_top.center)


def _across_the_foot(shot, piece):
    """`piece` centred on the region's foot in `shot` (scene coordinates)."""
    return piece.move_to([shot.center[0], shot.center[1] + REGION.bottom / shot_zoom(shot), 0.0])


def test_a_slide_that_would_cut_a_piece_the_region_holds_whole_is_not_made():
    """Where the slid shot's foot falls, out of the shot on the name, a word's box: sliding down to fill the region
    would show its top half only (a sliver under a pinned heading), so the shot stays where it was. A piece larger
    than the region (a map) is cut by any close-up: bringing it in cut does not stop the slide."""
    name, grid, whole = _tall_picture()
    shot = camera_moves.shot_on(name, REGION)
    slid = camera_work.filled_by(shot, whole, REGION)
    assert slid.center[1] != shot.center[1]  # alone: it slides
    box = _across_the_foot(slid, Rectangle(width=1.0, height=1.0 / shot_zoom(shot)))
    assert _box(box, shot)[3] < -config.frame_height / 2  # out of the first shot
    assert list(camera_work.filled_by(shot, VGroup(whole, box), REGION).center) == list(shot.center)
    big_map = Rectangle(width=1.0, height=3 * REGION.height / shot_zoom(shot))
    big_map.move_to(box, aligned_edge=UP)  # out of the first shot, cut at the slid shot's foot
    assert camera_work.filled_by(shot, VGroup(whole, big_map), REGION).center[1] == slid.center[1]


def shot_zoom(shot) -> float:
    return config.frame_width / shot.width


def test_a_sweep_after_a_close_up_frames_only_the_pieces_the_close_up_did_not_read():
    """Four numbers in a row, the camera zoomed on the first two: those two read where the camera is, the two off
    screen do not, and only those are left for the sweep."""
    from types import SimpleNamespace

    from scenes.kit.numbers import NumberTrace, TracedNumber

    numbers = [TracedNumber(0.25 * k, NumberTrace("post", "demo", (k,), 2), font_size=30).move_to([4.0 * k, 0, 0])
               for k in range(4)]
    frame = Rectangle(width=config.frame_width / 2, height=config.frame_height / 2).move_to([2.0, 0.0, 0.0])
    scene = SimpleNamespace(camera=SimpleNamespace(frame=frame))
    assert camera_work.unread_pieces(scene, numbers, REGION) == numbers[2:]
    frame.move_to([10.0, 0.0, 0.0])  # now on the last two
    assert camera_work.unread_pieces(scene, numbers, REGION) == numbers[:2]
