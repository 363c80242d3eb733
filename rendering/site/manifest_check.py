"""What the page accepts from a manifest: clips and films with the keys it reads, qualities it knows, and only
plain relative file paths inside the output folder (ValueError naming the entry and the problem otherwise)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import PurePosixPath

from rendering.qualities import QUALITIES as RENDER_QUALITIES
from rendering.records import ClipEntry

QUALITIES = tuple(RENDER_QUALITIES)  # lowest first: the order of the quality chooser
VIDEO_FORMATS = (("webm", "video/webm"), ("mp4", "video/mp4"))  # <source> order: the browser takes the first
CLIP_KEYS = ClipEntry.REQUIRED
FILM_KEYS = ("quality", "resolution", "fps", "duration", "files", "chapters")
CHAPTER_KEYS = ("title", "start", "end")


def is_described(entry: Mapping) -> bool:
    """A narrated clip whose voice also says what the frame shows (render.py --describe)."""
    return entry.get("described", False) is True


def is_narrated(entry: Mapping) -> bool:
    """A manifest entry (clip or film) with a voice; entries written before narration lack the key: silent."""
    return entry.get("narrated", False) is True


def check_clip(clip: Mapping) -> None:
    if not isinstance(clip, Mapping):
        raise ValueError(f"manifest clip must be a dict, got {type(clip).__name__}")
    missing = [key for key in CLIP_KEYS if key not in clip]
    if missing:
        raise ValueError(f"manifest clip {clip.get('id', '?')!r} lacks {', '.join(missing)}")
    if clip["quality"] not in QUALITIES:
        raise ValueError(f"clip {clip['id']!r}: quality {clip['quality']!r}; valid: {', '.join(QUALITIES)}")
    files = clip["files"]
    if not any(name in files for name, _ in VIDEO_FORMATS):
        raise ValueError(f"clip {clip['id']!r} ({clip['quality']}) has neither an mp4 nor a webm file")
    for name, entry in files.items():
        check_relative_path(entry.get("path") if isinstance(entry, Mapping) else None, f"{clip['id']} {name}")
    if not isinstance(clip.get("narrated", False), bool):
        raise ValueError(f"clip {clip['id']!r}: \"narrated\" must be true or false, got {clip['narrated']!r}")
    transcript = clip.get("transcript", [])
    if not isinstance(transcript, list) or not all(isinstance(beat, Mapping) and isinstance(beat.get("text"), str)
                                                   for beat in transcript):
        raise ValueError(f"clip {clip['id']!r}: \"transcript\" must be a list of {{\"beat\", \"text\"}} dicts")


def check_film(film: object) -> None:
    if not isinstance(film, Mapping):
        raise ValueError(f"manifest film must be a dict, got {type(film).__name__}")
    missing = [key for key in FILM_KEYS if key not in film]
    if missing:
        raise ValueError(f"manifest film ({film.get('quality', '?')}) lacks {', '.join(missing)}")
    name = f"film ({film['quality']})"
    if film["quality"] not in QUALITIES:
        raise ValueError(f"film: quality {film['quality']!r}; valid: {', '.join(QUALITIES)}")
    if not is_seconds(film["duration"]):
        raise ValueError(f"{name}: duration must be seconds, got {film['duration']!r}")
    if not isinstance(film.get("narrated", False), bool):
        raise ValueError(f"{name}: \"narrated\" must be true or false, got {film['narrated']!r}")
    files = film["files"]
    if not isinstance(files, Mapping) or not any(fmt in files for fmt, _ in VIDEO_FORMATS):
        raise ValueError(f"{name} has neither an mp4 nor a webm file")
    for key, entry in files.items():
        check_relative_path(entry.get("path") if isinstance(entry, Mapping) else None, f"{name} {key}")
    chapters = film["chapters"]
    if not isinstance(chapters, list):
        raise ValueError(f"{name}: \"chapters\" must be a list")
    for n, chapter in enumerate(chapters):
        if (not isinstance(chapter, Mapping) or any(key not in chapter for key in CHAPTER_KEYS)
                or not isinstance(chapter["title"], str)
                or not all(is_seconds(chapter[key]) for key in ("start", "end"))):
            raise ValueError(f"{name}: chapter {n} must have {', '.join(CHAPTER_KEYS)} (a text, and seconds)")


def is_seconds(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value >= 0


def check_relative_path(path: object, what: str) -> None:
    """Only plain relative POSIX paths inside out_dir: no URL, no absolute path, no '..'."""
    if not isinstance(path, str) or not path:
        raise ValueError(f"{what}: file path must be a non-empty string")
    pure = PurePosixPath(path)
    if pure.is_absolute() or ".." in pure.parts or "\\" in path or ":" in path:
        raise ValueError(f"{what}: file path {path!r} must be relative to the out dir (POSIX, no '..', no URL)")
