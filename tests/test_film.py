"""Joining clips into one film: the pictures copied one after another, the sound continuous and in sync, chapters in
the container and as text, captions moved to where each clip starts."""

from __future__ import annotations

from fractions import Fraction

import av
import numpy as np
import pytest

from rendering.encode.captions import Cue, parse_webvtt, to_webvtt
from rendering.encode.film import Chapter, chapters_text, chapters_webvtt, join_captions, join_videos
from rendering.narration.mux import add_audio, probe_audio
from tests.fixtures.media import RATE, decoded_audio, decoded_frame_times, make_clip, onsets, tone_burst, video_packets

FPS = 15
FRAMES = [37, 30, 45]  # 2.467 s, 2.0 s, 3.0 s
STARTS = [Fraction(sum(FRAMES[:k]), FPS) for k in range(len(FRAMES) + 1)]  # 0, 37/15, 67/15, 112/15
CHAPTERS = [Chapter(f"Part {k + 1}", float(STARTS[k]), float(STARTS[k + 1])) for k in range(len(FRAMES))]
BURST_AT = 0.5  # each narrated part's sound: a 100 ms burst half a second in


@pytest.fixture(scope="module")
def parts(tmp_path_factory):
    """The three clips, silent and narrated, in mp4 and webm: {("silent"|"narrated", fmt): [paths]}."""
    folder = tmp_path_factory.mktemp("parts")
    made: dict = {}
    for k, frames in enumerate(FRAMES):
        videos = make_clip(folder, f"part{k}", frames, FPS)
        track = np.zeros(frames * RATE // FPS, np.float32)
        start = round(BURST_AT * RATE)
        track[start:start + 4800] = tone_burst(0.1, 500 + 250 * k)
        for fmt, video in videos.items():
            made.setdefault(("silent", fmt), []).append(video)
            narrated = folder / f"part{k}-narrated.{fmt}"
            add_audio(video, track, RATE, narrated)
            made.setdefault(("narrated", fmt), []).append(narrated)
    return made


@pytest.mark.parametrize("kind", ["silent", "narrated"])
@pytest.mark.parametrize("fmt", ["mp4", "webm"])
def test_the_film_is_the_clips_pictures_one_after_another(parts, tmp_path, fmt, kind):
    film = tmp_path / f"film.{fmt}"
    join_videos(parts[kind, fmt], film, CHAPTERS)
    times = decoded_frame_times(film)
    assert len(times) == sum(FRAMES)
    # Every frame at its place on the film's clock: frame n at n/fps (WebM stores milliseconds).
    assert max(abs(time - n / FPS) for n, time in enumerate(times)) <= 0.001
    # Packets copied, not re-encoded: the film's bytes are the clips' bytes in order, each key frame kept.
    copied = [packet for path in parts[kind, fmt] for packet in video_packets(path)]
    assert [(data, key) for data, _, _, key in video_packets(film)] == [(data, key) for data, _, _, key in copied]
    with av.open(str(film)) as container:
        assert len(container.streams.audio) == (1 if kind == "narrated" else 0)


@pytest.mark.parametrize("fmt, codec", [("mp4", "aac"), ("webm", "opus")])
def test_the_films_sound_stays_in_sync_across_the_joins(parts, tmp_path, fmt, codec):
    film = tmp_path / f"film.{fmt}"
    join_videos(parts["narrated", fmt], film, CHAPTERS)
    facts = probe_audio(film)
    assert (facts.codec, facts.sample_rate, facts.channels) == (codec, 48000, 1)
    decoded = decoded_audio(film)
    assert abs(len(decoded) - STARTS[-1] * RATE) <= RATE / FPS
    # Each part's burst where that part starts plus 0.5 s; 4 samples is where a sine first reaches half its peak
    # (burst frequencies 500, 750, 1000 Hz: 1/12 of their period ≈ 8, 5, 4 samples).
    expected = [round((start + Fraction(1, 2)) * RATE) for start in STARTS[:-1]]
    found = onsets(decoded, 0.25)
    assert len(found) == 3
    assert all(0 <= got - want <= 9 for got, want in zip(found, expected)), (found, expected)


@pytest.mark.parametrize("fmt", ["mp4", "webm"])
def test_chapters_read_back_from_the_container(parts, tmp_path, fmt):
    film = tmp_path / f"film.{fmt}"
    join_videos(parts["silent", fmt], film, CHAPTERS)
    with av.open(str(film)) as container:
        chapters = container.chapters()
    assert [chapter["metadata"]["title"] for chapter in chapters] == ["Part 1", "Part 2", "Part 3"]
    starts = [float(chapter["start"] * chapter["time_base"]) for chapter in chapters]
    ends = [float(chapter["end"] * chapter["time_base"]) for chapter in chapters]
    # mp4 keeps chapter times in milliseconds, Matroska in nanoseconds.
    assert starts == pytest.approx([float(s) for s in STARTS[:-1]], abs=0.001)
    assert ends == pytest.approx([float(s) for s in STARTS[1:]], abs=0.001)


def test_mixed_sound_and_silence_is_refused(parts, tmp_path):
    film = tmp_path / "film.mp4"
    mixed = [parts["narrated", "mp4"][0], parts["silent", "mp4"][1]]
    with pytest.raises(ValueError, match=r"some clips have sound \(part0-narrated.mp4\) and some not \(part1.mp4\)"):
        join_videos(mixed, film, CHAPTERS[:2])
    assert not film.exists()


def test_clips_of_another_size_are_refused(parts, tmp_path):
    other = make_clip(tmp_path, "big", 10, FPS, width=96, height=64, formats=("mp4",))["mp4"]
    with pytest.raises(ValueError, match=r"big.mp4 is h264 96x64 15 fps yuv420p but part0.mp4 is h264 64x48"):
        join_videos([parts["silent", "mp4"][0], other], tmp_path / "film.mp4", CHAPTERS[:2])


def test_clips_of_another_container_are_refused(parts, tmp_path):
    with pytest.raises(ValueError, match="must share one container"):
        join_videos([parts["silent", "mp4"][0], parts["silent", "webm"][1]], tmp_path / "film.mp4", CHAPTERS[:2])


# --- chapters as text and captions -----------------------------------------------------------------------------------

def test_chapters_text_is_what_video_sites_read():
    chapters = [Chapter("Soft attention", 0.0, 59.9), Chapter("Causal  mask", 59.9, 754.2),
                Chapter("Many heads", 754.2, 3600.0), Chapter("Outro", 3600.0, 3725.5)]
    assert chapters_text(chapters) == ("00:00 Soft attention\n00:59 Causal mask\n12:34 Many heads\n"
                                       "1:00:00 Outro\n")


def test_chapters_text_must_start_at_zero():
    with pytest.raises(ValueError, match="first chapter must start at 0 s"):
        chapters_text([Chapter("Late", 1.5, 3.0)])


def test_chapters_webvtt_has_one_cue_per_chapter():
    cues = parse_webvtt(chapters_webvtt(CHAPTERS))
    assert [(cue.text, cue.start, cue.end) for cue in cues] == [
        ("Part 1", 0.0, 2.467), ("Part 2", 2.467, 4.467), ("Part 3", 4.467, 7.467)]


def test_join_captions_moves_each_parts_cues_to_its_start():
    first = to_webvtt([Cue(0.5, 1.5, "Q & K"), Cue(1.5, 2.4, "scores")])
    second = to_webvtt([Cue(0.0, 1.0, "softmax <row>")])
    joined = parse_webvtt(join_captions([first, second], [0.0, 37 / 15]))
    assert [(cue.start, cue.end) for cue in joined] == [(0.5, 1.5), (1.5, 2.4), (2.467, 3.467)]
    assert [cue.text for cue in joined] == ["Q &amp; K", "scores", "softmax &lt;row&gt;"]  # escaped once


def test_join_captions_needs_one_offset_per_part():
    with pytest.raises(ValueError, match="2 caption files but 1 offsets"):
        join_captions(["WEBVTT\n", "WEBVTT\n"], [0.0])
