"""Run render jobs as tasks on a backend (local worker processes, or a Dask cluster), and stop cleanly on Ctrl-C.

A job becomes one task (the whole clip) or several (chunks of a long clip, see schedule.py), longest first. A
clip that has never been rendered, where workers would idle, starts rendering at once as a lead chunk while a
measuring task runs its storyboard without drawing beside it; with the timeline known, the lead is told where to
stop (a cut file it watches; it answers with the frame it really stopped at) and the other chunks start from
there. When a clip's chunks are all back they are joined (assemble.py).

The loop is single-threaded, so the callback that installs a finished clip runs on the main thread, one clip at a
time, inside a section that defers Ctrl-C until the clip's files and the manifest are consistent again.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import selectors
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from . import atomic, schedule
from .assemble import assemble
from .frame_window import Window
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


CLIP, CHUNK, LEAD, MEASURE = "clip", "chunk", "lead", "measure"
CUT_FILE = "cut"  # in a lead chunk's work folder: the frame to stop at, written once, atomically


@dataclass
class Task:
    """One unit of work for a backend: a whole clip, a chunk of one, or a measuring pass."""

    job: Job
    kind: str
    cost: float
    window: Window | None = None
    index: int = 0
    count: int = 1

    @property
    def name(self) -> str:
        if self.kind == CHUNK:
            return f"{self.job.name}.part{self.index + 1}of{self.count}"
        return self.job.name + ("" if self.kind == CLIP else f".{self.kind}")

    def work_dir(self, work_root: Path) -> Path:
        """A whole clip works in the job's folder; chunks and the measuring pass in folders inside it."""
        job_folder = work_root / self.job.name
        return job_folder if self.kind == CLIP else job_folder / self.name[len(self.job.name) + 1:]

    def payload(self, work: Path, verbose: bool) -> dict:
        """The worker's job file (rendering/worker.py)."""
        job, spec = self.job, self.job.spec
        payload = {
            "scene_id": spec.id, "module": spec.module, "class_name": spec.class_name,
            "quality": {"name": job.quality.name, "manim_name": job.quality.manim_name, "width": job.quality.width,
                        "height": job.quality.height, "fps": job.quality.fps},
            "formats": job.formats, "work_dir": str(work), "verbose": verbose, "narration": job.narration,
            "task": self.name, "example": job.example,
        }
        if self.kind == MEASURE:
            payload["window"] = {"start": 0, "stop": 0, "run_to_end": True}
        elif self.kind == LEAD:
            payload["window"] = {"start": 0, "stop": None, "run_to_end": True, "cut_file": str(work / CUT_FILE)}
        elif self.kind == CHUNK:
            last = self.index == self.count - 1
            payload["window"] = {"start": self.window.start, "stop": self.window.stop, "run_to_end": last}
        return payload


@dataclass
class Finished:
    """What a backend reports when a task ends: its result, or why it failed."""

    task: Task
    result: dict | None = None
    error: str | None = None
    bad_input: bool = False
    log: Path | None = None  # the worker's output, kept in the logs folder when a task failed
    returncode: int = 0


@dataclass(frozen=True)
class Cut:
    """A lead chunk's answer to its cut: the frame it stops at."""

    stop: int


@dataclass
class _Progress:
    """A job's tasks: what came back, how many chunks to wait for, frames drawn so far per task."""

    job: Job
    started: float | None = None
    chunks: dict[int, dict] = field(default_factory=dict)
    count: int | None = None  # chunks the clip is joined from, once known
    lead: Path | None = None  # a lead chunk's work folder, while the cut is not decided
    planned: list[Window] = field(default_factory=list)  # the measured plan, waiting for the lead's answer
    frames: dict[str, int] = field(default_factory=dict)
    done: bool = False


