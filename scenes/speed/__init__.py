"""The patches that make manim build and draw our scenes faster without changing a pixel, installed in one call.

A package of its own beside the kit, importing only manim: the render worker installs them before it imports a
scene, and a scene that does not use the kit (the test fixtures) costs no import of the kit.

- `copy_speed`: copies of Typst glyphs share their parsed SVG path (copying is most of a scene's build time).
- `draw_speed`: the Cairo camera finds what to draw and builds its paths with less Python per frame; a play finds
  the animated mobjects the scene lacks by a set of its members, not a scan of them per animation.
- `bounds_speed`: a vectorized mobject's bounds (every position and size the layout asks) found by slicing, and any
  mobject's width and height reduced by numpy.
- `mobject_copy`: a mobject's deep copy without a `copy.deepcopy` call per number, string and array.
- `typst_speed`: Typst compiles with one font book per process, and writes its SVG cache files atomically.
- `update_speed`: a scene's updaters found by one walk of each family, not a method call per member.
- `gc_speed`: Python's cycle collector runs less often (it walked the same live picture again and again).
- `colour_speed`: a fill or stroke set to one colour and opacity written into the mobject's array directly.
- `skip_speed`: a skipped animation draws no picture nothing reads, and a skipped fade only adds or removes.

Nothing installs them on import: whatever draws frames calls `install_speed_patches()` first, explicitly — the
render worker (rendering/encode/worker.py), the headless runner behind the beat-frame dump, the inspection and
the pixel tests (scenes/quality/headless.py). So the tests draw with exactly what users' clips are drawn with.
"""

from __future__ import annotations

from . import (bounds_speed, colour_speed, copy_speed, draw_speed, gc_speed, mobject_copy, skip_speed, typst_speed,
               update_speed)


def install_speed_patches() -> None:
    """Install every patch (idempotent: each replaces manim's function by ours)."""
    mobject_copy.install()
    copy_speed.install()
    draw_speed.install()
    typst_speed.install()
    skip_speed.install()
    bounds_speed.install()
    colour_speed.install()
    gc_speed.install()
    update_speed.install()
