"""scenes/speed/bounds_speed.py finds the same boundary points as manim, row for row, for every kind of family."""

from __future__ import annotations

import numpy as np
import pytest
from manim import RIGHT, Circle, Dot, Line, MathTypst, Square, Text, VGroup, VMobject, tempconfig

from scenes.speed import bounds_speed


@pytest.fixture(autouse=True)
def media(tmp_path):
    with tempconfig({"media_dir": str(tmp_path), "verbosity": "ERROR"}):
        yield


def _one_point() -> VMobject:
    mobject = VMobject()
    mobject.points = np.array([[1.0, 2.0, 0.0]])
    return mobject


def _uneven() -> VMobject:
    mobject = VMobject()
    mobject.points = np.arange(15, dtype=float).reshape(5, 3)
    return mobject


SHAPES = {
    "typst": lambda: MathTypst("sum_i alpha_i h_i = 0.53"),
    "text": lambda: Text("coffee café", font_size=36),
    "group": lambda: VGroup(Square(), VGroup(Circle(), VGroup()), Line()).arrange(RIGHT),
    "empty": VGroup,
    "one point": _one_point,
    "one point in a group": lambda: VGroup(_one_point(), Dot()),
}


@pytest.mark.parametrize("name", list(SHAPES))
def test_the_boundary_is_manims_row_for_row(name):
    shape = SHAPES[name]()
    stock = bounds_speed._stock_get_points_defining_boundary(shape)
    fast = bounds_speed.get_points_defining_boundary(shape)
    assert fast.dtype == stock.dtype and fast.shape == stock.shape and np.array_equal(fast, stock)
    assert all(bounds_speed._anchors(member) is not None for member in shape.get_family())  # the fast path ran


def test_points_that_are_not_whole_curves_get_manims_own_answer():
    with pytest.raises(ValueError):  # manim's zip(strict=True): the same error, not a made-up boundary
        bounds_speed._stock_get_points_defining_boundary(_uneven())
    with pytest.raises(ValueError):
        bounds_speed.get_points_defining_boundary(VGroup(Square(), _uneven()))


def test_installed_positions_are_the_same():
    shape = SHAPES["group"]()
    before = [shape.get_center(), shape.get_corner(RIGHT), shape.width, shape.height]
    saved = VMobject.get_points_defining_boundary
    bounds_speed.install()
    try:
        after = [shape.get_center(), shape.get_corner(RIGHT), shape.width, shape.height]
    finally:
        VMobject.get_points_defining_boundary = saved
    assert all(np.array_equal(a, b) for a, b in zip(before, after))


@pytest.mark.parametrize("name", list(SHAPES))
@pytest.mark.parametrize("dim", [0, 1, 2])
def test_a_length_is_manims_to_the_bit(name, dim):
    shape = SHAPES[name]().rotate(0.3)
    stock = bounds_speed._stock_length_over_dim(shape, dim)
    fast = bounds_speed.length_over_dim(shape, dim)
    assert type(fast) is type(stock) and fast == stock


def test_a_length_with_a_nan_is_manims_own_answer():
    shape = VGroup(Square(), _one_point())
    shape[1].points[0, 0] = float("nan")
    stock, fast = (f(shape, 0) for f in (bounds_speed._stock_length_over_dim, bounds_speed.length_over_dim))
    assert stock == fast or (stock != stock and fast != fast)
