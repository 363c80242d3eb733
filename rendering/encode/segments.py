"""Cut a finished clip into one video per beat, for the slides, without re-encoding the picture.

The encoder put a key frame (an IDR frame in the mp4) at every beat's first frame (rendering/encode/framesink.py), and
nothing after a key frame refers to a frame before it, so a beat's packets, copied into a file of their own with
their timestamps moved back to zero, decode to exactly the beat's frames. The segments' frames sum to the clip's.

The sound cannot be copied that way (AAC and Opus packets overlap their neighbours and start with the encoder's
priming, see film.py), so a narrated clip's track is decoded once, cut at each beat's first frame to the sample
(frame * 48000 / fps) and every piece encoded again on its own, then decoded and held under the clips' true-peak
ceiling (rendering/narration/true_peak.py).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import av
import numpy as np

from rendering.encode.framesink import ENCODINGS, is_blank
from rendering.encode.media import save_poster
from rendering.narration.audio import OUTPUT_RATE
from rendering.narration.mux import add_audio, copied_packets, encoding_for
from rendering.narration.true_peak import encode_under_true_peak


@dataclass(frozen=True)
class Span:
    """Frames [first, first + frames) of the clip."""

    first: int
    frames: int


def check_spans(spans: list[Span], clip_frames: int) -> None:
    """The spans must tile the clip: start at 0, follow each other, end at its last frame."""
    position = 0
    for span in spans:
        if span.first != position or span.frames <= 0:
            raise ValueError(f"segments must follow each other from frame 0 with at least one frame each; "
                             f"got frames {span.first}+{span.frames} after frame {position}")
        position += span.frames
    if position != clip_frames:
        raise ValueError(f"the segments cover {position} frames but the clip has {clip_frames}")


def _frame_index(packet, origin: int, fps: Fraction) -> int:
    return round((packet.pts - origin) * packet.time_base * fps)


def _video_packets_by_segment(container, spans: list[Span]):
    """The clip's video packets in decode order, grouped per span: yields (span number, packets). Each group must
    start on a key frame and hold exactly the span's frames."""
    stream = container.streams.video[0]
    fps = Fraction(stream.average_rate)
    packets = [packet for packet in container.demux(stream) if packet.size]
    origin = min(packet.pts for packet in packets)
    starts = [span.first for span in spans]
    groups: list[list] = [[] for _ in spans]
    current = -1
    for packet in packets:
        index = _frame_index(packet, origin, fps)
        number = next(n for n in range(len(starts) - 1, -1, -1) if starts[n] <= index)
        if number < current:
            raise ValueError(f"frame {index} is decoded after beat {current + 1} began: no key frame cut here")
        if number != current:
            if not packet.is_keyframe:
                raise ValueError(f"segment {number + 1} (frame {starts[number]}) does not start on a key frame; "
                                 "render the clip again (key frames at beat starts came with the slides)")
            current = number
        groups[number].append(packet)
    for number, (span, group) in enumerate(zip(spans, groups)):
        if len(group) != span.frames:
            raise ValueError(f"segment {number + 1} holds {len(group)} frames, its beat {span.frames}")
    return stream, fps, origin, groups


def _clip_track(container, frames: int, fps: Fraction) -> np.ndarray:
    """The clip's sound as a decoder plays it, cut or padded with silence to exactly the clip's length."""
    length = round(frames * OUTPUT_RATE / fps)
    stream = container.streams.audio[0]
    chunks = [frame.to_ndarray().reshape(-1) for frame in container.decode(stream)]
    track = np.concatenate(chunks).astype(np.float32) if chunks else np.zeros(0, np.float32)
    return np.pad(track[:length], (0, max(0, length - len(track))))


def _container_options(path: Path, with_audio: bool) -> dict:
    if with_audio:
        return dict(encoding_for(path).container_options)
    return dict(ENCODINGS[path.suffix.lower().lstrip(".")].container_options)


def cut_segments(clip: Path, spans: list[Span], outputs: list[Path]) -> None:
    """Write `outputs[k]`: frames spans[k] of `clip` (packets copied), with its sound re-encoded if it has any.
    On any error every output written so far is removed."""
    clip = Path(clip)
    if len(spans) != len(outputs):
        raise ValueError(f"{len(spans)} spans but {len(outputs)} output files")
    try:
        with av.open(str(clip)) as source:
            stream, fps, origin, groups = _video_packets_by_segment(source, spans)
            check_spans(spans, sum(len(group) for group in groups))
            track = None
            if source.streams.audio:
                with av.open(str(clip)) as sound:
                    track = _clip_track(sound, sum(span.frames for span in spans), fps)
            for span, group, out in zip(spans, groups, outputs):
                _write_segment(stream, span, group, out, origin, fps, track)
    except BaseException:
        for out in outputs:
            Path(out).unlink(missing_ok=True)
        raise


def _write_segment(template, span: Span, packets: list, out: Path, origin: int, fps: Fraction,
                   track: np.ndarray | None) -> None:
    """The span's packets into `out`, with its piece of the clip's sound (if any) encoded again and held under the
    true-peak ceiling as it decodes (a beat cut where the sound is not silent is a step the codec rings on): the
    picture is cut once, into a silent file beside `out`, and each encode of the sound copies it from there."""
    out = Path(out)
    if track is None:
        _write_picture(template, packets, out, origin, _container_options(out, False))
        return
    start = round(span.first * OUTPUT_RATE / fps)
    stop = round((span.first + span.frames) * OUTPUT_RATE / fps)
    picture = out.with_name(f"{out.stem}.picture{out.suffix}")

    def encode(piece: np.ndarray) -> list[Path]:
        add_audio(picture, piece, OUTPUT_RATE, out)  # (the AAC end cut to whole frames there: samples_to_encode)
        return [out]

    try:
        _write_picture(template, packets, picture, origin, _container_options(out, False))
        encode_under_true_peak(track[start:stop], encode)
    finally:
        picture.unlink(missing_ok=True)


def _write_picture(template, packets: list, out: Path, origin: int, options: dict) -> None:
    first_pts = min(packet.pts for packet in packets)
    with av.open(str(out), mode="w", format=out.suffix.lower().lstrip("."), container_options=options) as target:
        video = target.add_stream_from_template(template)
        for packet in copied_packets(iter(packets), video, origin - first_pts):
            target.mux(packet)


TAIL_FRAMES = 64  # a beat that ends in a fade-out and a wait has a few blank frames at its end, not more


def save_segment_poster(segment: Path, poster: Path) -> None:
    """The segment's last frame that shows something (its last frame if none does): what the beat built, the
    slide's picture before it plays and in a printed deck. Only the last TAIL_FRAMES decoded frames are kept and
    looked at from the end (converting every frame to RGB would cost more than the cutting); a segment whose tail
    is all blank is searched whole."""
    with av.open(str(segment)) as container:
        tail = deque(container.decode(video=0), maxlen=TAIL_FRAMES)
        for frame in reversed(tail):
            pixels = frame.to_ndarray(format="rgba")
            if not is_blank(pixels):
                save_poster(pixels, poster)
                return
    chosen = None
    with av.open(str(segment)) as container:
        for frame in container.decode(video=0):
            pixels = frame.to_ndarray(format="rgba")
            if chosen is None or not is_blank(pixels):
                chosen = pixels
    if chosen is None:
        raise ValueError(f"{segment.name} has no frame to make a poster from")
    save_poster(chosen, poster)
