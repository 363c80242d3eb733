"""The render benchmark still runs end to end and reports every figure the issue asks for (on one tiny fixture
scene at 480p15, the one-clip runs on the same scene; the figures themselves are for people to read, nothing here
times anything). The scene is the 1.5 s square: the benchmark renders it seven times, and the 8 s toy scenes
would only make each run longer."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.fixtures.render.harness import REPO

SCENE = "square"


def test_the_render_benchmark_reports_every_figure(tmp_path):
    figures_file = tmp_path / "figures.json"
    result = subprocess.run([sys.executable, "benchmarks/bench_render.py", "--fixtures", "--scenes", SCENE,
                             "--qualities", "low", "--jobs", "1", "--one-clip-repeats", "2",
                             "--json", str(figures_file)],
                            cwd=REPO, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    figures = json.loads(figures_file.read_text())
    assert figures["scenes"] == [SCENE]
    row = figures["qualities"]["low"]
    for key in ("manim_cli_mp4", "render_py_mp4_jobs1", "render_py_blog_jobs1", "render_py_nothing_changed",
                "render_s_per_video_s", "video_seconds"):
        assert row[key] > 0, key
    assert row["mp4_frame_counts_match"] is True
    assert row["mp4_worst_mean_level_difference"] < 1.0, "render.py's mp4 shows the CLI's frames"
    assert "x the CLI" in result.stdout and "nothing changed" in result.stdout
    # Every run is traced: the whole clip's task and its install, with the CPU its worker used.
    kinds = [entry["kind"] for entry in row["trace_mp4_jobs1"]]
    assert kinds.count("clip") == 1 and kinds.count("install") == 1
    assert next(e for e in row["trace_mp4_jobs1"] if e["kind"] == "clip")["cpu"] > 0
    # The one clip alone with --jobs 1 and 2, fresh and with its timeline known; each run's parts printed.
    one = row["one_clip"]
    assert one["scene"] == SCENE
    assert set(one["runs"]) == {"fresh_jobs1", "fresh_jobs2", "known_jobs1", "known_jobs2"}
    first = one["runs"]
    assert one["repeats"][0]["ratio_fresh"] == first["fresh_jobs2"]["seconds"] / first["fresh_jobs1"]["seconds"]
    assert len(one["repeats"]) == 2  # the four runs twice, the ratios their medians (of two: the mean)
    for ratio in ("ratio_fresh", "ratio_known"):
        assert one[ratio] == sum(repeat[ratio] for repeat in one["repeats"]) / 2
        assert all(repeat[ratio] == repeat["seconds"][ratio[6:] + "_jobs2"] / repeat["seconds"][ratio[6:] + "_jobs1"]
                   for repeat in one["repeats"])
    assert all(run["video_seconds"] > 0 and run["trace"] for run in one["runs"].values())
    assert "--jobs 2 / --jobs 1: fresh folder" in result.stdout and f"{SCENE}-low.install" in result.stdout
    # The render model's figures for the clip: the whole clip's CPU, its frames of cost from the kept timeline, and
    # the drawing as what the whole clip costs beyond a measuring pass; said missing, not made up, with no such pass.
    model = one["model"]
    assert model["whole_cpu"] > 0 and model["frame_cost"] > 0 and "render model, " in result.stdout
    if model["measure_cpu"] is None:
        assert model["draw_cpu_per_frame"] is None and "no measuring pass in these runs" in result.stdout
    else:
        assert model["draw_cpu_per_frame"] == (model["whole_cpu"] - model["measure_cpu"]) / model["frame_cost"]
    # The targets, each said measured or not: at low only, the 1080p60 figures are not.
    assert "targets (issue 42)" in result.stdout
    assert f"one clip ({SCENE}) at low, timeline known: --jobs 2 / --jobs 1" in result.stdout
    assert "at 1080p60, --jobs 1: render s per video s" in result.stdout and "not measured" in result.stdout
