"""Wall time of training both learned models from scratch, and of loading them back from the cache.

Usage: .venv/bin/python benchmarks/bench_training.py [--repeat N]
Uses a throw-away cache directory, so it never touches (or is helped by) ~/.cache/attention-animated.
The machine's load average is printed too: on a shared machine other jobs slow training down.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import tempfile
import time

import torch

from attention_math.learned import cache, heads, translation
from attention_math.learned.determinism import training_threads


def _timed(fn):
    started = time.perf_counter()
    result = fn()
    return time.perf_counter() - started, result


def bench(name: str, fresh, cached, repeat: int) -> None:
    train_times, load_times = [], []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as tmp:
            os.environ[cache.CACHE_ENV_VAR] = tmp
            seconds, first = _timed(fresh)
            if first.from_cache:
                raise RuntimeError(f"{name}: first call in an empty cache dir claims a cache hit")
            train_times.append(seconds)
            seconds, second = _timed(cached)
            if not second.from_cache:
                raise RuntimeError(f"{name}: second call retrained instead of loading the cache")
            load_times.append(seconds)
    print(
        f"{name:<34} train (fresh, incl. save) median {statistics.median(train_times):6.2f} s "
        f"[{', '.join(f'{t:.2f}' for t in train_times)}]   cache hit median {statistics.median(load_times) * 1000:7.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs per model (default 1)")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error("--repeat must be >= 1")
    previous = os.environ.get(cache.CACHE_ENV_VAR)
    print(
        f"torch {torch.__version__}, {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
        f"training threads {training_threads()}, load average before {os.getloadavg()[0]:.2f}"
    )
    try:
        bench(
            "seq2seq + soft attention (en→fr)",
            lambda: translation.load_translator(),
            lambda: translation.load_translator(),
            args.repeat,
        )
        bench("multi-head causal (2 heads)", heads.learned_heads, heads.learned_heads, args.repeat)
    finally:
        if previous is None:
            os.environ.pop(cache.CACHE_ENV_VAR, None)
        else:
            os.environ[cache.CACHE_ENV_VAR] = previous
    print(f"load average after {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
