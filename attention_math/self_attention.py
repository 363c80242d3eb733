"""Weight-free self-attention: the embeddings are queries, keys and values at once.

All positions: ``A = softmax(X X^T)``, ``Z = A X``. One query position i: ``omega_j = x_i . x_j``,
``alpha = softmax(omega)``, ``z_i = sum_j alpha_j x_j``.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from .soft import dot_score_terms, weighted_sum
from .validation import check_index, check_min_rank, check_rank


@dataclass(frozen=True, eq=False)
class WeightFreeSteps:
    """softmax(X X^T) X for all positions at once."""

    X: torch.Tensor  # (..., T, d)
    scores: torch.Tensor  # (..., T, T) X X^T
    weights: torch.Tensor  # (..., T, T) A, rows sum to 1
    Z: torch.Tensor  # (..., T, d) A X


def weight_free_self_attention(X: torch.Tensor) -> WeightFreeSteps:
    """All-positions weight-free self-attention over the rows of X (leading dims are batch dims)."""
    X = check_min_rank("X", X, 2)
    scores = X @ X.transpose(-2, -1)
    weights = torch.softmax(scores, dim=-1)
    return WeightFreeSteps(X=X, scores=scores, weights=weights, Z=weights @ X)


@dataclass(frozen=True, eq=False)
class SingleQuerySteps:
    """Steps A-C of the post for one query position i."""

    X: torch.Tensor  # (T, d)
    query_index: int  # 0-based
    query: torch.Tensor  # (d,) x_i
    omega_terms: torch.Tensor  # (T, d) x_i[k] * x_j[k]; row j sums to omega_j
    omega: torch.Tensor  # (T,) x_i . x_j
    alpha: torch.Tensor  # (T,) softmax(omega)
    weighted_x: torch.Tensor  # (T, d) alpha_j * x_j
    z: torch.Tensor  # (d,) sum_j alpha_j x_j


def single_query_steps(X: torch.Tensor, query_index: int) -> SingleQuerySteps:
    """Weight-free attention output for one position, with every per-term product."""
    X = check_rank("X", X, 2)
    check_index("query_index", query_index, X.shape[0])
    query = X[query_index]
    omega_terms = dot_score_terms(query, X)
    omega = omega_terms.sum(dim=1)
    alpha = torch.softmax(omega, dim=0)
    weighted_x, z = weighted_sum(alpha, X)
    return SingleQuerySteps(
        X=X,
        query_index=query_index,
        query=query,
        omega_terms=omega_terms,
        omega=omega,
        alpha=alpha,
        weighted_x=weighted_x,
        z=z,
    )
