"""The box that moves over an equation's terms as the picture computes them (softmax(QKᵀ/√dₖ)V lighting up).

A small explicit object, handed from beat to beat, instead of a `self.lit_box` that beats set behind each other's
backs: the one piece of mutable state it holds is the box now on screen.
"""

from __future__ import annotations

from collections.abc import Sequence

from manim import Animation, Create, FadeOut, Mobject, ReplacementTransform, VGroup

from . import palette
from .widgets import frame_box


class TermLight:
    """`on(eq, keys, color)` moves the highlight onto the named terms of `eq` (a `math` with `group`s) and paints
    them; `off()` takes it away. Both return the animations to play with the picture's own."""

    def __init__(self) -> None:
        self.box: Mobject | None = None

    def on(self, eq: Mobject, keys: Sequence[str], color=palette.ACCENT, paint: Sequence[str] | None = None
           ) -> list[Animation]:
        """The terms named in `paint` (default: all of `keys`) take `color`; the box takes it too."""
        box = frame_box(VGroup(*(eq.select(k) for k in keys)), color=color)
        painted = VGroup(*(eq.select(k) for k in (keys if paint is None else paint)))
        anims: list[Animation] = [painted.animate.set_color(color)] if len(painted) else []
        anims.append(ReplacementTransform(self.box, box) if self.box is not None else Create(box))
        self.box = box
        return anims

    def off(self) -> list[Animation]:
        box, self.box = self.box, None
        return [FadeOut(box)] if box is not None else []

    def forget(self) -> None:
        """The box left the screen some other way (the stage was cleared)."""
        self.box = None
