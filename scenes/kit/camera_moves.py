"""The camera that follows the work: frame the part being computed at a legible size, then pull back.

Where a whole composition cannot fit above the legibility floor (an 8×8 map with numbers, four heads side by
side), a scene does not shrink it: it builds it at a legible size, bigger than the frame if need be, and moves the
camera onto the active row, head or cell, then back out to the whole (where shading may stand in for numbers).

What sits in the top band (the step's formula or heading) stays where it is on screen while the camera moves: each
camera move carries those mobjects along with the frame (scaled about the frame's old centre and shifted with it),
so on screen they do not move at all. Linear interpolation keeps them exact at every frame of the move, because the
frame's centre and width also change linearly.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import Animation, Mobject, Scene, config

from . import layout
from .on_screen import View, camera_frame, current_view

#: The most the camera zooms in (a single cell should not fill the screen).
MAX_ZOOM = 3.0
#: Room left around the framed work, in units of the frame at rest.
FRAMING_MARGIN = 0.25


@dataclass(frozen=True)
class Shot:
    """Where the camera is to go: the view's centre and width (scene units)."""

    center: np.ndarray
    width: float

    @property
    def zoom(self) -> float:
        return config.frame_width / self.width


def rest_shot() -> Shot:
    return Shot(np.zeros(3), config.frame_width)


def reading_zoom(mob: Mobject) -> float:
    """The closest a shot on `mob` comes: its smallest text at the heading's size (the camera moves in to read, not
    to fill the frame with three numbers), never closer than MAX_ZOOM nor farther than the frame at rest."""
    from .shot_content import smallest_font
    from .typography import HEADING_SIZE

    return float(np.clip(HEADING_SIZE / smallest_font(mob), 1.0, MAX_ZOOM))


def shot_on(mob: Mobject, region: layout.Region | None = None, *, max_zoom: float | None = None) -> Shot:
    """The shot that shows `mob` as large as fits `region` of the screen (default: the body, under the top band),
    centred there; never zoomed out past the frame at rest, nor in past `max_zoom` (default: `reading_zoom`)."""
    region = region or layout.body()
    width = region.width - 2 * FRAMING_MARGIN
    height = region.height - 2 * FRAMING_MARGIN
    zoom = min(width / max(mob.width, 1e-6), height / max(mob.height, 1e-6))
    zoom = float(np.clip(zoom, 1.0, reading_zoom(mob) if max_zoom is None else max_zoom))
    # the region's centre, in the frame at rest, must land on the mobject's centre
    center = mob.get_center() - region.center / zoom
    return Shot(np.array([center[0], center[1], 0.0]), config.frame_width / zoom)


def shot_on_all(mob: Mobject, region: layout.Region | None = None) -> Shot:
    """A shot that shows all of `mob` in `region`, zooming out (never in) when it is larger than the frame."""
    region = region or layout.body()
    zoom = layout.fit_factor(mob, region)
    center = mob.get_center() - region.center / zoom
    return Shot(np.array([center[0], center[1], 0.0]), config.frame_width / zoom)


def _in_top_band(mob: Mobject, view: View) -> bool:
    """Whether `mob` sits wholly in the top band on screen (a formula or a heading pinned there)."""
    _, bottom = view.to_screen(0.0, mob.get_bottom()[1])
    return bottom >= layout.body().top - 1e-3


def move_camera(scene: Scene, shot: Shot, *, pinned: list[Mobject] | None = None) -> list[Animation]:
    """The animations that take the camera to `shot` and carry the top band's mobjects along, unchanged on
    screen. Play them with the picture's own (`scene.play(*move_camera(scene, shot), ...)`).

    `pinned` names the mobjects to carry (the step's formula) instead of every mobject found in the top band: for
    an oversized composition whose hidden parts may lie under the top band on screen and must stay where they are."""
    frame = camera_frame(scene)
    if frame is None:
        raise TypeError(f"{type(scene).__name__} has no moving camera (derive from AttentionScene)")
    view = current_view(scene)
    old_center = np.array([view.center_x, view.center_y, 0.0])
    ratio = shot.width / view.width
    if pinned is None:
        pinned = [m for m in scene.mobjects if m is not frame and m.get_num_points() + len(m.submobjects) > 0
                  and _in_top_band(m, view)]
    builders = [frame.animate.move_to(shot.center).set(width=shot.width)]
    builders += [m.animate.scale(ratio, about_point=old_center).shift(shot.center - old_center) for m in pinned]
    return [builder.build() for builder in builders]


def at_rest(scene: Scene) -> bool:
    view = current_view(scene)
    return abs(view.width - config.frame_width) < 1e-6 and abs(view.center_x) < 1e-6 and abs(view.center_y) < 1e-6


def reset_camera(scene: Scene) -> None:
    """Put the camera back at rest at once (for an empty stage, where nothing on screen shows the jump)."""
    frame = camera_frame(scene)
    if frame is not None:
        frame.move_to(np.zeros(3)).set(width=config.frame_width)


__all__ = ["Shot", "rest_shot", "shot_on", "shot_on_all", "move_camera", "at_rest", "reset_camera", "MAX_ZOOM"]
