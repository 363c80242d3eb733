"""Pixel control data of the portrait frame (9:16, 480×854), for the post's example, of the scenes laid out for it;
and the gates of the square frame for the scenes laid out for that.

PORTRAIT_SCENES lists the scenes whose portrait layout is done (inspection --aspect portrait reports no problem and
their beats were looked at); the others are not yet laid out for a portrait frame and are not covered here.
Regenerate with `./dev.sh test tests/test_portrait_pixels.py --set_test`.
"""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

import tests.test_quality_gates as gates
from conftest import ROOT, per_scene
from scenes.kit.inspection import inspect_scene

CONTROL_DIR = ROOT / "tests" / "control_data" / "portrait"
PORTRAIT_SCENES = ["coffee_cafe"]
#: The scenes laid out for the square frame (1:1, 480×480): their layout and number gates are checked here.
SQUARE_SCENES = ["coffee_cafe"]


def control_path(scene_id: str, position: int, beat: str):
    return CONTROL_DIR / scene_id / f"{position:02d}_{beat}.png"


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
    if request.config.getoption("--set_test"):
        target = CONTROL_DIR / scene_id
        for old in target.glob("*.png"):
            old.unlink()
        target.mkdir(parents=True, exist_ok=True)
        for position, (beat, frame) in enumerate(frames):
            Image.fromarray(frame).save(control_path(scene_id, position, beat), optimize=True)
        return
    expected_files = sorted((CONTROL_DIR / scene_id).glob("*.png"))
    assert expected_files, f"no portrait control data for {scene_id}; create it with --set_test"
    names = [control_path(scene_id, i, beat).name for i, (beat, _) in enumerate(frames)]
    assert names == [p.name for p in expected_files], "the scene's beats changed; regenerate the control data"
    failures = [f"beat {beat}: {problem}" for (beat, frame), path in zip(frames, expected_files)
                if (problem := gates.frames_differ(np.asarray(Image.open(path).convert("RGB")), frame))]
    assert not failures, f"{scene_id}: " + "; ".join(failures)
