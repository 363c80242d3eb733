"""Do no work for an animation that is skipped beyond reaching its end state.

When manim skips an animation (every animation of a headless run, and every one before a chunk's window in a
render), it still does everything but write the frame:
- its Cairo renderer draws the scene's static mobjects into a background, then the moving ones over it, and
  throws both pictures away (`add_frame` writes nothing while skipping);
- a fade still copies its mobject twice, aligns the copies point by point and interpolates them, to arrive where
  it started: a FadeOut puts its mobject back as it was and takes it out of the scene, a FadeIn ends on its
  mobject as it was, in the scene.
That was a third of a headless run. Here, while skipping, nothing is drawn; and a play of fades alone, on separate
mobjects, becomes what it amounts to: each mobject added or removed, left as it is, the run time kept. (A play of
anything else takes manim's path: how animations of one play interact is manim's to say.) Whatever needs a picture
draws its own: the next played animation its background, a still image at the scene's end, the headless runner
every beat's end. Drawing nothing also fixes the headless picture of a beat that ends in a wait: the background
kept from that wait was drawn under the whole scene again, doubling every translucent fill, a picture no video
frame shows.
"""

from __future__ import annotations

from manim import Animation, FadeIn, FadeOut, Scene
from manim.renderer.cairo_renderer import CairoRenderer

_save_static_frame_data = CairoRenderer.save_static_frame_data
_render = CairoRenderer.render
_compile_animations = Scene.compile_animations


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
    if not self.renderer.skip_animations or not _only_separate_fades(animations):
        return animations
    return [_SkippedFade(a) for a in animations]


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