def initial_tasks(jobs: list[Job], parallel: int, live_cuts: bool = True) -> list[Task]:
    """Whole clips, and chunks of the long ones, longest first. A clip with no timeline, where a worker would
    otherwise be idle, is measured; with `live_cuts` (local processes, which can watch a cut file) it also starts
    rendering at once, as a lead chunk."""
    clips = {job.key: (job.cost(), job.animations() if job.splittable else None, job.quality.fps) for job in jobs}
    by_key = {job.key: job for job in jobs}
    tasks = [_task(by_key[piece.job_key], piece) for piece in schedule.plan(clips, parallel)]
    if len(jobs) >= parallel:
        return tasks
    unknown = {job.key for job in jobs if job.splittable and job.animations() is None
               and (job.expected_seconds or math.inf) >= 2 * schedule.MIN_CHUNK_SECONDS}
    measured = []
    for task in tasks:
        if task.job.key not in unknown:
            measured.append(task)
        elif live_cuts:
            measured += [Task(task.job, LEAD, task.cost), Task(task.job, MEASURE, task.cost)]
        else:
            measured.append(Task(task.job, MEASURE, task.cost))
    return measured


def _task(job: Job, piece: schedule.Piece) -> Task:
    if piece.window is None:
        return Task(job, CLIP, piece.cost)
    return Task(job, CHUNK, piece.cost, piece.window, piece.index, piece.count)


