"""Quality gates run on every registered scene, headless at 480p (one run per scene, shared by the gates).

- layout: nothing outside the frame, no overlapping text, nothing below the legibility floor;
- numbers on screen: every number equals a fresh attention_math computation at the precision shown;
- narrated numbers: every decimal a beat reads aloud is a number on screen during that beat;
- pixel regression: the frame at the end of every beat matches committed control data
  (regenerate with `./dev.sh test tests/test_quality_gates.py --set_test`);
- determinism: a second run draws identical frames, on a representative subset (a second run of every scene cost
  as much again as all the gates; the pixel regression above still compares every scene with its control data).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from conftest import ROOT, per_scene
from scenes.kit import typography
from scenes.quality.inspection import FONT_SIZE_TOLERANCE, inspect_scene, inspect_scene_class, metrics_json
from scenes.registry import SCENES
from tests.fixtures.quality import flawed_scenes, narrated_scenes

CONTROL_DIR = ROOT / "tests" / "control_data"
FIGURES_DIR = ROOT / "tests" / "_artifacts" / "legibility" / "post"
PIXEL_ATOL = 1  # per channel, out of 255
MAX_DIFFERING_FRACTION = 1e-5
ids = [spec.id for spec in SCENES]
#: One scene per source of nondeterminism the clips could have: products and bars (coffee_cafe), a random keep-mask
#: (dropout_weights), seeded heads and per-head tints (head_split), a trained model's translation (learned_alignment).
DETERMINISM_SUBSET = ["coffee_cafe", "dropout_weights", "head_split", "learned_alignment"]


def frames_differ(expected: np.ndarray, actual: np.ndarray) -> str | None:
    if expected.shape != actual.shape:
        return f"shape {actual.shape} != control {expected.shape}"
    differing = np.any(np.abs(expected.astype(int) - actual.astype(int)) > PIXEL_ATOL, axis=-1)
    fraction = differing.mean()
    if fraction > MAX_DIFFERING_FRACTION:
        return f"{differing.sum()} pixels ({fraction:.4%}) differ"
    return None


# --- the gates can fail ------------------------------------------------------------------------------------


def test_layout_gate_catches_crowding():
    problems = inspect_scene_class(flawed_scenes.CrowdedScene, "crowded").layout_problems
    assert any("outside the frame" in p and "cut off" in p for p in problems), problems
    assert any("overlapping" in p for p in problems), problems
    assert any("legibility floor" in p and "too small" in p for p in problems), problems
    assert all("beat crowd" in p for p in problems), "each problem names the beat"


def test_layout_gate_sees_a_formula_torn_into_glyphs_and_a_glyph_copy():
    """Lighting a term tears the formula into loose glyphs on the stage; they are still its text, as is a copy."""
    problems = inspect_scene_class(flawed_scenes.TornFormulaScene, "torn").layout_problems
    over_formula = [p for p in problems if "'over it'" in p and "TornText" in p and "b + c + d" in p]
    over_word = [p for p in problems if "'a word'" in p and "TornText 'loose glyphs'" in p]
    assert over_formula and over_word, problems


def test_a_text_wholly_under_the_band_cover_is_hidden_not_overlapping():
    report = inspect_scene_class(flawed_scenes.UnderTheBandScene, "under")
    assert report.layout_problems == [], report.layout_problems


def test_number_gate_catches_a_mislabelled_number():
    report = inspect_scene_class(flawed_scenes.WrongNumberScene, "wrong")
    assert any("coffee.scores[2]" in p for p in report.number_problems), report.number_problems


def test_clean_fixture_passes_every_gate():
    report = inspect_scene_class(flawed_scenes.CleanScene, "clean")
    assert report.layout_problems == [] and report.number_problems == []
    assert report.numbers_checked == 3


def test_narration_gate_passes_numbers_read_off_the_screen():
    report = inspect_scene_class(narrated_scenes.NarratedOnScreenScene, "narrated_on_screen")
    assert report.narrated_number_problems == []
    assert "-0.2" in report.shown_numbers["read_a_negative"]  # said as "−0.2", with the minus sign


def test_narration_gate_catches_numbers_not_on_screen():
    problems = inspect_scene_class(narrated_scenes.NarratedOffScreenScene, "narrated_off_screen").narrated_number_problems
    assert len(problems) == 3, problems
    never_shown, shown_too_early, sign_dropped = problems
    assert "beat show_scores" in never_shown and "says 0.52" in never_shown
    assert "beat scores_gone" in shown_too_early and "says 1.35" in shown_too_early
    assert "beat sign_dropped" in sign_dropped and "says 0.2," in sign_dropped
    assert all(p.startswith("narrated_off_screen / beat ") for p in problems), "each problem names scene and beat"


def test_pixel_comparison_catches_a_small_shift():
    frame = inspect_scene_class(flawed_scenes.CleanScene, "clean").beat_frames[-1][1]
    shifted = np.roll(frame, 3, axis=1)
    assert frames_differ(frame, frame) is None
    assert frames_differ(frame, shifted) is not None


# --- the gates on every scene -------------------------------------------------------------------------------


@pytest.mark.parametrize("scene_id", per_scene(ids))
def test_layout(scene_id):
    problems = inspect_scene(scene_id).layout_problems
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("scene_id", per_scene(ids))
def test_legibility_figures(scene_id):
    """Every beat's figures are measured (and left in tests/_artifacts/legibility/post/ for the record): nothing
    on screen below the floor, every beat with a composition on screen."""
    report = inspect_scene(scene_id)
    figures = metrics_json(report, "post", report.layout_problems)
    FIGURES_DIR.mkdir(parents=True, exist_ok=True)
    (FIGURES_DIR / f"{scene_id}.json").write_text(json.dumps(figures), encoding="utf-8")
    assert [m["beat"] for m in figures["beats"]] == [r.name for r in report.beat_log]
    assert figures["min_font_size"] >= typography.MIN_FONT_SIZE * FONT_SIZE_TOLERANCE, figures
    assert all(m["fill"] > 0 for m in figures["beats"]), "a beat ended with nothing ever on screen"


@pytest.mark.parametrize("scene_id", per_scene(ids))
def test_numbers_on_screen(scene_id):
    report = inspect_scene(scene_id)
    assert not report.number_problems, "\n".join(report.number_problems)


@pytest.mark.parametrize("scene_id", per_scene(ids))
def test_narrated_numbers_on_screen(scene_id):
    report = inspect_scene(scene_id)
    assert report.beat_log, f"{scene_id} logged no beats"
    assert not report.narrated_number_problems, "\n".join(report.narrated_number_problems)


@pytest.mark.parametrize("scene_id", per_scene(ids))
def test_pixel_regression(scene_id, request):
    frames = inspect_scene(scene_id).beat_frames
    assert frames, f"{scene_id} has no beats"
    match_control_data(frames, CONTROL_DIR / scene_id, request.config.getoption("--set_test"),
                       f"no control data for {scene_id}; create it with "
                       f"`./dev.sh test tests/test_quality_gates.py --set_test`")


def match_control_data(frames, folder: Path, regenerate: bool, missing: str) -> None:
    """The beat frames equal the control PNGs in `folder` (<nn>_<beat>.png), up to the anti-aliasing tolerance; with
    `regenerate` (--set_test), `folder` is written afresh from them instead. `missing` says how to create it."""
    scene_id = folder.name
    if regenerate:
        for old in folder.glob("*.png"):
            old.unlink()
        folder.mkdir(parents=True, exist_ok=True)
        for position, (beat, frame) in enumerate(frames):
            Image.fromarray(frame).save(folder / f"{position:02d}_{beat}.png", optimize=True)
        return
    expected_files = sorted(folder.glob("*.png"))
    assert expected_files, missing
    names = [f"{i:02d}_{beat}.png" for i, (beat, _) in enumerate(frames)]
    assert names == [p.name for p in expected_files], "the scene's beats changed; regenerate the control data"
    failures = []
    for (beat, frame), path in zip(frames, expected_files):
        problem = frames_differ(np.asarray(Image.open(path).convert("RGB")), frame)
        if problem:
            failures.append(f"beat {beat}: {problem}")
    assert not failures, f"{scene_id}: " + "; ".join(failures)


def test_the_determinism_subset_names_registered_scenes():
    assert set(DETERMINISM_SUBSET) <= set(ids)


@pytest.mark.parametrize("scene_id", per_scene(DETERMINISM_SUBSET))
def test_determinism(scene_id):
    first = inspect_scene(scene_id).beat_frames
    second = inspect_scene_class(scene_id, scene_id).beat_frames
    assert [b for b, _ in first] == [b for b, _ in second]
    for (beat, a), (_, b) in zip(first, second):
        assert np.array_equal(a, b), f"beat {beat} drew different frames on a second run"


def test_the_layout_gate_catches_one_mobject_animated_twice_in_one_play():
    from manim import FadeIn, LaggedStart, Square

    from scenes.quality.inspection import animated_twice

    shape = Square()
    assert animated_twice([FadeIn(shape), FadeIn(shape)])
    assert animated_twice([LaggedStart(FadeIn(Square()), FadeIn(shape)), shape.animate.shift([1, 0, 0])])
    assert animated_twice([FadeIn(shape), FadeIn(Square())]) == []
