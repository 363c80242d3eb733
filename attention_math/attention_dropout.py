"""Dropout on attention weights: zero some mixing coefficients, rescale the rest by 1/(1-p).

Applied after the softmax and before the multiplication by V. In eval mode (or with p == 0) it is the
identity. The keep-mask is returned so a scene can show exactly which weights were dropped.
"""

from __future__ import annotations

import torch

from .validation import check_dropout, check_tensor


def draw_keep_mask(weights: torch.Tensor, p: float, generator: torch.Generator | None = None) -> torch.Tensor:
    """Bernoulli(1-p) keep-mask (bool, True = kept), shaped like ``weights``.

    Draws ``bernoulli_(1 - p)`` on a tensor like ``weights``, which is how ``torch.nn.functional.dropout``
    draws its noise on CPU, so with the same global RNG state (generator=None) the same entries drop.
    """
    p = check_dropout(p)
    noise = torch.empty_like(weights).bernoulli_(1.0 - p, generator=generator)
    return noise.bool()


def apply_attention_dropout(
    weights: torch.Tensor,
    p: float,
    training: bool,
    keep_mask: torch.Tensor | None = None,
    generator: torch.Generator | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Return (keep_mask, dropped_weights).

    training and p > 0: dropped = weights * keep / (1 - p), with ``keep_mask`` drawn unless given.
    Otherwise: identity, and keep_mask is all True.
    """
    weights = check_tensor("weights", weights)
    p = check_dropout(p)
    if not training or p == 0.0:
        return torch.ones_like(weights, dtype=torch.bool), weights
    if keep_mask is None:
        keep_mask = draw_keep_mask(weights, p, generator)
    elif keep_mask.shape != weights.shape or keep_mask.dtype != torch.bool:
        raise ValueError(
            f"keep_mask must be a bool tensor shaped like weights {tuple(weights.shape)}, "
            f"got {keep_mask.dtype} {tuple(keep_mask.shape)}"
        )
    scale = keep_mask.to(weights.dtype) / (1.0 - p)
    return keep_mask, weights * scale
