"""The forms a kind of content can take, in the order the layout engine (scenes.kit.compose) tries them.

A scene gives the build of its content, parameterised by the arrangement; these generators say which
arrangements exist and in which order they are preferred for the region at hand, so no scene lists them itself.

    flow_forms(build)            build(stacked): side by side and stacked, the region's own flow first
    lines_forms(build, count)    build(lines): a row of items in one line, then two, ... up to `count`
    row_height_forms(build)      build(cell): the same grids with their rows at each of the kit's row heights,
                                 roomiest first
    flow_forms_by_row_height(build)
                                 build(stacked, cell): side by side and stacked (the region's flow first), at each
                                 row height, roomiest first
    map_style_forms(build)       build(style): an attention map in each of the kit's arrangements, roomiest first
    floor_scale(mob)             how far a form set at the floor's size (in lines, say) scales its content
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from manim import RIGHT, Mobject, VGroup

from . import shot_content, layout, legible_fit, typography
from .compose import Form


def _itself(built: Any) -> Mobject:
    return built


def flow_forms(build: Callable[[bool], Any], region: layout.Region | None = None, *,
               whole: Callable[[Any], Mobject] = _itself, suffix: str = "", close_up: bool = False,
               wide_from: float | None = None) -> list[Form]:
    """Side by side and stacked (`build(stacked)`), in `region`'s flow direction first (default the body): a
    portrait body tries the stacked form first, a landscape one the side-by-side form. `close_up`: forms made
    for the camera only (compose.Form.close_up). `wide_from`: the region flows side by side only from this width
    over height on (default: wider than tall), for content whose side-by-side form needs more width than height
    (a square body then tries the stacked form first)."""
    area = region or layout.body()
    tall = layout.is_tall(region) if wide_from is None else area.width < area.height * wide_from
    order = (True, False) if tall else (False, True)
    return [Form(("stacked" if stacked else "side by side") + suffix, lambda stacked=stacked: build(stacked), whole,
                 close_up=close_up)
            for stacked in order]


def lines_forms(build: Callable[[int], Any], count: int, *, whole: Callable[[Any], Mobject] = _itself,
                region: layout.Region | None = None) -> list[Form]:
    """A row of `count` items in one line, then in two, ... (`build(lines)`), each form fitted to `region`
    (default compose's own)."""
    return [Form(f"in {lines} line(s)", lambda lines=lines: build(lines), whole, region)
            for lines in range(1, max(count, 1) + 1)]


#: What the kit's row heights (legible_fit.row_heights(), roomiest first) are called in a form's name.
ROW_NAMES = ("square rows", "compact rows", "hairline rows")


def row_height_forms(build: Callable[[float], Any], *, whole: Callable[[Any], Mobject] = _itself,
                     name: str = "", suffix: str = "", region: layout.Region | None = None,
                     close_up: bool = False) -> list[Form]:
    """The same content with its rows at each of the kit's row heights, roomiest first (`build(cell)`): square
    rows, compact ones (one line of text), then rows padded by a hairline only. The form's name is `name`, the
    row height's, then `suffix`; each form fitted to `region` (default compose's)."""
    return [Form(f"{name}{rows}{suffix}", lambda cell=cell: build(cell), whole, region, close_up)
            for rows, cell in zip(ROW_NAMES, legible_fit.row_heights())]


def flow_forms_by_row_height(build: Callable[[bool, float], Any], region: layout.Region | None = None, *,
                             whole: Callable[[Any], Mobject] = _itself, suffix: str = "") -> list[Form]:
    """`build(stacked, cell)` side by side and stacked (the region's own flow first, as flow_forms) at each row
    height, roomiest first (as row_height_forms): every arrangement at square rows before any at compact rows."""
    return [form for rows, cell in zip(ROW_NAMES, legible_fit.row_heights())
            for form in flow_forms(lambda stacked, cell=cell: build(stacked, cell), region, whole=whole,
                                   suffix=f", {rows}{suffix}")]


def map_style_forms(build: Callable[[dict], Any], *, whole: Callable[[Any], Mobject] = _itself,
                    name: str = "", region: layout.Region | None = None) -> list[Form]:
    """An attention map (with whatever shares its rows) in each of the kit's arrangements, roomiest first
    (`build(style)`, the style's keywords go to AttentionMap): square rows, compact rows, then upright key words;
    each form fitted to `region` (default compose's); the last (numbers closer) is a last resort before the
    camera."""
    return [Form(f"{name}map style {i}", lambda style=style: build(style), whole, region,
                 camera=not packed, last_resort=packed)
            for i, (style, packed) in enumerate(legible_fit.map_styles_marked())]


def line_forms(text: str, width: float, *, after: Callable[[], Mobject] | None = None, **style) -> list[Form]:
    """A line of text (a title, a note; `style` goes to `label`) on one line, else its words wrapped onto lines no
    wider than `width` (a phone, a longer language), only where one line would fall below the floor. `after()`
    builds what stands right of the text (a traced number), the last part of the built group."""
    from .text import label, wrapped

    def build(wrap: bool) -> Mobject:
        tail = after() if after is not None else None
        room = width - (tail.width + layout.NEAR if tail is not None else 0.0)
        words = wrapped(text, room, **style) if wrap else label(text, **style)
        return words if tail is None else VGroup(words, tail).arrange(RIGHT, buff=layout.NEAR)

    return [Form("one line", lambda: build(False), grow=False),
            Form("wrapped", lambda: build(True), grow=False, last_resort=True, camera=False)]


#: The factor that sets a mobject's smallest text at the floor (shot_content.floor_scale, what the camera's rung
#: builds at): a form laid out at the floor's size (a row broken into lines as wide as the region holds at that size)
#: scales its content by it.
floor_scale = shot_content.floor_scale


__all__ = ["flow_forms", "lines_forms", "ROW_NAMES", "row_height_forms", "flow_forms_by_row_height",
           "map_style_forms", "line_forms", "floor_scale"]
