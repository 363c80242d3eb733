"""dropout_weights' reminder of the swap reads the causal example's row sums (recomputed here from Q and K)."""

from __future__ import annotations

import math

import torch

from attention_math import examples
from scenes.dropout_weights import swap_caption


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
