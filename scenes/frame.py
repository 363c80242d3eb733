"""The frame's shape: landscape (16:9), portrait (9:16) or square (1:1), as pixels and as scene units.

One rule for the render worker (through rendering/qualities.py) and for headless runs, so a clip and its
inspection see the same frame. The short side is always 8 scene units, as landscape's height is today: a piece
of the kit keeps its size in pixels whatever the aspect, and the long side grows (portrait: 8 wide, 14.22 tall).
Setting only the pixel size would keep manim's 14.22 × 8 field and squash the content (ManimCommunity/manim#3604).
Beside the registry, not in scenes/kit/ (whose package imports manim): render.py checks an --aspect and hashes a
clip's inputs without loading manim, and the kit (headless runs, layout) imports it as the renderer does.
"""

from __future__ import annotations

LANDSCAPE, PORTRAIT, SQUARE = "landscape", "portrait", "square"
ASPECTS: tuple[str, ...] = (LANDSCAPE, PORTRAIT, SQUARE)
DEFAULT_ASPECT = LANDSCAPE

SHORT_SIDE_UNITS = 8.0  #: scene units across the frame's short side (landscape's height, as manim's default)
LONG_SIDE_UNITS = SHORT_SIDE_UNITS * 16 / 9  #: 14.22: manim's default frame_width


def pixel_size(aspect: str, landscape_width: int, landscape_height: int) -> tuple[int, int]:
    """(width, height) in pixels of `aspect` at the quality whose landscape frame is the given size."""
    check_aspect(aspect)
    if aspect == PORTRAIT:
        return landscape_height, landscape_width
    if aspect == SQUARE:
        return landscape_height, landscape_height
    return landscape_width, landscape_height


def frame_units(aspect: str) -> tuple[float, float]:
    """(frame_width, frame_height) in scene units: the short side 8, the long side 8 · 16/9."""
    check_aspect(aspect)
    if aspect == PORTRAIT:
        return SHORT_SIDE_UNITS, LONG_SIDE_UNITS
    if aspect == SQUARE:
        return SHORT_SIDE_UNITS, SHORT_SIDE_UNITS
    return LONG_SIDE_UNITS, SHORT_SIDE_UNITS


def manim_frame(aspect: str, landscape_width: int, landscape_height: int) -> dict:
    """manim config keys for `aspect`: pixel size and frame units together. Empty for landscape, which is
    manim's own default frame (so a landscape render's config, and its bytes, stay as they were)."""
    check_aspect(aspect)
    if aspect == LANDSCAPE:
        return {}
    width, height = pixel_size(aspect, landscape_width, landscape_height)
    frame_width, frame_height = frame_units(aspect)
    return {"pixel_width": width, "pixel_height": height, "frame_width": frame_width, "frame_height": frame_height}


def check_aspect(aspect: str) -> str:
    if aspect not in ASPECTS:
        raise ValueError(f"unknown aspect {aspect!r}; valid: {', '.join(ASPECTS)}")
    return aspect
