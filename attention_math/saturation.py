"""Why divide by sqrt(d_k): dot products of unit-variance vectors grow like sqrt(d_k).

For each d_k, a seeded query and a few keys with N(0, 1) entries; the unscaled softmax tends towards one-hot
as d_k grows, the scaled one does not. Also the Frobenius norm of the softmax Jacobian
(diag(a) - a a^T), which collapses towards 0 when the softmax saturates (the post's "gradients become very small").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import torch

from .validation import check_positive_int, check_rank


@dataclass(frozen=True, eq=False)
class SaturationCase:
    """One d_k: scores and weights with and without the 1/sqrt(d_k) scale."""

    d_k: int
    q: torch.Tensor  # (d_k,)
    keys: torch.Tensor  # (n_keys, d_k)
    scale: float  # sqrt(d_k)
    unscaled_scores: torch.Tensor  # (n_keys,) q . k_j
    scaled_scores: torch.Tensor  # (n_keys,) q . k_j / sqrt(d_k)
    unscaled_weights: torch.Tensor  # softmax(unscaled_scores)
    scaled_weights: torch.Tensor  # softmax(scaled_scores)
    unscaled_max: float  # max of unscaled_weights
    scaled_max: float  # max of scaled_weights
    unscaled_grad_norm: float  # ||diag(a) - a a^T||_F for the unscaled weights
    scaled_grad_norm: float


def softmax_jacobian_norm(weights: torch.Tensor) -> float:
    """Frobenius norm of d softmax / d scores = diag(a) - a a^T."""
    weights = check_rank("weights", weights, 1)
    J = torch.diag(weights) - torch.outer(weights, weights)
    return float(J.norm())


def saturation_case(q: torch.Tensor, keys: torch.Tensor) -> SaturationCase:
    """Compare softmax(q . k) with softmax(q . k / sqrt(d_k)) for one query and its keys."""
    q = check_rank("q", q, 1)
    keys = check_rank("keys", keys, 2)
    if keys.shape[1] != q.shape[0]:
        raise ValueError(f"query/key size mismatch: q {tuple(q.shape)} vs keys {tuple(keys.shape)}")
    d_k = q.shape[0]
    scale = math.sqrt(d_k)
    unscaled = keys @ q
    scaled = unscaled / scale
    wu = torch.softmax(unscaled, dim=0)
    ws = torch.softmax(scaled, dim=0)
    return SaturationCase(
        d_k=d_k,
        q=q,
        keys=keys,
        scale=scale,
        unscaled_scores=unscaled,
        scaled_scores=scaled,
        unscaled_weights=wu,
        scaled_weights=ws,
        unscaled_max=float(wu.max()),
        scaled_max=float(ws.max()),
        unscaled_grad_norm=softmax_jacobian_norm(wu),
        scaled_grad_norm=softmax_jacobian_norm(ws),
    )


def seeded_saturation_cases(d_ks: Sequence[int], n_keys: int, seed: int) -> tuple[SaturationCase, ...]:
    """One case per d_k; each draws q and keys from its own ``torch.Generator(seed + d_k)``."""
    check_positive_int("n_keys", n_keys)
    cases = []
    for d_k in d_ks:
        check_positive_int("d_k", d_k)
        g = torch.Generator().manual_seed(seed + d_k)
        q = torch.randn(d_k, generator=g)
        keys = torch.randn(n_keys, d_k, generator=g)
        cases.append(saturation_case(q, keys))
    return tuple(cases)
