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


def width_scaled(scale_at_anchor: float, width: int, anchor_width: int) -> float:
    """A seeded matrix's scale for inputs of `width`, as nn.Linear's init scales with 1/sqrt(d_in).

    Equal to `scale_at_anchor` at `anchor_width` (the post's width, so the post's numbers do not change) and
    shrinking as 1/sqrt(width) beyond it, so a product with a wider input keeps the same spread instead of growing
    until every softmax row is one-hot.
    """
    if width < 1 or anchor_width < 1:
        raise ValueError(f"width and anchor_width must be positive, got {width} and {anchor_width}")
    return scale_at_anchor if width == anchor_width else scale_at_anchor * (anchor_width / width) ** 0.5
