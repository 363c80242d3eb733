"""Every registered scene is a clip of 30–120 s with a caption for every beat, and one renders end to end.

The length and the captions are the storyboard's: a headless run (animations skipped, the clock advanced by every
play and wait) gives the same beats, times and subcaptions as a render, so every scene is checked from the run the
quality gates already make (`inspect_scene`, cached per process). One short scene is rendered for real, at a tiny
resolution, to show that the video and its caption track come out and agree with the storyboard.
"""

from __future__ import annotations

import importlib
import tempfile
from pathlib import Path

import av
import pytest
from manim import tempconfig

from conftest import per_scene
from scenes.quality.inspection import inspect_scene
from scenes.registry import SCENES, get

TINY = {"pixel_width": 192, "pixel_height": 108, "frame_rate": 5}
MIN_SECONDS, MAX_SECONDS = 30, 120
RENDERED = "bottleneck"  # the shortest clip: the one real render of this file
#: A render's clock advances in whole frames per play; the storyboard's does not.
FRAME_ROUNDING = 1.0


def render_tiny(spec, media_dir: Path):
    scene_class = getattr(importlib.import_module(spec.module), spec.class_name)
    with tempconfig({**TINY, "media_dir": str(media_dir), "disable_caching": True, "verbosity": "ERROR",
                     "progress_bar": "none", "output_file": spec.id}):
        scene = scene_class()
        scene.render()
    return scene


def video_seconds(path: Path) -> float:
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        return float(stream.frames / stream.average_rate) if stream.frames else float(container.duration / 1e6)


@pytest.mark.parametrize("spec", per_scene(SCENES, lambda s: s.id))
def test_scene_lasts_a_clip_and_captions_every_beat(spec):
    report = inspect_scene(spec.id)
    assert MIN_SECONDS <= report.duration <= MAX_SECONDS, f"{spec.id} lasts {report.duration:.1f} s"
    assert report.beat_log, "a scene is a sequence of @beat methods"
    assert all(record.captions for record in report.beat_log)
    track = "\n".join(report.subcaptions)
    for record in report.beat_log:
        assert record.captions[0] in track, f"beat {record.name}'s caption is missing from the caption track"
    assert abs(report.beat_log[-1].end - report.duration) < 1e-6, "beats should cover the clip"


def test_a_scene_renders_to_video_with_its_captions():
    spec = get(RENDERED)
    with tempfile.TemporaryDirectory() as media:
        scene = render_tiny(spec, Path(media))
        videos = list(Path(media).rglob(f"{spec.id}.mp4"))
        assert len(videos) == 1, f"expected one {spec.id}.mp4 under {media}"
        seconds = video_seconds(videos[0])
        captions = videos[0].with_suffix(".srt").read_text(encoding="utf-8")
    storyboard = inspect_scene(spec.id)
    assert abs(seconds - storyboard.duration) < FRAME_ROUNDING, (seconds, storyboard.duration)
    assert [r.name for r in scene.beat_log] == [r.name for r in storyboard.beat_log]
    for record in scene.beat_log:
        assert record.captions[0] in captions, f"beat {record.name}'s caption is missing from the .srt"
    assert abs(scene.beat_log[-1].end - seconds) < FRAME_ROUNDING, "beats should cover the clip"
