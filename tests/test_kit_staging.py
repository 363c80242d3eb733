"""staging's row-at-a-time work and its sweeps (scenes.kit.staging.work_rows, end_over): the grouping of a row's
parts into shots, and what plays at rest."""

from __future__ import annotations

from manim import Animation, Square, VGroup

from scenes.kit import compose, layout, staging


class _Recorder:
    """A stand-in scene: records each play's animations (at rest nothing else is asked of it)."""

    def __init__(self):
        self.plays = []

    def play(self, *animations, run_time=1.0):
        self.plays.append((animations, run_time))


def _row(count: float, side: float) -> list[Square]:
    return [Square(side).move_to([k * side, 0, 0]) for k in range(count)]


def test_parts_are_grouped_left_to_right_as_many_as_a_shot_holds():
    region = layout.Region(-2.0, 2.0, -3.0, 3.0)  # 4 wide: the framing margins leave a little less
    parts = _row(8, 1.0)  # 8 wide
    groups = staging._shot_groups(parts, region)
    assert [k for group in groups for k in group] == list(range(8)), "every part once, in order"
    room = region.width - 2 * staging.camera.FRAMING_MARGIN
    assert all(VGroup(*(parts[k] for k in group)).width <= room + 1e-9 for group in groups)
    assert len(groups) >= 8 / room  # no fewer shots than the width needs


def test_at_rest_each_phase_of_each_row_is_one_play_a_row_after_another():
    scene = _Recorder()
    plan = compose.Plan(VGroup(), "f", compose.WORKED, layout.Region(-2, 2, -3, 3))
    cells = [_row(3, 0.5) for _ in range(2)]
    rows = [[[(cell, [Animation(cell)]) for cell in row], [(row[0], [Animation(row[0])])]] for row in cells]
    staging.work_rows(scene, plan, rows, run_time=0.3)
    assert [len(animations[0].animations) for animations, _ in scene.plays] == [3, 1, 3, 1]
    assert all(run_time == 0.3 for _, run_time in scene.plays)


def test_at_rest_end_over_only_plays_what_it_is_given():
    scene = _Recorder()
    plan = compose.Plan(VGroup(), "f", compose.FLOOR, layout.Region(-2, 2, -3, 3))
    staging.end_over(scene, plan, [_row(3, 1.0)])
    assert scene.plays == []
    square = Square()
    staging.end_over(scene, plan, [[square]], Animation(square))
    assert len(scene.plays) == 1
