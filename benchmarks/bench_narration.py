"""Benchmark narration; prints the figures (not a test, nothing is asserted).

In one run, at one quality (default low), into a scratch folder:
  1. render.py --force --jobs 1, silent clips (mp4 + webm + poster): each clip's render seconds;
  2. synthesis: every sentence the narrated clips speak, synthesised again into an empty cache, clip by clip,
     on one thread: seconds per clip, for all clips, and the real-time factor (synthesis s / speech s);
  3. render.py --force --jobs 1 --narrate --film with the speech cache warm: each narrated clip's render seconds
     against its silent twin, the clips' sizes, the film's length and size.
The sentences of step 2 are read from the narrated render's manifest (its transcripts), so they are exactly what
the clips say.

  .venv/bin/python benchmarks/bench_narration.py                      # every scene, low quality
  .venv/bin/python benchmarks/bench_narration.py --scenes bottleneck --quality low
  .venv/bin/python benchmarks/bench_narration.py --scenes coffee_cafe --language fr   # the French voice (espeak-ng)
  .venv/bin/python benchmarks/bench_narration.py --from-media media --render-log render.log
      # figures from a finished `render.py --narrate --film` run (its plain output saved in render.log): no
      # rendering, only the synthesis of step 2 (render seconds come from the log; clips rendered in parallel)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from rendering.languages import LANGUAGES  # noqa: E402  (manim-free)

SECONDS = re.compile(r"^rendered (\S+)@(\S+?)(\+narrated)? in ([\d.]+) s")


def render_seconds(lines, language: str) -> dict[tuple[str, bool], float]:
    """Each clip's render seconds from render.py's plain output, keyed by (scene id, narrated), for the clips in
    `language` (another language than English tags its clips scene@quality/<language>)."""
    seconds = {}
    for line in lines:
        match = SECONDS.match(line.strip())
        if match is None:
            continue
        last = match.group(2).rsplit("/", 1)[-1]
        if (last if last in LANGUAGES else "en") == language:
            seconds[(match.group(1), bool(match.group(3)))] = float(match.group(4))
    return seconds


def render(out: Path, cache: Path, scenes: list[str], quality: str, language: str,
           *extra: str) -> dict[tuple[str, bool], float]:
    """Run render.py; returns each clip's render seconds, keyed by (scene id, narrated)."""
    env = {**os.environ, "NARRATION_CACHE_DIR": str(cache)}
    command = [sys.executable, "render.py", *scenes, "--quality", quality, "--language", language, "--force",
               "--jobs", "1", "--out", str(out), *extra]
    result = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"render.py failed ({result.returncode}):\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return render_seconds(result.stdout.splitlines(), language)


