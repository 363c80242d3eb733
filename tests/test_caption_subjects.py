"""Every caption names its subject (`say(..., subject=...)`): what it talks about, which the story gate then holds
to being on screen, legible and whole, during the cue. A caption said without one would be held to nothing."""

from __future__ import annotations

import pytest

from conftest import per_scene
from scenes.quality.inspection import inspect_scene
from scenes.registry import SCENES


@pytest.mark.parametrize("scene_id", per_scene([spec.id for spec in SCENES]))
def test_every_caption_of_the_post_names_its_subject(scene_id):
    beats = inspect_scene(scene_id).beat_log
    unnamed = [f"beat {beat.name}: {caption!r}" for beat in beats for caption in beat.unnamed]
    assert sum(len(beat.captions) for beat in beats) > 0
    assert not unnamed, "captions without a subject:\n" + "\n".join(unnamed)
