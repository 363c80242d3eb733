"""The French voice: espeak-ng's `fr` voice, run as a separate program, one sentence at a time.

espeak-ng is GPL-3.0-or-later; the project (MIT) only runs the `espeak-ng` program and reads the WAV file it writes,
as it uses piper: nothing is linked or imported. It comes from Debian main (`apt-get install espeak-ng`, which
scripts/bootstrap.sh does): no French Piper voice is published on PyPI, and none is downloaded at run time.

The voice's identity (the engine's version and a hash of the data files that decide a French sentence's sound) is
part of every sentence's cache key and of a narrated French clip's input hash, so a new espeak-ng rebuilds them.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import tempfile
import wave
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

PROGRAM = "espeak-ng"
INSTALL_HINT = "French narration needs espeak-ng: apt-get install espeak-ng (./dev.sh installs it)"
# The data files that decide how the fr voice sounds: the phonemes and their sounds, the intonation, the French
# dictionary and voice, and the English ones (the fr voice reads words its dictionary marks as English, such as
# "coffee", with the English rules).
DATA_FILES = ("phondata", "phonindex", "phontab", "intonations", "fr_dict", "en_dict", "lang/roa/fr", "lang/gmw/en")
_VERSION = re.compile(r"text-to-speech:\s*(\S+)\s+Data at:\s*(.+?)\s*$", re.MULTILINE)


class EspeakError(ValueError):
    """espeak-ng is missing or unusable; the message is one line that says how to fix it."""


@dataclass(frozen=True)
class EspeakSettings:
    """Fixed synthesis settings, part of every cache key.

    rate 160 (words a minute, espeak's unit; its default is 175) measured on four narration sentences: 4.5
    syllables and 3.2 words a second, a calm teaching pace. espeak's default 175 gives 4.9 syllables a second, a
    brisk reading; the English joe voice speaks 3.9 English syllables (longer ones) and 3.0 words a second. French
    text is 15-30 % longer than English, so slowing to joe's word rate (rate 150) would lengthen every French clip.
    pitch 50 and amplitude 100 are espeak's defaults (peaks measured 0.65: nothing clips; the mix normalises the
    track's loudness). espeak's own pause after a sentence (about 0.35 s) is kept: it is part of its prosody.
    """

    voice: str = "fr"
    rate: int = 160
    pitch: int = 50
    amplitude: int = 100

    def as_dict(self) -> dict:
        return asdict(self)

    def arguments(self) -> list[str]:
        return ["-v", self.voice, "-s", str(self.rate), "-p", str(self.pitch), "-a", str(self.amplitude)]


SETTINGS = EspeakSettings()


@lru_cache(maxsize=8)
def _data_digest(data_dir: str, stamps: tuple) -> str:
    digest = hashlib.sha256()
    for name in DATA_FILES:
        path = Path(data_dir) / name
        data = path.read_bytes() if path.is_file() else b"<absent>"
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


@dataclass(frozen=True)
class EspeakVoice:
    """The espeak-ng program found on this machine, with its version, its data folder and the fixed settings."""

    program: str
    version: str  # "1.51"
    data_dir: Path
    settings: EspeakSettings = SETTINGS
    language: str = "fr"
    sample_rate: int = 22050  # espeak-ng always writes 22.05 kHz; checked on every file it writes

    @property
    def engine(self) -> str:
        return f"{PROGRAM} {self.version}"

    def data_digest(self) -> str:
        stamps = tuple((name, *_stamp(self.data_dir / name)) for name in DATA_FILES)
        return _data_digest(str(self.data_dir), stamps)

    def identity(self) -> tuple[str, ...]:
        """What decides a sentence's samples besides its words: engine and version, its data, the settings."""
        return (self.engine, f"data={self.data_digest()}", json.dumps(self.settings.as_dict(), sort_keys=True))

    def synthesize(self, text: str) -> np.ndarray:
        """Samples (float32, mono, at `sample_rate`) of one sentence of plain words (see pronounce_fr.spoken)."""
        if not text.strip():
            raise ValueError("nothing to synthesize: the text is empty")
        with tempfile.TemporaryDirectory(prefix="espeak-") as folder:
            path = Path(folder) / "sentence.wav"
            # The text goes on standard input (-b 1: UTF-8), so a sentence that starts with "-" is no option.
            command = [self.program, *self.settings.arguments(), "-b", "1", "-w", str(path)]
            result = subprocess.run(command, input=text.encode("utf-8"), capture_output=True, timeout=60)
            if result.returncode != 0 or not path.is_file():
                message = result.stderr.decode("utf-8", "replace").strip().splitlines()
                raise EspeakError(f"{PROGRAM} failed on {text[:60]!r}: "
                                  f"{message[0] if message else f'exit status {result.returncode}'}")
            with wave.open(str(path), "rb") as wav:
                if (wav.getnchannels(), wav.getsampwidth(), wav.getframerate()) != (1, 2, self.sample_rate):
                    raise EspeakError(f"{PROGRAM} wrote {wav.getnchannels()} channel(s), {8 * wav.getsampwidth()}-bit, "
                                      f"{wav.getframerate()} Hz; expected mono 16-bit {self.sample_rate} Hz")
                pcm = np.frombuffer(wav.readframes(wav.getnframes()), dtype="<i2")
        return pcm.astype(np.float32) / 32767.0  # as speech.py quantises: a cached sentence reads back the same

    def load(self) -> "EspeakVoice":
        """Nothing to load: each sentence runs the program (about 0.05 s)."""
        return self


def _stamp(path: Path) -> tuple[int, int]:
    try:
        stat = path.stat()
    except OSError:
        return (-1, -1)
    return (stat.st_size, stat.st_mtime_ns)


@lru_cache(maxsize=4)
def _probe(program: str) -> tuple[str, Path]:
    try:
        result = subprocess.run([program, "--version"], capture_output=True, text=True, timeout=30)
    except OSError as error:
        raise EspeakError(f"{INSTALL_HINT} ({program} does not run: {error.strerror})") from None
    match = _VERSION.search(result.stdout)
    if result.returncode != 0 or match is None:
        raise EspeakError(f"{INSTALL_HINT} ({program} --version did not name its version and data folder)")
    return match.group(1), Path(match.group(2))


def resolve_espeak(settings: EspeakSettings = SETTINGS) -> EspeakVoice:
    """The French voice, checked without synthesising: the program runs, names its version, and has the voice."""
    program = shutil.which(PROGRAM)
    if program is None:
        raise EspeakError(f"{INSTALL_HINT} ({PROGRAM} is not on PATH)")
    version, data_dir = _probe(program)
    voice_file = data_dir / "lang" / "roa" / settings.voice
    if not voice_file.is_file():
        raise EspeakError(f"{INSTALL_HINT} (its data folder {data_dir} has no {settings.voice} voice)")
    return EspeakVoice(program=program, version=version, data_dir=data_dir, settings=settings)
