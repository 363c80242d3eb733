"""Soft (encoder-decoder) attention: score every encoder state, softmax, weighted sum.

Two score functions from the post: a plain dot product ``e_i = q . h_i`` and a small MLP over the
concatenation ``[q; h_i]`` (additive / Bahdanau-style). The step functions return every intermediate so a
scene can show each number without recomputing anything.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from .validation import check_bias, check_positive_int, check_rank, check_size


@dataclass(frozen=True, eq=False)
class QueryProjection:
    """q = W_q s, with the per-term products of the matrix-vector product.

    terms[r, c] = W_q[r, c] * s[c]; summing row r gives q[r].
    """

    W_q: torch.Tensor  # (d_q, d_s)
    s: torch.Tensor  # (d_s,)
    terms: torch.Tensor  # (d_q, d_s)
    q: torch.Tensor  # (d_q,)


def project_query(W_q: torch.Tensor, s: torch.Tensor, bias: torch.Tensor | None = None) -> QueryProjection:
    """Map a decoder state to a query, q = W_q s (+ bias), keeping the row-by-row products."""
    W_q = check_rank("W_q", W_q, 2)
    s = check_rank("s", s, 1)
    check_size("s", s, 0, W_q.shape[1], "W_q's column count")
    bias = check_bias("bias", bias, W_q.shape[0])
    terms = W_q * s.unsqueeze(0)
    q = terms.sum(dim=1)
    if bias is not None:
        q = q + bias
    return QueryProjection(W_q=W_q, s=s, terms=terms, q=q)


@dataclass(frozen=True, eq=False)
class AdditiveScorer:
    """A small MLP score e_i = w2 . tanh(W1 [q; h_i] + b1), with fixed (seeded) parameters."""

    W1: torch.Tensor  # (hidden, d_q + d_h)
    b1: torch.Tensor  # (hidden,)
    w2: torch.Tensor  # (hidden,)

    @property
    def hidden_size(self) -> int:
        return self.W1.shape[0]

    def hidden(self, q: torch.Tensor, H: torch.Tensor) -> torch.Tensor:
        """tanh(W1 [q; h_i] + b1) for every row h_i of H, shape (T, hidden)."""
        q, H = _check_query_states(q, H)
        pairs = torch.cat([q.expand(H.shape[0], -1), H], dim=1)  # (T, d_q + d_h)
        check_size("[q; h_i]", pairs, 1, self.W1.shape[1], "W1's input width")
        return torch.tanh(pairs @ self.W1.T + self.b1)

    def __call__(self, q: torch.Tensor, H: torch.Tensor) -> torch.Tensor:
        """Scores e_i, shape (T,)."""
        return self.hidden(q, H) @ self.w2


def seeded_additive_scorer(d_q: int, d_h: int, hidden: int, seed: int, scale: float = 1.0) -> AdditiveScorer:
    """An AdditiveScorer with N(0, scale^2 / fan_in) parameters drawn from ``torch.Generator(seed)``."""
    for name, value in (("d_q", d_q), ("d_h", d_h), ("hidden", hidden)):
        check_positive_int(name, value)
    g = torch.Generator().manual_seed(seed)
    fan_in = d_q + d_h
    W1 = torch.randn(hidden, fan_in, generator=g) * (scale / fan_in**0.5)
    b1 = torch.randn(hidden, generator=g) * 0.1
    w2 = torch.randn(hidden, generator=g) * (scale / hidden**0.5)
    return AdditiveScorer(W1=W1, b1=b1, w2=w2)


@dataclass(frozen=True, eq=False)
class SoftAttentionSteps:
    """Every intermediate of one soft-attention step over encoder states H (rows h_i)."""

    q: torch.Tensor  # (d,)
    H: torch.Tensor  # (T, d)
    scores: torch.Tensor  # (T,) e_i
    weights: torch.Tensor  # (T,) alpha_i = softmax(e)_i
    weighted_h: torch.Tensor  # (T, d) alpha_i * h_i
    context: torch.Tensor  # (d,) c = sum_i alpha_i h_i


def _check_query_states(q: torch.Tensor, H: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    q = check_rank("q", q, 1)
    H = check_rank("H", H, 2)
    return q, H


def dot_score_terms(q: torch.Tensor, H: torch.Tensor) -> torch.Tensor:
    """terms[i, k] = q[k] * H[i, k]; summing row i gives the dot-product score e_i."""
    q, H = _check_query_states(q, H)
    check_size("H", H, 1, q.shape[0], "the query width")
    return H * q.unsqueeze(0)


def dot_scores(q: torch.Tensor, H: torch.Tensor) -> torch.Tensor:
    """e_i = q . h_i for every row of H."""
    return dot_score_terms(q, H).sum(dim=1)


def weighted_sum(weights: torch.Tensor, H: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(alpha_i * h_i rows, their sum c): the context vector and its parts."""
    weights = check_rank("weights", weights, 1)
    H = check_rank("H", H, 2)
    check_size("weights", weights, 0, H.shape[0], "one weight per row of H")
    parts = H * weights.unsqueeze(1)
    return parts, parts.sum(dim=0)


def soft_attention_steps(q: torch.Tensor, H: torch.Tensor, scorer: AdditiveScorer | None = None) -> SoftAttentionSteps:
    """Soft attention with a dot-product score (scorer=None) or an additive MLP score."""
    q, H = _check_query_states(q, H)
    scores = dot_scores(q, H) if scorer is None else scorer(q, H)
    weights = torch.softmax(scores, dim=0)
    parts, context = weighted_sum(weights, H)
    return SoftAttentionSteps(q=q, H=H, scores=scores, weights=weights, weighted_h=parts, context=context)
