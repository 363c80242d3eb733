"""A skipped transform (a headless run's plays) that makes no copy of where it starts ends where manim's own ends:
the mobject's whole state after the play is the same, member by member; and the fast path is really the one taken."""

from __future__ import annotations

import numpy as np
import pytest
from manim import (
    BLUE, DOWN, RED, RIGHT, UP, ApplyMethod, Circle, MathTypst, MoveToTarget, ReplacementTransform, Scene, Square,
    Transform, VGroup, smooth, tempconfig, there_and_back,
)

from scenes.speed import install_speed_patches, skip_speed
from tests.test_speed_patches import _graph


@pytest.fixture(autouse=True)
def patched(tmp_path):
    install_speed_patches()
    with tempconfig({"media_dir": str(tmp_path), "verbosity": "ERROR"}):
        yield


def _numbers(text: str) -> VGroup:
    MathTypst(text)  # manim's first text of an SVG differs from the later ones, read from its cache, in sheen_direction
    return VGroup(MathTypst(text), Circle(color=BLUE)).arrange(RIGHT)


def _transforms():
    """Pairs of (name, builder): a builder makes a fresh mobject and the transform of it, the same each call."""

    def plain():
        start = _numbers("0.53")
        return start, Transform(start, _numbers("-1.25").shift(UP).set_color(RED))

    def replacement():
        start = VGroup(Square(), Square()).arrange(RIGHT)
        return start, ReplacementTransform(start, VGroup(Circle(), Circle(), Circle()).arrange(DOWN))

    def method():
        start = _numbers("0.07")
        return start, start.animate.shift(RIGHT).scale(0.5).set_opacity(0.4).build()

    def move_to_target():
        start = _numbers("0.10")
        start.generate_target()
        start.target.to_corner(UP).set_fill(RED, opacity=0.5)
        return start, MoveToTarget(start)

    def apply_method():
        start = Square()
        return start, ApplyMethod(start.rotate, 0.7)

    def arced():
        start = Square()
        return start, Transform(start, Circle().shift(RIGHT), path_arc=1.0)

    def there_and_back_again():
        start = Square()
        return start, Transform(start, Circle(), rate_func=there_and_back)

    return {f.__name__: f for f in (plain, replacement, method, move_to_target, apply_method, arced,
                                     there_and_back_again)}


def _played(build, skipped: bool):
    mobject, transform = build()
    if skipped:
        skip_speed._mark_skipped([transform])
    transform.begin()
    transform.finish()
    scene = Scene()
    scene.add(mobject)
    transform.clean_up_from_scene(scene)
    return mobject, transform


@pytest.mark.parametrize("name", list(_transforms()))
def test_a_skipped_transform_ends_on_the_state_manim_ends_on(name):
    build = _transforms()[name]
    fast, _ = _played(build, skipped=True)
    stock, _ = _played(build, skipped=False)
    assert _graph(fast) == _graph(stock)


@pytest.mark.parametrize("name, fast", [("plain", True), ("replacement", True), ("method", True),
                                        ("move_to_target", True), ("apply_method", True),
                                        ("arced", False), ("there_and_back_again", False)])
def test_only_a_straight_transform_whose_rate_reaches_one_skips_the_starting_copy(name, fast):
    _, transform = _played(_transforms()[name], skipped=True)
    assert (transform.starting_mobject is transform.mobject) is fast


def test_an_unskipped_transform_copies_its_start():
    _, transform = _played(_transforms()["plain"], skipped=False)
    assert transform.starting_mobject is not transform.mobject


def test_a_skipped_play_marks_every_animation_of_its_groups():
    from manim import AnimationGroup, LaggedStart

    inner = Transform(Square(), Circle())
    outer = LaggedStart(AnimationGroup(inner), Transform(Circle(), Square(), rate_func=smooth))
    skip_speed._mark_skipped([outer])
    assert inner.skipped_to_its_end and outer.animations[1].skipped_to_its_end


def test_a_skipped_play_in_a_scene_ends_where_a_drawn_one_does():
    def run(skipping: bool):
        class Moves(Scene):
            def construct(self):
                self.shape = _numbers("0.53")
                self.add(self.shape)
                self.play(self.shape.animate.shift(RIGHT).set_color(RED), run_time=0.1)
                self.play(Transform(self.shape, _numbers("0.99").shift(DOWN)), run_time=0.1)

        with tempconfig({"dry_run": skipping, "write_to_movie": False, "frame_rate": 5}):
            scene = Moves(skip_animations=skipping) if skipping else Moves()
            scene.render()
        return scene.shape

    assert _graph(run(skipping=True)) == _graph(run(skipping=False))


def test_the_animate_target_is_dropped_once_the_play_is_over():
    mobject, _ = _played(_transforms()["method"], skipped=False)
    assert mobject.target is None


def test_a_target_made_by_hand_is_kept():
    mobject, _ = _played(_transforms()["move_to_target"], skipped=True)
    assert mobject.target is not None
    assert np.allclose(mobject.get_center(), mobject.target.get_center())
