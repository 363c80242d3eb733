"""Every real scene, narrated with the real voice: each sentence is spoken inside its beat.

The scenes run headless (animations skipped): the storyboard's clock is the one the speech is placed on, so the
timing is the same as a render's without drawing a frame; render.py's narrated renders are tested with fixture scenes
in test_narration_render.py and with bottleneck in test_end_to_end.py.
"""

from __future__ import annotations

import os

import pytest

from conftest import per_scene
from rendering.narration.audio import OUTPUT_RATE, mix
from rendering.narration.soundtrack import make_narrator
from scenes.kit.narration import PAUSE_AFTER_SPEECH
from scenes.quality.headless import run_headless
from scenes.registry import SCENES

pytestmark = pytest.mark.slow
MAX_NARRATED_SECONDS = 180  # a narrated clip may run longer than its silent twin, but stays a short clip


@pytest.fixture(scope="module")
def narrator():
    return make_narrator({"voice": None, "cache_dir": os.environ.get("NARRATION_CACHE_DIR")})


@pytest.mark.parametrize("spec", per_scene(SCENES, lambda s: s.id))  # in the scene's worker: its Typst texts are cached
def test_every_sentence_is_spoken_inside_its_beat(spec, narrator, monkeypatch):
    scene_class = getattr(__import__(spec.module, fromlist=[spec.class_name]), spec.class_name)
    monkeypatch.setattr(scene_class, "narrator", narrator)
    scene = run_headless(scene_class)
    beats = {record.name: record for record in scene.beat_log}
    assert scene.spoken, "a narrated scene speaks"
    spoken_beats = {sentence.beat for sentence in scene.spoken}
    assert spoken_beats == set(beats), f"beats with no speech: {sorted(set(beats) - spoken_beats)}"
    for sentence in scene.spoken:
        beat = beats[sentence.beat]
        assert beat.start <= sentence.start, (sentence.beat, sentence.text)
        assert sentence.end + PAUSE_AFTER_SPEECH <= beat.end + 1e-6, (sentence.beat, sentence.text, beat.end)
    for earlier, later in zip(scene.spoken, scene.spoken[1:]):
        assert earlier.end <= later.start, f"{earlier.text!r} overlaps {later.text!r}"
    length = scene.renderer.time
    assert length <= MAX_NARRATED_SECONDS, f"{spec.id} narrated lasts {length:.1f} s"
    # the whole speech fits the clip's soundtrack (mix refuses speech that runs past the end)
    mix([(s.start, s.speech.samples, s.speech.rate) for s in scene.spoken], length, OUTPUT_RATE)
