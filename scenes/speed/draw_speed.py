"""render.py's drawing: manim's Cairo camera with two per-frame costs done the same way, faster, pixel for pixel.

Installed with copy_speed by `scenes.speed.install_speed_patches()`, which the render worker and the headless runner call
before a scene is built (the figures against the plain manim CLI measure render.py's own work: the CLI draws with
stock manim).

A profile of qkv_scale at 1080p60 (benchmarks/profile_render.py) put half of the render in two pure-Python parts
of manim's Cairo camera, both repeated for every mobject on every frame:
- finding what to draw: every frame, `extract_mobject_family_members` takes the family of each of the scene's
  (often ~700) mobjects, through `Mobject.get_family`, which walks the tree through nested generators (`yield
  from` costs the depth of the tree per member) and de-duplicates in a Python loop. Here a plain recursive walk
  builds the same list in the same order, and de-duplication ("last occurrence wins") runs in C (`dict.fromkeys`).
  (Walking each mobject once per frame and joining the lists was tried too: 5% slower, from copying lists.)
- building the Cairo path: one Python `curve_to` call per Bézier curve of every glyph. A mobject whose points
  have not changed since it was last drawn (most of them, in most frames: a fade changes colours, not points) gets
  its path replayed from a copy Cairo kept (`copy_path`/`append_path`, in C), checked by comparing the points.
Both give manim's exact results: the same family lists, and the same path given to Cairo (tests/test_draw_speed.py;
qkv_scale's 1080p60 mp4 came out byte for byte the same).

A profile of an untuned example (twelve tokens, weight_free at 480p15, issue 42) found three more, all per drawn
path, and all worst where a moving camera redraws every glyph:
- the view a kept path is checked against (a moving camera's frame centre, width and height: three bounding boxes
  of the frame) was found once per path; now once per frame, when the frame's Cairo context is made (a quarter of
  that render);
- a glyph whose points are unchanged but whose view moved (every glyph, through a camera move) rebuilt its path
  from the points, numpy subpath split and all; now its Cairo calls are kept as data with the path and replayed;
- the subpath split of a small path (a glyph) is a Python loop with manim's float64 comparisons, not numpy's fixed
  cost per call; and a frame's display list takes a mobject with no submobjects as itself, not through a walk.
The same test holds them to stock manim, a moving camera included; fresh12d's weight_free mp4 came out byte for
byte the same.

A sampled profile (py-spy) of head_split at 1080p60, where travelling numbers change their points on every frame,
put a sixth of the drawing thread in rebuilding the calls of changed paths and comparing points. Now a kept path is
checked against the points' bytes (one C comparison, not numpy's array_equal: the same bytes make the same calls,
whatever they hold), the subpath split skips a boundary whose two points are the same floats (a glyph's curves join
there), and the non-finite check is one numpy call: head_split at 1080p60, 119.2 → 104.8 s, the mp4 byte for byte
the same.
"""

from __future__ import annotations

import math
import weakref

import numpy as np
from manim import Mobject, Scene
from manim.camera.camera import Camera
from manim.mobject import mobject as mobject_module
from manim.utils import family as family_module

_remove_list_redundancies = family_module.remove_list_redundancies
_set_cairo_context_path = Camera.set_cairo_context_path
_get_family = Mobject.get_family  # stock manim's, kept for the tests that compare with it
_family_members_with_points = Mobject.family_members_with_points


def _without_repeats(items):
    """manim's remove_list_redundancies (keeps each item's last occurrence, in order), done in C."""
    if len(set(items)) == len(items):
        return list(items)
    return list(dict.fromkeys(reversed(items)))[::-1]


#: More members than any scene's family has: a walk that gets here has met a mobject inside itself (a cycle).
_CYCLE_GUARD = 200_000


def _walk(mobject: Mobject, on_path: set, out: list) -> None:
    if mobject in on_path:  # a mobject inside itself: manim's walk skips it the same way
        return
    on_path.add(mobject)
    out.append(mobject)
    for submobject in mobject.submobjects:
        _walk(submobject, on_path, out)
    on_path.remove(mobject)


