"""AttentionScene: the storyboard scaffolding every clip shares.

A scene's `construct()` is a list of beats; each beat is a method decorated with `@beat`. Inside a beat,
`self.say(text)` sets the subcaption, which lasts until the next `say` or the end of the beat, so every
moment of a clip has a caption. The beat log (name, start, end, captions) lets tests name the beat in which
something went wrong, and `after_animation` is the hook the layout check uses.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from collections.abc import Sequence
from typing import Callable

from manim import DOWN, UP, FadeIn, FadeOut, Mobject, MovingCameraScene, VGroup, Write

from scenes import registry

from . import camera_moves, description, layout, palette, typography
from .narration import (
    DESCRIPTION, SENTENCE_GAP, Narrator, SpokenSentence, place_sentences, reading_end, segment_length,
    sentence_cues,
)
from .text import wrapped
from .translation import _, quoted


class BeatWithoutCaption(RuntimeError):
    """Raised when a beat finishes without ever calling `say`: every beat must have a subcaption."""


class BeatWithoutNarration(ValueError):
    """Raised in a narrated render when a beat has nothing to read aloud (every `say` had an empty narration)."""


@dataclass
class BeatRecord:
    name: str
    start: float
    end: float | None = None
    captions: list[str] = field(default_factory=list)
    narration: list[str] = field(default_factory=list)  # what is read aloud, one entry per `say`
    descriptions: list[str] = field(default_factory=list)  # a described clip's audio descriptions, as said
    unnamed: list[str] = field(default_factory=list)  # captions said without a subject: the story gate holds none
    cues: list[tuple[float, float, str]] = field(default_factory=list)  # (start, end, text): the caption track's cues


def _pieces(subject: Mobject | Sequence[Mobject] | None) -> tuple[Mobject, ...]:
    if subject is None:
        return ()
    return (subject,) if isinstance(subject, Mobject) else tuple(subject)


def beat(method: Callable) -> Callable:
    """Mark a method as one beat of the storyboard (its name is the beat's name)."""

    @functools.wraps(method)
    def run(self: "AttentionScene", *args, **kwargs):
        self._start_beat(method.__name__)
        result = method(self, *args, **kwargs)
        self._end_beat()
        return result

    run.is_beat = True
    return run


class AttentionScene(MovingCameraScene):
    """Base for every clip: background, title card, beats, subcaptions and the camera that follows the work."""

    scene_id: str = ""  # the id in scenes.registry
    narrator: Narrator | None = None  # set by the render worker for a narrated clip; None renders silently
    describes: bool = False  # set by the render worker for a described clip: the voice also says what is shown

    def setup(self):
        self.camera.background_color = palette.BACKGROUND
        self.beat_log: list[BeatRecord] = []
        self.spoken: list[SpokenSentence] = []  # a narrated clip's speech, for the worker to mix into audio
        self._caption: tuple[str, float] | None = None
        self.cue_subject: tuple[Mobject, ...] = ()  # what the caption now shown talks about (story_gate)
        self._speech_end: float | None = None
        self.description_cues: list[tuple[float, float, str]] = []  # a described clip's descriptions track
        self.described_lines: set[str] = set()  # what the descriptions have said so far (never said twice)
        self._texts_before_cue: set[int] = set()  # for a caption without a subject: what was drawn as it began
        self._cue_seen: tuple[str, set[str]] | None = None  # the caption's subject as last seen: (its text, lines)

    # --- beats and subcaptions -------------------------------------------------------------------
    @property
    def spec(self) -> registry.SceneSpec:
        return registry.get(self.scene_id)

    @property
    def current_beat(self) -> str | None:
        if self.beat_log and self.beat_log[-1].end is None:
            return self.beat_log[-1].name
        return None

    def _start_beat(self, name: str) -> None:
        if self.current_beat is not None:
            raise RuntimeError(f"beat {name!r} started inside beat {self.current_beat!r}")
        self.beat_log.append(BeatRecord(name, self.time))

    def _end_beat(self) -> None:
        record = self.beat_log[-1]
        if not record.captions:
            raise BeatWithoutCaption(f"{type(self).__name__}.{record.name} never called self.say(...)")
        self._flush_caption()
        if self.narrator is not None and not any(text.strip() for text in record.narration):
            raise BeatWithoutNarration(f"{type(self).__name__}.{record.name} has nothing to read aloud: "
                                       "give one of its say() calls a narration text")
        record.end = self.time
        self.on_beat_end(record)

    def say(self, text: str, narration: str | None = None, subject: Mobject | Sequence[Mobject] | None = None
            ) -> None:
        """Set the subcaption from now until the next `say` or the end of the beat; in a silent clip, the picture
        then waits, where the caption's animations were too short, until it has been on screen long enough to read
        at READING_CPS (a narrated clip's cues follow the speech instead).

        `narration` is what a narrated clip reads aloud for this caption (default: the caption itself); it may be
        fuller than the caption. Numbers in it must come from the same traced values as the picture.
        `subject`: what the caption talks about (a grid, its row, a chart); the story gate (story_gate) holds its
        traced numbers to being on screen, legible and whole, during this caption.
        """
        if self.current_beat is None:
            raise RuntimeError("say() is only valid inside a @beat method")
        self._flush_caption()
        record = self.beat_log[-1]
        spoken = text if narration is None else narration
        self._caption = (text, self.time)
        self.cue_subject = _pieces(subject)
        self._cue_seen = None
        if self.describes and not self.cue_subject:
            self._texts_before_cue = {id(unit) for unit in description.drawn_texts(self.mobjects)}
        record.captions.append(text)
        record.narration.append(spoken)
        if not self.cue_subject:
            record.unnamed.append(text)
        if self.narrator is not None and spoken.strip():
            self._speak(record.name, spoken)

    def _speak(self, beat_name: str, text: str) -> None:
        """Place the speech from now on; the cues of a narrated clip follow the sentences as they are spoken."""
        placed = place_sentences(self.narrator, beat_name, text, self.time)
        self.spoken += placed
        self._speech_end = placed[-1].end if placed else None
        for sentence in placed:
            for start, end, cue in sentence_cues(sentence):
                self.add_subcaption(cue, duration=end - start, offset=start - self.time)
                self.beat_log[-1].cues.append((start, end, cue))

    def _flush_caption(self) -> None:
        if self._caption is None:
            return
        text, start = self._caption
        if self.narrator is not None:
            if self.describes:
                self._describe(start)
            self._hold_for_speech(start)
        else:
            if self.time > start:  # a caption with no animation of its own is not shown (nor held)
                self._hold_until(reading_end(start, text))
            duration = self.time - start
            if duration > 0:
                self.add_subcaption(text, duration=duration, offset=-duration)
                self.beat_log[-1].cues.append((start, self.time, text))
        self._caption = None

    def _look_at_subject(self) -> None:
        """After each animation of a caption: what its subject shows now, kept while the subject is in view (so a
        subject replaced by the caption's last animation is described as it was shown)."""
        subject = self.cue_subject or description.what_appeared(self.mobjects, self._texts_before_cue)
        said = set(self.described_lines)
        text = description.describe(subject, said, self.mobjects, narration=self.beat_log[-1].narration[-1])
        if text:
            self._cue_seen = (text, said - self.described_lines)

    def _describe(self, start: float) -> None:
        """Say what the caption's subject showed when last seen, right after the narration (in the pause the
        animations leave, else the picture waits for it: extended description). What the clip has described
        already is not said again."""
        if self._cue_seen is None:
            return
        (text, lines), self._cue_seen = self._cue_seen, None
        self.described_lines |= lines
        record = self.beat_log[-1]
        record.descriptions.append(text)
        at = start if self._speech_end is None else self._speech_end + SENTENCE_GAP
        placed = place_sentences(self.narrator, record.name, text, at, kind=DESCRIPTION)
        self.spoken += placed
        self._speech_end = placed[-1].end if placed else self._speech_end
        self.description_cues += [cue for sentence in placed for cue in sentence_cues(sentence)]

    def _hold_for_speech(self, start: float) -> None:
        """Where the speech outlasts the caption's animations, the picture waits: speech never runs into the next
        caption, so never into the next beat."""
        if self._speech_end is None:
            return
        self._hold_until(start + segment_length(self._speech_end - start))
        self._speech_end = None

    def _hold_until(self, until: float) -> None:
        """The picture waits (whole frames) until the clip's clock reaches `until`."""
        frame = 1 / self.camera.frame_rate
        while self.time < until - 1e-6:
            self.wait(max(until - self.time, frame))

    # --- hooks -----------------------------------------------------------------------------------
    def play(self, *args, **kwargs):
        super().play(*args, **kwargs)
        self.after_animation()

    def wait(self, *args, **kwargs):
        super().wait(*args, **kwargs)
        self.after_animation()

    def after_animation(self) -> None:
        """Called after every animation (the inspection adds its checks); a described clip looks at the caption's
        subject."""
        if self.describes and self._caption is not None:
            self._look_at_subject()

    def on_beat_end(self, record: BeatRecord) -> None:
        """Called when a beat ends; frame dumps and pixel-regression tests capture the screen here."""

    # --- the camera ------------------------------------------------------------------------------
    def frame_on(self, mob: Mobject, *animations, run_time: float = 1.2, region: layout.Region | None = None,
                 max_zoom: float = camera_moves.MAX_ZOOM) -> None:
        """Move the camera in on `mob` (the active row, head or cell) until it fills the body (or `region`), with
        the top band's formula kept still on screen; `animations` play along."""
        self.play(*camera_moves.move_camera(self, camera_moves.shot_on(mob, region, max_zoom=max_zoom)), *animations,
                  run_time=run_time)

    def pull_back(self, *animations, whole: Mobject | None = None, run_time: float = 1.2) -> None:
        """Move the camera back to the frame at rest, or out to all of `whole` when that is larger than the frame."""
        shot = camera_moves.rest_shot() if whole is None else camera_moves.shot_on_all(whole)
        self.play(*camera_moves.move_camera(self, shot), *animations, run_time=run_time)

    # --- shared beats ----------------------------------------------------------------------------
    @beat
    def show_title(self) -> None:
        """The clip's title and the post section it illustrates."""
        width = layout.frame().width
        title = _(self.spec.title)
        heading = wrapped(title, width, font_size=typography.TITLE_SIZE, bold=True)
        section = wrapped(_("from {section}").format(section=quoted(_(self.spec.section))), width,
                          font_size=typography.BODY_SIZE, color=palette.MUTED)
        card = VGroup(heading, section).arrange(DOWN, buff=layout.GAP)
        layout.fit_into(card, layout.frame(), grow=False)
        self.say(title, subject=card)
        self.play(Write(heading), FadeIn(section, shift=UP * 0.2), run_time=1.5)
        self.wait(1.0)
        self.play(FadeOut(card), run_time=0.6)

    def clear_stage(self, run_time: float = 0.6) -> None:
        """Fade out everything on screen before the next idea, and put the camera back at rest (the empty stage
        hides the jump)."""
        shown = [m for m in self.mobjects if m is not self.camera.frame]
        if shown:
            self.play(*(FadeOut(m) for m in shown), run_time=run_time)
        if not camera_moves.at_rest(self):
            camera_moves.reset_camera(self)
