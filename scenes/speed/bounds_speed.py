"""A vectorized mobject's bounds found with numpy slicing, not a Python loop over its points: the same points.

Every `get_center`, `next_to`, `get_left` or `width` of a VMobject asks `get_points_defining_boundary`, which
manim builds by zipping each family member's start and end anchors row by row in Python (`get_anchors`), then
packing the rows back into one array. Layout searches ask it tens of thousands of times per scene: in a headless run
of head_split on the wide example, 30,000 calls took 12% of the run. Here each member's anchors are interleaved
by slicing (start anchors into the even rows, end anchors into the odd ones, manim's order) and the members
joined in one concatenate: the same rows in the same order, so every bound and position comes out the same.

A mobject's `width` and `height` (`length_over_dim`) are manim's largest minus smallest coordinate over every point
of the family, found by recursing the tree with Python's `max`/`min` iterating each array element by element; a
Typst text's `font_size` is its height, and the close-up asks every text's size on every camera move (two million
heights, a fifth of a headless run of head_split). Here the same coordinates are gathered in one array and reduced
by numpy: a maximum and a minimum are exact, so the length is the same float.
"""

from __future__ import annotations

import numpy as np
from manim import Mobject, VMobject

_stock_get_points_defining_boundary = VMobject.get_points_defining_boundary
_stock_get_anchors = VMobject.get_anchors
_stock_length_over_dim = Mobject.length_over_dim
#: More pending members than any scene's family has: a walk that gets here has met a mobject inside itself.
_CYCLE_GUARD = 200_000


def _anchors(member) -> np.ndarray | None:
    """manim's get_anchors as one array, or None where its own rules decide (another class's, uneven curves)."""
    if type(member).get_anchors is not _stock_get_anchors:
        return None
    points = member.points
    count = len(points)
    if count <= 1:
        return points
    step = member.n_points_per_cubic_curve
    if count % step:
        return None  # manim's zip(strict=True) says what such points give
    anchors = np.empty((2 * (count // step), points.shape[1]), dtype=points.dtype)
    anchors[0::2] = points[::step]
    anchors[1::2] = points[step - 1::step]
    return anchors


def get_points_defining_boundary(self: VMobject) -> np.ndarray:
    """The family's points joined in one array and its anchors sliced out once, where every member with points holds
    whole curves of one length (then each member's block starts on a curve's first row, so the joined array's every
    step-th row and the one before it are each member's anchors in turn: the same rows in the same order as joining
    the members' anchors); else member by member."""
    blocks, step = [], None
    for member in self.get_family():
        if not isinstance(member, VMobject) or type(member).get_anchors is not _stock_get_anchors:
            return _stock_get_points_defining_boundary(self)
        points = member.points
        count = len(points)
        if not count:
            continue
        if step is None:
            step = member.n_points_per_cubic_curve
        if count % step or count == 1 or member.n_points_per_cubic_curve != step:
            return _member_by_member(self)
        blocks.append(points)
    if not blocks:
        return _stock_get_points_defining_boundary(self)
    points = blocks[0] if len(blocks) == 1 else np.concatenate(blocks)
    anchors = np.empty((2 * (len(points) // step), points.shape[1]), dtype=points.dtype)
    anchors[0::2] = points[::step]
    anchors[1::2] = points[step - 1::step]
    return anchors


def _member_by_member(self: VMobject) -> np.ndarray:
    parts = []
    for member in self.get_family():
        anchors = _anchors(member) if isinstance(member, VMobject) else None
        if anchors is None:
            return _stock_get_points_defining_boundary(self)
        if len(anchors):
            parts.append(anchors)
    if not parts:
        return _stock_get_points_defining_boundary(self)
    return np.concatenate(parts)


def length_over_dim(self: Mobject, dim: int) -> float:
    """manim's length_over_dim: the largest minus the smallest `dim` coordinate of the family's points (0 without
    points), reduced by numpy."""
    columns, pending = [], [self]
    while pending:  # every member once per path to it, in no order: a maximum and a minimum need none
        member = pending.pop()
        if len(member.points):
            columns.append(member.points[:, dim])
        if member.submobjects:
            pending.extend(member.submobjects)
            if len(pending) > _CYCLE_GUARD:  # a mobject inside itself: manim's own walk says what that gives
                return _stock_length_over_dim(self, dim)
    if not columns:
        return 0
    values = columns[0] if len(columns) == 1 else np.concatenate(columns)
    low, high = values.min(), values.max()
    if low != low or high != high:  # a NaN: Python's max and min answer by position, so ask manim's own walk
        return _stock_length_over_dim(self, dim)
    return high - low


def install() -> None:
    VMobject.get_points_defining_boundary = get_points_defining_boundary
    Mobject.length_over_dim = length_over_dim
