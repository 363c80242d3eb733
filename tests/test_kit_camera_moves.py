"""The camera helper: it frames the work, keeps the top band still on screen, and the gates see through it."""

from __future__ import annotations

import numpy as np
import pytest
from manim import config

from scenes.kit import camera_moves, layout
from scenes.quality.headless import run_headless
from scenes.quality.inspection import inspect_scene_class
from scenes.kit.on_screen import View
from tests.fixtures.quality import camera_scenes


@pytest.fixture(scope="module")
def framing():
    return run_headless(camera_scenes.FramingScene)


def test_frame_on_fills_the_body_with_the_work(framing):
    center, width = framing.framed_view
    zoom = config.frame_width / width
    cell = framing.q.cell(0)
    assert zoom == pytest.approx(camera_moves.MAX_ZOOM) or \
        cell.width * zoom == pytest.approx(layout.body().width - 2 * camera_moves.FRAMING_MARGIN) or \
        cell.height * zoom == pytest.approx(layout.body().height - 2 * camera_moves.FRAMING_MARGIN)
    # the cell sits at the body's centre on screen
    on_screen = View(center[0], center[1], width, width * config.frame_height / config.frame_width)
    x, y = on_screen.to_screen(*cell.get_center()[:2])
    assert (x, y) == pytest.approx(tuple(layout.body().center[:2]), abs=1e-6)


def test_the_top_band_stays_where_it_was_on_screen(framing):
    formula_center, formula_width = framing.formula_framed
    center, width = framing.framed_view
    view = View(center[0], center[1], width, width * config.frame_height / config.frame_width)
    x, y = view.to_screen(*formula_center[:2])
    rest_center = framing.formula.get_center()  # after pull_back the camera is at rest again
    assert (x, y) == pytest.approx(tuple(rest_center[:2]), abs=1e-6)
    assert formula_width * view.zoom == pytest.approx(framing.formula.width, rel=1e-6)
    assert camera_moves.at_rest(framing)


def test_the_top_band_is_still_at_every_moment_of_the_move():
    """Half-way through a move, the frame and the pinned formula have moved by the same similarity."""
    scene = run_headless(camera_scenes.FramingScene)
    target = camera_moves.shot_on(scene.q.cell(0))
    frame_anim, formula_anim = camera_moves.move_camera(scene, target)
    before = scene.formula.get_center().copy()
    for anim in (frame_anim, formula_anim):
        anim.begin()
        anim.interpolate(0.5)
    frame = scene.camera.frame
    view = View(*frame.get_center()[:2], frame.width, frame.height)
    assert view.to_screen(*scene.formula.get_center()[:2]) == pytest.approx(tuple(before[:2]), abs=1e-6)


def test_the_gates_measure_text_through_the_camera():
    framed = inspect_scene_class(camera_scenes.FramingScene, "framing")
    assert framed.layout_problems == [], "12-point numbers framed at 3x read at 36 points on screen"
    (metrics,) = framed.metrics
    assert metrics.camera_moves == 2
    assert metrics.number_font_size == pytest.approx(12 * camera_moves.MAX_ZOOM, rel=0.02)
    left_small = inspect_scene_class(camera_scenes.SmallAfterPullBackScene, "small")
    assert any("below the legibility floor" in p for p in left_small.layout_problems)


def test_text_outside_the_view_is_off_screen_and_framed_text_is_on_it():
    report = inspect_scene_class(camera_scenes.LabelOutsideScene, "outside")
    assert report.layout_problems == [], "the far label is off screen at rest, and inside the view once framed"
    assert np.isclose(report.metrics[0].camera_moves, 1)


def test_a_view_that_shows_nothing_of_the_stage_is_a_problem():
    """The camera looking away from everything on the stage leaves the viewer an empty frame: the gate says so."""
    problems = inspect_scene_class(camera_scenes.LookingAwayScene, "away").layout_problems
    assert any("nothing in the camera's view" in p for p in problems), problems
    assert not any("nothing in the camera's view" in p
                   for p in inspect_scene_class(camera_scenes.FramingScene, "framing").layout_problems)


def test_a_shot_moves_in_to_read_not_to_fill_the_frame():
    """Three numbers at 30 points framed alone: the camera stops where they read at the heading's size (40/30), not
    where they would fill the body (the old 3x); 12-point ones still go to MAX_ZOOM."""
    from manim import VGroup
    from scenes.kit import typography
    from scenes.kit.numbers import Source

    row = VGroup(*(Source("coffee").number("scores", i, font_size=30) for i in range(3))).arrange()
    shot = camera_moves.shot_on(row)
    assert shot.zoom == pytest.approx(typography.HEADING_SIZE / 30, rel=1e-3)
    assert camera_moves.reading_zoom(row.copy().scale(12 / 30)) == camera_moves.MAX_ZOOM
