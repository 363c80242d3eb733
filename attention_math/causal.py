"""Causal attention: query i may use only keys j <= i.

The right order masks the scores with -inf *before* the softmax, so each row is a distribution over the
allowed keys. The wrong order (softmax first, then zero the future) is kept here too, because the post warns
about it: its rows no longer sum to 1.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from .scaled import AttentionSteps, attention_steps, causal_mask
from .validation import check_min_rank

__all__ = ["causal_mask", "causal_attention_steps", "WrongOrderSteps", "wrong_order_steps"]


def causal_attention_steps(
    Q: torch.Tensor,
    K: torch.Tensor,
    V: torch.Tensor,
    *,
    p: float = 0.0,
    training: bool = False,
    keep_mask: torch.Tensor | None = None,
    generator: torch.Generator | None = None,
) -> AttentionSteps:
    """Scaled scores -> causal mask (-inf) -> softmax -> dropout -> @ V."""
    return attention_steps(Q, K, V, causal=True, p=p, training=training, keep_mask=keep_mask, generator=generator)


@dataclass(frozen=True, eq=False)
class WrongOrderSteps:
    """Softmax over ALL keys first, then zero the future: not a distribution over the allowed keys."""

    scores: torch.Tensor  # (..., T, T)
    mask: torch.Tensor  # (T, T) bool, True = future
    unmasked_weights: torch.Tensor  # softmax(scores) over every key, future included
    weights: torch.Tensor  # unmasked_weights with the future set to 0
    row_sums: torch.Tensor  # (..., T) < 1 for every row that had a future key


def wrong_order_steps(scores: torch.Tensor) -> WrongOrderSteps:
    """What happens if the mask is applied after the softmax instead of before it."""
    scores = check_min_rank("scores", scores, 2)
    T = scores.shape[-1]
    if scores.shape[-2] != T:
        raise ValueError(f"scores must be square in the last two dims, got shape {tuple(scores.shape)}")
    mask = causal_mask(T, device=scores.device)
    unmasked = torch.softmax(scores, dim=-1)
    weights = unmasked.masked_fill(mask, 0.0)
    return WrongOrderSteps(scores=scores, mask=mask, unmasked_weights=unmasked, weights=weights, row_sums=weights.sum(-1))
