"""Signals during a run: Ctrl-C held while a clip is being installed, and `kill` stopping a run like Ctrl-C."""

from __future__ import annotations

import contextlib
import signal


@contextlib.contextmanager
def deferred_interrupts():
    """Hold Ctrl-C (and SIGTERM) until the block ends; yields the list of signals that arrived meanwhile."""
    received: list[int] = []
    previous = {sig: signal.signal(sig, lambda signum, frame: received.append(signum))
                for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield received
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


@contextlib.contextmanager
def sigterm_as_interrupt():
    """`kill` stops a run the same clean way as Ctrl-C."""
    def handler(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
