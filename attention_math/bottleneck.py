"""The fixed-length bottleneck: a tiny seeded tanh RNN encoder and how much each input still shows in it.

h_t = tanh(W_x x_t + W_h h_{t-1} + b), h_0 = 0. The summary s is the last hidden state. Influence of
input i on hidden state t is the Frobenius norm of the Jacobian dh_t/dx_i, normalised over i <= t, so a
scene can show the first word's share shrinking as later words are read.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from .validation import check_positive_int, check_rank, check_size


@dataclass(frozen=True, eq=False)
class RNNEncoder:
    """Parameters of h_t = tanh(W_x x_t + W_h h_{t-1} + b)."""

    W_x: torch.Tensor  # (hidden, d_in)
    W_h: torch.Tensor  # (hidden, hidden)
    b: torch.Tensor  # (hidden,)

    @property
    def hidden_size(self) -> int:
        return self.W_h.shape[0]

    def run(self, X: torch.Tensor) -> torch.Tensor:
        """Hidden states after each input row, shape (T, hidden)."""
        X = check_rank("X", X, 2)
        check_size("X", X, 1, self.W_x.shape[1], "the encoder's input width")
        h = torch.zeros(self.hidden_size, dtype=X.dtype)
        states = []
        for x in X:
            h = torch.tanh(self.W_x @ x + self.W_h @ h + self.b)
            states.append(h)
        return torch.stack(states)


def seeded_rnn_encoder(d_in: int, hidden: int, seed: int, recurrent_scale: float, input_scale: float) -> RNNEncoder:
    """Gaussian parameters from ``torch.Generator(seed)``; recurrent_scale < 1 keeps the RNN contractive."""
    check_positive_int("d_in", d_in)
    check_positive_int("hidden", hidden)
    g = torch.Generator().manual_seed(seed)
    W_x = torch.randn(hidden, d_in, generator=g) * (input_scale / d_in**0.5)
    W_h = torch.randn(hidden, hidden, generator=g) * (recurrent_scale / hidden**0.5)
    b = torch.randn(hidden, generator=g) * 0.1
    return RNNEncoder(W_x=W_x, W_h=W_h, b=b)


@dataclass(frozen=True, eq=False)
class BottleneckSteps:
    """Hidden states, the summary vector, and each input's share of influence on each hidden state."""

    X: torch.Tensor  # (T, d_in) inputs
    encoder: RNNEncoder
    hidden_states: torch.Tensor  # (T, hidden) h_1..h_T
    summary: torch.Tensor  # (hidden,) s = h_T
    jacobian_norms: torch.Tensor  # (T, T) ||dh_t / dx_i||_F, zero for i > t
    influence: torch.Tensor  # (T, T) jacobian_norms normalised per row t (rows sum to 1)
    first_token_share: torch.Tensor  # (T,) influence[:, 0]


def bottleneck_steps(encoder: RNNEncoder, X: torch.Tensor) -> BottleneckSteps:
    """Run the encoder and measure input influence with exact Jacobians (autograd)."""
    X = check_rank("X", X, 2)
    states = encoder.run(X)
    jac = torch.autograd.functional.jacobian(encoder.run, X)  # (T, hidden, T, d_in)
    norms = jac.pow(2).sum(dim=(1, 3)).sqrt()  # (T_t, T_i)
    norms = norms.masked_fill(torch.triu(torch.ones_like(norms, dtype=torch.bool), diagonal=1), 0.0)
    influence = norms / norms.sum(dim=1, keepdim=True)
    return BottleneckSteps(
        X=X,
        encoder=encoder,
        hidden_states=states,
        summary=states[-1],
        jacobian_norms=norms,
        influence=influence,
        first_token_share=influence[:, 0],
    )
