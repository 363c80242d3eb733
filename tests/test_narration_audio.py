"""The narration's audio track: placement, loudness (against the standard's own figures), normalisation, and muxing
into the silent clips (video untouched, sound in sync and as long as the picture)."""

from __future__ import annotations

import math

import av
import numpy as np
import pytest
from scipy.signal import lfilter

from rendering.narration import mux
from rendering.narration.audio import (OUTPUT_RATE, PEAK_CEILING_DBFS, TARGET_LUFS, AudioLevels, integrated_loudness,
                                       k_weighting, mix, normalise, resample)
from rendering.narration.mux import AudioFacts, add_audio, probe_audio
from tests.fixtures.media import RATE, decoded_audio, make_clip, onsets, tone_burst, video_packets

STEREO_TO_MONO_DB = 10 * math.log10(2)  # BS.1770 sums the channels' powers: L=R at x dBFS ≡ one channel at x+3.01


def sine(seconds: float, dbfs: float, frequency: float = 1000.0, rate: int = OUTPUT_RATE) -> np.ndarray:
    t = np.arange(round(seconds * rate)) / rate
    return 10 ** (dbfs / 20) * np.sin(2 * np.pi * frequency * t)


def segments(*parts: tuple[float, float]) -> np.ndarray:
    """(dBFS, seconds) pieces of one continuous 1 kHz sine, as EBU Tech 3341 describes its test signals."""
    total = sum(seconds for _, seconds in parts)
    t = np.arange(round(total * OUTPUT_RATE)) / OUTPUT_RATE
    level = np.concatenate([np.full(round(seconds * OUTPUT_RATE), 10 ** (dbfs / 20)) for dbfs, seconds in parts])
    return level * np.sin(2 * np.pi * 1000 * t)


# --- loudness -------------------------------------------------------------------------------------------------------

def test_k_weighting_at_48k_is_the_standards_table():
    # ITU-R BS.1770-4 Annex 1, Table 1 (stage 1, the shelving pre-filter) and Table 2 (stage 2, the RLB high-pass).
    (shelf_b, shelf_a), (highpass_b, highpass_a) = k_weighting(48000)
    np.testing.assert_allclose(shelf_b, [1.53512485958697, -2.69169618940638, 1.19839281085285], atol=1e-9)
    np.testing.assert_allclose(shelf_a, [1.0, -1.69065929318241, 0.73248077421585], atol=1e-9)
    np.testing.assert_allclose(highpass_b, [1.0, -2.0, 1.0], atol=1e-12)
    np.testing.assert_allclose(highpass_a, [1.0, -1.99004745483398, 0.99007225036621], atol=1e-9)


@pytest.mark.parametrize("rate", [48000, 44100])
def test_full_scale_997_hz_sine_reads_minus_3_01(rate):
    # BS.1770-4 Annex 1: "a 0 dB FS 997 Hz sine wave applied to the left, centre, or right channel input" reads
    # −3.01 LKFS.
    assert integrated_loudness(sine(5, 0.0, 997, rate), rate) == pytest.approx(-3.01, abs=0.01)


@pytest.mark.parametrize("case, signal_parts", [
    # EBU Tech 3341 (2016), Table 1, cases 1–5: stereo 1 kHz sines, each expected to read −23.0 or −33.0 LUFS
    # ±0.1 LU; here as the mono signal of equal loudness (each level +3.01 dB, see STEREO_TO_MONO_DB).
    (1, [(-23.0, 20)]),
    (2, [(-33.0, 20)]),
    (3, [(-36.0, 10), (-23.0, 60), (-36.0, 10)]),  # the relative gate drops the quiet ends
    (4, [(-72.0, 10), (-36.0, 10), (-23.0, 60), (-36.0, 10), (-72.0, 10)]),  # and the absolute gate the −72s
    (5, [(-26.0, 20), (-20.0, 20.1), (-26.0, 20)]),  # nothing gated: the power mean of the three
])
def test_ebu_tech_3341_cases(case, signal_parts):
    expected = -33.0 if case == 2 else -23.0
    mono = segments(*[(dbfs + STEREO_TO_MONO_DB, seconds) for dbfs, seconds in signal_parts])
    assert integrated_loudness(mono, OUTPUT_RATE) == pytest.approx(expected, abs=0.1)


