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
from dataclasses import dataclass, replace
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
         setup_cost: float = 0.0, models: dict[str, RenderModel] | None = None,
         cores: float | None = None, overhead: float = 0.0) -> list[Piece]:
    """Pieces for every clip, longest first. `clips` maps a job key to (cost, timeline or None, fps); a clip with
    no timeline (never rendered, or narrated) is rendered whole. `setup_cost` is what each chunk pays again. With
    a clip's RenderModel in `models`, it is split only into as many chunks as the model predicts a real gain for
    (chunks_worth) on `cores` free cores (default: one per worker; a busy machine has fewer, cpu_load.py), paying
    `overhead` seconds more to split (the moment spent sampling the machine's load before it)."""
    free = workers if cores is None else min(float(workers), cores)
    total = sum(cost for cost, _, _ in clips.values())
    share = total / max(1, workers)
    pieces: list[Piece] = []
    for key, (cost, animations, fps) in clips.items():
        count = 1
        if animations:
            seconds = sum(a.frames for a in animations) / fps
            count = chunk_count(cost, share, workers, seconds)
            if count > 1 and models and key in models:
                count = chunks_worth(animations, models[key], cores=free, most=count, overhead=overhead)
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


# Predicting a split's gain. A worker's time is its start (process, imports, the scene's set-up), the storyboard
# (every animation compiled, begun and finished: paid in full by every chunk that runs to the end, up to its edge
# by the others, and by the measuring pass), and the drawing and encoding of its own frames, which at 1080p keeps
# more than one core busy (the encoder's threads). Chunks of one clip run side by side: they finish when the
# slowest does, or when the cores have done all their CPU seconds, whichever is later; then the chunks are joined.
# Figures measured on this project's 2-core machine with render.py --trace (bench_render.py --one-clip-only prints
# them), in CPU seconds, as another program kept one core busy: a measuring pass (a fresh worker's start and the
# storyboard, no drawing) took 6.1 s for weight_free (80 s of video), 7.0 for qkv_scale (110 s, at low and at
# 1080p60) and 4.2 and 5.7 for teacher_forcing (48 s, low and 1080p60): fitted, 3.3 s + 0.034 s per video second. The
# whole clip's CPU beyond its measuring pass, per frame of cost: 0.0096 to 0.0137 at 480p15, 0.033 and 0.041 at
# 1080p60; drawing took 1.0 to 1.6 cores (one core was busy elsewhere). The start is most of a measuring pass: a new
# process imports manim and torch before the scene.
START_SECONDS = 3.3  # a worker's start before the storyboard's first animation
STORYBOARD_PER_VIDEO_SECOND = 0.034  # the storyboard without drawing, per second of video
DRAW_PER_FRAME = 0.0063  # CPU s per frame of cost, at any size (paths, interpolation) ...
DRAW_PER_1080P_FRAME = 0.0304  # ... plus this per 1920x1080 pixels (filling, encoding)
DRAW_EXTRA_CORES = 0.3  # cores the encoder's threads add while drawing, at 1080p (in proportion to the pixels)
JOIN_PER_FRAME = 3e-5  # joining the chunks' packets, per frame (0.02 s for 667 frames at 480p, 0.08 s for 2668
                       # at 1080p)
TYPICAL_DRAWN_SHARE = 0.55  # of a clip's frames, the rest held waits (0.51 to 0.60 in the renders above)
MIN_GAIN = 0.12  # a split must be predicted this much faster (a share of the whole render) to be worth it: the
                 # predictions are within about 10% of what is measured


@dataclass(frozen=True)
class RenderModel:
    """What rendering one clip costs at one quality, in wall seconds on one worker."""

    start: float  # the worker's start
    storyboard: float  # the whole storyboard without drawing (after the start)
    draw_per_frame: float  # CPU seconds per frame of cost (clip_cost)
    draw_cores: float  # cores a drawing worker keeps busy

    @classmethod
    def for_quality(cls, width: int, height: int, video_seconds: float) -> RenderModel:
        pixels = width * height / (1920 * 1080)
        return cls(START_SECONDS, STORYBOARD_PER_VIDEO_SECOND * video_seconds,
                   DRAW_PER_FRAME + DRAW_PER_1080P_FRAME * pixels, 1 + DRAW_EXTRA_CORES * min(pixels, 1.0))

    def measured(self, setup_seconds: float) -> RenderModel:
        """With the start and storyboard as a measuring pass took them (its wall time)."""
        return RenderModel(0.0, setup_seconds, self.draw_per_frame, self.draw_cores)


def _frames(animations: list[Animation]) -> int:
    return sum(a.frames for a in animations)


def _side_by_side(pieces: list[tuple[float, float]], cores: float) -> float:
    """When pieces (wall seconds alone, CPU seconds) started together on `cores` cores have all finished."""
    return max(max(wall for wall, _ in pieces), sum(cpu for _, cpu in pieces) / max(1, cores))


def _piece(animations: list[Animation], model: RenderModel, start: int, stop: int, to_end: bool,
           from_position: int = 0) -> tuple[float, float]:
    """(wall, CPU) of a worker drawing frames [start, stop); it runs the storyboard from `from_position` (0 for a
    new worker, with its start; a lead's position for a lead already under way) to `stop`, or to the end."""
    frames = _frames(animations) or 1
    storyboard = model.storyboard * ((frames if to_end else stop) - from_position) / frames
    setup = storyboard + (model.start if from_position == 0 else 0.0)
    drawing = model.draw_per_frame * cost_between(animations, start, stop)
    return setup + drawing / model.draw_cores, setup + drawing


