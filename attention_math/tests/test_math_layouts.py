"""Stacked (one module per head) and split (wide matrices) multi-head layouts hold the same numbers."""

from __future__ import annotations

import pytest
import torch

from attention_math.conversion import split_from_stacked, stacked_from_split
from attention_math.modules import MultiHeadCausalAttention, MultiHeadCausalAttentionStacked
from attention_math.multihead import (
    HeadWeights,
    SplitWeights,
    merge_heads,
    multihead_stacked_steps,
    multihead_steps,
    split_heads,
    split_to_stacked,
    stacked_to_split,
)

ATOL = 1e-6


def _x(B=2, T=5, d=3, seed=0):
    return torch.randn(B, T, d, generator=torch.Generator().manual_seed(seed))


@pytest.mark.parametrize("d_out, n_heads", [(4, 2), (6, 3), (8, 1), (8, 8)])
def test_split_from_stacked_gives_equal_outputs(d_out, n_heads):
    torch.manual_seed(0)
    stacked = MultiHeadCausalAttentionStacked(3, d_out, context_length=5, n_heads=n_heads, dropout=0.1).eval()
    split = split_from_stacked(stacked)
    assert isinstance(split, MultiHeadCausalAttention) and not split.training
    x = _x()
    assert torch.allclose(split(x), stacked(x), atol=ATOL)
    # head h of the split layout is head h of the stacked one
    s = split.forward_steps(x)
    t = stacked.forward_steps(x)
    for h in range(n_heads):
        assert torch.allclose(s.attention.weights[:, h], t.heads[h].weights, atol=ATOL)


@pytest.mark.parametrize("d_out, n_heads", [(4, 2), (6, 3), (6, 6)])
def test_stacked_from_split_gives_equal_outputs(d_out, n_heads):
    torch.manual_seed(1)
    split = MultiHeadCausalAttention(3, d_out, context_length=6, n_heads=n_heads, dropout=0.2).eval()
    stacked = stacked_from_split(split)
    x = _x(T=6)
    assert torch.allclose(stacked(x), split(x), atol=ATOL)
    # round trip returns the very same numbers
    back = split_from_stacked(stacked)
    for (name, a), (_, b) in zip(split.state_dict().items(), back.state_dict().items()):
        assert torch.equal(a, b), name


def test_conversion_keeps_dropout_rate_and_context_length():
    split = MultiHeadCausalAttention(3, 4, context_length=9, n_heads=2, dropout=0.35)
    stacked = stacked_from_split(split)
    assert all(h.dropout.p == 0.35 and h.mask.shape == (9, 9) for h in stacked.heads)
    assert split_from_stacked(stacked).dropout.p == 0.35


def test_split_with_qkv_bias_cannot_become_stacked():
    split = MultiHeadCausalAttention(3, 4, context_length=4, n_heads=2, bias=True)
    with pytest.raises(ValueError, match="bias"):
        stacked_from_split(split)


def test_conversion_rejects_wrong_module_type():
    with pytest.raises(ValueError, match="MultiHeadCausalAttentionStacked"):
        split_from_stacked(MultiHeadCausalAttention(3, 4, 4, 2))
    with pytest.raises(ValueError, match="MultiHeadCausalAttention"):
        stacked_from_split(MultiHeadCausalAttentionStacked(3, 4, 4, 2))


def test_functional_weight_conversion_round_trip_with_bias():
    g = torch.Generator().manual_seed(3)
    wide = SplitWeights(*(torch.randn(3, 6, generator=g) for _ in range(3)), *(torch.randn(6, generator=g) for _ in range(3)))
    heads = split_to_stacked(wide, 3)
    assert len(heads) == 3 and heads[1].W_q.shape == (3, 2)
    assert torch.equal(heads[2].W_v, wide.W_v[:, 4:6])
    back = stacked_to_split(heads)
    for name in ("W_q", "W_k", "W_v", "b_q", "b_k", "b_v"):
        assert torch.equal(getattr(back, name), getattr(wide, name))
    W_o, b_o = torch.randn(6, 6, generator=g), torch.randn(6, generator=g)
    X = _x(d=3, seed=4)
    split = multihead_steps(X, wide, W_o, b_o, n_heads=3)
    stacked = multihead_stacked_steps(X, heads, W_o, b_o)
    assert torch.allclose(split.output, stacked.output, atol=ATOL)
    assert torch.allclose(split.concat, stacked.concat, atol=ATOL)


def test_split_and_merge_heads_are_inverse_and_match_view_transpose():
    t = torch.arange(2 * 5 * 6, dtype=torch.float32).reshape(2, 5, 6)
    s = split_heads(t, 3)
    assert s.shape == (2, 3, 5, 2)
    assert torch.equal(s, t.view(2, 5, 3, 2).transpose(1, 2))  # the post's _split_heads
    assert torch.equal(merge_heads(s), t)


def test_stacked_to_split_rejects_mixed_bias():
    a = HeadWeights(torch.zeros(3, 2), torch.zeros(3, 2), torch.zeros(3, 2), b_q=torch.zeros(2))
    b = HeadWeights(torch.zeros(3, 2), torch.zeros(3, 2), torch.zeros(3, 2))
    with pytest.raises(ValueError, match="b_q"):
        stacked_to_split([a, b])
    with pytest.raises(ValueError, match="at least one head"):
        stacked_to_split([])
