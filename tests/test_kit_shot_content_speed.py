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


def test_texts_measured_together_measure_as_one_by_one():
    """text_measures gives every text's font_size and boundary_box, float for float: Typst, Pango text, a traced
    number, a group of texts, an empty group, a grid's numbers, and texts scaled and moved off the origin."""
    from scenes.kit.on_screen import boundary_box
    from scenes.kit.widgets import TensorGrid

    grid = TensorGrid(Source("coffee"), "weights", shading="weights").scale(0.63).shift([-1.7, 0.4, 0])
    units = [*texts(), VGroup(), label("shifted").shift([3.1, -2.2, 0]).scale(1.9), *shot_content.text_units(grid)]
    expected = [(shot_content.font_size(unit), boundary_box(unit)) for unit in units]
    assert shot_content.text_measures(units) == expected
    assert shot_content.text_measures([]) == []


@pytest.mark.parametrize("alpha", [0.0, 0.37, 1.0])
def test_an_opacity_to_sets_the_alphas_manims_set_fill_and_set_stroke_set(alpha, monkeypatch):
    """OpacityTo writes a plain part's alpha columns directly; manim's set_fill/set_stroke leave the same colours."""
    from scenes.kit import light_animations

    for text in texts():
        fast, stock = text.copy().set_opacity(0.8), text.copy().set_opacity(0.8)
        one = OpacityTo(fast, 0.1)
        one.begin()
        assert all(entry[-1] for entry in one._starts)  # the direct path
        one.interpolate(alpha)
        with monkeypatch.context() as patched:
            patched.setattr(light_animations, "plain", lambda member: False)
            other = OpacityTo(stock, 0.1)
            other.begin()
            other.interpolate(alpha)
        assert colours(fast) == colours(stock)


class _SweptScene:
    """A picture too wide for the body at the floor (twelve maps side by side), entered under the camera and swept
    piece by piece with `end_on`: every shot a camera move over a still picture (`shot_content.held_still`)."""

    @staticmethod
    def make():
        from manim import FadeIn, RIGHT, UP

        from scenes.kit import AttentionScene, beat, layout, math, palette, staging
        from scenes.kit.compose import Form, compose
        from scenes.kit.widgets import TensorGrid

        class SweptScene(AttentionScene):
            scene_id = "coffee_cafe"

            def construct(self):
                self.sweep_the_maps()

            @beat
            def sweep_the_maps(self):
                src = Source("coffee")
                formula = math("alpha = op(\"softmax\")(e)").to_edge(UP, buff=layout.MARGIN)

                def build():
                    return VGroup(*(TensorGrid(src, "weights", shading=("none", "weights")[i % 2])
                                    for i in range(12))).arrange(RIGHT, buff=layout.APART)

                maps, plan = compose([Form("side by side", build)], pinned=[formula])
                self.say("swept", subject=maps)
                self.add(formula)
                staging.enter(self, plan, FadeIn(maps), then_on=maps)

        return SweptScene


def test_a_sweep_over_a_still_picture_shows_what_measuring_every_shot_afresh_shows(monkeypatch):
    """The texts measured once for every shot of a sweep (held_still), and the shot states ended at once beside the
    skipped camera moves (end_at_once), give the same run, frame for frame and figure for figure, as every text
    measured afresh and every shot state played; and the sweep did read its measures back."""
    import contextlib

    from scenes.kit import camera_work, light_animations
    from scenes.quality.inspection import inspect_scene_class

    scene = _SweptScene.make()
    reads = []
    measures = shot_content._measures
    monkeypatch.setattr(shot_content, "measure_texts", measures)  # the gates' own measuring: not counted
    monkeypatch.setattr(shot_content, "_measures", lambda units: reads.append(len(units)) or measures(units))
    ended = []
    monkeypatch.setattr(camera_work, "end_at_once",
                        lambda scene, state: ended.append(len(state)) or light_animations.end_at_once(scene, state))
    held = inspect_scene_class(scene, "swept", "portrait")
    assert sum(ended) > 0
    held_reads = sum(reads)
    reads.clear()
    with monkeypatch.context() as patched:
        patched.setattr(shot_content, "held_still", lambda scene, moving: contextlib.nullcontext())
        fresh = inspect_scene_class(scene, "swept", "portrait")
    assert fresh.animations_checked == held.animations_checked > 6  # the sweep's shots
    assert held_reads < sum(reads) / 2
    assert [(name, frame.tobytes()) for name, frame in held.beat_frames] == \
        [(name, frame.tobytes()) for name, frame in fresh.beat_frames]
    assert [m.as_json() for m in held.metrics] == [m.as_json() for m in fresh.metrics]
    assert held.problems() + held.arithmetic_problems() == fresh.problems() + fresh.arithmetic_problems()
    assert held.shown_numbers == fresh.shown_numbers
