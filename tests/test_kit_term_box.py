"""The box that lights an equation's terms runs through none of the equation's other glyphs.

Typst packs math tightly: the "(" before XXᵀ stands 0.04 units off it, K touches Q. A box a fixed 0.08 wide of
its terms (widgets.frame_box, which TermLight drew until now) cut through the brackets and the neighbour."""

from __future__ import annotations

import pytest
from manim import VGroup

from scenes.kit import typography
from scenes.kit.spotlight import term_box
from scenes.kit.text import group, math
from scenes.kit.widgets import frame_box

STROKE = 0.015  # half of the box's 3-px stroke, in scene units


def scores_eq():
    return math(group("A", "a") + " = " + group('op("softmax")', "sm") + "(" + group("X X^top", "xx")
                + "), quad " + group("Z", "z") + " = " + group("A X", "ax"), font_size=typography.HEADING_SIZE)


def attention_eq():
    return math(group('op("softmax")', "sm") + " lr(( (" + group("Q", "q") + " " + group("K^top", "k")
                + ") / " + group("sqrt(d_k)", "scale") + " )) " + group("V", "v"), font_size=typography.HEADING_SIZE)


def glyphs_cut(eq, box) -> list:
    """The glyphs of `eq` that the box's outline runs through: neither wholly inside its stroke nor wholly out."""
    left, right = box.get_left()[0], box.get_right()[0]
    bottom, top = box.get_bottom()[1], box.get_top()[1]
    cut = []
    for glyph in eq.family_members_with_points():
        x0, x1 = glyph.get_left()[0], glyph.get_right()[0]
        y0, y1 = glyph.get_bottom()[1], glyph.get_top()[1]
        inside = x0 >= left + STROKE and x1 <= right - STROKE and y0 >= bottom + STROKE and y1 <= top - STROKE
        outside = x1 <= left - STROKE or x0 >= right + STROKE or y1 <= bottom - STROKE or y0 >= top + STROKE
        if not (inside or outside):
            cut.append(glyph)
    return cut


@pytest.mark.parametrize("make, keys", [(scores_eq, ["xx"]), (scores_eq, ["sm"]), (scores_eq, ["ax"]),
                                        (attention_eq, ["q", "k"]), (attention_eq, ["q", "k", "scale"]),
                                        (attention_eq, ["sm", "q", "k", "scale"]), (attention_eq, ["v"])])
def test_the_term_box_runs_through_no_other_glyph(make, keys):
    eq = make()
    assert glyphs_cut(eq, term_box(eq, keys)) == []


def test_a_fixed_width_box_cut_the_brackets_of_x_x_transposed():
    eq = scores_eq()
    assert len(glyphs_cut(eq, frame_box(VGroup(eq.select("xx"))))) == 2  # "(" and ")"


def test_a_bracket_framed_with_the_terms_brings_its_partner():
    """softmax( … ) lit: the "(" between softmax and QKᵀ is framed, so its ")" is too, and V stays outside."""
    eq = attention_eq()
    box = term_box(eq, ["sm", "q", "k", "scale"])
    closing = max((g for g in eq.family_members_with_points() if g.height > 1.0), key=lambda g: g.get_center()[0])
    assert box.get_right()[0] > closing.get_right()[0]
    assert box.get_right()[0] < eq.select("v").get_left()[0]


def test_a_term_with_room_around_it_keeps_the_full_margin():
    eq = scores_eq()
    box, term = term_box(eq, ["ax"]), eq.select("ax")
    assert box.get_top()[1] == pytest.approx(term.get_top()[1] + 0.08)  # nothing above or below "A X"
    assert box.get_bottom()[1] == pytest.approx(term.get_bottom()[1] - 0.08)


def test_a_formula_fitted_into_the_lit_band_keeps_its_box_in_the_top_band():
    """softmax(QKᵀ/√dₖ)V fills the top band's height: fitted into the whole band, its box reached 0.08 under it, onto
    the picture's first label (α₃ⱼ); fitted into lit_band, the box stays in the band."""
    from scenes.kit import layout
    from scenes.kit.spotlight import lit_band

    keys = ["sm", "q", "k", "scale", "v"]
    band = layout.top_band()
    in_band = layout.fit_into(attention_eq(), band)
    assert term_box(in_band, keys).get_bottom()[1] < band.bottom - 0.05
    lit = layout.fit_into(attention_eq(), lit_band())
    assert term_box(lit, keys).get_bottom()[1] - 0.015 >= band.bottom  # its stroke too
