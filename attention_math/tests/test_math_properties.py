"""Hypothesis property tests over random shapes and values (kept small and fast)."""

from __future__ import annotations

import math

import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_math.conversion import split_from_stacked, stacked_from_split
from attention_math.modules import CausalSelfAttention, MultiHeadCausalAttention, MultiHeadCausalAttentionStacked
from attention_math.multihead import merge_heads, split_heads
from attention_math.scaled import attention_steps
from attention_math.self_attention import weight_free_self_attention

FAST = settings(max_examples=30, deadline=None)


def randn(seed, *shape, scale=1.0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed)) * scale


@FAST
@given(B=st.integers(1, 3), T=st.integers(1, 7), d_k=st.integers(1, 6), d_v=st.integers(1, 5),
       scale=st.floats(0.1, 10.0), seed=st.integers(0, 2**16), causal=st.booleans())
def test_weights_are_distributions_and_match_sdpa(B, T, d_k, d_v, scale, seed, causal):
    Q, K = randn(seed, B, T, d_k, scale=scale), randn(seed + 1, B, T, d_k, scale=scale)
    V = randn(seed + 2, B, T, d_v)
    s = attention_steps(Q, K, V, causal=causal)
    assert torch.all(s.weights >= 0)
    assert torch.allclose(s.weights.sum(-1), torch.ones(B, T), atol=1e-5)
    if causal:
        assert torch.all(s.weights[..., torch.triu(torch.ones(T, T, dtype=torch.bool), 1)] == 0)
    ref = torch.nn.functional.scaled_dot_product_attention(Q, K, V, is_causal=causal)
    assert torch.allclose(s.output, ref, atol=1e-4, rtol=1e-4)
    assert math.isclose(s.scale, math.sqrt(d_k))


@FAST
@given(T=st.integers(2, 8), cut=st.integers(1, 7), d_in=st.integers(1, 5), d_out=st.integers(1, 5),
       seed=st.integers(0, 2**16))
def test_causal_prefix_outputs_ignore_the_future(T, cut, d_in, d_out, seed):
    cut = min(cut, T - 1)
    torch.manual_seed(seed)
    m = CausalSelfAttention(d_in, d_out, context_length=T, dropout=0.0).eval()
    x = randn(seed, 1, T, d_in)
    y = x.clone()
    y[:, cut:] = randn(seed + 1, 1, T - cut, d_in, scale=3.0)
    assert torch.allclose(m(x)[:, :cut], m(y)[:, :cut], atol=1e-6, rtol=0)
    # running only the prefix gives the same prefix outputs
    assert torch.allclose(m(x[:, :cut]), m(x)[:, :cut], atol=1e-5)


@settings(max_examples=20, deadline=None)  # builds four modules per example
@given(n_heads=st.integers(1, 4), head_dim=st.integers(1, 3), d_in=st.integers(1, 5), T=st.integers(1, 6),
       B=st.integers(1, 2), seed=st.integers(0, 2**16))
def test_stacked_and_split_agree_both_ways(n_heads, head_dim, d_in, T, B, seed):
    d_out = n_heads * head_dim
    torch.manual_seed(seed)
    stacked = MultiHeadCausalAttentionStacked(d_in, d_out, context_length=T, n_heads=n_heads).eval()
    split = MultiHeadCausalAttention(d_in, d_out, context_length=T, n_heads=n_heads).eval()
    x = randn(seed, B, T, d_in)
    assert torch.allclose(split_from_stacked(stacked)(x), stacked(x), atol=1e-5)
    assert torch.allclose(stacked_from_split(split)(x), split(x), atol=1e-5)


@FAST
@given(shape=st.lists(st.integers(1, 3), min_size=0, max_size=2), T=st.integers(1, 5),
       n_heads=st.integers(1, 4), head_dim=st.integers(1, 3))
def test_split_merge_round_trip(shape, T, n_heads, head_dim):
    t = torch.arange(math.prod(shape) * T * n_heads * head_dim, dtype=torch.float32).reshape(*shape, T, n_heads * head_dim)
    s = split_heads(t, n_heads)
    assert s.shape == (*shape, n_heads, T, head_dim)
    assert torch.equal(merge_heads(s), t)


@FAST
@given(T=st.integers(1, 6), d=st.integers(1, 5), seed=st.integers(0, 2**16))
def test_weight_free_is_convex_combination_of_rows(T, d, seed):
    X = randn(seed, T, d)
    s = weight_free_self_attention(X)
    assert torch.allclose(s.scores, s.scores.T)  # X X^T is symmetric
    assert torch.all(s.Z <= X.max(0).values + 1e-5) and torch.all(s.Z >= X.min(0).values - 1e-5)


@FAST
@given(p=st.floats(0.05, 0.9), seed=st.integers(0, 2**16))
def test_training_dropout_structure(p, seed):
    torch.manual_seed(seed)
    m = CausalSelfAttention(3, 2, context_length=6, dropout=p).train()
    s = m.forward_steps(randn(seed, 2, 6, 3)).attention
    keep = s.keep_mask
    assert torch.all(s.dropped_weights[~keep] == 0)
    assert torch.allclose(s.dropped_weights[keep], s.weights[keep] / (1 - p), atol=1e-5)
    assert torch.allclose(s.output, s.dropped_weights @ s.V, atol=1e-6)
