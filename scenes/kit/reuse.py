"""A grid or map built again with the same arguments is copied from the first build, not built anew.

The layout engine builds a beat's content in every form it may take (scenes.kit.compose), and the forms of one
beat, and the beats of one clip, hold many of the same pieces: causal_triangle's stages build 52 attention maps of
which 24 differ, head_split's forms 234 grids of which 96 differ. Building a grid typesets, places and shades every
cell; a copy of the finished grid (Mobject.copy, a deep copy) is the same mobject at a fraction of the cost.

`Reused` is the metaclass of such a piece (TensorGrid, AttentionMap): calling the class looks up its arguments. The
key holds only plain values (strings, numbers, booleans, None, colours, lists or tuples of them) and a `Source` by
identity (the very object, kept alive with the entry, so a new example or a new scene never meets an old build),
plus the frame's size and whether numbers are stand-ins (`scenes.kit.sketch`); a call with any other argument is
built as before. The first build is kept as a copy made at once (what the caller then does to its own piece never
reaches the kept one), and every later call gets a fresh copy of it. Only the last few builds are kept (MAX_KEPT, a
`kept.Kept`): repeats come within a beat or the next. A kept entry holds its sources, so no later object can take
one of their ids while the entry lasts: a key that matches names the very same sources.
"""

from __future__ import annotations

from typing import Any

from manim import ManimColor, VGroup, config

from . import sketch
from .kept import Kept
from .numbers import Source

#: How many different builds are kept (the most recent): a beat's forms and its neighbours' repeat within these.
MAX_KEPT = 48

#: key -> (the sources it names, kept alive with the entry; the first build's copy)
_KEPT: Kept[tuple[tuple[Source, ...], Any]] = Kept(MAX_KEPT)


class _Unkeyable(Exception):
    """An argument that is no plain value: the call is built as before."""


def _part(value: Any, sources: list[Source]) -> Any:
    if value is None or isinstance(value, (str, bool, int, float)):
        return type(value).__name__, value
    if isinstance(value, ManimColor):
        return "colour", tuple(float(x) for x in value._internal_value)
    if isinstance(value, (list, tuple)):
        return type(value).__name__, tuple(_part(item, sources) for item in value)
    if isinstance(value, Source):
        sources.append(value)
        return "source", id(value)
    raise _Unkeyable


def key_of(cls: type, args: tuple, kwargs: dict) -> tuple[tuple, tuple[Source, ...]] | None:
    """The call's key and the sources it names, or None when an argument is no plain value."""
    sources: list[Source] = []
    try:
        key = (cls, tuple(_part(arg, sources) for arg in args),
               tuple(sorted((name, _part(value, sources)) for name, value in kwargs.items())),
               (config.frame_width, config.frame_height, config.pixel_width, config.pixel_height), sketch.active())
    except _Unkeyable:
        return None
    return key, tuple(sources)


class Reused(type(VGroup)):
    """The metaclass of a piece built once per set of arguments and copied after (see the module's docstring)."""

    def __call__(cls, *args, **kwargs):
        keyed = key_of(cls, args, kwargs)
        if keyed is None:
            return super().__call__(*args, **kwargs)
        key, sources = keyed
        fresh: list[Any] = []

        def build() -> tuple[tuple[Source, ...], Any]:
            fresh.append(super(Reused, cls).__call__(*args, **kwargs))
            return sources, fresh[0].copy()

        kept = _KEPT.get(key, build)
        return fresh[0] if fresh else kept[1].copy()


def forget() -> None:
    """Drop every kept build (a headless run starts with none, as a render's process does)."""
    _KEPT.clear()


__all__ = ["Reused", "forget", "key_of", "MAX_KEPT"]
