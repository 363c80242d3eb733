"""Pixel control data of the portrait frame (9:16, 480×854), for the post's example, of the scenes laid out for it;
and the gates of the square frame for the scenes laid out for that.

PORTRAIT_SCENES lists the scenes whose portrait layout is done (inspection --aspect portrait reports no problem and
their beats were looked at); the others are not yet laid out for a portrait frame and are not covered here.
Regenerate with `./dev.sh test tests/test_portrait_pixels.py --set_test`.
"""

from __future__ import annotations

import pytest

import tests.test_quality_gates as gates
from conftest import ROOT, per_scene
from scenes.quality.inspection import inspect_scene

CONTROL_DIR = ROOT / "tests" / "control_data" / "portrait"
PORTRAIT_SCENES = ["bottleneck", "causal_triangle", "coffee_cafe", "dropout_weights", "head_split", "learned_alignment", "learned_heads", "qkv_scale", "soft_formula", "summary", "teacher_forcing", "weight_free"]
#: The scenes laid out for the square frame (1:1, 480×480): their layout and number gates are checked here.
SQUARE_SCENES = ["bottleneck", "causal_triangle", "coffee_cafe", "dropout_weights", "head_split", "learned_alignment", "learned_heads", "qkv_scale", "soft_formula", "summary", "teacher_forcing", "weight_free"]


@pytest.mark.parametrize("scene_id", per_scene(PORTRAIT_SCENES))
def test_portrait_layout_passes_the_gates(scene_id):
    report = inspect_scene(scene_id, "portrait")
    problems = report.layout_problems + report.number_problems
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("scene_id", per_scene(SQUARE_SCENES))
def test_square_layout_passes_the_gates(scene_id):
    report = inspect_scene(scene_id, "square")
    assert report.beat_frames and report.beat_frames[0][1].shape[:2] == (480, 480)
    problems = report.layout_problems + report.number_problems
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("scene_id", per_scene(PORTRAIT_SCENES))
def test_portrait_pixel_regression(scene_id, request):
    frames = inspect_scene(scene_id, "portrait").beat_frames
    assert frames, f"{scene_id} has no beats"
    assert frames[0][1].shape[:2] == (854, 480)
    gates.match_control_data(frames, CONTROL_DIR / scene_id, request.config.getoption("--set_test"),
                             f"no portrait control data for {scene_id}; create it with --set_test")
