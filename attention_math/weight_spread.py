"""How spread out a softmax weight matrix is: the figures behind "spreads", "almost all" and the saturation warning.

A row whose largest weight is above SATURATED is one-hot on screen (1.00 and 0.00 at two decimals); a matrix most of
whose rows are so tells no story of weighting, whatever its caption says. A causal row with one visible key is one-hot
by construction (the first token sees only itself), so only rows with at least two visible keys count.
"""

from __future__ import annotations

import torch

#: A row's largest weight above this reads as one-hot at the precision the clips show.
SATURATED = 0.95


def visible_row_maxima(weights: torch.Tensor, causal: bool = False) -> list[float]:
    """The largest weight of every row that has at least two keys to choose from (causal: row i sees i + 1 keys).

    `weights` is one row (T,), a map (T, T) or a stack of maps (H, T, T), one per head.
    """
    w = weights.detach().to(torch.float64)
    if w.dim() == 1:
        w = w.unsqueeze(0)
    n_keys, n_rows = w.shape[-1], w.shape[-2]
    maxima = []
    for k, row in enumerate(w.reshape(-1, n_keys)):
        visible = (k % n_rows) + 1 if causal else n_keys
        if visible >= 2:
            maxima.append(float(row.max()))
    return maxima


def saturated_rows(weights: torch.Tensor, causal: bool = False, threshold: float = SATURATED) -> tuple[int, int]:
    """(rows whose largest weight is above `threshold`, rows counted): how many rows are one-hot on screen."""
    maxima = visible_row_maxima(weights, causal)
    return sum(m > threshold for m in maxima), len(maxima)


def is_saturated(weights: torch.Tensor, causal: bool = False, threshold: float = SATURATED) -> bool:
    """True when more than half the counted rows are one-hot on screen (a lone row: when it is)."""
    hot, counted = saturated_rows(weights, causal, threshold)
    return counted > 0 and 2 * hot > counted


def is_nearly_uniform(weights: torch.Tensor, causal: bool = False) -> bool:
    """True when no counted row gives any key half again its even share (1.5 / visible keys): nothing concentrates."""
    w = weights.detach().to(torch.float64)
    if w.dim() == 1:
        w = w.unsqueeze(0)
    n_keys, n_rows = w.shape[-1], w.shape[-2]
    for k, row in enumerate(w.reshape(-1, n_keys)):
        visible = (k % n_rows) + 1 if causal else n_keys
        if visible >= 2 and float(row[:visible].max()) >= 1.5 / visible:
            return False
    return True
