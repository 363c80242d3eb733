"""render.py --slides: a classroom deck of the selected clips, one slide per beat, as HTML and as PowerPoint.

Layout of OUT/slides/<quality>/[<aspect>/][<language>/][narrated/] (an aspect folder for portrait and square decks,
then a language folder for a deck in another language than English, as outdir.py nests clips):
  deck.html                     the offline player (no network, works from file://)
  deck.pptx                     one slide per beat: the beat's video, its poster, the caption as title, notes
  deck/player.js, deck/player.css, deck/messages.js (the page's: pageText)
  deck/<clip>/<nn>-<beat>.mp4|.webm|.png   each beat's segment and poster

Segments are cut from the clips in the manifest (rendering/encode/segments.py), in a work folder, then moved into place
the way clips are installed: the old deck leaves the manifest first, the new entry is written after its files are
in place, so a failed or interrupted deck leaves nothing partial. A clip whose file, beats and the cutting code are
unchanged keeps its segments (they are not cut again); the deck files are rebuilt when anything in them changed.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from pathlib import Path

from rendering import PACKAGE_DIR, atomic
from rendering.pipeline.jobs import FAILED, RENDERED, UP_TO_DATE, Outcome
from rendering.pipeline.manifest import Manifest, deck_intact, files_intact
from rendering.outdir import relative

SEGMENT_MODULES = ("encode/segments.py", "encode/beats.py")  # below rendering/
DECK_MODULES = tuple(f"site/{name}" for name in ("slides.py", "deck_html.py", "deck_pptx.py", "deck_assets/deck.html.j2",
                                                  "deck_assets/player.js", "deck_assets/player.css",
                                                  "page_assets/messages.js", "interface.py"))
DECK_NAME = "deck"
SLIDES = "slides"
VIDEO_FORMATS = ("mp4", "webm")


def deck_dir(out_dir: Path, quality: str, narrated: bool, aspect: str = "landscape", described: bool = False,
             language: str = "en") -> Path:
    folder = out_dir / SLIDES / quality
    folder = folder if aspect == "landscape" else folder / aspect
    folder = folder if language == "en" else folder / language  # as clips/ nests it (outdir.py)
    return folder / "described" if described else folder / "narrated" if narrated else folder


def _digest(*parts: str, modules: tuple[str, ...]) -> str:
    digest = hashlib.sha256(b"slides-v1")
    for name in modules:
        digest.update((PACKAGE_DIR / name).read_bytes())
    for part in parts:
        digest.update(b"\0" + part.encode())
    return digest.hexdigest()


def clip_beats(entry: dict) -> list[dict]:
    """The clip's beats as the manifest writes them (encode/beats.clip_beats: one beat, its title, for a scene
    without beats)."""
    from rendering.encode.beats import clip_beats as beats_of

    return [beat.to_dict() for beat in beats_of(entry)]


def _clip_hash(entry: dict, formats: list[str]) -> str:
    sources = [f"{fmt}:{entry['files'][fmt]['sha256']}" for fmt in formats]
    return _digest(entry["id"], *sources, json.dumps(clip_beats(entry), sort_keys=True), modules=SEGMENT_MODULES)


def _segment_name(number: int, beat: dict) -> str:
    return f"{number:02d}-{beat['beat']}"


def _cut_clip(entry: dict, out_dir: Path, formats: list[str], work: Path) -> list[dict]:
    """Cut one clip's segments and posters into `work`; returns per segment {"beat", "tmp": {fmt: path}}."""
    from rendering.encode.segments import Span, cut_segments, save_segment_poster

    beats = clip_beats(entry)
    spans = [Span(beat["first_frame"], beat["frames"]) for beat in beats]
    names = [_segment_name(n, beat) for n, beat in enumerate(beats, 1)]
    made = [{"beat": beat["beat"], "tmp": {}} for beat in beats]
    for fmt in formats:
        outputs = [work / f"{name}.{fmt}" for name in names]
        cut_segments(out_dir / entry["files"][fmt]["path"], spans, outputs)
        for segment, path in zip(made, outputs):
            segment["tmp"][fmt] = path
    for segment, name in zip(made, names):
        poster = work / f"{name}.png"
        save_segment_poster(segment["tmp"][formats[0]], poster)
        segment["tmp"]["png"] = poster
    return made


