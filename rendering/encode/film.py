"""Join finished clips of one quality into one film with chapters, without re-encoding the picture.

Every clip starts with a key frame and all clips share size, frame rate and encoder settings, so their video
packets can follow each other in one stream: part k's timestamps move by the length of the parts before it
(frames / fps), and the film is bit for bit the clips' pictures.

The sound is different. AAC and Opus packets overlap their neighbours (each clip's audio begins with the
encoder's priming and ends in a padded packet), so butting two clips' packets together shifts every later clip's
sound by up to a codec frame and garbles each seam. The clips' tracks are therefore decoded, each cut or padded to
exactly its clip's length, and the film's one track encoded again (cheap: joining 3 min of 64x48 clips took
2.5 s as mp4 and 1.4 s as webm, nearly all of it the sound; one more AAC/Opus generation at the clips' bitrates).
That generation is decoded and held under the clips' true-peak ceiling (rendering/narration/true_peak.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import av
import numpy as np

from rendering.encode.captions import Cue, parse_webvtt, to_webvtt
from rendering.narration.audio import OUTPUT_RATE
from rendering.narration.mux import (add_audio_stream, copied_packets, count_video_frames, encoded_packets, encoding_for,
                            interleave, samples_to_encode)
from rendering.narration.true_peak import encode_under_true_peak


@dataclass(frozen=True)
class Chapter:
    title: str
    start: float  # seconds into the film
    end: float


@dataclass(frozen=True)
class _Part:
    path: Path
    frames: int
    fps: Fraction
    has_audio: bool

    @property
    def duration(self) -> Fraction:
        return self.frames / self.fps


def _video_signature(stream) -> tuple:
    context = stream.codec_context
    return (context.name, context.width, context.height, stream.average_rate, context.pix_fmt)


def _read_parts(parts: list[Path]) -> list[_Part]:
    """Check the parts can share one stream (same codec, size, frame rate, pixel format; all with audio or all
    without) and count their frames."""
    if not parts:
        raise ValueError("no clips to join")
    suffixes = {part.suffix.lower() for part in parts}
    if len(suffixes) != 1:
        raise ValueError(f"clips to join must share one container; got {', '.join(sorted(suffixes))}")
    read, signatures = [], []
    for path in parts:
        with av.open(str(path)) as container:
            if len(container.streams.video) != 1:
                raise ValueError(f"{path.name} has {len(container.streams.video)} video streams; a clip has one")
            stream = container.streams.video[0]
            signatures.append(_video_signature(stream))
            fps, has_audio = stream.average_rate, bool(container.streams.audio)
        if not fps:
            raise ValueError(f"{path.name} does not state its frame rate")
        read.append(_Part(path, count_video_frames(path), Fraction(fps), has_audio))
    for part, signature in zip(read[1:], signatures[1:]):
        if signature != signatures[0]:
            raise ValueError(f"{part.path.name} is {_describe(signature)} but {read[0].path.name} is "
                             f"{_describe(signatures[0])}; join clips of one quality and format")
    with_audio = [part.path.name for part in read if part.has_audio]
    if with_audio and len(with_audio) != len(read):
        without = [part.path.name for part in read if not part.has_audio]
        raise ValueError(f"some clips have sound ({', '.join(with_audio)}) and some not ({', '.join(without)}); "
                         f"join narrated clips or silent ones, not both")
    return read


def _describe(signature: tuple) -> str:
    codec, width, height, fps, pix_fmt = signature
    return f"{codec} {width}x{height} {fps} fps {pix_fmt}"


def _decoded_track(part: _Part) -> np.ndarray:
    """The part's sound as a decoder plays it, cut or padded with silence to exactly the part's length."""
    length = round(part.duration * OUTPUT_RATE)
    with av.open(str(part.path)) as container:
        stream = container.streams.audio[0]
        if stream.codec_context.sample_rate != OUTPUT_RATE or stream.codec_context.channels != 1:
            raise ValueError(f"{part.path.name}: audio must be mono {OUTPUT_RATE} Hz as narration writes it")
        chunks = [frame.to_ndarray().reshape(-1) for frame in container.decode(stream)]
    track = np.concatenate(chunks).astype(np.float32) if chunks else np.zeros(0, np.float32)
    return np.pad(track[:length], (0, max(0, length - len(track))))


def _film_track(parts: list[_Part], keep: int):
    """The film's sound, part by part (one part in memory at a time), its first `keep` samples."""
    for part in parts:
        if keep <= 0:
            return
        track = _decoded_track(part)[:keep]
        keep -= len(track)
        yield track


