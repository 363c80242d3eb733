"""Example files: the post's example is one, edge examples sit at the limits, and a bad file fails in one line.

Expected values come from the post (toy_data, typed from the post separately from examples/post.toml) or from the
files' own text, never from the code under test.
"""

from __future__ import annotations

import math
import tomllib

import pytest
import torch

from attention_math import example_spec, examples, toy_data
from attention_math.example_spec import ExampleError
from conftest import ROOT

EXAMPLE_FILES = sorted((ROOT / "examples").glob("*.toml"))
EDGE_NAMES = {"tiny", "wide", "long-word"}


def _post_dict() -> dict:
    return tomllib.loads((ROOT / "examples" / "post.toml").read_text())


def test_the_post_example_file_holds_the_posts_numbers():
    spec = example_spec.post()
    ed, sa = spec.encoder_decoder, spec.self_attention
    assert ed.english == toy_data.COFFEE_TOKENS and ed.french_so_far == toy_data.COFFEE_FRENCH_SO_FAR
    assert ed.next_word == toy_data.COFFEE_NEXT_WORD and ed.wrong_first_word == toy_data.WRONG_FIRST_WORD
    assert ed.french_reference + (toy_data.END_TOKEN,) == toy_data.FRENCH_REFERENCE
    assert ed.decoder_state == toy_data.S_DECODER and ed.W_q == toy_data.W_Q_COFFEE
    assert ed.encoder_states == toy_data.H_COFFEE and ed.illustrative_weights == toy_data.ILLUSTRATIVE_WEIGHTS
    assert sa.tokens == toy_data.RAIN_TOKENS and sa.embeddings == toy_data.RAIN_X
    assert sa.query_index == toy_data.RAIN_QUERY_INDEX
    assert (sa.d_k, sa.heads, sa.d_out, sa.dropout) == (2, 2, 4, 0.25)


def test_without_a_choice_the_clips_use_the_post_example(monkeypatch):
    monkeypatch.delenv(example_spec.EXAMPLE_ENV_VAR, raising=False)
    assert examples.active_spec() == example_spec.post()
    assert examples.load("rain").tokens == toy_data.RAIN_TOKENS


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.stem)
def test_every_kept_example_is_valid_and_its_records_follow_its_sizes(path):
    spec = example_spec.read(path)
    raw = tomllib.loads(path.read_text())
    assert spec.name == raw["name"] == path.stem
    records = examples.build_all(spec, learned=False)
    T = len(raw["self_attention"]["tokens"])
    width = raw["self_attention"].get("width") or len(raw["self_attention"]["embeddings"][0])
    assert records["rain"].X.shape == (T, width)
    assert records["qkv"].Q.shape == (T, raw["self_attention"]["d_k"])
    m = records["multihead"]
    assert m.weights.shape == (raw["self_attention"]["heads"], T, T)
    assert m.head_dim * m.n_heads == raw["self_attention"]["d_out"]
    assert records["coffee"].H.shape[0] == len(raw["encoder_decoder"]["english"])
    assert records["teacher_forcing"].reference[:-1] == tuple(raw["encoder_decoder"]["french_so_far"]) + (
        raw["encoder_decoder"]["next_word"],)


def test_the_edge_examples_reach_the_limits():
    specs = {p.stem: example_spec.read(p) for p in EXAMPLE_FILES if p.stem in EDGE_NAMES}
    assert set(specs) == EDGE_NAMES
    token_counts = {len(s.self_attention.tokens) for s in specs.values()}
    widths = {len(s.self_attention.embeddings[0]) for s in specs.values()}
    heads = {s.self_attention.heads for s in specs.values()}
    assert {2, 8} <= token_counts and {2, 6} <= widths and {1, 4} <= heads
    words = [w for s in specs.values() for w in s.self_attention.tokens + s.encoder_decoder.english]
    assert "internationalization" in words
    values = [v for row in specs["long-word"].self_attention.embeddings for v in row]
    assert sum(v < 0 for v in values) > 0.75 * len(values)  # negative-heavy


