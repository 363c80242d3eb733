"""Scaled dot-product attention on given Q, K, V, with an optional causal mask and dropout.

The one place the post's five-step order lives: scaled scores -> causal mask (-inf) -> softmax over keys ->
dropout on the weights -> multiply by V. Every other function and module calls this.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from .attention_dropout import apply_attention_dropout
from .validation import check_dropout, check_qkv


@dataclass(frozen=True, eq=False)
class AttentionSteps:
    """Every intermediate of softmax(mask(Q K^T / sqrt(d_k))) -> dropout -> @ V.

    Shapes use leading batch dims ``...`` (e.g. (B,), (B, heads) or none).
    """

    Q: torch.Tensor  # (..., T_q, d_k)
    K: torch.Tensor  # (..., T_k, d_k)
    V: torch.Tensor  # (..., T_k, d_v)
    raw_scores: torch.Tensor  # (..., T_q, T_k) Q K^T
    scale: float  # sqrt(d_k)
    scaled_scores: torch.Tensor  # (..., T_q, T_k) Q K^T / sqrt(d_k)
    mask: torch.Tensor | None  # (T_q, T_k) bool, True above the diagonal = future; None if not causal
    masked_scores: torch.Tensor  # scaled scores with -inf where mask is True (== scaled_scores if not causal)
    weights: torch.Tensor  # (..., T_q, T_k) softmax over keys, rows sum to 1
    p: float  # dropout probability
    training: bool
    keep_mask: torch.Tensor  # bool like weights; all True when no dropout was applied
    dropped_weights: torch.Tensor  # weights * keep / (1 - p) in training, else weights
    output: torch.Tensor  # (..., T_q, d_v) dropped_weights @ V


def causal_mask(T: int, device: torch.device | str | None = None) -> torch.Tensor:
    """(T, T) bool, True strictly above the diagonal: the future keys a query may not see."""
    return torch.triu(torch.ones(T, T, dtype=torch.bool, device=device), diagonal=1)


def attention_steps(
    Q: torch.Tensor,
    K: torch.Tensor,
    V: torch.Tensor,
    *,
    causal: bool = False,
    mask: torch.Tensor | None = None,
    p: float = 0.0,
    training: bool = False,
    keep_mask: torch.Tensor | None = None,
    generator: torch.Generator | None = None,
) -> AttentionSteps:
    """Scaled dot-product attention with all intermediates.

    causal=True builds the (T, T) future mask (T_q must equal T_k) unless ``mask`` (bool, True = blocked)
    is given, e.g. a slice of a module's buffer. Dropout with probability ``p`` acts only when ``training``.
    """
    Q, K, V = check_qkv(Q, K, V)
    p = check_dropout(p)
    T_q, T_k = Q.shape[-2], K.shape[-2]
    if causal and mask is None:
        if T_q != T_k:
            raise ValueError(f"causal attention needs as many queries as keys, got T_q={T_q} and T_k={T_k}")
        mask = causal_mask(T_q, device=Q.device)
    if mask is not None and (tuple(mask.shape) != (T_q, T_k) or mask.dtype != torch.bool):
        raise ValueError(f"mask must be bool with shape ({T_q}, {T_k}), got {mask.dtype} {tuple(mask.shape)}")
    scale = math.sqrt(K.shape[-1])
    raw = Q @ K.transpose(-2, -1)
    scaled = raw / scale
    masked = scaled if mask is None else scaled.masked_fill(mask, float("-inf"))
    weights = torch.softmax(masked, dim=-1)
    keep, dropped = apply_attention_dropout(weights, p, training, keep_mask, generator)
    return AttentionSteps(
        Q=Q,
        K=K,
        V=V,
        raw_scores=raw,
        scale=scale,
        scaled_scores=scaled,
        mask=mask,
        masked_scores=masked,
        weights=weights,
        p=p,
        training=training,
        keep_mask=keep,
        dropped_weights=dropped,
        output=dropped @ V,
    )
