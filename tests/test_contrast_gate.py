"""The on-screen contrast gate: every text read at a beat's end is measured against what is drawn behind it, and
fails below WCAG's 4.5:1. Expected ratios are computed here from the fixture's colours with WCAG's formula, written
out independently of scenes.kit.contrast."""

from __future__ import annotations

import numpy as np
import pytest

from scenes.quality import contrast_gate
from scenes.quality.inspection import inspect_scene_class
from tests.fixtures.quality import contrast_scenes


def wcag(foreground: str, background: str) -> float:
    def lum(hex_colour: str) -> float:
        channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    high, low = sorted((lum(foreground), lum(background)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def contrast_of(scene) -> tuple[list[str], dict]:
    report = inspect_scene_class(scene, "fixture")
    return report.contrast_problems, report.min_text_contrast


def test_the_palettes_text_on_a_dark_box_passes_and_its_ratio_is_reported():
    problems, lowest = contrast_of(contrast_scenes.ReadableScene)
    assert problems == []
    assert lowest["readable"] == pytest.approx(wcag("#ECEFF4", "#1B2B38"), rel=0.03)


def test_violet_on_grey_fails_with_its_ratio_and_both_colours():
    problems, lowest = contrast_of(contrast_scenes.LowContrastScene)
    assert len(problems) == 1 and "softmax" in problems[0] and "on #7" in problems[0], problems
    assert lowest["low"] == pytest.approx(wcag("#B48EF5", "#7A7F88"), rel=0.03)


def test_a_one_letter_word_is_measured_against_the_box_not_its_own_ink():
    problems, lowest = contrast_of(contrast_scenes.ThinGlyphScene)
    assert lowest["thin"] == pytest.approx(wcag("#FF5C5C", "#5F6675"), rel=0.03)
    assert len(problems) == 1 and "'I'" in problems[0]


def test_a_faded_text_is_not_read_and_a_dimmed_one_is_held_to_the_minimum():
    problems, _ = contrast_of(contrast_scenes.FadedScene)
    assert len(problems) == 1 and "dim" in problems[0] and "gone" not in problems[0], problems


def test_the_colour_behind_a_text_is_the_commonest_colour_around_its_ink():
    frame = np.zeros((100, 100, 3), dtype=np.uint8)
    frame[:, :] = (0x11, 0x14, 0x18)
    frame[40:60, 40:60] = (0x5F, 0x66, 0x75)  # a box
    frame[45:55, 48:52] = (0xFF, 0x5C, 0x5C)  # a thin glyph filling most of its own box
    from manim import config
    w, h = config.frame_width, config.frame_height
    box = ((48 / 100 - 0.5) * w, (52 / 100 - 0.5) * w, (0.5 - 55 / 100) * h, (0.5 - 45 / 100) * h)
    assert contrast_gate.behind(frame, box, "#FF5C5C") == "#5F6675"


def test_an_arrow_and_a_masked_cell_in_the_palettes_colours_pass():
    problems, _ = contrast_of(contrast_scenes.GraphicsScene)
    assert problems == []
    assert wcag("#5F6675", "#101318") >= 3.0  # the mask's grey against the background, as the palette promises


def test_a_faint_arrow_fails_the_graphics_minimum():
    problems, _ = contrast_of(contrast_scenes.FaintArrowScene)
    assert len(problems) == 1 and "graphic contrast" in problems[0] and "Arrow" in problems[0], problems
    ratio = float(problems[0].split("graphic contrast ")[1].split(":")[0])
    assert ratio == pytest.approx(wcag("#2A2F38", "#101318"), rel=0.05)


def test_a_block_of_masked_cells_is_one_shape_against_the_background_and_a_faded_arrow_is_not_read():
    problems, _ = contrast_of(contrast_scenes.MaskBlockScene)
    assert problems == []


def test_a_masked_cell_ringed_by_grid_lines_is_held_against_the_background_not_the_lines():
    """A masked cell at a map's edge: most of the ring just outside it is the map's grid line, 8 levels lighter
    than the background (#181B20 on #101318); the rest is the background. Against the line the mask's grey is
    2.99:1, against the background it is the palette's 3.2:1: the gate holds it against the background."""
    frame = np.zeros((40, 40, 4), dtype=np.uint8)
    frame[..., :3] = (0x10, 0x13, 0x18)
    frame[5:35, 5:35, :3] = (0x18, 0x1B, 0x20)  # the grid's lines round the cell
    frame[10:30, 10:30, :3] = (0x5F, 0x66, 0x75)  # the masked cell
    frame[10:30, 30:35, :3] = (0x10, 0x13, 0x18)  # where the cell meets the background (its right side)
    assert contrast_gate.colour_around(frame, (10, 30, 10, 30)) == "#181B20"  # the lines are most of the ring
    assert contrast_gate.colour_around(frame, (10, 30, 10, 30), against="#101318") == "#101318"
    assert wcag("#5F6675", "#181B20") < 3.0 <= wcag("#5F6675", "#101318")
