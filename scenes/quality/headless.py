"""Run a registered scene without encoding video and capture the screen at the end of every beat.

Used by the beat-frame dump (`python -m scenes.quality.headless <scene_id>`), the pixel-regression tests and the
layout check: animations are skipped (only their end states are drawn), so a whole clip runs in seconds.
"""

from __future__ import annotations

import argparse
import atexit
import functools
import importlib
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Callable

import numpy as np
from manim import tempconfig
from manim.mobject.svg import svg_mobject

from scenes import frame, registry

from scenes.kit.base import AttentionScene, BeatRecord
from scenes.speed import install_speed_patches

# render.py's "low" quality (rendering/qualities.py), written out here because the kit never imports rendering;
# tests/test_kit_layers.py checks the two agree.
QUALITY_480P = {"pixel_width": 854, "pixel_height": 480, "frame_rate": 15}


def resolution_480p(aspect: str = frame.DEFAULT_ASPECT) -> dict:
    """The low quality's manim config for `aspect`: pixel size and frame units together (landscape: QUALITY_480P)."""
    return {**QUALITY_480P, **frame.manim_frame(aspect, QUALITY_480P["pixel_width"], QUALITY_480P["pixel_height"])}


@functools.cache
def _typst_cache() -> str:
    """One compiled-Typst folder for every headless run of this process (removed at exit): a text compiled for one
    run is not compiled again by the next."""
    folder = tempfile.mkdtemp(prefix="attention-typst-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def scene_class(scene_id: str) -> type[AttentionScene]:
    spec = registry.get(scene_id)
    return getattr(importlib.import_module(spec.module), spec.class_name)


def run_headless(scene: str | type[AttentionScene], *, on_beat_end: Callable[[AttentionScene, BeatRecord, np.ndarray], None] | None = None,
                 after_animation: Callable[[AttentionScene], None] | None = None,
                 resolution: dict | None = None, aspect: str = frame.DEFAULT_ASPECT) -> AttentionScene:
    """Build the scene (an id or a class) with animations skipped, in `aspect`'s frame at 480p (unless
    `resolution` gives the config); call the hooks with the scene (and frame)."""
    base = scene_class(scene) if isinstance(scene, str) else scene

    class Probe(base):  # type: ignore[misc, valid-type]
        def on_beat_end(self, record: BeatRecord) -> None:
            super().on_beat_end(record)
            if on_beat_end is not None:
                self.renderer.update_frame(self)
                on_beat_end(self, record, self.renderer.get_frame())

        def after_animation(self) -> None:
            super().after_animation()
            if after_animation is not None:
                after_animation(self)

    Probe.__name__ = base.__name__
    install_speed_patches()  # draw as the render worker draws
    with tempfile.TemporaryDirectory() as media, tempconfig({
        **(resolution or resolution_480p(aspect)), "media_dir": media, "tex_dir": _typst_cache(),
        "dry_run": True, "disable_caching": True,
        "verbosity": "ERROR", "progress_bar": "none",
    }):
        # Each run parses its SVGs afresh, as a render's process does: manim's in-memory SVG cache hands out copies
        # that draw a few pixels differently from a fresh parse, so a run must not depend on the runs before it.
        # (The kit's own keeps, scenes.kit.reuse and text.typeset, hand out copies that are their builds point for
        # point, kept per frame where a build depends on it: a run may take them from the run before.)
        svg_mobject.SVG_HASH_TO_MOB_MAP.clear()
        probe = Probe(skip_animations=True)
        probe.render()
    return probe


def dump_beat_frames(scene_id: str, out_dir: Path, aspect: str = frame.DEFAULT_ASPECT) -> list[Path]:
    """Write <out_dir>/<scene_id>/<nn>_<beat>.png, one per beat (landscape), or under <out_dir>/<aspect>/ for
    another aspect, and return the paths."""
    from PIL import Image

    target = (out_dir if aspect == frame.DEFAULT_ASPECT else out_dir / aspect) / scene_id
    target.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def save(scene: AttentionScene, record: BeatRecord, frame: np.ndarray) -> None:
        path = target / f"{len(written):02d}_{record.name}.png"
        Image.fromarray(frame[..., :3]).save(path)
        written.append(path)

    run_headless(scene_id, on_beat_end=save, aspect=aspect)
    return written


def add_aspect_option(parser: argparse.ArgumentParser) -> None:
    """--aspect, as every command that runs a scene headless takes it."""
    parser.add_argument("--aspect", default=frame.DEFAULT_ASPECT,
                        help=f"the frame's shape: {', '.join(frame.ASPECTS)} (default {frame.DEFAULT_ASPECT})")


def aspect_is_valid(aspect: str) -> bool:
    """False, with the one line naming the valid aspects on stderr, for an unknown aspect."""
    try:
        frame.check_aspect(aspect)
    except ValueError as error:
        print(error, file=sys.stderr)
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Dump one 480p PNG per beat of a scene (no video encoding).")
    parser.add_argument("scene_ids", nargs="+", help=f"scene ids: {', '.join(registry.scene_ids())}")
    parser.add_argument("--out", type=Path, default=Path("media/beat_frames"))
    add_aspect_option(parser)
    args = parser.parse_args(argv)
    if not aspect_is_valid(args.aspect):
        return 2
    for scene_id in args.scene_ids:
        try:
            registry.get(scene_id)
        except KeyError as error:
            print(error.args[0], file=sys.stderr)
            return 2
        for path in dump_beat_frames(scene_id, args.out, args.aspect):
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
