"""render.py --film: join the finished clips of one quality, in the post's order, into one film with chapters.

The film is made from the clips in the manifest (so every clip must have rendered), without re-encoding
(rendering/encode/film.py), in a work folder, then moved into OUT/film/<quality>/[narrated/] file by file the way clips
are installed: the old entry leaves the manifest first, the new one is written after its files are in place. A film
is up to date when it was joined from the same clip files (their sha256s) by the same joining code.
"""

from __future__ import annotations

import hashlib
import shutil
import time
from pathlib import Path

from rendering import PACKAGE_DIR, atomic
from rendering.pipeline.jobs import FAILED, RENDERED, UP_TO_DATE, Outcome
from rendering.pipeline.manifest import Manifest, files_intact
from rendering.outdir import film_dir, relative
from rendering.pipeline.signals import deferred_interrupts

FILM_MODULES = ("encode/film.py", "pipeline/film_install.py", "encode/captions.py")  # below rendering/
FILM_NAME = "film"


def _input_hash(entries: list[dict], formats: list[str]) -> str:
    digest = hashlib.sha256(b"film-v1")
    for name in FILM_MODULES:
        digest.update((PACKAGE_DIR / name).read_bytes())
    for entry in entries:
        digest.update(f"\0{entry['id']}\0{entry['title']}".encode())
        for fmt in (*formats, "vtt", "png"):
            info = entry["files"].get(fmt)
            digest.update(f"\0{fmt}:{info['sha256'] if info else '-'}".encode())
    return digest.hexdigest()


def _chapters(entries: list[dict]):
    from rendering.encode.film import Chapter

    chapters, start = [], 0.0
    for entry in entries:
        end = start + entry["frames"] / entry["fps"]  # a clip lasts exactly its frames, so the next starts there
        chapters.append(Chapter(entry["title"], start, end))
        start = end
    return chapters


def _film_beats(entries: list[dict]) -> list[dict]:
    """Every clip's beats moved to where its chapter starts (a clip without beats is one beat, its title), each
    naming its clip: Step mode on the film."""
    from rendering.encode.beats import clip_beats, offset_beats

    beats, offset = [], 0
    for entry in entries:
        beats += [{**beat.to_dict(), "clip": entry["id"]}
                  for beat in offset_beats(clip_beats(entry), offset, entry["fps"])]
        offset += entry["frames"]
    return beats


def _join(entries: list[dict], chapters, out_dir: Path, formats: list[str], work: Path) -> dict[str, Path]:
    """Write the film's files into `work`; returns {manifest key: path}."""
    from rendering.encode.film import chapters_text, chapters_webvtt, join_captions, join_videos

    made = {}
    for fmt in formats:
        made[fmt] = work / f"{FILM_NAME}.{fmt}"
        join_videos([out_dir / entry["files"][fmt]["path"] for entry in entries], made[fmt], chapters)
    if all("vtt" in entry["files"] for entry in entries):
        captions = [(out_dir / entry["files"]["vtt"]["path"]).read_text(encoding="utf-8") for entry in entries]
        made["vtt"] = work / f"{FILM_NAME}.vtt"
        made["vtt"].write_text(join_captions(captions, [chapter.start for chapter in chapters]), encoding="utf-8")
    if "png" in entries[0]["files"]:  # the film's poster: its first clip's
        made["png"] = work / f"{FILM_NAME}.png"
        shutil.copyfile(out_dir / entries[0]["files"]["png"]["path"], made["png"])
    made["chapters_vtt"] = work / f"{FILM_NAME}.chapters.vtt"
    made["chapters_vtt"].write_text(chapters_webvtt(chapters), encoding="utf-8")
    made["chapters_txt"] = work / "chapters.txt"
    made["chapters_txt"].write_text(chapters_text(chapters), encoding="utf-8")
    return made


def _install(manifest: Manifest, out_dir: Path, quality: str, narrated: bool, made: dict[str, Path],
             entries: list[dict], chapters, input_hash: str, aspect: str = "landscape", language: str = "en") -> dict:
    from rendering.encode.media import sha256

    old = manifest.drop_film(quality, narrated, aspect, language)
    if old is not None:
        manifest.write()
    folder = film_dir(out_dir, quality, narrated, aspect, language)
    files = {}
    for key, path in made.items():
        info = {"bytes": path.stat().st_size, "sha256": sha256(path)}
        destination = folder / path.name
        atomic.install(path, destination)
        files[key] = {"path": relative(out_dir, destination), **info}
    for key, info in (old or {}).get("files", {}).items():
        if key not in files:
            (out_dir / info["path"]).unlink(missing_ok=True)
    first = entries[0]
    film = {
        "quality": quality, "narrated": narrated, "language": language, "resolution": first["resolution"], "fps": first["fps"],
        "duration": round(chapters[-1].end, 6), "frames": sum(entry["frames"] for entry in entries),
        "input_hash": input_hash, "files": files,
        "chapters": [{"id": entry["id"], "title": chapter.title, "start": round(chapter.start, 6),
                      "end": round(chapter.end, 6)} for entry, chapter in zip(entries, chapters)],
        "beats": _film_beats(entries),
    }
    if aspect != "landscape":  # a landscape film keeps the form it had before there were aspects
        film["aspect"] = aspect
    manifest.put_film(film)
    manifest.write()
    return film


def make_film(manifest: Manifest, out_dir: Path, specs, quality: str, formats: list[str], *, narrated: bool,
              work_root: Path, force: bool, aspect: str = "landscape", language: str = "en") -> Outcome:
    """One film at one quality (in one aspect and language); its Outcome says rendered, up to date, or why it could
    not be made."""
    started = time.monotonic()
    label = {"narrated": narrated, "aspect": aspect, "language": language}
    entries, problem = manifest.clips_at(specs, quality, narrated, formats, "to join", aspect, language=language)
    if problem is not None:
        return Outcome(FILM_NAME, quality, FAILED, error=problem, **label)
    input_hash = _input_hash(entries, formats)
    old = manifest.film(quality, narrated, aspect, language)
    if (not force and old is not None and old.get("input_hash") == input_hash
            and all(fmt in old["files"] for fmt in formats) and files_intact(out_dir, old)):
        return Outcome(FILM_NAME, quality, UP_TO_DATE, bytes=sum(f["bytes"] for f in old["files"].values()), **label)
    work = work_root / (f"{FILM_NAME}-{quality}-{aspect}-{language}" + ("-narrated" if narrated else ""))
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    try:
        chapters = _chapters(entries)
        made = _join(entries, chapters, out_dir, formats, work)
        with deferred_interrupts():  # Ctrl-C waits until the manifest and the files agree again
            film = _install(manifest, out_dir, quality, narrated, made, entries, chapters, input_hash, aspect,
                            language)
    except Exception as error:
        return Outcome(FILM_NAME, quality, FAILED, time.monotonic() - started,
                       error=f"joining the film failed: {type(error).__name__}: {error}", **label)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return Outcome(FILM_NAME, quality, RENDERED, time.monotonic() - started,
                   bytes=sum(f["bytes"] for f in film["files"].values()), **label)


def make_films(manifest: Manifest, out_dir: Path, specs, qualities, formats: list[str], *, narrated: bool,
               work_root: Path, force: bool) -> list[Outcome]:
    return [make_film(manifest, out_dir, specs, quality.name, formats, narrated=narrated, work_root=work_root,
                      force=force, aspect=quality.aspect, language=quality.language) for quality in qualities]
