"""Named, fully computed examples: the single source of every number a scene shows.

Every record is computed from an example spec (``example_spec.ExampleSpec``, read from a TOML file such as
``examples/post.toml``): the sentences, embeddings, sizes, seeds and rates. Scenes contain no numeric literals: they
call ``load("coffee")`` (cached per spec) and read fields. ``build(name, spec)`` recomputes from scratch (no cache),
so a test can compare on-screen numbers against a fresh computation; ``build_all(spec)`` gives every record of one
example. Without a spec, the active example is used: ``$ATTENTION_EXAMPLE`` or the post's.
The constants below are the seeds and sizes an example file does not set.

Records are frozen dataclasses of float32 tensors; treat the tensors as read-only (``load`` shares them).
Per-term products (``*_terms``, ``weighted_*``) are precomputed so scenes never multiply anything.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, overload

import torch

from . import example_spec, toy_data
from .bottleneck import bottleneck_steps, seeded_rnn_encoder
from .causal import wrong_order_steps
from .multihead import SplitWeights, multihead_stacked_steps, multihead_steps, split_to_stacked
from .qkv import QueryRowSteps, qkv_attention_steps, query_row_steps
from .saturation import SaturationCase, seeded_saturation_cases
from .seeding import seeded_matrix, width_scaled
from .self_attention import single_query_steps, weight_free_self_attention
from .soft import project_query, seeded_additive_scorer, soft_attention_steps
from .attention_dropout import apply_attention_dropout
from .teacher_forcing import DecoderStep, TeacherForcingExample, teacher_forcing_example
from .example_spec import ExampleSpec

__all__ = [
    "EXAMPLES",
    "names",
    "load",
    "build",
    "build_all",
    "active_spec",
    "ExampleSpec",
    "CoffeeExample",
    "RainExample",
    "QKVExample",
    "SaturationExample",
    "CausalExample",
    "DropoutExample",
    "MultiHeadExample",
    "BottleneckExample",
    "LearnedAlignmentExample",
    "LearnedHeadsExample",
    "TeacherForcingExample",
    "DecoderStep",
    "QueryRowSteps",
    "SaturationCase",
]

# --- every seed, rate and size the scenes use ----------------------------------------------------------------

#: Additive (MLP) score for the coffee example: hidden width, init scale, seed. The MLP is untrained; the
#: seed was chosen so that coffee ranks first, as with the dot-product score.
ADDITIVE_HIDDEN = 4
ADDITIVE_SCALE = 2.0
ADDITIVE_SEED = 4

#: Q/K/V projections: d_v = d_k (the example's), entries N(0, σ^2) rounded to 1 decimal, W_q/W_k/W_v drawn
#: with seeds projection_seed + 0, 1, 2 (the post's example uses 7700, chosen for visibly uneven weights).
#: σ = 1.5 at the post's width 3 and 1.5·sqrt(3/d_in) at width d_in (seeding.width_scaled, as nn.Linear's init):
#: at 1.5 whatever the width, width-6 queries and keys grew until every softmax row was one-hot.
QKV_SCALE = 1.5
PROJECTION_ANCHOR_WIDTH = 3  # the post's embedding width: its projections are drawn at exactly the scales above

#: Saturation demo: key widths, number of keys, base seed (each d_k uses seed + d_k).
SATURATION_D_KS = (4, 64, 512)
SATURATION_N_KEYS = 6
SATURATION_SEED = 1

#: Dropout on the causal weights: the example's rate and keep-mask seed (the post's: 0.25 and 3, chosen so 3
#: nonzero weights are dropped).

#: Multi-head: the example's d_out split into its heads; W_q/W_k/W_v (N(0, 1.5^2)), W_o (N(0, 0.5^2)), both
#: width-scaled as the Q/K/V projections are (PROJECTION_ANCHOR_WIDTH, OUTPUT_ANCHOR_WIDTH),
#: b_o (N(0, 0.2^2)), all rounded to 1 decimal, seeds head_seed + 0..4 (the post's 1480, chosen so the heads differ).
MULTIHEAD_QKV_SCALE = 1.5
MULTIHEAD_OUT_SCALE = 0.5
MULTIHEAD_BIAS_SCALE = 0.2
OUTPUT_ANCHOR_WIDTH = 4  # the post's d_out: W_o is drawn at MULTIHEAD_OUT_SCALE there, scaled by sqrt(4/d_out) else

#: Bottleneck RNN encoder over the coffee encoder vectors: hidden width, seed, scales.
BOTTLENECK_HIDDEN = 4
BOTTLENECK_SEED = 0
BOTTLENECK_RECURRENT_SCALE = 0.9
BOTTLENECK_INPUT_SCALE = 1.5


# --- records --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class CoffeeExample:
    """Soft attention for "I love coffee" while predicting "café" (post's toy numbers)."""

    tokens: tuple[str, ...]  # ("I", "love", "coffee")
    french_so_far: tuple[str, ...]  # ("J'aime", "le")
    next_word: str  # "café"
    s_decoder: torch.Tensor  # (3,) (1, 0, 1)
    W_q: torch.Tensor  # (3, 3)
    q_terms: torch.Tensor  # (3, 3) W_q[r, c] * s_decoder[c]; row r sums to q[r]
    q: torch.Tensor  # (3,) (0.9, 0.1, 0.8)
    H: torch.Tensor  # (3, 3) rows h_1, h_2, h_3
    score_terms: torch.Tensor  # (3, 3) q[k] * H[i, k]; row i sums to scores[i]
    scores: torch.Tensor  # (3,) (0.73, 0.35, 1.35)
    weights: torch.Tensor  # (3,) softmax(scores) ~ (0.282, 0.193, 0.525)
    weighted_h: torch.Tensor  # (3, 3) weights[i] * H[i]
    context: torch.Tensor  # (3,) sum of weighted_h rows
    # The post's ILLUSTRATIVE trained outcome (0.05, 0.10, 0.85): NOT softmax(scores). None when the example
    # file gives no illustrative_weights (a user's own example usually does not).
    illustrative_weights: torch.Tensor | None  # (T,)
    illustrative_weighted_h: torch.Tensor | None  # (T, d)
    illustrative_context: torch.Tensor | None  # (d,) (0.655, 0.095, 0.775)
    # Additive score e_i = w2 . tanh(W1 [q; h_i] + b1), seeded and untrained.
    additive_W1: torch.Tensor  # (ADDITIVE_HIDDEN, 6)
    additive_b1: torch.Tensor  # (ADDITIVE_HIDDEN,)
    additive_w2: torch.Tensor  # (ADDITIVE_HIDDEN,)
    additive_hidden: torch.Tensor  # (3, ADDITIVE_HIDDEN) tanh(W1 [q; h_i] + b1)
    additive_scores: torch.Tensor  # (3,)
    additive_weights: torch.Tensor  # (3,)
    additive_weighted_h: torch.Tensor  # (3, 3)
    additive_context: torch.Tensor  # (3,)


@dataclass(frozen=True, eq=False)
class RainExample:
    """Weight-free self-attention over "rain softens dry soil"; single query "dry" (index 2)."""

    tokens: tuple[str, ...]
    X: torch.Tensor  # (4, 3)
    query_index: int  # 2
    query_token: str  # "dry"
    query: torch.Tensor  # (3,) x_3
    omega_terms: torch.Tensor  # (4, 3) x_3[k] * X[j, k]; row j sums to omega[j]
    omega: torch.Tensor  # (4,)
    alpha: torch.Tensor  # (4,) softmax(omega)
    weighted_x: torch.Tensor  # (4, 3) alpha[j] * X[j]
    z: torch.Tensor  # (3,) z_3
    scores: torch.Tensor  # (4, 4) X X^T
    weights: torch.Tensor  # (4, 4) softmax(X X^T)
    Z: torch.Tensor  # (4, 3) weights @ X


@dataclass(frozen=True, eq=False)
class QKVExample:
    """Scaled Q/K/V self-attention (non-causal) over the rain X with seeded projections."""

    tokens: tuple[str, ...]
    X: torch.Tensor  # (4, 3)
    d_in: int  # 3
    d_k: int  # 2
    d_v: int  # 2
    W_q: torch.Tensor  # (3, 2), applied as X @ W_q
    W_k: torch.Tensor  # (3, 2)
    W_v: torch.Tensor  # (3, 2)
    Q: torch.Tensor  # (4, 2)
    K: torch.Tensor  # (4, 2)
    V: torch.Tensor  # (4, 2)
    raw_scores: torch.Tensor  # (4, 4) Q K^T
    scale: float  # sqrt(d_k)
    scaled_scores: torch.Tensor  # (4, 4) Q K^T / sqrt(d_k)
    weights: torch.Tensor  # (4, 4)
    output: torch.Tensor  # (4, 2)
    query_index: int  # 2 ("dry")
    query_row: QueryRowSteps  # x, q_terms, q, score_terms, raw_scores, scale, scaled_scores, weights, weighted_v, z


@dataclass(frozen=True, eq=False)
class SaturationExample:
    """Unscaled vs scaled softmax for growing d_k."""

    d_ks: tuple[int, ...]  # (4, 64, 512)
    n_keys: int  # 6
    cases: tuple[SaturationCase, ...]  # one per d_k, same order
    unscaled_max: tuple[float, ...]  # max weight per d_k without the scale
    scaled_max: tuple[float, ...]  # max weight per d_k with the scale


@dataclass(frozen=True, eq=False)
class CausalExample:
    """Causal attention over the rain sentence (same X and projections as "qkv"), plus the wrong order."""

    tokens: tuple[str, ...]
    X: torch.Tensor  # (4, 3)
    Q: torch.Tensor  # (4, 2)
    K: torch.Tensor  # (4, 2)
    V: torch.Tensor  # (4, 2)
    scale: float
    scores: torch.Tensor  # (4, 4) scaled scores Q K^T / sqrt(d_k), before masking
    mask: torch.Tensor  # (4, 4) bool, True above the diagonal = future
    masked_scores: torch.Tensor  # (4, 4) -inf above the diagonal
    weights: torch.Tensor  # (4, 4) lower triangular, rows sum to 1, exact zeros above the diagonal
    output: torch.Tensor  # (4, 2) weights @ V
    right_order_row_sums: torch.Tensor  # (4,) all 1
    wrong_order_unmasked_weights: torch.Tensor  # (4, 4) softmax over all keys (future included)
    wrong_order_weights: torch.Tensor  # (4, 4) the above with the future zeroed afterwards
    wrong_order_row_sums: torch.Tensor  # (4,) < 1 for rows 1..3, = 1 for the last row


@dataclass(frozen=True, eq=False)
class DropoutExample:
    """Dropout on the causal weights of "causal": one seeded keep-mask, train vs eval."""

    tokens: tuple[str, ...]
    weights: torch.Tensor  # (4, 4) causal weights before dropout
    mask: torch.Tensor  # (4, 4) causal mask (True = future)
    V: torch.Tensor  # (4, 2)
    p: float  # 0.25
    seed: int
    rescale: float  # 1 / (1 - p)
    keep_mask: torch.Tensor  # (4, 4) bool, True = kept (drawn for every entry, future included)
    dropped_positions: tuple[tuple[int, int], ...]  # (i, j) with j <= i whose nonzero weight was dropped
    dropped_weights: torch.Tensor  # (4, 4) weights * keep / (1 - p)
    output_train: torch.Tensor  # (4, 2) dropped_weights @ V
    output_eval: torch.Tensor  # (4, 2) weights @ V (dropout is the identity in eval)


@dataclass(frozen=True, eq=False)
class MultiHeadExample:
    """Two-head causal attention over the rain X, split layout with every step, plus the stacked layout."""

    tokens: tuple[str, ...]
    X: torch.Tensor  # (1, 4, 3) batch of one; every tensor below drops that batch axis
    d_in: int  # 3
    d_out: int  # 4
    n_heads: int  # 2
    head_dim: int  # 2
    W_q: torch.Tensor  # (3, 4) wide, applied as X @ W_q
    W_k: torch.Tensor  # (3, 4)
    W_v: torch.Tensor  # (3, 4)
    W_o: torch.Tensor  # (4, 4), applied as concat @ W_o + b_o
    b_o: torch.Tensor  # (4,)
    W_q_heads: torch.Tensor  # (2, 3, 2) head h = columns [2h, 2h+2) of W_q
    W_k_heads: torch.Tensor  # (2, 3, 2)
    W_v_heads: torch.Tensor  # (2, 3, 2)
    Q: torch.Tensor  # (4, 4) wide
    K: torch.Tensor  # (4, 4)
    V: torch.Tensor  # (4, 4)
    Q_heads: torch.Tensor  # (2, 4, 2)
    K_heads: torch.Tensor  # (2, 4, 2)
    V_heads: torch.Tensor  # (2, 4, 2)
    scale: float  # sqrt(head_dim)
    raw_scores: torch.Tensor  # (2, 4, 4)
    scaled_scores: torch.Tensor  # (2, 4, 4)
    mask: torch.Tensor  # (4, 4) bool
    masked_scores: torch.Tensor  # (2, 4, 4)
    weights: torch.Tensor  # (2, 4, 4) per-head causal weights
    head_outputs: torch.Tensor  # (2, 4, 2)
    concat: torch.Tensor  # (4, 4) heads side by side
    output: torch.Tensor  # (4, 4) concat @ W_o + b_o
    stacked_head_outputs: torch.Tensor  # (2, 4, 2) from one single-head attention per head
    stacked_concat: torch.Tensor  # (4, 4)
    stacked_output: torch.Tensor  # (4, 4)
    max_abs_diff: float  # max |stacked_output - output|


@dataclass(frozen=True, eq=False)
class BottleneckExample:
    """A seeded tanh RNN encoder reading I, love, coffee (the coffee h-vectors as inputs)."""

    tokens: tuple[str, ...]
    X: torch.Tensor  # (3, 3) inputs, one row per token
    hidden_size: int
    W_x: torch.Tensor  # (hidden, 3)
    W_h: torch.Tensor  # (hidden, hidden)
    b: torch.Tensor  # (hidden,)
    hidden_states: torch.Tensor  # (3, hidden) after I, after love, after coffee
    summary: torch.Tensor  # (hidden,) s = hidden state after coffee
    jacobian_norms: torch.Tensor  # (3, 3) ||dh_t/dx_i||, row t, column i, 0 for i > t
    influence: torch.Tensor  # (3, 3) jacobian_norms normalised per row (row sums 1)
    first_token_share: torch.Tensor  # (3,) influence of "I" on h_1, h_2, h_3 (shrinking)


@dataclass(frozen=True, eq=False)
class LearnedAlignmentExample:
    """The trained GRU encoder–decoder (attention_math.learned.translation): what it attends to, and when.

    ``alignment`` comes from the model generating on its own (greedy); the snapshots are teacher-forced on the
    corpus French, recorded while training, so every frame of the time-lapse has the same shape.
    """

    english_tokens: tuple[str, ...]  # the example's translator sentence ("I", "love", "coffee")
    french_tokens: tuple[str, ...]  # what the trained model says
    reference_french: tuple[str, ...] | None  # the corpus's French, None when the sentence is not in the corpus
    alignment: torch.Tensor  # (F, E) row r = weights on the English words while emitting french_tokens[r]
    focus_row: int  # the French word whose attention is most concentrated (largest single weight)
    focus_word: str  # french_tokens[focus_row]
    snapshot_english: tuple[str, ...]  # the sentence the training time-lapse was recorded on (the training's)
    snapshot_reference_french: tuple[str, ...]  # the corpus French the snapshots were teacher-forced on (their rows)
    snapshot_steps: torch.Tensor  # (S,) optimiser step of each snapshot (0 = untrained)
    snapshot_losses: torch.Tensor  # (S,) mean cross-entropy per French token over the corpus
    snapshot_alignments: torch.Tensor  # (S, F, E) teacher-forced alignment at each snapshot
    snapshot_french: tuple[tuple[str, ...], ...]  # what the model would say at each snapshot (greedy)
    final_loss: float
    n_pairs: int  # sentence pairs in the training corpus
    reorder_english: tuple[str, ...]  # the example's second sentence
    reorder_french: tuple[str, ...]  # the model's French for it
    reorder_alignment: torch.Tensor  # (len(reorder_french), len(reorder_english))


@dataclass(frozen=True, eq=False)
class LearnedHeadsExample:
    """The trained two-head causal layer (attention_math.learned.heads): each head's pattern and its measurement."""

    description: str  # the task in one sentence
    vocab_size: int
    seq_len: int
    distant_offset: int  # k: the second output is the digit k back
    n_heads: int
    train_steps: int
    n_eval_sequences: int  # fresh random sequences the masses and accuracy are measured on
    tokens: torch.Tensor  # (T,) the example digit sequence
    weights: torch.Tensor  # (n_heads, T, T) each head's causal weights on the example
    previous_mass: torch.Tensor  # (n_heads,) mean weight on offset 1, eval set, query positions t >= k
    distant_mass: torch.Tensor  # (n_heads,) mean weight on offset k, same average
    offset_masses: torch.Tensor  # (n_heads, 2) [previous_mass, distant_mass] per head, for one table
    example_previous_mass: torch.Tensor  # (n_heads,) the same two averages on the example sequence
    example_distant_mass: torch.Tensor  # (n_heads,)
    previous_token_head: int  # head with the most mass on offset 1 (eval set)
    distant_head: int  # head with the most mass on offset k (eval set)
    accuracy: float  # fraction of eval-set target digits predicted exactly
    final_loss: float  # eval-set cross-entropy

# --- factories: one per record, each computed from an example spec ---------------------------------------------


def _tensor(values: Sequence[float] | Sequence[Sequence[float]]) -> torch.Tensor:
    return torch.tensor(values, dtype=torch.float32)


def _mask_of_causal(mask: torch.Tensor | None) -> torch.Tensor:
    """The mask of a causal computation (scaled.attention_steps gives None only when it is not causal)."""
    if mask is None:
        raise RuntimeError("a causal attention step came back without its mask")
    return mask


def _coffee(spec: ExampleSpec) -> CoffeeExample:
    ed = spec.encoder_decoder
    proj = project_query(_tensor(ed.W_q), _tensor(ed.decoder_state))
    H = _tensor(ed.encoder_states)
    d = H.shape[1]
    dot = soft_attention_steps(proj.q, H)
    illus = _tensor(ed.illustrative_weights) if ed.illustrative_weights is not None else None
    illus_parts = H * illus.unsqueeze(1) if illus is not None else None
    scorer = seeded_additive_scorer(d, d, ADDITIVE_HIDDEN, ADDITIVE_SEED, ADDITIVE_SCALE)
    add = soft_attention_steps(proj.q, H, scorer)
    return CoffeeExample(
        tokens=ed.english,
        french_so_far=ed.french_so_far,
        next_word=ed.next_word,
        s_decoder=proj.s,
        W_q=proj.W_q,
        q_terms=proj.terms,
        q=proj.q,
        H=H,
        score_terms=H * proj.q.unsqueeze(0),
        scores=dot.scores,
        weights=dot.weights,
        weighted_h=dot.weighted_h,
        context=dot.context,
        illustrative_weights=illus,
        illustrative_weighted_h=illus_parts,
        illustrative_context=illus_parts.sum(dim=0) if illus_parts is not None else None,
        additive_W1=scorer.W1,
        additive_b1=scorer.b1,
        additive_w2=scorer.w2,
        additive_hidden=scorer.hidden(proj.q, H),
        additive_scores=add.scores,
        additive_weights=add.weights,
        additive_weighted_h=add.weighted_h,
        additive_context=add.context,
    )


def _rain(spec: ExampleSpec) -> RainExample:
    sa = spec.self_attention
    X = _tensor(sa.embeddings)
    one = single_query_steps(X, sa.query_index)
    full = weight_free_self_attention(X)
    return RainExample(
        tokens=sa.tokens,
        X=X,
        query_index=one.query_index,
        query_token=sa.tokens[one.query_index],
        query=one.query,
        omega_terms=one.omega_terms,
        omega=one.omega,
        alpha=one.alpha,
        weighted_x=one.weighted_x,
        z=one.z,
        scores=full.scores,
        weights=full.weights,
        Z=full.Z,
    )


def _qkv_weights(spec: ExampleSpec) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    sa = spec.self_attention
    d_in = len(sa.embeddings[0])
    scale = width_scaled(QKV_SCALE, d_in, PROJECTION_ANCHOR_WIDTH)
    return tuple(seeded_matrix((d_in, sa.d_k), sa.projection_seed + i, scale=scale) for i in range(3))  # type: ignore[return-value]


def _qkv(spec: ExampleSpec) -> QKVExample:
    sa = spec.self_attention
    X = _tensor(sa.embeddings)
    W_q, W_k, W_v = _qkv_weights(spec)
    s = qkv_attention_steps(X, W_q, W_k, W_v)
    a = s.attention
    return QKVExample(
        tokens=sa.tokens,
        X=X,
        d_in=X.shape[1],
        d_k=W_q.shape[1],
        d_v=W_v.shape[1],
        W_q=W_q,
        W_k=W_k,
        W_v=W_v,
        Q=a.Q,
        K=a.K,
        V=a.V,
        raw_scores=a.raw_scores,
        scale=a.scale,
        scaled_scores=a.scaled_scores,
        weights=a.weights,
        output=a.output,
        query_index=sa.query_index,
        query_row=query_row_steps(X, W_q, a.K, a.V, sa.query_index),
    )


def _saturation(spec: ExampleSpec) -> SaturationExample:
    """Not example-dependent: the saturation demo is about d_k growing far beyond any example's."""
    cases = seeded_saturation_cases(SATURATION_D_KS, SATURATION_N_KEYS, SATURATION_SEED)
    return SaturationExample(
        d_ks=SATURATION_D_KS,
        n_keys=SATURATION_N_KEYS,
        cases=cases,
        unscaled_max=tuple(c.unscaled_max for c in cases),
        scaled_max=tuple(c.scaled_max for c in cases),
    )


def _causal(spec: ExampleSpec) -> CausalExample:
    sa = spec.self_attention
    X = _tensor(sa.embeddings)
    s = qkv_attention_steps(X, *_qkv_weights(spec), causal=True)
    a = s.attention
    wrong = wrong_order_steps(a.scaled_scores)
    return CausalExample(
        tokens=sa.tokens,
        X=X,
        Q=a.Q,
        K=a.K,
        V=a.V,
        scale=a.scale,
        scores=a.scaled_scores,
        mask=_mask_of_causal(a.mask),
        masked_scores=a.masked_scores,
        weights=a.weights,
        output=a.output,
        right_order_row_sums=a.weights.sum(dim=-1),
        wrong_order_unmasked_weights=wrong.unmasked_weights,
        wrong_order_weights=wrong.weights,
        wrong_order_row_sums=wrong.row_sums,
    )


def _dropout(spec: ExampleSpec) -> DropoutExample:
    sa = spec.self_attention
    c = _causal(spec)
    g = torch.Generator().manual_seed(sa.dropout_seed)
    keep, dropped = apply_attention_dropout(c.weights, sa.dropout, training=True, generator=g)
    positions = tuple(
        (i, j)
        for i in range(c.weights.shape[0])
        for j in range(c.weights.shape[1])
        if not bool(keep[i, j]) and not bool(c.mask[i, j]) and float(c.weights[i, j]) != 0.0
    )
    return DropoutExample(
        tokens=c.tokens,
        weights=c.weights,
        mask=c.mask,
        V=c.V,
        p=sa.dropout,
        seed=sa.dropout_seed,
        rescale=1.0 / (1.0 - sa.dropout),
        keep_mask=keep,
        dropped_positions=positions,
        dropped_weights=dropped,
        output_train=dropped @ c.V,
        output_eval=c.weights @ c.V,
    )


def _multihead(spec: ExampleSpec) -> MultiHeadExample:
    sa = spec.self_attention
    X = _tensor(sa.embeddings).unsqueeze(0)
    d_in, d_out, seed = X.shape[-1], sa.d_out, sa.head_seed
    qkv_scale = width_scaled(MULTIHEAD_QKV_SCALE, d_in, PROJECTION_ANCHOR_WIDTH)
    wide = SplitWeights(*(seeded_matrix((d_in, d_out), seed + i, scale=qkv_scale) for i in range(3)))
    W_o = seeded_matrix((d_out, d_out), seed + 3, scale=width_scaled(MULTIHEAD_OUT_SCALE, d_out, OUTPUT_ANCHOR_WIDTH))
    b_o = seeded_matrix((d_out,), seed + 4, scale=MULTIHEAD_BIAS_SCALE)
    m = multihead_steps(X, wide, W_o, b_o, n_heads=sa.heads, causal=True)
    heads = split_to_stacked(wide, sa.heads)
    st = multihead_stacked_steps(X, heads, W_o, b_o, causal=True)
    a = m.attention
    return MultiHeadExample(
        tokens=sa.tokens,
        X=X,
        d_in=d_in,
        d_out=d_out,
        n_heads=m.n_heads,
        head_dim=m.head_dim,
        W_q=wide.W_q,
        W_k=wide.W_k,
        W_v=wide.W_v,
        W_o=W_o,
        b_o=b_o,
        W_q_heads=torch.stack([h.W_q for h in heads]),
        W_k_heads=torch.stack([h.W_k for h in heads]),
        W_v_heads=torch.stack([h.W_v for h in heads]),
        Q=m.Q_wide[0],
        K=m.K_wide[0],
        V=m.V_wide[0],
        Q_heads=m.Q_heads[0],
        K_heads=m.K_heads[0],
        V_heads=m.V_heads[0],
        scale=a.scale,
        raw_scores=a.raw_scores[0],
        scaled_scores=a.scaled_scores[0],
        mask=_mask_of_causal(a.mask),
        masked_scores=a.masked_scores[0],
        weights=a.weights[0],
        head_outputs=m.head_outputs[0],
        concat=m.concat[0],
        output=m.output[0],
        stacked_head_outputs=torch.stack([o[0] for o in st.head_outputs]),
        stacked_concat=st.concat[0],
        stacked_output=st.output[0],
        max_abs_diff=float((st.output - m.output).abs().max()),
    )


def _teacher_forcing(spec: ExampleSpec) -> TeacherForcingExample:
    ed = spec.encoder_decoder
    return teacher_forcing_example(ed.english, ed.french_reference, ed.wrong_first_word)


def _bottleneck(spec: ExampleSpec) -> BottleneckExample:
    ed = spec.encoder_decoder
    X = _tensor(ed.encoder_states)
    enc = seeded_rnn_encoder(
        X.shape[1], BOTTLENECK_HIDDEN, BOTTLENECK_SEED, BOTTLENECK_RECURRENT_SCALE, BOTTLENECK_INPUT_SCALE
    )
    s = bottleneck_steps(enc, X)
    return BottleneckExample(
        tokens=ed.english,
        X=X,
        hidden_size=enc.hidden_size,
        W_x=enc.W_x,
        W_h=enc.W_h,
        b=enc.b,
        hidden_states=s.hidden_states,
        summary=s.summary,
        jacobian_norms=s.jacobian_norms,
        influence=s.influence,
        first_token_share=s.first_token_share,
    )


def _learned_alignment(spec: ExampleSpec) -> LearnedAlignmentExample:
    """Loads the trained translator (trains and caches it on first use, see attention_math.learned)."""
    from .learned import corpus, translation

    learned = translation.learned_alignment()
    translator = translation.load_translator()
    english = spec.translator.english
    french, alignment = translation.translate(translator, english)
    reorder_french, reorder_alignment = translation.translate(translator, spec.translator.second)
    focus = int(alignment.max(dim=1).values.argmax())
    pairs = corpus.load_pairs()
    reference = next((fr for en, fr in pairs if en == tuple(english)), None)
    snaps = learned.snapshots
    return LearnedAlignmentExample(
        english_tokens=english,
        french_tokens=french,
        reference_french=reference,
        alignment=alignment,
        focus_row=focus,
        focus_word=french[focus],
        snapshot_english=learned.english_tokens,
        snapshot_reference_french=learned.reference_french,
        snapshot_steps=torch.tensor([float(s.step) for s in snaps]),
        snapshot_losses=torch.tensor([s.loss for s in snaps]),
        snapshot_alignments=torch.stack([s.alignment for s in snaps]),
        snapshot_french=tuple(s.greedy_french for s in snaps),
        final_loss=learned.final_loss,
        n_pairs=len(pairs),
        reorder_english=spec.translator.second,
        reorder_french=reorder_french,
        reorder_alignment=reorder_alignment,
    )


def _learned_heads(spec: ExampleSpec) -> LearnedHeadsExample:
    """Not example-dependent: the trained two-head layer (trains and caches it on first use)."""
    from .learned import heads

    config = heads.HeadsConfig()
    learned = heads.learned_heads(config)
    return LearnedHeadsExample(
        description=learned.task_description,
        vocab_size=config.task.vocab_size,
        seq_len=config.task.seq_len,
        distant_offset=learned.distant_offset,
        n_heads=config.n_heads,
        train_steps=config.steps,
        n_eval_sequences=heads.EVAL_SEQUENCES,
        tokens=torch.tensor([float(t) for t in learned.tokens]),
        weights=learned.weights,
        previous_mass=torch.tensor([m.previous_token_mass for m in learned.eval_head_metrics]),
        distant_mass=torch.tensor([m.distant_offset_mass for m in learned.eval_head_metrics]),
        offset_masses=torch.tensor(
            [[m.previous_token_mass, m.distant_offset_mass] for m in learned.eval_head_metrics]
        ),
        example_previous_mass=torch.tensor([m.previous_token_mass for m in learned.head_metrics]),
        example_distant_mass=torch.tensor([m.distant_offset_mass for m in learned.head_metrics]),
        previous_token_head=learned.previous_token_head,
        distant_head=learned.distant_head,
        accuracy=learned.accuracy,
        final_loss=learned.final_loss,
    )

# --- registry ------------------------------------------------------------------------------------------------

#: Name -> factory. Each call computes the record from scratch for the spec it is given.
EXAMPLES: dict[str, Callable[[ExampleSpec], object]] = {
    "coffee": _coffee,
    "rain": _rain,
    "qkv": _qkv,
    "saturation": _saturation,
    "causal": _causal,
    "dropout": _dropout,
    "multihead": _multihead,
    "teacher_forcing": _teacher_forcing,
    "bottleneck": _bottleneck,
    "learned_alignment": _learned_alignment,
    "learned_heads": _learned_heads,
}
#: Records computed without training anything (the learned ones load or train a model).
COMPUTED = tuple(n for n in EXAMPLES if not n.startswith("learned_"))


def names() -> list[str]:
    """The valid record names, in registry order."""
    return list(EXAMPLES)


def _factory(name: str) -> Callable[[ExampleSpec], object]:
    if not isinstance(name, str) or name not in EXAMPLES:
        raise ValueError(f"unknown example {name!r}; valid names: {', '.join(EXAMPLES)}")
    return EXAMPLES[name]


@functools.cache
def _read_spec(path: str, mtime_ns: int) -> ExampleSpec:
    return example_spec.read(path)


def active_spec() -> ExampleSpec:
    """The example the clips are computed from: the file named by $ATTENTION_EXAMPLE, or the post's."""
    path = example_spec.active_path().resolve()
    try:
        mtime = path.stat().st_mtime_ns
    except OSError:
        mtime = -1  # read() names the missing file
    return _read_spec(str(path), mtime)


@overload
def build(name: Literal["coffee"], spec: ExampleSpec | None = None) -> CoffeeExample: ...
@overload
def build(name: Literal["rain"], spec: ExampleSpec | None = None) -> RainExample: ...
@overload
def build(name: Literal["qkv"], spec: ExampleSpec | None = None) -> QKVExample: ...
@overload
def build(name: Literal["saturation"], spec: ExampleSpec | None = None) -> SaturationExample: ...
@overload
def build(name: Literal["causal"], spec: ExampleSpec | None = None) -> CausalExample: ...
@overload
def build(name: Literal["dropout"], spec: ExampleSpec | None = None) -> DropoutExample: ...
@overload
def build(name: Literal["multihead"], spec: ExampleSpec | None = None) -> MultiHeadExample: ...
@overload
def build(name: Literal["teacher_forcing"], spec: ExampleSpec | None = None) -> TeacherForcingExample: ...
@overload
def build(name: Literal["bottleneck"], spec: ExampleSpec | None = None) -> BottleneckExample: ...
@overload
def build(name: Literal["learned_alignment"], spec: ExampleSpec | None = None) -> LearnedAlignmentExample: ...
@overload
def build(name: Literal["learned_heads"], spec: ExampleSpec | None = None) -> LearnedHeadsExample: ...
@overload
def build(name: str, spec: ExampleSpec | None = None) -> Any: ...
def build(name: str, spec: ExampleSpec | None = None) -> Any:
    """Compute the named record afresh (uncached) for `spec` (default: the active example).

    Unknown name -> ValueError listing the valid names.
    """
    factory = _factory(name)
    return factory(spec if spec is not None else active_spec())


def build_all(spec: ExampleSpec | None = None, *, learned: bool = True) -> dict[str, Any]:
    """Every record of one example, computed afresh: name -> record (`learned=False` skips the trained models)."""
    spec = spec if spec is not None else active_spec()
    return {name: build(name, spec) for name in (EXAMPLES if learned else COMPUTED)}


@functools.cache
def _load_cached(name: str, spec: ExampleSpec) -> Any:
    return build(name, spec)


@overload
def load(name: Literal["coffee"]) -> CoffeeExample: ...
@overload
def load(name: Literal["rain"]) -> RainExample: ...
@overload
def load(name: Literal["qkv"]) -> QKVExample: ...
@overload
def load(name: Literal["saturation"]) -> SaturationExample: ...
@overload
def load(name: Literal["causal"]) -> CausalExample: ...
@overload
def load(name: Literal["dropout"]) -> DropoutExample: ...
@overload
def load(name: Literal["multihead"]) -> MultiHeadExample: ...
@overload
def load(name: Literal["teacher_forcing"]) -> TeacherForcingExample: ...
@overload
def load(name: Literal["bottleneck"]) -> BottleneckExample: ...
@overload
def load(name: Literal["learned_alignment"]) -> LearnedAlignmentExample: ...
@overload
def load(name: Literal["learned_heads"]) -> LearnedHeadsExample: ...
@overload
def load(name: str) -> Any: ...
def load(name: str) -> Any:
    """The named record of the active example, computed once per process and spec (treat tensors as read-only).

    Unknown name -> ValueError listing the valid names.
    """
    _factory(name)  # validate before touching the cache (unhashable names raise ValueError too)
    return _load_cached(name, active_spec())
