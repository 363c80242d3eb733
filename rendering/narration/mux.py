"""Put an audio track into a finished (silent) clip: the video packets are copied as they are, the audio encoded.

Copying the video keeps the picture bit-identical to the silent clip and costs no encoding time. The audio is
AAC in the mp4 (what every browser plays in mp4) and Opus in the webm (the only audio codecs WebM allows are Opus
and Vorbis). Both encoders delay their output (priming: AAC 1024 samples, Opus 312) and pad the last packet; the
containers say so (mp4: an edit list; WebM: CodecDelay and DiscardPadding). Decoders drop the priming, so the
sound starts with the first frame. Opus' padding is dropped too (the decoded track is exactly the video's
length); FFmpeg's AAC decoder plays the last frame whole, see samples_to_encode. tests/test_narration_audio.py
measures both.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Iterable

import av
import numpy as np

from rendering.encode.framesink import BITEXACT
from .audio import OUTPUT_RATE


@dataclass(frozen=True)
class AudioEncoding:
    codec: str
    bit_rate: int
    container_options: dict
    # Decoders that ignore the mp4 edit list's end play the encoder's padding: the decoded track is the encoded
    # one rounded up to whole codec frames of this many samples (None: the container trims the end exactly).
    decoded_in_frames_of: int | None = None


AUDIO_ENCODINGS: dict[str, AudioEncoding] = {
    # Mono speech: 96 kb/s AAC-LC and 64 kb/s Opus are both transparent for a single voice.
    ".mp4": AudioEncoding("aac", 96_000, {**BITEXACT, "movflags": "+faststart"}, decoded_in_frames_of=1024),
    # WebM's DiscardPadding trims Opus' last packet to the sample.
    ".webm": AudioEncoding("libopus", 64_000, dict(BITEXACT)),
}
CHUNK = 48_000  # samples handed to the encoder at a time (PyAV re-chunks them to the codec's frame size)


@dataclass(frozen=True)
class AudioFacts:
    """What a file's first audio stream is, as FFmpeg decodes it (duration: decoded seconds, see probe_audio)."""

    codec: str
    sample_rate: int
    channels: int
    duration: float


def encoding_for(path: Path) -> AudioEncoding:
    """The audio encoding for the container `path`'s suffix names."""
    encoding = AUDIO_ENCODINGS.get(path.suffix.lower())
    if encoding is None:
        raise ValueError(f"cannot add audio to {path.name}: unknown container {path.suffix!r}; "
                         f"valid: {', '.join(AUDIO_ENCODINGS)}")
    return encoding


def samples_to_encode(length: int, encoding: AudioEncoding, frame_samples: float) -> int:
    """How many of a `length`-sample track to encode so that what a decoder plays stays within one video frame
    (`frame_samples` audio samples) of `length`.

    FFmpeg's AAC decoder (so PyAV, and players built on FFmpeg) plays whole 1024-sample frames, ignoring where
    the mp4's edit list ends the track: up to 1023 padding samples (21.3 ms) after the end. Below 47 fps that
    is under one frame and the whole track is encoded. Above (60 fps: a frame is 800 samples) the padding can
    exceed a frame; then the last length % 1024 samples (< 224 at 60 fps, under 5 ms) are left out so the track
    ends on a whole frame.
    mix() never lets speech overrun the video, and a scene ends after its last sentence, so what is left out is
    the end of a silence or of the voice's decay."""
    frame_size = encoding.decoded_in_frames_of
    if frame_size is None or -length % frame_size <= frame_samples:
        return length
    return length - length % frame_size


def add_audio_stream(target, encoding: AudioEncoding, rate: int):
    stream = target.add_stream(encoding.codec, rate=rate, layout="mono")
    stream.bit_rate = encoding.bit_rate
    return stream


def encoded_packets(stream, pieces: Iterable[np.ndarray], rate: int):
    """Encode consecutive pieces of one mono track; yield the packets, then the encoder's flush."""
    pts = 0
    for piece in pieces:
        for start in range(0, len(piece), CHUNK):
            chunk = np.ascontiguousarray(piece[start:start + CHUNK], dtype=np.float32).reshape(1, -1)
            frame = av.AudioFrame.from_ndarray(chunk, format="flt", layout="mono")
            frame.sample_rate = rate
            frame.time_base = Fraction(1, rate)
            frame.pts = pts
            pts += chunk.shape[1]
            yield from stream.encode(frame)
    yield from stream.encode(None)


