"""Which voice speaks which language: English, a Piper voice (the bundled en_US "joe", or --voice); French,
espeak-ng's fr voice (espeak.py). Nothing here imports piper or runs a synthesis: it finds and checks the voice."""

from __future__ import annotations

from .espeak import EspeakVoice, resolve_espeak
from .voice import VoiceError, VoiceFiles, resolve_voice

#: --voice names a Piper .onnx voice, which reads English here; French has one voice, espeak-ng's.
FRENCH_VOICE_REFUSAL = ("--voice picks the English narration's Piper voice; French is narrated by espeak-ng's fr "
                        "voice: leave --voice out with --language fr")


def resolve_language_voice(language: str, path: str | None = None) -> VoiceFiles | EspeakVoice:
    """The voice that narrates `language`: VoiceError/EspeakError (one line, ValueErrors) if it cannot be used."""
    if language == "fr":
        if path is not None:
            raise VoiceError(FRENCH_VOICE_REFUSAL)
        return resolve_espeak()
    return resolve_voice(path)
