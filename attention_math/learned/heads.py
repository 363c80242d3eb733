"""Train (or load from cache) the multi-head causal model and measure what each head learned.

The post says different heads "can learn different score patterns (for example local adjacency versus
longer-range links)". Here that is measured: on the task in ``heads_task.py`` one head should put its
weight on the previous token (offset 1) and another on the token ``distant_offset`` back.
"""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from torch import nn

from . import cache
from ..validation import check_positive_int
from .determinism import deterministic
from .heads_model import CausalHeadsModel
from .heads_task import IGNORE, OUTPUTS, HeadsTask

KIND = "heads"
_HERE = Path(__file__).parent
# Source files whose bytes go into the cache key: editing any of them retrains instead of reusing stale weights.
_CODE = (
    *(_HERE / n for n in ("heads.py", "heads_model.py", "heads_task.py", "determinism.py")),
    *(_HERE.parent / n for n in ("multihead.py", "scaled.py", "qkv.py", "attention_dropout.py")),
)
EVAL_SEQUENCES = 512


@dataclass(frozen=True)
class HeadsConfig:
    """Task and hyper-parameters; every field goes into the cache key."""

    task: HeadsTask = HeadsTask()
    d_model: int = 32
    n_heads: int = 2
    steps: int = 600
    batch_size: int = 128
    learning_rate: float = 3e-3
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("d_model", "n_heads", "steps", "batch_size"):
            check_positive_int(f"HeadsConfig.{name}", getattr(self, name))
        if not 2 <= self.n_heads <= 4:
            raise ValueError(f"HeadsConfig.n_heads must be 2, 3 or 4, got {self.n_heads}")
        if self.d_model % self.n_heads:
            raise ValueError(f"HeadsConfig.d_model={self.d_model} must be divisible by n_heads={self.n_heads}")
        if not self.learning_rate > 0:
            raise ValueError(f"HeadsConfig.learning_rate must be > 0, got {self.learning_rate}")


@dataclass(frozen=True)
class HeadMetrics:
    """Mean attention weight a head puts on offset 1 and on offset k, over query positions t ≥ k."""

    head: int
    previous_token_mass: float
    distant_offset_mass: float

    @property
    def other_mass(self) -> float:
        return 1.0 - self.previous_token_mass - self.distant_offset_mass


@dataclass(frozen=True, eq=False)
class LearnedHeads:
    """What the scenes show: each head's learned pattern on one example sequence, with measurements."""

    task_description: str
    distant_offset: int
    tokens: tuple[int, ...]  # the example sequence, length T
    targets: tuple[tuple[int, int] | None, ...]  # (x[t-1], x[t-k]) per position; None where t < distant_offset
    weights: torch.Tensor  # (n_heads, T, T), row t = where position t looks (causal: zero above the diagonal)
    head_metrics: tuple[HeadMetrics, ...]  # measured on the example sequence
    eval_head_metrics: tuple[HeadMetrics, ...]  # measured on EVAL_SEQUENCES fresh random sequences
    previous_token_head: int  # the head with the most mass on offset 1 (eval set)
    distant_head: int  # the head with the most mass on offset k (eval set)
    final_loss: float  # cross-entropy on the eval set
    accuracy: float  # fraction of eval-set target digits (both outputs) predicted exactly
    train_seconds: float  # measured when the weights were trained (also when they now come from the cache)
    from_cache: bool


def head_metrics(weights: torch.Tensor, distant_offset: int) -> tuple[HeadMetrics, ...]:
    """Per-head mean weight on the previous-token diagonal and on the diagonal ``distant_offset`` back.

    weights: (..., n_heads, T, T). Averaged over batch and over query positions t ≥ distant_offset, the ones
    that have both a previous token and a token that far back.
    """
    if weights.dim() < 3 or weights.shape[-1] != weights.shape[-2]:
        raise ValueError(f"weights must be (..., n_heads, T, T), got shape {tuple(weights.shape)}")
    T, k = weights.shape[-1], distant_offset
    if not 2 <= k < T:
        raise ValueError(f"distant_offset must be in [2, T={T}), got {k}")
    w = weights.detach().reshape(-1, *weights.shape[-3:])
    rows = torch.arange(k, T)
    previous = w[:, :, rows, rows - 1].mean(dim=(0, 2))
    distant = w[:, :, rows, rows - k].mean(dim=(0, 2))
    return tuple(HeadMetrics(h, float(previous[h]), float(distant[h])) for h in range(w.shape[1]))


