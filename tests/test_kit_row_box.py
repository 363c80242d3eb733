"""A row's highlight box (scenes.kit.widgets.row_box) never runs through a number that fills its cell, and sits
on the row's own ends where the cells leave room."""

from __future__ import annotations

import torch

from scenes.kit.numbers import Source, TracedNumber
from scenes.kit.widgets import ROW_BOX_SIDE, TensorGrid, row_box

SCORES = torch.tensor([[-0.06, 0.19, 0.41], [0.15, 0.35, 0.19]])  # typed: the box only frames them


def _source() -> Source:
    source = Source.__new__(Source)
    source.name, source.data = "tiny", {"scores": SCORES}
    return source


def _numbers(row):
    return [mob for mob in row.get_family() if isinstance(mob, TracedNumber)]


def test_a_row_whose_numbers_fill_their_cells_gets_a_box_that_clears_them():
    grid = TensorGrid(_source(), "scores", shading="diverging")
    widest = max(n.width for n in _numbers(grid.row(0)))
    packed = TensorGrid(_source(), "scores", shading="diverging", cell_width=widest)  # "−0.06" edge to edge
    row = packed.row(0)
    box = row_box(row)
    assert min(n.get_left()[0] for n in _numbers(row)) - box.get_left()[0] >= ROW_BOX_SIDE - 1e-6
    assert box.get_right()[0] - max(n.get_right()[0] for n in _numbers(row)) >= ROW_BOX_SIDE - 1e-6
    assert abs(box.height - row.height) < 1e-6, "on the row's own top and bottom: the rows above and below touch it"


def test_a_row_with_room_in_its_cells_gets_a_box_on_its_own_ends():
    row = TensorGrid(_source(), "scores", shading="diverging", cell_width=1.5).row(1)
    box = row_box(row)
    assert abs(box.width - row.width) < 1e-6 and abs(box.height - row.height) < 1e-6
