"""A grid or map built again with the same arguments is a copy of the first build: the same mobject (points,
colours, numbers and their traces, parts), a new object each time, never touched by what a caller did to its own."""

from __future__ import annotations

import contextlib

import numpy as np
import pytest
import torch
from manim import VGroup, tempconfig

from scenes.kit import reuse
from scenes.kit.attention_map import AttentionMap
from scenes.kit.numbers import Source as Source_, TracedNumber
from scenes.kit.text import holds_a_rule
from scenes.kit.widgets import TensorGrid


@pytest.fixture(autouse=True)
def media(tmp_path):
    with tempconfig({"media_dir": str(tmp_path), "verbosity": "ERROR"}):
        reuse.forget()
        yield
        reuse.forget()


# Hand-made weights (rows sum to one, lower triangular); not produced by the code under test.
WEIGHTS = torch.tensor([[1.0, 0.0, 0.0], [0.3, 0.7, 0.0], [0.1, 0.6, 0.3]])
WORDS = ["a", "considerably", "cat"]


def Source(name: str = "hand") -> Source_:  # noqa: N802
    """A Source over the hand-made weights, without loading any example (a new object each call)."""
    source = Source_.__new__(Source_)
    source.name, source.data = name, {"weights": WEIGHTS}
    return source


def picture(mob):
    """Everything a mobject draws and says, member by member."""
    return [(type(m).__name__, m.points.round(12).tolist(), m.fill_rgbas.tolist(), m.stroke_rgbas.tolist(),
             m.stroke_width, getattr(m, "shown_text", None) if isinstance(m, TracedNumber) else None)
            for m in mob.get_family()]


def build_map(src):
    return AttentionMap(src, "weights", WORDS, causal=True, font_size=20, query_label="query i")


def test_a_second_build_is_a_copy_of_the_first_and_draws_the_same():
    src = Source()
    first = TensorGrid(src, "weights", shading="weights")
    kept = picture(first)
    first.shift([1.0, 2.0, 0]).set_opacity(0.3)  # what a caller does to its own grid
    second = TensorGrid(src, "weights", shading="weights")
    third = TensorGrid(src, "weights", shading="weights")
    assert second is not first and third is not second
    assert picture(second) == kept == picture(third)
    assert [n.trace for n in second.numbers()] == [n.trace for n in TensorGrid(src, "weights", shading="none",
                                                                                  show_values=True).numbers()]


def test_a_kept_build_is_what_a_fresh_build_is():
    src = Source()
    reused = TensorGrid(src, "weights", shading="weights", font_size=22)
    again = TensorGrid(src, "weights", shading="weights", font_size=22)  # copied from the kept one
    reuse.forget()
    fresh = TensorGrid(src, "weights", shading="weights", font_size=22)  # built anew
    assert picture(again) == picture(fresh) == picture(reused)
    assert again.rows == fresh.rows and again.cols == fresh.cols and again.shading == fresh.shading
    assert np.array_equal(again.cell(0, 0)[0].get_center(), fresh.cell(0, 0)[0].get_center())


def test_other_arguments_or_another_source_build_anew():
    src, other = Source(), Source()
    base = picture(TensorGrid(src, "weights", shading="weights"))
    assert picture(TensorGrid(src, "weights", shading="diverging")) != base
    assert reuse.key_of(TensorGrid, (src, "weights"), {}) != reuse.key_of(TensorGrid, (other, "weights"), {})
    assert reuse.key_of(TensorGrid, (src, "weights"), {"scale_to": object()}) is None  # no plain value: built
    before = len(reuse._KEPT)
    TensorGrid(other, "weights", shading="weights")
    assert len(reuse._KEPT) == before + 1


def test_an_attention_map_is_kept_with_its_parts():
    src = Source()
    first = build_map(src)
    second = build_map(src)
    assert picture(first) == picture(second)
    assert second.grid in second.submobjects and second.grid is not first.grid
    assert all(cell in second.grid.get_family() for cell in second.future)  # its parts are its own members


def test_only_the_most_recent_builds_are_kept(monkeypatch):
    monkeypatch.setattr(reuse._KEPT, "most", 2)
    src = Source()
    for shading in ("weights", "diverging", "none"):
        TensorGrid(src, "weights", shading=shading)
    assert len(reuse._KEPT) == 2


PORTRAIT = {"frame_width": 4.5, "frame_height": 8.0, "pixel_width": 270, "pixel_height": 480}


@pytest.fixture
def builds(monkeypatch):
    """Every AttentionMap really built (not copied)."""
    made = []
    real_init = AttentionMap.__init__
    monkeypatch.setattr(AttentionMap, "__init__", lambda self, *a, **k: made.append(1) or real_init(self, *a, **k))
    return made


@pytest.mark.parametrize("sketching", [False, True], ids=["real", "sketch"])
def test_a_build_in_one_frame_serves_another_and_is_what_a_fresh_build_there_is(builds, sketching):
    """A map (its words hold no rule) is the same in every frame: the one made in landscape is copied into a portrait
    run, and draws (points, colours, stroke widths) as a map built afresh in portrait does."""
    from scenes.kit import sketch

    src = Source()
    with sketch.sketching() if sketching else contextlib.nullcontext():
        landscape = picture(build_map(src))
        with tempconfig(PORTRAIT):
            copied = build_map(src)
            assert len(builds) == 1, "the portrait run copied the landscape run's map"
            reuse.forget()
            fresh = build_map(src)
            assert len(builds) == 2
    assert picture(copied) == picture(fresh) == landscape


class Formula(VGroup, metaclass=reuse.Reused):
    """A kept piece made of one formula (a rule in it or not), counting its builds."""

    made: list[str] = []

    def __init__(self, code: str):
        from scenes.kit.text import math

        Formula.made.append(code)
        super().__init__(math(code))


def test_a_build_holding_a_rule_is_kept_per_frame():
    """A fraction's bar is stroked in the frame's pixels: a piece holding one is made again in another frame (and
    draws there as one made afresh), and copied within its own; a piece without one is made once for both."""
    Formula.made = []
    landscape = picture(Formula("a / b"))
    Formula("a b")
    with tempconfig(PORTRAIT):
        upright = Formula("a / b")
        assert Formula.made == ["a / b", "a b", "a / b"]
        assert picture(Formula("a / b")) == picture(upright)
        Formula("a b")
        assert Formula.made == ["a / b", "a b", "a / b"], "copied within the frame; a formula without a rule in both"
        reuse.forget()
        assert picture(Formula("a / b")) == picture(upright)
    assert picture(upright) != landscape
    assert holds_a_rule(upright) and not holds_a_rule(Formula("a b"))


def test_a_sketch_is_not_kept_across_languages(builds, monkeypatch):
    from scenes.kit import sketch
    from scenes.kit.translation import LANGUAGE_ENV_VAR

    src = Source()
    with sketch.sketching():
        build_map(src)
        monkeypatch.setenv(LANGUAGE_ENV_VAR, "fr")
        build_map(src)
    assert len(builds) == 2, "a French run weighs its own sketches"


def test_a_source_is_named_by_its_data():
    """Two sources over the same data are one key (the same numbers); sources over other data are two."""
    src = Source()
    twin = Source_.__new__(Source_)
    twin.name, twin.data = src.name, src.data

    def key(source):
        return reuse.key_of(TensorGrid, (source, "weights"), {})[0]

    assert key(src) == key(twin)
    assert key(src) != key(Source())
