"""Copy a mobject with less Python: the same deep copy as manim's `Mobject.__deepcopy__`, without a
`copy.deepcopy` call per attribute.

Every animation copies its mobjects (a Transform its source and target, a fade its faded twin), and so does a
headless run that skips the animations: copying was 40% of a headless run, 2.9 million `copy.deepcopy` calls for
2,400 copies, almost all of them on an attribute that is a number, a string or a points array. Here those are
copied inline: immutable values are shared (deepcopy returns them as they are), arrays are copied once each (the
memo keeps two attributes that shared an array sharing its copy), lists and dicts are rebuilt item by item
through the same memo. Anything else goes to `copy.deepcopy` as before, so the copy is the same object graph as
manim's, but for the glyphs' parsed SVG paths, shared (see _SHARED).
"""

from __future__ import annotations

import copy
import enum
import pathlib

import numpy as np
import svgelements
from manim import ManimColor, Mobject

#: Values a deep copy may share: immutable ones (deepcopy returns them as they are), and ManimColor, which manim
#: treats as a value (nothing in manim or in our scenes sets a colour's components after it is made). And the
#: parsed SVG path a glyph was built from (`VMobjectFromSVGPath.path_obj`): manim reads it once, to make the
#: glyph's points when the glyph is made, and never again, yet deep-copying its segments and points was three
#: quarters of the cost of copying a typeset number (a DecimalNumber of five glyphs: 3.4 ms a copy, 1.0 shared).
_SHARED = {int, float, bool, str, bytes, complex, type(None), np.float64, np.int64, np.bool_, pathlib.PosixPath,
           svgelements.Path}
_deepcopy = copy.deepcopy
_stock_deepcopy = Mobject.__deepcopy__  # manim's, kept for the tests that compare with it


def _copy_value(value, memo: dict):
    kind = type(value)
    if kind in _SHARED:
        return value
    if issubclass(kind, (ManimColor, enum.Enum)):
        _SHARED.add(kind)
        return value
    seen = memo.get(id(value))
    if seen is not None:
        return seen
    if kind is np.ndarray:
        if value.dtype == object:
            return _deepcopy(value, memo)
        result = value.copy()
        memo[id(value)] = result
        _keep_alive(value, memo)
        return result
    if kind is list:
        result = []
        memo[id(value)] = result
        _keep_alive(value, memo)
        result.extend([_copy_value(item, memo) for item in value])
        return result
    if kind is dict:
        result = {}
        memo[id(value)] = result
        _keep_alive(value, memo)
        for key, item in value.items():
            result[_copy_value(key, memo)] = _copy_value(item, memo)
        return result
    return _deepcopy(value, memo)


def _keep_alive(value, memo: dict) -> None:
    """What copy.deepcopy does for every memoised object: hold it until the copy ends, so no id is reused."""
    try:
        memo[id(memo)].append(value)
    except KeyError:
        memo[id(memo)] = [value]


def _deepcopy_mobject(self: Mobject, memo: dict) -> Mobject:
    cls = self.__class__
    result = cls.__new__(cls)
    memo[id(self)] = result
    shared = _SHARED
    result.__dict__.update({key: value if type(value) in shared else _copy_value(value, memo)
                            for key, value in self.__dict__.items()})  # Mobject defines no __setattr__
    result.original_id = str(id(self))
    return result


def install() -> None:
    Mobject.__deepcopy__ = _deepcopy_mobject
