"""A narrated clip's audio track: speech placed on a timeline, measured and normalised (numpy + scipy only).

The track is built at 48 kHz, the rate Opus encodes at (AAC takes it too), so both encoders get the same samples.
Loudness is measured the way broadcasters and streaming sites do (ITU-R BS.1770-4, EBU R128), so every clip plays
at the same level and a viewer need not touch the volume between clips. Speech's peaks stand ~20–25 dB above its
loudness, more than the 15–17 dB between target and ceiling, so a look-ahead peak limiter takes the few peaks down
that one constant gain would push past the ceiling.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

import numpy as np
from scipy.signal import lfilter, resample_poly

from .limiter import GRID_SAMPLES, grid_reduction, interval_peaks, per_sample_gain

OUTPUT_RATE = 48_000  # Opus only encodes at 48 kHz; AAC in mp4 plays it everywhere

# −18 LUFS integrated, inside AES TD1004's −16 to −20 for streamed speech; −23 (EBU R128 broadcast) would sound
# quiet beside everything else a reader's browser plays. Not −16: the project's Piper voice has sample peaks ~20–22 dB
# above its loudness, so at −16 the limiter had to take peaks down by up to 9–10 dB on real narration (audible as
# ducking on stressed syllables); at −18 by at most 6–6.5 dB, only in the ~6 % of the time where it acts by over 1 dB.
TARGET_LUFS = -18.0
# Sample-peak ceiling. The codecs' reconstruction overshoots the source's peaks a little; 1 dB of headroom keeps
# the decoded AAC/Opus from clipping.
PEAK_CEILING_DBFS = -1.0
# True-peak ceiling of the decoded tracks (EBU R128 s1's −1 dBTP): the peak between samples, measured 4× oversampled
# (ITU-R BS.1770-4 Annex 2). The codecs overshoot the source: FFmpeg's AAC decoded a syllable 60 ms into the summary's
# track (sample peak −1.0 dBFS) at +2.2 dBTP, Opus elsewhere at −0.4 dBTP; so the soundtrack measures what each file decodes to and lowers the ceiling where it passes
# (soundtrack.py).
TRUE_PEAK_CEILING_DBTP = -1.0
TRUE_PEAK_OVERSAMPLING = 4

# BS.1770-4, K-weighting: a high shelf (head's acoustic effect) then an RLB high-pass. The standard tabulates the
# 48 kHz coefficients only; these are the analogue prototype's parameters (as used by libebur128), from which the
# bilinear transform gives the filter at any rate and reproduces the standard's 48 kHz table.
_SHELF_HZ, _SHELF_GAIN_DB, _SHELF_Q = 1681.974450955533, 3.999843853973347, 0.7071752369554196
_HIGHPASS_HZ, _HIGHPASS_Q = 38.13547087602444, 0.5003270373238773

BLOCK_SECONDS = 0.4  # gating block (BS.1770-4 §2.5)
BLOCK_STEP_SECONDS = 0.1  # 75 % overlap
ABSOLUTE_GATE_LUFS = -70.0
RELATIVE_GATE_LU = -10.0

# Limiting lowers the loudness a little, so gain and limiter are iterated until the loudness is this close.
LOUDNESS_TOLERANCE_LU = 0.1
MAX_PASSES = 4
# The limiter aims a hair (1e-6, ~0.00001 dB) under the ceiling so float32 rounding of the result cannot step over.
_LIMIT_MARGIN = 1 - 2.0 ** -20


@dataclass(frozen=True)
class AudioLevels:
    """The normalised track's measured integrated loudness and sample peak, and the gains that got it there."""

    loudness_lufs: float
    peak_dbfs: float
    gain_db: float  # the constant gain applied before the limiter
    limited_db: float  # the most gain reduction the limiter applied on top (0.0: the limiter did nothing)


def _as_mono(samples: np.ndarray) -> np.ndarray:
    samples = np.asarray(samples)
    if samples.ndim != 1:
        raise ValueError(f"audio must be mono, a 1-D array of samples; got shape {samples.shape}")
    return samples


