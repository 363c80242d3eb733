"""Take the frames manim draws and encode the mp4 and the webm from them ourselves, and pick the poster.

manim's own writer encodes each animation to a partial movie and joins them at the end; for every written frame,
repeats included, it copies the RGBA array into a new frame and converts it to YUV again. Here each drawn frame is
converted once, the conversion feeds both encoders, and a repeated frame (a wait) is only re-encoded, not
re-converted. That, and x264's veryfast preset, is render.py's speed over the plain CLI at 1080p60 (see
benchmarks/bench_render.py). Drawing, converting and encoding each run on a thread of their own, one frame apart:
at 1080p60 x264 is the slowest of the three, so the other two wait on it rather than add to it. The flash meter
reads each frame on the converting thread too (~2 ms a 1080p frame, once on the drawing thread).

Every beat's first frame is a key frame (forced as picture type I; x264 makes it an IDR with forced-idr), so that a
beat's video can be cut out of the clip by copying packets (rendering/encode/segments.py, for the slides). The sink learns
that a beat has begun from `beats_started`, the scene's count of beats so far, read as each frame arrives.

The tap replaces four public SceneFileWriter methods on the instance: begin_animation/end_animation say whether
the frames in between belong to the movie (manim drops frames written outside them), write_frame delivers each
frame, and finish, which would join manim's partial movies, has nothing to join. Caching must be off (the worker
sets disable_caching) so that every frame of the movie is actually drawn and delivered.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Callable

import av
import numpy as np
from av.video.frame import PictureType

from rendering.encode.flashes import FlashMeter

# No random segment UID, date or encoder version string in the container: the same frames give the same bytes.
BITEXACT = {"fflags": "+bitexact"}


@dataclass(frozen=True)
class Encoding:
    """One output format: container, codec and the options that decide its bytes."""

    container: str
    codec: str
    options: dict = field(default_factory=dict)
    container_options: dict = field(default_factory=dict)


ENCODINGS: dict[str, Encoding] = {
    # manim's crf 23 and pixel format, but x264's veryfast preset instead of manim's medium: on these flat frames
    # (bottleneck, 1080p60) it encodes with 60% of the CPU, the file is 15% smaller, and the frames are
    # indistinguishable at 1:1 (PSNR to the drawn frames 39.6 dB vs 40.3). faststart puts the index first, so a
    # browser can start playing before the whole file has arrived.
    # forced-idr: a frame sent as picture type I (a beat's first) becomes an IDR frame, which nothing after it
    # references across, so the beat decodes on its own.
    # subme=1 and me=dia (superfast's motion search inside veryfast): on 600 frames of teacher_forcing at 1080p60,
    # 28% less CPU a frame for the same size (262 against 263 kB) and 0.15 dB less PSNR (43.44 against 43.59).
    # Two frame threads, not FFmpeg's slice threads on every core: 8% less CPU than slices, 7% smaller (a slice
    # costs bits), and the bytes do not depend on the machine's core count.
    "mp4": Encoding("mp4", "libx264", {"crf": "23", "preset": "veryfast", "forced-idr": "1",
                                       "x264-params": "subme=1:me=dia", "threads": "2", "thread_type": "frame"},
                    {**BITEXACT, "movflags": "+faststart"}),
    # Constant quality (crf with b=0). On these flat, clean frames the realtime mode at speed 7 costs a third of the
    # CPU of "good" (1080p60: ~1.2 vs ~3.5 CPU s per video second) for the same fidelity (PSNR to the mp4 within
    # 1 dB) and size within 5%; it is as deterministic (fixed speed; same decoded frames across runs and load).
    "webm": Encoding("webm", "libvpx-vp9", {"crf": "32", "b": "0", "deadline": "realtime", "cpu-used": "7",
                                            "row-mt": "1"}, dict(BITEXACT)),
}
PIXEL_FORMAT = "yuv420p"  # what every browser plays


class _StreamWriter:
    """One container with one video stream; frames arrive already converted to PIXEL_FORMAT."""

    def __init__(self, path: Path, encoding: Encoding, width: int, height: int, fps: int) -> None:
        self.container = av.open(str(path), mode="w", format=encoding.container,
                                 container_options=dict(encoding.container_options))
        try:
            self.stream = self.container.add_stream(encoding.codec, rate=fps, options=dict(encoding.options))
            self.stream.pix_fmt = PIXEL_FORMAT
            self.stream.width, self.stream.height = width, height
        except BaseException:
            self.container.close()
            raise
        self.time_base = Fraction(1, fps)
        self.pts = 0

    def write(self, frame: av.VideoFrame, repeat: int, key: bool = False) -> None:
        """`repeat` copies of the frame; with `key` the first is forced to be a key frame, the rest not."""
        frame.time_base = self.time_base
        for copy in range(repeat):
            frame.pts = self.pts
            frame.pict_type = PictureType.I if key and copy == 0 else PictureType.NONE
            self.pts += 1
            self.container.mux(self.stream.encode(frame))

    def finish(self) -> None:
        try:
            self.container.mux(self.stream.encode())
        finally:
            self.container.close()

    def close(self) -> None:
        try:
            self.container.close()
        except Exception:
            pass


class _Stage:
    """One thread of the encoder's pipeline: takes items from its bounded queue, hands each to `work`, and stops at
    None (passed on to the next stage). After an error it keeps draining, so that no put() blocks forever."""

    def __init__(self, name: str, work: Callable[[object], None]) -> None:
        self.work = work
        self.queue: queue.Queue = queue.Queue(maxsize=8)
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while True:
            item = self.queue.get()
            if item is None:
                break
            if self.error is not None:
                continue
            try:
                self.work(item)
            except BaseException as error:  # surfaced by the pipeline's put()/finish() on the render thread
                self.error = error


class _EncoderPipeline:
    """Converts each frame once and feeds every stream writer, on threads of their own behind bounded queues, so
    that drawing the next frame, converting this one and encoding the one before overlap. At 1080p60 the
    conversion (~6 ms a frame) and x264 (~9 ms a frame, a repeat nearly as much as a new one) one after the other
    in one thread were slower than the drawing: the render waited on them for a third of its time."""

    def __init__(self, writers: list[_StreamWriter], meter: Callable[[np.ndarray, int], None] | None = None) -> None:
        """`meter`, if given, is shown every drawn frame with its repeats, in order, on the converting thread (the
        flash meter: ~2 ms a 1080p frame that the drawing thread no longer spends)."""
        self.writers = writers
        self._meter = meter
        self._encoding = _Stage("frame-encoder", self._encode)
        self._converting = _Stage("frame-converter", self._convert)

    def _convert(self, item) -> None:
        pixels, repeat, key = item
        if self._meter is not None:
            self._meter(pixels, repeat)
        # from_numpy_buffer wraps the array without copying it; reformat makes the one YUV copy, in this thread
        # alone (the same bytes as swscale's own threads, for less CPU: x264, not this, is what the drawing waits on).
        frame = av.VideoFrame.from_numpy_buffer(pixels, format="rgba").reformat(format=PIXEL_FORMAT, threads=1)
        self._encoding.queue.put((frame, repeat, key))

    def _encode(self, item) -> None:
        frame, repeat, key = item
        for writer in self.writers:
            writer.write(frame, repeat, key)

    @property
    def error(self) -> BaseException | None:
        return self._converting.error or self._encoding.error

    def _raise_if_failed(self) -> None:
        if self.error is not None:
            raise RuntimeError(f"encoding failed: {self.error}") from self.error

    def put(self, pixels: np.ndarray, repeat: int, key: bool = False) -> None:
        self._raise_if_failed()
        self._converting.queue.put((pixels, repeat, key))

    def _drain(self) -> None:
        """Let both stages end: every frame put so far is converted and encoded (or dropped after an error)."""
        self._converting.queue.put(None)
        self._converting.thread.join()
        self._encoding.queue.put(None)
        self._encoding.thread.join()

    def finish(self) -> None:
        self._drain()
        try:
            self._raise_if_failed()
            for writer in self.writers:
                writer.finish()
        finally:
            for writer in self.writers:
                writer.close()

    def abort(self) -> None:
        if self.error is None:  # a stage's own error stays the one reported
            aborted = RuntimeError("aborted")
            self._converting.error = self._encoding.error = aborted  # both drain: nothing more is encoded
        self._drain()
        for writer in self.writers:
            writer.close()


BLANK_TOLERANCE = 16  # a fade-out's last frame still holds traces one or two levels off the background


def _shows_something(rgb: np.ndarray, background: np.ndarray) -> bool:
    difference = np.maximum(rgb, background) - np.minimum(rgb, background)  # |a - b| without leaving uint8
    return bool((difference > BLANK_TOLERANCE).any())


def is_blank(pixels: np.ndarray) -> bool:
    """A frame showing nothing but its background colour (the top-left pixel), e.g. after a final fade-out.
    Every 8th pixel is looked at first: on a frame that shows something that usually settles it (at 1/64 of the
    cost of all pixels, ~40 ms at 1080p), and only a frame that looks blank there is checked whole."""
    rgb = pixels[..., :3]
    background = rgb[0, 0]
    return not (_shows_something(rgb[::8, ::8], background) or _shows_something(rgb, background))


class FrameSink:
    """Receives every movie frame manim draws; encodes the videos, picks the poster, counts frames and flashes."""

    def __init__(self, *, width: int, height: int, fps: int, videos: dict[str, Path],
                 on_frames: Callable[[int], None] | None = None,
                 owns_animation_end: Callable[[], bool] | None = None,
                 beats_started: Callable[[], int] | None = None) -> None:
        """`videos` maps a format of ENCODINGS ("mp4", "webm") to the file to write it to. `owns_animation_end`
        says, when an animation ends, whether its last frame is one this sink took (a chunk of a clip takes only
        some frames; see frame_window): only then can that frame be the poster. `beats_started` counts the
        scene's beats so far: a frame arriving after it grew is a beat's first and is encoded as a key frame."""
        unknown = sorted(set(videos) - set(ENCODINGS))
        if unknown:
            raise ValueError(f"no encoding for {', '.join(unknown)}; valid: {', '.join(ENCODINGS)}")
        self.frames = 0
        self._recording = False
        self._last: np.ndarray | None = None
        self._poster: np.ndarray | None = None
        self._on_frames = on_frames
        self._owns_animation_end = owns_animation_end or (lambda: True)
        self._beats_started = beats_started or (lambda: 0)
        self._beats_seen = 0
        self.key_frames: list[int] = []  # the frames (of this sink) forced to be key frames: beat starts
        # WCAG 2.3.1, metered on the frames as they are drawn, on the encoder's converting thread: complete once
        # finish() has returned
        self.flashes = FlashMeter(fps)
        writers: list[_StreamWriter] = []
        try:
            for name, path in videos.items():
                writers.append(_StreamWriter(path, ENCODINGS[name], width, height, fps))
        except BaseException:
            for writer in writers:
                writer.close()
            raise
        self._encoder = _EncoderPipeline(writers, meter=self.flashes.add)

    def attach(self, file_writer) -> None:
        """Take over the writer's frame path (instance attributes shadow its methods): manim draws, we encode."""

        def begin_animation(allow_write: bool = False, **kwargs):
            self._recording = bool(allow_write) and file_writer.output_spec.is_video

        def end_animation(allow_write: bool = False):
            if (self._recording and self._last is not None and self._owns_animation_end()
                    and not is_blank(self._last)):
                self._poster = self._last  # the end of the last animation that shows something
            self._recording = False

        def write_frame(pixels, *, repeat: int = 1):
            if self._recording:
                self._take(pixels, repeat)

        def finish():
            """manim's finish joins its partial movies; there are none, the movie is written here."""

        file_writer.begin_animation = begin_animation
        file_writer.end_animation = end_animation
        file_writer.write_frame = write_frame
        file_writer.finish = finish

    def _take(self, pixels: np.ndarray, repeat: int) -> None:
        # manim hands the array over and never mutates it afterwards, so keeping a reference is safe.
        self._last = pixels
        beats = self._beats_started()
        key = beats > self._beats_seen
        self._beats_seen = beats
        if key:
            self.key_frames.append(self.frames)
        self._encoder.put(pixels, repeat, key)
        self.frames += repeat
        if self._on_frames is not None:
            self._on_frames(self.frames)

    def poster(self) -> np.ndarray | None:
        """The last frame that is not blank, or the very last frame if every frame is blank."""
        return self._poster if self._poster is not None else self._last

    def poster_candidate(self) -> np.ndarray | None:
        """The end of the last animation that showed something, if any: a chunk's bid for the clip's poster."""
        return self._poster

    def last_frame(self) -> np.ndarray | None:
        return self._last

    def finish(self) -> None:
        self._encoder.finish()

    def abort(self) -> None:
        self._encoder.abort()