def _loss(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """Mean cross-entropy over every target digit (both outputs, positions t ≥ k)."""
    return nn.functional.cross_entropy(logits.flatten(0, -2), targets.flatten(), ignore_index=IGNORE)


def _eval_batch(config: HeadsConfig) -> torch.Tensor:
    return config.task.sample(EVAL_SEQUENCES, torch.Generator().manual_seed(10_000 + config.seed))


def example_tokens(config: HeadsConfig) -> torch.Tensor:
    """The fixed example sequence the scenes show, (T,)."""
    return config.task.sample(1, torch.Generator().manual_seed(20_000 + config.seed))[0]


def _evaluate(model: CausalHeadsModel, config: HeadsConfig) -> tuple[float, float, torch.Tensor]:
    tokens = _eval_batch(config)
    targets = config.task.targets(tokens)
    with torch.no_grad():
        logits, weights = model(tokens)
    loss = float(_loss(logits, targets))
    scored = targets != IGNORE
    accuracy = float((logits.argmax(-1) == targets)[scored].float().mean())
    return loss, accuracy, weights


def config_key(config: HeadsConfig) -> str:
    data = json.dumps(dataclasses.asdict(config.task), sort_keys=True).encode()
    return cache.cache_key(KIND, data, dataclasses.asdict(config), _CODE)


def _new_model(config: HeadsConfig) -> CausalHeadsModel:
    t = config.task
    return CausalHeadsModel(t.vocab_size, t.seq_len, config.d_model, config.n_heads, n_outputs=len(OUTPUTS))


def train(config: HeadsConfig = HeadsConfig()) -> dict[str, Any]:
    """Train from scratch on fresh random batches (deterministic for a given config); returns the payload."""
    started = time.perf_counter()
    with deterministic(config.seed):
        model = _new_model(config)
        optimizer = torch.optim.Adam(model.parameters(), lr=config.learning_rate)
        for _ in range(config.steps):
            tokens = config.task.sample(config.batch_size)
            logits, _ = model(tokens)
            loss = _loss(logits, config.task.targets(tokens))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    return {"state_dict": model.state_dict(), "train_seconds": time.perf_counter() - started}


@dataclass(frozen=True, eq=False)
class TrainedHeads:
    """A trained model (eval mode) with its training record."""

    model: CausalHeadsModel
    config: HeadsConfig
    train_seconds: float
    cache_key: str
    from_cache: bool


def load_heads_model(config: HeadsConfig = HeadsConfig(), use_cache: bool = True) -> TrainedHeads:
    """The trained model: read from the cache when this exact task/config/code was trained before."""
    key = config_key(config)
    path = cache.cache_path(KIND, key)
    payload = cache.load(path) if use_cache else None
    from_cache = payload is not None
    if payload is None:
        payload = train(config)
        if use_cache:
            cache.save(path, payload)
    model = _new_model(config)
    model.load_state_dict(payload["state_dict"])
    model.eval()
    return TrainedHeads(model, config, float(payload["train_seconds"]), key, from_cache)


def learned_heads(config: HeadsConfig = HeadsConfig()) -> LearnedHeads:
    """Each head's attention on the example sequence, the measured specialisation, loss and accuracy."""
    trained = load_heads_model(config)
    model = trained.model
    k = config.task.distant_offset
    tokens = example_tokens(config)
    with deterministic(config.seed), torch.no_grad():  # one thread: same numbers, no spinning on a busy machine
        loss, accuracy, eval_weights = _evaluate(model, config)
        _, weights = model(tokens.unsqueeze(0))
    eval_metrics = head_metrics(eval_weights, k)
    targets = config.task.targets(tokens)
    return LearnedHeads(
        task_description=config.task.description,
        distant_offset=k,
        tokens=tuple(tokens.tolist()),
        targets=tuple(None if pair[0] == IGNORE else tuple(pair) for pair in targets.tolist()),
        weights=weights[0],
        head_metrics=head_metrics(weights, k),
        eval_head_metrics=eval_metrics,
        previous_token_head=max(eval_metrics, key=lambda m: m.previous_token_mass).head,
        distant_head=max(eval_metrics, key=lambda m: m.distant_offset_mass).head,
        final_loss=loss,
        accuracy=accuracy,
        train_seconds=trained.train_seconds,
        from_cache=trained.from_cache,
    )
