"""A narrated clip's sound, in the render worker: the scene's narrator, then its placed speech as one audio track.

The scene (scenes/kit/base.py) asks the narrator for each sentence while it renders and waits where the speech is
longer than the picture; what it leaves in `scene.spoken` is where every sentence starts. Here those sentences
become a track exactly as long as the video, normalised to the loudness target, muxed into every video file; and
what each file decodes to is held under the true-peak ceiling (encode_within_true_peak).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from .audio import OUTPUT_RATE, TARGET_LUFS, AudioLevels, mix, normalise
from .mux import add_audio, probe_audio
from .pronounce import sentences
from .speech import Narrator
from .true_peak import encode_until_under
from .voices import resolve_language_voice


class SceneNarrator:
    """What a scene needs from the voice: sentences to speak, and the speech of one sentence."""

    def __init__(self, narrator: Narrator) -> None:
        self.narrator = narrator

    def sentences(self, text: str) -> list[str]:
        return sentences(text)

    def speak(self, sentence: str):
        return self.narrator.speak(sentence)


def make_narrator(settings: dict) -> SceneNarrator:
    """`settings` is the job's narration entry: {"voice": model path or None, "cache_dir": folder or None,
    "language": the clip's language (English when absent)}; the language picks the voice (voices.py)."""
    voice = resolve_language_voice(settings.get("language", "en"), settings.get("voice"))
    cache_dir = settings.get("cache_dir")
    return SceneNarrator(Narrator(voice, Path(cache_dir) if cache_dir else None))


def add_soundtrack(spoken, silent: dict[str, Path], narrated: dict[str, Path], *, frames: int, fps: int) -> dict:
    """Mix the placed sentences into one track of the video's exact length and mux it into each video file.

    Returns the audio facts the manifest lists."""
    duration = frames / fps
    track = mix([(sentence.start, sentence.speech.samples, sentence.speech.rate) for sentence in spoken], duration)
    levels = encode_within_true_peak(track, silent, narrated)
    codecs = {}
    for fmt, source in silent.items():
        source.unlink()
        facts = probe_audio(narrated[fmt])
        if facts is None:
            raise RuntimeError(f"the narrated {fmt} has no audio stream")
        codecs[fmt] = facts.codec
        channels, sample_rate = facts.channels, facts.sample_rate
        if fmt == "mp4":
            audio_duration = facts.duration
    return {"codecs": codecs, "sample_rate": sample_rate, "channels": channels,
            "duration": round(audio_duration, 6), "loudness_lufs": _finite(levels.loudness_lufs),
            "peak_dbfs": _finite(levels.peak_dbfs), "target_lufs": TARGET_LUFS}


def encode_within_true_peak(track: np.ndarray, silent: dict[str, Path], narrated: dict[str, Path]) -> AudioLevels:
    """Normalise `track` (audio.normalise) and mux it into every `silent` video as `narrated`, each file decoded
    under TRUE_PEAK_CEILING_DBTP: where one passes it, the limiter's ceiling is lowered there and all are encoded
    again (true_peak.encode_until_under, the loop the film and the decks share). One track for every file, so the
    mp4 and the webm say the same. Returns the levels of the track encoded."""
    encoded: list[AudioLevels] = []

    def encode(lowered: np.ndarray | None) -> tuple[list[Path], int]:
        normalised, levels = normalise(track, OUTPUT_RATE, lowered)
        encoded.append(levels)
        for fmt, source in silent.items():
            add_audio(source, normalised, OUTPUT_RATE, narrated[fmt])
        return [narrated[fmt] for fmt in silent], len(normalised)

    encode_until_under(encode, "narration")
    return encoded[-1]


def _finite(level: float) -> float | None:
    """A silent track has no loudness (-inf), which JSON cannot hold: the manifest says null."""
    return round(level, 2) if math.isfinite(level) else None


def transcript(beat_log, spoken) -> list[dict]:
    """Per beat: its span, the narration read aloud, and where each sentence sits (the page and tests use it); in
    a described clip also its audio descriptions, and each sentence's kind (narration or description)."""
    entries = []
    for record in beat_log:
        said = [s for s in spoken if s.beat == record.name and record.start <= s.start <= record.end]
        entry = {
            "beat": record.name, "start": round(record.start, 6), "end": round(record.end, 6),
            "text": " ".join(text.strip() for text in record.narration if text.strip()),
            "speech": [{"start": round(s.start, 6), "end": round(s.end, 6), "text": s.text,
                        **({"kind": s.kind} if s.kind != "narration" else {})} for s in said],
        }
        if getattr(record, "descriptions", None):
            entry["descriptions"] = list(record.descriptions)
        entries.append(entry)
    return entries
