"""Quality gates on what a scene puts on screen, checked at the end of every animation.

- layout: text or numbers outside the frame, two text mobjects overlapping, text below the 480p floor;
- numbers: every number shown is a TracedNumber whose value, at the precision shown, equals a fresh
  computation by attention_math (and no untraced DecimalNumber appears);
- narrated numbers: every decimal number a beat reads aloud is one of the numbers on screen during that beat
  (so the voice never says a number the picture does not show);
- typed claims: for an example other than the post's, no caption names a word of the post's sentences that the
  example does not have (a caption typed for the post's example, not computed from the data);
- frames: one frame per beat for pixel regression.

`python -m scenes.kit.inspection [--example FILE.toml] [scene_id ...]` prints the problems found (exit 1 if any).
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import sys
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from manim import DecimalNumber, Mobject, Text, Typst, config

from attention_math import example_spec, examples
from scenes import registry

from . import typography
from .base import AttentionScene, BeatRecord
from .headless import run_headless
from .numbers import TracedNumber, format_value, to_float

EDGE_TOLERANCE = 0.02  # units; anti-aliasing slack at the frame edge
OVERLAP_TOLERANCE = 0.04  # units; glyph boxes may touch, not overlap by more than this in both directions
FONT_SIZE_TOLERANCE = 0.97
# a decimal number in a narration, with its minus sign ("−0.45", "-0.45"); integers (counts, indices) do not match,
# nor does anything glued to a name or subscript (x_0.5); a minus after a letter (t-0.5) is an operator, not a sign
NARRATED_DECIMAL = re.compile(r"(?<![\w.])(?:[-−](?=\d))?\d+\.\d+(?![\d])")


@dataclass
class SceneReport:
    scene_id: str
    beat_frames: list[tuple[str, np.ndarray]] = field(default_factory=list)
    layout_problems: list[str] = field(default_factory=list)
    number_problems: list[str] = field(default_factory=list)
    narrated_number_problems: list[str] = field(default_factory=list)
    typed_claim_problems: list[str] = field(default_factory=list)
    beat_log: list[BeatRecord] = field(default_factory=list)  # captions and narration of every beat
    shown_numbers: dict[str, set[str]] = field(default_factory=dict)  # beat → every TracedNumber.shown_text seen
    numbers_checked: int = 0
    animations_checked: int = 0


def text_units(scene: AttentionScene) -> list[Mobject]:
    """The outermost text-like mobjects on screen: traced numbers, Typst/MathTypst, Pango Text, bare decimals."""
    units: list[Mobject] = []

    def visit(mob: Mobject) -> None:
        if isinstance(mob, (TracedNumber, Typst, Text, DecimalNumber)):
            units.append(mob)
            return
        for sub in mob.submobjects:
            visit(sub)

    for mob in scene.mobjects + scene.foreground_mobjects:
        visit(mob)
    return [unit for unit in units if is_visible(unit)]


def is_visible(mob: Mobject) -> bool:
    for part in mob.family_members_with_points():
        opacity = part.get_fill_opacity() if hasattr(part, "get_fill_opacity") else 1.0
        if opacity > 0.05:
            return True
    return False


def describe(mob: Mobject) -> str:
    if isinstance(mob, TracedNumber):
        t = mob.trace
        return f"number {mob.shown_text} ({t.example}.{t.path}{list(t.index)})"
    code = getattr(mob, "typst_code", None) or getattr(mob, "text", None) or type(mob).__name__
    return f"{type(mob).__name__} {str(code)[:40]!r}"


def effective_font_size(mob: Mobject) -> float | None:
    sizes = [leaf.font_size for leaf in mob.get_family() if isinstance(leaf, Typst) and leaf.height > 0]
    return min(sizes) if sizes else None


def _box(mob: Mobject) -> tuple[float, float, float, float]:
    left, right = mob.get_left()[0], mob.get_right()[0]
    bottom, top = mob.get_bottom()[1], mob.get_top()[1]
    return left, right, bottom, top


def layout_problems(scene: AttentionScene) -> list[str]:
    problems: list[str] = []
    units = text_units(scene)
    half_w, half_h = config.frame_width / 2, config.frame_height / 2
    boxes = [_box(u) for u in units]
    for unit, (left, right, bottom, top) in zip(units, boxes):
        if left < -half_w - EDGE_TOLERANCE or right > half_w + EDGE_TOLERANCE or \
                bottom < -half_h - EDGE_TOLERANCE or top > half_h + EDGE_TOLERANCE:
            problems.append(f"outside the frame: {describe(unit)}")
        size = effective_font_size(unit)
        if size is not None and size < typography.MIN_FONT_SIZE * FONT_SIZE_TOLERANCE:
            problems.append(f"below the legibility floor (font size {size:.1f} < {typography.MIN_FONT_SIZE}): "
                            f"{describe(unit)}")
    for i in range(len(units)):
        for j in range(i + 1, len(units)):
            a, b = boxes[i], boxes[j]
            overlap_x = min(a[1], b[1]) - max(a[0], b[0])
            overlap_y = min(a[3], b[3]) - max(a[2], b[2])
            if overlap_x > OVERLAP_TOLERANCE and overlap_y > OVERLAP_TOLERANCE:
                problems.append(f"overlapping: {describe(units[i])} and {describe(units[j])}")
    return problems


def number_problems(scene: AttentionScene, fresh_records: dict[str, Any] | None = None) -> tuple[list[str], int]:
    """Each visible number must equal a fresh attention_math computation at the precision shown.

    `fresh_records` caches one `examples.build(name)` per example for the run (built from scratch once, not
    read from the scenes' cache).
    """
    problems: list[str] = []
    checked = 0
    fresh_records = {} if fresh_records is None else fresh_records
    for unit in text_units(scene):
        if isinstance(unit, TracedNumber):
            checked += 1
            trace = unit.trace
            if trace.example not in fresh_records:
                fresh_records[trace.example] = examples.build(trace.example)
            fresh = format_value(trace.fresh_value(fresh_records[trace.example]), trace.decimals)
            shown_value = unit.value if not isinstance(unit.glyph, DecimalNumber) else to_float(unit.glyph.number)
            shown = format_value(shown_value, trace.decimals)
            if shown != fresh:
                problems.append(f"number shows {shown} but {trace.example}.{trace.path}{list(trace.index)} "
                                f"recomputes to {fresh}")
        elif isinstance(unit, DecimalNumber):
            problems.append(f"untraced number on screen: {unit.number} (use Source.number)")
    return problems, checked


def shown_numbers(scene: AttentionScene) -> set[str]:
    """The text of every traced number visible now, as the reader sees it ("0.28", "-1.30", "-inf")."""
    return {unit.shown_text for unit in text_units(scene) if isinstance(unit, TracedNumber)}


def narrated_decimals(narration: str) -> list[str]:
    """The decimal numbers a narration reads aloud, minus signs kept and written "-" ("−0.45" → "-0.45")."""
    return [match.group(0).replace("−", "-") for match in NARRATED_DECIMAL.finditer(narration)]


def narrated_number_problems(scene_id: str, beats: list[BeatRecord], shown: dict[str, set[str]]) -> list[str]:
    """Every decimal a beat reads aloud must equal a number shown on screen during that beat.

    Equal as numbers ("0.5" is "0.50"), so a narration may not round differently from the picture or say a value
    that is only in the caption.
    """
    problems: list[str] = []
    for record in beats:
        on_screen = shown.get(record.name, set())
        values = set()
        for text in on_screen:
            try:
                values.add(float(text))
            except ValueError:
                pass  # "-inf", "inf": no decimal to match
        for narration in record.narration:
            for number in narrated_decimals(narration):
                if float(number) not in values:
                    listed = ", ".join(sorted(on_screen)) or "none"
                    problems.append(f"{scene_id} / beat {record.name}: narration says {number}, which is not "
                                    f"on screen during the beat (shown: {listed})")
    return problems


#: Words of the post's sentences that a caption could only name by being typed for the post's example.
POST_CONTENT_WORDS = ("rain", "softens", "dry", "soil", "coffee", "café", "J'aime", "love")


def example_words(spec: example_spec.ExampleSpec) -> set[str]:
    """Every word the example's own sentences (and the translator's French for them) contain."""
    words = set(spec.encoder_decoder.english + spec.encoder_decoder.french_reference + spec.self_attention.tokens
                + spec.translator.english + spec.translator.second)
    learned = examples.load("learned_alignment")
    return words | set(learned.french_tokens) | set(learned.reorder_french)


#: (scene, beat) pairs that replay a recording made on one fixed training sentence, the same for every example.
REPLAYING_BEATS = {("learned_alignment", "sharpening_timelapse")}


def replayed_words(scene_id: str, beat_name: str) -> set[str]:
    """Words a beat may name whatever the example because it replays a fixed recording: learned_alignment's
    training time-lapse was saved on one training sentence, so its captions name that sentence (and what the model
    said at each snapshot)."""
    if (scene_id, beat_name) not in REPLAYING_BEATS:
        return set()
    learned = examples.load("learned_alignment")
    return set(learned.snapshot_english).union(*learned.snapshot_french)


def typed_claim_problems(scene_id: str, beats: list[BeatRecord], spec: example_spec.ExampleSpec) -> list[str]:
    """Captions that name a post-only word while another example is active: typed for the post, not computed."""
    if spec == example_spec.post():
        return []
    problems = []
    for record in beats:
        allowed = example_words(spec) | replayed_words(scene_id, record.name)
        foreign = [w for w in POST_CONTENT_WORDS if w not in allowed]
        if not foreign:
            continue
        pattern = re.compile(r"(?<![\w'])(" + "|".join(re.escape(w) for w in foreign) + r")(?![\w'])")
        for text in record.captions + record.narration:
            match = pattern.search(text)
            if match:
                problems.append(f"{scene_id} / beat {record.name}: the caption names {match.group(1)!r}, a word of "
                                f"the post's example, not of {spec.name!r}: {text[:80]!r}")
    return problems


def inspect_scene(scene_id: str) -> SceneReport:
    """Run a registered scene once headless at 480p for the active example (cached per process and example, so
    each gate reuses one run)."""
    return _inspect_cached(scene_id, examples.active_spec())


@functools.cache
def _inspect_cached(scene_id: str, spec: example_spec.ExampleSpec) -> SceneReport:
    report = inspect_scene_class(scene_id, scene_id)
    report.typed_claim_problems = typed_claim_problems(scene_id, report.beat_log, spec)
    return report


def inspect_scene_class(scene: str | type[AttentionScene], scene_id: str) -> SceneReport:
    """Run the scene headless at 480p and gather beat frames, layout problems and number problems."""
    report = SceneReport(scene_id)
    seen_layout: set[str] = set()
    fresh_records: dict[str, Any] = {}

    def after_animation(scene: AttentionScene) -> None:
        report.animations_checked += 1
        where = f"{scene_id} / beat {scene.current_beat or '(between beats)'} / animation {report.animations_checked}"
        for problem in layout_problems(scene):
            key = problem
            if key not in seen_layout:
                seen_layout.add(key)
                report.layout_problems.append(f"{where}: {problem}")
        problems, checked = number_problems(scene, fresh_records)
        report.numbers_checked += checked
        report.number_problems.extend(f"{where}: {p}" for p in problems)
        if scene.current_beat is not None:
            report.shown_numbers.setdefault(scene.current_beat, set()).update(shown_numbers(scene))

    def on_beat_end(scene: AttentionScene, record: BeatRecord, frame: np.ndarray) -> None:
        report.beat_frames.append((record.name, frame[..., :3].copy()))

    finished = run_headless(scene, on_beat_end=on_beat_end, after_animation=after_animation)
    report.beat_log = list(finished.beat_log)
    report.narrated_number_problems = narrated_number_problems(scene_id, report.beat_log, report.shown_numbers)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Check layout and on-screen numbers of scenes (480p, headless).")
    parser.add_argument("scene_ids", nargs="*", help="default: every registered scene")
    parser.add_argument("--example", metavar="FILE.toml", help="compute the scenes from this example file "
                        "(default: $ATTENTION_EXAMPLE, or the post's)")
    args = parser.parse_args(argv)
    if args.example:
        try:
            example_spec.read(args.example)
        except example_spec.ExampleError as error:
            print(error, file=sys.stderr)
            return 2
        os.environ[example_spec.EXAMPLE_ENV_VAR] = args.example
    ids = args.scene_ids or registry.scene_ids()
    failed = False
    for scene_id in ids:
        report = inspect_scene(scene_id)
        problems = (report.layout_problems + report.number_problems + report.narrated_number_problems
                    + report.typed_claim_problems)
        failed |= bool(problems)
        print(f"{scene_id}: {report.animations_checked} animations, {report.numbers_checked} numbers checked, "
              f"{len(problems)} problem(s)")
        for problem in problems:
            print("  " + problem)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
