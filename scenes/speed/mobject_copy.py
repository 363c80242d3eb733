"""Copy a mobject with less Python: the same deep copy as manim's `Mobject.__deepcopy__`, without a
`copy.deepcopy` call per attribute.

Every animation copies its mobjects (a Transform its source and target, a fade its faded twin), and so does a
headless run that skips the animations: copying was 40% of a headless run, 2.9 million `copy.deepcopy` calls for
2,400 copies, almost all of them on an attribute that is a number, a string or a points array. Here those are
copied inline: immutable values are shared (deepcopy returns them as they are), arrays are copied once each (the
memo keeps two attributes that shared an array sharing its copy), lists and dicts are rebuilt item by item
through the same memo. Anything else goes to `copy.deepcopy` as before, so the copy is the same object graph as
manim's, but for the glyphs' parsed SVG paths and the settings a text was made with, shared (see _SHARED and
_MADE_ONCE), and a Typst text's internal SVG groups, left out (see _label_groups).

A mobject moved with `.animate` keeps the copy manim made of it as its `target` (`generate_target`), and every
later copy of the mobject copied that stale target too: here it is dropped once the animation is over (nothing
reads it after: the animation built it for itself).

A submobject met in a list is copied by its own `__deepcopy__` directly, not through `copy.deepcopy`'s dispatch
(a third of the calls, one per mobject copied).

No copied value is kept alive in the memo, as `copy.deepcopy` does for what it memoises: every value copied here is
held by the mobject being copied until the copy ends, so no id in the memo can be reused meanwhile.
"""

from __future__ import annotations

import copy
import enum
import pathlib

import numpy as np
import svgelements
from manim import ManimColor, Mobject
from manim.animation.transform import _MethodAnimation
from manim.mobject.text.typst_mobject import _INTERNAL_TYPST_ID_RE, Typst

#: Values a deep copy may share: immutable ones (deepcopy returns them as they are), and ManimColor, which manim
#: treats as a value (nothing in manim or in our scenes sets a colour's components after it is made). And the
#: parsed SVG path a glyph was built from (`VMobjectFromSVGPath.path_obj`): manim reads it once, to make the
#: glyph's points when the glyph is made, and never again, yet deep-copying its segments and points was three
#: quarters of the cost of copying a typeset number (a DecimalNumber of five glyphs: 3.4 ms a copy, 1.0 shared).
_SHARED = {int, float, bool, str, bytes, complex, type(None), np.float64, np.int64, np.bool_, pathlib.PosixPath,
           svgelements.Path}
#: Settings a text keeps from when it was made, which manim reads only while making it (an SVG's default style and
#: its paths' settings, a DecimalNumber's arguments for `set_value`) and never changes after: a copy shares them.
#: A number's copy went through their two dozen entries one by one (a fifth of its cost).
_MADE_ONCE = frozenset({"svg_default", "path_string_config", "initial_config"})
_deepcopy = copy.deepcopy
_ndarray = np.ndarray
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
        return result
    if kind is list:
        return _copy_list(value, memo)
    if kind is dict:
        result = {}
        memo[id(value)] = result
        for key, item in value.items():
            result[_copy_value(key, memo)] = _copy_value(item, memo)
        return result
    if isinstance(value, Mobject):  # a submobject: its own __deepcopy__, as copy.deepcopy would call it
        result = value.__deepcopy__(memo)
        memo[id(value)] = result
        return result
    return _deepcopy(value, memo)


def _label_groups(groups: dict) -> dict:
    """The groups of a Typst text's `id_to_vgroup_dict` that `select(label)` can name: its user labels. Manim keeps
    every group of the SVG there ("root", "numbered_group_3", one per glyph use), three to four times as many
    mobjects as the text draws, and reads only the labelled ones (`Typst._rebuild_label_aliases` skips the same
    keys); copying the rest was most of the cost of copying a typeset number."""
    return {key: group for key, group in groups.items()
            if key != "root" and not key.startswith("numbered_group_") and not _INTERNAL_TYPST_ID_RE.fullmatch(key)}


def _copy_list(value: list, memo: dict) -> list:
    """A list of a mobject's state (its submobjects, mostly): a member that is a mobject copied by its own
    `__deepcopy__` straight away, without `_copy_value`'s tests for the kinds a mobject is not."""
    result: list = []
    memo[id(value)] = result
    append = result.append
    for item in value:
        if isinstance(item, Mobject):
            seen = memo.get(id(item))
            if seen is None:
                seen = memo[id(item)] = item.__deepcopy__(memo)
            append(seen)
        else:
            append(_copy_value(item, memo))
    return result


def _deepcopy_mobject(self: Mobject, memo: dict) -> Mobject:
    """The copy's state starts as a shallow copy of the original's (one C-level dict copy: most values are shared
    anyway), and only the values a deep copy must not share are replaced: arrays, lists, and the rest through
    `_copy_value`. Building the state key by key was a third of a copy's cost."""
    cls = self.__class__
    result = cls.__new__(cls)
    memo[id(self)] = result
    state = self.__dict__
    if isinstance(self, Typst) and state.get("id_to_vgroup_dict"):
        state = {**state, "id_to_vgroup_dict": _label_groups(state["id_to_vgroup_dict"])}
    copied = state.copy()
    shared = _SHARED
    for key, value in state.items():  # _copy_value's first cases inline: most values are shared, then arrays
        kind = type(value)
        if kind in shared or key in _MADE_ONCE:
            continue
        if kind is _ndarray and value.dtype != object:
            seen = memo.get(id(value))
            if seen is None:
                seen = memo[id(value)] = value.copy()
            copied[key] = seen
        elif kind is list:
            seen = memo.get(id(value))
            if seen is None:  # most lists of a glyph (its submobjects, its updaters) are empty
                seen = memo[id(value)] = _copy_list(value, memo) if value else []
            copied[key] = seen
        else:
            copied[key] = _copy_value(value, memo)
    copied["original_id"] = str(id(self))
    result.__dict__ = copied  # Mobject defines no __setattr__
    return result


_clean_up_method_animation = _MethodAnimation.clean_up_from_scene


def _clean_up_dropping_the_target(self: _MethodAnimation, scene) -> None:
    _clean_up_method_animation(self, scene)
    if getattr(self.mobject, "target", None) is self.target_mobject:
        self.mobject.target = None


def install() -> None:
    Mobject.__deepcopy__ = _deepcopy_mobject
    _MethodAnimation.clean_up_from_scene = _clean_up_dropping_the_target
