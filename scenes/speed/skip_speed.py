"""Do no work for an animation that is skipped beyond reaching its end state.

When manim skips an animation (every animation of a headless run, and every one before a chunk's window in a
render), it still does everything but write the frame:
- its Cairo renderer draws the scene's static mobjects into a background, then the moving ones over it, and
  throws both pictures away (`add_frame` writes nothing while skipping);
- a fade still copies its mobject twice, aligns the copies point by point and interpolates them, to arrive where
  it started: a FadeOut puts its mobject back as it was and takes it out of the scene, a FadeIn ends on its
  mobject as it was, in the scene.
Nor are the scene's mobjects sorted into moving and static for a background no skipped play draws. That was a
third of a headless run. Here, while skipping, nothing is drawn; and a play of fades alone, on separate
mobjects, becomes what it amounts to: each mobject added or removed, left as it is, the run time kept. A skipped
transform along a straight path, whose rate reaches exactly 1, makes no copy of where it starts: at alpha 1 manim's
interpolation weighs the start by 0 (`(1 - 1) * start + 1 * end`, colours copied from the target), so the end state
is the same whatever it started from; and an `.animate` transform aligns its own private target, not a copy of it. (A play of
anything else takes manim's path: how animations of one play interact is manim's to say.) Whatever needs a picture
draws its own: the next played animation its background, a still image at the scene's end, the headless runner
every beat's end. Drawing nothing also fixes the headless picture of a beat that ends in a wait: the background
kept from that wait was drawn under the whole scene again, doubling every translucent fill, a picture no video
frame shows.
"""

from __future__ import annotations

from manim import (
    Animation, ApplyMethod, FadeIn, FadeOut, Mobject, MoveToTarget, ReplacementTransform, Scene, Transform,
)
from manim.animation.transform import _MethodAnimation
from manim.renderer.cairo_renderer import CairoRenderer
from manim.utils.bezier import interpolate

_save_static_frame_data = CairoRenderer.save_static_frame_data
_render = CairoRenderer.render
_compile_animations = Scene.compile_animations
_transform_begin = Transform.begin
_get_moving_and_static = Scene.get_moving_and_static_mobjects

#: The transforms whose end state is their target's, through Transform's own interpolation (no override of it).
_ENDING_ON_TARGET = (Transform, ReplacementTransform, MoveToTarget, _MethodAnimation, ApplyMethod)


class _SkippedFade(Animation):
    """A fade that is skipped: in the scene (FadeIn) or out of it (FadeOut) at the end, nothing in between."""

    def __init__(self, fade: FadeIn | FadeOut) -> None:
        super().__init__(fade.mobject, run_time=fade.run_time, introducer=fade.is_introducer(),
                         remover=fade.is_remover(), suspend_mobject_updating=False)
        self._on_finish = fade._on_finish

    def begin(self) -> None:
        pass

    def finish(self) -> None:
        pass

    def interpolate(self, alpha: float) -> None:
        pass


def _only_separate_fades(animations: list[Animation]) -> bool:
    """A play of fades alone, no two touching the same mobject: then each ends as if played alone. (Two fades of
    one mobject in one play interfere in manim, the second starting from where the first's begin left it.)"""
    if not all(type(a) in (FadeIn, FadeOut) for a in animations):
        return False
    members = [id(m) for a in animations for m in a.mobject.get_family()]
    return len(members) == len(set(members))


def _compile_animations_skipping_fades(self: Scene, *args, **kwargs) -> list[Animation]:
    animations = _compile_animations(self, *args, **kwargs)
    if not self.renderer.skip_animations:
        return animations
    if not _only_separate_fades(animations):
        _mark_skipped(animations)
        return animations
    return [_SkippedFade(a) for a in animations]


def _mark_skipped(animations) -> None:
    """Tell each animation of a skipped play, groups' members included, that only its end state is wanted."""
    for animation in animations:
        animation.skipped_to_its_end = True
        _mark_skipped(getattr(animation, "animations", ()))


def _ends_on_its_target_whatever_the_start(transform: Transform) -> bool:
    return (getattr(transform, "skipped_to_its_end", False) and type(transform) in _ENDING_ON_TARGET
            and transform.path_func is interpolate
            and transform.rate_func(0.0) == 0 and transform.rate_func(1.0) == 1)


def _has_updaters(mobject) -> bool:
    return any(member.updaters for member in mobject.get_family())


def _begin_without_a_starting_copy(self: Transform) -> None:
    """Transform.begin then Animation.begin, for a skipped transform that ends on its target: the mobject stands
    for its own start (Animation.get_all_mobjects_to_update leaves it out, so no updater runs twice)."""
    if not _ends_on_its_target_whatever_the_start(self):
        return _transform_begin(self)
    self.target_mobject = self.create_target()
    private = type(self) is _MethodAnimation and not _has_updaters(self.target_mobject)
    self.target_copy = self.target_mobject if private else self.target_mobject.copy()
    self.mobject.align_data(self.target_copy)
    self.starting_mobject = self.mobject
    if self.suspend_mobject_updating:
        self.mobject.suspend_updating()
    self.interpolate(0)


#: What moves in a skipped play, as far as drawing goes: nothing (no play is drawn while skipping; a skipped static
#: wait still "draws" its moving mobjects, and an empty list would mean the whole scene).
_NOTHING_DRAWN = Mobject()


def _moving_and_static_unless_skipping(self: Scene, animations):
    """manim sorts the scene's every mobject into moving and static for the static background; a skipped play draws
    no background and no frame, so while skipping that sorting (a walk of every family) is not done."""
    if self.renderer.skip_animations:
        return [_NOTHING_DRAWN], []
    return _get_moving_and_static(self, animations)


def _save_static_frame_data_unless_skipping(self: CairoRenderer, scene, static_mobjects):
    if self.skip_animations:
        self.static_image = None
        return None
    return _save_static_frame_data(self, scene, static_mobjects)


def _render_unless_skipping(self: CairoRenderer, scene, time, moving_mobjects=None) -> None:
    if self.skip_animations:
        return
    _render(self, scene, time, moving_mobjects)


def install() -> None:
    CairoRenderer.save_static_frame_data = _save_static_frame_data_unless_skipping
    CairoRenderer.render = _render_unless_skipping
    Scene.compile_animations = _compile_animations_skipping_fades
    Transform.begin = _begin_without_a_starting_copy
    Scene.get_moving_and_static_mobjects = _moving_and_static_unless_skipping