def synthesis_figures(manifest: dict, cache: Path, language: str = "en") -> dict[str, tuple[float, float, int]]:
    """Per narrated clip: (synthesis seconds, speech seconds, sentences), each sentence synthesised afresh by the
    language's voice (English: Piper; French: espeak-ng)."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    from rendering.narration.speech import Narrator
    from rendering.narration.voices import resolve_language_voice

    narrator = Narrator(resolve_language_voice(language), cache)
    narrator.speak("Warm up.")  # the voice loads on the first miss; not part of any clip's figure
    figures = {}
    for clip in manifest["clips"]:
        if not clip.get("narrated"):
            continue
        sentences = [s["text"] for beat in clip["transcript"] for s in beat["speech"]]
        start, before = time.perf_counter(), narrator.synthesized
        speech = sum(narrator.speak(sentence).duration for sentence in sentences)
        figures[clip["id"]] = (time.perf_counter() - start, speech, narrator.synthesized - before)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenes", nargs="*", default=[], help="scene ids (default: all)")
    parser.add_argument("--quality", default="low")
    parser.add_argument("--from-media", type=Path, help="read a finished narrated render's manifest instead")
    parser.add_argument("--render-log", type=Path, help="with --from-media: that run's output, for render seconds")
    parser.add_argument("--language", default="en", choices=LANGUAGES, help="the clips' language and voice")
    args = parser.parse_args()

    if args.from_media:
        manifest = json.loads((args.from_media / "manifest.json").read_text(encoding="utf-8"))
        manifest["clips"] = [c for c in manifest["clips"] if c["quality"] == args.quality
                             and c.get("language", "en") == args.language
                             and c.get("aspect", "landscape") == "landscape"
                             and not c.get("described")]
        seconds = render_seconds(args.render_log.read_text().splitlines() if args.render_log else [], args.language)
        with tempfile.TemporaryDirectory(prefix="bench-narration-") as cold:
            synthesis = synthesis_figures(manifest, Path(cold), args.language)
        report(manifest, seconds, seconds, synthesis, args.quality, "render log")
        return

    with tempfile.TemporaryDirectory(prefix="bench-narration-") as scratch:
        scratch = Path(scratch)
        warm, cold = scratch / "speech-warm", scratch / "speech-cold"
        silent = render(scratch / "silent", warm, args.scenes, args.quality, args.language)
        start = time.perf_counter()
        narrated = render(scratch / "narrated", warm, args.scenes, args.quality, args.language, "--narrate", "--film")
        first_narrated_run = time.perf_counter() - start
        narrated = render(scratch / "narrated", warm, args.scenes, args.quality, args.language, "--narrate", "--film")
        manifest = json.loads((scratch / "narrated" / "manifest.json").read_text(encoding="utf-8"))
        synthesis = synthesis_figures(manifest, cold, args.language)

    report(manifest, silent, narrated, synthesis, args.quality,
           f"render.py --jobs 1; the first narrated run (cold cache, incl. silent twins and film) took "
           f"{first_narrated_run:.1f} s")


def report(manifest: dict, silent: dict, narrated: dict, synthesis: dict, quality: str, how: str) -> None:
    clips = {(c["id"], bool(c.get("narrated"))): c for c in manifest["clips"]}
    print(f"quality {quality}; {how}")
    header = (f"{'scene':<18}{'silent s':>9}{'narr. s':>9}{'extra':>7}{'video s':>9}{'narr. video s':>14}"
              f"{'synth s':>8}{'speech s':>9}{'RTF':>7}{'silent MB':>10}{'narr. MB':>9}")
    print(header)
    totals = [0.0] * 8
    for scene_id, synth in synthesis.items():
        s, n = clips[(scene_id, False)], clips[(scene_id, True)]
        seconds_silent, seconds_narrated = silent.get((scene_id, False), 0.0), narrated.get((scene_id, True), 0.0)
        size = lambda clip: sum(f["bytes"] for f in clip["files"].values()) / 1e6  # noqa: E731
        row = [seconds_silent, seconds_narrated, s["duration"], n["duration"], synth[0], synth[1], size(s), size(n)]
        totals = [t + v for t, v in zip(totals, row)]
        print(f"{scene_id:<18}{row[0]:>9.1f}{row[1]:>9.1f}{row[1] / max(row[0], 1e-9):>6.2f}x{row[2]:>9.1f}{row[3]:>14.1f}"
              f"{row[4]:>8.1f}{row[5]:>9.1f}{row[4] / row[5]:>7.3f}{row[6]:>10.2f}{row[7]:>9.2f}")
    print(f"{'all clips':<18}{totals[0]:>9.1f}{totals[1]:>9.1f}{totals[1] / max(totals[0], 1e-9):>6.2f}x{totals[2]:>9.1f}"
          f"{totals[3]:>14.1f}{totals[4]:>8.1f}{totals[5]:>9.1f}{totals[4] / totals[5]:>7.3f}{totals[6]:>10.2f}"
          f"{totals[7]:>9.2f}")
    for film in manifest.get("films", []):
        size = sum(f["bytes"] for f in film["files"].values()) / 1e6
        print(f"film {film['quality']}{' narrated' if film['narrated'] else ''}: {film['duration']:.1f} s "
              f"({film['duration'] / 60:.1f} min), {len(film['chapters'])} chapters, {size:.2f} MB")


if __name__ == "__main__":
    main()
