"""Scores over their softmax bars, the tie-aware claim helpers and `layout.fit_best`, on hand-made data.

The bars must never let a long word run into its neighbour, each score must sit over its own bar, a tie must name
every tied word, and a composition must take the arrangement that shrinks it least.
"""

from __future__ import annotations

import torch
from manim import DOWN, RIGHT, Rectangle, VGroup

from scenes.kit import layout
from scenes.kit.claims import tied_at_top, words_list
from scenes.kit.numbers import Source
from scenes.kit.legible_fit import fill_factor, fits_at_floor, smallest_text
from scenes.kit.shot_content import floor_scale
from scenes.kit.score_bars import ScoreBars, ScoreRows, bars_or_rows

TOKENS = ["internationalization", "is", "hard"]
SCORES = torch.tensor([-0.93, -1.45, 0.40])
WEIGHTS = torch.tensor([0.19, 0.11, 0.70])  # typed, not computed: the bars only draw them


def tiny_source() -> Source:
    source = Source.__new__(Source)
    source.name, source.data = "tiny", {"scores": SCORES, "weights": WEIGHTS}
    return source


def test_long_words_under_the_bars_never_touch():
    panel = ScoreBars(tiny_source(), "weights", TOKENS, scores="scores")
    labels = panel.bars.labels
    for left, right in zip(labels, labels[1:]):
        assert left.get_right()[0] < right.get_left()[0], "neighbouring words under the bars overlap"


def test_each_score_sits_over_its_own_bar_and_above_every_bar():
    panel = ScoreBars(tiny_source(), "weights", TOKENS, scores="scores", arrow=True)
    for i, bar in enumerate(panel.bars.bars):
        assert abs(panel.scores.cell(i).get_center()[0] - bar.get_center()[0]) < 1e-6
    assert panel.scores.get_bottom()[1] > panel.bars.values.get_top()[1]
    assert len(panel.arrow) == 2  # the arrow and its "softmax" tag


def test_panels_of_different_weights_share_a_height():
    flat = tiny_source()
    flat.data = {"weights": torch.tensor([0.34, 0.33, 0.33])}
    peaked, even = ScoreBars(tiny_source(), "weights", TOKENS), ScoreBars(flat, "weights", TOKENS)
    assert abs(peaked.bars.height - even.bars.height) < 1e-6


def test_a_tie_names_every_tied_position_at_the_precision_shown():
    assert tied_at_top([0.501, 0.499, 0.2]) == [0, 1]  # both show as 0.50
    assert tied_at_top([0.2, 0.9, 0.3]) == [1]
    assert tied_at_top([0.123, 0.1234], decimals=3) == [0, 1]


def test_words_are_listed_as_a_caption_lists_them():
    assert words_list(["coffee"]) == "coffee"
    assert words_list(["I", "love"]) == "I and love"
    assert words_list(["I", "love", "coffee"]) == "I, love and coffee"


def test_fit_best_keeps_the_arrangement_that_shrinks_least():
    region = layout.body()
    wide = VGroup(*(Rectangle(width=6, height=1) for _ in range(2))).arrange(RIGHT)  # about 12 x 1: fits
    tall = VGroup(*(Rectangle(width=6, height=4) for _ in range(2))).arrange(DOWN)  # about 6 x 8: must shrink
    assert layout.fit_best([tall, wide], region) is wide
    chosen = layout.fit_best([VGroup(Rectangle(width=30, height=1)), VGroup(Rectangle(width=15, height=2))], region)
    assert chosen.width <= region.width + 1e-6 and abs(chosen.width - region.width) < 1e-6


def test_score_rows_give_each_word_its_row_with_its_score_and_a_bar_as_long_as_its_weight():
    rows = ScoreRows(tiny_source(), "weights", TOKENS, scores="scores", arrow=True, max_length=2.0)
    bars, words, values = rows.bars.bars, rows.bars.labels, rows.bars.values
    for i, weight in enumerate(WEIGHTS.tolist()):
        assert abs(bars[i].width - weight * 2.0) < 1e-6  # length ∝ weight, from one baseline
        assert abs(bars[i].get_left()[0] - rows.bars.baseline.get_center()[0]) < 1e-6
        for part in (words[i], rows.scores.cell(i), values[i]):  # the word, its score and its weight on one line
            assert abs(part.get_center()[1] - bars[i].get_center()[1]) < 1e-6
        assert words[i].get_right()[0] < rows.scores.cell(i).get_left()[0] < bars[i].get_left()[0]
        assert values[i].get_left()[0] > bars[i].get_right()[0]
    for upper, lower in zip(words, words[1:]):
        assert upper.get_bottom()[1] > lower.get_top()[1], "neighbouring rows overlap"


def test_score_rows_can_put_a_long_word_over_its_row():
    rows = ScoreRows(tiny_source(), "weights", TOKENS, words_over=True)
    for word, bar in zip(rows.bars.labels, rows.bars.bars):
        assert word.get_bottom()[1] > bar.get_top()[1]


def test_bars_or_rows_keeps_the_columns_where_they_fit_and_turns_them_into_rows_in_a_narrow_frame():
    wide = layout.Region(-7, 7, -3, 3)
    assert type(bars_or_rows(tiny_source(), "weights", TOKENS, wide, scores="scores")) is ScoreBars
    narrow = layout.Region(-1.6, 1.6, -3, 3)  # three words side by side cannot stay above the floor here
    chosen = bars_or_rows(tiny_source(), "weights", TOKENS, narrow, scores="scores")
    assert type(chosen) is ScoreRows and fits_at_floor(chosen, narrow)


def test_bars_or_rows_films_a_form_the_camera_only_pans_down_before_one_whose_text_reads_larger():
    # nothing fits this short, narrow region at the floor; the rows form reads larger but is wider than the region
    # at the floor (the camera would pan across too), the words over their rows are not
    region = layout.Region(-1.4, 1.4, -0.6, 0.6)
    wider = ScoreRows(tiny_source(), "weights", TOKENS, scores="scores")
    chosen = bars_or_rows(tiny_source(), "weights", TOKENS, region, scores="scores")
    assert not fits_at_floor(chosen, region)
    assert wider.width * floor_scale(wider) > region.width
    assert fill_factor(wider, region) * smallest_text(wider) > fill_factor(chosen, region) * smallest_text(chosen)
    assert chosen.width * floor_scale(chosen) <= region.width
    assert all(word.get_bottom()[1] > bar.get_top()[1] for word, bar in zip(chosen.bars.labels, chosen.bars.bars))
