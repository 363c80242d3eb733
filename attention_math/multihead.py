"""Multi-head causal attention in the post's two layouts, and conversion between them.

Split layout ("one big matrix multiply, then split"): wide W_Q/W_K/W_V of shape (d_in, d_out), the width
reshaped into n_heads blocks of head_dim columns. Stacked layout ("stack single-head modules"): one
(d_in, head_dim) triple per head. Head h of the split layout is columns [h*head_dim, (h+1)*head_dim) of the
wide matrices, so the two layouts hold the same numbers and give the same outputs (without dropout).
Weights use the math layout (d_in, d_out), applied as ``X @ W``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch

from .qkv import project
from .scaled import AttentionSteps, attention_steps
from .validation import check_bias, check_heads, check_min_rank, check_projection, check_rank


def split_heads(t: torch.Tensor, n_heads: int) -> torch.Tensor:
    """(..., T, d_out) -> (..., n_heads, T, head_dim), as the post's ``_split_heads``."""
    t = check_min_rank("tensor to split", t, 2)
    head_dim = check_heads(t.shape[-1], n_heads)
    t = t.reshape(*t.shape[:-1], n_heads, head_dim)
    return t.transpose(-3, -2)


def merge_heads(t: torch.Tensor) -> torch.Tensor:
    """(..., n_heads, T, head_dim) -> (..., T, n_heads * head_dim): concatenate the heads along the width."""
    t = check_min_rank("tensor to merge", t, 3)
    t = t.transpose(-3, -2)
    return t.reshape(*t.shape[:-2], t.shape[-2] * t.shape[-1])


@dataclass(frozen=True, eq=False)
class ProjectionWeights:
    """The query, key and value projections (d_in, width) and optional biases (width,): one head's (width = head_dim)
    or the split layout's wide ones (width = d_out). The two layouts hold the same fields, so they are one type."""

    W_q: torch.Tensor
    W_k: torch.Tensor
    W_v: torch.Tensor
    b_q: torch.Tensor | None = None
    b_k: torch.Tensor | None = None
    b_v: torch.Tensor | None = None


#: One head's projections (d_in, head_dim): the stacked layout's part.
HeadWeights = ProjectionWeights
#: The split layout's wide projections (d_in, d_out).
SplitWeights = ProjectionWeights


def _matrix_columns(t: torch.Tensor, n_heads: int) -> list[torch.Tensor]:
    head_dim = check_heads(t.shape[-1], n_heads)
    return [t[..., h * head_dim : (h + 1) * head_dim].clone() for h in range(n_heads)]


def _columns(t: torch.Tensor | None, n_heads: int) -> list[torch.Tensor | None]:
    if t is None:
        return [None] * n_heads
    return list(_matrix_columns(t, n_heads))


def split_to_stacked(weights: SplitWeights, n_heads: int) -> tuple[HeadWeights, ...]:
    """Cut the wide matrices into n_heads column blocks, one HeadWeights per head."""
    W_q, W_k, W_v = (_matrix_columns(m, n_heads) for m in (weights.W_q, weights.W_k, weights.W_v))
    b_q, b_k, b_v = (_columns(b, n_heads) for b in (weights.b_q, weights.b_k, weights.b_v))
    return tuple(HeadWeights(W_q[h], W_k[h], W_v[h], b_q[h], b_k[h], b_v[h]) for h in range(n_heads))


def stacked_to_split(heads: Sequence[HeadWeights]) -> SplitWeights:
    """Concatenate per-head matrices along the output width (head 0 first)."""
    if len(heads) == 0:
        raise ValueError("need at least one head to convert")

    def cat(name: str) -> torch.Tensor | None:
        values: list[torch.Tensor | None] = [getattr(h, name) for h in heads]
        present = [v for v in values if v is not None]
        if not present:
            return None
        if len(present) < len(values):
            raise ValueError(f"{name} is set on some heads but not others")
        return torch.cat(present, dim=-1)

    def cat_matrix(name: str) -> torch.Tensor:
        matrix = cat(name)
        if matrix is None:
            raise ValueError(f"no head has {name}")
        return matrix

    return SplitWeights(cat_matrix("W_q"), cat_matrix("W_k"), cat_matrix("W_v"), cat("b_q"), cat("b_k"), cat("b_v"))


@dataclass(frozen=True, eq=False)
class MultiHeadSteps:
    """Every intermediate of split-layout multi-head attention."""

    X: torch.Tensor  # (..., T, d_in)
    n_heads: int
    head_dim: int
    Q_wide: torch.Tensor  # (..., T, d_out)
    K_wide: torch.Tensor
    V_wide: torch.Tensor
    Q_heads: torch.Tensor  # (..., n_heads, T, head_dim)
    K_heads: torch.Tensor
    V_heads: torch.Tensor
    attention: AttentionSteps  # batched over heads: scores, mask, weights (..., n_heads, T, T), output
    head_outputs: torch.Tensor  # (..., n_heads, T, head_dim)
    concat: torch.Tensor  # (..., T, d_out)
    W_o: torch.Tensor  # (d_out, d_out)
    b_o: torch.Tensor | None  # (d_out,)
    output: torch.Tensor  # (..., T, d_out) concat @ W_o + b_o


