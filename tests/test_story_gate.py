"""The story gate: a cue's subject is on screen as legible, whole, uncovered numbers while it is said, and the
numbers it quotes are on screen (scenes.quality.story_gate); it runs for the ported scenes in every frame."""

from __future__ import annotations

import ast
import re

import pytest

from attention_math import examples
from scenes import frame
from scenes.quality.inspection import inspect_scene, inspect_scene_class, metrics_json
from scenes.kit.numbers import Source, format_value
from conftest import ROOT, STORY_GATED, per_scene
from tests.fixtures.quality import story_scenes



def story(scene_class) -> list[str]:
    return inspect_scene_class(scene_class, scene_class.__name__).story_problems


def test_a_subject_shown_as_numbers_passes():
    report = inspect_scene_class(story_scenes.ShownStoryScene, "shown")
    assert report.story_problems == []
    beat = report.story["the_scores"]
    assert (beat.subject_values, beat.subject_shown_as_numbers, beat.subject_cut) == (3, 3, 0)


def test_a_subject_turned_into_shades_fails():
    problems = story(story_scenes.ShadedStoryScene)
    assert len(problems) == 1 and "never on screen as a legible" in problems[0], problems
    width = Source("coffee").shape("H")[1]
    assert problems[0].count("(H[0, ") == width, "every entry of the worked row is named"


def test_a_subject_drawn_as_shades_without_numbers_fails():
    problems = story(story_scenes.ShadesOnlyStoryScene)
    assert len(problems) == 1 and "shown as shades, without its numbers" in problems[0], problems


def test_a_subject_cut_at_the_frame_edge_fails_and_is_counted():
    report = inspect_scene_class(story_scenes.CutStoryScene, "cut")
    assert report.story_problems and "never on screen" in report.story_problems[0]
    assert report.story["the_scores_cut"].subject_cut >= 1


def test_a_subject_under_another_text_fails():
    problems = story(story_scenes.CoveredStoryScene)
    assert problems and "uncovered" in problems[0], problems


def test_a_quoted_number_and_a_named_chart_not_on_screen_fail():
    problems = story(story_scenes.UnseenStoryScene)
    weight = format_value(Source("coffee").value("weights", 2), 2)
    assert any(f"quotes {weight}, which is not on screen" in p for p in problems), problems
    assert any("the subject Rectangle is not on screen" in p for p in problems), problems


def test_the_inspection_json_gives_the_subject_figures():
    report = inspect_scene_class(story_scenes.ShownStoryScene, "shown")
    beat = metrics_json(report, "post", [])["beats"][-1]
    assert {"subject_values": 3, "subject_shown_as_numbers": 3, "subject_cut": 0, "subject_pieces": 0}.items() \
        <= beat.items()


#: Grouped by scene (`per_scene`): the post's run of a scene in a frame is the one the layout, shade, label and
#: portrait tests of that scene read in the same worker, not a second run in another worker.
POST_CASES = [(scene_id, aspect) for scene_id in STORY_GATED for aspect in frame.ASPECTS]


@pytest.mark.parametrize("case", per_scene(POST_CASES, scene_id=lambda case: case[0], name="-".join))
def test_the_ported_scenes_pass_the_story_gate_for_the_post(case, monkeypatch):
    scene_id, aspect = case
    monkeypatch.delenv("ATTENTION_EXAMPLE", raising=False)
    assert examples.active_spec().name == "post"
    report = inspect_scene(scene_id, aspect)
    assert not report.story_problems + report.problems(), "\n".join(report.story_problems + report.problems())
    figures = [report.story[m.beat] for m in report.metrics if m.beat in report.story]
    assert sum(f.subject_values + f.subject_pieces for f in figures) > 0, "the scene names its subjects"


# --- what a ported scene no longer does ----------------------------------------------------------------------

#: The layout choices a scene made itself before the engine; a ported scene leaves them to the kit.
LADDER = re.compile(r"is_tall|fits_at_floor|first_legible|first_worked|fill_factor|\bbig\b")
#: The most lines a beat (a storyboard: what is shown, what moves, what is said) may take.
BEAT_LINES = 40


def beat_lengths(scene_id: str) -> dict[str, int]:
    tree = ast.parse((ROOT / "scenes" / f"{scene_id}.py").read_text(encoding="utf-8"))
    return {node.name: node.end_lineno - node.lineno + 1 for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef)
            and any(isinstance(d, ast.Name) and d.id == "beat" for d in node.decorator_list)}


@pytest.mark.parametrize("scene_id", STORY_GATED)
def test_a_ported_scene_writes_no_layout_ladder_and_short_beats(scene_id):
    source = (ROOT / "scenes" / f"{scene_id}.py").read_text(encoding="utf-8")
    ladder = [f"line {n}: {line.strip()}" for n, line in enumerate(source.splitlines(), 1) if LADDER.search(line)]
    assert not ladder, "\n".join(ladder)
    long = {name: n for name, n in beat_lengths(scene_id).items() if n > BEAT_LINES}
    assert not long, f"beats over {BEAT_LINES} lines: {long}"


def test_the_beat_length_check_counts_a_beats_lines(tmp_path):
    lengths = beat_lengths("coffee_cafe")
    assert set(lengths) >= {"state_to_query", "score_each_encoder_vector"}
    assert all(n > 3 for n in lengths.values())
