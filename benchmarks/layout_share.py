"""How much of each scene module is layout choice rather than story: a figure for the layout engine's progress.

A line is a layout choice when it branches (if / elif / else / a conditional expression / a loop over
arrangements) on the frame or the picture's size, or asks a fitting question directly: it names one of
LAYOUT_WORDS. Counted over non-blank, non-comment code lines of `scenes/<id>.py`. Crude by design (a proxy the
same for every scene and every commit), so the before/after comparison means something:

    python benchmarks/layout_share.py [--rev REV]      one line per scene, then the total
"""

from __future__ import annotations

import argparse
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCENES = ("teacher_forcing", "bottleneck", "coffee_cafe", "learned_alignment", "soft_formula", "weight_free",
          "qkv_scale", "causal_triangle", "dropout_weights", "head_split", "learned_heads", "summary")
#: Words of a layout decision: fitting, legibility, the frame's shape, and the camera's plan.
LAYOUT_WORDS = re.compile(r"fits?_|fit_best|legibl|is_tall|\bbig\b|\bdense\b|\bshaded\b|\bnarrow\b|\bcompact\b|"
                          r"\bstacked\b|\bfloor\b|too (wide|tall|long|narrow)|framed\.|close_up\.|camera\.|"
                          r"room_factor|fill_factor|keep_in_place|follow_too_wide|\bpans\b|\bband\b")
BRANCH = re.compile(r"^\s*(if|elif|else|for|while)\b| if .* else ")


def source(scene_id: str, rev: str | None) -> str:
    path = f"scenes/{scene_id}.py"
    if rev is None:
        return (ROOT / path).read_text(encoding="utf-8")
    return subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout


def shares(text: str) -> tuple[int, int]:
    """(layout-choice lines, code lines)."""
    code = [line for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]
    choices = [line for line in code if LAYOUT_WORDS.search(line.split("#")[0])
               and (BRANCH.search(line) or re.search(r"fits?_|fit_best|legible\.|close_up\.|framed\.", line))]
    return len(choices), len(code)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", help="a git revision to measure instead of the working tree")
    args = parser.parse_args()
    total_choice = total_code = 0
    for scene_id in SCENES:
        choice, code = shares(source(scene_id, args.rev))
        total_choice, total_code = total_choice + choice, total_code + code
        print(f"{scene_id:18} {choice:4} of {code:4} lines  {100 * choice / code:5.1f} %")
    print(f"{'all scenes':18} {total_choice:4} of {total_code:4} lines  {100 * total_choice / total_code:5.1f} %")


if __name__ == "__main__":
    main()
