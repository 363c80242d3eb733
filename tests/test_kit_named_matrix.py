"""NamedMatrix on its own: the shape it prints is the grid's real shape, the name sits above, the shape below."""

from __future__ import annotations

import pytest
import torch

from scenes.kit import NamedMatrix, escape_markup, matrix
from scenes.kit.numbers import Source


def tiny_source(**tensors: torch.Tensor) -> Source:
    """A Source over a few hand-made tensors, without loading any example."""
    source = Source.__new__(Source)
    source.name, source.data = "tiny", dict(tensors)
    return source


WIDE = torch.tensor([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]])  # 2 rows, 3 columns: not square, so a swap shows


def test_the_shape_label_reads_the_grids_shape():
    src = tiny_source(wide=WIDE, tall=WIDE.T.contiguous())
    wide, tall = NamedMatrix(matrix(src, "wide"), "W"), NamedMatrix(matrix(src, "tall"), "W^top")
    assert wide.shape_text == "2 × 3"
    assert tall.shape_text == "3 × 2"
    assert wide.shape_label.typst_code.endswith(escape_markup("2 × 3"))


def test_axis_names_and_a_batch_the_grid_does_not_draw():
    src = tiny_source(x=WIDE)
    named = NamedMatrix(matrix(src, "x"), "X", axes=("T", "d_in"), batch=1)
    assert named.shape_text == "(B, T, d_in) = (1, 2, 3)"


def test_axis_names_must_match_the_grid():
    src = tiny_source(x=WIDE)
    with pytest.raises(ValueError, match="shape has 2 axes"):
        NamedMatrix(matrix(src, "x"), "X", axes=("B", "T", "d_in"))


def test_the_name_sits_above_the_cells_and_the_shape_below():
    src = tiny_source(x=WIDE)
    grid = matrix(src, "x")
    grid.add_row_labels(["a", "much longer word"])  # row labels widen the grid to the left only
    named = NamedMatrix(grid, "X")
    assert named.name.get_bottom()[1] > grid.get_top()[1]
    assert named.shape_label.get_top()[1] < grid.get_bottom()[1]
    for piece in (named.name, named.shape_label):
        assert piece.get_center()[0] == pytest.approx(grid.body.get_center()[0], abs=1e-6)
        assert piece.get_center()[0] > grid.get_center()[0]  # centred on the cells, not on cells + labels


def test_no_shape_label_when_asked():
    src = tiny_source(x=WIDE)
    named = NamedMatrix(matrix(src, "x"), "X", shape=False)
    assert named.shape_label is None
    assert len(named.submobjects) == 2
