"""Seeded, rounded weight matrices for the worked examples.

Rounded to a few decimals so the matrix a scene prints is exactly the matrix the math used.
"""

from __future__ import annotations

import torch


def seeded_matrix(shape: tuple[int, ...], seed: int, scale: float = 1.0, decimals: int = 1) -> torch.Tensor:
    """N(0, scale^2) entries from ``torch.Generator(seed)``, rounded to ``decimals`` places, float32."""
    g = torch.Generator().manual_seed(seed)
    values = torch.randn(*shape, generator=g, dtype=torch.float64) * scale
    # "+ 0.0" turns -0.0 into 0.0 so no scene prints a negative zero.
    return (values.round(decimals=decimals) + 0.0).to(torch.float32)
