"""Sound encoded again, held under the true-peak ceiling as it decodes (EBU R128's −1 dBTP, audio.py).

A codec's reconstruction overshoots the samples it was given: a narrated clip's AAC decoded at up to +2.2 dBTP from a
track limited to −1 dBFS, so soundtrack.py measures what each clip decodes to and lowers the limiter's ceiling where
it passes. The film and the decks' beat videos carry that sound encoded once more: the clips' tracks decoded, joined
or cut at a beat, and encoded again (film.py, segments.py). Another generation overshoots again, and a cut or a join
where the sound is not silent is a step the codec rings on; so each of those files is decoded and measured too, and
where it passes the ceiling the track's gain is lowered there (around the overshoot, by it and a margin, through the
limiter's look-ahead and release, so no step) and the file encoded again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable

import av
import numpy as np
from scipy.ndimage import maximum_filter1d

from .audio import OUTPUT_RATE, TRUE_PEAK_CEILING_DBTP, interval_true_peaks
from .limiter import GRID_SAMPLES, grid_reduction, interval_peaks, per_sample_gain

#: Encodes of one track at most: the first, and one after each lowering where a decoded file passed the ceiling.
#: The summary's English track (AAC +2.2 dBTP) and qkv_scale's French one (AAC −0.26 dBTP) held on the third.
MAX_ENCODES = 4
#: How far around a decoded overshoot the gain is lowered, each side: one AAC frame (Opus' are shorter). The codec
#: spreads its error over its frame, so the overshoot may sit beside the peak that causes it.
OVERSHOOT_SPREAD_SAMPLES = 1024
#: A correction aims this far under the ceiling, everywhere a decoded file comes that close: a track changed
#: anywhere encodes a little differently everywhere (the codecs' bit allocation moves), so peaks that decoded just
#: under the ceiling pass it on the next encode. Lowering only what passed, by its overshoot plus 0.1 dB, still
#: passed it by 0.05 dB after 5 encodes of the summary's track; aiming 0.5 dB under it, it held on the third.
AIM_UNDER_DB = 0.5
#: A long track (a film of every clip: ~15 min, 43 M samples) is measured this many samples at a time, with this many
#: of its neighbours' on each side (the 4× oversampling filter reaches ~10 samples), so that its oversampled copy never
#: sits whole in memory. Both are whole limiter intervals, so the blocks' intervals are the track's.
MEASURE_BLOCK = GRID_SAMPLES * 65_536
MEASURE_CONTEXT = GRID_SAMPLES * 16


def long_interval_true_peaks(samples: np.ndarray) -> np.ndarray:
    """audio.interval_true_peaks of a track of any length, measured block by block: the same figures."""
    count = -(-len(samples) // GRID_SAMPLES)
    peaks = np.zeros(count)
    for start in range(0, len(samples), MEASURE_BLOCK):
        stop = min(len(samples), start + MEASURE_BLOCK)
        low, high = max(0, start - MEASURE_CONTEXT), min(len(samples), stop + MEASURE_CONTEXT)
        block = interval_true_peaks(np.asarray(samples[low:high], dtype=np.float64))
        first = (start - low) // GRID_SAMPLES
        peaks[start // GRID_SAMPLES:-(-stop // GRID_SAMPLES)] = block[first:first + -(-(stop - start) // GRID_SAMPLES)]
    return peaks


def decoded_track(path: Path, length: int) -> np.ndarray:
    """The file's first audio stream as FFmpeg decodes it (priming dropped, as a player drops it), cut or padded with
    silence to `length` samples (float32: a film's track is long)."""
    track = np.zeros(length, np.float32)
    at = 0
    with av.open(str(path)) as container:
        for frame in container.decode(container.streams.audio[0]):
            samples = frame.to_ndarray().reshape(-1)[:length - at]
            track[at:at + len(samples)] = samples
            at += len(samples)
            if at >= length:
                break
    return track


def decoded_overshoot(paths: Iterable[Path], length: int) -> np.ndarray:
    """dB over TRUE_PEAK_CEILING_DBTP of every limiter interval of the first `length` samples: the worst of the
    files' decoded sound (negative where under it)."""
    ceiling = 10 ** (TRUE_PEAK_CEILING_DBTP / 20)
    overshoot = np.full(-(-length // GRID_SAMPLES), -np.inf)
    for path in paths:
        with np.errstate(divide="ignore"):
            measured = 20 * np.log10(long_interval_true_peaks(decoded_track(path, length)) / ceiling)
        overshoot = np.maximum(overshoot, measured)
    return overshoot


def lowered_by(track: np.ndarray, lowered_db: np.ndarray) -> np.ndarray:
    """`track` with its gain lowered at least `lowered_db` (one value ≥ 0 per limiter interval) where that says, the
    limiter's look-ahead and release shaping the change; unchanged elsewhere."""
    peaks = interval_peaks(np.asarray(track, dtype=np.float64))
    lowered_db = np.asarray(lowered_db, dtype=np.float64)
    if lowered_db.shape != peaks.shape or not (lowered_db >= 0).all():
        raise ValueError(f"lowered_db: one reduction ≥ 0 dB per {GRID_SAMPLES}-sample interval of the track")
    where = (lowered_db > 0) & (peaks > 0)
    never = 2 * max(1.0, float(peaks.max(initial=0.0)))
    ceiling = np.where(where, peaks * 10 ** (-lowered_db / 20), never)
    reduction = grid_reduction(peaks, OUTPUT_RATE, ceiling)
    if reduction is None:
        return np.asarray(track, dtype=np.float32)
    return (np.asarray(track, dtype=np.float64) * per_sample_gain(reduction, len(track))).astype(np.float32)


def encode_under_true_peak(track: np.ndarray, encode: Callable[[np.ndarray], list[Path]]) -> float:
    """Encode `track` (mono float samples at 48 kHz) with `encode`, which writes every file of it and returns their
    paths, held under the ceiling (`encode_until_under`) by lowering the track's gain where a file passed it.
    Returns the files' decoded true peak in dBTP (−inf for silence)."""
    track = np.asarray(track, dtype=np.float32)
    return encode_until_under(
        lambda lowered: (encode(track if lowered is None else lowered_by(track, lowered)), len(track)), "sound")


def encode_until_under(encode: Callable[[np.ndarray | None], tuple[list[Path], int]], what: str) -> float:
    """The one loop that holds encoded sound under TRUE_PEAK_CEILING_DBTP: `encode(lowered)` writes every file of
    the track lowered by `lowered` (None at first; then dB ≥ 0 per limiter interval, applied its own way: a gain, a
    limiter's ceiling) and returns (their paths, the track's length); each file is decoded and measured 4×
    oversampled, and wherever one passes the ceiling, `lowered` grows there (by the overshoot and AIM_UNDER_DB,
    OVERSHOOT_SPREAD_SAMPLES around it) and all are encoded again, until every file holds (at most MAX_ENCODES
    encodes: more is a RuntimeError naming `what` and the figure). Returns the files' decoded true peak in dBTP."""
    lowered = None
    for _encode in range(MAX_ENCODES):
        overshoot = decoded_overshoot(*encode(lowered))
        worst = float(overshoot.max(initial=-np.inf))
        if not worst > 0:
            return worst + TRUE_PEAK_CEILING_DBTP
        need = maximum_filter1d(np.maximum(overshoot + AIM_UNDER_DB, 0.0),
                                2 * (OVERSHOOT_SPREAD_SAMPLES // GRID_SAMPLES) + 1)
        lowered = need if lowered is None else lowered + need
    raise RuntimeError(f"the decoded {what} still peaks {worst:.2f} dB over {TRUE_PEAK_CEILING_DBTP} dBTP after "
                       f"{MAX_ENCODES} encodes")
