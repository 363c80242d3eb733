"""PyTorch math behind the clips of "Attention from Scratch" (never imports manim).

Functional forms that return every intermediate as frozen dataclasses:
``soft`` (encoder-decoder soft attention), ``self_attention`` (weight-free), ``qkv`` and ``scaled``
(scaled Q/K/V attention), ``causal`` (mask, wrong order), ``attention_dropout``, ``multihead`` (split and
stacked layouts), plus the walk-throughs ``teacher_forcing``, ``bottleneck`` and ``saturation``.
``modules`` has the post's four nn.Modules (state_dict-compatible with the post's code; also importable from
the package itself: ``from attention_math import SelfAttention``) and ``conversion``
moves weights between the stacked and split multi-head layouts.
``toy_data`` holds the post's numbers; ``example_spec`` reads and checks an example file (the post's own,
``data/post.toml``, ships with the package) and ``examples`` computes every record a scene shows from one.

The distribution ``attention-math`` (this folder's pyproject.toml) depends on torch and numpy only.
"""

#: The one place the version is written (pyproject.toml reads it). Any change to the package's code or data bumps
#: it: tests/test_version.py holds a hash of the sources per version and fails until it is bumped.
__version__ = "0.1.0"

from . import (
    attention_dropout,
    bottleneck,
    causal,
    conversion,
    example_spec,
    examples,
    modules,
    multihead,
    qkv,
    saturation,
    scaled,
    self_attention,
    soft,
    teacher_forcing,
    toy_data,
    validation,
)
from .modules import CausalSelfAttention, MultiHeadCausalAttention, MultiHeadCausalAttentionStacked, SelfAttention

__all__ = [
    "__version__",
    "SelfAttention",
    "CausalSelfAttention",
    "MultiHeadCausalAttentionStacked",
    "MultiHeadCausalAttention",
    "attention_dropout",
    "bottleneck",
    "causal",
    "conversion",
    "example_spec",
    "examples",
    "modules",
    "multihead",
    "qkv",
    "saturation",
    "scaled",
    "self_attention",
    "soft",
    "teacher_forcing",
    "toy_data",
    "validation",
]
