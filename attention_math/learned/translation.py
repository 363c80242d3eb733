"""Train (or load from cache) the English→French soft-attention model and expose what it learned.

The post shows invented weights for the step that emits "café" (0.05, 0.10, 0.85). This module trains
the model in ``seq2seq.py`` on the shipped corpus and returns the real ones, plus a time-lapse of the
"I love coffee" alignment during training, for the scenes.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from torch import nn

from . import cache, corpus
from ..validation import check_positive_int
from .determinism import deterministic
from .seq2seq import Seq2SeqAttention

#: (English tokens, French tokens), as corpus.load_pairs gives them.
Pair = tuple[tuple[str, ...], tuple[str, ...]]

#: The post's example; its alignment is recorded while training.
EXAMPLE_ENGLISH: tuple[str, ...] = ("I", "love", "coffee")
KIND = "translator"
_HERE = Path(__file__).parent
# Source files whose bytes go into the cache key: editing any of them retrains instead of reusing stale weights.
_CODE = (
    *(_HERE / n for n in ("translation.py", "seq2seq.py", "corpus.py", "determinism.py")),
    _HERE.parent / "scaled.py",
)


@dataclass(frozen=True)
class TranslatorConfig:
    """Hyper-parameters; every field goes into the cache key."""

    embed_dim: int = 32
    hidden_dim: int = 64
    epochs: int = 30
    batch_size: int = 32
    learning_rate: float = 3e-3
    grad_clip: float = 1.0
    seed: int = 0
    snapshots: int = 12

    def __post_init__(self) -> None:
        for name in ("embed_dim", "hidden_dim", "epochs", "batch_size", "snapshots"):
            check_positive_int(f"TranslatorConfig.{name}", getattr(self, name))
        if self.snapshots < 2:
            raise ValueError(f"TranslatorConfig.snapshots must be >= 2 (start and end), got {self.snapshots}")
        if not (self.learning_rate > 0 and self.grad_clip > 0):
            raise ValueError("TranslatorConfig.learning_rate and grad_clip must be > 0")


@dataclass(frozen=True, eq=False)
class AlignmentSnapshot:
    """The example's alignment at one point of training.

    ``alignment`` is teacher-forced on the reference French (rows: "J'aime", "le", "café"; columns: I, love,
    coffee) so every frame has the same shape; ``greedy_french`` is what the model would say at that moment.
    """

    step: int  # optimizer steps taken so far (0 = untrained)
    loss: float  # mean cross-entropy per French token over the whole corpus, teacher-forced
    alignment: torch.Tensor  # (3, 3): reference French steps × English tokens
    greedy_french: tuple[str, ...]


@dataclass(frozen=True, eq=False)
class Translator:
    """A trained model with its vocabularies and training record."""

    model: Seq2SeqAttention
    source_vocab: corpus.Vocab
    target_vocab: corpus.Vocab
    config: TranslatorConfig
    snapshots: tuple[AlignmentSnapshot, ...]
    final_loss: float
    train_seconds: float
    cache_key: str
    from_cache: bool


@dataclass(frozen=True, eq=False)
class LearnedAlignment:
    """What the scenes show: the learned counterpart of the post's invented café weights."""

    english_tokens: tuple[str, ...]
    french_tokens: tuple[str, ...]
    alignment: torch.Tensor  # (len(french_tokens), len(english_tokens)); row r = weights when emitting word r
    snapshots: tuple[AlignmentSnapshot, ...]
    final_loss: float  # mean cross-entropy per French token over the corpus, teacher-forced
    reference_french: tuple[str, ...]  # the corpus's translation, for comparison
    train_seconds: float  # measured when the weights were trained (also when they now come from the cache)
    from_cache: bool


def _pad(rows: list[list[int]]) -> torch.Tensor:
    width = max(len(r) for r in rows)
    return torch.tensor([r + [0] * (width - len(r)) for r in rows])


