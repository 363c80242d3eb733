"""scenes/speed/colour_speed.py leaves every fill and stroke array as manim's own update_rgbas_array does."""

from __future__ import annotations

import numpy as np
import pytest
from manim import BLUE, RED, Circle, ManimColor, Square, Text, VGroup, VMobject, tempconfig
from manim.utils.color import HSV

from scenes.speed import colour_speed


@pytest.fixture(autouse=True)
def media(tmp_path):
    with tempconfig({"media_dir": str(tmp_path), "verbosity": "ERROR"}):
        yield


def _shiny() -> VMobject:
    circle = Circle()
    circle.set_sheen(0.3)
    return circle


def _gradient() -> VMobject:
    square = Square()
    square.set_fill([RED, BLUE], opacity=0.5)  # two rows in the fill array
    return square


SHAPES = {"square": Square, "text": lambda: Text("café 0.53"), "shiny": _shiny, "gradient": _gradient,
          "group": lambda: VGroup(Square(), VGroup(Circle(), VGroup())), "empty": VMobject}

CALLS = [("fill", RED, 0.4), ("fill", None, 0.0), ("fill", BLUE, None), ("fill", None, None), ("fill", RED, 1),
         ("stroke", ManimColor("#FF8800"), 0.7), ("stroke", None, 0.25), ("fill", "#00FF00", 0.5),
         ("fill", HSV((0.3, 0.5, 0.9)), 0.6), ("fill", [RED, BLUE], 0.5), ("fill", RED, [0.2, 0.9]),
         ("fill", None, np.float64(0.3))]


def _arrays(mob: VMobject) -> list[np.ndarray]:
    return [np.array(getattr(m, name)) for m in mob.get_family()
            for name in ("fill_rgbas", "stroke_rgbas", "background_stroke_rgbas") if hasattr(m, name)]


@pytest.mark.parametrize("shape", list(SHAPES))
def test_every_call_leaves_the_arrays_manim_leaves(shape, monkeypatch):
    for kind, color, opacity in CALLS:
        ours, stock = SHAPES[shape](), SHAPES[shape]()
        monkeypatch.setattr(VMobject, "update_rgbas_array", colour_speed._update_rgbas_array)
        getattr(ours, f"set_{kind}")(color=color, opacity=opacity)
        monkeypatch.setattr(VMobject, "update_rgbas_array", colour_speed._stock_update_rgbas_array)
        getattr(stock, f"set_{kind}")(color=color, opacity=opacity)
        for a, b in zip(_arrays(ours), _arrays(stock), strict=True):
            assert a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a, b), (shape, kind, color, opacity)


def test_the_common_call_takes_the_short_way(monkeypatch):
    """Without this, the test above would pass with the patch never taking its own path."""
    square, shiny = Square(), _shiny()  # made first: with the patches installed, making them goes through it too
    calls = []
    monkeypatch.setattr(colour_speed, "_stock_update_rgbas_array", lambda *args: calls.append(args))
    colour_speed._update_rgbas_array(square, "fill_rgbas", RED, 0.4)
    colour_speed._update_rgbas_array(square, "stroke_rgbas", None, 0.2)
    assert calls == [] and square.fill_rgbas[0, 3] == 0.4 and square.stroke_rgbas[0, 3] == 0.2
    colour_speed._update_rgbas_array(shiny, "fill_rgbas", RED, 0.4)
    assert len(calls) == 1
