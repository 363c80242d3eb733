"""The frame's shape: landscape (16:9), portrait (9:16) or square (1:1), as pixels and as scene units.

One rule for the render worker (through rendering/qualities.py) and for headless runs, so a clip and its
inspection see the same frame. The frame is always 8 scene units *tall*, as landscape's is today, and as wide as
the aspect makes it (portrait 4.5 × 8, square 8 × 8). The height and not the short side, because a portrait clip
is read on a phone held upright, shown 390 CSS px wide: across 4.5 units the type scale's floor
(typography.MIN_FONT_SIZE, 26) sets a digit about 18 CSS px tall; across 8 units (the short side kept) it would
be 10 CSS px, under the issue's 12 px for numbers (scenes.kit.phone measures these figures on the kit's font).
Setting only the pixel size would keep manim's 14.22 × 8 field and squash the content (ManimCommunity/manim#3604).
Beside the registry, not in scenes/kit/ (whose package imports manim): render.py checks an --aspect and hashes a
clip's inputs without loading manim, and the kit (headless runs, layout) imports it as the renderer does.
"""

from __future__ import annotations

LANDSCAPE, PORTRAIT, SQUARE = "landscape", "portrait", "square"
ASPECTS: tuple[str, ...] = (LANDSCAPE, PORTRAIT, SQUARE)
DEFAULT_ASPECT = LANDSCAPE

FRAME_HEIGHT_UNITS = 8.0  #: scene units from the frame's bottom to its top, whatever the aspect (manim's default)
#: width over height of each aspect's frame (landscape's 16/9 gives manim's default frame_width, 14.22)
SHAPES: dict[str, float] = {LANDSCAPE: 16 / 9, PORTRAIT: 9 / 16, SQUARE: 1.0}


def pixel_size(aspect: str, landscape_width: int, landscape_height: int) -> tuple[int, int]:
    """(width, height) in pixels of `aspect` at the quality whose landscape frame is the given size."""
    check_aspect(aspect)
    if aspect == PORTRAIT:
        return landscape_height, landscape_width
    if aspect == SQUARE:
        return landscape_height, landscape_height
    return landscape_width, landscape_height


def frame_units(aspect: str) -> tuple[float, float]:
    """(frame_width, frame_height) in scene units: 8 tall, as wide as the aspect's shape (14.22, 4.5, 8)."""
    check_aspect(aspect)
    return FRAME_HEIGHT_UNITS * SHAPES[aspect], FRAME_HEIGHT_UNITS


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