@dataclass(frozen=True, eq=False)
class _Bucket:
    """All pairs with one English length: source (n, Te) needs no padding; French is padded with id 0."""

    source: torch.Tensor
    target_in: torch.Tensor  # <start> + French
    target_out: torch.Tensor  # French + <end>


def _buckets(pairs: Sequence[Pair], source_vocab: corpus.Vocab, target_vocab: corpus.Vocab) -> list[_Bucket]:
    start, end = target_vocab.index[corpus.START], target_vocab.index[corpus.END]
    by_length: dict[int, list[Pair]] = {}
    for en, fr in pairs:
        by_length.setdefault(len(en), []).append((en, fr))
    buckets = []
    for length in sorted(by_length):
        group = by_length[length]
        french = [target_vocab.encode(fr) for _, fr in group]
        buckets.append(
            _Bucket(
                source=torch.tensor([source_vocab.encode(en) for en, _ in group]),
                target_in=_pad([[start, *ids] for ids in french]),
                target_out=_pad([[*ids, end] for ids in french]),
            )
        )
    return buckets


def _epoch_batches(buckets: list[_Bucket], batch_size: int) -> list[tuple[int, torch.Tensor]]:
    """(bucket, row indices) per batch: rows shuffled within each bucket, then the batch order shuffled."""
    batches = []
    for b, bucket in enumerate(buckets):
        order = torch.randperm(bucket.source.shape[0])
        batches += [(b, order[i : i + batch_size]) for i in range(0, len(order), batch_size)]
    return [batches[i] for i in torch.randperm(len(batches)).tolist()]


def _corpus_loss(model: Seq2SeqAttention, buckets: list[_Bucket]) -> float:
    """Mean cross-entropy per French token (with <end>) over the whole corpus, teacher-forced."""
    total, count = 0.0, 0
    with torch.no_grad():
        for bucket in buckets:
            logits, _ = model(bucket.source, bucket.target_in)
            total += float(nn.functional.cross_entropy(
                logits.flatten(0, 1), bucket.target_out.flatten(), ignore_index=0, reduction="sum"
            ))
            count += int((bucket.target_out != 0).sum())
    return total / count


def reference_french(english: Sequence[str] = EXAMPLE_ENGLISH, pairs: Sequence[Pair] | None = None
                     ) -> tuple[str, ...]:
    """The corpus's French for an English sentence that is in it."""
    for en, fr in pairs if pairs is not None else corpus.load_pairs():
        if en == tuple(english):
            return fr
    raise ValueError(f"{' '.join(english)!r} is not in the corpus {corpus.CORPUS_PATH.name}")


def config_key(config: TranslatorConfig) -> str:
    return cache.cache_key(KIND, corpus.corpus_bytes(), dataclasses.asdict(config), _CODE)


