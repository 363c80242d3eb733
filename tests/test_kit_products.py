"""The row-times-vector kit piece alone, on a tiny hand-made Source: the products and sums it shows are the traced
values at the right indices, they sit on their row, and the motion boxes the row and copies into what it shows."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from manim import RIGHT, Create, ReplacementTransform

from scenes.kit import DotProducts, WeightedRows, row_times_vector
from scenes.kit.numbers import Source, TracedNumber
from scenes.kit.motion import Travel

# Hand-worked: M · v row by row. Products and sums typed here from pencil arithmetic, not computed by the kit.
M = torch.tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 0.0]])
V = torch.tensor([0.5, 2.0])
PRODUCTS = torch.tensor([[0.5, 4.0], [1.5, -2.0], [0.25, 0.0]])
SUMS = torch.tensor([4.5, -0.5, 0.25])
# Weighted rows: w = (0.5, 0.25, 0.25) times the rows of M, then added column by column.
W = torch.tensor([0.5, 0.25, 0.25])
SCALED = torch.tensor([[0.5, 1.0], [0.75, -0.25], [0.125, 0.0]])
TOTAL = torch.tensor([1.375, 0.75])


def tiny_source(**tensors: torch.Tensor) -> Source:
    """A Source over a few hand-made tensors, without loading any example."""
    source = Source.__new__(Source)
    source.name, source.data = "tiny", dict(tensors)
    return source


def shown(mob) -> list[str]:
    return [n.shown_text for n in mob.get_family() if isinstance(n, TracedNumber)]


def traces(mob) -> list[tuple[str, tuple[int, ...]]]:
    return [(n.trace.path, n.trace.index) for n in mob.get_family() if isinstance(n, TracedNumber)]


@pytest.fixture(scope="module")
def dots() -> DotProducts:
    src = tiny_source(M=M, v=V, terms=PRODUCTS, sums=SUMS)
    return DotProducts(src, matrix="M", vector="v", products="terms", result="sums", row_labels=["a", "b", "c"])


def test_products_and_sums_are_the_traced_values_of_each_row(dots):
    assert shown(dots.products.row(1)) == ["1.50", "-2.00"]
    assert traces(dots.products.row(1)) == [("terms", (1, 0)), ("terms", (1, 1))]
    assert [shown(dots.result.cell(i)) for i in range(3)] == [["4.50"], ["-0.50"], ["0.25"]]
    assert traces(dots.result.cell(2)) == [("sums", (2,))]
    assert shown(dots.vector) == ["0.50", "2.00"]


def test_each_rows_products_and_sum_sit_on_the_matrix_row(dots):
    for i in range(3):
        row, products, result = dots.row(i)
        y = row.get_center()[1]
        assert products.get_center()[1] == pytest.approx(y, abs=1e-6)
        assert result.get_center()[1] == pytest.approx(y, abs=1e-6)
        assert row.get_center()[0] < products.get_center()[0] < result.get_center()[0]
    ys = [dots.row(i)[0].get_center()[1] for i in range(3)]
    assert ys[0] > ys[1] > ys[2]  # first row on top


def test_vector_entries_stand_over_the_products_they_make(dots):
    for k in range(2):
        assert dots.vector.cell(0, k).get_center()[0] == pytest.approx(dots.products.column(k).get_center()[0],
                                                                      abs=1e-6)
    assert dots.vector.get_bottom()[1] > dots.products.get_top()[1]
    widths = {round(c[0].width, 6) for grid in (dots.matrix, dots.products, dots.result, dots.vector)
              for row in grid.cells for c in row}
    assert len(widths) == 1  # one shared cell width, so columns line up across the grids


def test_weighted_rows_shows_each_scaled_row_and_the_column_sums():
    src = tiny_source(w=W, M=M, scaled=SCALED, total=TOTAL)
    comp = WeightedRows(src, weights="w", matrix="M", products="scaled", result="total")
    assert shown(comp.products.row(1)) == ["0.75", "-0.25"]
    assert shown(comp.result) == ["1.38", "0.75"]
    for i in range(3):
        weight, row, products = comp.row(i)
        assert weight.get_center()[1] == pytest.approx(row.get_center()[1], abs=1e-6)
        assert products.get_center()[1] == pytest.approx(row.get_center()[1], abs=1e-6)
    for k in range(2):
        assert comp.result.cell(0, k).get_center()[0] == pytest.approx(comp.products.column(k).get_center()[0],
                                                                      abs=1e-6)
    assert comp.result.get_top()[1] < comp.products.get_bottom()[1]


def test_weights_can_stand_right_of_the_matrix():
    src = tiny_source(w=W, M=M, scaled=SCALED, total=TOTAL)
    comp = WeightedRows(src, weights="w", matrix="M", products="scaled", result="total", weights_side=RIGHT)
    assert comp.matrix.get_center()[0] < comp.weights.get_center()[0] < comp.products.get_center()[0]


class RecordingScene:
    """Stands in for a Scene: keeps the animations each play() was given."""

    def __init__(self):
        self.plays = []

    def play(self, *animations, **kwargs):
        self.plays.append(animations)


def test_the_motion_boxes_the_row_copies_into_the_products_then_adds(dots):
    scene = RecordingScene()
    row, products, result = dots.row(0)
    first = row_times_vector(scene, row, dots.vector.body, products, result)
    assert len(scene.plays) == 2
    box_anim, *copy_anims = scene.plays[0]
    assert isinstance(box_anim, Create) and box_anim.mobject is first.box
    assert np.allclose(first.box.get_center(), row.get_center(), atol=1e-6)
    assert first.box.width > row.width and first.box.height > row.height
    # Travel animates `mobject` (what appears) out of `source` (what it is copied from): entry k of the vector and of
    # the row travel together into product k
    assert len(copy_anims) == len(products.submobjects) == len(row.submobjects)
    for k, copy_anim in enumerate(copy_anims):
        assert isinstance(copy_anim, Travel) and copy_anim.mobject is products[k]
        assert [id(m) for m in copy_anim.source.submobjects] == [id(dots.vector.body[k]), id(row[k])]
    (add_anim,) = scene.plays[1]
    assert isinstance(add_anim, Travel) and add_anim.mobject is result
    assert add_anim.source is products
    assert first.products is products and first.result is result

    row, products, _ = dots.row(1)
    second = row_times_vector(scene, row, dots.vector.body, products, None, box=first.box)
    assert len(scene.plays) == 3  # no sum asked for: no adding move
    slide = scene.plays[2][0]
    assert isinstance(slide, ReplacementTransform) and slide.mobject is first.box
    assert slide.target_mobject is second.box
    assert second.result is None


def test_a_row_box_stands_off_its_cells_only_where_the_rows_leave_room():
    """Square and compact rows: a hairline off the cells. Hairline rows: on the cells' edge, so it crosses no digit
    of the rows above and below (whose digits sit a hairline or two from the shared edge)."""
    from scenes.kit import layout, legible_fit
    from scenes.kit.products import row_box_buff

    source = tiny_source(M=M, v=V, p=PRODUCTS, s=SUMS)
    square, compact, hairline = legible_fit.row_heights()
    buffs = [row_box_buff(DotProducts(source, matrix="M", vector="v", products="p", result="s",
                                      cell_size=cell).matrix.row(1)) for cell in (square, compact, hairline)]
    assert buffs == [layout.HAIRLINE, layout.HAIRLINE, 0.0]
    grid = DotProducts(source, matrix="M", vector="v", products="p", result="s", cell_size=hairline).matrix
    digits_above = max(part.get_bottom()[1] for part in grid.row(0).submobjects for part in part.submobjects[1:])
    assert digits_above - (grid.row(1).get_top()[1] + row_box_buff(grid.row(1))) >= 2 * layout.HAIRLINE  # clear
