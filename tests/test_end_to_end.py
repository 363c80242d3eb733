"""End to end, as an author would: render.py renders a real scene, and its page plays in headless Chromium.

One real scene at low quality keeps this to about a minute; the render tests cover the rest of render.py
with tiny fixture scenes, and every scene is rendered (at a tiny size) by test_scenes_render.py.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ROOT
from test_page_browser import ARTIFACTS, check_page_in_browser

E2E_SCENE = "bottleneck"  # one of the shortest clips


@pytest.mark.slow
@pytest.mark.browser
def test_a_real_clip_renders_and_plays_on_the_page(tmp_path):
    out = tmp_path / "media"
    result = subprocess.run([sys.executable, "render.py", E2E_SCENE, "--quality", "low", "--out", str(out)],
                            cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]

    manifest = json.loads((out / "manifest.json").read_text())
    [clip] = manifest["clips"]
    assert clip["id"] == E2E_SCENE and clip["quality"] == "low"
    assert clip["resolution"] == [854, 480] and 30 <= clip["duration"] <= 120
    assert {"mp4", "webm", "png", "vtt"} <= set(clip["files"])
    for entry in clip["files"].values():
        assert (out / entry["path"]).stat().st_size == entry["bytes"]

    report = check_page_in_browser(out, ARTIFACTS / "rendered")
    assert report.problems == [], "\n".join(report.problems)
    assert report.checked_variants == 1
