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


# --- the captions beside the beats, their numbers recomputed from the example's tensors -------------------------
from scenes.head_split import (Example, concat_caption, cut_caption, head_width_caption, same_caption,  # noqa: E402
                               stacked_captions)


def _sizes(heads: int, head_dim: int) -> Example:
    return Example(None, ("rain", "softens", "dry", "soil"), 1, 4, 3, heads * head_dim, heads, head_dim)


def test_the_post_width_is_shared_out_as_its_tensors_say():
    multihead = examples.build("multihead")
    heads, _, head_dim = multihead.Q_heads.shape
    d_out = multihead.Q.shape[-1]
    caption, narration = head_width_caption(_sizes(heads, head_dim))
    assert caption == f"W_Q has d_out = {d_out} columns: room for {heads} heads of head_dim = {head_dim} each."
    assert (heads, head_dim, d_out) == (2, 2, 4)  # the post's example, by hand
    assert "each 2 columns wide" in narration


def test_one_head_takes_the_whole_width():
    caption, _ = head_width_caption(_sizes(1, 4))
    assert caption == "With one head, that head takes all d_out = 4 columns of W_Q: head_dim = d_out."


def test_the_cut_names_the_slices_and_the_view():
    assert cut_caption(_sizes(2, 2))[0] == ("Cut the width into 2 slices of head_dim = 2: view gives "
                                            "(B, T, heads, head_dim).")
    assert cut_caption(_sizes(1, 4))[0].startswith("With one head there is nothing to cut")
    assert "single head 4 columns wide" in cut_caption(_sizes(1, 4))[1]


def test_the_concat_and_the_stacked_modules_say_one_head_apart():
    assert "side by side" in concat_caption(False)[0] and "side by side" not in concat_caption(True)[0]
    (first, _), (then, _) = stacked_captions(False)
    assert "narrow W_Q^(h)" in first and then.startswith("Each module")
    (first, _), (then, _) = stacked_captions(True)
    assert "one module with all of W_Q" in first and then.startswith("The module")


def test_the_layouts_differ_by_the_largest_difference_of_their_outputs():
    multihead = examples.build("multihead")
    diff = float((multihead.stacked_output - multihead.output).abs().max())
    caption, narration = same_caption(diff)
    assert f"= {diff:.3f}" in caption
    assert caption.endswith("(exactly zero).") == (diff == 0)
    assert same_caption(0.0012)[0].endswith("= 0.001.") and same_caption(0.0)[1].endswith("0.000, exactly zero.")
