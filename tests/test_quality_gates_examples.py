"""The quality gates on the kept edge examples, and on random valid examples (hypothesis).

Each edge example runs every example-dependent scene headless (layout, numbers recomputed from the example,
narrated numbers, typed claims): the edge examples in the test's process, one run per test; the random ones
through the command users run, `python -m scenes.quality.inspection --example F ids`, in two processes.
learned_heads is left out: it shows a fixed trained model, the same for every example.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from attention_math import example_spec, examples
from benchmarks import random_examples
from conftest import ROOT, STORY_GATED
from scenes.kit.base import BeatRecord
from scenes.quality.inspection import inspect_scene, metrics_json, typed_claim_problems
from scenes import frame
from scenes.registry import SCENES

EDGE_EXAMPLES = ("tiny", "wide", "long-word", "animal", "scripts", "twelve")
EXAMPLE_SCENES = [spec.id for spec in SCENES if spec.id != "learned_heads"]


#: Where the gates leave every beat's legibility figures (inspection --json), one file per example and scene.
FIGURES_DIR = ROOT / "tests" / "_artifacts" / "legibility"


def run_gates(example: Path, scene_ids: list[str], processes: int = 2) -> list[subprocess.CompletedProcess]:
    """The inspection for `scene_ids`, split over `processes` worker processes run side by side."""
    shares = [scene_ids[i::processes] for i in range(processes)]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    running = [subprocess.Popen([sys.executable, "-m", "scenes.quality.inspection", "--example", str(example), *share],
                                cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
               for share in shares if share]
    results = []
    for process in running:
        out, _ = process.communicate(timeout=900)
        results.append(subprocess.CompletedProcess(process.args, process.returncode, out, ""))
    return results


def test_the_typed_claim_check_catches_a_caption_typed_for_the_post():
    tiny = example_spec.read(ROOT / "examples" / "tiny.toml")
    beats = [BeatRecord("scores", 0.0, 1.0, captions=["“coffee” scores highest"], narration=["coffee wins"]),
             BeatRecord("fine", 1.0, 2.0, captions=["“cats” scores highest"], narration=[""])]
    problems = typed_claim_problems("demo", beats, tiny)
    assert len(problems) == 2 and all("beat scores" in p and "'coffee'" in p for p in problems)
    assert typed_claim_problems("demo", beats, example_spec.post()) == []


#: The edge examples and frames, costliest run first (twelve tokens in portrait took 70 s, two tokens in landscape a
#: few): the longest runs start first, the short ones fill in at the end.
COSTLIEST_FIRST = (("twelve", "wide", "animal", "long-word", "scripts", "tiny"), ("portrait", "square", "landscape"))
EDGE_CASES = sorted(((scene_id, name, aspect) for scene_id in EXAMPLE_SCENES for name in EDGE_EXAMPLES
                     for aspect in frame.ASPECTS),
                    key=lambda case: (COSTLIEST_FIRST[0].index(case[1]), COSTLIEST_FIRST[1].index(case[2])))


#: Each case a test; the three frames of one scene and example in one worker (`--dist loadgroup`), one after the
#: other: the second and third frame copy the forms the first weighed (`scenes.kit.reuse`, sketches), which the
#: layout engine measures alike in every frame.
EDGE_PARAMS = [pytest.param(case, id="-".join(case), marks=pytest.mark.xdist_group(f"edge-{case[0]}-{case[1]}"))
               for case in EDGE_CASES]


@pytest.mark.slow
@pytest.mark.parametrize("case", EDGE_PARAMS)
def test_every_clip_passes_the_quality_gates_for_the_edge_example(case, monkeypatch):
    """In the test's own process. Each case is its own headless run, shared with no other test, so the cases are
    not kept in their scene's worker (`conftest.per_scene`): under pytest-xdist the scene and example's three frames
    go to one worker together (EDGE_PARAMS), costliest first, and the two workers end together. Every frame: a
    phone's portrait and square clips are laid out for the example too (in portrait the gates hold texts and numbers
    to the phone's CSS-px floors). A
    scene on the layout engine (STORY_GATED) is held to the story gate too, and every scene to the shade gate: a
    small grid shows its values as numbers, shades only in a picture the engine films."""
    scene_id, name, aspect = case
    monkeypatch.setenv(example_spec.EXAMPLE_ENV_VAR, str(ROOT / "examples" / f"{name}.toml"))
    assert examples.active_spec().name == name
    report = inspect_scene(scene_id, aspect)
    problems = report.problems() + report.shade_problems + (report.story_problems if scene_id in STORY_GATED else [])
    figures = figures_path(name, scene_id, aspect)
    figures.parent.mkdir(parents=True, exist_ok=True)
    figures.write_text(json.dumps(metrics_json(report, name, problems, aspect)), encoding="utf-8")
    assert not problems, "\n".join(problems)
    empty = [m.beat for m in report.metrics if m.fill <= 0]
    assert not empty, f"beats that never showed anything in the camera's view: {empty}"


def figures_path(example: str, scene_id: str, aspect: str) -> Path:
    """tests/_artifacts/legibility/<example>/<scene>.json for landscape, <example>/<aspect>/<scene>.json otherwise."""
    folder = FIGURES_DIR / example
    return (folder if aspect == frame.DEFAULT_ASPECT else folder / aspect) / f"{scene_id}.json"


@pytest.mark.slow
# No shrinking: each example costs a minute, and the failure message prints the whole example file anyway.
@settings(max_examples=2, deadline=None, derandomize=True, phases=[Phase.generate],
          suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False))
def test_random_valid_examples_pass_the_layout_and_numbers_checks(rng):
    """A random valid example file, drawn inside every limit as the render benchmark draws its own
    (benchmarks/random_examples.py)."""
    text = random_examples.draw(rng, "random")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "random.toml"
        path.write_text(text)
        example_spec.read(path)  # the strategy stays inside the limits
        results = run_gates(path, ["weight_free", "coffee_cafe", "head_split", "causal_triangle"])
    failed = [r.stdout for r in results if r.returncode != 0]
    assert not failed, text + "\n" + "\n".join(failed)
