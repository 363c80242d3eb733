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
from scipy.ndimage import maximum_filter1d

from .audio import (
    OUTPUT_RATE, TARGET_LUFS, TRUE_PEAK_CEILING_DBTP, AudioLevels, interval_true_peaks, mix, normalise,
)
from .limiter import GRID_SAMPLES
from .mux import add_audio, decoded_samples, probe_audio
from .pronounce import sentences
from .speech import Narrator
from .true_peak import AIM_UNDER_DB, MAX_ENCODES, OVERSHOOT_SPREAD_SAMPLES
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


# MAX_ENCODES, OVERSHOOT_SPREAD_SAMPLES, AIM_UNDER_DB: how far and how often a ceiling is lowered (true_peak.py,
# which holds the film's and the decks' sound, encoded again, the same way).


def encode_within_true_peak(track: np.ndarray, silent: dict[str, Path], narrated: dict[str, Path]) -> AudioLevels:
    """Normalise `track` (audio.normalise) and mux it into every `silent` video as `narrated`; then decode each
    file, and wherever one passes TRUE_PEAK_CEILING_DBTP, lower the limiter's ceiling there (around the overshoot,
    by it and a margin) and encode them all again, until every file holds (at most MAX_ENCODES encodes: more is a
    RuntimeError naming the figure). One track for every file, so the mp4 and the webm say the same. Returns the
    levels of the track encoded."""
    ceiling = 10 ** (TRUE_PEAK_CEILING_DBTP / 20)
    lowered = None
    for _encode in range(MAX_ENCODES):
        normalised, levels = normalise(track, OUTPUT_RATE, lowered)
        overshoot = np.full(-(-len(normalised) // GRID_SAMPLES), -np.inf)  # dB over the ceiling, per interval
        for fmt, source in silent.items():
            add_audio(source, normalised, OUTPUT_RATE, narrated[fmt])
            decoded = np.zeros(len(normalised))
            played = decoded_samples(narrated[fmt])[:len(normalised)]
            decoded[:len(played)] = played
            with np.errstate(divide="ignore"):
                overshoot = np.maximum(overshoot, 20 * np.log10(interval_true_peaks(decoded) / ceiling))
        worst = float(overshoot.max(initial=-np.inf))
        if not worst > 0:
            return levels
        need = maximum_filter1d(np.maximum(overshoot + AIM_UNDER_DB, 0.0),
                                2 * (OVERSHOOT_SPREAD_SAMPLES // GRID_SAMPLES) + 1)
        lowered = need if lowered is None else lowered + need
    raise RuntimeError(f"the decoded narration still peaks {worst:.2f} dB over {TRUE_PEAK_CEILING_DBTP} dBTP after "
                       f"{MAX_ENCODES} encodes")


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
