"""Meaning never by colour alone (WCAG 1.4.1): a shape drawn in a colour that means something has a word beside it.

Q, K and V, the heads, and right/wrong each have a colour (scenes.kit.palette), and the palette keeps those colours
apart under colour-vision deficiencies; still, a viewer who cannot tell them apart must not lose the meaning. So at
each beat's end, every shape in view (not a text) stroked or filled in one of those colours must be named by a word
(a text that is not a number: "Q", "head 2", "✗") in view: one within LABEL_REACH of it, or the name of its row; or
lie near a shape of its meaning that is named (an arrow into a labelled box), or on a named grid (a cell's box on
head 2's map). A shape inside a grid counts as the grid (its bracket, its cells), which is what a label names.
"""

from __future__ import annotations

import re

from collections.abc import Sequence

from manim import Mobject, config
from manim.mobject.svg.svg_mobject import VMobjectFromSVGPath

from scenes.kit import palette
from scenes.kit.on_screen import View, screen_box

#: The colours that carry a meaning of their own, and what they mean.
MEANINGS = {palette.QUERY.to_hex(): "Q", palette.KEY.to_hex(): "K", palette.VALUE.to_hex(): "V",
            palette.RIGHT.to_hex(): "right", palette.WRONG.to_hex(): "wrong",
            **{tint.to_hex(): f"head {n}" for n, tint in enumerate(palette.HEAD_TINTS, 1)}}
#: How far (frame units at rest) a word may sit from the shape it names.
LABEL_REACH = 1.2
#: How far along its row a row's name may sit from a shape on that row (a bar beside its word, past the numbers).
ROW_REACH = 3 * LABEL_REACH
#: Drawn: some stroke or fill at least this opaque.
DRAWN = 0.3
_NUMBER = re.compile(r"^[−\-+]?(\d+([.,]\d+)?|∞|inf)$")


def _meaning(part: Mobject) -> str | None:
    stroke = part.get_stroke_opacity() * (part.get_stroke_width() > 0) if hasattr(part, "get_stroke_opacity") else 0
    if stroke >= DRAWN and part.get_stroke_color().to_hex() in MEANINGS:
        return MEANINGS[part.get_stroke_color().to_hex()]
    fill = part.get_fill_opacity() if hasattr(part, "get_fill_opacity") else 0
    if fill >= DRAWN and part.get_fill_color().to_hex() in MEANINGS:
        return MEANINGS[part.get_fill_color().to_hex()]
    return None


def _is_word(unit: Mobject) -> bool:
    """A drawn text that is not a number (a torn formula's glyphs read as the formula they came from)."""
    from scenes.kit.description import unit_text

    if not any(p.get_fill_opacity() >= DRAWN for p in unit.family_members_with_points()):
        return False
    if hasattr(unit, "owner") and unit.owner is None:
        return True  # a formula's glyphs whose text is not known (a copy): letters the viewer reads all the same
    text = unit_text(getattr(unit, "owner", unit)).strip()  # inspection.TornText: the text its glyphs came from
    return bool(text) and not _NUMBER.match(text)


def _gap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """The distance between two boxes (left, right, bottom, top); 0 when they touch or overlap."""
    dx = max(0.0, a[0] - b[1], b[0] - a[1])
    dy = max(0.0, a[2] - b[3], b[2] - a[3])
    return (dx * dx + dy * dy) ** 0.5


def _names(word: tuple[float, float, float, float], box: tuple[float, float, float, float]) -> bool:
    """Whether a word names a shape: within LABEL_REACH of it, or a row's name on the shape's row (its middle within
    the shape's height) at most ROW_REACH away."""
    if _gap(box, word) <= LABEL_REACH:
        return True
    middle = (word[2] + word[3]) / 2
    return box[2] <= middle <= box[3] and _gap(box, word) <= ROW_REACH


def _in_view(box: tuple[float, float, float, float]) -> bool:
    """Whether a screen box shows in the frame (the camera's view): what is out of it is neither seen nor told."""
    half_w, half_h = config.frame_width / 2, config.frame_height / 2
    return box[1] > -half_w and box[0] < half_w and box[3] > -half_h and box[2] < half_h


