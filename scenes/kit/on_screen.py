"""What the viewer sees: the camera's view of the scene, and sizes as they come out on screen.

With a moving camera (`scenes.kit.camera_moves`), a mobject's font size is not what it looks like: framing half the
frame's width doubles every size on screen. The gates and the legibility figures measure through this module, so
a number counts as legible when it reads at the floor *on screen*, wherever the camera is.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import Mobject, VMobject, config


@dataclass(frozen=True)
class View:
    """The part of the scene the camera shows: its centre (scene units) and its width and height."""

    center_x: float
    center_y: float
    width: float
    height: float

    @property
    def zoom(self) -> float:
        """How much larger than at rest things look: 2.0 when the camera frames half the frame's width."""
        return config.frame_width / self.width

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        """A scene point in the coordinates of the frame at rest (what `layout.frame()` and `body()` use)."""
        return (x - self.center_x) * self.zoom, (y - self.center_y) * self.zoom

    def box_to_screen(self, box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        """A scene box (left, right, bottom, top) in the coordinates of the frame at rest."""
        left, right, bottom, top = box
        (left, bottom), (right, top) = self.to_screen(left, bottom), self.to_screen(right, top)
        return left, right, bottom, top


def camera_frame(scene) -> Mobject | None:
    """The moving camera's frame mobject, or None for a fixed camera."""
    return getattr(scene.camera, "frame", None)


def current_view(scene) -> View:
    frame = camera_frame(scene)
    if frame is None:
        return View(0.0, 0.0, config.frame_width, config.frame_height)
    center = frame.get_center()
    return View(float(center[0]), float(center[1]), float(frame.width), float(frame.height))


def screen_box(mob: Mobject, view: View) -> tuple[float, float, float, float]:
    """A mobject's box in the coordinates of the frame at rest."""
    return view.box_to_screen(boundary_box(mob))


def boundary_box(mob: Mobject) -> tuple[float, float, float, float]:
    """The box manim's get_left/get_right/get_bottom/get_top give (a VMobject's curve anchors, any other
    mobject's points; all zeros for no points), from one pass over the family: manim walks the whole family
    again for each edge, and the gates ask for every text's box after every animation."""
    if not isinstance(mob, VMobject):
        parts = [points for sub in mob.get_family() if len(points := sub.points)]
        return points_box(np.concatenate(parts)) if parts else (0.0, 0.0, 0.0, 0.0)
    # Members made of whole cubic curves (most of a picture) are joined first and their anchors read from the join
    # as every fourth point and the one three after it, the same points _anchors takes member by member, without
    # slicing and joining each member's array on its own (the walk's cost was those small arrays).
    whole_curves, others = [], []
    for sub in mob.get_family():
        points = sub.points
        count = len(points)
        if not count:
            continue
        if count % 4 == 0 and getattr(sub, "n_points_per_cubic_curve", 4) == 4:
            whole_curves.append(points)
        else:
            others.append(_anchors(sub))
    if whole_curves:
        joined = np.concatenate(whole_curves)
        others += [joined[::4], joined[3::4]]
    if not others:
        return 0.0, 0.0, 0.0, 0.0
    return points_box(np.concatenate(others) if len(others) > 1 else others[0])


def _anchors(mob: Mobject) -> np.ndarray:
    """The start and end anchors of every cubic curve (VMobject.get_anchors, without the interleaving)."""
    points = mob.points
    if points.shape[0] == 1:
        return points
    n = getattr(mob, "n_points_per_cubic_curve", 4)
    return np.concatenate([points[::n], points[n - 1::n]])


def points_box(points: np.ndarray) -> tuple[float, float, float, float]:
    return float(points[:, 0].min()), float(points[:, 0].max()), float(points[:, 1].min()), float(points[:, 1].max())
