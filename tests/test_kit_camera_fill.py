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


def test_a_slide_that_would_bring_a_grid_in_cut_at_the_frames_edge_is_not_made():
    """Below the name, out of the shot on it, a grid: sliding down to fill the region would show its top rows
    only (a sliver of a bracket in a role's colour, no name near), so the shot stays where it was."""
    import torch

    from scenes.kit.numbers import Source
    from scenes.kit.widgets import TensorGrid

    source = Source.__new__(Source)
    source.name, source.data = "tiny", {"k": torch.arange(16, dtype=torch.float32).reshape(8, 2) / 10}
    name, grid, whole = _tall_picture()
    shot = camera_moves.shot_on(name, REGION)
    below = _box(name, shot)[2] + config.frame_height / 2  # on screen, from the name down to the frame's foot
    k = TensorGrid(source, "k").next_to(name, DOWN, buff=0.0)
    k.shift(DOWN * (below / shot_zoom(shot) + 0.1))  # just out of view in the shot on the name
    picture = VGroup(whole, k)
    assert camera_work.filled_by(shot, whole, REGION).center[1] != shot.center[1]  # without the grid: it slides
    assert list(camera_work.filled_by(shot, picture, REGION).center) == list(shot.center)


def shot_zoom(shot) -> float:
    return config.frame_width / shot.width
