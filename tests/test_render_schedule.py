"""The scheduler: where a clip is cut, when it is split at all, and the longest-first hand-out."""

from __future__ import annotations

from rendering.encode.frame_window import Window
from rendering.pipeline.schedule import MIN_CHUNK_SECONDS, Animation, clip_cost, makespan, plan, split, timeline_at


def _clip(*parts: tuple[int, bool]) -> list[Animation]:
    """Animations from (frames, static) pairs, laid end to end."""
    animations, first = [], 0
    for frames, static in parts:
        animations.append(Animation(first, frames, static))
        first += frames
    return animations


def test_windows_cover_the_clip_end_to_end_and_the_last_is_open():
    clip = _clip((30, False), (60, True), (45, False), (15, False))
    for parts in (2, 3, 4):
        windows = split(clip, parts)
        assert windows[0].start == 0 and windows[-1].stop is None
        assert all(a.stop == b.start for a, b in zip(windows, windows[1:]))
        assert all(w.stop is None or w.stop > w.start for w in windows)


def test_a_cut_that_falls_in_a_held_wait_stays_there_and_one_in_a_drawn_animation_moves_to_its_edge():
    # 40 drawn frames, a 100-frame held wait, 40 drawn frames: cost 40 + (1 + 99 * 0.1) + 40 = 90.9, half 45.45.
    # The half falls 5.45 into the wait: 1 for its drawn frame, then 4.45 / 0.1 -> 44 repeats in, frame 40 + 45.
    held = _clip((40, False), (100, True), (40, False))
    assert [w.start for w in split(held, 2)] == [0, 85]
    # Without the wait the half (50 of 100) falls 10 frames into the second animation: moved to its start (40),
    # nearer than its end (70).
    drawn = _clip((40, False), (30, False), (30, False))
    assert [w.start for w in split(drawn, 2)] == [0, 40]


def test_a_timeline_recorded_at_one_frame_rate_plans_another():
    assert timeline_at([[15, 0], [30, 1]], 15, 60) == [Animation(0, 60, False), Animation(60, 120, True)]


def test_many_similar_clips_are_not_split_and_go_out_longest_first():
    clips = {f"c{k}": (cost, _clip((int(cost), False)), 60) for k, cost in enumerate((900, 1000, 1100, 950))}
    pieces = plan(clips, workers=2)
    assert all(piece.window is None for piece in pieces)
    assert [piece.job_key for piece in pieces] == ["c2", "c1", "c3", "c0"]


def test_one_long_clip_on_idle_workers_is_split_into_as_many_chunks_as_workers():
    clip = _clip(*[(60, False)] * 60)  # 60 s at 60 fps
    pieces = plan({"long": (clip_cost(clip), clip, 60)}, workers=4)
    assert sorted(piece.index for piece in pieces) == [0, 1, 2, 3]
    assert {piece.count for piece in pieces} == {4}
    assert [piece.window.start for piece in sorted(pieces, key=lambda p: p.index)] == [0, 900, 1800, 2700]


def test_no_chunk_is_shorter_than_the_minimum():
    seconds = 2.5 * MIN_CHUNK_SECONDS
    clip = _clip(*[(15, False)] * int(seconds))  # at 15 fps
    pieces = plan({"short": (clip_cost(clip), clip, 15)}, workers=8)
    assert len(pieces) == 2


def test_a_clip_without_a_timeline_is_rendered_whole():
    pieces = plan({"new": (5000.0, None, 60), "other": (10.0, None, 60)}, workers=4)
    assert [(piece.job_key, piece.window) for piece in pieces] == [("new", None), ("other", None)]


def test_longest_first_makespan():
    # 5 -> worker A, 4 -> B, 3 -> B (7), 3 -> A (8): by hand.
    assert makespan([3, 5, 3, 4], 2) == 8
    assert makespan([], 3) == 0.0
    assert Window(10, 20).kept(5, 10) == 5 and Window(10, None).kept(100, 7) == 7 and Window(0, 0).kept(0, 9) == 0
