"""Our attention against PyTorch's own implementations, plus the structural properties of the causal
mask and of dropout on the weights."""

from __future__ import annotations

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from attention_math.attention_dropout import apply_attention_dropout
from attention_math.causal import causal_attention_steps, wrong_order_steps
from attention_math.modules import (
    CausalSelfAttention,
    MultiHeadCausalAttention,
    MultiHeadCausalAttentionStacked,
    SelfAttention,
)
from attention_math.scaled import attention_steps

ATOL = 1e-5


def _x(B, T, d, seed=0):
    return torch.randn(B, T, d, generator=torch.Generator().manual_seed(seed))


# --- F.scaled_dot_product_attention ------------------------------------------------------------------------


@pytest.mark.parametrize("causal", [False, True])
def test_functional_matches_sdpa(causal):
    g = torch.Generator().manual_seed(4)
    Q, K, V = (torch.randn(2, 3, 6, 5, generator=g) for _ in range(3))
    ours = attention_steps(Q, K, V, causal=causal).output
    ref = F.scaled_dot_product_attention(Q, K, V, is_causal=causal)
    assert torch.allclose(ours, ref, atol=ATOL)


def test_causal_self_attention_matches_sdpa_with_copied_weights():
    torch.manual_seed(0)
    m = CausalSelfAttention(3, 4, context_length=7, dropout=0.2, bias=True).eval()
    x = _x(2, 7, 3)
    ref = F.scaled_dot_product_attention(m.W_q(x), m.W_k(x), m.W_v(x), is_causal=True)
    assert torch.allclose(m(x), ref, atol=ATOL)


def test_self_attention_matches_sdpa_without_mask():
    torch.manual_seed(0)
    m = SelfAttention(3, 4)
    x = _x(2, 5, 3)
    ref = F.scaled_dot_product_attention(m.W_q(x), m.W_k(x), m.W_v(x))
    assert torch.allclose(m(x), ref, atol=ATOL)


def test_multihead_heads_match_sdpa():
    torch.manual_seed(0)
    m = MultiHeadCausalAttention(4, 6, context_length=5, n_heads=3, dropout=0.0).eval()
    x = _x(2, 5, 4)
    steps = m.forward_steps(x)
    ref = F.scaled_dot_product_attention(steps.Q_heads, steps.K_heads, steps.V_heads, is_causal=True)
    assert torch.allclose(steps.head_outputs, ref, atol=ATOL)


# --- nn.MultiheadAttention ---------------------------------------------------------------------------------


@pytest.mark.parametrize("bias", [False, True])
def test_multihead_matches_torch_multiheadattention(bias):
    E, H, T = 6, 3, 5
    torch.manual_seed(7)
    ours = MultiHeadCausalAttention(E, E, context_length=T, n_heads=H, dropout=0.0, bias=bias).eval()
    ref = nn.MultiheadAttention(E, H, bias=True, batch_first=True).eval()
    with torch.no_grad():
        ref.in_proj_weight.copy_(torch.cat([ours.W_q.weight, ours.W_k.weight, ours.W_v.weight]))
        if bias:
            ref.in_proj_bias.copy_(torch.cat([ours.W_q.bias, ours.W_k.bias, ours.W_v.bias]))
        else:
            ref.in_proj_bias.zero_()
        ref.out_proj.weight.copy_(ours.out_proj.weight)
        ref.out_proj.bias.copy_(ours.out_proj.bias)
    x = _x(2, T, E, seed=3)
    future = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    with torch.no_grad():
        out, w = ref(x, x, x, attn_mask=future, need_weights=True, average_attn_weights=False)
        steps = ours.forward_steps(x)
    assert torch.allclose(steps.output, out, atol=ATOL)
    assert torch.allclose(steps.attention.weights, w, atol=ATOL)


