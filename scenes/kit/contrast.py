"""Contrast as WCAG 2.2 measures it, and the digit colour a shaded cell needs to stay readable.

A cell's shade shows its value (3Blue1Brown's heat maps); its digits must still read on it: WCAG 1.4.3 asks 4.5:1
for text, 1.4.11 asks 3:1 for the graphics that carry meaning (a masked cell against the background). The formula
is WCAG's own (relative luminance of linearised sRGB); a shade drawn with some opacity is first blended over what
is behind it.
"""

from __future__ import annotations

from collections.abc import Iterable

from manim import ManimColor

#: WCAG 2.2 minimum contrast for text (1.4.3, AA) and for graphics that carry meaning (1.4.11).
TEXT_MINIMUM = 4.5
GRAPHIC_MINIMUM = 3.0


def _channel(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(color) -> float:
    """WCAG relative luminance of an sRGB colour (0 black … 1 white)."""
    r, g, b = ManimColor(color).to_rgb()[:3]
    return 0.2126 * _channel(r) + 0.7152 * _channel(g) + 0.0722 * _channel(b)


def ratio(foreground, background) -> float:
    """WCAG contrast ratio of two colours, 1:1 … 21:1 (order does not matter)."""
    high, low = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def blend(color, opacity: float, under) -> ManimColor:
    """`color` drawn at `opacity` over `under`: the colour the eye sees."""
    top, bottom = ManimColor(color).to_rgb()[:3], ManimColor(under).to_rgb()[:3]
    return ManimColor([opacity * t + (1 - opacity) * b for t, b in zip(top, bottom)])


#: The last resort for digits on a mid-luminance shade, where neither the palette's light text nor its dark
#: background reaches 4.5:1 (a shade of relative luminance 0.15–0.20): pure white, or pure black, always does.
LAST_RESORT = ("#FFFFFF", "#000000")


#: What a colour chosen to read must clear beyond the minimum: the frame is drawn in 8-bit sRGB, so the shade a
#: viewer sees is the chosen one rounded (about ±0.02 of the ratio); the gate measures what is drawn.
RENDERING_MARGIN = 0.1


def readable_on(shade, candidates: Iterable) -> ManimColor:
    """The first of `candidates` (the role's own colour first), then of pure white and black, that reads on
    `shade` at the text minimum (and the rendering margin), else the one with the most contrast there."""
    colours = [ManimColor(c) for c in (*candidates, *LAST_RESORT)]
    for colour in colours:
        if ratio(colour, shade) >= TEXT_MINIMUM + RENDERING_MARGIN:
            return colour
    return max(colours, key=lambda colour: ratio(colour, shade))


__all__ = ["TEXT_MINIMUM", "GRAPHIC_MINIMUM", "RENDERING_MARGIN", "luminance", "ratio", "blend", "readable_on"]
