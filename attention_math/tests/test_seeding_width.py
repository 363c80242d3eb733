"""Seeded numbers scale with the width (as nn.Linear's init, 1/sqrt(d_in)), anchored at the post's width so its
numbers do not move, and a seeded width-6 example keeps spread-out weights."""

from __future__ import annotations

import math

import pytest
import torch

from attention_math import example_spec, examples
from attention_math.seeding import width_scaled
from attention_math.weight_spread import saturated_rows


def test_the_scale_is_the_anchor_at_the_anchor_width_and_shrinks_as_one_over_root_width():
    assert width_scaled(1.5, 3, 3) == 1.5  # exactly: the post's projections are drawn at the same scale
    assert width_scaled(1.5, 6, 3) == pytest.approx(1.5 / math.sqrt(2))  # 1.0607
    assert width_scaled(1.5, 2, 3) == pytest.approx(1.5 * math.sqrt(1.5))  # 1.8371
    assert width_scaled(1.0, 4, 1) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="positive"):
        width_scaled(1.5, 0, 3)


def _seeded_width_6() -> example_spec.ExampleSpec:
    return example_spec.from_dict({
        "name": "w6",
        "encoder_decoder": {"english": ["a", "b", "c", "d", "e", "f", "g"], "french_so_far": ["x"],
                            "next_word": "y", "width": 6, "seed": 3},
        "self_attention": {"tokens": ["a", "b", "c", "d", "e", "f", "g"], "width": 6, "seed": 5, "d_k": 3,
                           "heads": 3, "d_out": 6},
        "translator": {"english": ["I", "love", "coffee"], "second": ["She", "drinks", "the", "cold", "water"]},
    })


def test_seeded_width_6_projections_are_drawn_at_the_smaller_scale():
    spec = _seeded_width_6()
    W_q = examples.build("qkv", spec).W_q
    g = torch.Generator().manual_seed(spec.self_attention.projection_seed)
    unscaled = torch.randn(6, 3, generator=g, dtype=torch.float64)
    assert torch.equal(W_q, ((unscaled * (1.5 / math.sqrt(2))).round(decimals=1) + 0.0).float())


def test_a_seeded_width_6_example_has_no_one_hot_rows_in_its_scaled_scores():
    spec = _seeded_width_6()
    qkv, heads = examples.build("qkv", spec), examples.build("multihead", spec)
    assert saturated_rows(qkv.weights) == (0, 7)
    assert saturated_rows(heads.weights, causal=True) == (0, 18)  # 3 heads × rows 2..7
    assert float(qkv.scaled_scores.abs().max()) < 6
