"""The post's attention modules, with the post's class names, signatures, and parameter/buffer names.

A ``state_dict`` saved from the post's own code loads here with ``strict=True`` and gives the same outputs.
Each module's ``forward`` is ``forward_steps(x).output``, and ``forward_steps`` calls the functional code
(``qkv``, ``scaled``, ``multihead``), so there is one implementation of the math. Unlike the post's code,
bad input raises ``ValueError`` (rank, width, T > context_length, n_heads, dropout range, dtype).

Input layout for every module: x of shape (B, T, d_in), with exactly the dtype of the module's weights
(float32 unless the module was converted, e.g. with ``.double()``): torch does not promote in matmul, so a
float64, float16 or integer x into float32 weights is refused with a ValueError naming both dtypes.
"""

from __future__ import annotations

import torch
import torch.nn as nn

from .multihead import HeadWeights, MultiHeadSteps, SplitWeights, StackedSteps, multihead_stacked_steps, multihead_steps
from .qkv import QKVSteps, qkv_attention_steps
from .validation import (
    check_context,
    check_dropout,
    check_dtype,
    check_heads,
    check_positive_int,
    check_rank,
    check_size,
)

__all__ = ["SelfAttention", "CausalSelfAttention", "MultiHeadCausalAttentionStacked", "MultiHeadCausalAttention"]


def _check_input(module: nn.Module, x: object, d_in: int, context_length: int | None = None) -> torch.Tensor:
    # The first parameter is the first projection x meets (W_q, or the first head's W_q).
    check_dtype("x", x, next(module.parameters()).dtype, "the dtype of the module's weights")
    x = check_rank("x", x, 3)
    check_size("x", x, 2, d_in, "d_in")
    if x.shape[1] == 0:
        raise ValueError(f"x has an empty sequence (shape {tuple(x.shape)}); need T >= 1")
    if context_length is not None:
        check_context(x.shape[1], context_length)
    return x


def _math(linear: nn.Linear) -> tuple[torch.Tensor, torch.Tensor | None]:
    """nn.Linear stores (out, in); the functional code uses the math layout (in, out)."""
    return linear.weight.T, linear.bias


def _causal_mask_buffer(context_length: int) -> torch.Tensor:
    # True above the diagonal = future key positions (same construction as the post).
    return torch.triu(torch.ones(context_length, context_length), diagonal=1).bool()


class SelfAttention(nn.Module):
    """Non-causal scaled Q/K/V self-attention (the post's ``SelfAttention``)."""

    def __init__(self, d_in: int, d_out: int, bias: bool = False):
        super().__init__()
        self.d_in = check_positive_int("d_in", d_in)
        check_positive_int("d_out", d_out)
        self.W_q = nn.Linear(d_in, d_out, bias=bias)
        self.W_k = nn.Linear(d_in, d_out, bias=bias)
        self.W_v = nn.Linear(d_in, d_out, bias=bias)

    def forward_steps(self, x: torch.Tensor) -> QKVSteps:
        """Every intermediate (Q, K, V, scores, weights, output) for x (B, T, d_in)."""
        x = _check_input(self, x, self.d_in)
        (W_q, b_q), (W_k, b_k), (W_v, b_v) = _math(self.W_q), _math(self.W_k), _math(self.W_v)
        return qkv_attention_steps(x, W_q, W_k, W_v, b_q=b_q, b_k=b_k, b_v=b_v)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """(B, T, d_in) -> (B, T, d_out)."""
        return self.forward_steps(x).output


