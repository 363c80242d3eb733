"""The encoder's pipeline (rendering/encode/framesink.py): frames are converted on one thread and encoded on
another; what comes out is every frame put, in order, repeats included, and a failure on either thread reaches the
render thread instead of hanging it."""

from __future__ import annotations

import threading

import av
import numpy as np
import pytest

from rendering.encode import framesink

SIDE = 64
#: Far apart in every channel, so that a decoded frame (x264 at crf 23) is told from its neighbours at a glance.
COLOURS = [(230, 30, 30), (30, 200, 40), (40, 60, 220), (240, 240, 240), (20, 20, 20)]


def solid(rgb: tuple[int, int, int]) -> np.ndarray:
    pixels = np.empty((SIDE, SIDE, 4), dtype=np.uint8)
    pixels[..., :3], pixels[..., 3] = rgb, 255
    return pixels


def nearest_colour(frame: av.VideoFrame) -> int:
    mean = frame.to_ndarray(format="rgb24").reshape(-1, 3).mean(axis=0)
    return int(np.argmin([np.abs(mean - np.array(c)).sum() for c in COLOURS]))


def test_every_frame_comes_out_in_order_with_its_repeats(tmp_path):
    path = tmp_path / "clip.mp4"
    writer = framesink._StreamWriter(path, framesink.ENCODINGS["mp4"], SIDE, SIDE, 30)
    encoder = framesink._EncoderPipeline([writer])
    repeats = [3, 1, 12, 2, 5, 1, 1, 20, 4, 2]  # more puts than either queue holds
    for i, repeat in enumerate(repeats):
        encoder.put(solid(COLOURS[i % len(COLOURS)]), repeat, key=i in (0, 4))
    encoder.finish()
    with av.open(str(path)) as container:
        shown = [nearest_colour(frame) for frame in container.decode(video=0)]
    expected = [i % len(COLOURS) for i, repeat in enumerate(repeats) for _ in range(repeat)]
    assert shown == expected


class _Failing:
    """A stream writer whose encoder fails at the n-th frame (once `gate` is set, when given: by then the render
    thread has filled both queues)."""

    def __init__(self, at: int, gate: threading.Event | None = None) -> None:
        self.at, self.seen, self.closed, self.gate = at, 0, False, gate

    def write(self, frame, repeat, key=False) -> None:
        self.seen += 1
        if self.seen == self.at:
            if self.gate is not None:
                self.gate.wait(10)
            raise OSError("disk full")

    def finish(self) -> None:
        raise AssertionError("finish must not run after a failure")

    def close(self) -> None:
        self.closed = True


def _within(seconds: float, work) -> None:
    """Run `work` on a thread; fail (not hang) if it does not end in `seconds`."""
    outcome: list[BaseException | None] = []

    def run() -> None:
        try:
            work()
            outcome.append(None)
        except BaseException as error:
            outcome.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "the encoder's pipeline hung"
    if outcome[0] is not None:
        raise outcome[0]


def test_a_failed_encode_reaches_the_render_thread_and_nothing_hangs():
    full = threading.Event()
    failing = _Failing(at=3, gate=full)
    encoder = framesink._EncoderPipeline([failing])

    def render() -> None:  # as the worker does: finish, or abort on an error
        try:
            for i in range(60):  # far more frames than the queues hold: a stage that stopped taking would block
                if i == 15:
                    full.set()  # both queues (8 each) are nearly full: now the encoder fails
                encoder.put(solid(COLOURS[i % len(COLOURS)]), 1)
            encoder.finish()
        except BaseException:
            encoder.abort()
            raise

    with pytest.raises(RuntimeError, match="encoding failed: disk full"):
        _within(30, render)
    assert failing.closed


def test_abort_ends_both_threads_and_closes_the_writers():
    failing = _Failing(at=10**6)
    encoder = framesink._EncoderPipeline([failing])
    for i in range(5):
        encoder.put(solid(COLOURS[i]), 2)
    _within(30, encoder.abort)
    assert failing.closed
    assert not encoder._converting.thread.is_alive() and not encoder._encoding.thread.is_alive()
