"""media/manifest.json: one entry per (scene, quality) clip that is complete on disk.

Schema (the HTML page codes against it; a clip entry is rendering/records.py's ClipEntry, made by install.py):
  {"version": 1, "clips": [{"id", "title", "section", "order", "quality", "resolution": [w, h], "fps",
    "duration", "frames", "input_hash",
    "files": {"mp4"|"webm"|"gif"|"png"|"vtt": {"path", "bytes", "sha256"}}, "embed", "narrated",
    "timeline": [[frames, 1 if a static wait else 0] per animation] (where a later render may cut it in chunks),
    and for a narrated clip "audio": {"codecs", "sample_rate", "channels", "duration", "loudness_lufs",
    "peak_dbfs", "target_lufs"} and "transcript": [{"beat", "text"}]}],
   "films": [{"quality", "narrated", "resolution", "fps", "duration", "frames", "input_hash",
    "files": {"mp4"|"webm"|"vtt"|"chapters_vtt"|"chapters_txt": {...}}, "chapters": [{"id", "title", "start",
    "end"}], "beats": [the clips' beats, moved to where each chapter starts]}],
   "decks": [{"quality", "narrated", "input_hash", "files": {"html"|"pptx": {...}}, "slides",
    "clips": [{"id", "input_hash", "segments": [{"beat", "files": {"mp4"|"webm"|"png": {...}}}]}]}]}
Each clip's "beats" (when its scene has beats): [{"beat", "caption", "captions", "narration", "first_frame", "frames",
"start", "end"}], spans of whole frames that tile the clip (rendering/encode/beats.py), in its own timeline (silent or
narrated).
A silent and a narrated clip of the same scene and quality are two entries ("narrated" false/true; an entry
without the key is silent); a described clip (--describe) is a third, narrated, with "described": true and its
descriptions track as files["descriptions_vtt"]. So are its landscape, portrait and square clips (render.py --aspect): a clip, film or
deck in another frame than 16:9 carries "aspect": "portrait"|"square"; one without the key is landscape, the form
every entry had before there were aspects.
Every clip, film and deck records its language ("language": "en"|"fr", render.py --language): the language its
captions and narration speak. An entry without the key is English, the form every entry had before there were
languages. A clip in another language is another entry (its key holds the language), so a French render never
counts an English clip as up to date, nor the other way round.
The manifest is merged across runs, never replaced: entries for clips this run did not touch stay while their
files are still there. It is always rewritten whole and atomically, so it is valid JSON at every moment, and an
entry is added only after all of its files are in place.
"""

from __future__ import annotations

import json
from pathlib import Path

from rendering import atomic
from rendering.outdir import MANIFEST
from rendering.qualities import ASPECTS, LANGUAGES, QUALITIES

VERSION = 1
_QUALITY_RANK = {name: rank for rank, name in enumerate(QUALITIES)}
_ASPECT_RANK = {name: rank for rank, name in enumerate(ASPECTS)}
_LANGUAGE_RANK = {name: rank for rank, name in enumerate(LANGUAGES)}


LANDSCAPE = "landscape"


def aspect_of(entry: dict) -> str:
    """An entry's aspect: landscape entries carry no key (their form from before there were aspects)."""
    return entry.get("aspect", LANDSCAPE)


ENGLISH = "en"


def language_of(entry: dict) -> str:
    """An entry's language: entries from before there were languages carry no key and are English."""
    return entry.get("language", ENGLISH)


def _key(entry: dict) -> tuple[str, str, bool, str, bool, str]:
    return (entry["id"], entry["quality"], bool(entry.get("narrated", False)), aspect_of(entry),
            bool(entry.get("described", False)), language_of(entry))


def _film_key(film: dict) -> tuple[str, bool, str, str]:
    return film["quality"], bool(film.get("narrated", False)), aspect_of(film), language_of(film)


def _deck_key(deck: dict) -> tuple[str, bool, str, bool, str]:
    """One deck per quality, silent, narrated or described (its clips' voice), in each frame and language."""
    return (deck["quality"], bool(deck.get("narrated", False)), aspect_of(deck), bool(deck.get("described", False)),
            language_of(deck))


