"""The audio description (scenes.kit.description): what it says is read from the picture's own texts and traced
numbers, placed after the narration, and the picture waits where it does not fit.

Expected texts are built here from the examples' values (attention_math), formatted by hand, not by the code under
test."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pytest

from attention_math import examples
from scenes.kit import description
from scenes.quality.headless import run_headless
from scenes.kit.narration import DESCRIPTION, NARRATION, PAUSE_AFTER_SPEECH
from tests.fixtures.quality.described_scenes import DescribedScene


def shown(value: float) -> str:
    """A number as a reader sees it on a cell: two decimals, a true minus sign, −∞ for a masked score."""
    if math.isinf(value):
        return "−∞"
    text = f"{value:.2f}"
    return "0.00" if text == "-0.00" else text.replace("-", "−")


def row_line(word: str, values) -> str:
    items = [shown(float(v)) for v in values]
    more = f" and {len(items) - description.MAX_ITEMS} more" if len(items) > description.MAX_ITEMS else ""
    return f"{word}: " + ", ".join(items[:description.MAX_ITEMS]) + more


@dataclass
class Speech:
    duration: float
    rate: int = 22050

    @property
    def samples(self) -> np.ndarray:
        return np.zeros(round(self.duration * self.rate), dtype=np.float32)


class CountingNarrator:
    """A voice that takes 0.05 s per character: long enough that the descriptions do not fit the pauses."""

    def sentences(self, text: str) -> list[str]:
        return [text]

    def speak(self, sentence: str) -> Speech:
        return Speech(0.05 * len(sentence))


@pytest.fixture(scope="module")
def described():
    DescribedScene.narrator = CountingNarrator()
    DescribedScene.describes = True
    try:
        scene = run_headless(DescribedScene)
        DescribedScene.describes = False
        narrated = run_headless(DescribedScene)
    finally:
        DescribedScene.narrator, DescribedScene.describes = None, False
    return scene, narrated


def test_two_maps_are_read_left_then_right_row_by_row_with_their_numbers(described):
    scene, _ = described
    causal = examples.load("causal")
    first = scene.beat_log[0].descriptions[0]
    left, right = first.split("Right: ")
    assert left.startswith("On screen. Left: ")
    tokens = list(causal.tokens)
    for word, row in zip(tokens[:description.MAX_LINES - 1], causal.masked_scores.tolist()):
        assert row_line(word, row) in left
    masked = [shown(v) for v in causal.masked_scores[0].tolist()]
    assert masked[1:] == ["−∞"] * (len(tokens) - 1), "the example's first row is masked after its first key"
    assert row_line(tokens[0], causal.weights[0].tolist()) in right


def test_what_the_clip_has_described_is_not_said_again_and_the_rows_left_come_next(described):
    scene, _ = described
    causal = examples.load("causal")
    last = len(causal.tokens) - 1
    word = causal.tokens[last]
    first, second = scene.beat_log[0].descriptions
    assert "1 more row" in first, "the post's four rows: three read, the last counted"
    assert second == (f"On screen. Left: {row_line(word, causal.masked_scores[last].tolist())}. "
                      f"Right: {row_line(word, causal.weights[last].tolist())}.")


def test_a_caption_without_a_subject_describes_what_appeared_during_it(described):
    scene, _ = described
    scores = [shown(v) for v in examples.load("coffee").scores.tolist()]
    assert scene.beat_log[1].descriptions == ["On screen: " + ", ".join(scores) + "."]


def test_descriptions_follow_the_narration_and_the_picture_waits_for_them(described):
    scene, narrated = described
    kinds = [s.kind for s in scene.spoken]
    assert kinds.count(DESCRIPTION) == 3 and kinds.count(NARRATION) == 3
    for earlier, later in zip(scene.spoken, scene.spoken[1:]):
        assert earlier.end <= later.start + 1e-9, f"{earlier.text!r} overlaps {later.text!r}"
    beats = {record.name: record for record in scene.beat_log}
    for sentence in scene.spoken:
        assert sentence.end + PAUSE_AFTER_SPEECH <= beats[sentence.beat].end + 1e-6
    assert scene.renderer.time > narrated.renderer.time + 1.0, "the descriptions extend the clip where they do not fit"
    cue_texts = " ".join(text for _, _, text in scene.description_cues)
    assert "Left:" in cue_texts and "Masked scores" not in cue_texts, "the descriptions track holds descriptions only"


def test_a_formula_reads_as_its_signs():
    assert description.math_text("$ op(output) = op(concat) dot W_O + b_o $") == "output = concat · W_O + b_o"
    assert description.math_text("$ manimgrp(q, X W_Q^((h))) $") == "X W_Q^(h)"


@pytest.mark.parametrize("scene_id", ["causal_triangle", "head_split"])
def test_a_real_clips_descriptions_say_only_numbers_shown_in_their_beat(scene_id):
    """Described with a stand-in voice: every beat after the title says what it shows, and every decimal a
    description says is a traced number drawn on screen during that beat (the narrated-number gate's own rule)."""
    from scenes.quality.headless import scene_class
    from scenes.quality.inspection import narrated_number_problems, shown_numbers, text_units
    from scenes.kit.base import BeatRecord

    base = scene_class(scene_id)
    shown: dict[str, set[str]] = {}

    def look(scene):
        if scene.current_beat is not None:
            shown.setdefault(scene.current_beat, set()).update(shown_numbers(scene, text_units(scene)))

    base.narrator, base.describes = CountingNarrator(), True
    try:
        scene = run_headless(base, after_animation=look)
    finally:
        base.narrator, base.describes = None, False
    beats = scene.beat_log
    assert all(record.descriptions for record in beats[1:]), [r.name for r in beats[1:] if not r.descriptions]
    said = [BeatRecord(r.name, r.start, r.end, narration=list(r.descriptions)) for r in beats]
    assert sum(len(r.narration) for r in said) >= len(beats) - 1
    assert narrated_number_problems(scene_id, said, shown) == []


def test_a_column_of_repeated_numbers_is_read_whole_every_time_it_is_shown():
    from scenes.kit import Source, vector

    state = examples.load("coffee").s_decoder.tolist()
    assert len(set(state)) < len(state), "the post's decoder state repeats a value"
    said: set[str] = set()
    expected = "On screen: " + "; ".join(shown(v) for v in state) + "."
    for _ in range(2):
        column = vector(Source("coffee"), "s_decoder", orientation="column")
        assert description.describe((column,), said) == expected
