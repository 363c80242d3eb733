"""Measure finished media files and derive the formats that come from the mp4 (GIF) or a frame (poster)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
from PIL import Image

from rendering.encode.captions import Cue, to_webvtt
from rendering.encode.framesink import BITEXACT
from rendering.qualities import GIF_MAX_FPS
from rendering.records import ClipResult, MadeFile


@dataclass(frozen=True)
class VideoFacts:
    width: int
    height: int
    fps: float
    frames: int
    duration: float  # seconds


def probe(path: Path) -> VideoFacts:
    """Frame size, rate, frame count and duration read from the file itself (packets are counted, not trusted
    from the header, which webm and gif do not carry)."""
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        rate = stream.average_rate or stream.guessed_rate or stream.base_rate
        frames = sum(1 for packet in container.demux(stream) if packet.size)
        if stream.duration is not None and stream.time_base is not None:
            duration = float(stream.duration * stream.time_base)
        elif container.duration is not None:
            duration = container.duration / av.time_base
        else:
            duration = frames / float(rate)
        return VideoFacts(stream.codec_context.width, stream.codec_context.height, float(rate), frames, duration)


def finish_clip(out: Path, formats: list[str], facts: VideoFacts, cues: list[Cue], **recorded) -> ClipResult:
    """The last steps of every clip, rendered whole or joined from chunks: write its captions, drop the mp4 if it
    was only made to read the clip's facts (and the gif) from, and list each file in `out` with size and hash.
    `recorded`: the rest of the ClipResult (timeline, beats, chunks, a narrated clip's audio and transcript)."""
    if cues:
        (out / "clip.vtt").write_text(to_webvtt(cues), encoding="utf-8")
    if "mp4" not in formats:
        (out / "clip.mp4").unlink()
    files = {}
    for ext in (*formats, "vtt", "descriptions_vtt"):  # a described clip's worker wrote its descriptions track
        path = out / f"clip.{ext.replace('_', '.')}"
        if path.is_file():
            files[ext] = MadeFile(str(path), path.stat().st_size, sha256(path))
    return ClipResult(facts.width, facts.height, facts.fps, facts.frames, facts.duration, files, **recorded)


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def save_poster(pixels: np.ndarray, path: Path) -> None:
    """A lossless PNG of one RGBA frame (alpha dropped: the clips are opaque)."""
    Image.fromarray(np.ascontiguousarray(pixels[..., :3])).save(path, format="PNG")


def gif_from_video(source: Path, target: Path, max_fps: int = GIF_MAX_FPS) -> None:
    """Transcode to an endlessly looping GIF with a palette made for this clip.

    Frames are dropped evenly down to at most `max_fps`, because browsers play frame delays under 2/100 s slowly.
    """
    with av.open(str(source)) as src:
        in_stream = src.streams.video[0]
        fps = Fraction(in_stream.average_rate)
        step = max(1, -(-fps.numerator // (fps.denominator * max_fps)))  # ceil(fps / max_fps)
        out_rate = fps / step
        with av.open(str(target), mode="w", format="gif", container_options=BITEXACT) as dst:
            out_stream = dst.add_stream("gif", rate=out_rate)
            out_stream.pix_fmt = "pal8"
            out_stream.width, out_stream.height = in_stream.codec_context.width, in_stream.codec_context.height
            graph = av.filter.Graph()
            buffer = graph.add_buffer(width=out_stream.width, height=out_stream.height, format="rgb24",
                                      time_base=Fraction(1, 1) / out_rate)
            split = graph.add("split")
            palettegen = graph.add("palettegen", "stats_mode=full")
            paletteuse = graph.add("paletteuse", "dither=bayer:bayer_scale=5:diff_mode=rectangle")
            sink = graph.add("buffersink")
            buffer.link_to(split)
            split.link_to(palettegen, 0, 0)
            split.link_to(paletteuse, 1, 0)
            palettegen.link_to(paletteuse, 0, 1)
            paletteuse.link_to(sink)
            graph.configure()
            for index, frame in enumerate(src.decode(in_stream)):
                if index % step:
                    continue
                rgb = frame.reformat(format="rgb24")
                rgb.pts = index // step
                rgb.time_base = Fraction(1, 1) / out_rate
                graph.push(rgb)
            graph.push(None)
            written = 0
            while True:
                try:
                    out = graph.pull()
                except (av.error.EOFError, av.error.BlockingIOError):
                    break
                out.pts = written
                out.time_base = Fraction(1, 1) / out_rate
                written += 1
                for packet in out_stream.encode(out):
                    dst.mux(packet)
            for packet in out_stream.encode():
                dst.mux(packet)