def _output_projection(concat: torch.Tensor, W_o: torch.Tensor, b_o: torch.Tensor | None) -> torch.Tensor:
    return project(concat, W_o, b_o, "W_o")


def multihead_steps(
    X: torch.Tensor,
    weights: SplitWeights,
    W_o: torch.Tensor,
    b_o: torch.Tensor | None = None,
    *,
    n_heads: int,
    causal: bool = True,
    mask: torch.Tensor | None = None,
    p: float = 0.0,
    training: bool = False,
    keep_mask: torch.Tensor | None = None,
    generator: torch.Generator | None = None,
) -> MultiHeadSteps:
    """Split layout: wide projections, split into heads, batched attention, concat, W_O."""
    X = check_min_rank("X", X, 2)
    d_out = check_projection("W_q", weights.W_q, X.shape[-1]).shape[1]
    head_dim = check_heads(d_out, n_heads)
    check_rank("W_o", W_o, 2)
    if tuple(W_o.shape) != (d_out, d_out):
        raise ValueError(f"W_o has shape {tuple(W_o.shape)}, expected ({d_out}, {d_out})")
    check_bias("b_o", b_o, d_out)
    Q_wide = project(X, weights.W_q, weights.b_q, "W_q")
    K_wide = project(X, weights.W_k, weights.b_k, "W_k")
    V_wide = project(X, weights.W_v, weights.b_v, "W_v")
    if K_wide.shape[-1] != d_out or V_wide.shape[-1] != d_out:
        raise ValueError(
            f"W_q, W_k, W_v must share the output width d_out={d_out}, "
            f"got {tuple(weights.W_k.shape)} and {tuple(weights.W_v.shape)}"
        )
    Qh, Kh, Vh = (split_heads(t, n_heads) for t in (Q_wide, K_wide, V_wide))
    steps = attention_steps(
        Qh, Kh, Vh, causal=causal, mask=mask, p=p, training=training, keep_mask=keep_mask, generator=generator
    )
    concat = merge_heads(steps.output)
    return MultiHeadSteps(
        X=X,
        n_heads=n_heads,
        head_dim=head_dim,
        Q_wide=Q_wide,
        K_wide=K_wide,
        V_wide=V_wide,
        Q_heads=Qh,
        K_heads=Kh,
        V_heads=Vh,
        attention=steps,
        head_outputs=steps.output,
        concat=concat,
        W_o=W_o,
        b_o=b_o,
        output=_output_projection(concat, W_o, b_o),
    )


@dataclass(frozen=True, eq=False)
class StackedSteps:
    """Stacked layout: one independent single-head attention per head, then concat and W_O."""

    X: torch.Tensor
    heads: tuple[AttentionSteps, ...]  # per head: Q, K, V (..., T, head_dim), weights (..., T, T), output
    head_outputs: tuple[torch.Tensor, ...]  # per head (..., T, head_dim)
    concat: torch.Tensor  # (..., T, d_out)
    W_o: torch.Tensor
    b_o: torch.Tensor | None
    output: torch.Tensor  # (..., T, d_out)


def multihead_stacked_steps(
    X: torch.Tensor,
    heads: Sequence[HeadWeights],
    W_o: torch.Tensor,
    b_o: torch.Tensor | None = None,
    *,
    causal: bool = True,
    mask: torch.Tensor | None = None,
    p: float = 0.0,
    training: bool = False,
    generator: torch.Generator | None = None,
) -> StackedSteps:
    """Stacked layout: run each head on the same X, concatenate along the width, apply W_O."""
    X = check_min_rank("X", X, 2)
    if len(heads) == 0:
        raise ValueError("need at least one head")
    per_head = []
    for h, hw in enumerate(heads):
        Q = project(X, hw.W_q, hw.b_q, f"heads[{h}].W_q")
        K = project(X, hw.W_k, hw.b_k, f"heads[{h}].W_k")
        V = project(X, hw.W_v, hw.b_v, f"heads[{h}].W_v")
        per_head.append(
            attention_steps(Q, K, V, causal=causal, mask=mask, p=p, training=training, generator=generator)
        )
    outputs = tuple(s.output for s in per_head)
    concat = torch.cat(outputs, dim=-1)
    d_out = concat.shape[-1]
    check_rank("W_o", W_o, 2)
    if tuple(W_o.shape) != (d_out, d_out):
        raise ValueError(f"W_o has shape {tuple(W_o.shape)}, expected ({d_out}, {d_out})")
    return StackedSteps(
        X=X,
        heads=tuple(per_head),
        head_outputs=outputs,
        concat=concat,
        W_o=W_o,
        b_o=b_o,
        output=_output_projection(concat, W_o, b_o),
    )
