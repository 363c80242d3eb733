"""Decide what one run has to do: which clips are out of date (jobs to render) and which are already known."""

from __future__ import annotations

from pathlib import Path

from rendering.pipeline import inputs
from rendering.pipeline.jobs import FAILED, UP_TO_DATE, Job, Outcome
from rendering.pipeline.manifest import Manifest, files_intact
from rendering.qualities import QUALITIES


def plan(specs, qualities, formats, *, root: Path, registry_path: Path, manifest: Manifest, out_dir: Path,
         force: bool, narration: dict | None = None, example: str | None = None) -> tuple[list[Job], list[Outcome]]:
    """Split the requested clips into jobs to render and outcomes already known (up to date, or failed early).

    With `narration` (the job's voice settings) every clip is planned twice: silent, and narrated; with its
    "describe" too, three times: silent, narrated and described. `example` is the text of the example file the
    clips are computed from (None: the post's)."""
    shared = inputs.shared_digest(root, registry_path, example)
    variants = [None]
    if narration is not None:
        variants.append({**narration, "describe": False})
        if narration.get("describe"):
            variants.append({**narration, "describe": True})
    # each language's voice (English: Piper; French: espeak-ng) is an input of the clips narrated in it
    narrated_digests = {language: inputs.narration_digest(voice)
                        for language, voice in (narration["voices"].items() if narration is not None else ())}
    jobs, known = [], []
    for spec in specs:
        for quality in qualities:
            for variant in variants:
                narrated = variant is not None
                described = narrated and variant["describe"]
                try:
                    voice_digest = (narrated_digests[quality.language] + ("\0described" if described else "")
                                    if narrated else "")
                    input_hash = inputs.clip_input_hash(shared, root, spec, quality, voice_digest)
                except OSError as error:
                    message = (str(error) if isinstance(error, inputs.MissingSceneModule)
                               else f"cannot read inputs: {error}")
                    known.append(Outcome(spec.id, quality.name, FAILED, error=message, narrated=narrated,
                                         aspect=quality.aspect, described=described, language=quality.language))
                    continue
                # The language is part of the key: a French clip is never the English one, nor the other way round.
                entry = manifest.get(spec.id, quality.name, narrated, quality.aspect, described, quality.language)
                # An entry without "beats" was encoded before key frames marked the beats: render it again.
                if (not force and entry is not None and entry.get("input_hash") == input_hash and "beats" in entry
                        and all(fmt in entry["files"] for fmt in formats) and files_intact(out_dir, entry)):
                    known.append(Outcome(spec.id, quality.name, UP_TO_DATE, narrated=narrated, aspect=quality.aspect,
                                         bytes=sum(f["bytes"] for f in entry["files"].values()), described=described,
                                         language=quality.language))
                    continue
                # Another quality's timeline (in the same frame and language: a portrait layout, and another
                # language's captions and voice, time their own beats) splits it.
                same = (narrated, quality.aspect, described, quality.language)
                previous = entry or next((manifest.get(spec.id, q, *same) for q in QUALITIES
                                          if manifest.get(spec.id, q, *same)), None)
                job_narration = None if variant is None else {"voice": variant["voice"],
                                                              "cache_dir": variant["cache_dir"],
                                                              "describe": described,
                                                              **({} if quality.english else
                                                                 {"language": quality.language})}
                jobs.append(Job(spec, quality, list(formats), input_hash,
                                expected_seconds=previous.get("duration") if previous else None,
                                narration=job_narration,
                                timeline=previous.get("timeline") if previous else None,
                                timeline_fps=previous.get("fps") if previous else None, example=example))
    return jobs, known
