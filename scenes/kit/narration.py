"""Timing a narrated beat: where each spoken sentence sits, how long the picture waits, and the caption cues.

The kit never synthesises anything itself: the render worker gives the scene a narrator (see
`rendering/narration/`), an object with `sentences(text) -> list[str]` and `speak(sentence) -> speech` where the
speech has `.duration` (seconds), `.samples` and `.rate`. Without a narrator a scene renders exactly as before.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Protocol

PAUSE_AFTER_SPEECH = 0.4  # seconds of quiet after a caption's speech before the next caption may start
SENTENCE_GAP = 0.2  # seconds between two sentences of one caption
# A caption segment lasts a whole number of these: a speech length that differs by a few milliseconds on another
# machine (floating point in the voice model) then still gives the same segment, and so the same frame count.
SEGMENT_GRID = 0.25
CUE_LINE_CHARS = 42  # the usual subtitle line length
CUE_MAX_LINES = 2
#: The fastest a caption may ask to be read: at most this many characters a second (the usual subtitle ceiling).
READING_CPS = 20.0
#: A cue's start and end are each written to the millisecond (WebVTT): a hold this much longer still reads within
#: READING_CPS once both are rounded.
CUE_ROUNDING = 0.001
#: A silent caption held for reading ends on this grid of the clip's clock: a whole number of frames at every frame
#: rate a clip is made at (5 fps in the tests, 15, 30, 60), so a render, whose clock moves in whole frames, ends the
#: hold where the storyboard's clock (a headless run) does, and a clip lasts as long at every quality.
READING_GRID = 0.2
#: The kinds of speech: the narration, and (in a described clip) the audio description of what is shown.
NARRATION, DESCRIPTION = "narration", "description"


class Narrator(Protocol):
    def sentences(self, text: str) -> list[str]: ...

    def speak(self, sentence: str) -> Any: ...


@dataclass(frozen=True)
class SpokenSentence:
    """One sentence of a beat's narration, placed on the clip's timeline."""

    beat: str
    start: float  # seconds from the start of the clip
    text: str  # as written (the caption form), which is also what its cues show
    speech: Any  # has .duration, .samples, .rate
    kind: str = NARRATION  # or DESCRIPTION: what the frame shows, said for a listener who cannot see it

    @property
    def end(self) -> float:
        return self.start + self.speech.duration


def segment_length(speech_seconds: float) -> float:
    """How long a caption segment must last to hold its speech and the pause after it, on the grid."""
    return math.ceil((speech_seconds + PAUSE_AFTER_SPEECH) / SEGMENT_GRID - 1e-9) * SEGMENT_GRID


def place_sentences(narrator: Narrator, beat: str, text: str, start: float, *,
                    kind: str = NARRATION) -> list[SpokenSentence]:
    """Speak `text` sentence by sentence from `start`, with a short gap between sentences."""
    placed, at = [], start
    for sentence in narrator.sentences(text):
        speech = narrator.speak(sentence)
        placed.append(SpokenSentence(beat, at, sentence, speech, kind))
        at += speech.duration + SENTENCE_GAP
    return placed


def reading_end(start: float, text: str) -> float:
    """Where a silent caption shown from `start` may end: once read at READING_CPS (and the milliseconds rounded), on
    the READING_GRID."""
    return math.ceil((start + reading_seconds(text) + CUE_ROUNDING) / READING_GRID - 1e-9) * READING_GRID


def reading_seconds(text: str) -> float:
    """How long a caption must stay on screen to be read at READING_CPS: its characters as shown, where a run of
    spaces or a line break is one."""
    return len(" ".join(text.split())) / READING_CPS


#: Where a caption may break: ordinary spaces, never a no-break one.
BREAKABLE_SPACE = re.compile(r"[ \t\r\n]+")


def cue_chunks(text: str, max_chars: int = CUE_LINE_CHARS * CUE_MAX_LINES) -> list[str]:
    """Split a sentence into caption cues of at most two subtitle lines, at word boundaries, evenly sized. Only an
    ordinary space is a boundary: French sets a no-break space before « ; : » and inside « » (str.split() would
    cut there, and a cue would start with "»." or "; ")."""
    words = [word for word in BREAKABLE_SPACE.split(text) if word]
    if not words:
        return []
    count = max(1, math.ceil(len(text) / max_chars))
    while True:
        target = len(text) / count
        chunks, current = [], ""
        for word in words:
            candidate = f"{current} {word}".strip()
            if current and (len(candidate) > max_chars or (len(current) >= target and len(chunks) < count - 1)):
                chunks.append(current)
                current = word
            else:
                current = candidate
        chunks.append(current)
        if all(len(chunk) <= max_chars for chunk in chunks) or count >= len(words):
            return chunks
        count += 1


def sentence_cues(sentence: SpokenSentence) -> list[tuple[float, float, str]]:
    """(start, end, text) cues that follow the speech: a long sentence's time is shared by its chunks' lengths. A
    sentence spoken faster than READING_CPS keeps its cues on screen a little longer, up to SENTENCE_GAP into the
    quiet after it (no speech and no cue is there: the next sentence starts SENTENCE_GAP later, the next caption
    PAUSE_AFTER_SPEECH later), so that each reads within READING_CPS where that is enough."""
    chunks = cue_chunks(sentence.text)
    total = sum(len(chunk) for chunk in chunks)
    if not chunks:
        return []
    readable = total / READING_CPS + CUE_ROUNDING * total / min(len(chunk) for chunk in chunks)
    span = min(max(sentence.speech.duration, readable), sentence.speech.duration + SENTENCE_GAP)
    cues, at = [], sentence.start
    for chunk in chunks:
        length = span * len(chunk) / total
        cues.append((at, at + length, chunk))
        at += length
    return cues
