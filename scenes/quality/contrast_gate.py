"""Contrast measured on screen (WCAG 1.4.3 and 1.4.11): every text against what is actually drawn behind it.

The palette's pairs are checked once (tests/test_palette_access.py); what a viewer sees also depends on what a text
ends up on: a digit on its cell's shade, a label on a box, a dimmed formula term on the background. At each beat's
end (the picture the viewer settles on, in each frame shape) this module takes every text in view, reads its own
colour from the mobject (its fill, at its opacity) and the colour behind it from the rendered frame (the most common
colour in its box, where the glyphs' ink is the smaller part), and computes the WCAG ratio. Text below 4.5:1 fails.

Graphics that carry meaning (a cell's shade standing for a masked or a weighted position, a bar, an arrow) are held
to 3:1 against the background the same way: their fill colour against the colour around them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np
from manim import Arrow, Mobject, Rectangle, config

from scenes.kit import contrast, palette
from scenes.kit.on_screen import View, screen_box
from scenes.kit.widgets import SoftmaxBars

#: Colours are counted in steps of this many levels (of 255) per channel, so anti-aliasing and shade noise fall
#: into the background's bin.
QUANTUM = 8

#: How far (levels of 255, per channel) a pixel may be from the colour a graphic is held against and still be it.
#: Frames are rendered, not compressed, so the background is exact; a map's grid line 8 levels lighter is not the
#: background (a masked cell inside a map, ringed by such lines, read as 2.99:1 against them).
AGAINST_TOLERANCE = QUANTUM // 2

#: Texts fainter than this are on their way in or out (a fade), or hidden on purpose; they are not read.
READ_OPACITY = 0.5


def ink(unit: Mobject) -> tuple[str, float] | None:
    """The colour and opacity a text is drawn in (its first drawn glyph's fill); None when nothing is drawn."""
    for part in unit.family_members_with_points():
        opacity = float(part.get_fill_opacity())
        if opacity > 0:
            return part.get_fill_color().to_hex(), opacity
    return None


def _pixel_box(box: tuple[float, float, float, float], shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """A box in the frame-at-rest's coordinates as pixel rows and columns of a frame of `shape` (clipped)."""
    height, width = shape[:2]
    left, right, bottom, top = box
    to_col = lambda x: (x / config.frame_width + 0.5) * width  # noqa: E731
    to_row = lambda y: (0.5 - y / config.frame_height) * height  # noqa: E731
    c0, c1 = int(np.clip(np.floor(to_col(left)), 0, width)), int(np.clip(np.ceil(to_col(right)), 0, width))
    r0, r1 = int(np.clip(np.floor(to_row(top)), 0, height)), int(np.clip(np.ceil(to_row(bottom)), 0, height))
    return r0, r1, c0, c1


def behind(frame: np.ndarray, box: tuple[float, float, float, float], ink_colour: str, margin: int = 3) -> str | None:
    """The colour (hex) a text of `ink_colour` is drawn on: the most common colour in its box, `margin` pixels
    wider each side, that is not its own ink (within a quantum per channel). A text whose box is nearly all its
    own colour is drawn on its own colour (it cannot be read)."""
    r0, r1, c0, c1 = _pixel_box(box, frame.shape)
    r0, c0 = max(r0 - margin, 0), max(c0 - margin, 0)
    r1, c1 = min(r1 + margin, frame.shape[0]), min(c1 + margin, frame.shape[1])
    patch = frame[r0:r1, c0:c1, :3].reshape(-1, 3).astype(int)
    if len(patch) == 0:
        return None
    own = np.array([int(ink_colour[i:i + 2], 16) for i in (1, 3, 5)])
    other = patch[np.abs(patch - own).max(axis=1) > QUANTUM]
    if len(other) < 0.1 * len(patch):
        return ink_colour
    return commonest_colour(other)


def commonest_colour(pixels: np.ndarray) -> str:
    """The mean (hex) of the pixels in the commonest bin a QUANTUM wide per channel: anti-aliasing and shade noise
    fall into the bin of the colour they blur."""
    bins = Counter(map(tuple, (pixels // QUANTUM).tolist()))
    (mode, _), = bins.most_common(1)
    members = pixels[np.all(pixels // QUANTUM == np.array(mode), axis=1)]
    r, g, b = (int(v) for v in members.mean(axis=0).round())
    return f"#{r:02X}{g:02X}{b:02X}"


def text_contrast(frame: np.ndarray, shown: Iterable[tuple[Mobject, tuple[float, float, float, float]]]
                  ) -> list[tuple[Mobject, float, str, str]]:
    """(text, ratio, its colour as seen, the colour behind it) for every text in view that is read (drawn at
    READ_OPACITY or more), measured on `frame`."""
    measured = []
    for unit, box in shown:
        drawn = ink(unit)
        if drawn is None or drawn[1] < READ_OPACITY:
            continue
        under = behind(frame, box, contrast.blend(drawn[0], drawn[1], "#000000").to_hex()
                       if drawn[1] < 1 else drawn[0])
        if under is None:
            continue
        seen = contrast.blend(drawn[0], drawn[1], under).to_hex()
        measured.append((unit, contrast.ratio(seen, under), seen, under))
    return measured


def text_problems(measured: Sequence[tuple[Mobject, float, str, str]], describe) -> list[str]:
    """One line for every text below the text minimum: what it is, its ratio, its colour and the one behind."""
    return [f"text contrast {value:.2f}:1 < {contrast.TEXT_MINIMUM}:1: {describe(unit)} ({seen} on {under})"
            for unit, value, seen, under in measured if value < contrast.TEXT_MINIMUM - 1e-9]


def meaningful_graphics(mobjects: Iterable[Mobject]) -> list[tuple[Mobject, str, float, str | None]]:
    """The graphics that carry meaning among `mobjects`' families, with the colour and opacity they are drawn in
    and what they are held against (None: whatever surrounds them most): arrows (one stage of the computation to
    the next), softmax bars (a weight's size), masked cells (the future a query may not see). A masked cell is held
    against the background where the mask meets it: inside a map it is told from a weighted cell by its mark or
    digits and the grid's lines, and a block of masked cells is one shape."""
    found: list[tuple[Mobject, str, float, str | None]] = []
    seen: set[int] = set()
    for root in mobjects:
        for mob in root.get_family():
            if id(mob) in seen:
                continue
            seen.add(id(mob))
            if isinstance(mob, Arrow) and mob.get_stroke_opacity() > 0:
                found.append((mob, mob.get_stroke_color().to_hex(), float(mob.get_stroke_opacity()), None))
            elif isinstance(mob, SoftmaxBars):
                found.extend((bar, bar.get_fill_color().to_hex(), float(bar.get_fill_opacity()), None)
                             for bar in mob.bars if bar.get_fill_opacity() > 0)
                seen.update(id(bar) for bar in mob.bars)
            elif (isinstance(mob, Rectangle) and mob.get_fill_opacity() > 0.5
                  and mob.get_fill_color().to_hex().upper() == palette.MASKED.to_hex().upper()):
                found.append((mob, palette.MASKED.to_hex(), float(mob.get_fill_opacity()),
                              palette.BACKGROUND.to_hex()))
    return found


def graphic_contrast(frame: np.ndarray, view: View, graphics: Iterable[tuple[Mobject, str, float, str | None]],
                     margin: int = 3) -> list[tuple[Mobject, float, str, str]]:
    """(graphic, ratio, its colour as seen, the colour around it) for each of `graphics` in view and read (drawn
    at READ_OPACITY or more; given with its colour, opacity and what it is held against): against the commonest
    colour in a ring `margin` pixels wide just outside its box (of that colour only, where one is given)."""
    measured = []
    for mob, colour, opacity, against in graphics:
        if opacity < READ_OPACITY:
            continue  # faded on purpose (the part of the story set aside), as a faded text is not read
        r0, r1, c0, c1 = _pixel_box(screen_box(mob, view), frame.shape)
        if r1 <= r0 or c1 <= c0:
            continue  # out of view
        under = colour_around(frame, (r0, r1, c0, c1), against, margin)
        if under is None:
            continue
        seen = contrast.blend(colour, min(opacity, 1.0), under).to_hex()
        measured.append((mob, contrast.ratio(seen, under), seen, under))
    return measured


def colour_around(frame: np.ndarray, pixels: tuple[int, int, int, int], against: str | None = None,
                  margin: int = 3) -> str | None:
    """The commonest colour in a ring `margin` pixels wide just outside the pixel box (rows r0:r1, columns c0:c1);
    where `against` is given, only where the ring is that colour (None when it meets it nowhere)."""
    r0, r1, c0, c1 = pixels
    outer = np.zeros(frame.shape[:2], dtype=bool)
    outer[max(r0 - margin, 0):r1 + margin, max(c0 - margin, 0):c1 + margin] = True
    outer[r0:r1, c0:c1] = False
    around = frame[..., :3][outer].astype(int)
    if against is not None:  # only where it meets that colour: a grid line or an edge's anti-aliasing a few
        near = np.array([int(against[i:i + 2], 16) for i in (1, 3, 5)])  # levels lighter is not it
        around = around[np.abs(around - near).max(axis=1) <= AGAINST_TOLERANCE]
    return commonest_colour(around) if len(around) else None


def graphic_problems(measured: Sequence[tuple[Mobject, float, str, str]]) -> list[str]:
    """One line for every graphic that carries meaning below 3:1 against what is around it."""
    return [f"graphic contrast {value:.2f}:1 < {contrast.GRAPHIC_MINIMUM}:1: {type(mob).__name__} ({seen} on {under})"
            for mob, value, seen, under in measured if value < contrast.GRAPHIC_MINIMUM - 1e-9]


def _inside(shape: tuple[int, ...], r0: int, r1: int, c0: int, c1: int) -> np.ndarray:
    mask = np.zeros(shape[:2], dtype=bool)
    mask[r0:r1, c0:c1] = True
    return mask


__all__ = ["QUANTUM", "READ_OPACITY", "ink", "behind", "colour_around", "text_contrast", "text_problems", "meaningful_graphics",
           "graphic_contrast", "graphic_problems"]
