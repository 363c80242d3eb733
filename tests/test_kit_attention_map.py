"""AttentionMap on its own: token labels sit on their rows and columns, the future is masked, shades follow values."""

from __future__ import annotations

import pytest
import torch
from manim import ManimColor

from scenes.kit import AttentionMap, layout, palette
from scenes.kit.numbers import Source

# Hand-made weights (rows sum to one, lower triangular) and scores; not produced by the code under test.
WEIGHTS = torch.tensor([[1.0, 0.0, 0.0], [0.3, 0.7, 0.0], [0.1, 0.6, 0.3]])
SCORES = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.2, -0.3], [-2.0, 0.0, 1.0]])
WORDS = ["a", "considerably", "cat"]


def tiny_source(**tensors: torch.Tensor) -> Source:
    """A Source over a few hand-made tensors, without loading any example."""
    source = Source.__new__(Source)
    source.name, source.data = "tiny", dict(tensors)
    return source


def fill(cell) -> ManimColor:
    return ManimColor(cell[0].get_fill_color())


def test_each_token_labels_its_own_row_and_column():
    amap = AttentionMap(tiny_source(w=WEIGHTS), "w", WORDS)
    assert [word.typst_code.split("\n")[-1] for word in amap.column_labels] == WORDS
    for k in range(3):
        row_word, column_word = amap.row_labels[k], amap.column_labels[k]
        assert row_word.get_center()[1] == pytest.approx(amap.cell(k, 0).get_center()[1], abs=1e-6)
        assert row_word.get_right()[0] < amap.body.get_left()[0]
        assert column_word.get_center()[0] == pytest.approx(amap.cell(0, k).get_center()[0], abs=1e-6)
        assert column_word.get_bottom()[1] > amap.body.get_top()[1]


def test_a_column_is_wide_enough_for_its_token_and_neighbours_do_not_touch():
    amap = AttentionMap(tiny_source(w=WEIGHTS), "w", WORDS)
    words = amap.column_labels
    long_word, its_cell = words[1], amap.cell(0, 1)
    assert its_cell.width >= long_word.width
    for left, right in zip(words, words[1:]):
        assert left.get_right()[0] < right.get_left()[0]


def test_the_future_is_masked_only_when_causal():
    plain = AttentionMap(tiny_source(w=WEIGHTS), "w", WORDS)
    causal = AttentionMap(tiny_source(w=WEIGHTS), "w", WORDS, causal=True)
    assert len(plain.future) == 0
    future = {(i, j) for i in range(3) for j in range(3) if causal.cell(i, j) in causal.future}
    assert future == {(0, 1), (0, 2), (1, 2)}
    for i, j in future:
        assert fill(causal.cell(i, j)) == palette.MASKED
    # a past cell worth zero would be dark, not grey: only j > i is masked
    assert fill(plain.cell(0, 1)) != palette.MASKED


def test_a_cells_shade_follows_its_value():
    weights = AttentionMap(tiny_source(w=WEIGHTS), "w", WORDS)
    assert fill(weights.cell(0, 0)) == palette.weight_color(1.0)
    assert fill(weights.cell(1, 1)) == palette.weight_color(0.7)
    assert fill(weights.cell(1, 0)) == palette.weight_color(0.3)
    scores = AttentionMap(tiny_source(s=SCORES), "s", WORDS, weights=False)
    assert fill(scores.cell(0, 2)) == palette.value_color(2.0, 2.0)  # the largest |score| gets the full colour
    assert fill(scores.cell(2, 0)) == palette.value_color(-2.0, 2.0)
    assert fill(scores.cell(1, 1)) == palette.value_color(0.2, 2.0)


def test_a_tint_replaces_the_violet():
    red = ManimColor("#FF0000")
    amap = AttentionMap(tiny_source(w=WEIGHTS), "w", WORDS, tint=red)
    assert fill(amap.cell(0, 0)) == red
    assert fill(amap.cell(0, 1)) == palette.ZERO


def test_the_numbers_are_the_tensors_and_sit_in_their_cells():
    amap = AttentionMap(tiny_source(w=WEIGHTS), "w", WORDS)
    number = amap.cell(2, 1)[1]
    assert number.shown_text == "0.60"
    assert number.get_center()[0] == pytest.approx(amap.cell(2, 1)[0].get_center()[0], abs=1e-6)


def test_other_keys_label_the_columns():
    rect = torch.tensor([[0.2, 0.8], [0.5, 0.5], [0.9, 0.1]])
    amap = AttentionMap(tiny_source(w=rect), "w", ["x", "y", "z"], key_tokens=["p", "q"])
    assert (len(amap.row_labels), len(amap.column_labels)) == (3, 2)


def test_tokens_that_do_not_match_the_tensor_say_so():
    with pytest.raises(ValueError, match=r"\(2, 2\) tensor.*shape \(3, 3\)"):
        AttentionMap(tiny_source(w=WEIGHTS), "w", ["a", "b"])


def test_it_shrinks_into_a_region():
    amap = AttentionMap(tiny_source(w=WEIGHTS), "w", WORDS)
    region = layout.Region(0.0, 2.0, 0.0, 1.5)
    amap.fit_into(region)
    assert amap.width <= region.width + 1e-6 and amap.height <= region.height + 1e-6
    assert amap.get_center()[0] == pytest.approx(1.0, abs=1e-6)


