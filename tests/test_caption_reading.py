"""A silent clip's captions can be read (issue 43): every cue stays on screen long enough for its text at no more than
20 characters a second, in English and in French. A silent cue lasts as long as its caption's animations, which
French, 15–30 % longer, and long English captions outran; the picture now waits where they are too short.

Measured on the caption track a render writes (the WebVTT of a headless run: same clock, same subcaptions), and on
the cues every scene logs, from the runs the quality gates make."""

from __future__ import annotations

import html

import pytest
from manim import Circle, Create, FadeIn, Square

from conftest import per_scene
from rendering.encode.captions import Cue, parse_webvtt, to_webvtt
from scenes.kit import AttentionScene, beat
from scenes.kit.translation import LANGUAGE_ENV_VAR, LANGUAGES
from scenes.quality.headless import run_headless
from scenes.quality.inspection import inspect_scene
from scenes.registry import scene_ids

#: The usual subtitle ceiling (characters a second, spaces counted): what the issue asks for.
MAX_CPS = 20


def shown(text: str) -> str:
    """A cue's text as a viewer reads it: markup escapes undone, a line break or run of spaces one space."""
    return " ".join(html.unescape(text).split())


def rate(start: float, end: float, text: str) -> float:
    return len(shown(text)) / (end - start)


def vtt_cues(scene) -> list[Cue]:
    """The .vtt a render of this scene writes, read back (rendering.encode.worker makes it the same way)."""
    writer = scene.renderer.file_writer
    track = to_webvtt([Cue(sub.start.total_seconds(), sub.end.total_seconds(), sub.content)
                       for sub in writer.subcaptions])
    return parse_webvtt(track)


class QuickCaptions(AttentionScene):
    """One beat: a long caption over a short animation, then a short caption over a long one."""

    scene_id = "summary"  # any registered id: the title card is not played here

    def construct(self):
        self.two_captions()

    @beat
    def two_captions(self):
        self.say("A caption of sixty characters, shown over a one-second draw.")
        self.play(Create(Square()), run_time=1)
        self.say("Short one.")
        self.play(FadeIn(Circle()), run_time=2)


def test_a_long_caption_over_a_short_animation_is_held_until_it_can_be_read_and_a_short_one_is_not():
    scene = run_headless(QuickCaptions)
    (first, second) = vtt_cues(scene)
    assert len(shown(first.text)) == 60
    # held for its 3 s of reading, up to the next 0.2 s step of the clock (whole frames at every frame rate)
    assert 60 / MAX_CPS <= first.end - first.start <= 60 / MAX_CPS + 0.2 + 1e-6
    assert second.end - second.start == pytest.approx(2.0)  # its animation already gives it time
    assert scene.beat_log[0].end == pytest.approx(second.end)


#: The two clips whose silent cues ran fastest (54 and 65 cps before the hold): their real caption tracks.
FASTEST = ("coffee_cafe", "soft_formula")


@pytest.mark.parametrize("case", per_scene([(scene_id, language) for scene_id in FASTEST for language in LANGUAGES],
                                           scene_id=lambda case: case[0], name="-".join))
def test_a_clips_caption_track_reads_at_most_20_characters_a_second(case, monkeypatch):
    scene_id, language = case
    monkeypatch.setenv(LANGUAGE_ENV_VAR, language)
    scene = run_headless(scene_id)
    cues = vtt_cues(scene)
    assert len(cues) == sum(len(record.captions) for record in scene.beat_log)  # every caption is shown
    too_fast = [f"{rate(c.start, c.end, c.text):.1f} cps: {shown(c.text)!r}" for c in cues
                if rate(c.start, c.end, c.text) > MAX_CPS]
    assert not too_fast, "\n".join(too_fast)


@pytest.mark.parametrize("case", per_scene([(scene_id, language) for scene_id in scene_ids() for language in LANGUAGES],
                                           scene_id=lambda case: case[0], name="-".join))
def test_every_clips_captions_read_at_most_20_characters_a_second(case, monkeypatch):
    """Every scene, both languages, from the headless run the other gates share (`inspect_scene`): each beat's
    cues, as the caption track carries them."""
    scene_id, language = case
    monkeypatch.setenv(LANGUAGE_ENV_VAR, language)
    report = inspect_scene(scene_id)
    cues = [cue for record in report.beat_log for cue in record.cues]
    assert [text for _start, _end, text in cues] == report.subcaptions
    assert len(cues) == sum(len(record.captions) for record in report.beat_log)
    too_fast = [f"{rate(*cue):.1f} cps: {shown(cue[2])!r}" for cue in cues if rate(*cue) > MAX_CPS]
    assert not too_fast, "\n".join(too_fast)


def spoken(text: str, seconds: float, start: float = 10.0):
    from types import SimpleNamespace

    from scenes.kit.narration import SpokenSentence

    return SpokenSentence("beat", start, text, SimpleNamespace(duration=seconds))


#: A sentence of 108 characters (two cues of at most 84), and the quiet after one before anything else is said.
SENTENCE = ("The encoder reads the English sentence from left to right, and the decoder writes French one word at a "
            "time.")
QUIET_AFTER = 0.2  # narration.SENTENCE_GAP: the next sentence starts this much later (the next caption 0.4 s)


def test_a_narrated_sentence_spoken_a_little_fast_keeps_its_cues_until_they_can_be_read():
    """French speech reached 20.5 characters a second in a cue (bottleneck); its cues now stay into the quiet after
    it, never past it, and start with the speech."""
    from scenes.kit.narration import sentence_cues

    assert len(SENTENCE) == 108
    cues = sentence_cues(spoken(SENTENCE, 108 / 20.5))  # 20.5 characters a second
    assert len(cues) >= 2 and cues[0][0] == 10.0
    assert all(rate(*cue) <= MAX_CPS for cue in cues), [round(rate(*cue), 2) for cue in cues]
    shown_chars = sum(len(text) for _start, _end, text in cues)  # (the space between two cues is not shown)
    assert 10.0 + shown_chars / MAX_CPS <= cues[-1][1] <= 10.0 + 108 / 20.5 + QUIET_AFTER
    slow = sentence_cues(spoken(SENTENCE, 8.0))  # 13.8 a second: the cues follow the speech exactly
    assert slow[-1][1] == pytest.approx(18.0)
    fast = sentence_cues(spoken(SENTENCE, 108 / 30))  # far too fast to catch up in the quiet: it takes all of it
    assert fast[-1][1] == pytest.approx(10.0 + 108 / 30 + QUIET_AFTER)
