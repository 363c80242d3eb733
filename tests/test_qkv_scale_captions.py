"""qkv_scale's captions read the example's numbers: each expected text is recomputed here from the example's inputs
(X and the projections, the saturation demo's seeded queries and keys), not taken from the values the scene reads."""

from __future__ import annotations

import math

import pytest
import torch

from attention_math import examples
from scenes.qkv_scale import (
    attends_caption, jacobian_caption, saturation_caption, saturation_narration, takeaway_caption, widths_caption,
)


def _projected():
    qkv = examples.build("qkv")
    return qkv, qkv.X @ qkv.W_q, qkv.X @ qkv.W_k, qkv.X @ qkv.W_v


def test_the_post_widths_caption_says_the_three_projections_differ():
    qkv, Q, K, V = _projected()
    assert widths_caption(Q, K, V, qkv.W_q.shape[1]) == (
        f"Each word now has a query, a key and a value of width d_k = {qkv.W_q.shape[1]}, and they differ.")


def test_two_equal_projections_are_said_to_coincide():
    Q = torch.tensor([[1.0, 2.0]])
    assert widths_caption(Q, Q.clone(), torch.tensor([[3.0, 4.0]]), 2).endswith(
        "; here two of them happen to coincide.")


def test_the_post_query_attends_most_to_rain_no_longer_to_itself():
    qkv = examples.build("qkv")
    i = qkv.query_index
    q, K = qkv.X[i] @ qkv.W_q, qkv.X @ qkv.W_k
    weights = torch.softmax(q @ K.T / math.sqrt(K.shape[1]), dim=0)  # the scaled softmax, recomputed here
    before = torch.softmax(qkv.X[i] @ qkv.X.T, dim=0)  # the weight-free weights of the same word
    best, was = int(weights.argmax()), int(before.argmax())
    assert (qkv.tokens[i], qkv.tokens[best], was) == ("dry", "rain", i)  # the post's example, by hand
    mostly = "mostly" if float(before[was]) > 0.5 else "most"
    assert attends_caption(list(qkv.tokens), i, weights.tolist(), before.tolist()) == (
        f"With these projections “dry” attends most to “rain” ({float(weights[best]):.2f}), no longer {mostly} "
        "to itself.")


def test_an_unchanged_favourite_adds_nothing_and_a_tie_is_said():
    assert attends_caption(["a", "b"], 0, [0.7, 0.3], [0.6, 0.4]) == (
        "With these projections “a” attends most to “a” (0.70).")
    assert attends_caption(["a", "b"], 0, [0.5, 0.5], [0.6, 0.4]) == (
        "With these projections “a” spreads its weight: the largest weights tie at 0.50.")


def _cases():
    """The saturation demo's cases, recomputed from its seeded draws: (d_k, raw scores, unscaled, scaled weights)."""
    sat = examples.build("saturation")
    out = []
    for d_k in sat.d_ks:
        g = torch.Generator().manual_seed(examples.SATURATION_SEED + d_k)
        q = torch.randn(d_k, generator=g)
        keys = torch.randn(sat.n_keys, d_k, generator=g)
        raw = keys @ q
        out.append((d_k, raw, torch.softmax(raw, 0), torch.softmax(raw / math.sqrt(d_k), 0)))
    return out


def _jacobian_norm(weights: torch.Tensor) -> float:
    """The softmax's Jacobian at these weights, by automatic differentiation (not the closed form)."""
    scores = torch.log(weights).detach()
    return float(torch.autograd.functional.jacobian(lambda s: torch.softmax(s, 0), scores).norm())


@pytest.mark.parametrize("case", range(3))
def test_each_saturation_caption_quotes_the_raw_range_and_both_largest_weights(case):
    d_k, raw, unscaled, scaled = _cases()[case]
    assert saturation_caption(d_k, raw, float(unscaled.max()), float(scaled.max())) == (
        f"d_k = {d_k}: raw dot products from {float(raw.min()):.2f} to {float(raw.max()):.2f}; the largest weight "
        f"is {float(unscaled.max()):.2f} without the scale, {float(scaled.max()):.2f} with it.")


def test_the_post_ranges_are_the_ones_the_issue_quotes():
    ranges = [(f"{float(raw.min()):.2f}", f"{float(raw.max()):.2f}") for _, raw, _, _ in _cases()]
    assert ranges == [("-3.24", "1.05"), ("-8.26", "16.24"), ("-38.47", "20.00")]


def test_the_narration_says_when_the_raw_scores_spread_wider():
    cases = _cases()
    first = saturation_narration(cases[0][0], cases[0][1], None, 0.5, 0.3)
    second = saturation_narration(cases[1][0], cases[1][1], cases[0][1], 0.5, 0.3)
    assert first.startswith(f"At d_k = {cases[0][0]}, the largest weight")
    assert second.startswith(f"At d_k = {cases[1][0]}, the raw dot products spread wider, and the largest weight")


def test_the_jacobian_caption_quotes_the_vanishing_and_the_surviving_gradient():
    d_k, _, unscaled, scaled = _cases()[-1]
    caption = jacobian_caption(d_k, _jacobian_norm(unscaled), _jacobian_norm(scaled))
    assert f"at d_k = {d_k} the softmax Jacobian norm is 0.00003 unscaled, 0.41 scaled." in caption


def test_the_takeaway_is_as_strong_as_the_scaled_weights_allow():
    spread = [float(scaled.max()) for *_, scaled in _cases()]
    assert max(spread) < 0.5  # by hand: no scaled softmax of the demo comes near one-hot
    assert "the weights stay spread out" in takeaway_caption(spread)
    assert "far less one-hot" in takeaway_caption([0.99])
