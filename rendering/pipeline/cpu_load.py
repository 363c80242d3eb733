"""How many of this machine's cores are free right now: the idle time of two /proc/stat samples a moment apart.

The scheduler splits a clip only where the chunks side by side are predicted to beat the whole render (schedule.py);
that prediction needs the cores the chunks would really get. A run that already knows a clip's timeline samples the
machine once, before its first task, when the plan would split something on free cores (runner.py); the measuring
pass of a clip with no timeline yet gives the same figure by the share of a core it got.

/proc/stat's first line sums every core's time in ticks since boot: user, nice, system, idle, iowait, irq, softirq,
steal, guest, guest_nice (guest time is already inside user and nice). Free cores over the interval: the cores times
the idle share of the ticks that passed. Time spent by niced processes (nice > 0) counts as free to a run that is not
niced itself (the kernel gives a nice-0 worker most of a core against a niced one: weight 1024 against 110 at nice
10), and as busy to a niced run, which competes with it as an equal or worse.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

PROC_STAT = Path("/proc/stat")
SAMPLE_SECONDS = 0.3


@dataclass(frozen=True)
class CpuTimes:
    """All cores' ticks from one /proc/stat sample."""

    cores: int  # the machine's cores (its "cpuN" lines)
    idle: int  # idle + iowait
    niced: int  # processes with nice > 0
    total: int  # every kind of time except guest (counted in user and nice already)


def parse_stat(text: str) -> CpuTimes:
    """The sums line and the number of per-core lines of /proc/stat's text."""
    lines = text.splitlines()
    fields = next(line.split() for line in lines if line.split()[:1] == ["cpu"])
    values = [int(value) for value in fields[1:]] + [0] * 10
    user, nice, system, idle, iowait, irq, softirq, steal = values[:8]
    cores = sum(1 for line in lines if line.startswith("cpu") and line[3:4].isdigit())
    return CpuTimes(max(1, cores), idle + iowait, nice, user + nice + system + idle + iowait + irq + softirq + steal)


def free_cores(before: CpuTimes, after: CpuTimes, niced_is_free: bool) -> float | None:
    """Cores free between two samples (0 to the machine's cores), or None when no tick passed between them."""
    ticks = after.total - before.total
    if ticks <= 0:
        return None
    free = after.idle - before.idle
    if niced_is_free:
        free += after.niced - before.niced
    return after.cores * min(1.0, max(0.0, free / ticks))


def sample_free_cores(seconds: float = SAMPLE_SECONDS, stat: Path = PROC_STAT) -> float | None:
    """Free cores over the next `seconds` (this process sleeps meanwhile), at most the cores this process may run
    on; None where /proc/stat cannot be read (not Linux)."""
    try:
        before = parse_stat(stat.read_text())
        time.sleep(seconds)
        after = parse_stat(stat.read_text())
    except (OSError, ValueError, StopIteration):
        return None
    free = free_cores(before, after, niced_is_free=os.nice(0) == 0)
    if free is None:
        return None
    try:
        allowed = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        allowed = after.cores
    return min(free, allowed)