class Manifest:
    def __init__(self, out_dir: Path, entries: list[dict] | None = None, films: list[dict] | None = None,
                 decks: list[dict] | None = None) -> None:
        self.out_dir = out_dir
        self.example: dict | None = None  # {"name", "description"} of a user's example; None for the post's
        self._entries: dict[tuple[str, str, bool, str, bool, str], dict] = {}
        self._films: dict[tuple[str, bool, str, str], dict] = {}
        for entry in entries or []:
            self._entries[_key(entry)] = entry
        for film in films or []:
            self._films[_film_key(film)] = film
        self._decks: dict[tuple[str, bool, str, bool, str], dict] = {_deck_key(deck): deck for deck in decks or []}

    @classmethod
    def load(cls, out_dir: Path) -> tuple["Manifest", str | None]:
        """Read the manifest; an unreadable one counts as empty (with a warning to show)."""
        path = out_dir / MANIFEST
        if not path.exists():
            return cls(out_dir), None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("version") != VERSION or not isinstance(data.get("clips"), list):
                raise ValueError(f"expected version {VERSION} with a clips list")
            films = [film for film in data.get("films", []) if _well_formed_film(film)]
            decks = [deck for deck in data.get("decks", []) if _well_formed_deck(deck)]
            return cls(out_dir, [entry for entry in data["clips"] if _well_formed(entry)], films, decks), None
        except (OSError, ValueError, AttributeError) as error:
            return cls(out_dir), f"ignoring unreadable {path}: {error}"

    def get(self, scene_id: str, quality: str, narrated: bool = False, aspect: str = LANDSCAPE,
            described: bool = False, language: str = ENGLISH) -> dict | None:
        return self._entries.get((scene_id, quality, narrated, aspect, described, language))

    def put(self, entry: dict) -> None:
        self._entries[_key(entry)] = entry

    def drop(self, scene_id: str, quality: str, narrated: bool = False, aspect: str = LANDSCAPE,
             described: bool = False, language: str = ENGLISH) -> dict | None:
        return self._entries.pop((scene_id, quality, narrated, aspect, described, language), None)

    def entries(self) -> list[dict]:
        return sorted(self._entries.values(), key=lambda e: (e.get("order", 0), _QUALITY_RANK.get(e["quality"], 99),
                                                              bool(e.get("narrated")), bool(e.get("described")),
                                                              _ASPECT_RANK.get(aspect_of(e), 99),
                                                              _LANGUAGE_RANK.get(language_of(e), 99), e["id"]))

    def clips_at(self, specs, quality: str, narrated: bool, formats: list[str],
                 purpose: str, aspect: str = LANDSCAPE, described: bool = False,
                 language: str = ENGLISH) -> tuple[list[dict], str | None]:
        """The entries of `specs` at `quality` that a film or a deck is made from, and why they cannot be (one line
        ending in `purpose`, e.g. "to join"), or None when every clip is there with every format."""
        entries = [self.get(spec.id, quality, narrated, aspect, described, language) for spec in specs]
        missing = [spec.id for spec, entry in zip(specs, entries) if entry is None]
        if missing:
            kind = "described clip" if described else "narrated clip" if narrated else "clip"
            at = " ".join([quality] + ([] if aspect == LANDSCAPE else [aspect])
                          + ([] if language == ENGLISH else [f"in {language}"]))
            return entries, f"no {kind} of {', '.join(missing)} at {at} {purpose}"
        lacking = [entry["id"] for entry in entries if not all(fmt in entry["files"] for fmt in formats)]
        if lacking:
            return entries, f"{', '.join(lacking)} lack {'/'.join(formats)}"
        return entries, None

    def film(self, quality: str, narrated: bool, aspect: str = LANDSCAPE, language: str = ENGLISH) -> dict | None:
        return self._films.get((quality, narrated, aspect, language))

    def put_film(self, film: dict) -> None:
        self._films[_film_key(film)] = film

    def drop_film(self, quality: str, narrated: bool, aspect: str = LANDSCAPE,
                  language: str = ENGLISH) -> dict | None:
        return self._films.pop((quality, narrated, aspect, language), None)

    def films(self) -> list[dict]:
        return sorted(self._films.values(), key=lambda f: (_QUALITY_RANK.get(f["quality"], 99), f["narrated"],
                                                           _ASPECT_RANK.get(aspect_of(f), 99),
                                                           _LANGUAGE_RANK.get(language_of(f), 99)))

    def deck(self, quality: str, narrated: bool, aspect: str = LANDSCAPE, described: bool = False,
             language: str = ENGLISH) -> dict | None:
        return self._decks.get((quality, narrated, aspect, described, language))

    def put_deck(self, deck: dict) -> None:
        self._decks[_deck_key(deck)] = deck

    def drop_deck(self, quality: str, narrated: bool, aspect: str = LANDSCAPE,
                  described: bool = False, language: str = ENGLISH) -> dict | None:
        return self._decks.pop((quality, narrated, aspect, described, language), None)

    def decks(self) -> list[dict]:
        return sorted(self._decks.values(), key=lambda d: (_QUALITY_RANK.get(d["quality"], 99), d["narrated"],
                                                           bool(d.get("described")),
                                                           _ASPECT_RANK.get(aspect_of(d), 99),
                                                           _LANGUAGE_RANK.get(language_of(d), 99)))

    def prune(self, known_ids: set[str]) -> list[str]:
        """Drop entries of scenes no longer registered or whose files changed or vanished; returns their keys."""
        dropped = []
        for key, entry in list(self._entries.items()):
            if entry["id"] not in known_ids or not files_intact(self.out_dir, entry):
                del self._entries[key]
                dropped.append(f"{key[0]}@{key[1]}" + ("+described" if key[4] else "+narrated" if key[2] else ""))
        for key, film in list(self._films.items()):
            if not files_intact(self.out_dir, film):
                del self._films[key]
                dropped.append(f"film@{key[0]}" + ("+narrated" if key[1] else ""))
        for key, deck in list(self._decks.items()):
            if not deck_intact(self.out_dir, deck):
                del self._decks[key]
                dropped.append(f"deck@{key[0]}" + ("+described" if key[3] else "+narrated" if key[1] else ""))
        return dropped

    def to_dict(self) -> dict:
        data = {"version": VERSION, "clips": self.entries(), "films": self.films()}
        if self._decks:
            data["decks"] = self.decks()
        if self.example is not None:
            data["example"] = self.example
        return data

    def write(self) -> None:
        atomic.write_text(self.out_dir / MANIFEST, json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n")


def _well_formed(entry) -> bool:
    return (isinstance(entry, dict) and isinstance(entry.get("id"), str) and isinstance(entry.get("quality"), str)
            and isinstance(entry.get("files"), dict)
            and all(isinstance(f, dict) and "path" in f and "bytes" in f for f in entry["files"].values()))


def _well_formed_film(film) -> bool:
    return (isinstance(film, dict) and isinstance(film.get("quality"), str) and isinstance(film.get("files"), dict)
            and isinstance(film.get("chapters"), list)
            and all(isinstance(f, dict) and "path" in f and "bytes" in f for f in film["files"].values()))


def _well_formed_deck(deck) -> bool:
    return (_well_formed_film({**deck, "chapters": []}) if isinstance(deck, dict) else False) and all(
        isinstance(clip, dict) and isinstance(clip.get("segments"), list)
        and all(isinstance(s, dict) and isinstance(s.get("files"), dict) for s in clip["segments"])
        for clip in deck.get("clips", []))


def deck_intact(out_dir: Path, deck: dict) -> bool:
    """The deck's own files and every segment's are there with their recorded sizes."""
    return files_intact(out_dir, deck) and all(files_intact(out_dir, segment) for clip in deck.get("clips", [])
                                               for segment in clip["segments"])


def files_intact(out_dir: Path, entry: dict, formats: list[str] | None = None) -> bool:
    """Every listed file (or those of `formats`) exists with the recorded size. A stat, not a hash: this is the
    up-to-date check, which must stay well under a second even for 4k clips."""
    for fmt, info in entry["files"].items():
        if formats is not None and fmt not in formats:
            continue
        try:
            if (out_dir / info["path"]).stat().st_size != info["bytes"]:
                return False
        except OSError:
            return False
    return True
