"""Benchmark render.py against the plain manim CLI; prints the figures (not a test, nothing is asserted).

For each quality, in one run on this machine:
  - manim CLI, serial: each scene rendered one after another with `python -m manim render -q<x>` (mp4 only),
    and the extra runs the CLI needs for the same deliverables as render.py (`--format webm`, `-s` for the png);
  - render.py --force with each --jobs value (fresh clips, same formats as the blog: mp4, webm, png);
  - render.py again with nothing changed (the up-to-date path);
  - render seconds per second of video (render.py, --jobs 1).
Targets from the issue: all scenes at 1080p60 through render.py <= 0.55 x the serial manim CLI; a nothing-changed
rebuild <= 1 s.

  .venv/bin/python benchmarks/bench_render.py                         # every registered scene, low and high
  .venv/bin/python benchmarks/bench_render.py --scenes coffee_cafe --qualities low
  .venv/bin/python benchmarks/bench_render.py --fixtures              # the tiny test scenes (seconds, not hours)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from rendering.qualities import QUALITIES  # noqa: E402
from rendering.scenes import DEFAULT_REGISTRY, load_registry, select  # noqa: E402

MANIM_FLAG = {"low": "l", "medium": "m", "high": "h", "1440p": "p", "4k": "k"}


CPU = {}  # seconds of CPU (user + system, all child processes) per figure: steadier than wall time when the
           # machine is shared, since other people's load stretches wall time but not our CPU time


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: list[str], *, cwd: Path, env: dict, cpu_key: str | None = None):
    start, cpu = time.perf_counter(), _children_cpu()
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    if cpu_key is not None:
        CPU[cpu_key] = CPU.get(cpu_key, 0.0) + _children_cpu() - cpu
    return time.perf_counter() - start, result


def check(result: subprocess.CompletedProcess, what: str) -> None:
    if result.returncode != 0:
        tail = "\n".join((result.stdout + result.stderr).strip().splitlines()[-15:])
        raise SystemExit(f"{what} failed with status {result.returncode}:\n{tail}")


def manim_cli_serial(specs, quality: str, root: Path, env: dict, extra: list[str], key: str) -> float:
    """Seconds to render every scene one after another with the plain CLI, each into a fresh media dir."""
    total = 0.0
    for spec in specs:
        with tempfile.TemporaryDirectory(prefix="bench-manim-") as media:
            seconds, result = timed([sys.executable, "-m", "manim", "render", f"-q{MANIM_FLAG[quality]}",
                                     "--media_dir", media, *extra, spec.path, spec.class_name], cwd=root, env=env,
                                    cpu_key=key)
            check(result, f"manim CLI {' '.join(extra)} on {spec.id}")
            total += seconds
    return total


def warm_page(out: Path) -> None:
    """Typeset the page's formulas once, so render.py's timings measure clips, not the first page build."""
    try:
        from rendering import page
    except ModuleNotFoundError:
        return
    page.write_page({"version": 1, "clips": []}, out)


def copy_fixtures(folder: Path) -> Path:
    from tests.fixtures.render.harness import make_project

    return make_project(folder).root


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenes", nargs="*", default=[], help="scene ids (default: all registered scenes)")
    parser.add_argument("--qualities", default="low,high", help="comma-separated (default: low,high)")
    parser.add_argument("--jobs", default="1,2", help="--jobs values to time render.py with (default: 1,2)")
    parser.add_argument("--formats", default="mp4,webm,png", help="render.py formats (default: the blog's)")
    parser.add_argument("--fixtures", action="store_true", help="use the fixture scenes (default toy_matrix, toy_bars: ~8 s each)")
    parser.add_argument("--skip-cli", action="store_true", help="do not time the plain manim CLI")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="bench-render-"))
    try:
        if args.fixtures:
            root, registry_name = copy_fixtures(work / "project"), "rfx.registry"
            scene_ids = args.scenes or ["toy_matrix", "toy_bars"]
        else:
            root, registry_name, scene_ids = REPO, DEFAULT_REGISTRY, args.scenes
        registry = load_registry(registry_name, root)
        specs = select(registry, scene_ids)
        qualities = [q for q in args.qualities.split(",") if q]
        jobs_values = [int(j) for j in args.jobs.split(",") if j]
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), str(REPO)]))
        render_py = [sys.executable, str(REPO / "render.py"), "--root", str(root), "--registry", registry_name]
        figures = {"scenes": [s.id for s in specs], "cores": len(os.sched_getaffinity(0)),
                   "load_average_at_start": os.getloadavg()[0], "qualities": {}}
        print(f"scenes: {', '.join(figures['scenes'])}  |  cores: {figures['cores']}  |  formats: {args.formats}  |  "
              f"load average at start: {figures['load_average_at_start']:.1f}")
        print("figures: wall seconds, then [CPU seconds of all processes]")

        for quality in qualities:
            if quality not in QUALITIES:
                raise SystemExit(f"unknown quality {quality!r}; valid: {', '.join(QUALITIES)}")
            row: dict = {}
            if not args.skip_cli:
                for name, extra in (("mp4", []), ("webm", ["--format", "webm"]), ("png", ["-s"])):
                    key = f"{quality}/manim_cli_{name}"
                    row[f"manim_cli_{name}"] = manim_cli_serial(specs, quality, root, env, extra, key)
                    row[f"cpu_manim_cli_{name}"] = CPU[key]
                row["manim_cli_same_outputs"] = row["manim_cli_mp4"] + row["manim_cli_webm"] + row["manim_cli_png"]
                row["cpu_manim_cli_same_outputs"] = sum(row[f"cpu_manim_cli_{n}"] for n in ("mp4", "webm", "png"))
            # Two render.py variants: the blog's formats (compare with the CLI runs that make the same files) and
            # mp4 only (the same single file as the plain CLI run).
            for variant, formats in (("blog", args.formats), ("mp4", "mp4")):
                out = work / f"out-{quality}-{variant}"
                warm_page(out)
                command = render_py + ["--out", str(out), "-q", quality, "-f", formats, *[s.id for s in specs]]
                for jobs in jobs_values:
                    key = f"{quality}/render_py_{variant}_jobs{jobs}"
                    seconds, result = timed(command + ["--force", "--jobs", str(jobs)], cwd=REPO, env=env,
                                            cpu_key=key)
                    check(result, f"render.py -f {formats} --jobs {jobs}")
                    row[f"render_py_{variant}_jobs{jobs}"] = seconds
                    row[f"cpu_render_py_{variant}_jobs{jobs}"] = CPU[key]
                if variant == "blog":
                    seconds, result = timed(command, cwd=REPO, env=env)
                    check(result, "render.py rebuild")
                    if "0 rendered" not in result.stdout:
                        raise SystemExit(f"the nothing-changed rebuild rendered something:\n{result.stdout}")
                    row["render_py_nothing_changed"] = seconds
                    manifest = json.loads((out / "manifest.json").read_text())
                    video = sum(c["duration"] for c in manifest["clips"] if c["quality"] == quality)
                    row["video_seconds"] = video
                    row["render_s_per_video_s"] = row[f"render_py_blog_jobs{jobs_values[0]}"] / video
            figures["qualities"][quality] = row
            _print_row(quality, row, jobs_values)
        if args.json:
            args.json.write_text(json.dumps(figures, indent=2) + "\n")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def _print_row(quality: str, row: dict, jobs_values: list[int]) -> None:
    q = QUALITIES[quality]
    print(f"\n{quality} ({q.width}x{q.height}@{q.fps}), {row['video_seconds']:.1f} s of video; "
          f"load average now {os.getloadavg()[0]:.1f}")
    for variant, cli_key, label in (("mp4", "manim_cli_mp4", "mp4 only"),
                                    ("blog", "manim_cli_same_outputs", "mp4 + webm + png")):
        if cli_key in row:
            print(f"  manim CLI serial, {label:<18} {row[cli_key]:8.1f} s [{row['cpu_' + cli_key]:.1f}]")
        for jobs in jobs_values:
            seconds = row[f"render_py_{variant}_jobs{jobs}"]
            ratio = f"   = {seconds / row[cli_key]:.2f} x the CLI" if cli_key in row else ""
            print(f"  render.py --jobs {jobs}, {label:<17} {seconds:8.1f} s "
                  f"[{row[f'cpu_render_py_{variant}_jobs{jobs}']:.1f}]{ratio}")
    print(f"  render.py, nothing changed            {row['render_py_nothing_changed']:8.2f} s")
    print(f"  render seconds per video second       {row['render_s_per_video_s']:8.2f}  (render.py --jobs "
          f"{jobs_values[0]}, mp4 + webm + png)")


if __name__ == "__main__":
    sys.exit(main())
