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
    """(wall seconds, CPU seconds of this process, result): CPU time is what the model costs, wall time
    is what a user waits on a machine shared with other jobs."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def bench(name: str, load, repeat: int) -> None:
    walls, cpus, hits = [], [], []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as tmp:
            os.environ[cache.CACHE_ENV_VAR] = tmp
            wall, cpu, first = _timed(load)
            if first.from_cache:
                raise RuntimeError(f"{name}: first call in an empty cache dir claims a cache hit")
            walls.append(wall)
            cpus.append(cpu)
            wall, _, second = _timed(load)
            if not second.from_cache:
                raise RuntimeError(f"{name}: second call retrained instead of loading the cache")
            hits.append(wall)
    print(
        f"{name:<34} fresh (train+save) wall median {statistics.median(walls):6.2f} s "
        f"[{', '.join(f'{t:.2f}' for t in walls)}], CPU median {statistics.median(cpus):6.2f} s; "
        f"cache hit median {statistics.median(hits) * 1000:6.1f} ms"
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
        bench("seq2seq + soft attention (en→fr)", translation.learned_alignment, args.repeat)
        bench("multi-head causal (2 heads)", heads.learned_heads, args.repeat)
    finally:
        if previous is None:
            os.environ.pop(cache.CACHE_ENV_VAR, None)
        else:
            os.environ[cache.CACHE_ENV_VAR] = previous
    print(f"load average after {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
