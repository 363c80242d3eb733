"""Narration text to speech samples, each sentence synthesised once and then read from a disk cache.

A sentence's cache key is a sha256 over everything that decides its samples: the spoken words, the voice model's
and config's contents, the fixed synthesis settings and the engine's version (for the French voice, espeak-ng: its
version, its data files' hash and its settings; see espeak.py). The voice decides the language: a French voice's
sentences are read through the French pronunciation table (pronounce_fr.py), an English one's through pronounce.py.
A second render of an unchanged clip therefore synthesises nothing and needs no voice loaded at all (the voice is loaded on the first miss only).
Entries are 16-bit mono WAV files (listenable when debugging, half the size of float32; the clip's audio is 16-bit
or AAC anyway) written atomically, and a fresh synthesis is quantised the same way, so a hit and a miss return
the same samples. A corrupt or unreadable entry is a miss and is rewritten.
"""

from __future__ import annotations

import hashlib
import io
import json
import wave
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from rendering.atomic import write_bytes
from rendering.cache_root import cache_folder
from . import pronounce, pronounce_fr
from .espeak import EspeakVoice
from .pronounce import sentences
from .voice import SYNTHESIS, Voice, VoiceFiles, engine_version

SENTENCE_PAUSE = 0.2  # seconds of silence between two sentences of one speak() call (the kit's SENTENCE_GAP)
KEY_SCHEMA = "speech-v1"
_INT16_MAX = 32767


def default_cache_dir() -> Path:
    """`$ATTENTION_CACHE_DIR/speech`, else `~/.cache/attention-animated/speech`."""
    return cache_folder("speech")


@lru_cache(maxsize=8)
def _file_sha256(path: str, size: int, mtime_ns: int) -> str:
    """Content hash, once per process per file version (the model is ~60 MB: ~0.3 s to hash)."""
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def file_sha256(path: Path) -> str:
    stat = path.stat()
    return _file_sha256(str(path.resolve()), stat.st_size, stat.st_mtime_ns)


@dataclass(frozen=True)
class Speech:
    """Mono float32 samples at `rate` Hz."""

    samples: np.ndarray = field(repr=False)
    rate: int

    @property
    def duration(self) -> float:
        return len(self.samples) / self.rate


def _to_int16(samples: np.ndarray) -> np.ndarray:
    return np.round(np.clip(samples, -1.0, 1.0) * _INT16_MAX).astype("<i2")


def _wav_bytes(pcm: np.ndarray, rate: int) -> bytes:
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(rate)
        wav.writeframes(pcm.tobytes())
    return buffer.getvalue()


def _read_wav(path: Path) -> tuple[np.ndarray, int] | None:
    """(int16 samples, rate), or None for an absent, truncated or foreign file (a cache miss)."""
    try:
        with wave.open(str(path), "rb") as wav:
            if wav.getnchannels() != 1 or wav.getsampwidth() != 2:
                return None
            frames = wav.getnframes()
            data = wav.readframes(frames)
            rate = wav.getframerate()
    except (OSError, EOFError, wave.Error):
        return None
    if len(data) != 2 * frames:
        return None
    return np.frombuffer(data, dtype="<i2"), rate


class Narrator:
    """Speaks narration text with one voice, through the sentence cache.

    `voice_files` is a Piper voice (VoiceFiles: English) or the espeak-ng French voice (EspeakVoice).
    `synthesized` and `cache_hits` count sentences since construction: a second render of the same text
    synthesises nothing."""

    def __init__(self, voice_files: VoiceFiles | EspeakVoice, cache_dir: Path | None = None) -> None:
        self.voice_files = voice_files
        self.cache_dir = Path(cache_dir) if cache_dir is not None else default_cache_dir()
        self.synthesized = 0
        self.cache_hits = 0
        self._voice: Voice | EspeakVoice | None = None
        if isinstance(voice_files, EspeakVoice):
            self.language, rules = voice_files.language, pronounce_fr
            # what decides one sentence's samples, besides its words
            self._key_parts = (KEY_SCHEMA, *voice_files.identity())
        else:
            self.language, rules = "en", pronounce
            settings = json.dumps(SYNTHESIS.as_dict(), sort_keys=True)
            self._key_parts = (KEY_SCHEMA, file_sha256(voice_files.model), file_sha256(voice_files.config), settings,
                               engine_version())
        self._spoken = rules.spoken
        # what decides speak()'s output for a given text: that, the pronunciation rules and the pause
        self.fingerprint: str = _digest((*self._key_parts, file_sha256(Path(rules.__file__)),
                                         f"pause={SENTENCE_PAUSE}"))

    def sentence_key(self, sentence: str) -> str:
        """The cache key of one spoken sentence (plain words, as pronounce.spoken or pronounce_fr.spoken returns
        them)."""
        return _digest((*self._key_parts, sentence))

    def speak(self, text: str) -> Speech:
        """The speech of `text` (a caption or narration, as written): its sentences one after another with
        SENTENCE_PAUSE between them. Empty text is a ValueError."""
        if not text.strip():
            raise ValueError("nothing to speak: the narration text is empty")
        words = [self._spoken(sentence) for sentence in sentences(text)]
        words = [sentence for sentence in words if sentence]
        if not words:
            raise ValueError(f"nothing to speak: {text!r} has no words to read aloud")
        pieces, rate = [], None
        for sentence in words:
            pcm, rate = self._sentence(sentence)
            if pieces:
                pieces.append(np.zeros(round(SENTENCE_PAUSE * rate), dtype="<i2"))
            pieces.append(pcm)
        samples = np.concatenate(pieces).astype(np.float32) / _INT16_MAX
        return Speech(samples=samples, rate=rate)

    def _sentence(self, sentence: str) -> tuple[np.ndarray, int]:
        path = self.cache_dir / f"{self.sentence_key(sentence)}.wav"
        cached = _read_wav(path)
        if cached is not None:
            self.cache_hits += 1
            return cached
        if self._voice is None:
            files = self.voice_files
            self._voice = files.load() if isinstance(files, EspeakVoice) else Voice.load(files)
        pcm = _to_int16(self._voice.synthesize(sentence))
        rate = self._voice.sample_rate
        write_bytes(path, _wav_bytes(pcm, rate))
        self.synthesized += 1
        return pcm, rate


def _digest(parts) -> str:
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8")
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()
