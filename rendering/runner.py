"""Run render jobs in parallel worker processes, follow their events, and stop cleanly on Ctrl-C.

The loop is single-threaded (a selector over the workers' event pipes), so the callback that installs a finished
clip runs on the main thread, one clip at a time, inside a section that defers Ctrl-C until the clip's files and
the manifest are consistent again.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shutil
import signal
import subprocess
import sys
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .jobs import FAILED, INTERRUPTED, NOT_STARTED, Job, Outcome

REPO_ROOT = Path(__file__).resolve().parent.parent


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


def worker_env(root: Path) -> dict[str, str]:
    env = dict(os.environ)
    paths = [str(root), str(REPO_ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    env["PYTHONHASHSEED"] = "0"  # set and dict iteration orders must not vary between two renders
    env.setdefault("OMP_NUM_THREADS", "1")  # torch in several workers on few cores: no oversubscription
    return env


@dataclass
class _Running:
    job: Job
    process: subprocess.Popen
    fd: int
    work: Path
    log: Path | None
    started: float
    buffer: bytes = b""
    result: dict | None = None
    error: str | None = None
    bad_input: bool = False
    events: list[str] = field(default_factory=list)


class Runner:
    """Start up to `parallel` workers at a time; report through `reporter`; hand results to `install`."""

    def __init__(self, *, parallel: int, work_root: Path, root: Path, logs_dir: Path, verbose: bool,
                 reporter, install: Callable[[Job, dict], Outcome]) -> None:
        self.parallel = parallel
        self.work_root = work_root
        self.root = root
        self.logs_dir = logs_dir
        self.verbose = verbose
        self.reporter = reporter
        self.install = install
        self.env = worker_env(root)

    def run(self, jobs: list[Job]) -> tuple[list[Outcome], bool]:
        """Returns the outcomes and whether the run was interrupted."""
        pending = deque(sorted(jobs, key=lambda job: -job.cost()))
        running: dict[int, _Running] = {}
        outcomes: list[Outcome] = []
        selector = selectors.DefaultSelector()
        try:
            with sigterm_as_interrupt():
                while pending or running:
                    while pending and len(running) < self.parallel:
                        run = self._start(pending.popleft())
                        running[run.fd] = run
                        selector.register(run.fd, selectors.EVENT_READ)
                    for key, _ in selector.select(timeout=0.25):
                        run = running[key.fd]
                        chunk = os.read(key.fd, 65536)
                        if chunk:
                            self._events(run, chunk)
                            continue
                        selector.unregister(key.fd)
                        del running[key.fd]
                        outcome, interrupted = self._finish(run)
                        outcomes.append(outcome)
                        if interrupted:
                            raise KeyboardInterrupt
                        if outcome.bad_input:  # the same input would fail every other clip: stop, write no more
                            for other in running.values():
                                self._stop(other)
                                outcomes.append(self._outcome(other.job, INTERRUPTED,
                                                              time.monotonic() - other.started))
                                self.reporter.finished(other.job, outcomes[-1])
                            outcomes += [self._outcome(job, NOT_STARTED) for job in pending]
                            return outcomes, False
                    self.reporter.tick()
        except KeyboardInterrupt:
            for run in running.values():
                self._stop(run)
            for run in running.values():
                outcomes.append(self._outcome(run.job, INTERRUPTED, time.monotonic() - run.started))
                self.reporter.finished(run.job, outcomes[-1])
            outcomes += [self._outcome(job, NOT_STARTED) for job in pending]
            return outcomes, True
        finally:
            for run in running.values():
                with contextlib.suppress(OSError):
                    os.close(run.fd)
            selector.close()
        return outcomes, False

    @staticmethod
    def _outcome(job: Job, status: str, seconds: float = 0.0, **fields) -> Outcome:
        return Outcome(job.spec.id, job.quality.name, status, seconds, narrated=job.narrated, **fields)

    def _start(self, job: Job) -> _Running:
        work = self.work_root / job.name
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        spec = job.spec
        job_file = work / "job.json"
        job_file.write_text(json.dumps({
            "scene_id": spec.id, "module": spec.module, "class_name": spec.class_name,
            "quality": {"name": job.quality.name, "manim_name": job.quality.manim_name, "width": job.quality.width,
                        "height": job.quality.height, "fps": job.quality.fps},
            "formats": job.formats, "work_dir": str(work), "verbose": self.verbose, "narration": job.narration,
        }), encoding="utf-8")
        read_fd, write_fd = os.pipe()
        log = None if self.verbose else work / "worker.log"
        stderr = None if log is None else open(log, "wb")
        try:
            process = subprocess.Popen(
                [sys.executable, "-m", "rendering.worker", str(job_file), str(write_fd)],
                cwd=self.root, env=self.env, pass_fds=(write_fd,), stdin=subprocess.DEVNULL,
                stdout=stderr if stderr is not None else None, stderr=stderr)
        finally:
            os.close(write_fd)
            if stderr is not None:
                stderr.close()
        self.reporter.started(job)
        return _Running(job, process, read_fd, work, log, time.monotonic())

    def _events(self, run: _Running, chunk: bytes) -> None:
        run.buffer += chunk
        *lines, run.buffer = run.buffer.split(b"\n")
        for line in lines:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            kind = event.get("event")
            run.events.append(kind)
            if kind == "frames":
                self.reporter.frames(run.job, event["frames"])
            elif kind == "done":
                run.result = event
            elif kind == "error":
                run.error = event.get("message") or "error"
                run.bad_input = bool(event.get("bad_input"))

    def _finish(self, run: _Running) -> tuple[Outcome, bool]:
        """The clip's outcome, and whether Ctrl-C arrived while its files were being moved into place."""
        os.close(run.fd)
        returncode = run.process.wait()
        seconds = time.monotonic() - run.started
        job = run.job
        interrupted: list[int] = []
        if returncode == 0 and run.result is not None:
            try:
                with deferred_interrupts() as interrupted:
                    outcome = self.install(job, run.result)
                outcome.seconds = seconds
                (self.logs_dir / f"{job.name}.log").unlink(missing_ok=True)
            except Exception as error:  # e.g. disk full while moving files in
                outcome = self._outcome(job, FAILED, seconds,
                                        error=f"installing the clip failed: {type(error).__name__}: {error}")
        else:
            error = run.error or self._exit_reason(returncode, run.log)
            outcome = self._outcome(job, FAILED, seconds, error=error, log=self._keep_log(run),
                                    bad_input=run.bad_input)
        self.reporter.finished(job, outcome)
        shutil.rmtree(run.work, ignore_errors=True)
        return outcome, bool(interrupted)

    @staticmethod
    def _exit_reason(returncode: int, log: Path | None) -> str:
        reason = (f"worker killed by signal {-returncode}" if returncode < 0
                  else f"worker exited with status {returncode}")
        if log is not None and log.exists():
            lines = [line for line in log.read_text(errors="replace").splitlines() if line.strip()]
            if lines:
                reason += f": {lines[-1].strip()}"
        return reason

    def _keep_log(self, run: _Running) -> Path | None:
        if run.log is None or not run.log.exists():
            return None
        self.logs_dir.mkdir(parents=True, exist_ok=True)
        target = self.logs_dir / f"{run.job.name}.log"
        shutil.copyfile(run.log, target)
        return target

    @staticmethod
    def _stop(run: _Running) -> None:
        """Terminate a worker; its work folder (the only place it writes) is removed with the run's."""
        if run.process.poll() is None:
            run.process.terminate()
        try:
            run.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            run.process.kill()
            run.process.wait()

