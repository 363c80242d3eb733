"""The kit's motion helpers bring every result in as a copy of its source that travels to it (never written in place).

Each check runs the helper's animations at their first and last moments: at the start, the result must sit where
its source is (a copy of the source, on top of it); at the end, where it belongs; the source never moves. A helper
that wrote its result in place (Write, FadeIn, Create) starts the result at its own place and fails here.
"""

from __future__ import annotations

import numpy as np
import pytest
from manim import DOWN, LEFT, RIGHT, UP, Animation, Square, VGroup

from scenes.kit import motion
from scenes.kit.products import operands_to_products

CLOSE = 1e-6


def _cells(n: int, at) -> VGroup:
    return VGroup(*(Square(side_length=0.3) for _ in range(n))).arrange(RIGHT, buff=0.2).move_to(at)


def _center_at(animation: Animation, alpha: float) -> np.ndarray:
    animation.begin()
    animation.interpolate(alpha)
    center = animation.mobject.get_center().copy()
    animation.finish()
    return center


def _assert_travels(animation: Animation, source, result) -> None:
    home, source_home = result.get_center().copy(), source.get_center().copy()
    assert animation.mobject is result, "the animation must move the result mobject itself"
    start = _center_at(animation, 0.0)
    assert np.allclose(start, source_home, atol=CLOSE), f"result starts at {start}, not on its source {source_home}"
    assert np.allclose(_center_at(animation, 1.0), home, atol=CLOSE), "result must end where it belongs"
    assert np.allclose(source.get_center(), source_home, atol=CLOSE), "the source must stay where it is"


def test_entries_travel_to_their_product_slot():
    row, vector, products = _cells(3, LEFT * 3), _cells(3, UP * 2), _cells(3, RIGHT * 3)
    anims = motion.entries_to_products(row, vector, products)
    assert len(anims) == 3
    for k, anim in enumerate(anims):
        _assert_travels(anim, VGroup(vector[k], row[k]), products[k])


def test_one_weight_travels_to_every_product_with_its_row_entry():
    row, weight, products = _cells(3, LEFT * 3), Square(side_length=0.3).move_to(LEFT * 5), _cells(3, RIGHT * 3)
    anims = operands_to_products(row, weight, products)
    assert len(anims) == 3
    for k, anim in enumerate(anims):
        _assert_travels(anim, VGroup(weight, row[k]), products[k])


def test_products_collapse_into_the_sum():
    products, total = _cells(3, LEFT), Square(side_length=0.3).move_to(RIGHT * 4)
    (anim,) = motion.collapse(products, total)
    _assert_travels(anim, products, total)
    anim.begin()
    anim.interpolate(0.0)
    assert anim.mobject.width <= products.width + CLOSE and anim.mobject.height <= products.height + CLOSE, \
        "the sum starts inside the row of products"


def test_each_score_becomes_its_weight():
    scores, weights = _cells(4, UP * 2), _cells(4, DOWN * 2)
    anims = motion.scores_to_weights(list(scores), list(weights))
    for score, weight, anim in zip(scores, weights, anims):
        _assert_travels(anim, score, weight)
    with pytest.raises(ValueError, match="one weight per score"):
        motion.scores_to_weights(list(scores), list(weights)[:3])


def test_scaled_rows_flow_column_by_column_into_z():
    rows = [_cells(3, UP * y) for y in (1, 0, -1)]
    z = _cells(3, DOWN * 3)
    anims = motion.rows_into_sum(rows, z)
    assert len(anims) == 3
    for k, anim in enumerate(anims):
        _assert_travels(anim, VGroup(*(row[k] for row in rows)), z[k])


def test_minus_infinity_enters_every_masked_cell():
    legend = Square(side_length=0.3).move_to(UP * 3)
    cells = list(_cells(3, DOWN))
    anims = motion.mask_enters(legend, cells)
    for cell, anim in zip(cells, anims):
        _assert_travels(anim, legend, cell)