def add_audio(video: Path, audio: np.ndarray, rate: int, out: Path) -> None:
    """Write `out`: `video`'s video stream copied packet for packet, plus `audio` (mono float samples at `rate`,
    which must be OUTPUT_RATE) encoded for the container that `out`'s suffix names (.mp4: AAC, .webm: Opus).

    The caller makes `audio` exactly as long as the video (audio.mix). On any error the partial `out` is removed."""
    video, out = Path(video), Path(out)
    encoding = encoding_for(out)
    if video.suffix.lower() != out.suffix.lower():
        raise ValueError(f"video {video.name} and output {out.name} must be the same container")
    audio = np.asarray(audio)
    if audio.ndim != 1:
        raise ValueError(f"audio must be mono, a 1-D array of samples; got shape {audio.shape}")
    if rate != OUTPUT_RATE:
        raise ValueError(f"audio must be at {OUTPUT_RATE} Hz (Opus' only rate); got {rate} Hz — use audio.resample")
    try:
        with av.open(str(video)) as source:
            if len(source.streams.video) != 1 or source.streams.audio:
                raise ValueError(f"{video.name} must have exactly one video stream and no audio")
            source_video = source.streams.video[0]
            fps = source_video.average_rate
            frames = count_video_frames(video)
            expected = frames * rate / fps
            if len(audio) != round(expected):
                raise ValueError(f"audio lasts {len(audio)} samples but the video's {frames} frames at {fps} fps "
                                 f"last {round(expected)}; make the track with audio.mix(duration=frames/fps)")
            audio = audio[:samples_to_encode(len(audio), encoding, float(rate / fps))]
            with av.open(str(out), mode="w", format=out.suffix.lower().lstrip("."),
                         container_options=dict(encoding.container_options)) as target:
                target_video = target.add_stream_from_template(source_video)
                target_audio = add_audio_stream(target, encoding, rate)
                interleave(target, copied_packets(source.demux(source_video), target_video, 0),
                           encoded_packets(target_audio, [audio], rate))
    except BaseException:
        out.unlink(missing_ok=True)
        raise


def count_video_frames(path: Path) -> int:
    """Frames in the file's video stream, counted from its packets (one per frame; no decoding)."""
    with av.open(str(path)) as container:
        return sum(1 for packet in container.demux(container.streams.video[0]) if packet.size)


def copied_packets(packets, stream, offset: int):
    """The demuxed packets, re-addressed to `stream` and moved `offset` ticks of their time base later."""
    for packet in packets:
        if not packet.size:
            continue  # the demuxer's empty flush packet
        if packet.pts is not None:
            packet.pts += offset
        if packet.dts is not None:
            packet.dts += offset
        packet.stream = stream
        yield packet


def _seconds(packet) -> Fraction:
    return (packet.dts if packet.dts is not None else packet.pts) * packet.time_base


def interleave(target, video_packets, audio_packets) -> None:
    """Mux two packet streams in decode-time order, so a player reading the file finds each second's video and
    audio side by side rather than all of one stream first."""
    video_packet, audio_packet = next(video_packets, None), next(audio_packets, None)
    while video_packet is not None or audio_packet is not None:
        if audio_packet is None or (video_packet is not None and _seconds(video_packet) <= _seconds(audio_packet)):
            target.mux(video_packet)
            video_packet = next(video_packets, None)
        else:
            target.mux(audio_packet)
            audio_packet = next(audio_packets, None)


def decoded_samples(path: Path) -> np.ndarray:
    """The first audio stream as FFmpeg decodes it (priming dropped, as a player drops it): mono float64 samples,
    sample i playing with the track's sample i."""
    with av.open(str(path)) as container:
        frames = [frame.to_ndarray().reshape(-1) for frame in container.decode(container.streams.audio[0])]
    return np.concatenate(frames).astype(np.float64) if frames else np.zeros(0)


def probe_audio(path: Path) -> AudioFacts | None:
    """The first audio stream's codec, rate, channels and decoded duration (what FFmpeg's decoder outputs: priming
    dropped; Opus' end padding dropped, AAC's last frame whole); None when the file has no audio."""
    with av.open(str(path)) as container:
        if not container.streams.audio:
            return None
        stream = container.streams.audio[0]
        samples = sum(frame.samples for frame in container.decode(stream))
        rate = stream.codec_context.sample_rate
        return AudioFacts(stream.codec_context.name, rate, stream.codec_context.channels, samples / rate)