def predicted_whole(animations: list[Animation], model: RenderModel) -> float:
    return _piece(animations, model, 0, _frames(animations), True)[0]


def predicted_split(animations: list[Animation], windows: list[Window], model: RenderModel, cores: float
                    ) -> float:
    """The clip rendered as these windows side by side on `cores` cores, then joined."""
    total = _frames(animations)
    pieces = [_piece(animations, model, w.start, w.stop if w.stop is not None else total, w.stop is None)
              for w in windows]
    return _side_by_side(pieces, cores) + JOIN_PER_FRAME * total


def chunks_worth(animations: list[Animation], model: RenderModel, cores: float, most: int,
                 overhead: float = 0.0) -> int:
    """How many chunks (1 = render it whole) of at most `most` give the shortest predicted time (with `overhead`
    seconds that only a split pays), if that is at least MIN_GAIN shorter than rendering the clip whole."""
    whole = predicted_whole(animations, model)
    best, best_time = 1, whole * (1 - MIN_GAIN)
    for count in range(2, most + 1):
        windows = split(animations, count)
        if len(windows) < 2:
            continue
        predicted = predicted_split(animations, windows, model, cores) + overhead
        if predicted < best_time:
            best, best_time = len(windows), predicted
    return best


@dataclass(frozen=True)
class LeadPlan:
    """Where a lead chunk already under way should stop, and the windows after it; or nothing (stop = None): it
    renders the whole clip. `whole` and `split` are the predicted seconds from now."""

    stop: int | None
    windows: tuple[Window, ...]
    whole: float
    split: float


def lead_plan(animations: list[Animation], model: RenderModel, cores: float, most: int, position: int,
              elapsed: float) -> LeadPlan:
    """The clip's timeline has just been measured (`model` carries the measuring pass's time) while a lead chunk,
    started `elapsed` seconds ago, has reached frame `position`. Cut the lead, and start up to `most` - 1 chunks
    after it, only if that is predicted to finish at least MIN_GAIN (of the whole clip's time) sooner than letting
    the lead render the rest: each new chunk pays the whole storyboard again before it draws, so the lead keeps
    the larger share."""
    total = _frames(animations)
    rest_alone = _piece(animations, model, position, total, True, from_position=position)[0]
    margin = MIN_GAIN * (elapsed + rest_alone)
    best = LeadPlan(None, (), rest_alone, rest_alone)
    if position >= total:
        return best
    before_lead = cost_between(animations, 0, position)
    rest = cost_between(animations, position, total)
    candidates = sorted({a.first for a in animations if a.first > position}
                        | {position + round((total - position) * k / 64) for k in range(1, 64)})
    for count in range(2, most + 1):
        for stop in candidates:
            if stop <= position or stop >= total:
                continue
            after = cost_between(animations, stop, total)
            edges = [stop] + sorted({_edge(animations, before_lead + (rest - after) + after * k / (count - 1))
                                     for k in range(1, count - 1)})
            edges = [e for i, e in enumerate(edges) if e < total and (i == 0 or e > edges[i - 1])]
            windows = [Window(a, b) for a, b in zip(edges, [*edges[1:], None])]
            pieces = [_piece(animations, model, position, stop, False, from_position=position)]
            pieces += [_piece(animations, model, w.start, w.stop if w.stop is not None else total, w.stop is None)
                       for w in windows]
            predicted = _side_by_side(pieces, cores) + JOIN_PER_FRAME * total
            if predicted < best.split and predicted <= rest_alone - margin:
                best = LeadPlan(stop, tuple(windows), rest_alone, predicted)
    return best


def stand_in_timeline(seconds: float, fps: float) -> list[Animation]:
    """A clip never rendered here, as what a typical clip's timeline looks like: each second of its expected length
    a drawn animation then a held wait, TYPICAL_DRAWN_SHARE of the frames drawn. (All drawn would overstate the
    drawing, which is what a split shares out, and so the gain.)"""
    per_second = max(1, round(fps))
    drawn = max(1, round(per_second * TYPICAL_DRAWN_SHARE))
    animations: list[Animation] = []
    for second in range(max(1, round(seconds))):
        first = second * per_second
        animations.append(Animation(first, drawn, False))
        if drawn < per_second:
            animations.append(Animation(first + drawn, per_second - drawn, True))
    return animations


def _frame_reached(animations: list[Animation], model: RenderModel, seconds: float) -> int:
    """The frame a whole-clip worker started `seconds` ago has reached (its start, then the storyboard and its
    drawing in step)."""
    low, high = 0, _frames(animations)
    while low < high:
        middle = (low + high + 1) // 2
        if _piece(animations, model, 0, middle, False)[0] <= seconds:
            low = middle
        else:
            high = middle - 1
    return low


def measuring_pays(animations: list[Animation], model: RenderModel, cores: float, most: int) -> bool:
    """Whether measuring a clip beside its lead chunk is predicted to pay: the measuring pass (start and storyboard)
    runs first on a core of its own, the lead meanwhile drawing on what is left; then lead_plan cuts the lead where
    it is. Worth it only if that whole course finishes MIN_GAIN sooner than the clip rendered whole, with no
    measuring at all: where the storyboard is a large part of the clip (low qualities), the new chunk pays it again
    and the measuring pass is lost."""
    if cores < 2 or most < 2:
        return False
    measuring = model.start + model.storyboard
    lead = replace(model, draw_cores=min(model.draw_cores, cores - 1))
    position = _frame_reached(animations, lead, measuring)
    plan = lead_plan(animations, model.measured(measuring), cores, most, position, measuring)
    return plan.stop is not None and measuring + plan.split <= (1 - MIN_GAIN) * predicted_whole(animations, model)
