"""Move a finished clip from its work folder into media/ and record it in the manifest.

Order matters for anyone reading media/ at any moment: the clip's old entry leaves the manifest first, then each
file is renamed into place (each rename is atomic), then the new entry is written. So the manifest never lists a
file that is missing or that belongs to another render.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from . import atomic
from .jobs import RENDERED, Job, Outcome
from .manifest import Manifest
from .outdir import clip_file, relative


def clip_entry(job: Job, result: dict, files: dict) -> dict:
    spec = job.spec
    fps = int(result["fps"]) if float(result["fps"]).is_integer() else result["fps"]
    entry = {
        "id": spec.id, "title": spec.title, "section": spec.section, "order": spec.order,
        "quality": job.quality.name, "resolution": [result["width"], result["height"]],
        "fps": fps, "duration": round(result["duration"], 6), "frames": result["frames"],
        "input_hash": job.input_hash, "files": files, "embed": "", "narrated": job.narrated,
    }
    if result.get("timeline"):
        entry["timeline"] = result["timeline"]  # [frames, static] per animation: how a later run splits the clip
    # Each beat's caption, narration and span, for Step mode and the slides; [] for a scene without beats. The key
    # says the clip has a key frame at every beat start (an entry without it is rendered again).
    entry["beats"] = result.get("beats", [])
    if job.narrated:
        entry["audio"] = result["audio"]
        entry["transcript"] = result["transcript"]
    return entry


def embed_or_empty(embed: Callable[[dict], str], entry: dict) -> str:
    """The page's <video> snippet, or "" for a clip it cannot embed (rendered as gif/png only, no video source)."""
    try:
        return embed(entry)
    except ValueError:
        return ""


class Installer:
    def __init__(self, out_dir: Path, manifest: Manifest, embed: Callable[[dict], str] | None) -> None:
        self.out_dir = out_dir
        self.manifest = manifest
        self.embed = embed

    def __call__(self, job: Job, result: dict) -> Outcome:
        scene_id, quality = job.spec.id, job.quality.name
        old = self.manifest.drop(scene_id, quality, job.narrated)
        if old is not None:
            self.manifest.write()
        files = {}
        for ext, info in result["files"].items():
            destination = clip_file(self.out_dir, quality, scene_id, ext, job.narrated)
            atomic.install(Path(info["tmp"]), destination)
            files[ext] = {"path": relative(self.out_dir, destination), "bytes": info["bytes"],
                          "sha256": info["sha256"]}
        for ext, info in (old or {}).get("files", {}).items():
            if ext in files:
                continue
            if ext != "vtt" and old.get("input_hash") == job.input_hash:
                files[ext] = info  # same inputs, so this format made last time still matches the new render
            else:
                (self.out_dir / info["path"]).unlink(missing_ok=True)  # made from other inputs: stale
        entry = clip_entry(job, result, dict(sorted(files.items())))
        if self.embed is not None:
            entry["embed"] = embed_or_empty(self.embed, entry)
        self.manifest.put(entry)
        self.manifest.write()
        return Outcome(scene_id, quality, RENDERED, bytes=sum(f["bytes"] for f in files.values()), files=files,
                       narrated=job.narrated)
