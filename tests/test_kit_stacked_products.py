"""DotProducts and WeightedRows take their stacked (portrait) form on request in a wide frame too, and their
side-by-side form on request: `stacked=None` (the default) still follows the body's shape."""

from __future__ import annotations

from scenes.kit import DotProducts, WeightedRows
from tests.test_kit_products import M, PRODUCTS, SCALED, SUMS, TOTAL, V, W, tiny_source


def dots(**kwargs) -> DotProducts:
    src = tiny_source(M=M, v=V, terms=PRODUCTS, sums=SUMS)
    return DotProducts(src, matrix="M", vector="v", products="terms", result="sums", **kwargs)


def rows(**kwargs) -> WeightedRows:
    src = tiny_source(w=W, M=M, scaled=SCALED, total=TOTAL)
    return WeightedRows(src, weights="w", matrix="M", products="scaled", result="total", **kwargs)


def under(upper, lower) -> bool:
    return lower.get_top()[1] < upper.get_bottom()[1]


def right_of(left, right) -> bool:
    return right.get_left()[0] > left.get_right()[0]


def test_dot_products_stack_on_request_in_a_wide_frame():
    comp = dots(stacked=True)
    assert under(comp.matrix, comp.vector) and under(comp.vector, comp.products)
    assert right_of(comp.products, comp.result)


def test_dot_products_default_follows_the_frame():
    for comp in (dots(), dots(stacked=False)):  # the test frame is landscape: side by side
        assert right_of(comp.matrix, comp.products) and right_of(comp.products, comp.result)


def test_weighted_rows_stack_on_request_in_a_wide_frame():
    comp = rows(stacked=True)
    assert under(comp.matrix, comp.products)
    # the arrow points down in the gap between the matrix and the products
    assert comp.arrow.get_top()[1] <= comp.matrix.get_bottom()[1] + 1e-6
    assert comp.arrow.get_bottom()[1] >= comp.products.get_top()[1] - 1e-6


def test_weighted_rows_default_follows_the_frame():
    for comp in (rows(), rows(stacked=False)):
        assert right_of(comp.matrix, comp.products)
