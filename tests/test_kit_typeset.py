"""scenes.kit.text.typeset: a text made again is a copy of the first one made, point for point what a fresh parse
of its SVG gives, whatever was made before it, and never the kept one itself."""

from __future__ import annotations

import numpy as np
import pytest
from manim import MathTypst, Typst, tempconfig
from manim.mobject.svg import svg_mobject

from scenes.kit import palette, text
from scenes.kit.text import SANS_PREAMBLE, label, math, typeset
from scenes.speed import install_speed_patches


@pytest.fixture(autouse=True)
def fresh(tmp_path):
    install_speed_patches()
    text._TYPESET.clear()
    svg_mobject.SVG_HASH_TO_MOB_MAP.clear()
    with tempconfig({"media_dir": str(tmp_path), "tex_dir": str(tmp_path / "typst"), "verbosity": "ERROR"}):
        yield
    text._TYPESET.clear()


def _drawn(mob) -> list[tuple]:
    """What a text draws: each glyph's points and colours, in order."""
    return [(part.points.round(12).tobytes(), part.fill_rgbas.tobytes(), part.stroke_rgbas.tobytes(),
             float(part.stroke_width)) for part in mob.family_members_with_points()]


def _parsed_afresh(kind, code: str, **options):
    """The text as manim makes it with its SVG cache off: every glyph parsed from the compiled SVG (in the kit's
    text colour, as label and math make it)."""
    return kind(code, use_svg_cache=False, color=palette.TEXT, **options)


@pytest.mark.parametrize("size", [32, 26])
def test_a_word_made_again_is_what_a_fresh_parse_gives(size):
    first, again = label("coffee", font_size=size), label("coffee", font_size=size)
    fresh = _parsed_afresh(Typst, "coffee", typst_preamble=SANS_PREAMBLE, font_size=size)
    assert _drawn(first) == _drawn(again) == _drawn(fresh)
    assert again.font_size == pytest.approx(fresh.font_size) and again.typst_code == fresh.typst_code


def test_the_kept_text_does_not_depend_on_what_manims_svg_cache_holds():
    """manim's SVG cache, filled by the same formula at another size first, hands out copies that lose the text's
    stroke tracking (a fraction's or a root's rule keeps the other size's width): the kept text never comes from
    it."""
    formula = "(q dot k) / sqrt(d_k)"
    fresh = _parsed_afresh(MathTypst, formula, font_size=30)
    svg_mobject.SVG_HASH_TO_MOB_MAP.clear()
    MathTypst(formula, font_size=60)  # fills manim's cache with this SVG
    from_manims_cache = MathTypst(formula, font_size=30, color=palette.TEXT)
    assert _drawn(from_manims_cache) != _drawn(fresh)  # what the kept text must not be
    assert _drawn(math(formula, font_size=30)) == _drawn(fresh)


def test_a_copy_changed_leaves_the_next_one_as_made():
    first = label("tea", font_size=30)
    before = _drawn(first)
    first.shift([1.0, 2.0, 0.0]).set_color("#FF0000").scale(3)
    assert _drawn(label("tea", font_size=30)) == before


def test_a_formula_made_again_keeps_its_named_terms():
    formula = r"{{ q dot k : score }} / sqrt(d_k)"
    math(formula)
    again = math(formula)
    fresh = _parsed_afresh(MathTypst, formula, font_size=again.font_size)
    assert _drawn(again) == _drawn(fresh)
    picked, expected = again.select("score"), fresh.select("score")
    assert len(picked.family_members_with_points()) == len(expected.family_members_with_points()) > 0
    assert all(id(part) in {id(m) for m in again.get_family()} for part in picked.family_members_with_points())
    assert np.allclose(picked.get_center(), expected.get_center())


def test_style_tells_texts_apart():
    assert _drawn(label("fox", color="#FF0000")) != _drawn(label("fox", color="#00FF00"))
    assert _drawn(label("fox", bold=True)) != _drawn(label("fox"))
    assert label("fox", font_size=40).height > label("fox", font_size=20).height
    assert len(text._TYPESET) == 6  # red, green, bold, plain, 40 and 20
    assert isinstance(typeset(Typst, "fox", preamble=SANS_PREAMBLE, font_size=20, color="#FFFFFF"), Typst)


def test_a_formula_made_in_another_frame_is_made_for_that_frame():
    """A rule's stroke width is in pixels: a formula kept from a portrait run is not the landscape run's."""
    formula = "a / b"
    with tempconfig({"frame_width": 4.5, "frame_height": 8.0, "pixel_width": 480, "pixel_height": 854}):
        upright = _drawn(math(formula))
    landscape = _drawn(math(formula))
    assert landscape == _drawn(_parsed_afresh(MathTypst, formula, font_size=math(formula).font_size))
    assert landscape != upright


def test_a_word_made_in_one_frame_serves_another_and_is_what_a_fresh_parse_there_gives(monkeypatch):
    """A text with no rule has no pixel width in it: the landscape run's word is copied into the portrait run (not
    made again), and draws as the word parsed afresh in portrait does."""
    made = []
    real_init = Typst.__init__
    monkeypatch.setattr(Typst, "__init__", lambda self, *a, **k: made.append(a[0]) or real_init(self, *a, **k))
    landscape = _drawn(label("coffee", font_size=30))
    with tempconfig({"frame_width": 4.5, "frame_height": 8.0, "pixel_width": 480, "pixel_height": 854}):
        upright = label("coffee", font_size=30)
        assert made == ["coffee"], "the portrait run copied the landscape run's word"
        fresh = _parsed_afresh(Typst, "coffee", typst_preamble=SANS_PREAMBLE, font_size=30)
        assert _drawn(upright) == _drawn(fresh) == landscape
        math("a / b")
        math("a / b")
    assert sum("a / b" in code for code in made) == 1
    math("a / b")  # a rule: made again for the landscape frame
    assert sum("a / b" in code for code in made) == 2