class CausalSelfAttention(nn.Module):
    """Causal Q/K/V self-attention with dropout on the weights (the post's ``CausalSelfAttention``)."""

    mask: torch.Tensor  # the causal-mask buffer (register_buffer), declared for type checkers

    def __init__(self, d_in: int, d_out: int, context_length: int, dropout: float = 0.1, bias: bool = False):
        super().__init__()
        self.d_in = check_positive_int("d_in", d_in)
        check_positive_int("d_out", d_out)
        self.context_length = check_positive_int("context_length", context_length)
        p = check_dropout(dropout)
        self.W_q = nn.Linear(d_in, d_out, bias=bias)
        self.W_k = nn.Linear(d_in, d_out, bias=bias)
        self.W_v = nn.Linear(d_in, d_out, bias=bias)
        self.dropout = nn.Dropout(p)
        self.register_buffer("mask", _causal_mask_buffer(context_length))  # fixed tensor, not a learned param

    def forward_steps(self, x: torch.Tensor, generator: torch.Generator | None = None) -> QKVSteps:
        """Every intermediate, including the causal mask, the dropout keep-mask and the dropped weights.

        Dropout acts only in training mode; with generator=None it draws from the global RNG the way
        ``nn.Dropout`` does.
        """
        x = _check_input(self, x, self.d_in, self.context_length)
        T = x.shape[1]
        (W_q, b_q), (W_k, b_k), (W_v, b_v) = _math(self.W_q), _math(self.W_k), _math(self.W_v)
        return qkv_attention_steps(
            x, W_q, W_k, W_v, b_q=b_q, b_k=b_k, b_v=b_v,
            mask=self.mask[:T, :T], p=self.dropout.p, training=self.training, generator=generator,
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """(B, T, d_in) -> (B, T, d_out), T <= context_length."""
        return self.forward_steps(x).output

    def head_weights(self) -> HeadWeights:
        """This module's projections in math layout (d_in, d_out), for layout conversion."""
        (W_q, b_q), (W_k, b_k), (W_v, b_v) = _math(self.W_q), _math(self.W_k), _math(self.W_v)
        return HeadWeights(W_q=W_q, W_k=W_k, W_v=W_v, b_q=b_q, b_k=b_k, b_v=b_v)


class MultiHeadCausalAttentionStacked(nn.Module):
    """Multi-head attention as n_heads separate CausalSelfAttention modules, concat, out_proj."""

    def __init__(self, d_in: int, d_out: int, context_length: int, n_heads: int, dropout: float = 0.1):
        super().__init__()
        head_dim = check_heads(d_out, n_heads)
        self.d_in = check_positive_int("d_in", d_in)
        self.context_length = check_positive_int("context_length", context_length)
        check_dropout(dropout)
        self.heads = nn.ModuleList(
            [CausalSelfAttention(d_in, head_dim, context_length, dropout) for _ in range(n_heads)]
        )
        self.out_proj = nn.Linear(d_out, d_out)

    def forward_steps(self, x: torch.Tensor, generator: torch.Generator | None = None) -> StackedSteps:
        """Per-head intermediates, the concatenation and the output."""
        x = _check_input(self, x, self.d_in, self.context_length)
        T = x.shape[1]
        W_o, b_o = _math(self.out_proj)
        heads = self.head_modules()
        return multihead_stacked_steps(
            x, [h.head_weights() for h in heads], W_o, b_o,
            mask=heads[0].mask[:T, :T], p=heads[0].dropout.p, training=self.training, generator=generator,
        )

    def head_modules(self) -> list[CausalSelfAttention]:
        """The heads (``self.heads``, an nn.ModuleList, whose items a type checker sees as plain Modules)."""
        heads = [h for h in self.heads if isinstance(h, CausalSelfAttention)]
        if len(heads) != len(self.heads):
            raise TypeError("every item of heads must be a CausalSelfAttention")
        return heads

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """(B, T, d_in) -> (B, T, d_out)."""
        return self.forward_steps(x).output


class MultiHeadCausalAttention(nn.Module):
    """Multi-head attention with wide projections split into heads (the post's "Approach 2")."""

    mask: torch.Tensor  # the causal-mask buffer (register_buffer), declared for type checkers

    def __init__(
        self, d_in: int, d_out: int, context_length: int, n_heads: int, dropout: float = 0.1, bias: bool = False
    ):
        super().__init__()
        self.head_dim = check_heads(d_out, n_heads)
        self.n_heads = n_heads
        self.d_in = check_positive_int("d_in", d_in)
        self.context_length = check_positive_int("context_length", context_length)
        p = check_dropout(dropout)
        self.W_q = nn.Linear(d_in, d_out, bias=bias)
        self.W_k = nn.Linear(d_in, d_out, bias=bias)
        self.W_v = nn.Linear(d_in, d_out, bias=bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(p)
        self.register_buffer("mask", _causal_mask_buffer(context_length))

    def split_weights(self) -> SplitWeights:
        """The wide projections in math layout (d_in, d_out), for layout conversion."""
        (W_q, b_q), (W_k, b_k), (W_v, b_v) = _math(self.W_q), _math(self.W_k), _math(self.W_v)
        return SplitWeights(W_q=W_q, W_k=W_k, W_v=W_v, b_q=b_q, b_k=b_k, b_v=b_v)

    def forward_steps(self, x: torch.Tensor, generator: torch.Generator | None = None) -> MultiHeadSteps:
        """Wide Q/K/V, per-head Q/K/V, per-head scores/weights/outputs, concat and output."""
        x = _check_input(self, x, self.d_in, self.context_length)
        T = x.shape[1]
        W_o, b_o = _math(self.out_proj)
        return multihead_steps(
            x, self.split_weights(), W_o, b_o, n_heads=self.n_heads,
            mask=self.mask[:T, :T], p=self.dropout.p, training=self.training, generator=generator,
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """(B, T, d_in) -> (B, T, d_out)."""
        return self.forward_steps(x).output
