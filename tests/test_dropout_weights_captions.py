"""dropout_weights' captions: the keep-mask, the rescale and train against eval read the dropout example, the
reminder of the swap the causal example's row sums (all recomputed here from the example's tensors)."""

from __future__ import annotations

import math

import torch

from attention_math import examples
from scenes.dropout_weights import (
    dropped_caption, keep_caption, rescale_caption, swap_caption, train_eval_verdict, zeroing_caption,
)


def test_the_post_swap_names_the_row_that_keeps_least():
    c = examples.build("causal")
    scores = c.Q.double() @ c.K.double().T / math.sqrt(c.K.shape[1])
    n = scores.shape[0]
    future = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)
    sums = torch.softmax(scores, dim=1).masked_fill(future, 0.0).sum(dim=1).tolist()
    least = min(range(n), key=lambda i: sums[i])
    caption = swap_caption(list(c.tokens), sums)
    assert caption.startswith("Swap steps two and three (softmax, then mask) and the rows no longer sum to one")
    assert caption.endswith(f"the row of “{c.tokens[least]}” keeps only {sums[least]:.2f}.")


def test_a_swap_that_loses_nothing_visible_says_why():
    caption = swap_caption(["a", "b"], [0.999, 1.0])
    assert caption.startswith("Swap steps two and three (softmax, then mask): here every row still shows 1.00")


# --- the keep-mask, the rescale and train against eval (recomputed from the post's dropout example) ----------


def post_dropout():
    return examples.build("dropout")


def test_the_keep_caption_quotes_p_as_shown():
    d = post_dropout()
    caption, narration = keep_caption(d.p)
    assert caption == ("In training, dropout keeps each weight with probability 1 − p, here p = 0.25: "
                       "one random keep-mask m for this forward pass.")
    assert "here p = 0.25" in narration


def test_the_mask_caption_counts_the_dropped_nonzero_weights():
    d = post_dropout()
    n = len(d.tokens)
    dropped = sum(1 for i in range(n) for j in range(i + 1)
                  if not bool(d.keep_mask[i, j]) and float(d.weights[i, j]) != 0.0)
    assert (n, dropped) == (4, 3)  # the post: four tokens, ten weights on or below the diagonal
    assert dropped_caption(n, dropped) == ("This mask happens to drop three of the ten nonzero weights; zeros in "
                                           "the future stay zero.")
    assert dropped_caption(2, 0).startswith("This mask happens to keep all three nonzero weights")


def test_the_zeroing_caption_says_whether_anything_was_dropped():
    assert zeroing_caption(3)[0].startswith("Dropped weights become zero")
    assert zeroing_caption(0)[0].startswith("No weight was dropped this time")


def test_the_rescale_caption_quotes_the_factor_one_over_one_minus_p():
    d = post_dropout()
    factor = 1 / (1 - 0.25)  # 4/3
    assert abs(d.p - 0.25) < 1e-12
    caption, narration = rescale_caption(d.p, d.rescale)
    assert caption.startswith(f"Kept weights × 1/(1 − p) = {factor:.2f}:") and f"{factor:.2f}" == "1.33"
    assert "multiplying them by 1.33" in narration
    assert rescale_caption(0.0, 1.0)[0] == ("With p = 0.00 the factor 1/(1 − p) is 1.00: dropout leaves every weight "
                                            "as it was.")


def test_the_verdict_compares_the_outputs_as_shown():
    d = post_dropout()
    weights, keep, values = d.weights.double(), d.keep_mask.double(), d.V.double()
    train = (weights * keep / (1 - d.p)) @ values
    evaluation = weights @ values
    differs = any(f"{a:.2f}" != f"{b:.2f}" for a, b in zip(train.flatten().tolist(), evaluation.flatten().tolist()))
    assert differs  # the post's mask drops three weights: the outputs differ
    assert train_eval_verdict(train, evaluation).startswith("Same V, different mixing")
    same = torch.tensor([[0.5, 0.25]])
    assert train_eval_verdict(same, same + 0.001).startswith("Same V, and here the same output")