def _av_chapters(chapters: list[Chapter]) -> list[dict]:
    micro = Fraction(1, 1_000_000)
    return [{"id": number, "start": round(chapter.start * 1_000_000), "end": round(chapter.end * 1_000_000),
             "time_base": micro, "metadata": {"title": chapter.title}}
            for number, chapter in enumerate(chapters, start=1)]


def _film_video_packets(parts: list[_Part], target_stream):
    """Every part's video packets, each part shifted to start where the previous one ended."""
    elapsed = Fraction(0)
    for part in parts:
        with av.open(str(part.path)) as container:
            stream = container.streams.video[0]
            # Offsets from the film's running total, so rounding to the time base never accumulates.
            offset = round(elapsed / stream.time_base)
            yield from copied_packets(container.demux(stream), target_stream, offset)
        elapsed += part.duration


def join_videos(parts: list[Path], out: Path, chapters: list[Chapter]) -> None:
    """Write `out` (same container as the parts): their video packets one after another, their sound (if they have
    any) re-encoded as one track exactly as long as the film, and `chapters` in the container (mp4 and WebM both
    keep them). On any error the partial `out` is removed."""
    parts, out = [Path(part) for part in parts], Path(out)
    encoding = encoding_for(out)
    read = _read_parts(parts)
    if out.suffix.lower() != parts[0].suffix.lower():
        raise ValueError(f"the film {out.name} must be in the clips' container ({parts[0].suffix})")
    def write(track: np.ndarray | None) -> list[Path]:
        with av.open(str(parts[0])) as first, av.open(str(out), mode="w", format=out.suffix.lower().lstrip("."),
                                                       container_options=dict(encoding.container_options)) as target:
            target_video = target.add_stream_from_template(first.streams.video[0])
            audio_packets = iter(()) if track is None else encoded_packets(
                add_audio_stream(target, encoding, OUTPUT_RATE), [track], OUTPUT_RATE)
            target.set_chapters(_av_chapters(chapters))
            interleave(target, _film_video_packets(read, target_video), audio_packets)
        return [out]

    try:
        if read[0].has_audio:
            film_samples = round(sum(part.duration for part in read) * OUTPUT_RATE)
            keep = samples_to_encode(film_samples, encoding, float(OUTPUT_RATE / read[0].fps))
            # the film's sound is held to the clips' true-peak ceiling as it decodes (one more generation)
            encode_under_true_peak(np.concatenate(list(_film_track(read, keep))), write)
        else:
            write(None)
        joined = count_video_frames(out)
        expected = sum(part.frames for part in read)
        if joined != expected:
            raise RuntimeError(f"the joined film has {joined} frames, the clips {expected}")
    except BaseException:
        out.unlink(missing_ok=True)
        raise


def _clock(seconds: float) -> str:
    """mm:ss, or h:mm:ss from an hour on, the way video sites read chapter lists."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def chapters_text(chapters: list[Chapter]) -> str:
    """One "00:00 Title" line per chapter, for a video description (YouTube and Vimeo turn it into chapters
    when the first line is 00:00). Times are rounded down to the second so a chapter never starts early."""
    if not chapters:
        raise ValueError("a chapter list needs at least one chapter")
    if chapters[0].start != 0:
        raise ValueError(f"the first chapter must start at 0 s (video sites require 00:00); it starts at "
                         f"{chapters[0].start} s")
    return "".join(f"{_clock(chapter.start)} {' '.join(chapter.title.split())}\n" for chapter in chapters)


def chapters_webvtt(chapters: list[Chapter]) -> str:
    """A WebVTT chapters track (<track kind="chapters">): one cue per chapter, its text the title."""
    return to_webvtt([Cue(chapter.start, chapter.end, chapter.title) for chapter in chapters])


def _unescaped(text: str) -> str:
    """Cue text as to_webvtt took it (parse_webvtt keeps its escapes; writing them again would double them)."""
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def join_captions(parts: list[str], offsets: list[float]) -> str:
    """One film caption file: each part's WebVTT cues moved `offsets[k]` seconds later (where part k starts)."""
    if len(parts) != len(offsets):
        raise ValueError(f"{len(parts)} caption files but {len(offsets)} offsets; give one offset per part")
    cues = [Cue(cue.start + offset, cue.end + offset, _unescaped(cue.text))
            for text, offset in zip(parts, offsets) for cue in parse_webvtt(text)]
    return to_webvtt(cues)