class Runner:
    """Run up to `parallel` tasks at a time on `backend`; report through `reporter`; hand clips to `install`."""

    def __init__(self, *, parallel: int, work_root: Path, root: Path, logs_dir: Path, verbose: bool,
                 reporter, install: Callable[[Job, dict], Outcome], backend=None) -> None:
        self.parallel = parallel
        self.work_root = work_root
        self.logs_dir = logs_dir
        self.verbose = verbose
        self.reporter = reporter
        self.install = install
        self.backend = backend if backend is not None else LocalProcesses(root, verbose)

    def run(self, jobs: list[Job]) -> tuple[list[Outcome], bool]:
        """Returns the outcomes and whether the run was interrupted."""
        pending = initial_tasks(jobs, self.parallel, getattr(self.backend, "live_cuts", False))
        progress = {job.key: _Progress(job) for job in jobs}
        for task in pending:
            if task.kind == CHUNK:
                progress[task.job.key].count = task.count
        running: dict[int, Task] = {}  # backend handle -> task
        outcomes: list[Outcome] = []
        try:
            with sigterm_as_interrupt():
                while pending or running:
                    while pending and len(running) < self.parallel:
                        task = pending.pop(0)
                        state = progress[task.job.key]
                        work = task.work_dir(self.work_root)
                        shutil.rmtree(work, ignore_errors=True)
                        work.mkdir(parents=True)
                        running[self.backend.start(task, work)] = task
                        if task.kind == LEAD:
                            state.lead = work
                        if state.started is None:
                            state.started = time.monotonic()
                            self.reporter.started(task.job)
                            if task.kind == CHUNK:
                                self.reporter.chunks(task.job, task.count)
                    for handle, event in self.backend.wait(0.25):
                        task = running[handle]
                        state = progress[task.job.key]
                        if isinstance(event, int):  # frames drawn so far by this task
                            state.frames[task.name] = event
                            if not state.done:
                                self.reporter.frames(task.job, sum(state.frames.values()))
                            continue
                        if isinstance(event, Cut):  # the lead stopped short: the other chunks start there
                            if not state.done:
                                pending = sorted(pending + self._after_cut(state, event.stop), key=lambda t: -t.cost)
                            continue
                        del running[handle]
                        if state.done:
                            continue  # a sibling chunk failed: this one's work is void
                        follow_up, outcome, interrupted = self._handle(event, state)
                        pending = sorted(pending + follow_up, key=lambda t: -t.cost)
                        if outcome is None:
                            continue
                        state.done = True
                        outcomes.append(outcome)
                        self._drop_siblings(task.job, pending, running)
                        self.reporter.finished(task.job, outcome)
                        shutil.rmtree(self.work_root / task.job.name, ignore_errors=True)
                        if interrupted:
                            raise KeyboardInterrupt
                        if outcome.bad_input:  # the same input would fail every other clip: stop, write no more
                            self._stop_all(running, progress, outcomes)
                            return outcomes, False
                    self.reporter.tick()
        except KeyboardInterrupt:
            self._stop_all(running, progress, outcomes)
            return outcomes, True
        finally:
            self.backend.close()
        return outcomes, False

    def _handle(self, event: Finished, state: _Progress) -> tuple[list[Task], Outcome | None, bool]:
        """New tasks this event makes, the job's outcome if it is now settled, and whether Ctrl-C came meanwhile."""
        task, job = event.task, event.task.job
        seconds = time.monotonic() - state.started
        if event.result is None:
            error = event.error or "worker failed"
            return [], self._outcome(job, FAILED, seconds, error=error, log=self._keep_log(job, event.log),
                                     bad_input=event.bad_input), False
        if task.kind == MEASURE:
            return self._measured(state, event.result["timeline"]), None, False
        if task.kind in (CHUNK, LEAD):
            state.chunks[task.index] = event.result
            if state.count is None and "clip_frames" in event.result:
                state.count = 1  # a lead that was never cut rendered the whole clip
            if state.count is None or len(state.chunks) < state.count:
                return [], None, False
            try:
                result = assemble([state.chunks[i] for i in range(state.count)], job.formats,
                                  self.work_root / job.name / "joined")
            except Exception as error:
                return [], self._outcome(job, FAILED, seconds,
                                         error=f"joining the chunks failed: {type(error).__name__}: {error}"), False
        else:
            result = event.result
        interrupted: list[int] = []
        try:
            with deferred_interrupts() as interrupted:
                outcome = self.install(job, result)
            outcome.seconds = seconds
            (self.logs_dir / f"{job.name}.log").unlink(missing_ok=True)
        except Exception as error:  # e.g. disk full while moving files in
            outcome = self._outcome(job, FAILED, seconds,
                                    error=f"installing the clip failed: {type(error).__name__}: {error}")
        return [], outcome, bool(interrupted)

    def _measured(self, state: _Progress, timeline: list) -> list[Task]:
        """The clip's timeline is known: plan its chunks. With a lead rendering already, tell it where to stop; the
        other chunks wait for its answer (_after_cut)."""
        job = state.job
        job.timeline, job.timeline_fps = timeline, job.quality.fps
        pieces = sorted(schedule.plan({job.key: (job.cost(), job.animations(), job.quality.fps)}, self.parallel),
                        key=lambda piece: piece.index)
        if state.lead is None:
            state.count = len(pieces)
            if len(pieces) > 1:
                self.reporter.chunks(job, len(pieces))
            return [_task(job, piece) for piece in pieces]
        if len(pieces) > 1 and not state.chunks:  # (a lead already back rendered the whole clip)
            state.planned = [piece.window for piece in pieces]
            atomic.write_text(state.lead / CUT_FILE, str(pieces[1].window.start))
        return []

    def _after_cut(self, state: _Progress, stop: int) -> list[Task]:
        """The lead stops at `stop`: the planned chunks after it, the first one starting exactly there."""
        job, animations = state.job, state.job.animations()
        total = sum(animation.frames for animation in animations)
        edges = [stop] + [window.start for window in state.planned[2:] if window.start > stop]
        edges = [edge for edge in edges if edge < total] or [stop]
        windows = [Window(start, stop_) for start, stop_ in zip(edges, [*edges[1:], None])]
        state.count = len(windows) + 1
        self.reporter.chunks(job, state.count)
        return [Task(job, CHUNK, schedule.cost_between(animations, window.start, window.stop or total), window,
                     index, state.count) for index, window in enumerate(windows, start=1)]

    def _drop_siblings(self, job: Job, pending: list[Task], running: dict[int, Task]) -> None:
        """A settled job's other tasks (chunks after one failed) are stopped or never started."""
        pending[:] = [task for task in pending if task.job.key != job.key]
        for handle, task in list(running.items()):
            if task.job.key == job.key:
                self.backend.stop(handle)
                del running[handle]

    def _stop_all(self, running: dict[int, Task], progress: dict[str, _Progress], outcomes: list[Outcome]) -> None:
        for handle in running:
            self.backend.stop(handle)
        for task in running.values():
            state = progress[task.job.key]
            if state.done:
                continue
            state.done = True
            outcomes.append(self._outcome(task.job, INTERRUPTED, time.monotonic() - state.started))
            self.reporter.finished(task.job, outcomes[-1])
        running.clear()
        for state in progress.values():  # never started, or some chunks back and the rest not yet out
            if not state.done:
                state.done = True
                outcomes.append(self._outcome(state.job, NOT_STARTED if state.started is None else INTERRUPTED))

    @staticmethod
    def _outcome(job: Job, status: str, seconds: float = 0.0, **fields) -> Outcome:
        return Outcome(job.spec.id, job.quality.name, status, seconds, narrated=job.narrated, **fields)

    def _keep_log(self, job: Job, log: Path | None) -> Path | None:
        if log is None or not log.exists():
            return None
        self.logs_dir.mkdir(parents=True, exist_ok=True)
        target = self.logs_dir / f"{job.name}.log"
        shutil.copyfile(log, target)
        return target