def _clipped(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """The part of a screen box inside the frame."""
    half_w, half_h = config.frame_width / 2, config.frame_height / 2
    return max(box[0], -half_w), min(box[1], half_w), max(box[2], -half_h), min(box[3], half_h)


def _under_the_band_cover(mobjects: Sequence[Mobject], view: View):
    """A test of (layer, screen box): the shape is drawn before the top band's opaque cover
    (camera_work.cover_top_band) and what of it shows in the frame lies under the cover: hidden, so neither seen
    nor told (a grid passing under the formula band while the camera frames the one below it)."""
    from scenes.kit.camera_work import BandCover

    cover_layer = next((layer for layer, top in enumerate(mobjects) if isinstance(top, BandCover)), None)
    if cover_layer is None:
        return lambda layer, box: False
    cover = screen_box(mobjects[cover_layer], view)
    return lambda layer, box: layer < cover_layer and _inside(_clipped(box), cover, slack=0.01)


def _grids(mobjects: Sequence[Mobject]) -> list[Mobject]:
    """The grids and maps on the stage: a mark drawn on one (a cell's box) is told by the grid's own label."""
    from scenes.kit.attention_map import AttentionMap
    from scenes.kit.widgets import TensorGrid

    return [m for top in mobjects for m in top.get_family() if isinstance(m, (TensorGrid, AttentionMap))]


def _inside(box: tuple[float, float, float, float], outer: tuple[float, float, float, float],
            slack: float = 0.1) -> bool:
    return (box[0] >= outer[0] - slack and box[1] <= outer[1] + slack and box[2] >= outer[2] - slack
            and box[3] <= outer[3] + slack)


def _coloured_pieces(top: Mobject, glyphs: set[int]) -> list[tuple[str, Mobject]]:
    """(meaning, piece) for every drawn shape of `top` in a meaning's colour; a shape inside a grid (a bracket, a
    cell) stands for its grid, which is what a label names ("Q" beside the matrix, not beside its right bracket)."""
    from scenes.kit.widgets import TensorGrid

    found: list[tuple[str, Mobject]] = []

    def visit(mob: Mobject, grid: Mobject | None) -> None:
        if id(mob) in glyphs or type(mob) is VMobjectFromSVGPath:  # a text's glyph, whole or torn
            return
        if isinstance(mob, TensorGrid):
            grid = mob
        if mob.has_points():
            meaning = _meaning(mob)
            if meaning is not None:
                found.append((meaning, grid or mob))
        for sub in mob.submobjects:
            visit(sub, grid)

    visit(top, None)
    return found


def colour_only(mobjects: Sequence[Mobject], units: Sequence[Mobject], view: View) -> list[str]:
    """One line per meaning whose colour is, somewhere on screen, the only thing that tells it. `units`: the texts
    on screen (inspection.text_units, torn formulas included)."""
    glyphs = {id(part) for unit in units for part in unit.get_family()}
    words = [screen_box(unit, view) for unit in units if _is_word(unit)]
    words = [box for box in words if _in_view(box)]
    hidden = _under_the_band_cover(mobjects, view)
    pieces = {id(piece): (meaning, piece, screen_box(piece, view), layer)
              for layer, top in enumerate(mobjects) for meaning, piece in _coloured_pieces(top, glyphs)}
    pieces = {key: (meaning, piece, box) for key, (meaning, piece, box, layer) in pieces.items()
              if _in_view(box) and not hidden(layer, box)}
    named_grids = [box for box in (screen_box(grid, view) for grid in _grids(mobjects))
                   if _in_view(box) and any(_gap(box, word) <= LABEL_REACH for word in words)]
    labelled = {key for key, (_, _, box) in pieces.items()
                if any(_names(word, box) for word in words) or any(_inside(box, g) for g in named_grids)}
    grew = True
    while grew:  # a piece beside a labelled piece of its meaning is told by it (an arrow into a labelled box)
        grew = False
        for key, (meaning, _, box) in pieces.items():
            if key not in labelled and any(pieces[other][0] == meaning and _gap(box, pieces[other][2]) <= LABEL_REACH
                                           for other in labelled):
                labelled.add(key)
                grew = True
    unlabelled: dict[str, set[int]] = {}
    for key, (meaning, _, _) in pieces.items():
        if key not in labelled:
            unlabelled.setdefault(meaning, set()).add(key)
    return [f"{len(pieces)} piece(s) in the colour of {meaning} with no word within {LABEL_REACH} units"
            for meaning, pieces in unlabelled.items()]


__all__ = ["colour_only", "MEANINGS", "LABEL_REACH"]
