"""Move a finished clip from its work folder into media/ and record it in the manifest.

Order matters for anyone reading media/ at any moment: the clip's old entry leaves the manifest first, then each
file is renamed into place (each rename is atomic), then the new entry is written. So the manifest never lists a
file that is missing or that belongs to another render.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from rendering import atomic
from rendering.pipeline.jobs import RENDERED, Job, Outcome
from rendering.pipeline.manifest import Manifest
from rendering.outdir import clip_file, relative
from rendering.records import ClipEntry, ClipResult
from rendering.site.interface import text


def clip_entry(job: Job, result: ClipResult, files: dict) -> dict:
    """The manifest entry (records.ClipEntry) of a clip made from `job`, with the worker's `result`, its files as
    installed (`files`: ext -> {"path", "bytes", "sha256"})."""
    spec = job.spec
    fps = int(result.fps) if float(result.fps).is_integer() else result.fps
    # Each beat's caption, narration and span, for Step mode and the slides; () for a scene without beats.
    # the title in the clip's language (the page, the film's chapters and the decks show it); the section stays the
    # English post's heading, which the page looks up in the post of each language
    # (strict: a title the language's catalog lacks is interface.MissingMessage, never the English title)
    title = text(spec.title, job.quality.language)
    return ClipEntry(spec.id, title, spec.section, spec.order, job.quality.name, (result.width, result.height),
                     fps, round(result.duration, 6), result.frames, job.input_hash, files, "", job.narrated,
                     result.timeline, result.beats, result.audio if job.narrated else None,
                     result.transcript if job.narrated else None, job.quality.aspect, job.described,
                     result.flashes, job.quality.language).to_dict()


def embed_or_empty(embed: Callable[[dict], str], entry: dict) -> str:
    """The page's <video> snippet, or "" for a clip it cannot embed (rendered as gif/png only, no video source)."""
    try:
        return embed(entry)
    except ValueError:
        return ""


class Installer:
    """Installs finished clips into out_dir and the manifest; the one place an entry's embed snippet is made."""

    def __init__(self, out_dir: Path, manifest: Manifest, embed: Callable[[dict], str] | None) -> None:
        self.out_dir = out_dir
        self.manifest = manifest
        self.embed = embed

    def __call__(self, job: Job, result: ClipResult) -> Outcome:
        scene_id, quality, aspect, language = job.spec.id, job.quality.name, job.quality.aspect, job.quality.language
        old = self.manifest.drop(scene_id, quality, job.narrated, aspect, job.described, language)
        if old is not None:
            self.manifest.write()
        files = {}
        for ext, made in result.files.items():
            destination = clip_file(self.out_dir, quality, scene_id, ext, job.narrated, aspect, job.described,
                                    language)
            atomic.install(Path(made.tmp), destination)
            files[ext] = {"path": relative(self.out_dir, destination), "bytes": made.bytes, "sha256": made.sha256}
        for ext, info in (old or {}).get("files", {}).items():
            if ext in files:
                continue
            if not ext.endswith("vtt") and old.get("input_hash") == job.input_hash:
                files[ext] = info  # same inputs, so this format made last time still matches the new render
            else:
                (self.out_dir / info["path"]).unlink(missing_ok=True)  # made from other inputs: stale
        entry = clip_entry(job, result, dict(sorted(files.items())))
        self._embed(entry)
        self.manifest.put(entry)
        self.manifest.write()
        return Outcome(scene_id, quality, RENDERED, bytes=sum(f["bytes"] for f in files.values()), files=files,
                       narrated=job.narrated, aspect=aspect, described=job.described, language=language)

    def refresh_embeds(self) -> None:
        """Every entry's snippet made again (entries from earlier runs carry the markup of their day)."""
        for entry in self.manifest.entries():
            self._embed(entry)

    def _embed(self, entry: dict) -> None:
        if self.embed is not None:
            entry["embed"] = embed_or_empty(self.embed, entry)
