"""The languages a caption names come from the example (`source_language`, `target_language`), never typed."""

from __future__ import annotations

import dataclasses

import pytest

from attention_math import example_spec
from conftest import ROOT
from scenes.kit.base import BeatRecord
from scenes.quality.inspection import typed_claim_problems
from scenes.kit import languages

GERMAN = """name = "german"
[encoder_decoder]
english = ["ich", "trinke", "Tee"]
french_so_far = ["je", "bois"]
next_word = "thé"
width = 3
seed = 1
source_language = "German"
[self_attention]
tokens = ["a", "b"]
width = 2
seed = 1
[translator]
english = ["I", "love", "tea"]
"""


def _german(tmp_path):
    path = tmp_path / "german.toml"
    path.write_text(GERMAN, encoding="utf-8")
    return path


def test_an_example_names_its_languages_and_the_post_keeps_english_and_french(tmp_path):
    spec = example_spec.read(_german(tmp_path))
    assert (spec.encoder_decoder.source_language, spec.encoder_decoder.target_language) == ("German", "French")
    post = example_spec.read(ROOT / "examples" / "post.toml").encoder_decoder
    assert (post.source_language, post.target_language) == ("English", "French")


@pytest.mark.parametrize("bad, words", [('source_language = "French"', "both 'French'"),
                                        ('source_language = "Old Norse"', "without spaces")])
def test_a_language_pair_that_cannot_be_named_is_refused_in_one_line(tmp_path, bad, words):
    path = tmp_path / "bad.toml"
    path.write_text(GERMAN.replace('source_language = "German"', bad), encoding="utf-8")
    with pytest.raises(example_spec.ExampleError) as error:
        example_spec.read(path)
    assert words in str(error.value) and "\n" not in str(error.value)


def test_the_kit_reads_the_active_examples_languages(tmp_path, monkeypatch):
    monkeypatch.setenv(example_spec.EXAMPLE_ENV_VAR, str(_german(tmp_path)))
    assert (languages.source_language(), languages.target_language()) == ("German", "French")


def test_the_typed_claim_gate_catches_a_language_typed_for_the_post(tmp_path):
    german = example_spec.read(_german(tmp_path))
    beats = [BeatRecord("encode", 0.0, 1.0, captions=["The encoder reads the English"], narration=["the German"]),
             BeatRecord("fine", 1.0, 2.0, captions=["The German sentence"], narration=["French so far"])]
    problems = typed_claim_problems("teacher_forcing", beats, german)
    assert len(problems) == 1 and "beat encode" in problems[0] and "'English'" in problems[0]
    # the trained translator's corpus is English→French, whatever the example
    assert typed_claim_problems("learned_alignment", beats[:1], german) == []
    assert typed_claim_problems("teacher_forcing", beats, dataclasses.replace(
        german, encoder_decoder=dataclasses.replace(german.encoder_decoder, source_language="English"))) == []


@pytest.mark.slow
@pytest.mark.parametrize("scene_id", ["teacher_forcing", "bottleneck", "coffee_cafe", "soft_formula"])
def test_the_encoder_decoder_clips_name_the_examples_languages(scene_id, tmp_path, monkeypatch):
    """Each encoder-decoder clip, run headless for an example read from German: no caption or narration names
    English (the gate above), and the source language is named where the post's clip says "English"."""
    from scenes.quality.inspection import inspect_scene_class

    monkeypatch.setenv(example_spec.EXAMPLE_ENV_VAR, str(_german(tmp_path)))
    report = inspect_scene_class(scene_id, scene_id)
    spec = example_spec.read(_german(tmp_path))
    assert typed_claim_problems(scene_id, report.beat_log, spec) == []
    said = " ".join(text for record in report.beat_log for text in record.captions + record.narration)
    assert "German" in said
