"""Decide what each worker renders: whole clips, or chunks of the long ones, longest work first.

A clip's cost is its frames weighted by what they take to make: a drawn frame costs 1, a frame that repeats a
static wait costs REPEAT_COST (encoded again, not drawn), and every chunk pays the scene's set-up once more (it
runs the whole storyboard, drawing only its own frames). A clip is split only where that pays: when it is longer
than an equal share of the run's work among the workers (so a worker would otherwise sit idle while it finishes),
into at most as many chunks as there are workers, none shorter than MIN_CHUNK_SECONDS of video. The pieces then go
out longest first (LPT), which keeps every worker busy until the end.

Chunk edges are chosen on the clip's timeline from its last render (frames per animation, and which animations
are static waits): at an equal share of the cost, moved to the nearest animation boundary unless the edge falls in
a static wait, where any frame is as good as another (the frame is drawn once either way).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from rendering.encode.frame_window import Window

REPEAT_COST = 0.1  # a repeated frame against a drawn one (bench_scale.py measures it; x264 on a still frame)
MIN_CHUNK_SECONDS = 4.0  # a shorter chunk spends more on the scene's set-up than it saves


@dataclass(frozen=True)
class Animation:
    first: int  # frame index in the clip
    frames: int
    static: bool


def timeline_at(records: list[list[int]], from_fps: float, to_fps: float) -> list[Animation]:
    """A stored timeline ([frames, static] per animation at `from_fps`) as animations at `to_fps` (for planning:
    a clip rendered at one quality plans the chunks of another)."""
    animations, first = [], 0
    scale = Fraction(to_fps) / Fraction(from_fps)
    for frames, static in records:
        count = round(frames * scale)
        animations.append(Animation(first, count, bool(static)))
        first += count
    return animations


def frame_cost(animation: Animation) -> float:
    if animation.static:
        return 1 + REPEAT_COST * max(0, animation.frames - 1)
    return float(animation.frames)


def clip_cost(animations: list[Animation]) -> float:
    return sum(frame_cost(animation) for animation in animations)


def _cost_until(animations: list[Animation], frame: int) -> float:
    total = 0.0
    for animation in animations:
        if animation.first + animation.frames <= frame:
            total += frame_cost(animation)
        elif animation.first < frame:
            part = Animation(animation.first, frame - animation.first, animation.static)
            total += frame_cost(part)
    return total


def cost_between(animations: list[Animation], start: int, stop: int) -> float:
    """The cost of the clip's frames [start, stop)."""
    return _cost_until(animations, stop) - _cost_until(animations, start)


def _edge(animations: list[Animation], target: float) -> int:
    """The frame where the cost so far reaches `target`, moved to a cheap place to cut."""
    spent = 0.0
    for animation in animations:
        cost = frame_cost(animation)
        if spent + cost < target:
            spent += cost
            continue
        if animation.static:  # cut inside the wait, at the exact share
            inside = 1 + int((target - spent - 1) / REPEAT_COST) if target - spent > 1 else 0
            return animation.first + min(max(inside, 0), animation.frames)
        before, after = animation.first, animation.first + animation.frames
        return before if target - spent < spent + cost - target else after
    last = animations[-1]
    return last.first + last.frames


def split(animations: list[Animation], parts: int) -> list[Window]:
    """`parts` windows covering the clip, each about an equal share of its cost; fewer if edges coincide. The
    last window is open-ended, so a clip that has grown since its timeline was recorded is still rendered whole."""
    total = clip_cost(animations)
    edges = sorted({_edge(animations, total * k / parts) for k in range(1, parts)})
    edges = [edge for edge in edges if 0 < edge < sum(a.frames for a in animations)]
    starts = [0, *edges]
    return [Window(start, stop) for start, stop in zip(starts, [*edges, None])]


@dataclass(frozen=True)
class Piece:
    """One unit of work: a whole clip (window None) or chunk `index` of `count`."""

    job_key: str
    window: Window | None
    index: int
    count: int
    cost: float


def chunk_count(cost: float, share: float, workers: int, seconds: float) -> int:
    """How many chunks a clip of this cost (and length) is worth, given each worker's share of the run."""
    if workers < 2 or cost <= share * 1.05:
        return 1
    return max(1, min(workers, math.ceil(cost / share), int(seconds // MIN_CHUNK_SECONDS)))


def plan(clips: dict[str, tuple[float, list[Animation] | None, float]], workers: int,
         setup_cost: float = 0.0) -> list[Piece]:
    """Pieces for every clip, longest first. `clips` maps a job key to (cost, timeline or None, fps); a clip with
    no timeline (never rendered, or narrated) is rendered whole. `setup_cost` is what each chunk pays again."""
    total = sum(cost for cost, _, _ in clips.values())
    share = total / max(1, workers)
    pieces: list[Piece] = []
    for key, (cost, animations, fps) in clips.items():
        count = 1
        if animations:
            seconds = sum(a.frames for a in animations) / fps
            count = chunk_count(cost, share, workers, seconds)
        if count == 1:
            pieces.append(Piece(key, None, 0, 1, cost))
            continue
        windows = split(animations, count)
        bounds = [window.start for window in windows] + [sum(a.frames for a in animations)]
        for index, window in enumerate(windows):
            part = cost_between(animations, bounds[index], bounds[index + 1])
            pieces.append(Piece(key, window, index, len(windows), part + setup_cost))
    return sorted(pieces, key=lambda piece: -piece.cost)


def makespan(costs: list[float], workers: int) -> float:
    """When the last of `costs` finishes on `workers` workers taking them longest first (what the runner does)."""
    finish = [0.0] * workers
    for cost in sorted(costs, reverse=True):
        slot = finish.index(min(finish))
        finish[slot] += cost
    return max(finish) if costs else 0.0