def _slides(entries: list[dict], clips: list[dict]) -> list[dict]:
    """Every slide of the deck in order: its clip, beat, caption, narration, files (paths relative to out_dir)."""
    slides = []
    for entry, clip in zip(entries, clips):
        beats = clip_beats(entry)
        for number, (beat, segment) in enumerate(zip(beats, clip["segments"]), 1):
            slides.append({"clip": entry["id"], "clip_title": entry["title"], "beat": beat["beat"],
                           "number_in_clip": number, "beats_in_clip": len(beats), "caption": beat["caption"],
                           "narration": beat["narration"] or beat["caption"], "frames": beat["frames"],
                           "duration": round(beat["frames"] / entry["fps"], 6), "files": segment["files"]})
    return slides


def make_deck(manifest: Manifest, out_dir: Path, specs, quality: str, formats: list[str], *, narrated: bool,
              work_root: Path, force: bool, aspect: str = "landscape", described: bool = False,
              language: str = "en") -> Outcome:
    """One deck at one quality (in one aspect); its Outcome says rendered, up to date, or why it could not be made. The up-to-date
    path reads the manifest and stats files only (no PyAV, no python-pptx)."""
    started = time.monotonic()
    label = {"narrated": narrated, "aspect": aspect, "described": described, "language": language}
    entries, problem = manifest.clips_at(specs, quality, narrated, formats, "for the deck", aspect, described,
                                         language)
    if problem is not None:
        return Outcome(DECK_NAME, quality, FAILED, error=problem, **label)
    clip_hashes = [_clip_hash(entry, formats) for entry in entries]
    input_hash = _digest(*clip_hashes, *(f"{e['id']}\0{e['title']}" for e in entries), *formats,
                         *_catalog_part(language), modules=SEGMENT_MODULES + DECK_MODULES)
    old = manifest.deck(quality, narrated, aspect, described, language)
    if (not force and old is not None and old.get("input_hash") == input_hash and deck_intact(out_dir, old)):
        return Outcome(DECK_NAME, quality, UP_TO_DATE, bytes=_deck_bytes(old), **label)
    old_clips = {clip["id"]: clip for clip in (old or {}).get("clips", [])}
    folder = deck_dir(out_dir, quality, narrated, aspect, described, language)
    work = work_root / (f"{DECK_NAME}-{quality}-{aspect}-{language}" + ("-described" if described else
                                                             "-narrated" if narrated else ""))
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    try:
        from rendering.encode.media import sha256
        from rendering.pipeline.signals import deferred_interrupts

        cut_seconds, cut = 0.0, {}
        clips = []
        for entry, clip_hash in zip(entries, clip_hashes):
            previous = old_clips.get(entry["id"])
            if (not force and previous is not None and previous.get("input_hash") == clip_hash
                    and all(files_intact(out_dir, segment) for segment in previous["segments"])):
                clips.append(previous)  # unchanged: its segments stay where they are
                continue
            clip_work = work / entry["id"]
            clip_work.mkdir()
            began = time.monotonic()
            made = _cut_clip(entry, out_dir, formats, clip_work)
            cut_seconds += time.monotonic() - began
            segments = []
            for segment in made:
                files = {}
                for fmt, path in segment["tmp"].items():
                    destination = folder / DECK_NAME / entry["id"] / path.name
                    files[fmt] = {"path": relative(out_dir, destination), "bytes": path.stat().st_size,
                                  "sha256": sha256(path)}
                    cut[destination] = path
                segments.append({"beat": segment["beat"], "files": files})
            clips.append({"id": entry["id"], "input_hash": clip_hash, "segments": segments})
        slides = _slides(entries, clips)
        made_files = _write_deck(slides, out_dir, folder, work, quality, narrated, formats,
                                 lambda rel: cut.get(out_dir / rel, out_dir / rel), language)
        with deferred_interrupts():  # Ctrl-C waits until the manifest and the files agree again
            deck = _install(manifest, out_dir, quality, narrated, folder, cut, made_files, clips, old, input_hash,
                            len(slides), round(cut_seconds, 3), aspect, described, language)
    except Exception as error:
        return Outcome(DECK_NAME, quality, FAILED, time.monotonic() - started,
                       error=f"making the deck failed: {type(error).__name__}: {error}", **label)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return Outcome(DECK_NAME, quality, RENDERED, time.monotonic() - started, bytes=_deck_bytes(deck), **label)