def test_cell_width_widens_every_column_to_at_least_that():
    short = ["a", "b", "c"]
    natural = AttentionMap(tiny_source(w=WEIGHTS), "w", short, show_values=False, cell_size=0.4)
    square = AttentionMap(tiny_source(w=WEIGHTS), "w", short, show_values=False, cell_size=0.4, cell_width=1.3)
    assert natural.cell(0, 0)[0].width < 1.3
    assert [square.cell(0, j)[0].width for j in range(3)] == pytest.approx([1.3] * 3)
    # a number never overflows its cell, however narrow the asked width
    narrow = AttentionMap(tiny_source(w=WEIGHTS), "w", short, cell_width=0.05)
    assert narrow.cell(2, 1)[0].width > narrow.cell(2, 1)[1].width


def test_upright_keys_stand_over_their_columns_without_widening_them():
    flat = AttentionMap(tiny_source(w=WEIGHTS), "w", WORDS, show_values=False, cell_size=0.4)
    upright = AttentionMap(tiny_source(w=WEIGHTS), "w", WORDS, show_values=False, cell_size=0.4, upright_keys=True)
    long_word = upright.column_labels[1]
    assert long_word.height > 3 * long_word.width  # "considerably" reads bottom to top
    assert upright.cell(0, 1).width < flat.cell(0, 1).width
    for j, word in enumerate(upright.column_labels):
        assert word.get_center()[0] == pytest.approx(upright.cell(0, j).get_center()[0], abs=1e-6)
        assert word.get_bottom()[1] == pytest.approx(upright.body.get_top()[1] + layout.TIGHT, abs=1e-6)
    for left, right in zip(upright.column_labels, upright.column_labels[1:]):
        assert left.get_right()[0] < right.get_left()[0]
    assert upright.query_name.get_right()[0] < upright.body.get_left()[0]


def test_a_one_letter_key_word_stays_flat_among_upright_ones_when_asked():
    """"I" turned on its side reads as a dash: with short_keys_flat it keeps its glyph upright, the others turn."""
    words = ["I", "considerably", "cat"]
    plain = AttentionMap(tiny_source(w=WEIGHTS), "w", words, show_values=False, cell_size=0.4, upright_keys=True)
    kept = AttentionMap(tiny_source(w=WEIGHTS), "w", words, show_values=False, cell_size=0.4, upright_keys=True,
                        short_keys_flat=True)
    assert plain.column_labels[0].width > plain.column_labels[0].height  # the turned "I": a dash
    assert kept.column_labels[0].height > kept.column_labels[0].width  # flat "I": taller than wide
    for j in (1, 2):  # the longer words still stand upright
        assert kept.column_labels[j].height > kept.column_labels[j].width
    for j, word in enumerate(kept.column_labels):
        assert word.get_bottom()[1] == pytest.approx(kept.body.get_top()[1] + layout.TIGHT, abs=1e-6)


def test_number_pad_brings_a_maps_columns_closer_without_crowding_its_numbers():
    roomy = AttentionMap(tiny_source(w=WEIGHTS), "w", ["a", "b", "c"], upright_keys=True)
    close = AttentionMap(tiny_source(w=WEIGHTS), "w", ["a", "b", "c"], upright_keys=True, number_pad=layout.HAIRLINE)
    widest = max(part.width for j in range(3) for cell in close.column(j) for part in cell[1:])
    assert close.body.width < roomy.body.width
    for width in close.column_widths:  # each number still has its hairline each side, inside its own cell
        assert width == pytest.approx(widest + 2 * layout.HAIRLINE, abs=1e-6)


def test_a_map_without_row_labels_starts_at_its_cells():
    amap = AttentionMap(tiny_source(w=WEIGHTS), "w", WORDS, label_rows=False, query_label=None)
    assert len(amap.row_labels) == 0
    assert amap.get_left()[0] == pytest.approx(amap.body.get_left()[0], abs=1e-6)
    named = AttentionMap(tiny_source(w=WEIGHTS), "w", WORDS, label_rows=False)
    assert named.query_name.get_right()[0] == pytest.approx(named.body.get_left()[0] - layout.NEAR, abs=1e-6)


def test_numbers_may_be_set_larger_than_the_words():
    plain = AttentionMap(tiny_source(w=WEIGHTS), "w", WORDS, font_size=30)
    bigger = AttentionMap(tiny_source(w=WEIGHTS), "w", WORDS, font_size=30, number_size=36)
    number = bigger.cell(1, 1)[1]
    assert min(leaf.font_size for leaf in number.get_family() if hasattr(leaf, "font_size")) == pytest.approx(36)
    assert bigger.column_labels[0].font_size == pytest.approx(30)
    # a long word sets its column's width either way; the numbers grow inside it, each row tall enough for them
    assert bigger.column_widths[1] == pytest.approx(plain.column_widths[1])
    assert bigger.cell(1, 1)[0].height >= number.height
    assert bigger.cell(0, 0)[0].height > plain.cell(0, 0)[0].height