def get_family(self: Mobject, recurse: bool = True) -> list[Mobject]:
    """The same pre-order walk as manim's, on an explicit stack, without the set of the path a cycle needs (a third
    of the walk's cost): a family that grows past any real scene's has a cycle, and is walked again the safe way."""
    submobjects = self.submobjects
    if not submobjects:
        return [self]
    members = [self]
    pending = submobjects[::-1]
    take, keep, push = pending.pop, members.append, pending.extend
    while pending:
        member = take()
        keep(member)
        if member.submobjects:
            push(member.submobjects[::-1])
            if len(members) > _CYCLE_GUARD:
                members = []
                _walk(self, set(), members)
                break
    return _without_repeats(members)


def family_members_with_points(self: Mobject) -> list[Mobject]:
    return [member for member in self.get_family() if member.get_num_points() > 0]


# vmobject -> (view, its points' shape, type and bytes, Cairo's path, the calls, the tolerance)
_paths: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _view(camera: Camera) -> tuple:
    """What maps a mobject's points to the picture, besides the points: the camera and its frame."""
    return (id(camera), camera.pixel_width, camera.pixel_height, camera.frame_width, camera.frame_height,
            *np.asarray(camera.frame_center, dtype=float).tolist())


_get_cairo_context = Camera.get_cairo_context


def get_cairo_context(self: Camera, pixel_array):
    """manim's, remembering the view the context was got for: a frame's every path is drawn in one context, so the
    view (a moving camera's frame centre, width and height: a bounding box each) is found once per frame, not once
    per path."""
    ctx = _get_cairo_context(self, pixel_array)
    self._view_of_context = (ctx, _view(self))
    return ctx


_stock_transform_points_pre_display = Camera.transform_points_pre_display


#: Up to this many points (a glyph has tens) a path's subpaths are found in a Python loop, not numpy's vectorized
#: one, whose fixed cost per call (a dozen small arrays) is most of the time it takes on a glyph.
_FEW_POINTS = 400


def _split_2d(vmobject, points: np.ndarray) -> list[tuple[int, int]]:
    """manim's VMobject.get_subpath_split_indices_from_points(points, n_dims=2), as a list of (start, end): the same
    float64 operations per coordinate (|end - start| <= atol + rtol |start|; a non-finite difference is close only
    where the two are equal), one curve boundary at a time."""
    nppcc = vmobject.n_points_per_cubic_curve
    count = len(points)
    if count < nppcc:
        return []
    atol, rtol = vmobject.tolerance_for_point_equality, 1.0e-5
    xy = points[:, :2].tolist()
    cuts = [0]
    for boundary in range(nppcc, count, nppcc):
        if xy[boundary - 1] == xy[boundary]:  # the same two floats: close by any tolerance (a glyph's curves join)
            continue
        for end, start in zip(xy[boundary - 1], xy[boundary]):
            difference = abs(end - start)
            close = difference <= atol + rtol * abs(start) if math.isfinite(difference) else end == start
            if not close:
                cuts.append(boundary)
                break
    cuts.append(count)
    return list(zip(cuts[:-1], cuts[1:]))


def _calls(camera: Camera, vmobject, points: np.ndarray) -> list:
    """The Cairo calls manim's set_cairo_context_path makes for these points, as data: per subpath its first point,
    its curves' six coordinates each, and whether it is closed (the same doubles, in the same order)."""
    # stock manim's transform_points_pre_display (set_cairo_context_path comes here with no other), one numpy call
    if not np.isfinite(points).all():
        points = np.zeros((1, 3))
    nppcc = vmobject.n_points_per_cubic_curve
    if points.dtype == np.float64 and len(points) <= _FEW_POINTS:
        split = _split_2d(vmobject, points)
    else:
        split = vmobject.get_subpath_split_indices_from_points(points, n_dims=2).tolist()
    xy = points[:, :2].ravel().tolist()
    subpaths = []
    for start, end in split:
        if end - start < nppcc:
            continue
        curves = [tuple(xy[b:b + 6]) for b in range(2 * start + 2, 2 * (end - nppcc) + 3, 2 * nppcc)]
        closed = bool(vmobject.consider_points_equals_2d(points[start], points[end - 1]))
        subpaths.append((xy[2 * start], xy[2 * start + 1], curves, closed))
    return subpaths


