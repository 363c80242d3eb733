"""A clip's beats as frame spans: where Step mode pauses and where the slides cut the clip.

The scene logs each beat's start and end in seconds (scenes/kit/base.py). Here they become spans of whole frames
that tile the clip: beat k runs from its first frame to the next beat's first frame (a pause between two beats
belongs to the beat before it) and the last beat runs to the clip's end, so the spans' lengths sum to the clip's
frames. A beat with no frame of its own (nothing played in it) is folded into the one before it.
"""

from __future__ import annotations

from dataclasses import replace

from rendering.records import Beat


def first_frame(start: float, fps: float) -> int:
    """The frame a beat starting at `start` seconds begins with: the clock adds 1/fps per frame, so the frames
    written before it are `start * fps`, up to float rounding."""
    return round(start * fps)


def beat_spans(beat_log, fps: float, frames: int) -> list[Beat]:
    """One entry per beat: its name, first caption, every caption, the narration read aloud, and its span as
    frames [first, first + count) and seconds [start, end)."""
    if frames <= 0:
        raise ValueError(f"a clip with {frames} frames has no beats to span")
    kept = []
    for record in beat_log:
        first = min(first_frame(record.start, fps), frames)
        if not record.captions:
            raise ValueError(f"beat {record.name!r} has no caption")
        if kept and first <= kept[-1]["first_frame"]:
            continue  # no frame of its own
        if not kept and first != 0:
            first = 0  # frames before the first beat (none in an AttentionScene) belong to it
        if first >= frames:
            continue
        kept.append({"beat": record.name, "first_frame": first, "caption": record.captions[0],
                     "captions": list(record.captions),
                     "narration": " ".join(text.strip() for text in record.narration if text.strip())})
    spans = []
    for entry, following in zip(kept, kept[1:] + [None]):
        stop = following["first_frame"] if following is not None else frames
        spans.append(Beat(entry["beat"], entry["first_frame"], entry["caption"], tuple(entry["captions"]),
                          entry["narration"], stop - entry["first_frame"], round(entry["first_frame"] / fps, 6),
                          round(stop / fps, 6)))
    return spans


def clip_beats(entry) -> list[Beat]:
    """A manifest entry's beats; a clip whose scene has none is one beat, its title (for the film and the slides)."""
    if entry.get("beats"):
        return [Beat.from_dict(beat) for beat in entry["beats"]]
    return [Beat(entry["id"], 0, entry["title"], (entry["title"],), "", entry["frames"], 0.0,
                 round(entry["frames"] / entry["fps"], 6))]


def offset_beats(beats: list[Beat], frame_offset: int, fps: float) -> list[Beat]:
    """A clip's beats moved `frame_offset` frames later: the clip's beats inside the film."""
    moved = []
    for beat in beats:
        first = beat.first_frame + frame_offset
        moved.append(replace(beat, first_frame=first, start=round(first / fps, 6),
                             end=round((first + beat.frames) / fps, 6)))
    return moved
