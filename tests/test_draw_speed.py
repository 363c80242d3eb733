"""scenes/speed/draw_speed.py changes how fast manim draws, never what: the same families and the same pixels as stock
manim, including when a mobject's points change between two frames (the cached Cairo path must not be reused)."""

from __future__ import annotations

import numpy as np
import pytest
from manim import BLUE, RIGHT, Circle, MathTypst, Square, Text, VGroup
from manim.camera.camera import Camera
from manim.mobject import mobject as mobject_module
from manim.mobject.mobject import Mobject
from manim.utils import family as family_module

from scenes.speed import draw_speed

PATCHED = [(Mobject, "get_family"), (Mobject, "family_members_with_points"), (Camera, "set_cairo_context_path"),
           (Camera, "get_cairo_context"), (Camera, "get_mobjects_to_display"),
           (family_module, "remove_list_redundancies"), (mobject_module, "remove_list_redundancies")]
STOCK = {(Mobject, "get_family"): draw_speed._get_family,
         (Mobject, "family_members_with_points"): draw_speed._family_members_with_points,
         (Camera, "set_cairo_context_path"): draw_speed._set_cairo_context_path,
         (Camera, "get_cairo_context"): draw_speed._get_cairo_context,
         (Camera, "get_mobjects_to_display"): draw_speed._get_mobjects_to_display,
         (family_module, "remove_list_redundancies"): draw_speed._remove_list_redundancies,
         (mobject_module, "remove_list_redundancies"): draw_speed._remove_list_redundancies}


@pytest.fixture
def stock_then_fast():
    """Run a function with stock manim, then with draw_speed installed; put back what was there afterwards."""
    saved = {target: getattr(*target) for target in PATCHED}

    def run(function):
        for (owner, name), value in STOCK.items():
            setattr(owner, name, value)
        # A Typst text compiled into an empty media folder draws a few pixels differently from the same text read
        # back from manim's cache, stock manim alone included: warm the cache so both runs read it.
        function()
        stock = function()
        draw_speed.install()
        return stock, function()

    yield run
    for (owner, name), value in saved.items():
        setattr(owner, name, value)


def _picture() -> VGroup:
    return VGroup(Text("coffee café", font_size=36), MathTypst('op("softmax")((Q K^top) / sqrt(d_k)) V'),
                  Square(color=BLUE), Circle().shift(RIGHT)).arrange(RIGHT)


def test_families_are_manims_own_with_shared_and_nested_members(stock_then_fast):
    picture = _picture()
    shared = Square()
    tree = VGroup(picture, VGroup(shared, VGroup(shared)), shared)  # a repeated member: kept at its last place
    picture[2].z_index = 2
    scene_like = [tree, picture, picture[1], shared, Square()]  # a scene's list: groups, members, repeats

    def families():
        extract = family_module.extract_mobject_family_members
        flat = extract(scene_like)  # a play's moving mobjects: families already flattened, then drawn per frame
        camera = Camera(pixel_width=32, pixel_height=18)
        shown = []
        for z in (False, True):
            camera.use_z_index = z
            shown += [[id(m) for m in camera.get_mobjects_to_display(given)] for given in (scene_like, flat)]
        return ([id(m) for m in tree.get_family()], [id(m) for m in tree.family_members_with_points()],
                [[id(m) for m in extract(scene_like, use_z_index=z, only_those_with_points=p)]
                 for z in (False, True) for p in (False, True)], shown)

    stock, fast = stock_then_fast(families)
    assert fast == stock


def test_frames_are_pixel_for_pixel_stock_manims_across_frames_that_move_points(stock_then_fast):
    def frames():
        camera = Camera(pixel_width=320, pixel_height=180)
        picture = _picture()
        shots = []
        for step in range(3):  # the same points twice (a cached path), then moved points (the cache must miss)
            if step == 2:
                picture[2].shift(RIGHT * 0.5)
                picture[1].scale(1.2)
            camera.reset()
            camera.capture_mobjects([picture])
            shots.append(camera.pixel_array.copy())
        return shots

    stock, fast = stock_then_fast(frames)
    assert not np.array_equal(stock[1], stock[2])  # the last frame really differs
    for expected, got in zip(stock, fast):
        assert np.array_equal(expected, got)


