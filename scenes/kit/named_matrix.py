"""A matrix with its name above and its shape below: the unit of every "X · W = Q" row.

The shape is read from the grid's own tensor, never typed, so an example with 8 tokens says "8 × 6" by itself.
Name and shape sit at named gaps from the grid (scenes.kit.layout), centred on its cells (not on any row labels).
"""

from __future__ import annotations

from collections.abc import Sequence

from manim import DOWN, UP, Mobject, VGroup

from . import layout, palette, typography
from .text import label, math
from .widgets import TensorGrid


def shape_text(shape: Sequence[int], axes: Sequence[str] | None = None) -> str:
    """"4 × 3", or with axis names "(T, d_in) = (4, 3)"."""
    sizes = [str(int(n)) for n in shape]
    if axes is None:
        return " × ".join(sizes)
    if len(axes) != len(sizes):
        raise ValueError(f"shape has {len(sizes)} axes ({', '.join(sizes)}) but {len(axes)} axis names were given: "
                         f"{', '.join(axes)}")
    return f"({', '.join(axes)}) = ({', '.join(sizes)})"


class NamedMatrix(VGroup):
    """`grid` with `name` above it and, unless `shape=False`, its shape below it.

    `name` is Typst math ("W_Q") or a ready mobject. `axes` names the grid's axes ("T", "d_in") to show
    "(T, d_in) = (4, 3)"; `batch` prefixes a batch axis the grid does not draw (a grid of X[0] in a batch of one
    reads "(B, T, d_in) = (1, 4, 3)" with axes ("T", "d_in") and batch=1).
    """

    def __init__(self, grid: TensorGrid, name: str | Mobject, *, shape: bool = True,
                 axes: Sequence[str] | None = None, batch: int | None = None, color=palette.TEXT,
                 font_size: float = typography.BODY_SIZE + 2, shape_color=palette.MUTED):
        super().__init__()
        self.grid = grid
        self.name = math(name, font_size=font_size, color=color) if isinstance(name, str) else name
        self.name.next_to(grid, UP, buff=layout.NEAR).match_x(grid.body)
        self.add(grid, self.name)
        self.shape_label: Mobject | None = None
        if shape:
            sizes, names = tuple(grid.shape_2d), axes
            if batch is not None:
                if axes is None:
                    raise ValueError("batch= needs axes= (the names of the axes the grid draws)")
                sizes, names = (batch, *sizes), ("B", *axes)
            self.shape_text = shape_text(sizes, names)
            self.shape_label = label(self.shape_text, font_size=typography.SMALL_SIZE, color=shape_color, mono=True)
            self.shape_label.next_to(grid, DOWN, buff=layout.NEAR).match_x(grid.body)
            self.add(self.shape_label)

    @property
    def body(self) -> VGroup:
        """The grid's cells, so a NamedMatrix can stand wherever a TensorGrid's body is used for placement."""
        return self.grid.body