def _make_path(ctx, calls: list) -> None:
    ctx.new_path()
    new_sub_path, move_to, curve_to, close_path = ctx.new_sub_path, ctx.move_to, ctx.curve_to, ctx.close_path
    for x, y, curves, closed in calls:
        new_sub_path()
        move_to(x, y)
        for curve in curves:
            curve_to(*curve)
        if closed:
            close_path()


def set_cairo_context_path(self: Camera, ctx, vmobject):
    points = vmobject.points
    if len(points) == 0 or type(self).transform_points_pre_display is not _stock_transform_points_pre_display:
        return _set_cairo_context_path(self, ctx, vmobject)
    held = getattr(self, "_view_of_context", None)
    view = held[1] if held is not None and held[0] is ctx else _view(self)
    kept = _paths.get(vmobject)
    tolerance = vmobject.tolerance_for_point_equality
    # the points' bytes (with their shape and type): the same bytes make the same calls, whatever they hold
    points_key = (points.shape, points.dtype.str, points.tobytes())
    if kept is not None and kept[4] == tolerance and kept[1] == points_key:
        if kept[0] == view:  # the same points in the same view: Cairo's own copy of the path
            ctx.new_path()
            ctx.append_path(kept[2])
            return self
        calls = kept[3]  # the same points in another view (the camera moved): the same calls, no numpy
    else:
        calls = _calls(self, vmobject, points)
    _make_path(ctx, calls)
    _paths[vmobject] = (view, points_key, ctx.copy_path(), calls, tolerance)
    return self


_get_mobjects_to_display = Camera.get_mobjects_to_display


def get_mobjects_to_display(self: Camera, mobjects, include_submobjects: bool = True, excluded_mobjects=None):
    """manim's (every family member with points, each at its last place, sorted by z_index), with a mobject that has
    no submobjects taken as itself, not through a family walk: a play's moving mobjects arrive as a flat list of
    families, mostly glyphs, once per frame."""
    if not include_submobjects or excluded_mobjects:
        return _get_mobjects_to_display(self, mobjects, include_submobjects, excluded_mobjects)
    members = []
    keep, extend = members.append, members.extend
    with_points = Mobject.family_members_with_points  # what manim's extract_mobject_family_members calls
    for mobject in mobjects:
        if mobject.submobjects:
            extend(with_points(mobject))
        elif mobject.get_num_points() > 0:
            keep(mobject)
    members = _without_repeats(members)
    if self.use_z_index:
        members.sort(key=lambda m: m.z_index)
    return members


_add_mobjects_from_animations = Scene.add_mobjects_from_animations


def add_mobjects_from_animations(self: Scene, animations) -> None:
    """manim's: every animated mobject not in the scene's families yet is added to the scene; the question "not in
    them yet" asked of a set of the members, not by scanning the scene's whole family list once per animation (a
    close-up plays hundreds of fades in one play). A Mobject is equal only to itself (no __eq__), so a member's
    identity is what the list's `in` compared."""
    present = {id(member) for member in self.get_mobject_family_members()}
    for animation in animations:
        if animation.is_introducer():
            continue
        mob = animation.mobject
        if mob is not None and id(mob) not in present:
            self.add(mob)
            present.update(map(id, mob.get_family()))


def install() -> None:
    Scene.add_mobjects_from_animations = add_mobjects_from_animations
    Mobject.get_family = get_family
    Mobject.family_members_with_points = family_members_with_points
    family_module.remove_list_redundancies = _without_repeats
    mobject_module.remove_list_redundancies = _without_repeats
    Camera.set_cairo_context_path = set_cairo_context_path
    Camera.get_cairo_context = get_cairo_context
    Camera.get_mobjects_to_display = get_mobjects_to_display
