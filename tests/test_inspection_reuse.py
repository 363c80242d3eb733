"""The inspection takes over the judgement of an unchanged stage (inspection.stage_fingerprint): an animation that
leaves the stage as the one before left it (a wait) is not judged again. These tests hold the shortcut to the same
findings as judging every animation afresh, and show each gate still catches a fault planted between two waits,
where the shortcut is taken."""

from __future__ import annotations

import json

import pytest
from manim import Square

from scenes.quality import inspection
from scenes.quality.inspection import inspect_scene_class, metrics_json
from tests.fixtures.quality import flawed_scenes, reuse_scenes, shade_scenes, story_scenes


def run(scene, reuse: bool, monkeypatch, aspect: str = "landscape"):
    monkeypatch.setattr(inspection, "REUSE_UNCHANGED_STAGES", reuse)
    return inspect_scene_class(scene, "fixture", aspect)


def findings(report) -> dict:
    """Everything a report says, but how many stages it took over."""
    return {"problems": report.problems(), "arithmetic": report.arithmetic_problems(),
            "filmed": report.filmed_shades, "shown": report.shown_numbers, "numbers": report.numbers_checked,
            "animations": report.animations_checked,
            "figures": json.dumps(metrics_json(report, "fixture", report.problems()), sort_keys=True)}


def test_an_unchanged_stage_is_taken_over_and_a_clean_one_stays_clean(monkeypatch):
    report = run(reuse_scenes.StillScene, True, monkeypatch)
    assert report.stages_reused == 4, report.stages_reused  # four waits on the stage the fade-in left
    assert report.layout_problems == [] and report.number_problems == []
    assert run(reuse_scenes.StillScene, False, monkeypatch).stages_reused == 0


@pytest.mark.parametrize("scene, finding", [
    (reuse_scenes.MovedOntoScene, "overlapping"),
    (reuse_scenes.ShrunkScene, "below the legibility floor"),
    (reuse_scenes.PushedOutScene, "outside the frame"),
    (reuse_scenes.RelabelledScene, "recomputes to"),
    (reuse_scenes.UncoveredScene, "overlapping"),
], ids=lambda v: getattr(v, "__name__", v))
def test_a_fault_planted_between_two_waits_is_caught_on_the_shortened_path(scene, finding, monkeypatch):
    report = run(scene, True, monkeypatch)
    assert report.stages_reused >= 2  # the waits before and after the fault took the shortcut
    assert any(finding in p for p in report.problems()), report.problems()
    assert findings(report) == findings(run(scene, False, monkeypatch))


@pytest.mark.parametrize("scene", [flawed_scenes.CrowdedScene, flawed_scenes.TornFormulaScene,
                                   flawed_scenes.WrongNumberScene, flawed_scenes.UnderTheBandScene,
                                   shade_scenes.ShadesScene, shade_scenes.FilmedShadesScene,
                                   story_scenes.CutStoryScene, story_scenes.CoveredStoryScene],
                         ids=lambda s: s.__name__)
def test_the_shortcut_finds_what_judging_every_animation_finds(scene, monkeypatch):
    assert findings(run(scene, True, monkeypatch)) == findings(run(scene, False, monkeypatch))


class _Stage:
    """The least a fingerprint reads of a scene."""

    def __init__(self, *mobjects):
        self.mobjects, self.foreground_mobjects = list(mobjects), []
        self.camera = object()


def test_the_fingerprint_changes_with_points_colours_flags_and_order():
    a, b = Square(), Square().shift([1, 0, 0])
    stage = _Stage(a, b)
    before = inspection.stage_fingerprint(stage)[0]
    assert inspection.stage_fingerprint(stage)[0] == before
    changes = [lambda: a.shift([0.001, 0, 0]), lambda: a.set_fill(opacity=0.5), lambda: a.set_stroke(width=1),
               lambda: a.set_color("#ff0000"), lambda: setattr(a, "filmed", True),
               lambda: a.add(Square(0.1)), lambda: stage.mobjects.reverse()]
    seen = {before}
    for change in changes:
        change()
        now = inspection.stage_fingerprint(stage)[0]
        assert now not in seen
        seen.add(now)
