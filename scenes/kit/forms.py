"""The forms a kind of content can take, in the order the layout engine (scenes.kit.compose) tries them.

A scene gives the build of its content, parameterised by the arrangement; these generators say which
arrangements exist and in which order they are preferred for the region at hand, so no scene lists them itself.

    flow_forms(build)            build(stacked): side by side and stacked, the region's own flow first
    lines_forms(build, count)    build(lines): a row of items in one line, then two, ... up to `count`
    row_height_forms(build)      build(cell): the same grids with their rows at each of the kit's row heights
    each_row_height(forms_of)    forms_of(cell): another generator's forms at each row height, roomiest first
    map_style_forms(build)       build(style): an attention map in each of the kit's arrangements, roomiest first
    sized_forms(build)           build(cell): grids at each row height the kit's grids take, roomiest first
    sized_flow_forms(build)      build(stacked, cell): side by side and stacked (the region's flow first), at each
                                 row height, roomiest first
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from manim import Mobject

from . import layout, legible
from .compose import Form


def _itself(built: Any) -> Mobject:
    return built


def flow_forms(build: Callable[[bool], Any], region: layout.Region | None = None, *,
               whole: Callable[[Any], Mobject] = _itself, suffix: str = "", close_up: bool = False) -> list[Form]:
    """Side by side and stacked (`build(stacked)`), in `region`'s flow direction first (default the body): a
    portrait body tries the stacked form first, a landscape one the side-by-side form. `close_up`: forms made
    for the camera only (compose.Form.close_up)."""
    tall = layout.is_tall(region)
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


def row_height_forms(build: Callable[[float], Any], *, whole: Callable[[Any], Mobject] = _itself,
                     name: str = "", region: layout.Region | None = None, close_up: bool = False) -> list[Form]:
    """The same content with its rows at each of the kit's row heights, roomiest first (`build(cell)`): square
    rows, compact ones, then rows padded by a hairline only. `name` prefixes each form's name."""
    return [Form(f"{name}rows {cell:.2f} tall", lambda cell=cell: build(cell), whole, region, close_up)
            for cell in legible.row_heights()]


def each_row_height(forms_of: Callable[[float], list[Form]]) -> list[Form]:
    """`forms_of(cell)` (another generator's forms, built with rows `cell` tall) for each of the kit's row
    heights, roomiest first, one after the other."""
    return [form for cell in legible.row_heights() for form in forms_of(cell)]


def map_style_forms(build: Callable[[dict], Any], *, whole: Callable[[Any], Mobject] = _itself,
                    name: str = "", region: layout.Region | None = None) -> list[Form]:
    """An attention map (with whatever shares its rows) in each of the kit's arrangements, roomiest first
    (`build(style)`, the style's keywords go to AttentionMap): square rows, compact rows, then upright key words;
    each form fitted to `region` (default compose's)."""
    return [Form(f"{name}map style {i}", lambda style=style: build(style), whole, region)
            for i, style in enumerate(legible.map_styles())]


def sized_forms(build: Callable[[float], Any], *, whole: Callable[[Any], Mobject] = _itself,
                region: layout.Region | None = None, suffix: str = "") -> list[Form]:
    """The content at each row height the kit's grids take (`build(cell)`), roomiest first: square rows, compact
    rows (one line of text), rows padded by a hairline only; each form fitted to `region` (default compose's)."""
    from .legible import row_heights

    names = ("square rows", "compact rows", "hairline rows")
    return [Form(name + suffix, lambda cell=cell: build(cell), whole, region)
            for name, cell in zip(names, row_heights())]


def sized_flow_forms(build: Callable[[bool, float], Any], region: layout.Region | None = None, *,
                     whole: Callable[[Any], Mobject] = _itself, suffix: str = "") -> list[Form]:
    """`build(stacked, cell)` side by side and stacked (the region's own flow first, as flow_forms) at each row
    height, roomiest first (as sized_forms): every arrangement at square rows before any at compact rows."""
    from .legible import row_heights

    names = ("square rows", "compact rows", "hairline rows")
    return [form for name, cell in zip(names, row_heights())
            for form in flow_forms(lambda stacked, cell=cell: build(stacked, cell), region, whole=whole,
                                   suffix=f", {name}{suffix}")]


__all__ = ["flow_forms", "lines_forms", "row_height_forms", "each_row_height", "map_style_forms", "sized_forms",
           "sized_flow_forms"]
