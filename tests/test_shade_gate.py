"""The shade gate: a small grid's values are numbers on screen, never shades standing in for them. A grid with its
numbers passes; the same grid with its numbers hidden fails, in the inspection's problems; out of view it is not
judged; a grid larger than SHADE_FREE_SIDE on a side may shade (the story gate holds its worked part)."""

from __future__ import annotations

import pytest

from conftest import per_scene
from scenes import frame
from scenes.quality.inspection import inspect_scene, inspect_scene_class
from scenes.quality.shade_gate import SHADE_FREE_SIDE, ShadedGrid
from scenes.registry import SCENES
from tests.fixtures.quality import shade_scenes


def test_a_grid_with_its_numbers_passes():
    report = inspect_scene_class(shade_scenes.NumbersScene, "numbers")
    assert report.shade_problems == []
    assert [m.shaded_values for m in report.metrics] == [0]


def test_a_small_grid_shown_as_shades_fails_and_out_of_view_is_not_judged():
    report = inspect_scene_class(shade_scenes.ShadesScene, "shades")
    assert len(report.shade_problems) == 1, report.shade_problems
    problem = report.shade_problems[0]
    assert problem.startswith("shades / beat shades / animation 1: 9 value(s) of H (3×3) shown as shades")
    assert problem in report.arithmetic_problems() and problem not in report.problems()  # held beside the story gate
    assert [m.shaded_values for m in report.metrics] == [9, 0]  # moved out of view: nothing seen as a shade
    assert all(type(m.shaded_values) is int for m in report.metrics)  # they go into the inspection's JSON


def test_shaded_cells_on_screen_without_their_grid_fail_too():
    """causal_triangle's phone clip put a 4 × 4 map's cells on screen one by one and the gate, looking for grids,
    saw none: a cell is judged wherever it is."""
    report = inspect_scene_class(shade_scenes.LooseShadesScene, "loose")
    assert [m.shaded_values for m in report.metrics] == [9], report.shade_problems
    assert report.shade_problems and "9 value(s) of H (3×3)" in report.shade_problems[0]


def test_a_small_grid_filmed_by_the_camera_may_shade_and_is_still_counted():
    """Shades stand for numbers only in a picture on the engine's camera rung (larger than the frame at the floor):
    not a problem there, but still in the beat's figure, which the post's example holds to zero."""
    report = inspect_scene_class(shade_scenes.FilmedShadesScene, "filmed")
    assert report.shade_problems == []
    assert [m.shaded_values for m in report.metrics] == [9]
    assert len(report.filmed_shades) == 1 and "9 value(s) of H (3×3)" in report.filmed_shades[0]
    assert ShadedGrid("H", 3, 3, 9, filmed=True).small and not ShadedGrid("H", 3, 3, 9, filmed=True).judged


def test_only_a_grid_larger_than_the_shade_free_side_may_shade():
    assert ShadedGrid("H", 3, 3, 9).small
    assert ShadedGrid("weights", SHADE_FREE_SIDE, SHADE_FREE_SIDE, 1).small
    assert not ShadedGrid("weights", 12, 12, 100).small


POST_CASES = [(spec.id, aspect) for spec in SCENES for aspect in frame.ASPECTS]


@pytest.mark.parametrize("case", per_scene(POST_CASES, scene_id=lambda case: case[0], name="-".join))
def test_no_scene_shows_a_small_grid_as_shades_for_the_post(case):
    """Every scene, every frame, the post's example: every value of a small grid is a number whenever it is in
    view. (An edge example may still need the camera for a small grid: a phone's width of six-entry rows; its
    figure is in the inspection's JSON, `shaded_values`.)"""
    report = inspect_scene(*case)
    assert not report.shade_problems, "\n".join(report.shade_problems)
    assert not report.filmed_shades, "the camera's rung needed for the post:\n" + "\n".join(report.filmed_shades)


def test_the_cells_found_are_every_familys_cells():
    """shaded_grids finds cells without walking into texts: the same cells, once each, as a walk of every member of
    every family (a grid, a loose cell, a cell in two places, a grid inside a group)."""
    from manim import VGroup

    from scenes.kit.numbers import Source
    from scenes.kit.widgets import heatmap
    from scenes.quality import shade_gate

    source = Source("coffee")
    grid, other = heatmap(source, "weights"), heatmap(source, "weights")
    loose = other.cells[0][0]
    tops = [grid, loose, VGroup(other, loose)]
    found = shade_gate._grid_cells(tops)
    every = shade_gate._grid_cells_family_by_family(tops)
    assert len(found) == len(every) == len(grid.numbers()) + len(other.numbers())
    assert {id(cell) for cell in found} == {id(cell) for cell in every}
