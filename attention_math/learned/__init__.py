"""Models trained on CPU in seconds, so the clips can show learned attention instead of invented numbers.

* ``learned_alignment()`` — a GRU encoder–decoder with soft attention, trained on the shipped English→French
  corpus (``data/en_fr.tsv``); the "I love coffee" → "J'aime le café" alignment and its training time-lapse.
* ``learned_heads()`` — one causal multi-head attention layer trained on a task that needs the previous
  token and a token k back; each head's pattern and how much of it sits on each offset.

Weights are cached under ``$ATTENTION_CACHE_DIR`` (default ``~/.cache/attention-animated``), keyed by a hash
of the data, hyper-parameters, torch version and training code. Nothing is downloaded.
"""

from .heads import HeadMetrics, HeadsConfig, LearnedHeads, TrainedHeads, head_metrics, learned_heads, load_heads_model
from .heads_task import HeadsTask
from .translation import (
    AlignmentSnapshot,
    LearnedAlignment,
    Translator,
    TranslatorConfig,
    learned_alignment,
    load_translator,
    translate,
)

__all__ = [
    "AlignmentSnapshot",
    "HeadMetrics",
    "HeadsConfig",
    "HeadsTask",
    "LearnedAlignment",
    "LearnedHeads",
    "TrainedHeads",
    "Translator",
    "TranslatorConfig",
    "head_metrics",
    "learned_alignment",
    "learned_heads",
    "load_heads_model",
    "load_translator",
    "translate",
]
