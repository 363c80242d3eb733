"""The film's and the decks' sound, encoded once more from the clips' decoded tracks (joined, or cut at each beat), held
under the clips' true-peak ceiling as it decodes: −1 dBTP, measured here on the decoded files, 4× oversampled.

The clips are narrated as the render makes them (soundtrack.encode_within_true_peak: each file decoded under −1 dBTP)
from noise syllables with a 2 ms spike each, peaks ~20 dB over their loudness like the voice's. Joined or cut and
encoded again without a check, their Opus sound decoded at −0.91 dBTP (the film) and −0.52 dBTP (one beat)."""

from __future__ import annotations

import math
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from scipy.signal import resample_poly

from rendering.encode.film import Chapter, join_videos
from rendering.encode.framesink import FrameSink
from rendering.encode.segments import Span, cut_segments
from tests.fixtures.media import decoded_audio
from tests.test_narration_audio import spiky_syllables

FPS, FRAMES = 15, 45  # 3 s clips
BEATS = [0, 8, 17, 26, 35]  # each beat's first frame: where the decks cut a clip
CLIPS = 4
CEILING_DBTP = -1.0  # EBU R128's, the clips' own


def true_peak_dbtp(path: Path) -> float:
    decoded = decoded_audio(path).astype(np.float64)
    return 20 * math.log10(np.max(np.abs(resample_poly(decoded, 4, 1))))


def clip_with_beats(folder: Path, name: str) -> dict[str, Path]:
    """A silent clip whose beats start at BEATS (key frames there, as the render worker makes them)."""
    videos = {fmt: folder / f"{name}.{fmt}" for fmt in ("mp4", "webm")}
    written = {"frames": 0}
    sink = FrameSink(width=64, height=48, fps=FPS, videos=videos,
                     beats_started=lambda: sum(written["frames"] >= first for first in BEATS))
    writer = SimpleNamespace(output_spec=SimpleNamespace(is_video=True))
    sink.attach(writer)
    writer.begin_animation(allow_write=True)
    for index in range(FRAMES):
        pixels = np.zeros((48, 64, 4), np.uint8)
        pixels[..., 3] = 255
        pixels[:, : (index * 3) % 64, 0] = 200
        written["frames"] = index
        writer.write_frame(pixels)
    writer.end_animation(allow_write=True)
    sink.finish()
    assert sink.key_frames == BEATS
    return videos


@pytest.fixture(scope="module")
def clips(tmp_path_factory):
    """CLIPS narrated clips, mp4 and webm, each decoding under the ceiling: {fmt: [paths]}."""
    from rendering.narration.soundtrack import encode_within_true_peak

    folder = tmp_path_factory.mktemp("clips")
    made: dict[str, list[Path]] = {"mp4": [], "webm": []}
    for number in range(CLIPS):
        silent = clip_with_beats(folder, f"clip{number}")
        narrated = {fmt: folder / f"clip{number}-narrated.{fmt}" for fmt in silent}
        encode_within_true_peak(spiky_syllables(FRAMES / FPS, seed=number + 1), silent, narrated)
        for fmt, path in narrated.items():
            assert true_peak_dbtp(path) <= CEILING_DBTP
            made[fmt].append(path)
    return made


@pytest.mark.parametrize("fmt", ["mp4", "webm"])
def test_the_films_sound_decodes_under_the_true_peak_ceiling(clips, tmp_path, fmt):
    film = tmp_path / f"film.{fmt}"
    seconds = FRAMES / FPS
    join_videos(clips[fmt], film, [Chapter(str(k), k * seconds, (k + 1) * seconds) for k in range(CLIPS)])
    assert true_peak_dbtp(film) <= CEILING_DBTP
    # and it is still the clips' sound, where nothing had to be lowered: as loud, within the codec's error
    joined = np.concatenate([decoded_audio(path)[:FRAMES * 3200] for path in clips[fmt]])
    played = decoded_audio(film)[:len(joined)]
    assert np.sqrt(np.mean(played ** 2)) == pytest.approx(np.sqrt(np.mean(joined ** 2)), rel=0.05)


@pytest.mark.parametrize("fmt", ["mp4", "webm"])
def test_every_beats_sound_decodes_under_the_true_peak_ceiling(clips, tmp_path, fmt):
    spans = [Span(first, end - first) for first, end in zip(BEATS, BEATS[1:] + [FRAMES])]
    peaks = []
    for number, clip in enumerate(clips[fmt]):
        outputs = [tmp_path / f"clip{number}-{beat}.{fmt}" for beat in range(len(spans))]
        cut_segments(clip, spans, outputs)
        peaks += [(output.name, true_peak_dbtp(output)) for output in outputs]
        assert not list(tmp_path.glob("*.picture.*"))  # the picture cut once for the encodes is gone
    over = [f"{name}: {peak:.2f} dBTP" for name, peak in peaks if peak > CEILING_DBTP]
    assert not over, "\n".join(over)


def test_a_long_track_is_measured_block_by_block_as_it_is_whole(monkeypatch):
    from rendering.narration import true_peak
    from rendering.narration.audio import interval_true_peaks

    track = spiky_syllables(2.0, seed=7)
    monkeypatch.setattr(true_peak, "MEASURE_BLOCK", 16 * 1000)  # 6 blocks and a part one
    np.testing.assert_allclose(true_peak.long_interval_true_peaks(track), interval_true_peaks(track), rtol=1e-9,
                               atol=1e-12)


def test_a_lowered_gain_is_lowered_where_asked_and_only_there():
    from rendering.narration.limiter import GRID_SAMPLES
    from rendering.narration.true_peak import lowered_by

    track = spiky_syllables(2.0, seed=3)
    intervals = -(-len(track) // GRID_SAMPLES)
    lowered = np.zeros(intervals)
    lowered[intervals // 2:intervals // 2 + 300] = 2.0  # 0.1 s, 2 dB down
    out = lowered_by(track, lowered)
    there = slice((intervals // 2) * GRID_SAMPLES, (intervals // 2 + 300) * GRID_SAMPLES)
    gain = np.abs(out[there]) / np.maximum(np.abs(track[there]), 1e-12)
    assert gain[np.abs(track[there]) > 1e-4].max() <= 10 ** (-2.0 / 20) + 1e-6
    far = slice(0, (intervals // 4) * GRID_SAMPLES)
    np.testing.assert_array_equal(out[far], track[far])
    with pytest.raises(ValueError, match="one reduction ≥ 0 dB per 16-sample interval"):
        lowered_by(track, lowered[:-1])
