"""Every registered scene builds and renders end to end (at a tiny resolution, to keep the suite quick).

Checks what a reader of the clip gets: a video of 30–120 s and a subcaption track in which every beat has
at least one caption.
"""

from __future__ import annotations

import importlib
import tempfile
from pathlib import Path

import av
import pytest
from manim import tempconfig

from scenes.registry import SCENES

TINY = {"pixel_width": 192, "pixel_height": 108, "frame_rate": 5}
MIN_SECONDS, MAX_SECONDS = 30, 120


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


@pytest.mark.parametrize("spec", SCENES, ids=lambda s: s.id)
def test_scene_renders_with_captions(spec):
    with tempfile.TemporaryDirectory() as media:
        scene = render_tiny(spec, Path(media))
        videos = list(Path(media).rglob(f"{spec.id}.mp4"))
        assert len(videos) == 1, f"expected one {spec.id}.mp4 under {media}"
        seconds = video_seconds(videos[0])
        assert MIN_SECONDS <= seconds <= MAX_SECONDS, f"{spec.id} lasts {seconds:.1f} s"
        captions = videos[0].with_suffix(".srt").read_text(encoding="utf-8")

    assert scene.beat_log, "a scene is a sequence of @beat methods"
    assert all(record.captions for record in scene.beat_log)
    for record in scene.beat_log:
        assert record.captions[0] in captions, f"beat {record.name}'s caption is missing from the .srt"
    assert abs(scene.beat_log[-1].end - seconds) < 1.0, "beats should cover the clip"
