"""Benchmark scaling out: one clip split across cores, Dask's price, and what a cluster would buy (prints figures;
not a test, nothing is asserted).

  .venv/bin/python benchmarks/bench_scale.py                   # everything below, about 30 minutes on 2 cores
  .venv/bin/python benchmarks/bench_scale.py --skip-4k         # without the 4k scaling table

1. The longest clip (qkv_scale) at 1080p60, mp4: render.py --jobs 1, then --jobs 2 (split in chunks, its timeline
   known from the first render), then --jobs 2 in a fresh folder (a lead chunk while it is measured), and the
   same --jobs 2 render with --cluster local:2 instead of local processes.
2. Scaling at 4k: for each clip, measured alone, a measuring pass (the storyboard without drawing, timed per
   animation: what a chunk pays to get through the storyboard up to its end) and one real 4k chunk of about 4 s
   of cost from its middle; that chunk's time less its storyboard share is the clip's drawing time per unit of
   frame cost (schedule.clip_cost). Rendering every clip whole at 4k would take most of an hour here, so whole
   clips and chunks are modelled from these: a piece [a, b) takes the worker's start plus the storyboard up to b
   plus drawing at that rate. For N = 1 ... 32 workers the scheduler plans pieces exactly as render.py would
   (schedule.plan); the makespan of longest-first hand-out is set against the ideal (sum of whole-clip times / N)
   and against handing out whole clips only.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from rendering.qualities import QUALITIES  # noqa: E402
from rendering.pipeline.remote import render_task  # noqa: E402
from rendering.records import WindowSpec, WorkerJob  # noqa: E402
from rendering.pipeline.scene_list import DEFAULT_REGISTRY, load_registry, select  # noqa: E402
from rendering.pipeline import schedule  # noqa: E402

LONGEST = "qkv_scale"
WORKERS = (1, 2, 4, 8, 16, 32)


def render_py(out: Path, *args: str) -> tuple[float, str]:
    started = time.perf_counter()
    result = subprocess.run([sys.executable, str(REPO / "render.py"), "--out", str(out), "-f", "mp4", *args],
                            cwd=REPO, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"render.py {' '.join(args)} failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")
    return seconds, result.stdout


def longest_clip(work: Path) -> dict:
    out = work / "longest"
    figures = {}
    figures["jobs1"], _ = render_py(out, LONGEST, "-q", "high", "--jobs", "1")
    figures["jobs2_chunked"], log = render_py(out, LONGEST, "-q", "high", "--jobs", "2", "--force")
    figures["chunks"] = int(re.search(r"into (\d+) chunks", log)[1]) if "chunks" in log else 1
    figures["jobs2_fresh"], _ = render_py(work / "fresh", LONGEST, "-q", "high", "--jobs", "2")
    figures["cluster_local2"], _ = render_py(out, LONGEST, "-q", "high", "--cluster", "local:2", "--force")
    manifest = json.loads((out / "manifest.json").read_text())
    figures["video_seconds"] = manifest["clips"][0]["duration"]
    return figures


SAMPLE_SECONDS = 4.0  # of each clip drawn at 4k: a chunk from its middle


def _payload(spec, quality, window: dict) -> dict:
    job = WorkerJob(spec.id, spec.module, spec.class_name, quality, ("mp4",), "", task=f"bench-{spec.id}",
                    window=WindowSpec.from_dict(window))
    return job.to_dict()


def _timed_task(spec, quality, window: dict) -> tuple[float, dict]:
    started = time.perf_counter()
    reply = render_task(_payload(spec, quality, window), str(REPO))
    if "result" not in reply:
        raise SystemExit(f"{spec.id} {window} failed: {reply.get('error')}\n{reply.get('log')}")
    return time.perf_counter() - started, reply["result"]


def _setup_until(clip: dict, animations, frame: int) -> float:
    """What a chunk ending at `frame` spends getting through the storyboard: the worker process's start, plus each
    animation begun before `frame` (its measured time in the measuring pass, where nothing is drawn)."""
    begun = sum(seconds for animation, seconds in zip(animations, clip["play_seconds"]) if animation.first < frame)
    return clip["process"] + begun


def scaling_at_4k(specs) -> dict:
    """Per clip, measured at 4k one at a time: a measuring pass (the storyboard's cost per animation, nothing drawn)
    and one real chunk of about SAMPLE_SECONDS from the middle of the clip, whose time less its storyboard share
    gives the clip's drawing rate per unit of frame cost."""
    quality = QUALITIES["4k"]
    clips = {}
    for spec in specs:
        setup, measured = _timed_task(spec, quality, {"start": 0, "stop": 0, "run_to_end": True})
        animations = schedule.timeline_at(measured["timeline"], quality.fps, quality.fps)
        frames = sum(animation.frames for animation in animations)
        clip = {"setup": setup, "play_seconds": measured["play_seconds"], "timeline": measured["timeline"],
                "process": max(setup - sum(measured["play_seconds"]), 0.0)}
        parts = max(1, round(frames / quality.fps / SAMPLE_SECONDS))
        windows = schedule.split(animations, parts)
        sample = windows[len(windows) // 2]
        stop = sample.stop if sample.stop is not None else frames
        seconds, _ = _timed_task(spec, quality, {"start": sample.start, "stop": stop, "run_to_end": False})
        drawing = max(seconds - _setup_until(clip, animations, stop), 0.0)
        clip["rate"] = drawing / schedule.cost_between(animations, sample.start, stop)
        clip.update(sample_seconds=seconds, sample_frames=stop - sample.start,
                    whole=setup + clip["rate"] * schedule.clip_cost(animations))
        clips[spec.id] = clip
        print(f"  measured {spec.id}: set-up {setup:.1f} s, {stop - sample.start} frames in {seconds:.1f} s",
              flush=True)
    table = [{"workers": workers, **simulate(clips, quality.fps, workers)} for workers in WORKERS]
    return {"clips": clips, "table": table}


def simulate(clips: dict, fps: int, workers: int) -> dict:
    """Plan as render.py would for `workers`, model each piece's time, and take the longest-first makespan."""
    animations = {scene_id: schedule.timeline_at(clip["timeline"], fps, fps) for scene_id, clip in clips.items()}
    costs = {scene_id: schedule.clip_cost(animations[scene_id]) for scene_id in clips}
    pieces = schedule.plan({scene_id: (costs[scene_id], animations[scene_id], fps) for scene_id in clips}, workers)
    times = []
    for piece in pieces:
        clip, timeline = clips[piece.job_key], animations[piece.job_key]
        if piece.count == 1:
            times.append(clip["whole"])
            continue
        end = sum(animation.frames for animation in timeline)
        stop = piece.window.stop if piece.window.stop is not None else end
        times.append(_setup_until(clip, timeline, stop) + clip["rate"] * piece.cost)
    ideal = sum(clip["whole"] for clip in clips.values()) / workers
    makespan = schedule.makespan(times, workers)
    whole_clips_only = schedule.makespan([clip["whole"] for clip in clips.values()], workers)
    return {"pieces": len(pieces), "makespan": makespan, "ideal": ideal, "ratio": makespan / ideal,
            "whole_clips_only": whole_clips_only}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--skip-4k", action="store_true")
    parser.add_argument("--skip-longest", action="store_true")
    parser.add_argument("--scenes", nargs="*", default=[], help="for the 4k table (default: all)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-scale-"))
    figures = {"cores": len(os.sched_getaffinity(0)), "load_average_at_start": os.getloadavg()[0]}
    print(f"cores: {figures['cores']}  |  load average at start: {figures['load_average_at_start']:.1f}", flush=True)
    try:
        if not args.skip_longest:
            longest = figures["longest"] = longest_clip(work)
            base = longest["jobs1"]
            print(f"\n{LONGEST} at 1080p60 ({longest['video_seconds']:.1f} s of video), mp4, wall seconds:")
            print(f"  --jobs 1                                 {base:7.1f}")
            for key, label in (("jobs2_chunked", f"--jobs 2, {longest['chunks']} chunks, timeline known"),
                               ("jobs2_fresh", "--jobs 2, fresh folder (lead + measuring pass)"),
                               ("cluster_local2", "--cluster local:2, timeline known")):
                print(f"  {label:<40} {longest[key]:7.1f}  ({longest[key] / base:.2f}x of --jobs 1)")
            print(f"  Dask's price: --cluster local:2 / --jobs 2 = "
                  f"{longest['cluster_local2'] / longest['jobs2_chunked']:.3f}", flush=True)
        if not args.skip_4k:
            specs = select(load_registry(DEFAULT_REGISTRY, REPO), args.scenes)
            print("\n4k, each clip measured alone:", flush=True)
            scaling = figures["scaling_4k"] = scaling_at_4k(specs)
            print(f"  {'clip':<20} {'set-up s':>9} {'sample':>16} {'whole s (modelled)':>19}")
            for scene_id, clip in scaling["clips"].items():
                sample = f"{clip['sample_frames']} fr {clip['sample_seconds']:.1f} s"
                print(f"  {scene_id:<20} {clip['setup']:9.1f} {sample:>16} {clip['whole']:19.1f}")
            print(f"\n  {'workers':>7} {'pieces':>7} {'makespan s':>11} {'work/N s':>9} {'ratio':>6} "
                  f"{'whole clips only s':>19}")
            for row in scaling["table"]:
                print(f"  {row['workers']:>7} {row['pieces']:>7} {row['makespan']:>11.1f} {row['ideal']:>9.1f} "
                      f"{row['ratio']:>6.2f} {row['whole_clips_only']:>19.1f}")
        if args.json:
            args.json.write_text(json.dumps(figures, indent=2) + "\n")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
