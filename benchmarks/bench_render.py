"""Benchmark render.py against the plain manim CLI; prints the figures (not a test, nothing is asserted).

For each quality, in one run on this machine:
  - manim CLI, serial: each scene rendered one after another with `python -m manim render -q<x>` (one mp4 each);
  - render.py --force, mp4 only (the same one file per scene as the CLI), with each --jobs value;
  - render.py --force with the blog's formats (mp4, webm, png poster, captions) at the largest --jobs value: what
    `./dev.sh render` does;
  - render.py again with nothing changed (the up-to-date path);
  - render seconds per second of video (render.py --jobs 1, mp4).
  - with --cli-same-outputs, also the extra CLI runs the blog's files would need (`--format webm`, `-s` for the
    poster): slow (the CLI's VP9 at 1080p60 takes about 3 s per video second), so not by default.
Targets from the issue: all scenes at 1080p60 through render.py <= 0.55 x the serial manim CLI; a nothing-changed
rebuild <= 1 s. The mp4s are compared too: total size, and render.py's mp4 against the CLI's, frame by frame.

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

from rendering.qualities import DEFAULT_FORMATS, QUALITIES  # noqa: E402
from rendering.pipeline.scene_list import DEFAULT_REGISTRY, load_registry, select  # noqa: E402

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


def manim_cli_serial(specs, quality: str, root: Path, env: dict, extra: list[str], key: str,
                     keep: Path | None = None) -> float:
    """Seconds to render every scene one after another with the plain CLI, each into a fresh media dir (kept under
    `keep`/<scene id> when given, to compare the files afterwards)."""
    total = 0.0
    for spec in specs:
        with tempfile.TemporaryDirectory(prefix="bench-manim-") as scratch:
            media = keep / spec.id if keep is not None else Path(scratch)
            seconds, result = timed([sys.executable, "-m", "manim", "render", f"-q{MANIM_FLAG[quality]}",
                                     "--media_dir", str(media), *extra, spec.path, spec.class_name], cwd=root,
                                    env=env, cpu_key=key)
            check(result, f"manim CLI {' '.join(extra)} on {spec.id}")
            total += seconds
    return total


def warm_page(out: Path) -> None:
    """Typeset the page's formulas once, so render.py's timings measure clips, not the first page build."""
    try:
        from rendering.site import page
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
    parser.add_argument("--no-blog", action="store_true", help="skip the run with the blog's formats")
    parser.add_argument("--cli-same-outputs", action="store_true",
                        help="also time the CLI making the webm and the poster (slow)")
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
        print(f"scenes: {', '.join(figures['scenes'])}  |  cores: {figures['cores']}  |  "
              f"load average at start: {figures['load_average_at_start']:.1f}")
        print("figures: wall seconds, then [CPU seconds of all processes]", flush=True)

        for quality in qualities:
            if quality not in QUALITIES:
                raise SystemExit(f"unknown quality {quality!r}; valid: {', '.join(QUALITIES)}")
            row: dict = {}
            cli_media = work / f"cli-{quality}"
            if not args.skip_cli:
                runs = [("mp4", [])]
                if args.cli_same_outputs:
                    runs += [("webm", ["--format", "webm"]), ("png", ["-s"])]
                for name, extra in runs:
                    key = f"{quality}/manim_cli_{name}"
                    row[f"manim_cli_{name}"] = manim_cli_serial(specs, quality, root, env, extra, key,
                                                                keep=cli_media if name == "mp4" else None)
                    row[f"cpu_manim_cli_{name}"] = CPU[key]
                if args.cli_same_outputs:
                    row["manim_cli_same_outputs"] = sum(row[f"manim_cli_{n}"] for n in ("mp4", "webm", "png"))
                    row["cpu_manim_cli_same_outputs"] = sum(row[f"cpu_manim_cli_{n}"] for n in ("mp4", "webm", "png"))
            variants = [("mp4", "mp4", jobs_values)]
            if not args.no_blog:
                variants.append(("blog", ",".join(DEFAULT_FORMATS), [max(jobs_values)]))
            for variant, formats, jobs_list in variants:
                out = work / f"out-{quality}-{variant}"
                warm_page(out)
                command = render_py + ["--out", str(out), "-q", quality, "-f", formats, *[s.id for s in specs]]
                for jobs in jobs_list:
                    key = f"{quality}/render_py_{variant}_jobs{jobs}"
                    seconds, result = timed(command + ["--force", "--jobs", str(jobs)], cwd=REPO, env=env,
                                            cpu_key=key)
                    check(result, f"render.py -f {formats} --jobs {jobs}")
                    row[f"render_py_{variant}_jobs{jobs}"] = seconds
                    row[f"cpu_render_py_{variant}_jobs{jobs}"] = CPU[key]
                if variant == "mp4":
                    seconds, result = timed(command, cwd=REPO, env=env)
                    check(result, "render.py rebuild")
                    if "0 rendered" not in result.stdout:
                        raise SystemExit(f"the nothing-changed rebuild rendered something:\n{result.stdout}")
                    row["render_py_nothing_changed"] = seconds
                    manifest = json.loads((out / "manifest.json").read_text())
                    clips = [c for c in manifest["clips"] if c["quality"] == quality]
                    row["video_seconds"] = sum(c["duration"] for c in clips)
                    row["render_s_per_video_s"] = row[f"render_py_mp4_jobs{jobs_values[0]}"] / row["video_seconds"]
                    row["render_py_mp4_bytes"] = sum(c["files"]["mp4"]["bytes"] for c in clips)
                    if cli_media.is_dir():
                        row.update(compare_with_cli(specs, out, cli_media, quality))
                shutil.rmtree(out, ignore_errors=True)
            shutil.rmtree(cli_media, ignore_errors=True)
            figures["qualities"][quality] = row
            _print_row(quality, row, jobs_values)
        if args.json:
            args.json.write_text(json.dumps(figures, indent=2) + "\n")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def compare_with_cli(specs, out: Path, cli_media: Path, quality: str) -> dict:
    """Sizes of both sets of mp4s, and how far render.py's frames are from the CLI's (mean absolute difference
    in 8-bit levels, every 10th frame; both are lossy encodings of the same drawn frames)."""
    import av
    import numpy as np

    from rendering.encode.media import probe

    cli_bytes, worst, counts_match = 0, 0.0, True
    for spec in specs:
        cli_file = next((cli_media / spec.id).rglob(f"{spec.class_name}.mp4"))
        cli_bytes += cli_file.stat().st_size
        ours_file = out / "clips" / quality / f"{spec.id}.mp4"
        counts_match &= probe(cli_file).frames == probe(ours_file).frames
        with av.open(str(cli_file)) as a, av.open(str(ours_file)) as b:
            for index, (fa, fb) in enumerate(zip(a.decode(video=0), b.decode(video=0))):
                if index % 10 == 0:
                    difference = np.abs(fa.to_ndarray(format="rgb24").astype(np.int16)
                                        - fb.to_ndarray(format="rgb24").astype(np.int16)).mean()
                    worst = max(worst, float(difference))
    return {"manim_cli_mp4_bytes": cli_bytes, "mp4_worst_mean_level_difference": worst,
            "mp4_frame_counts_match": counts_match}


def _print_row(quality: str, row: dict, jobs_values: list[int]) -> None:
    q = QUALITIES[quality]
    print(f"\n{quality} ({q.width}x{q.height}@{q.fps}), {row['video_seconds']:.1f} s of video; "
          f"load average now {os.getloadavg()[0]:.1f}")

    def line(label: str, key: str, versus: str = "") -> None:
        ratio = f"   = {row[key] / row['manim_cli_mp4']:.2f} x the CLI{versus}" if "manim_cli_mp4" in row else ""
        print(f"  {label:<38} {row[key]:8.1f} s [{row['cpu_' + key]:.1f}]{ratio if key != 'manim_cli_mp4' else ''}")

    if "manim_cli_mp4" in row:
        line("manim CLI serial, mp4", "manim_cli_mp4")
    for jobs in jobs_values:
        line(f"render.py --jobs {jobs}, mp4", f"render_py_mp4_jobs{jobs}")
    for key in (k for k in row if k.startswith("render_py_blog_jobs")):
        line(f"render.py --jobs {key.rsplit('jobs', 1)[1]}, blog formats", key, "'s mp4 alone")
    if "manim_cli_same_outputs" in row:
        line("manim CLI serial, mp4 + webm + png", "manim_cli_same_outputs")
    print(f"  {'render.py, nothing changed':<38} {row['render_py_nothing_changed']:8.2f} s")
    print(f"  {'render seconds per video second':<38} {row['render_s_per_video_s']:8.2f}   (render.py --jobs "
          f"{jobs_values[0]}, mp4)")
    if "manim_cli_mp4_bytes" in row:
        print(f"  mp4 bytes: render.py {row['render_py_mp4_bytes'] / 1e6:.1f} MB, CLI "
              f"{row['manim_cli_mp4_bytes'] / 1e6:.1f} MB; same frame counts: {row['mp4_frame_counts_match']}; "
              f"worst mean difference between the two, per sampled frame: "
              f"{row['mp4_worst_mean_level_difference']:.2f} of 255 levels")
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
