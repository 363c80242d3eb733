"""The forms a kind of content can take, in the order the layout engine (scenes.kit.compose) tries them.

A scene gives the build of its content, parameterised by the arrangement; these generators say which
arrangements exist and in which order they are preferred for the region at hand, so no scene lists them itself.

    flow_forms(build)            build(stacked): side by side and stacked, the region's own flow first
    lines_forms(build, count)    build(lines): a row of items in one line, then two, ... up to `count`
    sized_forms(build)           build(cell): grids at each row height the kit's grids take, roomiest first
    sized_flow_forms(build)      build(stacked, cell): side by side and stacked (the region's flow first), at each
                                 row height, roomiest first
    map_style_forms(build)       build(style): an attention map's arrangements (square rows ... upright key words)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from manim import Mobject

from . import layout
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


def map_style_forms(build: Callable[[dict], Any], *, whole: Callable[[Any], Mobject] = _itself,
                    region: layout.Region | None = None) -> list[Form]:
    """An attention map's arrangements (`build(style)`, style: AttentionMap keywords), roomiest first: square
    rows, compact rows, then upright key words over compact, then over hairline rows."""
    from .legible import map_styles

    names = ("square rows", "compact rows", "upright keys, compact rows", "upright keys, hairline rows")
    return [Form(name, lambda style=style: build(style), whole, region) for name, style in zip(names, map_styles())]


__all__ = ["flow_forms", "lines_forms", "sized_forms", "sized_flow_forms", "map_style_forms"]
