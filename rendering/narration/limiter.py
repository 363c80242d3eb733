"""A look-ahead peak limiter for speech (numpy + scipy only): the gain curve that keeps every sample under a ceiling.

Speech's sample peaks stand ~20 dB above its loudness, so one constant gain that reaches a loudness target pushes a
few short peaks over the ceiling. The limiter lowers the gain just around those peaks: it starts lowering it a few
milliseconds before a peak (look-ahead, so the peak never plays at full gain and nothing is clipped), ramps down
over that time instead of stepping (attack), and lets the gain back up over tens of milliseconds (release), so it is
heard as a slight dip on a loud syllable, not as distortion. Offline, so the look-ahead costs no delay: the gain
lines up with the samples it scales, and nothing moves in time.

The curve is computed on a grid of GRID_SAMPLES-sample intervals (vectorised, 16× fewer points than samples) and
interpolated linearly in between; each grid point is at least as low as both neighbouring intervals need, so the
interpolated gain keeps every sample of the interval under the ceiling too.
"""

from __future__ import annotations

import numpy as np
from scipy.ndimage import maximum_filter1d, uniform_filter1d

# Look-ahead and attack: the gain starts falling this long before a peak and reaches the peak's need at the peak.
# 5 ms: about one cycle of a low voice's fundamental, short enough that the dip is not heard ahead of the syllable.
LOOKAHEAD_SECONDS = 0.005
# Release: the reduction (in dB) decays with this time constant after a peak: slow enough not to follow single
# waveform cycles (that would be heard as distortion), fast enough that a loud syllable does not duck the next one.
RELEASE_SECONDS = 0.06
# Reductions smaller than this end the release (gain exactly 1 again): a step of 0.001 dB is far below hearing.
NEGLIGIBLE_DB = 1e-3
GRID_SAMPLES = 16  # 0.33 ms at 48 kHz; the look-ahead ramp spans 15 grid intervals


def limiter_gain(samples: np.ndarray, rate: int, ceiling: float) -> tuple[np.ndarray, float] | None:
    """The per-sample gain (≤ 1) that keeps every |sample · gain| ≤ `ceiling`, and its largest reduction in dB;
    None when no sample exceeds the ceiling (nothing to limit: the caller keeps the samples as they are)."""
    samples = np.asarray(samples, dtype=np.float64)
    if samples.ndim != 1:
        raise ValueError(f"audio must be mono, a 1-D array of samples; got shape {samples.shape}")
    reduction = grid_reduction(interval_peaks(samples), rate, ceiling)
    return None if reduction is None else (per_sample_gain(reduction, len(samples)), float(reduction.max()))


def interval_peaks(samples: np.ndarray) -> np.ndarray:
    """The largest |sample| in each GRID_SAMPLES interval (the last one padded with silence). A constant gain
    scales these as it scales the samples, so a caller trying several gains measures the peaks once."""
    intervals = -(-len(samples) // GRID_SAMPLES)
    magnitude = np.zeros(intervals * GRID_SAMPLES)
    np.abs(samples, out=magnitude[:len(samples)])
    return magnitude.reshape(intervals, GRID_SAMPLES).max(axis=1)


def grid_reduction(peaks: np.ndarray, rate: int, ceiling: float | np.ndarray) -> np.ndarray | None:
    """The reduction in dB at the grid points (one more than intervals: point k opens interval k) that keeps
    every interval's peak under `ceiling` (one value, or one per interval: a ceiling lowered in places); None when
    no peak exceeds it."""
    if isinstance(rate, bool) or int(rate) != rate or rate <= 0:
        raise ValueError(f"sample rate must be a positive whole number of Hz; got {rate!r}")
    if np.ndim(ceiling) and np.shape(ceiling) != np.shape(peaks):
        raise ValueError(f"one ceiling per interval: {np.shape(peaks)[0]} intervals, {np.shape(ceiling)[0]} ceilings")
    if not np.all(np.asarray(ceiling) > 0):
        raise ValueError(f"the ceiling must be a positive sample value; got {ceiling!r}")
    ceiling = np.broadcast_to(np.asarray(ceiling, dtype=np.float64), np.shape(peaks))
    over = peaks > ceiling
    if not over.any():
        return None
    interval_need = np.zeros(len(peaks))
    interval_need[over] = 20 * np.log10(peaks[over] / ceiling[over])
    # Point k bounds intervals k-1 and k: it must reduce as much as either needs.
    need = np.zeros(len(peaks) + 1)
    need[:-1] = interval_need
    need[1:] = np.maximum(need[1:], interval_need)
    return _shaped(need, rate / GRID_SAMPLES)


def per_sample_gain(reduction: np.ndarray, length: int) -> np.ndarray:
    """Linear gain at each of `length` samples, interpolated between the grid points' gains (exactly 1 where
    both ends are 1). Each sample's gain lies between its interval's end gains, both low enough for its peak."""
    gain = 10 ** (-reduction / 20)
    fraction = np.arange(GRID_SAMPLES) / GRID_SAMPLES
    return (gain[:-1, None] + (gain[1:] - gain[:-1])[:, None] * fraction).ravel()[:length]


def _shaped(need: np.ndarray, points_per_second: float) -> np.ndarray:
    """The reduction in dB at each grid point: `need` held over the look-ahead, released, and ramped in.

    Each stage leaves the reduction at a point ≥ that point's need (the hold covers the point, the release only
    adds, and the ramp averages the look-ahead window's held values, all ≥ the need at its end), and a last
    clamp takes back what float rounding might shave off."""
    lookahead = max(1, round(LOOKAHEAD_SECONDS * points_per_second))
    held = maximum_filter1d(need, lookahead, mode="constant", origin=-(lookahead // 2))  # max over [k, k + L)
    # Release e[k] = max(held[k], e[k-1]·exp(-1/τ)), vectorised: in logs it is a running maximum,
    # ln e[k] = max over j ≤ k of (ln held[j] + j/τ) − k/τ.
    ramp = np.arange(len(need)) / (RELEASE_SECONDS * points_per_second)
    with np.errstate(divide="ignore"):
        released = np.exp(np.maximum.accumulate(np.log(held) + ramp) - ramp)
    released[released < NEGLIGIBLE_DB] = 0.0
    ramped = uniform_filter1d(released, lookahead, mode="constant", origin=(lookahead - 1) // 2)  # mean, (k-L, k]
    return np.maximum(ramped, need)
