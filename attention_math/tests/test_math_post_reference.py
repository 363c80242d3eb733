"""Our modules against the post's own code, typed in verbatim below as the reference.

A state_dict saved from the post's classes must load into ours with strict=True (and back), and the
outputs must match: exactly the same math in eval mode, and the same dropout draws in training mode
when both start from the same RNG state.
"""

from __future__ import annotations

import math

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from attention_math import modules as ours


# ---------------------------------------------------------------------------------------------------------------
# The post's code, verbatim (only the class names are prefixed with "Post").
# ---------------------------------------------------------------------------------------------------------------


class PostSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, bias=False):
        super().__init__()
        self.W_q = nn.Linear(d_in, d_out, bias=bias)
        self.W_k = nn.Linear(d_in, d_out, bias=bias)
        self.W_v = nn.Linear(d_in, d_out, bias=bias)

    def forward(self, x):
        # x: (batch, T, d_in)
        Q = self.W_q(x)
        K = self.W_k(x)
        V = self.W_v(x)
        scores = (Q @ K.transpose(-2, -1)) / math.sqrt(K.shape[-1])
        weights = torch.softmax(scores, dim=-1)
        return weights @ V  # (batch, T, d_out)


class PostCausalSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout=0.1, bias=False):
        super().__init__()
        self.W_q = nn.Linear(d_in, d_out, bias=bias)
        self.W_k = nn.Linear(d_in, d_out, bias=bias)
        self.W_v = nn.Linear(d_in, d_out, bias=bias)
        self.dropout = nn.Dropout(dropout)
        # True above the diagonal = future key positions → filled with -inf later
        mask = torch.triu(
            torch.ones(context_length, context_length), diagonal=1
        )
        self.register_buffer("mask", mask.bool())  # fixed tensor, not a learned param

    def forward(self, x):
        # x: (B, T, d_in); T ≤ context_length
        B, T, _ = x.shape
        Q = self.W_q(x)
        K = self.W_k(x)
        V = self.W_v(x)

        scores = (Q @ K.transpose(-2, -1)) / math.sqrt(K.shape[-1])
        scores = scores.masked_fill(self.mask[:T, :T], float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        weights = self.dropout(weights)
        return weights @ V


class PostMultiHeadCausalAttentionStacked(nn.Module):
    def __init__(self, d_in, d_out, context_length, n_heads, dropout=0.1):
        super().__init__()
        assert d_out % n_heads == 0
        head_dim = d_out // n_heads
        self.heads = nn.ModuleList([
            PostCausalSelfAttention(d_in, head_dim, context_length, dropout)
            for _ in range(n_heads)
        ])
        self.out_proj = nn.Linear(d_out, d_out)

    def forward(self, x):
        # each head → (B, T, head_dim); concat → (B, T, d_out)
        h = torch.cat([head(x) for head in self.heads], dim=-1)
        return self.out_proj(h)


class PostMultiHeadCausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, n_heads, dropout=0.1, bias=False):
        super().__init__()
        assert d_out % n_heads == 0
        self.n_heads = n_heads
        self.head_dim = d_out // n_heads

        self.W_q = nn.Linear(d_in, d_out, bias=bias)
        self.W_k = nn.Linear(d_in, d_out, bias=bias)
        self.W_v = nn.Linear(d_in, d_out, bias=bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)

        mask = torch.triu(
            torch.ones(context_length, context_length), diagonal=1
        )
        self.register_buffer("mask", mask.bool())

    def _split_heads(self, t):
        # (B, T, d_out) → (B, n_heads, T, head_dim)
        B, T, _ = t.shape
        t = t.view(B, T, self.n_heads, self.head_dim)
        return t.transpose(1, 2)

    def forward(self, x):
        B, T, _ = x.shape
        Q = self._split_heads(self.W_q(x))
        K = self._split_heads(self.W_k(x))
        V = self._split_heads(self.W_v(x))

        scores = (Q @ K.transpose(-2, -1)) / math.sqrt(self.head_dim)
        scores = scores.masked_fill(self.mask[:T, :T], float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        weights = self.dropout(weights)

        ctx = weights @ V                         # (B, heads, T, head_dim)
        ctx = ctx.transpose(1, 2).contiguous()    # (B, T, heads, head_dim)
        ctx = ctx.view(B, T, self.n_heads * self.head_dim)
        return self.out_proj(ctx)


# ---------------------------------------------------------------------------------------------------------------

ATOL = 1e-6

# (post class, our class, constructor kwargs)
CASES = [
    pytest.param(PostSelfAttention, ours.SelfAttention, dict(d_in=3, d_out=2), id="self"),
    pytest.param(PostSelfAttention, ours.SelfAttention, dict(d_in=5, d_out=4, bias=True), id="self-bias"),
    pytest.param(PostCausalSelfAttention, ours.CausalSelfAttention,
                 dict(d_in=3, d_out=2, context_length=6, dropout=0.1), id="causal"),
    pytest.param(PostCausalSelfAttention, ours.CausalSelfAttention,
                 dict(d_in=4, d_out=6, context_length=8, dropout=0.3, bias=True), id="causal-bias"),
    pytest.param(PostMultiHeadCausalAttentionStacked, ours.MultiHeadCausalAttentionStacked,
                 dict(d_in=3, d_out=4, context_length=6, n_heads=2, dropout=0.2), id="stacked"),
    pytest.param(PostMultiHeadCausalAttention, ours.MultiHeadCausalAttention,
                 dict(d_in=3, d_out=6, context_length=6, n_heads=3, dropout=0.2), id="split"),
    pytest.param(PostMultiHeadCausalAttention, ours.MultiHeadCausalAttention,
                 dict(d_in=5, d_out=8, context_length=7, n_heads=4, dropout=0.1, bias=True), id="split-bias"),
]


def _pair(post_cls, our_cls, kwargs, seed=0):
    torch.manual_seed(seed)
    post = post_cls(**kwargs)
    mine = our_cls(**kwargs)
    mine.load_state_dict(post.state_dict(), strict=True)
    return post, mine


def _input(kwargs, B=3, seed=1):
    g = torch.Generator().manual_seed(seed)
    T = kwargs.get("context_length", 5)
    return torch.randn(B, T, kwargs["d_in"], generator=g)


@pytest.mark.parametrize("post_cls, our_cls, kwargs", CASES)
def test_same_state_dict_keys_shapes_and_buffers(post_cls, our_cls, kwargs):
    post, mine = _pair(post_cls, our_cls, kwargs)
    a, b = post.state_dict(), mine.state_dict()
    assert list(a) == list(b)
    for key in a:
        assert a[key].shape == b[key].shape and a[key].dtype == b[key].dtype, key
    assert [n for n, _ in post.named_parameters()] == [n for n, _ in mine.named_parameters()]
    assert [n for n, _ in post.named_buffers()] == [n for n, _ in mine.named_buffers()]
    # and the other direction loads strictly too
    post.load_state_dict(mine.state_dict(), strict=True)


@pytest.mark.parametrize("post_cls, our_cls, kwargs", CASES)
def test_eval_outputs_match_the_post(post_cls, our_cls, kwargs):
    post, mine = _pair(post_cls, our_cls, kwargs)
    post.eval(), mine.eval()
    x = _input(kwargs)
    with torch.no_grad():
        assert torch.allclose(mine(x), post(x), atol=ATOL, rtol=0)
        # shorter sequences use the top-left of the mask buffer
        assert torch.allclose(mine(x[:, :2]), post(x[:, :2]), atol=ATOL, rtol=0)


@pytest.mark.parametrize("post_cls, our_cls, kwargs", CASES)
def test_training_outputs_match_the_post_from_the_same_rng_state(post_cls, our_cls, kwargs):
    """Our dropout draws its keep-mask the way nn.Dropout does on CPU, so equal seeds give equal outputs."""
    post, mine = _pair(post_cls, our_cls, kwargs)
    post.train(), mine.train()
    x = _input(kwargs)
    torch.manual_seed(123)
    expected = post(x)
    torch.manual_seed(123)
    got = mine(x)
    assert torch.allclose(got, expected, atol=ATOL, rtol=0)


@pytest.mark.parametrize("post_cls, our_cls, kwargs", CASES)
def test_gradients_match_the_post(post_cls, our_cls, kwargs):
    post, mine = _pair(post_cls, our_cls, kwargs)
    post.eval(), mine.eval()
    x = _input(kwargs)
    post(x).square().sum().backward()
    mine(x).square().sum().backward()
    grads_post = dict(post.named_parameters())
    for name, p in mine.named_parameters():
        assert torch.allclose(p.grad, grads_post[name].grad, atol=1e-5, rtol=1e-5), name


def test_posts_quick_check_shapes():
    torch.manual_seed(1)
    x = torch.randn(2, 4, 3)  # batch=2, T=4, d=3
    m = ours.CausalSelfAttention(d_in=3, d_out=2, context_length=4, dropout=0.0)
    y = m(x)
    assert y.shape == (2, 4, 2)
    # "With dropout=0.0 ... confirm the upper triangle is exactly zero."
    w = m.forward_steps(x).weights
    assert torch.all(w[:, torch.triu(torch.ones(4, 4, dtype=torch.bool), diagonal=1)] == 0)


def test_posts_example_usage_shape():
    X = torch.tensor([[0.4, 0.1, -0.2], [0.3, 0.5, 0.1], [0.1, 0.2, 0.6], [0.2, 0.0, 0.3]])
    torch.manual_seed(0)
    attn = ours.SelfAttention(d_in=3, d_out=2)
    torch.manual_seed(0)
    post = PostSelfAttention(d_in=3, d_out=2)
    # same seed, same construction order -> same initial weights as the post's example
    for a, b in zip(attn.parameters(), post.parameters()):
        assert torch.equal(a, b)
    out = attn(X.unsqueeze(0))
    assert out.shape == (1, 4, 2)
    assert torch.allclose(out, post(X.unsqueeze(0)), atol=ATOL)


def test_module_weights_match_scaled_dot_product_formula_by_hand():
    """forward_steps intermediates equal the post's formulas written out here."""
    torch.manual_seed(3)
    m = ours.CausalSelfAttention(3, 4, context_length=5, dropout=0.0, bias=True).eval()
    x = torch.randn(2, 5, 3)
    s = m.forward_steps(x).attention
    Q = x @ m.W_q.weight.T + m.W_q.bias
    K = x @ m.W_k.weight.T + m.W_k.bias
    V = x @ m.W_v.weight.T + m.W_v.bias
    scores = Q @ K.transpose(-2, -1) / 2.0  # sqrt(4)
    assert s.scale == 2.0
    assert torch.allclose(s.scaled_scores, scores, atol=ATOL)
    scores = scores.masked_fill(torch.ones(5, 5).triu(1).bool(), float("-inf"))
    assert torch.allclose(s.weights, F.softmax(scores, -1), atol=ATOL)
    assert torch.allclose(s.output, F.softmax(scores, -1) @ V, atol=ATOL)