def train(config: TranslatorConfig = TranslatorConfig()) -> dict[str, Any]:
    """Train from scratch (deterministic for a given config) and return the payload that gets cached."""
    pairs = corpus.load_pairs()
    source_vocab, target_vocab = corpus.build_vocabs(pairs)
    buckets = _buckets(pairs, source_vocab, target_vocab)
    example_fr = reference_french(EXAMPLE_ENGLISH, pairs)
    (example,) = _buckets([(EXAMPLE_ENGLISH, example_fr)], source_vocab, target_vocab)
    start, end = target_vocab.index[corpus.START], target_vocab.index[corpus.END]
    max_len = max(b.target_out.shape[1] for b in buckets) + 2

    started = time.perf_counter()
    with deterministic(config.seed):
        model = Seq2SeqAttention(len(source_vocab), len(target_vocab), config.embed_dim, config.hidden_dim)
        optimizer = torch.optim.Adam(model.parameters(), lr=config.learning_rate)
        batches_per_epoch = sum(math.ceil(b.source.shape[0] / config.batch_size) for b in buckets)
        total_steps = config.epochs * batches_per_epoch
        snapshot_steps = {round(i * total_steps / (config.snapshots - 1)) for i in range(config.snapshots)}
        snapshots = []

        def record(step: int) -> None:
            model.eval()
            with torch.no_grad():
                _, weights = model(example.source, example.target_in)
                ids, _ = model.greedy(example.source, start, end, max_len)
            snapshots.append(
                {
                    "step": step,
                    "loss": _corpus_loss(model, buckets),
                    "alignment": weights[0, : len(example_fr)].clone(),
                    "greedy_french": target_vocab.decode(ids),
                }
            )
            model.train()

        step = 0
        record(0)
        for _ in range(config.epochs):
            for b, rows in _epoch_batches(buckets, config.batch_size):
                bucket = buckets[b]
                logits, _ = model(bucket.source[rows], bucket.target_in[rows])
                loss = nn.functional.cross_entropy(
                    logits.flatten(0, 1), bucket.target_out[rows].flatten(), ignore_index=0
                )
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(model.parameters(), config.grad_clip)
                optimizer.step()
                step += 1
                if step in snapshot_steps:
                    record(step)
    return {
        "state_dict": model.state_dict(),
        "snapshots": snapshots,
        "final_loss": snapshots[-1]["loss"],
        "train_seconds": time.perf_counter() - started,
    }


def _build(config: TranslatorConfig, payload: dict[str, Any], key: str, from_cache: bool) -> Translator:
    pairs = corpus.load_pairs()
    source_vocab, target_vocab = corpus.build_vocabs(pairs)
    model = Seq2SeqAttention(len(source_vocab), len(target_vocab), config.embed_dim, config.hidden_dim)
    model.load_state_dict(payload["state_dict"])
    model.eval()
    snapshots = tuple(
        AlignmentSnapshot(s["step"], float(s["loss"]), s["alignment"], tuple(s["greedy_french"]))
        for s in payload["snapshots"]
    )
    return Translator(
        model, source_vocab, target_vocab, config, snapshots, float(payload["final_loss"]),
        float(payload["train_seconds"]), key, from_cache,
    )


def load_translator(config: TranslatorConfig = TranslatorConfig(), use_cache: bool = True) -> Translator:
    """The trained model: read from the cache when this exact corpus/config/code was trained before."""
    key = config_key(config)
    path = cache.cache_path(KIND, key)
    payload = cache.load(path) if use_cache else None
    if payload is not None:
        return _build(config, payload, key, from_cache=True)
    payload = train(config)
    if use_cache:
        cache.save(path, payload)
    return _build(config, payload, key, from_cache=False)


def translate(translator: Translator, english: str | tuple[str, ...]) -> tuple[tuple[str, ...], torch.Tensor]:
    """Greedy French for an English sentence (words from the corpus vocabulary) and its (F, E) alignment."""
    tokens = tuple(english.split()) if isinstance(english, str) else tuple(english)
    if not tokens:
        raise ValueError("english must contain at least one word")
    source = torch.tensor([translator.source_vocab.encode(tokens)])
    index = translator.target_vocab.index
    ids, alignment = translator.model.greedy(source, index[corpus.START], index[corpus.END], 2 * len(tokens) + 4)
    return tuple(translator.target_vocab.decode(ids)), alignment


def learned_alignment(config: TranslatorConfig = TranslatorConfig()) -> LearnedAlignment:
    """"I love coffee" through the trained model: emitted French, learned alignment and training time-lapse."""
    translator = load_translator(config)
    french, alignment = translate(translator, EXAMPLE_ENGLISH)
    return LearnedAlignment(
        english_tokens=EXAMPLE_ENGLISH,
        french_tokens=french,
        alignment=alignment,
        snapshots=translator.snapshots,
        final_loss=translator.final_loss,
        reference_french=reference_french(),
        train_seconds=translator.train_seconds,
        from_cache=translator.from_cache,
    )
