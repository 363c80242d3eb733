"""The flash meter (WCAG 2.3.1): a whole frame flashing five times a second is counted as five flashes, twice a
second as two; a small flashing patch, changes among bright colours and held frames are counted as WCAG says."""

from __future__ import annotations

import numpy as np
import pytest
from manim import ManimColor

from rendering.encode.flashes import AREA, FlashMeter, worst_second
from scenes.kit import palette

H, W = 90, 160


def plain(level: int) -> np.ndarray:
    return np.full((H, W, 4), level, dtype=np.uint8)


def alternating(changes_every: int, seconds: int, fps: int, dark=plain(0), bright=plain(255)):
    """Dark and bright swapped every `changes_every` frames, starting dark."""
    return [dark if (f // changes_every) % 2 == 0 else bright for f in range(seconds * fps)]


def test_a_whole_frame_swapped_every_three_frames_at_30_fps_flashes_five_times_a_second():
    # 10 changes a second, a flash being a pair of opposing changes: 5.
    assert worst_second(alternating(3, 3, 30), 30) == 5


def test_four_changes_a_second_are_two_flashes():
    assert worst_second(alternating(5, 3, 20), 20) == 2


def test_one_change_is_no_flash_and_a_slow_fade_back_and_forth_is_one_a_second():
    assert worst_second([plain(0)] * 10 + [plain(255)] * 10, 20) == 0
    ramp = [plain(int(v)) for v in np.linspace(0, 255, 20)]
    assert worst_second((ramp + ramp[::-1]) * 3, 20) == 1


def test_a_patch_smaller_than_the_area_does_not_count_and_one_larger_does():
    def patched(share: float):
        side = int(np.sqrt(share * H * W))
        dark, bright = plain(0), plain(0).copy()
        bright[:side, :side] = 255
        return alternating(3, 2, 30, dark, bright)

    assert worst_second(patched(AREA / 3), 30) == 0
    assert worst_second(patched(AREA * 3), 30) == 5


def test_changes_among_bright_colours_are_no_flash():
    # Relative luminance of grey 235 is 0.83, of white 1.0: the darker side is not below 0.8.
    assert worst_second(alternating(3, 2, 30, plain(235), plain(255)), 30) == 0


def test_a_held_frame_counts_as_its_frames():
    dark, bright = plain(0), plain(255)
    meter = FlashMeter(30)
    for k in range(9):
        meter.add(dark if k % 2 == 0 else bright, repeat=10)
    assert meter.worst == worst_second([f for k in range(9) for f in [dark if k % 2 == 0 else bright] * 10], 30)
    assert meter.worst == 1  # a change every 10 frames: three a second


def palette_colours() -> dict[str, ManimColor]:
    found = {name: value for name, value in vars(palette).items() if isinstance(value, ManimColor)}
    found.update({f"HEAD_TINTS[{h}]": tint for h, tint in enumerate(palette.HEAD_TINTS)})
    return found


@pytest.mark.parametrize("name", sorted(palette_colours()))
def test_no_colour_of_the_palette_is_a_saturated_red(name):
    """WCAG's saturated red: R / (R + G + B) at or above 0.8. A blend of colours below it stays below it (the
    blend's ratio is an average of theirs), so no shade of a cell can make a red flash either."""
    r, g, b = (int(round(c * 255)) for c in palette_colours()[name].to_rgb())
    assert r / max(1, r + g + b) < 0.8
