"""Where a clip's render time goes: one scene rendered whole by the worker under cProfile, summed into the parts of
a frame's life (prints figures; not a test).

  .venv/bin/python benchmarks/profile_render.py qkv_scale --quality high
  .venv/bin/python benchmarks/profile_render.py qkv_scale --quality high --stats saved.prof   # just read a profile
  .venv/bin/python benchmarks/profile_render.py weight_free --quality low --aspect portrait --example my.toml

cProfile slows Python-heavy parts more than C-heavy ones, so the shares are a map of the work, not a stopwatch; the
benchmark scripts measure wall time without it.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from rendering.qualities import QUALITIES, framed  # noqa: E402
from scenes.frame import ASPECTS, DEFAULT_ASPECT  # noqa: E402
from rendering.pipeline.scene_list import DEFAULT_REGISTRY, load_registry, select  # noqa: E402
from rendering.records import WorkerJob  # noqa: E402

# (part, function as pstats names it: file suffix, line-independent name); cumulative time of each.
PARTS = [
    ("whole render", "rendering/encode/worker.py", "render"),
    ("animation set-up (begin: copies, point alignment)", "manim/scene/scene.py", "begin_animations"),
    ("interpolation (update_to_time per frame)", "manim/scene/scene.py", "update_to_time"),
    ("drawing (camera.capture_mobjects)", "manim/camera/camera.py", "capture_mobjects"),
    # draw_speed's own (the worker installs it), not manim's camera.py, draws the paths and lists what to draw
    ("  finding what to draw (families)", "scenes/speed/draw_speed.py", "get_mobjects_to_display"),
    ("  building cairo paths", "scenes/speed/draw_speed.py", "set_cairo_context_path"),
    ("  filling and stroking (cairo)", "manim/camera/camera.py", "apply_fill"),
    ("waiting for the encoder thread", "~", "<method 'acquire' of '_thread.lock' objects>"),
]


class _Events:
    def send(self, *args, **kwargs) -> None:
        pass

    def frames(self, count: int) -> None:
        pass


def profile(scene_id: str, quality_name: str, out: Path, aspect: str = DEFAULT_ASPECT,
            example: Path | None = None) -> tuple[float, int]:
    from rendering.encode import worker

    spec = select(load_registry(DEFAULT_REGISTRY, REPO), [scene_id])[0]
    quality = framed(QUALITIES[quality_name], aspect)
    text = example.read_text(encoding="utf-8") if example is not None else None
    with tempfile.TemporaryDirectory(prefix="profile-render-") as scratch:
        job = WorkerJob(spec.id, spec.module, spec.class_name, quality, ("mp4",), scratch, example=text)
        worker.use_example(job)  # as the worker's main does: the example's TOML, read by attention_math
        profiler = cProfile.Profile()
        started = time.perf_counter()
        result = profiler.runcall(worker.render, job, _Events())
        seconds = time.perf_counter() - started
        profiler.dump_stats(str(out))
    return seconds, result["frames"]


def parts(stats_path: Path) -> list[tuple[str, float]]:
    stats = pstats.Stats(str(stats_path)).stats
    found = []
    for label, file_suffix, name in PARTS:
        total = sum(entry[3] for (filename, _, function), entry in stats.items()
                    if function == name and filename.endswith(file_suffix))
        found.append((label, total))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scene")
    parser.add_argument("--quality", default="high", choices=list(QUALITIES))
    parser.add_argument("--aspect", default=DEFAULT_ASPECT, choices=ASPECTS)
    parser.add_argument("--example", type=Path, help="an example file (TOML) to compute the clip from")
    parser.add_argument("--top", type=int, default=0, help="also list the N functions of most own time")
    parser.add_argument("--stats", type=Path, help="read this saved profile instead of rendering")
    parser.add_argument("--save", type=Path, help="keep the profile here")
    args = parser.parse_args()
    stats_path = args.stats
    if stats_path is None:
        stats_path = args.save or Path(tempfile.mkstemp(suffix=".prof")[1])
        seconds, frames = profile(args.scene, args.quality, stats_path, args.aspect, args.example)
        print(f"{args.scene} at {args.quality} {args.aspect}: {frames} frames "
              f"({frames / QUALITIES[args.quality].fps:.1f} video s), {seconds:.1f} s under the profiler")
    rows = parts(stats_path)
    whole = rows[0][1] or 1.0
    print(f"{'part':<52} {'s (profiled)':>12} {'share':>7}")
    for label, total in rows:
        print(f"{label:<52} {total:>12.1f} {total / whole:>7.1%}")
    if args.top:
        pstats.Stats(str(stats_path)).sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
