"""How many flashes a clip shows in its worst second (WCAG 2.3.1, three flashes or below threshold).

WCAG's general flash: a pair of opposing changes in relative luminance of 10% or more of the maximum, where the
darker state is below 0.80, over an area of at least 25% of a 10° visual field (0.006 sr; 21,824 of a 1024×768
screen's pixels, 2.78% of it). The meter follows every pixel's relative luminance (on a grid of about 120 rows:
a flash smaller than a grid cell is far below the area) from frame to frame; a pixel makes a transition when it
turns after moving 0.1 or more from its last turning point, the darker side below 0.8. A second shows k flashes
when the pixels with 2k transitions in it cover the area. The area is taken over the whole frame, not within one
10° field, so a flicker scattered over the frame counts as if it were in one place: the count can only be too high.
Red flashes are not metered: no colour of the palette is a saturated red (tests/test_flashes.py holds it).
"""

from __future__ import annotations

import math
from collections import deque

import numpy as np

#: A change that counts: 10% of the maximum relative luminance; the darker side of it below this.
STEP, DARKER_BELOW = 0.10, 0.80
#: 25% of a 10° visual field at typical distance: 21,824 px² of a 1024×768 screen.
AREA = 21_824 / (1024 * 768)
#: At most this many flashes in any one second.
MOST_FLASHES = 3
GRID_ROWS = 120


def _linear_table() -> np.ndarray:
    c = np.arange(256) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4).astype(np.float32)


LINEAR = _linear_table()


def relative_luminance(rgb: np.ndarray) -> np.ndarray:
    """WCAG's relative luminance of an (h, w, 3 or 4) uint8 sRGB image."""
    return 0.2126 * LINEAR[rgb[..., 0]] + 0.7152 * LINEAR[rgb[..., 1]] + 0.0722 * LINEAR[rgb[..., 2]]


class FlashMeter:
    """Fed every frame of a clip in order (a repeated frame once, with its count), it keeps the worst second."""

    def __init__(self, fps: int) -> None:
        self.fps = max(1, int(round(fps)))
        self.worst = 0  # the most flashes seen in any one second so far
        self._anchor = self._peak = self._direction = None
        self._recent: deque = deque()  # per frame of the last second: its transitions, or None (none)
        self._counts: np.ndarray | None = None  # transitions per pixel within the last second

    def add(self, pixels: np.ndarray, repeat: int = 1) -> None:
        step = max(1, pixels.shape[0] // GRID_ROWS)
        lum = relative_luminance(pixels[::step, ::step])
        if self._anchor is None:
            self._anchor, self._peak = lum.copy(), lum.copy()
            self._direction = np.zeros(lum.shape, dtype=np.int8)
            self._counts = np.zeros(lum.shape, dtype=np.int32)
            self._slide(None, repeat)
            return
        self._slide(self._transitions(lum), 1)
        self._slide(None, repeat - 1)  # a held frame changes nothing, but time passes

    def _transitions(self, lum: np.ndarray) -> np.ndarray:
        """Where a pixel turns (or first moves) by STEP or more, the darker side below DARKER_BELOW."""
        rising, falling = self._direction > 0, self._direction < 0
        self._peak = np.where(rising, np.maximum(self._peak, lum),
                              np.where(falling, np.minimum(self._peak, lum), self._peak))
        swing = lum - self._peak
        dark_enough = np.minimum(lum, self._peak) < DARKER_BELOW
        turns_down = (self._direction >= 0) & (swing <= -STEP) & dark_enough
        turns_up = (self._direction <= 0) & (swing >= STEP) & dark_enough
        turned = turns_down | turns_up
        self._anchor = np.where(turned, self._peak, self._anchor)
        self._peak = np.where(turned, lum, self._peak)
        self._direction = np.where(turns_up, 1, np.where(turns_down, -1, self._direction)).astype(np.int8)
        return turned

    def _slide(self, turned: np.ndarray | None, frames: int) -> None:
        """Move the one-second window on by `frames` frames, the first of them with `turned`."""
        for k in range(max(0, frames)):
            if k >= self.fps and turned is None:
                break  # the window is all held frames now: nothing more can change
            entry = turned if k == 0 else None
            self._recent.append(entry)
            if entry is not None:
                self._counts += entry
            if len(self._recent) > self.fps:
                gone = self._recent.popleft()
                if gone is not None:
                    self._counts -= gone
            if entry is not None and entry.any():  # no pixel turned: no count grew, the worst stays
                self._note_worst()

    def _note_worst(self) -> None:
        counts = self._counts.ravel()
        covering = math.ceil(AREA * counts.size)  # the fewest pixels that make the area
        reached = np.partition(counts, counts.size - covering)[counts.size - covering]
        self.worst = max(self.worst, int(reached) // 2)


def worst_second(frames, fps: int) -> int:
    """The most flashes in any one second of `frames` (an iterable of images, one per frame)."""
    meter = FlashMeter(fps)
    for frame in frames:
        meter.add(frame)
    return meter.worst


__all__ = ["FlashMeter", "worst_second", "relative_luminance", "MOST_FLASHES", "AREA", "STEP", "DARKER_BELOW"]
