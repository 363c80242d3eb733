"""Trainable queries, keys and values: Q = X W_Q, K = X W_K, V = X W_V, then scaled attention.

Weights here use the post's math layout (d_in, d_out), applied as ``X @ W``; an ``nn.Linear`` stores the
transpose, so pass ``linear.weight.T``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from .scaled import AttentionSteps, attention_steps
from .soft import dot_score_terms, weighted_sum
from .validation import check_bias, check_index, check_min_rank, check_projection, check_rank


def project(X: torch.Tensor, W: torch.Tensor, b: torch.Tensor | None = None, name: str = "W") -> torch.Tensor:
    """X @ W (+ b) for X (..., T, d_in) and W (d_in, d_out)."""
    X = check_min_rank("X", X, 2)
    W = check_projection(name, W, X.shape[-1])
    b = check_bias(f"bias of {name}", b, W.shape[1])
    out = X @ W
    return out if b is None else out + b


@dataclass(frozen=True, eq=False)
class QKVSteps:
    """Projections plus every step of scaled (optionally causal) attention."""

    X: torch.Tensor  # (..., T, d_in)
    W_q: torch.Tensor  # (d_in, d_k)
    W_k: torch.Tensor  # (d_in, d_k)
    W_v: torch.Tensor  # (d_in, d_v)
    attention: AttentionSteps  # Q, K, V, raw_scores, scale, scaled_scores, mask, ..., output

    # Shortcuts to the most shown fields.
    @property
    def Q(self) -> torch.Tensor:
        return self.attention.Q

    @property
    def K(self) -> torch.Tensor:
        return self.attention.K

    @property
    def V(self) -> torch.Tensor:
        return self.attention.V

    @property
    def weights(self) -> torch.Tensor:
        return self.attention.weights

    @property
    def output(self) -> torch.Tensor:
        return self.attention.output


def qkv_attention_steps(
    X: torch.Tensor,
    W_q: torch.Tensor,
    W_k: torch.Tensor,
    W_v: torch.Tensor,
    *,
    b_q: torch.Tensor | None = None,
    b_k: torch.Tensor | None = None,
    b_v: torch.Tensor | None = None,
    causal: bool = False,
    mask: torch.Tensor | None = None,
    p: float = 0.0,
    training: bool = False,
    keep_mask: torch.Tensor | None = None,
    generator: torch.Generator | None = None,
) -> QKVSteps:
    """softmax(mask(X W_Q (X W_K)^T / sqrt(d_k))) -> dropout -> @ X W_V, with every intermediate."""
    X = check_min_rank("X", X, 2)
    Q = project(X, W_q, b_q, "W_q")
    K = project(X, W_k, b_k, "W_k")
    V = project(X, W_v, b_v, "W_v")
    steps = attention_steps(
        Q, K, V, causal=causal, mask=mask, p=p, training=training, keep_mask=keep_mask, generator=generator
    )
    return QKVSteps(X=X, W_q=W_q, W_k=W_k, W_v=W_v, attention=steps)


@dataclass(frozen=True, eq=False)
class QueryRowSteps:
    """The post's "step-by-step for one query row" i, with per-term products."""

    query_index: int
    x: torch.Tensor  # (d_in,) x_i
    q_terms: torch.Tensor  # (d_in, d_k) x_i[c] * W_q[c, k]; column k sums to q_i[k]
    q: torch.Tensor  # (d_k,) q_i = x_i W_Q
    score_terms: torch.Tensor  # (T, d_k) q_i[k] * K[j, k]; row j sums to raw_scores[j]
    raw_scores: torch.Tensor  # (T,) q_i . k_j
    scale: float  # sqrt(d_k)
    scaled_scores: torch.Tensor  # (T,) omega_ij = q_i . k_j / sqrt(d_k)
    weights: torch.Tensor  # (T,) alpha_ij
    weighted_v: torch.Tensor  # (T, d_v) alpha_ij * v_j
    z: torch.Tensor  # (d_v,) z_i = sum_j alpha_ij v_j


def query_row_steps(X: torch.Tensor, W_q: torch.Tensor, K: torch.Tensor, V: torch.Tensor, query_index: int) -> QueryRowSteps:
    """Non-causal scaled attention for one query row of a 2-D X, every product spelled out."""
    X = check_rank("X", X, 2)
    check_index("query_index", query_index, X.shape[0])
    W_q = check_projection("W_q", W_q, X.shape[1])
    K = check_rank("K", K, 2)
    V = check_rank("V", V, 2)
    x = X[query_index]
    q_terms = x.unsqueeze(1) * W_q
    q = q_terms.sum(dim=0)
    if K.shape[1] != q.shape[0]:
        raise ValueError(f"query/key size mismatch: q has {q.shape[0]} dims, K has shape {tuple(K.shape)}")
    if V.shape[0] != K.shape[0]:
        raise ValueError(f"key/value length mismatch: K {tuple(K.shape)} and V {tuple(V.shape)} need the same rows")
    score_terms = dot_score_terms(q, K)
    raw = score_terms.sum(dim=1)
    scale = math.sqrt(K.shape[1])
    scaled = raw / scale
    weights = torch.softmax(scaled, dim=0)
    weighted_v, z = weighted_sum(weights, V)
    return QueryRowSteps(
        query_index=query_index,
        x=x,
        q_terms=q_terms,
        q=q,
        score_terms=score_terms,
        raw_scores=raw,
        scale=scale,
        scaled_scores=scaled,
        weights=weights,
        weighted_v=weighted_v,
        z=z,
    )
