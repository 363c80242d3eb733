"""The forms a kind of content can take, in the order the layout engine (scenes.kit.compose) tries them.

A scene gives the build of its content, parameterised by the arrangement; these generators say which
arrangements exist and in which order they are preferred for the region at hand, so no scene lists them itself.

    flow_forms(build)            build(stacked): side by side and stacked, the region's own flow first
    lines_forms(build, count)    build(lines): a row of items in one line, then two, ... up to `count`
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


__all__ = ["flow_forms", "lines_forms"]
