"""The render benchmark still runs end to end and reports every figure the issue asks for (on one tiny fixture
scene at 480p15; the figures themselves are for people to read, nothing here times anything)."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.fixtures.render.harness import REPO


def test_the_render_benchmark_reports_every_figure(tmp_path):
    figures_file = tmp_path / "figures.json"
    result = subprocess.run([sys.executable, "benchmarks/bench_render.py", "--fixtures", "--scenes", "toy_bars",
                             "--qualities", "low", "--jobs", "1", "--json", str(figures_file)],
                            cwd=REPO, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    figures = json.loads(figures_file.read_text())
    assert figures["scenes"] == ["toy_bars"]
    row = figures["qualities"]["low"]
    for key in ("manim_cli_mp4", "render_py_mp4_jobs1", "render_py_blog_jobs1", "render_py_nothing_changed",
                "render_s_per_video_s", "video_seconds"):
        assert row[key] > 0, key
    assert row["mp4_frame_counts_match"] is True
    assert row["mp4_worst_mean_level_difference"] < 1.0, "render.py's mp4 shows the CLI's frames"
    assert "x the CLI" in result.stdout and "nothing changed" in result.stdout
