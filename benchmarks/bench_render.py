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
  - one clip (--one-clip, default qkv_scale, or the first of --scenes) with --jobs 1 and --jobs 2, mp4 only: first
    each into a fresh folder (its page typeset first, as above; no timeline yet: a lead chunk and a measuring
    pass), then again with --force in the same folder (the timeline known: planned before the first task), three
    times (--one-clip-repeats), the two runs of a pair taking turns going first; the median jobs 2 / jobs 1 ratio of
    each, and every task, join, install and plan decision of each run (render.py --trace);
    and the render model's figures for that clip (schedule.py): the measuring pass's wall and CPU seconds (start and
    storyboard, no drawing) per video second, and the whole clip's CPU seconds beyond it per frame of cost (the
    drawing). --one-clip-only runs just these (minutes, not hours);
  - each example's clips at low, --jobs 1, mp4: render seconds per video second against the post's (the same
    scenes, from the runs above): the kept edge examples (examples/*.toml) or the files given with --examples, and
    two valid examples drawn at random (--random-examples, --seed: benchmarks/random_examples.py).
Every render.py run is traced: per run, its tasks by kind (how many, wall and CPU seconds), the clips it split, the
free cores it sampled. The mp4s are compared too: total size, and render.py's mp4 against the CLI's, frame by frame.
At the end, issue 42's targets, each with its figure and whether it holds: --jobs 2 never slower than --jobs 1
(one clip and all the scenes run, at each quality); at 1080p60 with --jobs 1 at most 0.6 render s per video s; at
1080p60 with --jobs 2 at most 0.35 x the serial CLI; each example at most 1.25 x the post's render s per video s.

  .venv/bin/python benchmarks/bench_render.py          # every registered scene, low and high, every example at low
  .venv/bin/python benchmarks/bench_render.py --scenes teacher_forcing --qualities low --examples --random-examples 0
  .venv/bin/python benchmarks/bench_render.py --examples examples/wide.toml --random-examples 2 --seed 7 --qualities low
  .venv/bin/python benchmarks/bench_render.py --fixtures              # the tiny test scenes (seconds, not hours)
  .venv/bin/python benchmarks/bench_render.py --one-clip weight_free --one-clip-only --qualities low
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
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
    parser.add_argument("--one-clip", metavar="SCENE",
                        help="the clip timed alone with --jobs 1 and 2 (default: qkv_scale, or the first of --scenes; "
                             "'' to skip)")
    parser.add_argument("--one-clip-repeats", type=int, default=3, metavar="N",
                        help="how many times the one clip's four runs are made; its ratios are the medians (default 3)")
    parser.add_argument("--one-clip-only", action="store_true",
                        help="time only the one clip (no CLI, no run of all the scenes, no examples)")
    parser.add_argument("--examples", nargs="*", default=None, type=Path, metavar="FILE.toml",
                        help="example files to render at low against the post's (render s per video s; default: "
                             "the kept edge examples, examples/*.toml but the post's; none with --fixtures)")
    parser.add_argument("--random-examples", type=int, default=None, metavar="N",
                        help="also N valid examples drawn at random (benchmarks/random_examples.py; default 2, none "
                             "with --fixtures)")
    parser.add_argument("--seed", type=int, default=0, help="the seed the random examples are drawn from (default 0)")
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
            one = args.one_clip if args.one_clip is not None else (specs[0].id if args.scenes else "qkv_scale")
            if args.one_clip_only:
                row["one_clip"] = one_clip(one, quality, render_py, env, work, args.one_clip_repeats)
                _print_one_clip(quality, row["one_clip"])
                figures["qualities"][quality] = row
                continue
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
                    trace_file = work / f"trace-{quality}-{variant}-jobs{jobs}.json"
                    seconds, result = timed(command + ["--force", "--jobs", str(jobs), "--trace", str(trace_file)],
                                            cwd=REPO, env=env, cpu_key=key)
                    check(result, f"render.py -f {formats} --jobs {jobs}")
                    row[f"render_py_{variant}_jobs{jobs}"] = seconds
                    row[f"cpu_render_py_{variant}_jobs{jobs}"] = CPU[key]
                    row[f"trace_{variant}_jobs{jobs}"] = json.loads(trace_file.read_text())
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
            if one:
                row["one_clip"] = one_clip(one, quality, render_py, env, work, args.one_clip_repeats)
                _print_one_clip(quality, row["one_clip"])
            if quality == "low" and (files := priced_examples(args, work)):
                row["examples"] = examples_at_low(files, specs, render_py, env, work, row)
                _print_examples(row)
        _print_targets(figures, len(registry.scenes))
        if args.json:
            args.json.write_text(json.dumps(figures, indent=2) + "\n")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def _render_py_run(render_py: list[str], out: Path, quality: str, scene_ids: list[str], jobs: int, env: dict,
                   trace_file: Path, key: str, extra: list[str] = ()) -> dict:
    """One traced render.py --force run of these scenes, mp4 only: wall and CPU seconds, video seconds, trace."""
    command = render_py + ["--out", str(out), "-q", quality, "-f", "mp4", *extra, *scene_ids,
                           "--force", "--jobs", str(jobs), "--trace", str(trace_file)]
    seconds, result = timed(command, cwd=REPO, env=env, cpu_key=key)
    check(result, f"render.py {' '.join(scene_ids)} -q {quality} --jobs {jobs} {' '.join(extra)}")
    clips = [c for c in json.loads((out / "manifest.json").read_text())["clips"] if c["quality"] == quality]
    return {"seconds": seconds, "cpu": CPU[key], "video_seconds": sum(c["duration"] for c in clips),
            "trace": json.loads(trace_file.read_text()), "timelines": [c.get("timeline") for c in clips],
            "fps": clips[0]["fps"] if clips else None}


def one_clip(scene: str, quality: str, render_py: list[str], env: dict, work: Path, repeats: int) -> dict:
    """One clip with --jobs 1 and --jobs 2, `repeats` times: each into a fresh folder (no timeline: rendered whole,
    or a lead chunk and a measuring pass), then again in the same folder (the timeline known). The two runs of a pair
    take turns going first, and the ratios are the medians of the repeats: two runs of the very same work differ by
    up to a tenth here, so one pair can show a split slower that is not. `runs` are the first repeat's."""
    orders = ((("fresh_jobs1", 1), ("fresh_jobs2", 2), ("known_jobs2", 2), ("known_jobs1", 1)),
              (("fresh_jobs2", 2), ("fresh_jobs1", 1), ("known_jobs1", 1), ("known_jobs2", 2)))
    repeated = []
    for repeat in range(max(1, repeats)):
        runs = {}
        for label, jobs in orders[repeat % 2]:
            out = work / f"one-{quality}-jobs{jobs}"
            if label.startswith("fresh"):
                warm_page(out)  # as for the runs above: the page's formulas typeset once, outside the timing
            runs[label] = _render_py_run(render_py, out, quality, [scene], jobs, env,
                                         work / f"trace-one-{label}-{repeat}.json", f"{quality}/one_{label}_{repeat}")
        for jobs in (1, 2):
            shutil.rmtree(work / f"one-{quality}-jobs{jobs}", ignore_errors=True)
        repeated.append({"runs": runs, "ratio_fresh": runs["fresh_jobs2"]["seconds"] / runs["fresh_jobs1"]["seconds"],
                         "ratio_known": runs["known_jobs2"]["seconds"] / runs["known_jobs1"]["seconds"]})
    first = repeated[0]["runs"]
    return {"scene": scene, "runs": first,
            "ratio_fresh": statistics.median(r["ratio_fresh"] for r in repeated),
            "ratio_known": statistics.median(r["ratio_known"] for r in repeated),
            "repeats": [{"ratio_fresh": r["ratio_fresh"], "ratio_known": r["ratio_known"],
                         "seconds": {label: run["seconds"] for label, run in r["runs"].items()}} for r in repeated],
            "model": model_figures(first)}


def model_figures(runs: dict) -> dict:
    """The render model's figures for one clip (schedule.RenderModel): a measuring pass draws nothing, so its time
    is the worker's start and the storyboard; the whole clip's CPU beyond that is the drawing, per frame of cost
    (schedule.clip_cost). The measuring pass is taken from whichever run had one (a fresh --jobs 2 run that measured
    the clip beside its lead), the whole clip from the --jobs 1 run with the timeline known."""
    from rendering.pipeline.schedule import clip_cost, timeline_at

    known = runs["known_jobs1"]
    timeline = known["timelines"][0] if known["timelines"] else None
    whole = next((e for e in known["trace"] if e["kind"] == "clip"), None)
    measure = next((e for run in runs.values() for e in run["trace"] if e["kind"] == "measure"), None)
    figures = {"video_seconds": known["video_seconds"], "frame_cost": None, "whole_wall": None, "whole_cpu": None,
               "measure_wall": None, "measure_cpu": None, "draw_cpu_per_frame": None}
    if timeline:
        figures["frame_cost"] = clip_cost(timeline_at(timeline, known["fps"], known["fps"]))
    if whole is not None:
        figures["whole_wall"], figures["whole_cpu"] = whole["end"] - whole["start"], whole.get("cpu")
    if measure is not None:
        figures["measure_wall"], figures["measure_cpu"] = measure["end"] - measure["start"], measure.get("cpu")
    if figures["frame_cost"] and figures["whole_cpu"] and figures["measure_cpu"] is not None:
        figures["draw_cpu_per_frame"] = (figures["whole_cpu"] - figures["measure_cpu"]) / figures["frame_cost"]
    return figures


def priced_examples(args: argparse.Namespace, work: Path) -> list[Path]:
    """The example files priced at low: those given (default: the kept edge examples), then the random ones drawn
    (the same for a seed). The fixture scenes read no example: none by default with --fixtures."""
    from benchmarks import random_examples

    kept = args.examples if args.examples is not None else (
        [] if args.fixtures else sorted(p for p in (REPO / "examples").glob("*.toml") if p.name != "post.toml"))
    count = args.random_examples if args.random_examples is not None else (0 if args.fixtures else 2)
    return kept + (random_examples.write(work / "random-examples", count, args.seed) if count else [])


def examples_at_low(files: list[Path], specs, render_py: list[str], env: dict, work: Path, row: dict) -> dict:
    """Each example's clips (the same scenes) at low with --jobs 1: render s per video s, and that over the post's
    (render.py --jobs 1 on the post's example, from the runs above)."""
    post_key = "render_py_mp4_jobs1" if "render_py_mp4_jobs1" in row else next(
        k for k in row if k.startswith("render_py_mp4_jobs"))
    post = row[post_key] / row["video_seconds"]
    figures = {"post_s_per_video_s": post, "post_from": post_key, "examples": {}}
    for index, file in enumerate(files):
        out = work / f"example-{index}"
        warm_page(out)
        run = _render_py_run(render_py, out, "low", [s.id for s in specs], 1, env, work / f"trace-example-{index}.json",
                             f"low/example_{index}", extra=["--example", str(file.resolve())])
        shutil.rmtree(out, ignore_errors=True)
        per = run["seconds"] / run["video_seconds"]
        name = file.name if file.resolve().is_relative_to(work.resolve()) else str(file)  # a drawn one: its name
        figures["examples"][name] = {**run, "s_per_video_s": per, "against_post": per / post,
                                     "example_file": file.read_text(encoding="utf-8")}
    return figures


def _trace_summary(trace: list[dict]) -> list[str]:
    """A run's trace in a few lines: its tasks by kind, the clips it split, the load it sampled, its plans."""
    lines, kinds = [], {}
    for entry in trace:
        kind = kinds.setdefault(entry["kind"], [0, 0.0, 0.0])
        kind[0] += 1
        kind[1] += entry["end"] - entry["start"]
        kind[2] += entry.get("cpu") or 0.0
    lines.append("tasks: " + "; ".join(f"{kind} x{n} {wall:.1f} s [{cpu:.1f}]" for kind, (n, wall, cpu)
                                        in kinds.items()))
    split = sorted({e["task"].rsplit(".", 1)[0] for e in trace if e["kind"] in ("chunk", "cut")})
    lines.append("split: " + (", ".join(split) if split else "none"))
    for entry in trace:
        if entry["kind"] in ("free_cores", "plan"):
            lines.append(_trace_line(entry))
    return lines


def _trace_line(entry: dict) -> str:
    extra = {k: v for k, v in entry.items() if k not in ("task", "kind", "start", "end", "cpu", "ok")}
    cpu = f" [{entry['cpu']:.1f}]" if entry.get("cpu") is not None else ""
    failed = "  FAILED" if entry.get("ok") is False else ""
    fields = "  " + " ".join(f"{k}={v}" for k, v in extra.items()) if extra else ""
    return (f"{entry['task']:<34} {entry['kind']:<10} {entry['start']:7.2f} -> {entry['end']:7.2f} s "
            f"({entry['end'] - entry['start']:6.2f}){cpu}{fields}{failed}")


def _print_one_clip(quality: str, figures: dict) -> None:
    print(f"\n  one clip, {figures['scene']} at {quality}, mp4 (wall s [CPU s]; then each part: start -> end, "
          f"(seconds) [CPU s]):")
    for label, run in figures["runs"].items():
        when, jobs = label.split("_")
        folder = "fresh folder" if when == "fresh" else "again, timeline known"
        print(f"    --{jobs[:4]} {jobs[4:]}, {folder:<22} {run['seconds']:7.1f} s [{run['cpu']:.1f}]   "
              f"{run['seconds'] / run['video_seconds']:.2f} render s per video s")
        for entry in run["trace"]:
            print(f"        {_trace_line(entry)}")
    repeats = figures["repeats"]
    each = "" if len(repeats) < 2 else " (median of {}: fresh {}; known {})".format(
        len(repeats), ", ".join(f"{r['ratio_fresh']:.2f}" for r in repeats),
        ", ".join(f"{r['ratio_known']:.2f}" for r in repeats))
    print(f"    --jobs 2 / --jobs 1: fresh folder {figures['ratio_fresh']:.2f}, timeline known "
          f"{figures['ratio_known']:.2f}{each}")
    model, video = figures["model"], figures["model"]["video_seconds"]
    measuring = "no measuring pass in these runs" if model["measure_cpu"] is None else (
        f"measuring pass {model['measure_wall']:.1f} s [{model['measure_cpu']:.1f}] = "
        f"{model['measure_wall'] / video:.3f} s [{model['measure_cpu'] / video:.3f}] per video s")
    drawing = "" if model["draw_cpu_per_frame"] is None else (
        f"; drawing {model['draw_cpu_per_frame']:.4f} CPU s per frame of cost ({model['frame_cost']:.0f})")
    whole = "" if model["whole_cpu"] is None else f"whole clip {model['whole_wall']:.1f} s [{model['whole_cpu']:.1f}]; "
    print(f"    render model, {video:.1f} s of video: {whole}{measuring}{drawing}")
    sys.stdout.flush()


def _print_examples(row: dict) -> None:
    figures = row["examples"]
    print(f"\n  examples at low, --jobs 1 (post's: {figures['post_s_per_video_s']:.2f} render s per video s):")
    for name, example in figures["examples"].items():
        print(f"    {name:<30} {example['seconds']:7.1f} s [{example['cpu']:.1f}] for {example['video_seconds']:.1f} s "
              f"of video: {example['s_per_video_s']:.2f} render s per video s = {example['against_post']:.2f} x the "
              f"post's")
    sys.stdout.flush()


def _print_targets(figures: dict, registered: int) -> None:
    """Issue 42's targets, each with the figure this run measured (or why it was not measured)."""
    qualities, count = figures["qualities"], len(figures["scenes"])
    scope = "all" if count == registered else f"{count} of {registered}"
    rows = []

    def target(what: str, value: float | None, limit: float, unit: str = "", missing: str = "not measured") -> None:
        if value is None:
            rows.append(f"  {what:<62} {missing}")
        else:
            verdict = "holds" if value <= limit else "MISSED"
            rows.append(f"  {what:<62} {value:6.2f}{unit} (<= {limit}{unit}): {verdict}")

    for quality, row in qualities.items():
        one = row.get("one_clip")
        if one:
            target(f"one clip ({one['scene']}) at {quality}, fresh: --jobs 2 / --jobs 1", one["ratio_fresh"], 1.0)
            target(f"one clip ({one['scene']}) at {quality}, timeline known: --jobs 2 / --jobs 1",
                   one["ratio_known"], 1.0)
        if "render_py_mp4_jobs1" in row and "render_py_mp4_jobs2" in row:
            target(f"{scope} scenes at {quality}: --jobs 2 / --jobs 1",
                   row["render_py_mp4_jobs2"] / row["render_py_mp4_jobs1"], 1.0)
        for name, example in row.get("examples", {}).get("examples", {}).items():
            target(f"{name} at low: render s per video s / the post's", example["against_post"], 1.25, "x")
    high = qualities.get("high", {})
    jobs1 = high.get("render_py_mp4_jobs1")
    target(f"{scope} scenes at 1080p60, --jobs 1: render s per video s",
           None if jobs1 is None else jobs1 / high["video_seconds"], 0.6, "",
           "not measured (needs --qualities high and --jobs 1)")
    jobs2, cli = high.get("render_py_mp4_jobs2"), high.get("manim_cli_mp4")
    target(f"{scope} scenes at 1080p60, --jobs 2 / the serial manim CLI",
           None if jobs2 is None or cli is None else jobs2 / cli, 0.35, "x",
           "not measured (needs --qualities high, --jobs 2 and the CLI)")
    print(f"\ntargets (issue 42){'' if scope == 'all' else f'; on {scope} scenes, not the full set'}:")
    print("\n".join(rows))
    sys.stdout.flush()


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
        for text in _trace_summary(row[f"trace_mp4_jobs{jobs}"]):
            print(f"      {text}")
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
