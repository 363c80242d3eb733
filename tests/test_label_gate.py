"""The colour-alone gate (WCAG 1.4.1): a shape in a colour that means Q, K, V, a head, right or wrong must be named
by a word on screen; a grid in Q's colour with no word near it fails, named it passes; an arrow into a named box is
named by it; what is out of view, or hidden under the top band's cover, is not judged."""

from __future__ import annotations

import pytest

from conftest import per_scene
from scenes import frame
from scenes.quality.headless import run_headless
from scenes.quality.inspection import inspect_scene, inspect_scene_class, text_units
from scenes.quality.label_gate import colour_only
from scenes.kit.on_screen import current_view
from scenes.registry import SCENES
from tests.fixtures.quality import label_scenes


def problems_of(scene_class) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}

    def on_beat_end(scene, record, frame):
        found[record.name] = colour_only(scene.mobjects, text_units(scene), current_view(scene))

    run_headless(scene_class, on_beat_end=on_beat_end)
    return found


def test_a_named_grid_and_an_arrow_into_a_named_box_pass():
    assert problems_of(label_scenes.NamedScene) == {"named": []}


def test_a_grid_told_by_its_colour_alone_fails_and_out_of_view_or_under_the_cover_it_is_not_judged():
    found = problems_of(label_scenes.UnnamedScene)
    unnamed = ["1 piece(s) in the colour of Q with no word within 1.2 units"]
    assert found["unnamed"] == unnamed
    assert found["out_of_view"] == []
    assert found["under_the_cover"] == []
    assert found["half_out_from_under_it"] == unnamed


def test_the_inspection_reports_a_meaning_told_by_colour_alone():
    """The inspection's run gathers it at every beat end, beside layout, numbers and contrast."""
    report = inspect_scene_class(label_scenes.UnnamedScene, "unnamed")
    assert report.colour_only_problems == [
        f"unnamed / beat {beat} / end: 1 piece(s) in the colour of Q with no word within 1.2 units"
        for beat in ("unnamed", "half_out_from_under_it")]
    assert inspect_scene_class(label_scenes.NamedScene, "named").colour_only_problems == []
    assert report.colour_only_problems[0] in report.problems()  # every scene gate (post and edge examples) fails it


POST_CASES = [(spec.id, aspect) for spec in SCENES for aspect in frame.ASPECTS]


@pytest.mark.parametrize("case", per_scene(POST_CASES, scene_id=lambda case: case[0], name="-".join))
def test_no_scene_tells_a_meaning_by_colour_alone_for_the_post(case):
    """Every scene, every frame, the post's example (the run the other gates share); the kept edge examples are
    held to it through `problems()` in tests/test_quality_gates_examples.py."""
    report = inspect_scene(*case)
    assert not report.colour_only_problems, "\n".join(report.colour_only_problems)
