"""One causal multi-head attention layer between a digit embedding and a linear readout.

The attention is the package's ``multihead.multihead_steps`` (split layout, causal mask, scaled scores),
with its projections as trainable parameters in the post's math layout (d_in, d_out), so the weights a
scene shows come from exactly the code the earlier clips explain.
"""

from __future__ import annotations

import math

import torch
from torch import nn

from ..multihead import SplitWeights, multihead_steps


def _matrix(rows: int, cols: int) -> nn.Parameter:
    """Uniform(±1/√rows), the scale nn.Linear uses for a layer with ``rows`` inputs."""
    bound = 1.0 / math.sqrt(rows)
    return nn.Parameter(torch.empty(rows, cols).uniform_(-bound, bound))


class CausalHeadsModel(nn.Module):
    def __init__(self, vocab_size: int, seq_len: int, d_model: int, n_heads: int, n_outputs: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.n_outputs = n_outputs
        self.vocab_size = vocab_size
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Parameter(torch.randn(seq_len, d_model) * 0.5)
        self.W_q = _matrix(d_model, d_model)
        self.W_k = _matrix(d_model, d_model)
        self.W_v = _matrix(d_model, d_model)
        self.W_o = _matrix(d_model, d_model)
        self.b_o = nn.Parameter(torch.zeros(d_model))
        self.readout = nn.Linear(d_model, n_outputs * vocab_size)

    def forward(self, tokens: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """tokens (B, T) → logits (B, T, n_outputs, V) and attention weights (B, n_heads, T, T)."""
        x = self.token_embedding(tokens) + self.position_embedding[: tokens.shape[1]]
        steps = multihead_steps(
            x, SplitWeights(W_q=self.W_q, W_k=self.W_k, W_v=self.W_v), self.W_o, self.b_o,
            n_heads=self.n_heads, causal=True,
        )
        logits = self.readout(steps.output).unflatten(-1, (self.n_outputs, self.vocab_size))
        return logits, steps.attention.weights