def test_seeded_numbers_are_reproducible_and_rounded():
    a, b = example_spec.read(ROOT / "examples" / "wide.toml"), example_spec.read(ROOT / "examples" / "wide.toml")
    assert a == b and hash(a) == hash(b)
    for value in (v for row in a.self_attention.embeddings for v in row):
        assert math.isclose(value * 10, round(value * 10), abs_tol=1e-6)


def _bad(mutate) -> str:
    data = _post_dict()
    mutate(data)
    with pytest.raises(ExampleError) as caught:
        example_spec.from_dict(data, "my.toml")
    message = str(caught.value)
    assert "\n" not in message and message.startswith("my.toml: ")
    return message


def test_an_unknown_key_names_the_nearest_valid_one():
    message = _bad(lambda d: d["self_attention"].update(tokns=["a", "b"]))
    assert "self_attention.tokns" in message and "did you mean 'tokens'" in message


def test_wrong_shapes_are_named_with_the_shape_expected():
    message = _bad(lambda d: d["self_attention"].update(embeddings=[[0.1, 0.2, 0.3]] * 3))
    assert "self_attention.embeddings" in message and "4 rows" in message
    message = _bad(lambda d: d["encoder_decoder"].update(W_q=[[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]]))
    assert "encoder_decoder.W_q" in message and "3 numbers" in message


def test_non_finite_numbers_are_refused():
    message = _bad(lambda d: d["encoder_decoder"]["encoder_states"][1].__setitem__(0, float("nan")))
    assert "encoder_decoder.encoder_states" in message and "finite" in message
    message = _bad(lambda d: d["self_attention"]["embeddings"][0].__setitem__(2, float("inf")))
    assert "finite" in message


def test_too_many_tokens_and_an_empty_sentence_name_the_valid_range():
    message = _bad(lambda d: d["self_attention"].update(tokens=list("abcdefghijklm"), embeddings=[[0.0] * 3] * 13))
    assert "self_attention.tokens has 13 words; valid: 2–12" in message
    message = _bad(lambda d: d["encoder_decoder"].update(english=[]))
    assert "encoder_decoder.english" in message and "2–12" in message


def test_a_long_english_sentence_names_its_letter_count():
    words = ["mat", "very", "warm", "cat", "internationalization", "slept", "and", "internationalization",
             "internationalization"]
    message = _bad(lambda d: d["encoder_decoder"].update(english=words, width=6, seed=1) or [
        d["encoder_decoder"].pop(k) for k in ("decoder_state", "W_q", "encoder_states", "illustrative_weights")])
    assert "encoder_decoder.english has 82 letters in all; valid: at most 64" in message


def test_heads_must_divide_d_out():
    message = _bad(lambda d: d["self_attention"].update(heads=3, d_out=4))
    assert "heads = 3 does not divide d_out = 4" in message and "valid heads for this d_out: 1, 2, 4" in message


def test_out_of_range_sizes_name_the_range():
    assert "valid: 1–4" in _bad(lambda d: d["self_attention"].update(d_k=5))
    assert "valid: 0.0 ≤ value < 1.0" in _bad(lambda d: d["self_attention"].update(dropout=1.0))
    assert "width 7; valid: 2–6" in _bad(lambda d: d["self_attention"].update(embeddings=[[0.0] * 7] * 4))


def test_a_word_the_translator_does_not_know_is_listed_with_how_to_see_the_vocabulary():
    message = _bad(lambda d: d["translator"].update(english=["I", "adore", "croissants"]))
    assert "translator.english" in message and "'adore', 'croissants'" in message
    assert "render.py --vocabulary" in message


def test_a_missing_file_and_bad_toml_are_one_line(tmp_path):
    with pytest.raises(ExampleError, match="no such example file"):
        example_spec.read(tmp_path / "nope.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("name = \n")
    with pytest.raises(ExampleError, match="not valid TOML"):
        example_spec.read(broken)


def test_build_takes_a_spec_and_matches_the_post_by_default():
    tiny = example_spec.read(ROOT / "examples" / "tiny.toml")
    rain = examples.build("rain", tiny)
    assert rain.tokens == ("cats", "sleep")
    assert torch.equal(examples.build("rain").X, toy_data.rain_x())
