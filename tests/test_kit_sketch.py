"""Weighing a form as a sketch (scenes.kit.sketch): compose measures the forms after the first with stand-ins for
their numbers, so a stand-in must measure as the number does, and the form compose hands back must be real."""

from __future__ import annotations

import pytest
from manim import DecimalNumber, DL, UR, Rectangle, VGroup, tempconfig

from scenes.kit import compose, layout, shot_content, sketch
from scenes.kit.numbers import NumberTrace, Source, TracedNumber
from scenes.kit.text import baseline_y
from scenes.kit.widgets import TensorGrid
from scenes.quality.headless import resolution_480p


def number(value: float, font_size: float = 24) -> TracedNumber:
    return TracedNumber(value, NumberTrace("post", "demo", (), 2), font_size=font_size)


@pytest.mark.parametrize("value", [0.73, -1.25, 12.5, 0.0, float("-inf")])
def test_a_stand_in_measures_as_its_number_box_size_and_baseline(value):
    real = number(value)
    with sketch.sketching():
        stand_in = number(value)
    real.scale(1.7).shift([0.3, -0.2, 0])  # the same moves after building: still the same measures
    stand_in.scale(1.7).shift([0.3, -0.2, 0])
    assert real.get_corner(DL) == pytest.approx(stand_in.get_corner(DL), abs=1e-12)
    assert real.get_corner(UR) == pytest.approx(stand_in.get_corner(UR), abs=1e-12)
    assert shot_content.font_size(stand_in) == pytest.approx(shot_content.font_size(real), rel=1e-12)
    assert baseline_y(stand_in) == pytest.approx(baseline_y(real), abs=1e-12)
    assert stand_in.value == real.value and stand_in.shown_text == real.shown_text


def test_a_stand_in_is_cheaper_than_its_number_to_copy():
    """What a sketch saves: fewer members (no glyph paths) to copy in every discarded form."""
    real = number(0.73)
    with sketch.sketching():
        stand_in = number(0.73)
    assert len(stand_in.get_family()) < len(real.get_family())
    assert not any(isinstance(m, DecimalNumber) for m in stand_in.get_family())


def test_a_grid_built_while_sketching_is_not_handed_out_for_real():
    """Reused keeps sketched and real builds apart: a real grid built after a sketched one has its digits."""
    source = Source("coffee")
    with sketch.sketching():
        sketched = TensorGrid(source, "scores")
    real = TensorGrid(source, "scores")
    assert not any(isinstance(m, DecimalNumber) for m in sketched.get_family())
    assert all(isinstance(n.glyph, DecimalNumber) for n in real.numbers())
    assert real.width == pytest.approx(sketched.width) and real.height == pytest.approx(sketched.height)


def test_compose_hands_back_the_chosen_form_built_for_real():
    """The first form is too large to read (a sketch-free build); the second, weighed as a sketch, is chosen, and
    what compose returns is that form built again outside the sketch: real digits, the sketch's size."""
    source = Source("coffee")
    sketched_builds = []

    def grid(font_size: float):
        sketched_builds.append(sketch.active())
        return TensorGrid(source, "scores", font_size=font_size)

    with tempconfig(resolution_480p("landscape")):
        tiny = layout.Region(-0.5, 0.5, -0.5, 0.5)
        forms = [compose.Form("huge", lambda: VGroup(grid(24), Rectangle(width=80, height=1))),
                 compose.Form("grid", lambda: grid(30))]
        made, plan = compose.compose(forms, tiny)
    assert plan.form == "grid"
    assert sketched_builds == [False, True, False]
    assert all(isinstance(n.glyph, DecimalNumber) for n in made.numbers())


def test_of_forms_equal_but_for_a_rounding_the_camera_films_the_first():
    """Two pictures alike but for a last-digit rounding (a sketch measures as its real form, to 1e-13): the rule's
    'first of equals' holds, not the rounding."""
    with tempconfig(resolution_480p("portrait")):
        region = layout.body()
        first = VGroup(*(Rectangle(width=3 * region.width, height=1) for _ in range(2))).arrange()
        second = first.copy()
        second.submobjects[1].stretch(1 - 1e-13, 0)
        assert sum(p.width for p in second.submobjects) < sum(p.width for p in first.submobjects)
        assert compose.to_film([first, second], [region, region]) == 0
        assert compose.to_film([second, first], [region, region]) == 0