@dataclass
class _Process:
    task: Task
    process: subprocess.Popen
    fd: int
    work: Path
    log: Path | None
    buffer: bytes = b""
    result: dict | None = None
    error: str | None = None
    bad_input: bool = False


class LocalProcesses:
    """The default backend: each task in a `python -m rendering.worker` process of its own on this machine,
    followed through its event pipe (JSON lines: started, frames, done, error)."""

    def __init__(self, root: Path, verbose: bool) -> None:
        self.root = root
        self.verbose = verbose
        self.env = worker_env(root)
        self.selector = selectors.DefaultSelector()
        self.processes: dict[int, _Process] = {}

    def start(self, task: Task, work: Path) -> int:
        job_file = work / "job.json"
        job_file.write_text(json.dumps(task.payload(work, self.verbose)), encoding="utf-8")
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
        self.processes[read_fd] = _Process(task, process, read_fd, work, log)
        self.selector.register(read_fd, selectors.EVENT_READ)
        return read_fd

    live_cuts = True  # its workers run here, so a lead chunk can watch a cut file in its work folder

    def wait(self, timeout: float) -> list[tuple[int, int | Cut | Finished]]:
        """(handle, frames so far) for progress, (handle, Cut) when a lead chunk has taken its cut, (handle,
        Finished) when a task's process has ended."""
        events = []
        for key, _ in self.selector.select(timeout=timeout):
            run = self.processes[key.fd]
            chunk = os.read(key.fd, 65536)
            if chunk:
                events += [(key.fd, frames) for frames in self._events(run, chunk)]
                continue
            self._forget(key.fd)
            returncode = run.process.wait()
            if returncode == 0 and run.result is not None:
                events.append((key.fd, Finished(run.task, run.result)))
            else:
                error = run.error or _exit_reason(returncode, run.log)
                events.append((key.fd, Finished(run.task, None, error, run.bad_input, run.log, returncode)))
        return events

    @staticmethod
    def _events(run: _Process, chunk: bytes) -> list[int | Cut]:
        run.buffer += chunk
        *lines, run.buffer = run.buffer.split(b"\n")
        frames: list[int | Cut] = []
        for line in lines:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            kind = event.get("event")
            if kind == "frames":
                frames.append(event["frames"])
            elif kind == "cut":
                frames.append(Cut(event["stop"]))
            elif kind == "done":
                run.result = event
            elif kind == "error":
                run.error = event.get("message") or "error"
                run.bad_input = bool(event.get("bad_input"))
        return frames

    def _forget(self, fd: int) -> None:
        self.selector.unregister(fd)
        os.close(fd)
        del self.processes[fd]

    def stop(self, handle: int) -> None:
        """Terminate a worker; its work folder (the only place it writes) is removed with the run's."""
        run = self.processes.get(handle)
        if run is None:
            return
        self._forget(handle)
        if run.process.poll() is None:
            run.process.terminate()
        try:
            run.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            run.process.kill()
            run.process.wait()

    def close(self) -> None:
        for handle in list(self.processes):
            self.stop(handle)
        self.selector.close()


def _exit_reason(returncode: int, log: Path | None) -> str:
    reason = (f"worker killed by signal {-returncode}" if returncode < 0
              else f"worker exited with status {returncode}")
    if log is not None and log.exists():
        lines = [line for line in log.read_text(errors="replace").splitlines() if line.strip()]
        if lines:
            reason += f": {lines[-1].strip()}"
    return reason
