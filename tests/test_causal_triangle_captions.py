"""causal_triangle's captions read the example: the score map's signs, the rows that sum to one and the rows that
no longer do in the wrong order (recomputed here from Q and K, not read from the scene's data)."""

from __future__ import annotations

import math

import torch

from attention_math import examples
from scenes.causal_triangle import right_sums_caption, signs_caption, sum_claim, wrong_sums_caption


class _Source:
    """A stand-in Source holding the tensors a caption reads, by path."""

    def __init__(self, **tensors):
        self.tensors = {path: torch.as_tensor(t, dtype=torch.float64) for path, t in tensors.items()}

    def get(self, path):
        return self.tensors[path]

    def value(self, path, index):
        return float(self.tensors[path][index])


def _recomputed():
    """The post's causal example worked again from its Q and K: scaled scores, both orders' weights and row sums."""
    c = examples.build("causal")
    q, k = c.Q.double(), c.K.double()
    scores = q @ k.T / math.sqrt(k.shape[1])
    n = scores.shape[0]
    future = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)
    right = torch.softmax(scores.masked_fill(future, float("-inf")), dim=1)
    wrong = torch.softmax(scores, dim=1).masked_fill(future, 0.0)
    return list(c.tokens), scores, right, wrong


def test_the_post_wrong_order_names_the_rows_that_lose_weight_and_the_least_kept():
    tokens, scores, right, wrong = _recomputed()
    sums = wrong.sum(dim=1)
    src = _Source(wrong_order_row_sums=sums)
    short = [i for i in range(len(tokens)) if f"{sums[i]:.2f}" != "1.00"]
    least = int(sums.argmin())
    assert sum_claim(src, tokens, "wrong_order_row_sums") == (short, least)
    caption = wrong_sums_caption(src, tokens)
    assert short == [0, 1, 2]  # the post's example: only the last row has no future to lose
    assert caption.startswith(f"Now three rows sum to less than one ({tokens[0]}, {tokens[1]} and {tokens[2]});")
    assert f"the row of “{tokens[least]}” keeps only {sums[least]:.2f} of its weight" in caption


def test_a_wrong_order_that_loses_nothing_visible_says_so():
    caption = wrong_sums_caption(_Source(wrong_order_row_sums=[0.999, 1.0]), ["a", "b"])
    assert caption.startswith("Here the future held so little weight that every row still shows 1.00")


def test_one_short_row_is_named_alone():
    caption = wrong_sums_caption(_Source(wrong_order_row_sums=[0.5, 1.0]), ["a", "b"])
    assert caption.startswith("Now one row sums to less than one (a); the row of “a” keeps only 0.50")


def test_the_right_order_rows_sum_to_one_as_shown_or_up_to_rounding():
    tokens, _, right, _ = _recomputed()
    exact = right_sums_caption(_Source(right_order_row_sums=right.sum(dim=1), weights=right), tokens)
    assert exact.startswith("Each row ") and exact.endswith(", and every row sums to one.")
    rounded = right_sums_caption(_Source(right_order_row_sums=[1.0, 0.99], weights=[[1.0, 0.0], [0.5, 0.49]]),
                                 ["a", "b"])
    assert rounded.endswith("every row sums to one, up to rounding.")


def test_the_signs_caption_names_only_the_signs_the_scores_hold():
    _, scores, _, _ = _recomputed()
    assert bool((scores > 0).any()) and bool((scores < 0).any())  # the post's scores hold both
    assert signs_caption(scores) == ("Blue cells are positive scores and red ones negative; nothing stops a row from "
                                     "scoring a later word.")
    assert signs_caption(torch.tensor([[0.5, 1.0]])) == ("Blue cells are positive scores; nothing stops a row from "
                                                          "scoring a later word.")
