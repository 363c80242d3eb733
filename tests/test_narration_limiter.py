"""The look-ahead peak limiter's gain curve: under the ceiling by construction, falling before a peak (not after
it), recovering over the release time, and untouched where nothing is loud."""

from __future__ import annotations

import math

import numpy as np
import pytest

from rendering.narration.limiter import GRID_SAMPLES, LOOKAHEAD_SECONDS, RELEASE_SECONDS, limiter_gain

RATE = 48000
CEILING = 0.5


def spike_in_quiet(at: int = RATE, height: float = 2.0, seconds: float = 2.0) -> np.ndarray:
    """Low noise (never near the ceiling) with one sample `height` tall: 12.04 dB over a 0.5 ceiling."""
    samples = 0.01 * np.random.default_rng(0).standard_normal(round(seconds * RATE))
    samples[at] = height
    return samples


def test_nothing_to_limit_is_none():
    assert limiter_gain(spike_in_quiet(height=0.4), RATE, CEILING) is None


def test_the_gain_falls_before_the_peak_and_meets_it_exactly():
    samples = spike_in_quiet()
    gain, most = limiter_gain(samples, RATE, CEILING)
    need_db = 20 * math.log10(2.0 / CEILING)
    assert most == pytest.approx(need_db, abs=1e-9)
    assert gain[RATE] == pytest.approx(CEILING / 2.0, rel=1e-9)
    lookahead = round(LOOKAHEAD_SECONDS * RATE)
    assert (gain[:RATE - lookahead - GRID_SAMPLES] == 1.0).all()  # untouched until the look-ahead window
    ramp = gain[RATE - lookahead:RATE + 1]
    assert ramp[0] > 0.9 and (np.diff(ramp) <= 1e-12).all()  # a ramp down over ~5 ms, not a step
    assert gain[RATE - lookahead // 2] < 0.7  # already well down half-way through it


def test_the_gain_recovers_over_the_release_time():
    gain, _ = limiter_gain(spike_in_quiet(), RATE, CEILING)
    need_db = 20 * math.log10(2.0 / CEILING)
    after = -20 * np.log10(gain[RATE:])
    assert (np.diff(after) <= 1e-12).all()  # only recovering after the peak
    tau = round(RELEASE_SECONDS * RATE)
    # exponential in dB: e^-1 of the reduction one time constant later (± the 5 ms the ramp smears it by)
    assert math.exp(-(tau + 240) / tau) * need_db <= after[tau] <= math.exp(-(tau - 240) / tau) * need_db
    assert after[round(0.7 * RATE)] == 0.0  # back to exactly 1 (unity) well within a second


@pytest.mark.parametrize("rate, length", [(48000, 3 * 48000), (44100, 3 * 44100 + 5)])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_never_over_the_ceiling(rate, length, seed):
    rng = np.random.default_rng(seed)
    samples = rng.standard_t(2, length) * 0.1  # heavy tails: thousands of peaks up to far over the ceiling
    gain, most = limiter_gain(samples, rate, CEILING)
    assert np.abs(samples * gain).max() <= CEILING * (1 + 1e-12)
    assert (gain <= 1.0).all() and most == pytest.approx(20 * math.log10(np.abs(samples).max() / CEILING), abs=1e-9)


@pytest.mark.parametrize("rate, ceiling, message", [
    (0, 0.5, "sample rate must be a positive whole number"),
    (48000, 0.0, "the ceiling must be a positive sample value"),
])
def test_bad_input_is_named(rate, ceiling, message):
    with pytest.raises(ValueError, match=message):
        limiter_gain(np.ones(100), rate, ceiling)


def test_a_ceiling_lowered_in_places_holds_there_and_leaves_the_rest():
    """One ceiling per interval: the same 2.0 spike is taken to 0.25 where the ceiling is lowered to it, to 0.5
    elsewhere; nothing before the first look-ahead is touched."""
    from rendering.narration.limiter import grid_reduction, interval_peaks, per_sample_gain

    samples = spike_in_quiet(at=RATE // 2)
    samples[3 * RATE // 2] = 2.0
    peaks = interval_peaks(samples)
    ceilings = np.full(len(peaks), CEILING)
    ceilings[(RATE // 2) // GRID_SAMPLES] = CEILING / 2
    gain = per_sample_gain(grid_reduction(peaks, RATE, ceilings), len(samples))
    assert 2.0 * gain[RATE // 2] == pytest.approx(CEILING / 2, rel=1e-9)
    assert 2.0 * gain[3 * RATE // 2] == pytest.approx(CEILING, rel=1e-9)
    assert (np.abs(samples * gain) <= np.repeat(ceilings, GRID_SAMPLES)[:len(samples)] * (1 + 1e-12)).all()
    assert (gain[:RATE // 2 - round(LOOKAHEAD_SECONDS * RATE) - GRID_SAMPLES] == 1.0).all()  # before: untouched


def test_one_ceiling_per_interval_or_one_for_all():
    from rendering.narration.limiter import grid_reduction

    with pytest.raises(ValueError, match="one ceiling per interval"):
        grid_reduction(np.ones(10), RATE, np.full(9, CEILING))


def test_stereo_is_refused():
    with pytest.raises(ValueError, match="must be mono"):
        limiter_gain(np.ones((2, 100)), RATE, CEILING)