def test_frames_of_a_moving_camera_are_pixel_for_pixel_stock_manims(stock_then_fast):
    """The view is found once per frame's context: a camera that moves, zooms, or holds still between frames draws
    each frame as stock manim does (a kept path is replayed only in the view it was made in)."""
    from manim.camera.moving_camera import MovingCamera

    def frames():
        camera = MovingCamera(pixel_width=320, pixel_height=180)
        picture = _picture()
        shots = []
        for step in range(4):  # at rest, the same again (kept paths), moved, then zoomed in as well
            if step >= 2:
                camera.frame.shift(RIGHT * 0.37)
            if step == 3:
                camera.frame.set(width=camera.frame.width * 0.6)
            camera.reset()
            camera.capture_mobjects([picture])
            shots.append(camera.pixel_array.copy())
        return shots

    stock, fast = stock_then_fast(frames)
    assert not np.array_equal(stock[1], stock[2]) and not np.array_equal(stock[2], stock[3])
    for expected, got in zip(stock, fast):
        assert np.array_equal(expected, got)


def test_a_mobject_inside_itself_gets_manims_family(stock_then_fast):
    def family():
        loop = VGroup(Square(), VGroup(Circle()))
        loop[1].submobjects.append(loop)  # a cycle: manim's walk skips the mobject where it is inside itself
        return [type(m).__name__ for m in loop.get_family()], len(loop[1].get_family())

    stock, fast = stock_then_fast(family)
    assert fast == stock


def test_a_play_adds_the_animated_mobjects_manims_way():
    """add_mobjects_from_animations: the same mobjects added, in the same order, whether animated on the stage, off
    it, twice in one play, inside a mobject already added, or introduced (FadeIn adds its own)."""
    from manim import FadeIn, Indicate, Scene

    def scene_after(adder) -> list:
        scene = Scene()
        on_stage, inner = VGroup(Square(), Circle()), Circle()
        scene.add(on_stage)
        later, twice, group = Square(), Circle(), VGroup(inner, Square())
        animations = [Indicate(on_stage[0]), Indicate(later), Indicate(twice), Indicate(twice), Indicate(group),
                      Indicate(inner), FadeIn(Text("in"))]
        adder(scene, animations)
        named = {id(m): name for name, m in (("on_stage", on_stage), ("later", later), ("twice", twice),
                                              ("group", group), ("inner", inner))}
        return [named.get(id(m), type(m).__name__) for m in scene.mobjects]

    stock = scene_after(draw_speed._add_mobjects_from_animations)
    assert stock == ["on_stage", "later", "twice", "group"]
    assert scene_after(draw_speed.add_mobjects_from_animations) == stock


def test_subpaths_of_a_glyph_are_found_as_manim_finds_them():
    """The Python loop that splits a small path into subpaths gives manim's (vectorized) answer: on the glyphs of a
    Typst formula and a Pango text, moved and scaled, and on edge cases: anchors exactly at the tolerance and one
    step of a double past it, NaN and infinite coordinates, a point count that is no multiple of four, fewer than
    four points, a single curve."""
    from manim import VMobject

    def stock(vmobject, points):
        return [tuple(pair) for pair in
                VMobject.get_subpath_split_indices_from_points(vmobject, points, n_dims=2).tolist()]

    picture = _picture()
    glyphs = [m for m in picture.family_members_with_points() if len(m.points) <= draw_speed._FEW_POINTS]
    assert len(glyphs) > 20
    rng = np.random.default_rng(7)
    cases = []
    for glyph in glyphs:
        cases.append((glyph, glyph.points))
        cases.append((glyph, glyph.points * rng.uniform(0.1, 30) + rng.uniform(-50, 50, 3)))
    square = Square()
    atol = square.tolerance_for_point_equality
    for offset in (atol, np.nextafter(atol, 1), atol * (1 + 1e-5) + 1e-5 * 3.0, 0.0, 1e-3):
        points = square.points.copy() + 3.0
        points[4, 0] = points[3, 0] + offset  # the second curve starts `offset` away from the first's end
        cases.append((square, points))
        bent = square.points.copy() + 3.0
        bent[4, 1] = bent[3, 1] - offset  # the same along y only
        cases.append((square, bent))
    for axis in (0, 1):  # a start at 0: the tolerance is atol alone, and an end exactly atol away is still close
        for end in (atol, np.nextafter(atol, 1)):
            points = square.points.copy()
            points[3, axis], points[4, axis] = end, 0.0
            cases.append((square, points))
    for bad in (np.nan, np.inf, -np.inf):
        points = square.points.copy()
        points[4, 0] = bad
        cases.append((square, points))
        both = points.copy()
        both[3, 0] = bad
        cases.append((square, both))
    cases += [(square, square.points[:7]), (square, square.points[:3]), (square, square.points[:4]),
              (square, square.points[:9])]
    for vmobject, points in cases:
        assert draw_speed._split_2d(vmobject, points) == stock(vmobject, points)
