"""Join a clip's chunks into the clip: the same files, in the same shape, as a worker makes for a whole clip.

Each chunk's video starts on a key frame (its own encoder), so the chunks' packets follow each other in one stream
without re-encoding (film.join_videos). The poster is the last chunk's bid (the end of the last animation that
shows something), as a whole render would pick; captions and the clip's length come from the chunk that ran the
scene to its end. Everything is written inside `out`; the installer moves it into place.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from rendering.encode.captions import Cue
from rendering.encode.film import join_videos
from rendering.encode.media import finish_clip, gif_from_video, probe
from rendering.records import ChunkResult, ClipResult

VIDEO_FORMATS = ("mp4", "webm")


def assemble(chunks: list[ChunkResult], formats: list[str], out: Path) -> ClipResult:
    """`chunks`: the chunk results in clip order. Returns a whole clip's result."""
    out.mkdir(parents=True, exist_ok=True)
    final = chunks[-1]
    if not final.ran_to_end:
        raise RuntimeError("the last chunk did not run the scene to its end")
    drawn = sum(chunk.frames for chunk in chunks)
    if drawn != final.clip_frames:
        raise RuntimeError(f"the chunks hold {drawn} frames but the clip has {final.clip_frames}; "
                           "a chunk edge was planned past the end")
    with_frames = [chunk for chunk in chunks if chunk.frames]
    for fmt in ("mp4", *(f for f in VIDEO_FORMATS if f in formats and f != "mp4")):
        parts = [Path(chunk.files[fmt]) for chunk in with_frames]
        target = out / f"clip.{fmt}"
        if len(parts) == 1:
            shutil.copyfile(parts[0], target)
        else:
            join_videos(parts, target, chapters=[])
    mp4 = out / "clip.mp4"
    facts = probe(mp4)
    if facts.frames != drawn:
        raise RuntimeError(f"the joined mp4 has {facts.frames} frames but the chunks drew {drawn}")
    if "gif" in formats:
        gif_from_video(mp4, out / "clip.gif")
    if "png" in formats:
        bids = [chunk.files["candidate"] for chunk in chunks if "candidate" in chunk.files]
        poster = bids[-1] if bids else final.files.get("last")
        if poster is None:
            raise RuntimeError("no frame to make a poster from")
        shutil.copyfile(poster, out / "clip.png")
    cues = [Cue(start, end, text) for start, end, text in final.cues]
    return finish_clip(out, formats, facts, cues, timeline=final.timeline, beats=final.beats, chunks=len(chunks),
                       # a flash train cut by a chunk's edge is counted in each part: the worst part is a floor
                       flashes=max(chunk.flashes for chunk in chunks))
