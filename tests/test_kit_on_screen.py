"""kit.on_screen.boundary_box gives the box manim's own edge getters give, for every kind of mobject the gates measure."""

from __future__ import annotations

import pytest
import numpy as np
from manim import DOWN, LEFT, PI, RIGHT, UP, Arc, Dot, Group, Square, Text, Typst, VGroup, VMobject, config

from scenes.kit.on_screen import View, boundary_box, screen_box


def manim_box(mob):
    return mob.get_left()[0], mob.get_right()[0], mob.get_bottom()[1], mob.get_top()[1]


def shapes():
    typst = Typst("$q dot k$", font_size=40).shift(2 * LEFT + UP)
    return {
        "typst": typst,
        "text": Text("coffee", font_size=30).shift(DOWN),
        "vgroup": VGroup(Square(0.5).shift(3 * RIGHT), Dot(2 * DOWN), typst.copy().rotate(0.3)),
        "group": Group(Square(1.0).shift(UP), Dot(3 * LEFT)),  # a plain Mobject: every point, handles too
        "dot": Dot(),
        "empty": VGroup(),
        # an arc's handles reach past its anchors (the box is the anchors'), beside a lone point: members of whole
        # curves are measured from one join, the others one by one
        "mixed": VGroup(Arc(radius=1.0, angle=PI, num_components=4).shift(DOWN), _lone_point(2.5, -2.0), Square(0.5).shift(3 * LEFT + DOWN)),
    }


def _lone_point(x: float, y: float) -> VMobject:
    point = VMobject()
    point.set_points(np.array([[x, y, 0.0]]))
    return point


@pytest.mark.parametrize("name", list(shapes()))
def test_boundary_box_matches_manims_edges(name):
    mob = shapes()[name]
    assert boundary_box(mob) == pytest.approx(manim_box(mob), abs=1e-12)
    assert boundary_box(mob) == tuple(float(v) for v in manim_box(mob))  # the same floats


def test_screen_box_maps_through_the_cameras_view():
    square = Square(1.0).shift(RIGHT)  # x from 0.5 to 1.5, y from -0.5 to 0.5
    half_width = View(1.0, 0.0, config.frame_width / 2, config.frame_height / 2)
    left, right, bottom, top = screen_box(square, half_width)
    zoom = half_width.zoom
    assert (left, right, bottom, top) == pytest.approx((-0.5 * zoom, 0.5 * zoom, -0.5 * zoom, 0.5 * zoom))
