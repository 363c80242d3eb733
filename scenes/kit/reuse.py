"""A grid or map built again with the same arguments is copied from the first build, not built anew.

The layout engine builds a beat's content in every form it may take (scenes.kit.compose), and the forms of one
beat, and the beats of one clip, hold many of the same pieces: causal_triangle's stages build 52 attention maps of
which 24 differ, head_split's forms 234 grids of which 96 differ. Building a grid typesets, places and shades every
cell; a copy of the finished grid (Mobject.copy, a deep copy) is the same mobject at a fraction of the cost.

`Reused` is the metaclass of such a piece (TensorGrid, AttentionMap): calling the class looks up its arguments. The
key holds only plain values (strings, numbers, booleans, None, colours, lists or tuples of them) and a `Source` by
what it reads (its example's name and data: the data kept alive with the entry, so no later example's data can
take its id while the entry lasts), the language (a French word is wider) and whether numbers are stand-ins
(`scenes.kit.sketch`); a call with any other argument is built as before. The first build is kept as a copy made
at once (what the caller then does to its own piece never reaches the kept one), and every later call gets a fresh
copy of it. Only the most recent builds are kept (a `kept.Kept` each for real builds and for sketches).

The frame is not in the key: a piece's points, colours and stroke widths are the same in every frame, except a
text's rule (a fraction's bar), whose stroke width manim sets in the frame's pixels. A build found to hold one is
kept per frame. So the builds of one run serve the next run of the same scene and example in another frame (the
edge gates run a scene's three frames one after another in one worker): head_split on the twelve-token example
builds 344 sketches and 78 grids and maps a run; after the portrait run, the square run copies every sketch and 64
of the 78 real builds from it. A copy is the build point for point (tests/test_kit_reuse.py), so a run gives the
same picture whichever ran before it.
"""

from __future__ import annotations

from typing import Any

from manim import ManimColor, VGroup, config

from . import sketch
from .kept import Kept, KeptAcrossFrames
from .numbers import Source
from .text import holds_a_rule
from .translation import active_language

#: How many different real builds are kept (the most recent): one run's grids and maps (78 in head_split's largest
#: run), so the next frame's run finds them.
MAX_KEPT = 192

#: How many different sketches are kept (the most recent): one run's (193 in head_split's largest run).
MAX_SKETCHES = 512

#: key -> (the sources it names, kept alive with the entry; the first build's copy)
_KEPT: KeptAcrossFrames[tuple[tuple[Source, ...], Any]] = KeptAcrossFrames(MAX_KEPT)
#: sketches are measured, never drawn: one serves every frame
_SKETCHES: Kept[tuple[tuple[Source, ...], Any]] = Kept(MAX_SKETCHES)


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
        return "source", value.name, id(value.data)
    raise _Unkeyable


def key_of(cls: type, args: tuple, kwargs: dict) -> tuple[tuple, tuple[Source, ...]] | None:
    """The call's key and the sources it names, or None when an argument is no plain value."""
    sources: list[Source] = []
    try:
        key = (cls, tuple(_part(arg, sources) for arg in args),
               tuple(sorted((name, _part(value, sources)) for name, value in kwargs.items())),
               active_language(), sketch.active())
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

        if key[-1]:  # a sketch
            kept = _SKETCHES.get(key, build)
        else:
            frame = (config.frame_width, config.frame_height, config.pixel_width, config.pixel_height)
            kept = _KEPT.get_in(frame, key, build, lambda entry: holds_a_rule(entry[1]))
        return fresh[0] if fresh else kept[1].copy()


def forget() -> None:
    """Drop every kept build (a test's next build is made anew)."""
    _KEPT.clear()
    _SKETCHES.clear()


__all__ = ["Reused", "forget", "key_of", "MAX_KEPT", "MAX_SKETCHES"]