def _catalog_part(language: str) -> tuple[str, ...]:
    """A deck in another language than English hashes its catalog: the deck's own words (its controls, what its
    player says, the PowerPoint's notes) are messages in it. An English deck hashes as it did."""
    if language == "en":
        return ()
    from rendering.languages import catalog

    path = catalog(language)
    return (f"catalog={hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else 'none'}",)


def _deck_bytes(deck: dict) -> int:
    return (sum(f["bytes"] for f in deck["files"].values())
            + sum(f["bytes"] for clip in deck["clips"] for s in clip["segments"] for f in s["files"].values()))


def _write_deck(slides: list[dict], out_dir: Path, folder: Path, work: Path, quality: str, narrated: bool,
                formats: list[str], source_of, language: str = "en") -> dict[str, Path]:
    """deck.html (+ its player files) and, with mp4, deck.pptx, in `work`; returns {destination: work path}."""
    from rendering.site.deck_html import write_deck_html

    made = write_deck_html(slides, out_dir, folder, work, quality=quality, narrated=narrated, language=language)
    if "mp4" in formats:
        from rendering.site.deck_pptx import write_deck_pptx

        pptx = work / f"{DECK_NAME}.pptx"
        write_deck_pptx(slides, pptx, source_of, language)
        made[folder / pptx.name] = pptx
    return made


def _install(manifest: Manifest, out_dir: Path, quality: str, narrated: bool, folder: Path, cut: dict,
             made: dict, clips: list[dict], old: dict | None, input_hash: str, slide_count: int,
             cut_seconds: float, aspect: str = "landscape", described: bool = False, language: str = "en") -> dict:
    from rendering.encode.media import sha256

    if old is not None:
        manifest.drop_deck(quality, narrated, aspect, described, language)
        manifest.write()
    for destination, path in cut.items():
        atomic.install(path, destination)
    files = {}
    for destination, path in made.items():
        info = {"bytes": path.stat().st_size, "sha256": sha256(path)}
        atomic.install(path, destination)
        key = {".html": "html", ".pptx": "pptx"}.get(destination.suffix, destination.name)
        files[key] = {"path": relative(out_dir, destination), **info}
    kept = {info["path"] for info in files.values()} | {
        f["path"] for clip in clips for segment in clip["segments"] for f in segment["files"].values()}
    stale = [info["path"] for info in (old or {}).get("files", {}).values()] + [
        f["path"] for clip in (old or {}).get("clips", []) for s in clip["segments"] for f in s["files"].values()]
    for path in stale:
        if path not in kept:
            (out_dir / path).unlink(missing_ok=True)
    deck = {"quality": quality, "narrated": narrated, "language": language, "input_hash": input_hash, "files": dict(sorted(files.items())),
            "slides": slide_count, "cut_seconds": cut_seconds, "clips": clips}
    if aspect != "landscape":  # a landscape deck keeps the form it had before there were aspects
        deck["aspect"] = aspect
    if described:
        deck["described"] = True
    manifest.put_deck(deck)
    manifest.write()
    return deck


def make_decks(manifest: Manifest, out_dir: Path, specs, qualities, formats: list[str], *, narrated: bool,
               work_root: Path, force: bool, described: bool = False) -> list[Outcome]:
    """A deck per quality of the clips' voice (silent or narrated), and with `described` one of the described
    clips too."""
    voices = [False] + ([True] if described else [])
    return [make_deck(manifest, out_dir, specs, quality.name, formats, narrated=narrated, work_root=work_root,
                      force=force, aspect=quality.aspect, described=voice, language=quality.language)
            for quality in qualities for voice in voices]
