"""The close-up's fast paths give manim's own results: a text's size from one height, an opacity set member by member,
and a skipped OpacityTo / FillTo ending where the played one ends."""

from __future__ import annotations

import numpy as np
import pytest
from manim import RED, Square, Typst, VGroup, tempconfig

from scenes.kit import shot_content
from scenes.kit.light_animations import FillTo, OpacityTo
from scenes.kit.numbers import Source
from scenes.kit.text import label, math


@pytest.fixture(autouse=True)
def media(tmp_path):
    with tempconfig({"media_dir": str(tmp_path), "verbosity": "ERROR"}):
        yield


def texts():
    number = Source("coffee").number("weights", 1, decimals=2)
    return [label("coffee café", font_size=30).scale(0.713), math("alpha_(t,i)").scale(1.37), number.scale(0.91),
            VGroup(label("a"), number.copy().shift([1, 0, 0]))]


def colours(mob):
    return [(type(m).__name__, m.fill_rgbas.tolist(), m.stroke_rgbas.tolist(), m.background_stroke_rgbas.tolist(),
             m.fill_opacity, m.stroke_opacity, m.background_stroke_opacity) for m in mob.get_family()]


def test_a_texts_size_is_manims_font_size():
    for text in texts():
        for leaf in text.get_family():
            if isinstance(leaf, Typst):
                expected = leaf.font_size if leaf.height > 0 else None
                assert shot_content.typst_font_size(leaf) == expected


@pytest.mark.parametrize("opacity", [0.0, 1.0, 0.37])
def test_set_opacity_leaves_what_manims_leaves(opacity):
    for text in texts():
        assert all(shot_content._plain(member) for member in text.get_family())  # the fast path, not manim's
        mine, stock = text.copy(), text.copy()
        shot_content.set_opacity(mine, opacity)
        stock.set_opacity(opacity)
        assert colours(mine) == colours(stock)


def test_a_member_with_a_sheen_goes_to_manim():
    square = Square().set_fill(RED, 0.5).set_sheen(0.3)
    assert not shot_content._plain(square)
    mine, stock = square.copy(), square.copy()
    shot_content.set_opacity(mine, 0.0)
    stock.set_opacity(0.0)
    assert colours(mine) == colours(stock)


@pytest.mark.parametrize("make", [lambda m: OpacityTo(m, 0.0), lambda m: FillTo(m, RED, 1.0)])
def test_a_skipped_light_animation_ends_where_the_played_one_ends(make):
    target = lambda: VGroup(Square().set_fill(opacity=0.4))[0]  # noqa: E731
    played, skipped = target(), target()
    one, other = make(played), make(skipped)
    other.skipped_to_its_end = True
    for animation in (one, other):
        animation.begin()
        animation.interpolate(1.0)
        animation.finish()
    assert colours(played) == colours(skipped)
    assert np.array_equal(played.points, skipped.points)