def test_slices_slide_into_their_heads_and_back():
    slices = [_cells(2, LEFT * 2 + UP * y) for y in (1, -1)]
    heads = [_cells(2, RIGHT * 3 + UP * y) for y in (2, -2)]
    for anims, sources, targets in ((motion.slide_slices(slices, heads), slices, heads),
                                    (motion.slide_slices(heads, slices), heads, slices)):
        for source, target, anim in zip(sources, targets, anims):
            _assert_travels(anim, source, target)
    with pytest.raises(ValueError, match="one target per slice"):
        motion.slide_slices(slices, heads[:1])


def test_a_result_written_in_place_is_caught():
    """The check itself: FadeIn (a result appearing where it stands) does not start on its source."""
    from manim import FadeIn

    source, result = Square().move_to(LEFT * 3), Square().move_to(RIGHT * 3)
    with pytest.raises(AssertionError, match="not on its source"):
        _assert_travels(FadeIn(result), source, result)


def test_weights_travel_with_each_column_of_the_rows_into_the_product_row():
    weights = _cells(2, LEFT * 5)
    rows = [_cells(3, UP * k) for k in range(2)]
    result = _cells(3, RIGHT * 4)
    anims = motion.weighted_rows_into_row(weights, rows, result)
    assert len(anims) == 3
    for k, anim in enumerate(anims):
        _assert_travels(anim, VGroup(weights, VGroup(rows[0][k], rows[1][k])), result[k])


def test_a_product_grid_arrives_entry_by_entry_from_its_factors():
    from manim import MathTypst

    from scenes.kit import matrix
    from scenes.kit.numbers import Source
    from scenes.kit.products import into_product

    src = Source("qkv")
    X, W, Q = (matrix(src, path) for path in ("X", "W_q", "Q"))
    W.next_to(X, RIGHT)
    Q.next_to(W, RIGHT)
    anims = into_product(X, W, Q)
    assert len(anims) == Q.rows * Q.cols
    column = lambda k: VGroup(*(W.row(m)[k] for m in range(W.rows)))  # noqa: E731
    for n, anim in enumerate(anims):
        i, k = divmod(n, Q.cols)
        _assert_travels(anim, VGroup(X.row(i), column(k)), Q.cell(i, k))
    symbol = MathTypst("X").next_to(W, LEFT)
    for n, anim in enumerate(into_product(symbol, W, Q)):
        i, k = divmod(n, Q.cols)
        _assert_travels(anim, VGroup(symbol, column(k)), Q.cell(i, k))


def _played(skip: bool, source, result):
    """Play `travel(source, result)` in a real scene (animations drawn unless `skip`) and watch it frame by frame:
    what the scene draws at each frame (its mobjects with points, in drawing order), and holds after."""
    from manim import Scene, tempconfig

    seen = {}

    class Watch(Scene):
        def construct(self):
            anim = motion.travel(source, result)
            anim.interpolate_mobject = _spy(anim.interpolate_mobject, self, seen)
            self.play(anim, run_time=1.0)
            seen["after"] = list(self.mobjects)

    with tempconfig({"dry_run": True, "disable_caching": True, "verbosity": "ERROR", "progress_bar": "none",
                     "frame_rate": 10, "pixel_width": 160, "pixel_height": 90}):
        Watch(skip_animations=skip).render()
    return seen


def _spy(interpolate, scene, seen):
    def watched(alpha):
        interpolate(alpha)
        seen.setdefault("frames", []).append((alpha, _drawn(scene), result_state(scene)))
    return watched


def result_state(scene):
    """The points of the flying copy drawn now (the scene's last mobject holds it while it flies)."""
    return [m.points.copy() for m in scene.mobjects[-1].family_members_with_points()]


def _drawn(scene) -> list:
    return [m for top in scene.mobjects for m in top.family_members_with_points()]


