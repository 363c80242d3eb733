"""Where a quality-gate case's time goes: one scene inspected headless (`inspect_scene`, what each case of
tests/test_quality_gates_examples.py runs) under cProfile, summed into the parts of the run (prints figures; not a test).

  .venv/bin/python benchmarks/profile_inspection.py head_split --example examples/twelve.toml --aspect portrait
  .venv/bin/python benchmarks/profile_inspection.py coffee_cafe --example examples/tiny.toml --stats saved.prof

The parts nest (the layout engine's forms copy mobjects and make Typst texts; a camera move plays), so the shares
overlap and do not add up to 100 %. cProfile slows Python-heavy parts more than C-heavy ones: the shares are a map
of the work, not a stopwatch (the run's wall time without the profiler is printed first).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def _parts() -> list[tuple[str, tuple]]:
    """(part, how pstats names its function: (file suffix, name) or a function's own code) for each part."""
    import svgelements
    from manim import Mobject, Scene
    from manim.mobject.text.typst_mobject import Typst

    from scenes.kit import camera_work, compose, reuse, shot_content
    from scenes.speed import typst_speed

    def code(function) -> tuple:
        return ("code", function.__code__.co_filename, function.__code__.co_firstlineno, function.__code__.co_name)

    return [
        ("whole inspection (inspect_scene)", ("scenes/quality/inspection.py", "inspect_scene_class")),
        ("the gates after every animation", ("scenes/quality/inspection.py", "after_animation")),
        ("the gates at every beat's end (contrast, colour)", ("scenes/quality/inspection.py", "on_beat_end")),
        ("drawing each beat's end frame (the contrast gate reads it)", ("manim/renderer/cairo_renderer.py", "update_frame")),
        ("layout engine: compose (forms tried, measured)", code(compose.compose)),
        ("camera moves to shots (camera_work.move_to_shot)", code(camera_work.move_to_shot)),
        ("  shot states (shot_content.shot_state)", code(shot_content.shot_state)),
        ("grids and maps built or copied (reuse)", code(reuse.Reused.__call__)),
        ("mobject copies (Mobject.copy)", code(Mobject.copy)),
        ("manim's play, skipped (Scene.play)", code(Scene.play)),
        ("Typst texts made (Typst.__init__)", code(Typst.__init__)),
        ("  compiling (typst_to_svg_file)", code(typst_speed.typst_to_svg_file)),
        ("  glyphs from a parsed SVG (generate_mobject)", code(typst_speed.generate_mobject)),
        ("  glyphs, manim's generate_mobject (profiles made before)",
         code(typst_speed._stock_generate_mobject)),
        ("    parsing the SVG (svgelements.SVG.parse)", code(svgelements.SVG.parse)),
    ]


def profile(scene_id: str, aspect: str, out: Path) -> tuple[float, float, int]:
    """(seconds without the profiler, seconds under it, animations checked): two runs, each in a fresh process
    state for the scene (the inspection's cache and the parsed SVGs emptied)."""
    from scenes.quality import inspection
    from scenes.speed import typst_speed

    started = time.perf_counter()
    report = inspection.inspect_scene(scene_id, aspect)
    plain = time.perf_counter() - started
    inspection._inspect_cached.cache_clear()
    typst_speed._PARSED.clear()
    profiler = cProfile.Profile()
    started = time.perf_counter()
    profiler.runcall(inspection.inspect_scene, scene_id, aspect)
    profiled = time.perf_counter() - started
    profiler.dump_stats(str(out))
    return plain, profiled, report.animations_checked


def parts(stats_path: Path) -> list[tuple[str, float]]:
    stats = pstats.Stats(str(stats_path)).stats
    found = []
    for label, key in _parts():
        if key[0] == "code":
            _, filename, line, name = key
            total = sum(entry[3] for (f, l, n), entry in stats.items() if (f, l, n) == (filename, line, name))
        else:
            suffix, name = key
            total = sum(entry[3] for (f, _, n), entry in stats.items() if n == name and f.endswith(suffix))
        found.append((label, total))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scene")
    parser.add_argument("--example", help="an example file (default: the post's)")
    parser.add_argument("--aspect", default="landscape")
    parser.add_argument("--stats", type=Path, help="read this saved profile instead of running")
    parser.add_argument("--save", type=Path, help="keep the profile here")
    args = parser.parse_args()
    if args.example:
        os.environ["ATTENTION_EXAMPLE"] = str(Path(args.example).resolve())
    stats_path = args.stats
    if stats_path is None:
        stats_path = args.save or Path(tempfile.mkstemp(suffix=".prof")[1])
        plain, profiled, animations = profile(args.scene, args.aspect, stats_path)
        print(f"{args.scene} ({args.example or 'the post'}, {args.aspect}): {animations} animations checked, "
              f"{plain:.1f} s, {profiled:.1f} s under the profiler")
    rows = parts(stats_path)
    whole = rows[0][1] or 1.0
    print(f"{'part (they nest: shares overlap)':<60} {'s (profiled)':>12} {'share':>7}")
    for label, total in rows:
        print(f"{label:<60} {total:>12.1f} {total / whole:>7.1%}")


if __name__ == "__main__":
    main()
