"""Render time of the clips at low quality, before and after a change to the picture (prints figures, asserts nothing).

A prettier picture must not be bought with an unseen slowdown: bigger type, a camera and travelling copies all cost
drawing time. For each revision, a temporary git worktree renders every selected clip one after another
(`render.py <scene> -q low -f mp4 --jobs 1 --force`, the same venv for both), and the table gives per clip the wall
and CPU seconds, the video seconds, and render seconds per video second, then the ratio after / before.

  .venv/bin/python benchmarks/bench_picture.py --before 56ff3ad             # the landing before, against this tree
  .venv/bin/python benchmarks/bench_picture.py --before 56ff3ad --after HEAD --scenes coffee_cafe bottleneck
  .venv/bin/python benchmarks/bench_picture.py --before HEAD~3 --example examples/wide.toml

`--after` defaults to the working tree as it is (uncommitted changes included). CPU time (user + system of the
render processes) is steadier than wall time on a shared machine; both are printed.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
WORKING_TREE = "worktree"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@contextmanager
def checkout(rev: str):
    """The tree of `rev` in a temporary worktree (removed afterwards), or this working tree for WORKING_TREE."""
    if rev == WORKING_TREE:
        yield REPO
        return
    with tempfile.TemporaryDirectory(prefix="bench-picture-") as parent:
        path = Path(parent) / "tree"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(path), rev], cwd=REPO, check=True)
        try:
            yield path
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(path)], cwd=REPO, check=False)


def video_seconds(manifest: Path, scene: str) -> float:
    clips = json.loads(manifest.read_text(encoding="utf-8"))["clips"]
    return next(float(c["duration"]) for c in clips if c["id"] == scene)


def render_one(tree: Path, scene: str, out: Path, example: str | None) -> tuple[float, float, float]:
    """(wall s, CPU s, video s) of one clip rendered from `tree`."""
    command = [sys.executable, "render.py", scene, "-q", "low", "-f", "mp4", "--jobs", "1", "--force",
               "--out", str(out)]
    if example:
        command += ["--example", str(Path(example).resolve())]
    start, cpu = time.perf_counter(), _children_cpu()
    result = subprocess.run(command, cwd=tree, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - start, _children_cpu() - cpu
    if result.returncode != 0:
        raise SystemExit(f"{scene} failed to render in {tree}:\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
    manifests = sorted(out.rglob("manifest.json"), key=lambda p: p.stat().st_mtime)
    return wall, cpu, video_seconds(manifests[-1], scene)


def scene_ids() -> list[str]:
    sys.path.insert(0, str(REPO))
    from scenes.registry import SCENES

    return [spec.id for spec in SCENES]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the revision to compare against (e.g. 56ff3ad)")
    parser.add_argument("--after", default=WORKING_TREE, help="a revision, or 'worktree' (default) for this tree")
    parser.add_argument("--scenes", nargs="*", default=None, help="scene ids (default: every registered scene)")
    parser.add_argument("--example", help="an example file both revisions render (default: the post's)")
    args = parser.parse_args(argv)
    scenes = args.scenes or scene_ids()
    figures: dict[str, dict[str, tuple[float, float, float]]] = {}
    for side, rev in (("before", args.before), ("after", args.after)):
        with checkout(rev) as tree, tempfile.TemporaryDirectory(prefix="bench-picture-out-") as out:
            for scene in scenes:
                figures.setdefault(scene, {})[side] = render_one(tree, scene, Path(out), args.example)
                wall, cpu, video = figures[scene][side]
                print(f"  {side:6s} {scene:18s} wall {wall:6.1f} s  cpu {cpu:6.1f} s  video {video:6.1f} s",
                      flush=True)
    print(f"\nclips at low (480p15), mp4, --jobs 1; before = {args.before}, after = {args.after}"
          + (f", example {args.example}" if args.example else ""))
    print(f"{'clip':18s} {'video s':>15s} {'cpu s':>15s} {'cpu s / video s':>17s} {'after/before':>13s}")
    totals = {"before": [0.0, 0.0, 0.0], "after": [0.0, 0.0, 0.0]}
    for scene, sides in figures.items():
        (bw, bc, bv), (aw, ac, av) = sides["before"], sides["after"]
        for side, (w, c, v) in sides.items():
            totals[side] = [t + x for t, x in zip(totals[side], (w, c, v))]
        print(f"{scene:18s} {bv:7.1f}→{av:7.1f} {bc:7.1f}→{ac:7.1f} {bc / bv:8.2f}→{ac / av:8.2f} "
              f"{(ac / av) / (bc / bv):13.2f}")
    (bw, bc, bv), (aw, ac, av) = totals["before"], totals["after"]
    print(f"{'all':18s} {bv:7.1f}→{av:7.1f} {bc:7.1f}→{ac:7.1f} {bc / bv:8.2f}→{ac / av:8.2f} "
          f"{(ac / av) / (bc / bv):13.2f}")
    print(f"wall seconds in all: {bw:.1f} before, {aw:.1f} after")
    return 0


if __name__ == "__main__":
    sys.exit(main())
