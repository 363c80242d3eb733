"""WebVTT captions from a scene's subcaptions (manim itself only writes .srt, which browsers do not play)."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Cue:
    start: float  # seconds
    end: float
    text: str


def timestamp(seconds: float) -> str:
    """Seconds → WebVTT's HH:MM:SS.mmm."""
    millis = max(0, round(seconds * 1000))
    hours, millis = divmod(millis, 3_600_000)
    minutes, millis = divmod(millis, 60_000)
    secs, millis = divmod(millis, 1000)
    return f"{hours:02d}:{minutes:02d}:{secs:02d}.{millis:03d}"


def _cue_text(text: str) -> str:
    # '<' and '&' start markup in cue text; a blank line would end the cue; '-->' would read as a timing line.
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    lines = [line.strip() for line in text.strip().splitlines()]
    return "\n".join(line for line in lines if line)


def to_webvtt(cues: list[Cue]) -> str:
    """A complete WebVTT file, cues sorted by start time; empty or zero-length cues are dropped."""
    parts = ["WEBVTT", ""]
    number = 0
    for cue in sorted(cues, key=lambda c: (c.start, c.end)):
        text = _cue_text(cue.text)
        if not text or cue.end <= cue.start:
            continue
        number += 1
        parts += [str(number), f"{timestamp(cue.start)} --> {timestamp(cue.end)}", text, ""]
    return "\n".join(parts)


_TIMING = re.compile(r"^(\d\d):(\d\d):(\d\d)\.(\d\d\d) --> (\d\d):(\d\d):(\d\d)\.(\d\d\d)$")


def parse_webvtt(text: str) -> list[Cue]:
    """Read back what to_webvtt writes (used by tests and by anyone checking a .vtt)."""
    if not text.startswith("WEBVTT"):
        raise ValueError("not a WebVTT file: missing the WEBVTT header")
    cues = []
    blocks = [block.splitlines() for block in text.strip().split("\n\n")[1:]]
    for lines in blocks:
        timing_index = next(i for i, line in enumerate(lines) if "-->" in line)
        match = _TIMING.match(lines[timing_index])
        if not match:
            raise ValueError(f"bad cue timing line {lines[timing_index]!r}")
        h1, m1, s1, ms1, h2, m2, s2, ms2 = (int(g) for g in match.groups())
        cues.append(Cue(h1 * 3600 + m1 * 60 + s1 + ms1 / 1000, h2 * 3600 + m2 * 60 + s2 + ms2 / 1000,
                        "\n".join(lines[timing_index + 1:])))
    return cues