def _check_rate(rate: int) -> int:
    if isinstance(rate, bool) or int(rate) != rate or rate <= 0:
        raise ValueError(f"sample rate must be a positive whole number of Hz; got {rate!r}")
    return int(rate)


def resample(samples: np.ndarray, rate: int, target: int = OUTPUT_RATE) -> np.ndarray:
    """Polyphase resampling (e.g. 22050 → 48000 is ×320/147); float32 out, time zero stays at sample zero."""
    samples = _as_mono(samples).astype(np.float32, copy=False)
    rate, target = _check_rate(rate), _check_rate(target)
    if rate == target:
        return samples.copy()
    common = math.gcd(rate, target)
    return resample_poly(samples, target // common, rate // common).astype(np.float32)


def mix(placements: Iterable[tuple[float, np.ndarray, int]], duration: float, rate: int = OUTPUT_RATE) -> np.ndarray:
    """One track of exactly round(duration·rate) samples; each (start seconds, samples, sample rate) is resampled
    to `rate` and added at sample round(start·rate).

    Speech that would start before 0 or run past the end is a ValueError, not silently cut: the scene waits for
    its narration, so an overrun is a bug upstream."""
    rate = _check_rate(rate)
    if not duration >= 0:
        raise ValueError(f"track duration must be ≥ 0 seconds; got {duration!r}")
    track = np.zeros(round(duration * rate), dtype=np.float64)
    for start, samples, sample_rate in placements:
        placed = resample(samples, sample_rate, rate)
        begin = round(start * rate)
        if start < 0 or begin < 0:
            raise ValueError(f"speech placed at {start:.3f} s, before the track starts at 0 s")
        end = begin + len(placed)
        if end > len(track):
            raise ValueError(f"speech at {start:.3f} s lasts {len(placed) / rate:.3f} s and runs "
                             f"{(end - len(track)) / rate:.3f} s past the end of the {duration:.3f} s track")
        track[begin:end] += placed
    return track.astype(np.float32)


def _biquad(b0: float, b1: float, b2: float, a1: float, a2: float) -> tuple[np.ndarray, np.ndarray]:
    return np.array([b0, b1, b2]), np.array([1.0, a1, a2])


def k_weighting(rate: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """The two K-weighting stages as (b, a) coefficient pairs at `rate`."""
    rate = _check_rate(rate)
    k = math.tan(math.pi * _SHELF_HZ / rate)
    vh = 10 ** (_SHELF_GAIN_DB / 20)
    vb = vh ** 0.4996667741545416
    a0 = 1 + k / _SHELF_Q + k * k
    shelf = _biquad((vh + vb * k / _SHELF_Q + k * k) / a0, 2 * (k * k - vh) / a0, (vh - vb * k / _SHELF_Q + k * k) / a0,
                    2 * (k * k - 1) / a0, (1 - k / _SHELF_Q + k * k) / a0)
    k = math.tan(math.pi * _HIGHPASS_HZ / rate)
    a0 = 1 + k / _HIGHPASS_Q + k * k
    highpass = _biquad(1.0, -2.0, 1.0, 2 * (k * k - 1) / a0, (1 - k / _HIGHPASS_Q + k * k) / a0)
    return [shelf, highpass]


def _block_loudness(mean_squares: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore"):
        return -0.691 + 10 * np.log10(mean_squares)


def integrated_loudness(samples: np.ndarray, rate: int) -> float:
    """Integrated loudness of a mono track in LUFS (ITU-R BS.1770-4 / EBU R128): K-weighted mean square over
    400 ms blocks every 100 ms, blocks under −70 LUFS dropped, then blocks more than 10 LU below the remaining
    blocks' loudness dropped. −inf for silence or a track shorter than one block (nothing to measure)."""
    rate = _check_rate(rate)
    return _gated_loudness(_k_weighted(_as_mono(samples).astype(np.float64), rate), rate)


def _k_weighted(samples: np.ndarray, rate: int) -> np.ndarray:
    for b, a in k_weighting(rate):
        samples = lfilter(b, a, samples)
    return samples


def _gated_loudness(weighted: np.ndarray, rate: int) -> float:
    """integrated_loudness of an already K-weighted track."""
    return _gated(np.cumsum(weighted * weighted), round(BLOCK_SECONDS * rate), round(BLOCK_STEP_SECONDS * rate), 1)


def _gated(cumulative_energy: np.ndarray, block: int, step: int, samples_per_unit: int) -> float:
    """The BS.1770 gating over a running sum of K-weighted energy per unit (a sample, or a limiter interval);
    `block` and `step` are counted in units."""
    if len(cumulative_energy) < block:
        return -math.inf
    energy = np.concatenate(([0.0], cumulative_energy))
    starts = np.arange(0, len(cumulative_energy) - block + 1, step)
    mean_squares = (energy[starts + block] - energy[starts]) / (block * samples_per_unit)
    mean_squares = np.maximum(mean_squares, 0.0)  # cumsum differences can go a hair negative in silence
    loudness = _block_loudness(mean_squares)
    above_absolute = loudness > ABSOLUTE_GATE_LUFS
    if not above_absolute.any():
        return -math.inf
    relative_gate = float(_block_loudness(mean_squares[above_absolute].mean())) + RELATIVE_GATE_LU
    gated = above_absolute & (loudness > relative_gate)
    return float(_block_loudness(mean_squares[gated].mean()))


def peak_dbfs(samples: np.ndarray) -> float:
    """Sample peak in dB relative to full scale (1.0); −inf for silence."""
    peak = float(np.max(np.abs(samples))) if len(samples) else 0.0
    return 20 * math.log10(peak) if peak > 0 else -math.inf


def normalise(samples: np.ndarray, rate: int, lowered_db: np.ndarray | None = None) -> tuple[np.ndarray, AudioLevels]:
    """Scale the track to TARGET_LUFS, with a look-ahead peak limiter holding every sample under PEAK_CEILING_DBFS,
    and, where `lowered_db` says (dB ≥ 0, one per limiter interval of GRID_SAMPLES samples), under a ceiling
    lowered by that much.

    A track whose peaks fit under the ceiling at the target gain gets that one constant gain and nothing else.
    Otherwise the limiter takes the peaks down, which lowers the loudness a little, so the gain is raised and the
    limiter run again until the loudness is within LOUDNESS_TOLERANCE_LU of the target (2–3 passes on speech).
    No sample is ever clipped. A silent track (or one shorter than a 400 ms block) has no loudness and keeps
    gain 0 dB.

    The passes work on the limiter's grid (16-sample intervals): each interval's K-weighted energy is measured
    once and scaled by the interval's gain², instead of limiting and K-weighting all samples again (the gain moves
    over milliseconds, slowly beside the filters' response: on the project's voice the estimate matched the
    measurement to 0.001 LU, on synthetic 2 ms spikes to 0.07 LU). That keeps a 2-minute track well under a second. The loudness reported is measured on the
    returned samples."""
    samples = _as_mono(samples).astype(np.float64)
    rate = _check_rate(rate)
    ceiling = 10 ** (PEAK_CEILING_DBFS / 20) * _LIMIT_MARGIN
    if lowered_db is not None:
        lowered_db = np.asarray(lowered_db, dtype=np.float64)
        if lowered_db.shape != (-(-len(samples) // GRID_SAMPLES),) or not (lowered_db >= 0).all():
            raise ValueError(f"lowered_db: one reduction ≥ 0 dB per {GRID_SAMPLES}-sample interval of the track")
        ceiling = ceiling * 10 ** (-lowered_db / 20)
    weighted = _k_weighted(samples, rate)
    loudness = _gated_loudness(weighted, rate)
    gain_db = TARGET_LUFS - loudness if math.isfinite(loudness) else 0.0
    peaks = interval_peaks(samples)
    interval_energy = None
    previous = None  # (gain, loudness) of the pass before: the secant through two passes converges fast
    for attempt in range(MAX_PASSES):
        reduction = grid_reduction(peaks * 10 ** (gain_db / 20), rate, ceiling)
        if reduction is None:
            break
        if interval_energy is None:
            interval_energy = _interval_sums(weighted * weighted)
        estimate = _limited_loudness(interval_energy, gain_db, reduction, rate)
        if abs(estimate - TARGET_LUFS) <= LOUDNESS_TOLERANCE_LU or attempt == MAX_PASSES - 1:
            break  # (the last pass keeps its gain: `reduction` belongs to it)
        slope = 1.0
        if previous is not None:
            slope = min(1.0, max(0.1, (estimate - previous[1]) / (gain_db - previous[0])))
        previous = (gain_db, estimate)
        gain_db += (TARGET_LUFS - estimate) / slope
    out = samples * 10 ** (gain_db / 20)
    if reduction is not None:
        out *= per_sample_gain(reduction, len(out))
    out = out.astype(np.float32)
    peak = float(np.max(np.abs(out))) if len(out) else 0.0
    if peak > 10 ** (PEAK_CEILING_DBFS / 20):  # cannot happen: the limiter aims under it by more than rounding
        raise AssertionError(f"normalised track peaks at {peak!r}, over the ceiling {PEAK_CEILING_DBFS} dBFS")
    limited_db = 0.0 if reduction is None else float(reduction.max())
    return out, AudioLevels(integrated_loudness(out, rate), peak_dbfs(out), gain_db, limited_db)


def interval_true_peaks(samples: np.ndarray) -> np.ndarray:
    """The true peak (linear) in each limiter interval of GRID_SAMPLES samples: the largest magnitude of the track
    oversampled TRUE_PEAK_OVERSAMPLING times (scipy's polyphase low-pass, delay compensated: oversampled point
    4n is sample n), so a peak between two samples counts where it is."""
    samples = _as_mono(samples).astype(np.float64)
    intervals = -(-len(samples) // GRID_SAMPLES)
    per_interval = GRID_SAMPLES * TRUE_PEAK_OVERSAMPLING
    magnitude = np.zeros(intervals * per_interval)
    if len(samples):
        oversampled = np.abs(resample_poly(samples, TRUE_PEAK_OVERSAMPLING, 1))
        magnitude[:len(oversampled)] = oversampled[:len(magnitude)]
    return magnitude.reshape(intervals, per_interval).max(axis=1)


def true_peak_dbtp(samples: np.ndarray) -> float:
    """The track's true peak in dBTP (dB relative to full scale, between samples included); −inf for silence."""
    peaks = interval_true_peaks(samples)
    peak = float(peaks.max()) if len(peaks) else 0.0
    return 20 * math.log10(peak) if peak > 0 else -math.inf


def _interval_sums(values: np.ndarray) -> np.ndarray:
    intervals = -(-len(values) // GRID_SAMPLES)
    padded = np.zeros(intervals * GRID_SAMPLES)
    padded[:len(values)] = values
    return padded.reshape(intervals, GRID_SAMPLES).sum(axis=1)


def _limited_loudness(interval_energy: np.ndarray, gain_db: float, reduction: np.ndarray, rate: int) -> float:
    """Estimated loudness after gain and limiter: each interval's K-weighted energy times its mean gain²."""
    gain = 10 ** ((gain_db - reduction) / 20)
    energy = interval_energy * ((gain[:-1] + gain[1:]) / 2) ** 2
    block = round(BLOCK_SECONDS * rate / GRID_SAMPLES)
    step = round(BLOCK_STEP_SECONDS * rate / GRID_SAMPLES)
    return _gated(np.cumsum(energy), block, step, GRID_SAMPLES)
