"""Convert weights between the stacked and split multi-head modules (both directions, equal outputs).

Head h of the split module owns output columns [h*head_dim, (h+1)*head_dim) of W_q/W_k/W_v; out_proj is
shared unchanged. The post's stacked heads have no Q/K/V bias, so a split module built with bias=True
cannot be converted to the stacked layout.
"""

from __future__ import annotations

import torch

from .modules import MultiHeadCausalAttention, MultiHeadCausalAttentionStacked
from .multihead import split_to_stacked, stacked_to_split


def _copy_linear(linear: torch.nn.Linear, W_math: torch.Tensor, b: torch.Tensor | None) -> None:
    with torch.no_grad():
        linear.weight.copy_(W_math.T)
        if b is not None:
            linear.bias.copy_(b)


def split_from_stacked(stacked: MultiHeadCausalAttentionStacked) -> MultiHeadCausalAttention:
    """A MultiHeadCausalAttention holding the same numbers as ``stacked``."""
    if not isinstance(stacked, MultiHeadCausalAttentionStacked):
        raise ValueError(f"expected MultiHeadCausalAttentionStacked, got {type(stacked).__name__}")
    heads = stacked.head_modules()
    first = heads[0]
    d_out = stacked.out_proj.in_features
    has_bias = first.W_q.bias is not None
    split = MultiHeadCausalAttention(
        first.W_q.in_features, d_out, stacked.context_length, len(heads), first.dropout.p, bias=has_bias
    )
    wide = stacked_to_split([h.head_weights() for h in heads])
    _copy_linear(split.W_q, wide.W_q, wide.b_q)
    _copy_linear(split.W_k, wide.W_k, wide.b_k)
    _copy_linear(split.W_v, wide.W_v, wide.b_v)
    split.out_proj.load_state_dict(stacked.out_proj.state_dict())
    split.train(stacked.training)
    return split.to(stacked.out_proj.weight.device)


def stacked_from_split(split: MultiHeadCausalAttention) -> MultiHeadCausalAttentionStacked:
    """A MultiHeadCausalAttentionStacked holding the same numbers as ``split`` (which must have no Q/K/V bias)."""
    if not isinstance(split, MultiHeadCausalAttention):
        raise ValueError(f"expected MultiHeadCausalAttention, got {type(split).__name__}")
    if split.W_q.bias is not None:
        raise ValueError("the post's stacked heads have no Q/K/V bias; cannot convert a split module built with bias=True")
    d_out = split.out_proj.in_features
    stacked = MultiHeadCausalAttentionStacked(
        split.W_q.in_features, d_out, split.context_length, split.n_heads, split.dropout.p
    )
    for head, hw in zip(stacked.heads, split_to_stacked(split.split_weights(), split.n_heads)):
        _copy_linear(head.W_q, hw.W_q, None)
        _copy_linear(head.W_k, hw.W_k, None)
        _copy_linear(head.W_v, hw.W_v, None)
    stacked.out_proj.load_state_dict(split.out_proj.state_dict())
    stacked.train(split.training)
    return stacked.to(split.out_proj.weight.device)
