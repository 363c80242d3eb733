"""Portrait and square frames: the geometry per aspect, the layout's direction per region shape, and the phone
legibility figures and gate (headless, small fixture scenes; the post's scenes are checked in
tests/test_portrait_pixels.py)."""

from __future__ import annotations

import numpy as np
import pytest
from manim import DOWN, RIGHT, Square, config

from scenes import frame
from scenes.kit import layout, phone
from scenes.quality.headless import run_headless
from scenes.quality.inspection import inspect_scene_class, metrics_json
from tests.fixtures.quality import flawed_scenes, phone_scenes


# --- frame geometry -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("aspect, low, high", [
    ("landscape", (854, 480), (1920, 1080)),
    ("portrait", (480, 854), (1080, 1920)),
    ("square", (480, 480), (1080, 1080)),
])
def test_pixel_size_per_aspect(aspect, low, high):
    assert frame.pixel_size(aspect, 854, 480) == low
    assert frame.pixel_size(aspect, 1920, 1080) == high


def test_frame_units_per_aspect():
    assert frame.frame_units("portrait") == (4.5, 8.0)
    assert frame.frame_units("square") == (8.0, 8.0)
    # landscape is manim's own default frame, unchanged
    assert frame.frame_units("landscape") == (config.frame_width, config.frame_height) == (128 / 9, 8.0)
    assert frame.manim_frame("landscape", 854, 480) == {}
    assert frame.manim_frame("portrait", 854, 480) == {"pixel_width": 480, "pixel_height": 854,
                                                       "frame_width": 4.5, "frame_height": 8.0}


def test_unknown_aspect_names_the_choices():
    with pytest.raises(ValueError, match="landscape, portrait, square"):
        frame.check_aspect("vertical")


@pytest.mark.parametrize("aspect, shape", [("portrait", (854, 480)), ("square", (480, 480))])
def test_headless_run_draws_the_aspects_frame(aspect, shape):
    seen = {}

    def look(scene, record, pixels):
        seen["frame"] = pixels.shape[:2]
        seen["units"] = (config.frame_width, config.frame_height)
        seen["body"] = layout.body()

    run_headless(flawed_scenes.CleanScene, on_beat_end=look, aspect=aspect)
    assert seen["frame"] == shape
    assert seen["units"] == frame.frame_units(aspect)
    # the body follows the frame: the margin's width in from the frame's side edge
    assert seen["body"].right == pytest.approx(frame.frame_units(aspect)[0] / 2 - layout.MARGIN)


# --- arrangement follows the region's shape -------------------------------------------------------------------

def test_flow_is_side_by_side_in_a_wide_region_and_stacked_in_a_tall_one():
    wide, tall = layout.Region(-4, 4, -1, 1), layout.Region(-1, 1, -4, 4)
    assert np.allclose(layout.flow_direction(wide), RIGHT)
    assert np.allclose(layout.flow_direction(tall), DOWN)
    squares = [Square(1) for _ in range(3)]
    layout.flow(*squares, region=tall)
    xs = [s.get_center()[0] for s in squares]
    ys = [s.get_center()[1] for s in squares]
    assert max(xs) - min(xs) < 1e-9 and ys[0] > ys[1] > ys[2]
    layout.flow(*squares, region=wide)
    xs = [s.get_center()[0] for s in squares]
    ys = [s.get_center()[1] for s in squares]
    assert max(ys) - min(ys) < 1e-9 and xs[0] < xs[1] < xs[2]


# --- CSS px on a phone held upright ---------------------------------------------------------------------------

def test_css_figure_matches_the_digits_height_in_pixels():
    """A digit's CSS px, as the inspection computes it, against its height counted in the portrait frame's pixels
    (shown 390 CSS px wide, the frame is 480 px wide)."""
    pixels = {}
    run_headless(phone_scenes.DigitScene, on_beat_end=lambda s, r, f: pixels.setdefault("frame", f[..., :3]),
                 aspect="portrait")
    lit = np.flatnonzero((pixels["frame"].max(axis=-1) > 128).any(axis=1))
    counted = (lit.max() - lit.min() + 1) * phone.PHONE_CSS_WIDTH / 480
    with_frame = phone.css_px(phone_scenes.DIGIT_SIZE, frame.frame_units("portrait")[0])
    assert with_frame == pytest.approx(counted, abs=1.0)  # a pixel of anti-aliasing either way


def test_phone_gate_fails_text_too_small_in_portrait_only():
    portrait = inspect_scene_class(phone_scenes.TinyOnPhoneScene, "tiny", "portrait")
    phone_problems = [p for p in portrait.layout_problems if "phone held upright" in p]
    assert any("for text" in p and "'the query'" in p for p in phone_problems), phone_problems
    assert any("for a number" in p for p in phone_problems), phone_problems
    figures = metrics_json(portrait, "post", portrait.layout_problems, "portrait")
    assert figures["min_text_css_px"] < phone.MIN_TEXT_CSS_PX
    assert figures["min_number_css_px"] < phone.MIN_NUMBER_CSS_PX
    landscape = inspect_scene_class(phone_scenes.TinyOnPhoneScene, "tiny", "landscape")
    assert not [p for p in landscape.layout_problems if "phone held upright" in p]


def test_phone_gate_passes_a_legible_scene_and_reports_its_figures():
    report = inspect_scene_class(flawed_scenes.CleanScene, "clean", "portrait")
    assert not report.layout_problems, report.layout_problems
    beat = report.metrics[0].as_json()
    assert beat["min_number_css_px"] >= phone.MIN_NUMBER_CSS_PX
    assert beat["median_number_css_px"] >= beat["min_number_css_px"]
    assert beat["min_text_css_px"] is None  # the clean scene shows numbers only


@pytest.mark.parametrize("aspect", ["vertical", ""])
def test_an_unknown_aspect_exits_2_and_writes_nothing(aspect, tmp_path, capsys):
    from scenes.quality import headless, inspection

    assert headless.main(["--aspect", aspect, "--out", str(tmp_path / "frames"), "coffee_cafe"]) == 2
    assert inspection.main(["--aspect", aspect, "coffee_cafe"]) == 2
    assert "valid: landscape, portrait, square" in capsys.readouterr().err
    assert not (tmp_path / "frames").exists()
