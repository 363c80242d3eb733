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

A sketch (a build while compose weighs a form, `scenes.kit.sketch`) is kept apart, and from one headless run to the
next (`forget` leaves it): a sketch is measured, never drawn, and what compose measures (sizes, texts' sizes, where
parts sit) does not depend on the frame, only the pixel width of a rule does. So a sketch's key leaves the frame out
and names a source by what it reads (its example's name and data, the data kept alive with the entry), and holds the
language (a French word is wider): the runs of one scene and example in each frame weigh the same forms, and the
second and third frame copy the first's sketches (head_split, twelve tokens: 344 sketches a run, 193 different; the
square and portrait runs built none). Real builds, which are drawn, stay within their run and frame.
"""

from __future__ import annotations

from typing import Any

from manim import ManimColor, VGroup, config

from . import sketch
from .kept import Kept
from .numbers import Source
from .translation import active_language

#: How many different builds are kept (the most recent): a beat's forms and its neighbours' repeat within these.
MAX_KEPT = 48

#: How many different sketches are kept (the most recent), over the runs of a process: one scene and example's
#: forms in every frame (a few hundred for the largest).
MAX_SKETCHES = 512

#: key -> (the sources it names, kept alive with the entry; the first build's copy)
_KEPT: Kept[tuple[tuple[Source, ...], Any]] = Kept(MAX_KEPT)
#: the same for sketches, kept from one run to the next (see the module's docstring)
_SKETCHES: Kept[tuple[tuple[Source, ...], Any]] = Kept(MAX_SKETCHES)


class _Unkeyable(Exception):
    """An argument that is no plain value: the call is built as before."""


def _part(value: Any, sources: list[Source], by_content: bool) -> Any:
    if value is None or isinstance(value, (str, bool, int, float)):
        return type(value).__name__, value
    if isinstance(value, ManimColor):
        return "colour", tuple(float(x) for x in value._internal_value)
    if isinstance(value, (list, tuple)):
        return type(value).__name__, tuple(_part(item, sources, by_content) for item in value)
    if isinstance(value, Source):
        sources.append(value)
        return ("source", value.name, id(value.data)) if by_content else ("source", id(value))
    raise _Unkeyable


def key_of(cls: type, args: tuple, kwargs: dict) -> tuple[tuple, tuple[Source, ...]] | None:
    """The call's key and the sources it names, or None when an argument is no plain value. A real build's key
    holds the frame's size and each source itself; a sketch's the language and what each source reads."""
    sources: list[Source] = []
    sketching = sketch.active()
    setting = (("language", active_language()) if sketching else
               (config.frame_width, config.frame_height, config.pixel_width, config.pixel_height))
    try:
        key = (cls, tuple(_part(arg, sources, sketching) for arg in args),
               tuple(sorted((name, _part(value, sources, sketching)) for name, value in kwargs.items())),
               setting, sketching)
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

        kept = (_SKETCHES if key[-1] else _KEPT).get(key, build)
        return fresh[0] if fresh else kept[1].copy()


def forget() -> None:
    """Drop every kept build (a headless run starts with none, as a render's process does); the sketches stay (see
    the module's docstring)."""
    _KEPT.clear()


def forget_sketches() -> None:
    """Drop the kept sketches too."""
    _SKETCHES.clear()


__all__ = ["Reused", "forget", "forget_sketches", "key_of", "MAX_KEPT", "MAX_SKETCHES"]
