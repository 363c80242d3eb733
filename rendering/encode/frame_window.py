"""Render one window of a clip's frames, [start, stop), so that chunks rendered apart join into the whole clip.

The whole scene still runs in every chunk: every animation is compiled, begun and finished in order, so the
mobjects, the clock (`scene.time`), the captions and the speech placement are exactly those of an unsplit render.
What a chunk saves is the drawing and encoding: an animation whose frames all lie outside the window takes manim's
own skip path (one jump to its end state, nothing drawn), and an animation that straddles an edge is drawn but
only its frames inside the window reach the encoder. A window edge may therefore fall anywhere, also in the middle
of a wait, where the frame is drawn once and repeated.

Skipping changes two things manim would otherwise do differently, and both are put back: manim's skip path
advances the clock by the animation's run time in one step, where drawing adds 1/fps per frame (so the clock is
set to what the drawn frames would have added, in the same float operations), and it does not count frames (so
each animation's frame count is predicted exactly as manim's time progression makes it, and checked against the
drawn count wherever an animation is drawn). A chunk that ends before the scene does stops the scene at its first
animation past the window (manim's EndSceneEarlyException), unless it must run on for the captions.

A lead chunk starts before anyone knows where to cut (a clip never rendered before: its timeline is being measured
beside it). It renders from frame 0 and watches `cut_file`; when the cut appears it ends there, or where it already
is if that is later, and says where (`on_cut`), so that the next chunk starts exactly at its end.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np


@dataclass(frozen=True)
class Window:
    """Frames [start, stop) of the clip; stop None = to the end."""

    start: int = 0
    stop: int | None = None

    def __post_init__(self) -> None:
        if self.start < 0 or (self.stop is not None and self.stop < self.start):
            raise ValueError(f"bad frame window [{self.start}, {self.stop})")

    @property
    def whole(self) -> bool:
        return self.start == 0 and self.stop is None

    def overlaps(self, first: int, count: int) -> bool:
        return first + count > self.start and (self.stop is None or first < self.stop)

    def kept(self, first: int, count: int) -> int:
        """How many of the frames [first, first + count) lie inside the window."""
        high = first + count if self.stop is None else min(first + count, self.stop)
        return max(0, high - max(first, self.start))


@dataclass
class AnimationRecord:
    """One play() of the scene, for planning later splits: its frame count and whether it is a static wait (one
    frame drawn, then repeated: almost free to render)."""

    frames: int
    static: bool


@dataclass
class WindowedRender:
    """Attached to a scene before it renders; afterwards says how many frames the clip has and which it kept."""

    window: Window = field(default_factory=Window)
    run_to_end: bool = True  # the last chunk runs the scene to its end: captions and speech are read from it
    position: int = 0  # frames of the clip so far, drawn or not
    kept: int = 0  # frames handed to the encoder
    timeline: list[AnimationRecord] = field(default_factory=list)
    cut_file: str | None = None  # a lead chunk: where the runner writes the frame to end at
    on_cut: Callable[[int], None] | None = None
    # Wall seconds from the end of the previous play() to the end of each one: in a measuring pass (nothing drawn)
    # that is what it costs a chunk to get through this part of the storyboard (benchmarks/bench_scale.py).
    play_seconds: list[float] = field(default_factory=list)

    def take_cut(self) -> None:
        """If the runner has written the cut, end the window there (or here, if that is already past)."""
        if self.cut_file is None or self.window.stop is not None or not os.path.exists(self.cut_file):
            return
        with open(self.cut_file, encoding="ascii") as handle:
            stop = max(int(handle.read()), self.position)
        self.window = Window(self.window.start, stop)
        self.run_to_end = False
        if self.on_cut is not None:
            self.on_cut(stop)

    def last_frame_inside(self) -> bool:
        """Whether the newest frame of the clip is one this chunk keeps: an animation that ends here is a poster
        candidate only if its last frame is ours (one cut off by the window's end is the next chunk's)."""
        return self.position > 0 and self.window.kept(self.position - 1, 1) == 1

    def attach(self, scene) -> None:
        """Wrap the renderer's play, frame drawing and frame adding on this scene's instances only."""
        from manim.utils.exceptions import EndSceneEarlyException

        renderer = scene.renderer
        original_play, original_update_frame = renderer.play, renderer.update_frame
        original_compile = scene.compile_animation_data
        dt = 1 / renderer.camera.frame_rate
        state = {"skipping": False, "predicted": None, "first": 0, "static": False, "mark": time.perf_counter()}

        def compile_animation_data(*args, **kwargs):
            self.take_cut()
            original_compile(*args, **kwargs)
            predicted = predicted_frames(scene)
            state["predicted"], state["first"] = predicted, self.position
            state["static"] = scene.is_current_animation_frozen_frame()
            if self.window.stop is not None and self.position >= self.window.stop and not self.run_to_end:
                raise EndSceneEarlyException()
            if predicted is not None and not self.window.overlaps(self.position, predicted):
                renderer.skip_animations = True
                state["skipping"] = True

        def update_frame(*args, **kwargs):
            if not state["skipping"]:
                original_update_frame(*args, **kwargs)

        def add_frame(frame, num_frames: int = 1):
            if renderer.skip_animations:
                return
            renderer.time += num_frames * dt  # exactly manim's own add_frame
            self.take_cut()
            kept = self.window.kept(self.position, num_frames)
            if kept:
                renderer.file_writer.write_frame(frame, repeat=kept)
                self.kept += kept
            self.position += num_frames

        def play(the_scene, *args, **kwargs):
            start_time = renderer.time
            try:
                original_play(the_scene, *args, **kwargs)
            finally:
                skipped, state["skipping"] = state["skipping"], False
            predicted, first, static = state["predicted"], state["first"], state["static"]
            if skipped:
                renderer.time = _clock_after(start_time, predicted, static, dt)
                self.position = first + predicted
            elif predicted is not None and self.position - first != predicted:
                raise RuntimeError(f"animation {len(self.timeline)} drew {self.position - first} frames where "
                                   f"{predicted} were predicted; chunks of this clip would not join")
            self.timeline.append(AnimationRecord(self.position - first, static))
            now = time.perf_counter()
            self.play_seconds.append(now - state["mark"])
            state["mark"] = now

        scene.compile_animation_data = compile_animation_data
        renderer.update_frame = update_frame
        renderer.add_frame = add_frame
        renderer.play = play


def predicted_frames(scene) -> int | None:
    """The frames this play() will write, in manim's own arithmetic (CairoRenderer.freeze_current_frame for a
    static wait, Scene.get_time_progression otherwise); None when a stop condition decides."""
    from manim import config

    if scene.is_current_animation_frozen_frame():
        return int(scene.duration / (1 / scene.renderer.camera.frame_rate))
    if any(getattr(animation, "stop_condition", None) is not None for animation in scene.animations):
        return None
    return len(np.arange(0, scene.duration, 1 / config["frame_rate"]))


def _clock_after(start: float, frames: int, static: bool, dt: float) -> float:
    """The clock after `frames` frames, added as manim adds them: in one step for a static wait, else one by one
    (so the float is bit for bit the drawn render's, and captions and speech land on the same milliseconds)."""
    if static:
        return start + frames * dt
    clock = start
    for _ in range(frames):
        clock += 1 * dt
    return clock