def test_gates_change_the_reading_where_they_should():
    # Case 3 without the gate would be the plain power mean over 80 s, about 0.8 LU lower: the gate matters.
    mono = segments((-36.0, 10), (-23.0 + STEREO_TO_MONO_DB, 60), (-36.0, 10))
    weighted = mono
    for b, a in k_weighting(OUTPUT_RATE):
        weighted = lfilter(b, a, weighted)
    ungated = -0.691 + 10 * np.log10(np.mean(np.square(weighted)))
    assert ungated < -23.5 and integrated_loudness(mono, OUTPUT_RATE) == pytest.approx(-23.0, abs=0.1)


def test_silence_and_too_short_have_no_loudness():
    assert integrated_loudness(np.zeros(OUTPUT_RATE), OUTPUT_RATE) == -math.inf
    assert integrated_loudness(sine(0.3, -20), OUTPUT_RATE) == -math.inf  # shorter than one 400 ms block


# --- normalise --------------------------------------------------------------------------------------------------------

def syllables(noisy: bool, seconds: float = 6.0, seed: int = 1) -> np.ndarray:
    """Syllable-like bursts (4 per second, 150 ms, Hann envelope) with pauses between them; tonal bursts have a
    low peak-to-loudness ratio (~10 dB, under the 15 dB between target and ceiling), noise bursts a high one
    (~20 dB, like much speech)."""
    rng = np.random.default_rng(seed)
    samples = np.zeros(round(seconds * OUTPUT_RATE))
    burst = round(0.15 * OUTPUT_RATE)
    t = np.arange(burst) / OUTPUT_RATE
    for number, start in enumerate(range(0, len(samples) - burst, OUTPUT_RATE // 4)):
        sound = rng.standard_normal(burst) if noisy else np.sin(2 * np.pi * (200 + 40 * (number % 7)) * t)
        samples[start:start + burst] = 0.05 * sound * np.hanning(burst)
    return samples.astype(np.float32)


def spiky_syllables(seconds: float = 6.0, seed: int = 1) -> np.ndarray:
    """Noise syllables, each with a 2 ms spike (a plosive, say) well above it: peaks ~20 dB above the loudness,
    like the project's voice, so one constant gain to the target would put the spikes ~3 dB over the ceiling."""
    samples = syllables(noisy=True, seconds=seconds, seed=seed).astype(np.float64)
    rng = np.random.default_rng(seed)
    spike = round(0.002 * OUTPUT_RATE)
    for start in range(0, len(samples) - 7200, OUTPUT_RATE // 4):
        at = start + 3600 + int(rng.integers(-500, 500))
        samples[at:at + spike] += 0.3 * np.hanning(spike) * np.sign(rng.standard_normal(spike))
    return samples.astype(np.float32)


CEILING = 10 ** (PEAK_CEILING_DBFS / 20)


def test_constants_are_the_stated_ones():
    assert (OUTPUT_RATE, TARGET_LUFS, PEAK_CEILING_DBFS) == (48000, -18.0, -1.0)


def test_normalise_reaches_the_target_when_the_peak_allows():
    quiet = syllables(noisy=False)
    out, levels = normalise(quiet, OUTPUT_RATE)
    assert isinstance(levels, AudioLevels)
    assert integrated_loudness(out, OUTPUT_RATE) == pytest.approx(TARGET_LUFS, abs=0.1)
    assert levels.loudness_lufs == pytest.approx(TARGET_LUFS, abs=0.1)
    assert np.max(np.abs(out)) <= CEILING
    # One constant gain, the one the loudness asks for; the limiter did nothing.
    assert levels.limited_db == 0.0
    assert levels.gain_db == pytest.approx(TARGET_LUFS - integrated_loudness(quiet, OUTPUT_RATE), abs=1e-9)
    np.testing.assert_allclose(out, quiet * 10 ** (levels.gain_db / 20), rtol=1e-6, atol=1e-9)
    assert levels.peak_dbfs == pytest.approx(20 * math.log10(np.max(np.abs(out))), abs=1e-6)


def test_speech_with_high_peaks_reaches_the_target_under_the_ceiling():
    loud = spiky_syllables()
    loudness = integrated_loudness(loud, OUTPUT_RATE)
    constant_gain_db = TARGET_LUFS - loudness
    assert np.max(np.abs(loud)) * 10 ** (constant_gain_db / 20) > 10 ** ((PEAK_CEILING_DBFS + 2) / 20)  # needs it
    out, levels = normalise(loud, OUTPUT_RATE)
    assert np.max(np.abs(out)) <= CEILING
    assert levels.loudness_lufs == pytest.approx(TARGET_LUFS, abs=0.5)
    assert integrated_loudness(out, OUTPUT_RATE) == pytest.approx(levels.loudness_lufs, abs=1e-9)
    assert levels.peak_dbfs == pytest.approx(PEAK_CEILING_DBFS, abs=1e-3)  # the spikes sit at the ceiling
    # Limiting alone loses over 1 LU here; the gain was raised to win it back, and the limiter took the rest.
    assert levels.gain_db > constant_gain_db + 1.0
    ratio = out[np.abs(loud) > 1e-3] / (loud[np.abs(loud) > 1e-3] * 10 ** (levels.gain_db / 20))
    assert ratio.max() <= 1 + 1e-6 and 20 * math.log10(ratio.min()) == pytest.approx(-levels.limited_db, abs=0.05)


def test_a_click_is_limited_where_it_is_and_nowhere_else():
    quiet = syllables(noisy=False)
    click = OUTPUT_RATE + 100  # inside a pause between two syllables
    quiet[click] = 0.9
    out, levels = normalise(quiet, OUTPUT_RATE)
    assert np.max(np.abs(out)) <= CEILING and out[click] == pytest.approx(CEILING, rel=1e-5)
    assert levels.loudness_lufs == pytest.approx(TARGET_LUFS, abs=0.1)  # the release ducks the next syllable: won back
    touched = np.flatnonzero(~np.isclose(out, quiet * 10 ** (levels.gain_db / 20), rtol=1e-6, atol=1e-9))
    # The gain dips from 5 ms (+ one 16-sample interval) before the click to at most ~1 s after it, nowhere else.
    assert touched.min() >= click - 0.005 * OUTPUT_RATE - 16 and touched.max() <= click + OUTPUT_RATE
    assert levels.limited_db == pytest.approx(20 * math.log10(0.9 * 10 ** (levels.gain_db / 20) / CEILING),
                                              abs=1e-3)


def test_the_limiter_moves_nothing_in_time():
    track = spiky_syllables()
    onset = 2 * OUTPUT_RATE + 7
    track[onset - 2400:onset] = 0.0  # silence, then a loud 1 kHz burst starting exactly at `onset`
    track[onset:onset + 2400] = 0.8 * np.sin(2 * np.pi * 1000 * np.arange(2400) / OUTPUT_RATE + 0.3)
    out, levels = normalise(track, OUTPUT_RATE)
    assert levels.limited_db > 6  # the burst was limited hard
    assert np.flatnonzero(out[onset - 2400:onset + 10])[0] == 2400  # first sound at the onset sample, not before
    window = slice(onset, onset + 2400)
    lags = np.arange(-20, 21)
    correlation = [np.dot(out[window], np.roll(track, lag)[window]) for lag in lags]
    assert lags[int(np.argmax(correlation))] == 0  # no delay, no advance


def test_normalise_leaves_silence_alone():
    out, levels = normalise(np.zeros(OUTPUT_RATE, np.float32), OUTPUT_RATE)
    assert not out.any() and levels.gain_db == 0.0 and levels.limited_db == 0.0
    assert levels.loudness_lufs == -math.inf


def test_normalise_limits_a_two_minute_track_under_the_ceiling():
    # Its speed is a benchmark figure (benchmarks/bench_narration.py), not a timed test.
    track = np.concatenate([spiky_syllables(seed=seed) for seed in range(20)])
    out, levels = normalise(track, OUTPUT_RATE)
    assert levels.limited_db > 0 and np.max(np.abs(out)) <= CEILING


# --- mix --------------------------------------------------------------------------------------------------------

def test_mix_places_each_sample_exactly():
    duration = 37 / 15  # a 37-frame clip at 15 fps
    click = np.array([1.0], np.float32)
    track = mix([(0.25, click, RATE), (1 / 3, 0.5 * click, RATE), (duration - 1 / RATE, click, RATE)], duration)
    assert track.dtype == np.float32 and len(track) == 118400  # 37 × 48000 / 15
    assert np.flatnonzero(track).tolist() == [12000, 16000, 118399]
    assert track[16000] == 0.5


def test_mix_adds_overlapping_speech():
    burst = np.full(100, 0.25, np.float32)
    track = mix([(0.0, burst, RATE), (50 / RATE, burst, RATE)], 1.0)
    assert track[:50].tolist() == [0.25] * 50 and track[50:100].tolist() == [0.5] * 50
    assert track[100:150].tolist() == [0.25] * 50 and not track[150:].any()


def test_mix_resamples_the_voice_and_keeps_its_start():
    # An impulse at 22050 Hz, resampled ×320/147 with a zero-phase filter, still peaks at its start sample.
    impulse = np.zeros(2205, np.float32)
    impulse[0] = 1.0
    track = mix([(0.5, impulse, 22050)], 1.0)
    assert int(np.argmax(track)) == 24000
    assert np.abs(track[:24000 - 200]).max() < 1e-3  # nothing leaks far ahead of the start


def test_resample_keeps_pitch_and_length():
    voice = tone_burst(1.0, 440, rate=22050)
    out = resample(voice, 22050)
    assert len(out) == 48000 and out.dtype == np.float32
    spectrum = np.abs(np.fft.rfft(out))
    assert np.argmax(spectrum) * OUTPUT_RATE / len(out) == pytest.approx(440, abs=1)


@pytest.mark.parametrize("start, seconds, message", [
    (-0.01, 0.1, "before the track starts"),
    (0.95, 0.1, "past the end"),
])
def test_mix_refuses_speech_outside_the_track(start, seconds, message):
    with pytest.raises(ValueError, match=message):
        mix([(start, tone_burst(seconds), RATE)], 1.0)


def test_mix_takes_speech_that_ends_exactly_at_the_end():
    track = mix([(0.9, np.ones(4800, np.float32), RATE)], 1.0)
    assert track[-4800:].min() == 1.0


# --- mux ------------------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def clip(tmp_path_factory):
    folder = tmp_path_factory.mktemp("clip")
    return make_clip(folder, "clip", 30, 15)  # 2.0 s


def a_track(seconds: float) -> np.ndarray:
    """Silence with a 100 ms 1 kHz burst starting at 1.0 s."""
    track = np.zeros(round(seconds * RATE), np.float32)
    track[RATE:RATE + 4800] = tone_burst(0.1)
    return track


@pytest.mark.parametrize("fmt, codec", [("mp4", "aac"), ("webm", "opus")])
def test_add_audio_copies_the_video_packets_and_adds_one_48k_mono_stream(clip, tmp_path, fmt, codec):
    out = tmp_path / f"narrated.{fmt}"
    add_audio(clip[fmt], a_track(2.0), RATE, out)
    assert video_packets(out) == video_packets(clip[fmt])  # bytes, pts, dts, key frames: nothing re-encoded
    facts = probe_audio(out)
    assert isinstance(facts, AudioFacts)
    assert (facts.codec, facts.sample_rate, facts.channels) == (codec, 48000, 1)
    with av.open(str(out)) as container:
        assert len(container.streams.video) == 1 and len(container.streams.audio) == 1


@pytest.mark.parametrize("fmt", ["mp4", "webm"])
def test_the_sound_is_in_sync_with_the_picture(clip, tmp_path, fmt):
    out = tmp_path / f"narrated.{fmt}"
    add_audio(clip[fmt], a_track(2.0), RATE, out)
    decoded = decoded_audio(out)
    # The burst's first crossing of half its amplitude: 4 samples after it starts (sin reaches 0.5 at 30°, i.e.
    # 1/12 of a 48-sample period), so the codecs' priming was dropped to the sample.
    assert onsets(decoded, 0.25) == [RATE + 4]


@pytest.mark.parametrize("frames, fps", [(37, 15), (30, 15), (7, 15), (45, 30), (61, 60), (100, 60)])
def test_decoded_audio_lasts_the_video_within_one_frame(tmp_path, frames, fps):
    videos = make_clip(tmp_path, "clip", frames, fps)
    for fmt, video in videos.items():
        out = tmp_path / f"narrated.{fmt}"
        add_audio(video, tone_burst(frames / fps, 440, 0.1), RATE, out)
        samples = len(decoded_audio(out))
        assert abs(samples - frames * RATE / fps) <= RATE / fps, (fmt, samples)
        if fmt == "webm":
            assert samples == frames * RATE // fps  # Opus in WebM: padding trimmed to the sample
        assert probe_audio(out).duration == samples / RATE


def test_add_audio_refuses_a_track_of_the_wrong_length(clip, tmp_path):
    out = tmp_path / "narrated.mp4"
    with pytest.raises(ValueError, match="audio lasts 95999 samples but the video's 30 frames"):
        add_audio(clip["mp4"], np.zeros(95999, np.float32), RATE, out)
    assert not out.exists()


@pytest.mark.parametrize("rate, suffix, message", [
    (22050, "mp4", "must be at 48000 Hz"),
    (48000, "mkv", r"unknown container '.mkv'; valid: .mp4, .webm"),
])
def test_add_audio_names_bad_input(clip, tmp_path, rate, suffix, message):
    with pytest.raises(ValueError, match=message):
        add_audio(clip["mp4"], np.zeros(96000, np.float32), rate, tmp_path / f"narrated.{suffix}")


def test_add_audio_removes_a_partial_file(clip, tmp_path, monkeypatch):
    real = mux.encoded_packets

    def failing(stream, pieces, rate):
        for number, packet in enumerate(real(stream, pieces, rate)):
            if number == 20:
                raise RuntimeError("disk full")
            yield packet

    monkeypatch.setattr(mux, "encoded_packets", failing)
    out = tmp_path / "narrated.webm"
    with pytest.raises(RuntimeError, match="disk full"):
        add_audio(clip["webm"], a_track(2.0), RATE, out)
    assert not out.exists()


def test_probe_audio_of_a_silent_clip_is_none(clip):
    assert probe_audio(clip["mp4"]) is None and probe_audio(clip["webm"]) is None


# --- true peak ------------------------------------------------------------------------------------------------------


def test_the_true_peak_is_the_peak_between_samples():
    """A sine at a quarter of the rate, 45° off its samples: every sample at ±0.5·√2/2, the wave itself reaching
    0.5 between them; the sample peak reads 3.01 dB low, the true peak reads the wave's."""
    from rendering.narration.audio import interval_true_peaks, peak_dbfs, true_peak_dbtp

    n = np.arange(OUTPUT_RATE)
    wave = 0.5 * np.sin(2 * np.pi * n / 4 + np.pi / 4)
    assert peak_dbfs(wave) == pytest.approx(20 * math.log10(0.5) - 3.0103, abs=1e-3)
    steady = interval_true_peaks(wave)[100:-100]  # (the cut-off ends ring, as any band-limited edge does)
    assert 20 * np.log10(steady) == pytest.approx(np.full(len(steady), 20 * math.log10(0.5)), abs=0.05)
    assert true_peak_dbtp(wave) >= 20 * math.log10(0.5) - 0.05
    assert len(interval_true_peaks(wave[:100])) == 7  # one per limiter interval, the last one part silence
    assert true_peak_dbtp(np.zeros(10)) == -math.inf


def test_a_lowered_ceiling_holds_where_it_is_lowered_at_the_same_loudness():
    from rendering.narration.limiter import GRID_SAMPLES

    loud = spiky_syllables()
    intervals = -(-len(loud) // GRID_SAMPLES)
    lowered = np.zeros(intervals)
    lowered[intervals // 4:intervals // 2] = 3.0  # the second quarter: a ceiling 3 dB lower
    out, levels = normalise(loud, OUTPUT_RATE, lowered)
    there = slice(intervals // 4 * GRID_SAMPLES, intervals // 2 * GRID_SAMPLES)
    assert np.max(np.abs(out[there])) <= 10 ** ((PEAK_CEILING_DBFS - 3.0) / 20)
    assert np.max(np.abs(out)) <= CEILING and levels.peak_dbfs == pytest.approx(PEAK_CEILING_DBFS, abs=1e-3)
    assert levels.loudness_lufs == pytest.approx(TARGET_LUFS, abs=0.5)
    unlowered, _ = normalise(loud, OUTPUT_RATE)
    assert np.max(np.abs(unlowered[there])) > 10 ** ((PEAK_CEILING_DBFS - 1.0) / 20)  # it was needed there
    with pytest.raises(ValueError, match="one reduction ≥ 0 dB per 16-sample interval"):
        normalise(loud, OUTPUT_RATE, lowered[:-1])


def test_real_speech_decodes_under_the_true_peak_ceiling_in_every_file(tmp_path):
    """The summary's first sentence in the real voice, at the start of a 2 s clip (where FFmpeg's AAC decoded the
    summary's track at +2.2 dBTP): normalised to −1 dBFS sample peaks it decoded at −0.79 dBTP (AAC) and −0.75
    (Opus). The soundtrack encodes it again under a lowered ceiling until each file, decoded and measured 4×
    oversampled, is at most −1 dBTP, and the track stays at the loudness target."""
    from types import SimpleNamespace

    from scipy.signal import resample_poly

    from rendering.narration.audio import TRUE_PEAK_CEILING_DBTP
    from rendering.narration.soundtrack import add_soundtrack, make_narrator

    narrator = make_narrator({"voice": None, "cache_dir": str(tmp_path / "speech"), "language": "en"})
    spoken = [SimpleNamespace(start=0.0, speech=narrator.speak("Putting the pieces together"))]
    silent = make_clip(tmp_path, "silent", 30, 15)
    narrated = {fmt: tmp_path / f"narrated.{fmt}" for fmt in silent}
    facts = add_soundtrack(spoken, silent, narrated, frames=30, fps=15)
    assert TRUE_PEAK_CEILING_DBTP == -1.0
    for fmt, path in narrated.items():
        decoded = decoded_audio(path).astype(np.float64)
        true_peak = 20 * math.log10(np.max(np.abs(resample_poly(decoded, 4, 1))))
        assert true_peak <= -1.0, f"{fmt} decodes at {true_peak:.2f} dBTP"
    assert facts["loudness_lufs"] == pytest.approx(TARGET_LUFS, abs=0.1) and facts["peak_dbfs"] <= -1.0
