"""The patterns beat of head_split says where the last word looks in each head, read from the weights."""

from __future__ import annotations

import torch

from attention_math import examples
from scenes.head_split import last_word_patterns, patterns_intro


def test_each_head_is_said_to_look_where_its_last_row_peaks_or_to_spread():
    caption, narration = last_word_patterns("soil", 4, [("dry", 0.613), (None, 0.3)], [True, True])
    assert caption == "Head 1 gives “dry” 0.61 of “soil”'s weight; head 2 spreads “soil” over all 4 words."
    assert narration.startswith("Look at the last word, “soil”, which may look at every word: head 1 gives")


def test_a_map_without_numbers_names_the_word_but_not_the_weight():
    caption, _ = last_word_patterns("soil", 4, [("rain", 0.9)], [False])
    assert caption == "In head 1, “soil” looks most at “rain”."


def test_the_post_heads_last_rows_peak_where_the_torch_weights_do():
    multihead = examples.build("multihead")
    weights = torch.as_tensor(multihead.weights)  # (heads, T, T)
    last = weights[:, -1, :]
    tops = [(multihead.tokens[int(row.argmax())], float(row.max())) for row in last]
    caption, _ = last_word_patterns(multihead.tokens[-1], len(multihead.tokens), tops, [True] * len(tops))
    for h, row in enumerate(last):
        assert f"head {h + 1} gives “{multihead.tokens[int(row.argmax())]}” {float(row.max()):.2f}" in caption.lower()


def test_one_head_says_there_is_one_pattern():
    assert "one causal pattern" in patterns_intro(True)[0] and patterns_intro(False)[1] is None
