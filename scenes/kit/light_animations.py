"""Animations that change only opacity or fill colour, without the copies a Transform makes.

`mob.animate.set_opacity(0)` copies the mobject twice (the target, and the starting state every Animation keeps).
A close-up hides or shows hundreds of numbers and re-shades their cells on every camera move, so those copies were
a fifth of a headless storyboard's time. These animations keep only the few numbers they interpolate; each frame
is the one the Transform would draw (opacity and colour interpolated linearly by the rate function), and the end
state is exactly what `set_opacity` / `set_fill` give.
"""

from __future__ import annotations

from manim import Animation, ManimColor, Mobject, VMobject, interpolate_color


#: What VMobject.set_opacity sets: each colour array's alpha, and the opacity attribute beside it.
ALPHAS = (("fill_rgbas", "fill_opacity"), ("stroke_rgbas", "stroke_opacity"),
          ("background_stroke_rgbas", "background_stroke_opacity"))
#: The VMobject methods set_opacity goes through: a member whose class has its own is left to manim.
STOCK = ("set_opacity", "set_fill", "set_stroke", "update_rgbas_array", "generate_rgbas_array", "get_sheen_factor")


def plain(member: Mobject) -> bool:
    """Whether manim's set_fill/set_stroke of an opacity alone (no colour) come to setting the alpha column of the
    member's colour array and its opacity attribute: a VMobject whose class keeps manim's own methods, with no sheen
    (manim adds a lighter row) and no empty colour array."""
    return (isinstance(member, VMobject) and all(getattr(type(member), name) is getattr(VMobject, name)
                                                 for name in STOCK)
            and member.get_sheen_factor() == 0 and all(len(getattr(member, array, ())) for array, _ in ALPHAS))


def _begin(animation: Animation) -> None:
    """Animation.begin; for a skipped animation (scenes.speed.skip_speed marks them) that ends where its rate does
    (1 at 1), without drawing its start first: interpolate(0) sets every part to the values just read from it, and
    the end (interpolate(1), from those values kept as numbers) sets every part whatever it held before."""
    if not (getattr(animation, "skipped_to_its_end", False) and animation.rate_func(1.0) == 1):
        Animation.begin(animation)
        return
    animation.starting_mobject = animation.create_starting_mobject()
    if animation.suspend_mobject_updating:
        animation.mobject.suspend_updating()


class OpacityTo(Animation):
    """`mob.animate.set_opacity(opacity)`: fill, stroke and background stroke of every part move to `opacity`."""

    def __init__(self, mobject: Mobject, opacity: float, **kwargs) -> None:
        self.opacity = opacity
        self._starts: list[tuple[Mobject, float, float, float]] = []
        super().__init__(mobject, **kwargs)

    def create_starting_mobject(self) -> Mobject:
        return self.mobject  # the start is kept as numbers (begin), not as a copy

    def begin(self) -> None:
        self._starts = [(part, float(part.get_fill_opacity()), float(part.get_stroke_opacity()),
                         float(part.get_stroke_opacity(background=True)), plain(part))
                        for part in self.mobject.family_members_with_points()]
        _begin(self)

    def interpolate_mobject(self, alpha: float) -> None:
        """Each part's three opacities moved by the rate; a `plain` part's alpha columns set directly, as manim's
        set_fill(opacity=...) and set_stroke(opacity=...) set them (a close-up fades thousands of glyphs a move)."""
        t = self.rate_func(alpha)
        for part, fill, stroke, background, direct in self._starts:
            values = (fill * (1 - t) + self.opacity * t, stroke * (1 - t) + self.opacity * t,
                      background * (1 - t) + self.opacity * t)
            if direct:
                for (array, attribute), value in zip(ALPHAS, values):
                    getattr(part, array)[:, 3] = value
                    setattr(part, attribute, value)
                continue
            part.set_fill(opacity=values[0], family=False)
            part.set_stroke(opacity=values[1], family=False)
            part.set_stroke(opacity=values[2], family=False, background=True)


class FillTo(Animation):
    """`mob.animate.set_fill(color, opacity=opacity)` for a one-colour shape (a cell): colour and opacity together."""

    def __init__(self, mobject: Mobject, color: ManimColor, opacity: float, **kwargs) -> None:
        self.color, self.opacity = ManimColor(color), opacity
        self._start: tuple[ManimColor, float] | None = None
        super().__init__(mobject, **kwargs)

    def create_starting_mobject(self) -> Mobject:
        return self.mobject

    def begin(self) -> None:
        self._start = (self.mobject.get_fill_color(), float(self.mobject.get_fill_opacity()))
        _begin(self)

    def interpolate_mobject(self, alpha: float) -> None:
        t = self.rate_func(alpha)
        color, opacity = self._start
        if t >= 1:
            self.mobject.set_fill(self.color, opacity=self.opacity)
        else:
            self.mobject.set_fill(interpolate_color(color, self.color, t), opacity=opacity * (1 - t) + self.opacity * t)


def end_at_once(scene, animations: list[Animation]) -> None:
    """Each of `animations` (OpacityTo, FillTo) taken to its end at once, as a skipped play ends it: begun without
    drawing its start (`_begin`), then finished (interpolated at 1). For a play skipped to its end whose other
    animations touch none of these mobjects and where nothing has an updater: the end state is the one the play
    leaves (each ends where its own numbers say, read at its begin), without manim's per-animation bookkeeping."""
    for animation in animations:
        animation.skipped_to_its_end = True
        animation._setup_scene(scene)
        animation.begin()
        animation.finish()
        animation.clean_up_from_scene(scene)


__all__ = ["OpacityTo", "FillTo", "plain", "end_at_once", "ALPHAS", "STOCK"]
