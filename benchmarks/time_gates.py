"""Where the gates' share of one quality-gate case goes, timed without a profiler: one scene inspected headless
(`inspect_scene`, what each case of tests/test_quality_gates_examples.py runs) with a stopwatch around each gate
function the inspection calls after every animation (prints figures; not a test).

  .venv/bin/python benchmarks/time_gates.py head_split --example examples/twelve.toml --aspect portrait

benchmarks/profile_inspection.py maps the whole run (layout engine, camera, Typst) under cProfile, which slows the
Python-heavy gates more than the rest; this prints the gates' own seconds and the run's wall and CPU seconds. The
functions nest a little (layout_problems reads on_screen_font_size), so the rows may overlap by that much.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

GATE_FUNCTIONS = ("text_units", "screen_boxes", "visible_text", "_drawn_boxes", "layout_problems", "number_problems",
                  "shown_numbers", "composition_fill", "on_screen_font_size")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scene")
    parser.add_argument("--example", help="an example file (default: the post's)")
    parser.add_argument("--aspect", default="landscape")
    args = parser.parse_args()
    if args.example:
        os.environ["ATTENTION_EXAMPLE"] = str(Path(args.example).resolve())
    from scenes.quality import inspection, shade_gate, story_gate

    seconds: dict[str, float] = {}

    def timed(owner, name: str, label: str) -> None:
        function = getattr(owner, name)

        def stopwatch(*a, **k):
            started = time.perf_counter()
            try:
                return function(*a, **k)
            finally:
                seconds[label] = seconds.get(label, 0.0) + time.perf_counter() - started
        setattr(owner, name, stopwatch)

    for name in GATE_FUNCTIONS:
        timed(inspection, name, name)
    timed(shade_gate, "shaded_grids", "shade_gate.shaded_grids")
    timed(story_gate.StoryGate, "observe", "story_gate.observe")
    wall, cpu = time.perf_counter(), time.process_time()
    report = inspection.inspect_scene(args.scene, args.aspect)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"{args.scene} ({args.example or 'the post'}, {args.aspect}): {report.animations_checked} animations checked, "
          f"{wall:.1f} s wall, {cpu:.1f} s CPU")
    for label, spent in sorted(seconds.items(), key=lambda item: -item[1]):
        print(f"  {label:<28} {spent:7.2f} s  {spent / wall:6.1%} of the wall time")
    print(f"  {'(these together)':<28} {sum(seconds.values()):7.2f} s")


if __name__ == "__main__":
    main()