# --- causal property ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda: CausalSelfAttention(3, 4, context_length=6, dropout=0.3),
        lambda: MultiHeadCausalAttention(3, 4, context_length=6, n_heads=2, dropout=0.3),
        lambda: MultiHeadCausalAttentionStacked(3, 4, context_length=6, n_heads=2, dropout=0.3),
    ],
    ids=["causal", "split", "stacked"],
)
def test_changing_later_tokens_never_changes_earlier_outputs(make):
    torch.manual_seed(0)
    m = make().eval()
    x = _x(2, 6, 3)
    base = m(x)
    for t in range(6):
        y = x.clone()
        y[:, t:] = torch.randn(2, 6 - t, 3) * 5
        changed = m(y)
        assert torch.allclose(changed[:, :t], base[:, :t], atol=1e-6, rtol=0)
        assert not torch.allclose(changed[:, t], base[:, t])  # the test can fail: position t did change


def test_masked_rows_sum_to_one_with_exact_zeros_above_diagonal():
    g = torch.Generator().manual_seed(2)
    Q, K, V = (torch.randn(3, 7, 4, generator=g) * 3 for _ in range(3))
    s = causal_attention_steps(Q, K, V)
    upper = torch.triu(torch.ones(7, 7, dtype=torch.bool), diagonal=1)
    assert torch.all(s.weights[:, upper] == 0.0)  # exactly zero, not just small
    assert torch.all(s.weights[:, ~upper] > 0)
    assert torch.allclose(s.weights.sum(-1), torch.ones(3, 7), atol=1e-6)
    assert torch.all(s.weights[:, 0, 0] == 1.0)


def test_wrong_order_rows_sum_below_one():
    g = torch.Generator().manual_seed(5)
    scores = torch.randn(6, 6, generator=g)
    w = wrong_order_steps(scores)
    assert torch.all(w.row_sums[:-1] < 1.0)
    assert torch.allclose(w.row_sums[-1], torch.tensor(1.0))
    assert torch.all(w.weights[torch.triu(torch.ones(6, 6, dtype=torch.bool), 1)] == 0)
    # and the right order differs from it on every row with a future key
    right = torch.softmax(scores.masked_fill(w.mask, float("-inf")), -1)
    assert not torch.allclose(right[:-1], w.weights[:-1])


# --- dropout -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("p", [0.1, 0.3, 0.5])
def test_dropout_zeros_and_rescales_in_training(p):
    weights = torch.rand(200, 200) + 0.1  # strictly positive, so a zero can only come from dropout
    g = torch.Generator().manual_seed(11)
    keep, dropped = apply_attention_dropout(weights, p, training=True, generator=g)
    zero_frac = float((dropped == 0).float().mean())
    n = weights.numel()
    sd = (p * (1 - p) / n) ** 0.5
    assert abs(zero_frac - p) < 5 * sd  # Bernoulli(p) drop rate, 5 standard deviations
    assert torch.equal(dropped == 0, ~keep)
    assert torch.allclose(dropped[keep], weights[keep] / (1 - p))
    # expectation preserved: mean of dropped ~ mean of weights
    assert abs(float(dropped.mean() / weights.mean()) - 1) < 0.02


def test_dropout_is_identity_in_eval_and_at_p_zero():
    weights = torch.rand(5, 5)
    _, out = apply_attention_dropout(weights, 0.5, training=False)
    assert torch.equal(out, weights)
    _, out = apply_attention_dropout(weights, 0.0, training=True)
    assert torch.equal(out, weights)


def test_module_dropout_train_vs_eval():
    torch.manual_seed(0)
    m = CausalSelfAttention(3, 4, context_length=8, dropout=0.4)
    x = _x(4, 8, 3)
    m.train()
    s = m.forward_steps(x)
    lower = ~torch.triu(torch.ones(8, 8, dtype=torch.bool), 1)
    dropped = ~s.attention.keep_mask & lower
    assert int(dropped.sum()) > 0
    assert torch.all(s.attention.dropped_weights[dropped] == 0)
    kept = s.attention.keep_mask & lower
    assert torch.allclose(s.attention.dropped_weights[kept], s.attention.weights[kept] / 0.6)
    m.eval()
    e = m.forward_steps(x)
    assert torch.equal(e.attention.dropped_weights, e.attention.weights)
    assert torch.equal(m(x), m(x))  # deterministic in eval
    m.train()
    assert not torch.equal(m(x), m(x))  # random in training