def test_a_copy_of_the_source_flies_while_the_result_arrives_then_is_gone():
    source, result = Square(side_length=0.5).move_to(LEFT * 3), Square(side_length=1.0).move_to(RIGHT * 3)
    points_before = result.points.copy()
    seen = _played(False, source, result)
    alpha0, _, first_state = seen["frames"][0]
    assert alpha0 == 0 and first_state == [], "before it leaves, no copy is drawn over the source"
    flying_frames = [(alpha, drawn, state) for alpha, drawn, state in seen["frames"] if 0 < alpha < 1]
    for _, drawn, state in flying_frames:
        copies = [m for m in drawn if m is not source and m is not result]
        assert len(copies) == 1 and len(state) == 1, "one copy of the source flies"
        assert drawn[-1] is copies[0], "drawn last, over the others"
    early = flying_frames[0][2][0]
    assert np.linalg.norm(early.mean(axis=0) - source.get_center()) < 1.0, "it leaves from the source"
    late = [state for alpha, _, state in flying_frames if 0.8 < alpha][-1][0]
    late_width = late[:, 0].max() - late[:, 0].min()
    assert abs(late_width - result.width) < abs(late_width - source.width), "it grows to the result's size"
    middle = [frame for frame in flying_frames if 0.3 < frame[0] < 0.7]
    assert middle, "the animation was drawn frame by frame"
    copy_now = middle[0][1][-1]
    assert LEFT[0] * 3 < copy_now.get_center()[0] < RIGHT[0] * 3, "midway, the copy is between source and result"
    landed = [state for alpha, _, state in seen["frames"] if alpha >= 1]
    assert landed and all(state == [] for state in landed), "once landed, the copy is no longer drawn"
    assert copy_now not in seen["after"], "the copy is gone when the result has arrived"
    assert all(m in (source, result) for m in seen["after"]), "nothing of the copy is left in the scene"
    assert result in seen["after"] and np.array_equal(result.points, points_before), "the result ends as it was"
    assert np.allclose(source.get_center(), LEFT * 3)


def test_of_lagged_copies_only_those_in_flight_are_drawn():
    """A copy waiting for its start is not drawn over its source, nor a landed one over its result: in a lagged
    group of travels one after another, one copy at a time is on screen."""
    from manim import Scene, tempconfig

    sources = [Square(side_length=0.5).move_to(LEFT * 3 + UP * y) for y in (-1, 1)]
    results = [Square(side_length=0.5).move_to(RIGHT * 3 + UP * y) for y in (-1, 1)]
    seen = []

    class Watch(Scene):
        def construct(self):
            self.add(*sources)
            group = motion.lagged([motion.travel(s, r) for s, r in zip(sources, results)], lag=1.0)
            original = group.interpolate

            def watched(alpha):
                original(alpha)
                seen.append((alpha, [m for m in _drawn(self) if m not in sources and m not in results]))

            group.interpolate = watched
            self.play(group, run_time=2.0)

    with tempconfig({"dry_run": True, "disable_caching": True, "verbosity": "ERROR", "progress_bar": "none",
                     "frame_rate": 10, "pixel_width": 160, "pixel_height": 90}):
        Watch().render()
    in_first = [copies for alpha, copies in seen if 0.05 < alpha < 0.45]
    in_second = [copies for alpha, copies in seen if 0.55 < alpha < 0.95]
    assert in_first and in_second
    assert all(len(copies) == 1 and copies[0].get_center()[1] < 0 for copies in in_first), "the first copy alone"
    assert all(len(copies) == 1 and copies[0].get_center()[1] > 0 for copies in in_second), "the second alone"


def test_with_animations_skipped_no_copy_is_made():
    source, result = Square().move_to(LEFT * 3), Square().move_to(RIGHT * 3)
    seen = _played(True, source, result)
    assert all(m in (source, result) for _, on_stage, _ in seen.get("frames", []) for m in on_stage)
    assert seen["after"] == [result]


def test_row_after_row_lands_one_rows_copies_before_the_next_row_leaves():
    from manim import Dot, FadeIn as Fade

    rows = [[Fade(Dot()), Fade(Dot())], [Fade(Dot()), Fade(Dot()), Fade(Dot())]]
    together = motion.row_after_row(rows)
    (first, start1, end1), (second, start2, end2) = together.anims_with_timings
    assert start1 == 0 and start2 >= end1 - 1e-9, "the second row starts once the first has landed"
    assert [len(group.animations) for group in (first, second)] == [2, 3]
    assert motion.row_after_row([[], rows[0]]).animations and len(motion.row_after_row([[], rows[0]]).animations) == 1
