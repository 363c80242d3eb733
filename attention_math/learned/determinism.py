"""Run a training job reproducibly without leaving global torch state changed for the caller."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

import torch

# One thread. The matrices here are tiny (≤ 128 wide), so a second thread buys little, and on the shared
# 2-core machine two spinning torch threads under load were measured 3.3 s on one run and 133 s on the next.
# A fixed count also keeps the order of floating-point sums, hence the weights, independent of the core count.
TRAINING_THREADS = 1


def training_threads() -> int:
    return max(1, min(TRAINING_THREADS, os.cpu_count() or 1))


@contextlib.contextmanager
def deterministic(seed: int) -> Iterator[None]:
    """Seed torch, force deterministic kernels and a fixed thread count; restore everything on exit."""
    previous_threads = torch.get_num_threads()
    previous_deterministic = torch.are_deterministic_algorithms_enabled()
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        torch.set_num_threads(training_threads())
        torch.use_deterministic_algorithms(True)
        try:
            yield
        finally:
            torch.use_deterministic_algorithms(previous_deterministic)
            torch.set_num_threads(previous_threads)
