"""End to end, as an author would: render.py renders a real scene, narrated, and its page plays in headless Chromium.

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
def test_a_real_clip_renders_narrated_and_plays_on_the_page(tmp_path):
    out = tmp_path / "media"
    result = subprocess.run([sys.executable, "render.py", E2E_SCENE, "--quality", "low", "--narrate", "--film",
                             "--out", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]

    manifest = json.loads((out / "manifest.json").read_text())
    silent, narrated = sorted(manifest["clips"], key=lambda clip: clip["narrated"])
    for clip in (silent, narrated):
        assert clip["id"] == E2E_SCENE and clip["quality"] == "low"
        assert clip["resolution"] == [854, 480] and {"mp4", "webm", "png", "vtt"} <= set(clip["files"])
        for entry in clip["files"].values():
            assert (out / entry["path"]).stat().st_size == entry["bytes"]
    assert 30 <= silent["duration"] <= 120 and silent["duration"] < narrated["duration"] <= 180
    assert narrated["audio"]["codecs"] == {"mp4": "aac", "webm": "opus"}
    for beat in narrated["transcript"]:  # the real voice, the real scene: every sentence inside its beat
        assert beat["speech"] and all(beat["start"] <= s["start"] < s["end"] <= beat["end"] for s in beat["speech"])
    [film] = manifest["films"]
    assert film["narrated"] and film["frames"] == narrated["frames"]

    report = check_page_in_browser(out, ARTIFACTS / "rendered")
    assert report.problems == [], "\n".join(report.problems)
    assert report.checked_variants == 1 and report.audible_players >= 2  # the narrated clip and the film
