"""Run render jobs as tasks on a backend (local worker processes, or a Dask cluster), and stop cleanly on Ctrl-C.

A job becomes one task (the whole clip) or several (chunks of a long clip, see schedule.py), longest first. A
clip that has never been rendered, where workers would idle, starts rendering at once as a lead chunk while a
measuring task runs its storyboard without drawing beside it; with the timeline known, the lead is told where to
stop (a cut file it watches; it answers with the frame it really stopped at) and the other chunks start from
there. Splits are made only on cores that are really free: where the plan would split a clip whose timeline is
known, or measure one beside its lead, the machine's load is sampled once before the first task (cpu_load.py). When a clip's chunks are all back they are
joined (assemble.py).

The loop is single-threaded, so the callback that installs a finished clip runs on the main thread, one clip at a
time, inside a section that defers Ctrl-C until the clip's files and the manifest are consistent again.
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from rendering import atomic
from rendering.encode.assemble import assemble
from rendering.encode.frame_window import Window
from rendering.pipeline import cpu_load, schedule
from rendering.pipeline.jobs import FAILED, INTERRUPTED, NOT_STARTED, Job, Outcome
from rendering.pipeline.local import LocalProcesses
from rendering.pipeline.signals import deferred_interrupts, sigterm_as_interrupt
from rendering.pipeline.tasks import CHUNK, CUT_FILE, LEAD, MEASURE, Cut, Finished, Task, initial_tasks, piece_task
from rendering.records import ChunkResult, ClipResult


@dataclass
class _Progress:
    """A job's tasks: what came back, how many chunks to wait for, frames drawn so far per task."""

    job: Job
    started: float | None = None
    chunks: dict[int, ChunkResult] = field(default_factory=dict)
    count: int | None = None  # chunks the clip is joined from, once known
    lead: Path | None = None  # a lead chunk's work folder, while the cut is not decided
    planned: list[Window] = field(default_factory=list)  # the measured plan, waiting for the lead's answer
    frames: dict[str, int] = field(default_factory=dict)
    done: bool = False


class Runner:
    """Run up to `parallel` tasks at a time on `backend`; report through `reporter`; hand clips to `install`."""

    def __init__(self, *, parallel: int, work_root: Path, root: Path, logs_dir: Path, verbose: bool,
                 reporter, install: Callable[[Job, dict], Outcome], backend=None, always_split: bool = False) -> None:
        self.parallel = parallel
        self.work_root = work_root
        self.logs_dir = logs_dir
        self.verbose = verbose
        self.reporter = reporter
        self.install = install
        self.backend = backend if backend is not None else LocalProcesses(root, verbose)
        self.always_split = always_split  # split wherever a worker would idle, not only where it is predicted to pay
        # What each task, join and install took: {"task", "kind", "start", "end" (seconds from the run's start),
        # "cpu" (the task's process, where the backend knows it)}; for benchmarks (render.py --trace).
        self.trace: list[dict] = []
        self._origin = time.monotonic()
        self._task_started: dict[int, float] = {}

    def run(self, jobs: list[Job]) -> tuple[list[Outcome], bool]:
        """Returns the outcomes and whether the run was interrupted."""
        self._origin = time.monotonic()
        progress = {job.key: _Progress(job) for job in jobs}
        running: dict[int, Task] = {}  # backend handle -> task
        outcomes: list[Outcome] = []
        here = getattr(self.backend, "live_cuts", False)  # its workers run on this machine
        try:
            with sigterm_as_interrupt():
                # Inside the try: the plan may sample the machine's load for a moment (Ctrl-C then stops cleanly).
                pending = initial_tasks(jobs, self.parallel, here, self.always_split,
                                        free_cores=self._free_cores if here else None)
                for task in pending:
                    if task.kind == CHUNK:
                        progress[task.job.key].count = task.count
                while pending or running:
                    self._start_tasks(pending, running, progress)
                    for handle, event in self.backend.wait(0.25):
                        if self._on_event(handle, event, pending, running, progress, outcomes):
                            return outcomes, False
                    self.reporter.tick()
        except KeyboardInterrupt:
            self._stop_all(running, progress, outcomes)
            return outcomes, True
        finally:
            self.backend.close()
        return outcomes, False

    def _free_cores(self) -> float | None:
        """This machine's free cores, sampled now (before any task starts), for a plan that would split a clip or
        measure one beside its lead."""
        began = self._now()
        cores = cpu_load.sample_free_cores()
        self._traced("machine", "free_cores", began, self._now(), cores=None if cores is None else round(cores, 2))
        return cores

    def _start_tasks(self, pending: list[Task], running: dict[int, Task], progress: dict) -> None:
        """Start pending tasks (cheapest last: `pending` is kept sorted by cost) while a backend slot is free."""
        while pending and len(running) < self.parallel:
            task = pending.pop(0)
            state = progress[task.job.key]
            work = task.work_dir(self.work_root)
            shutil.rmtree(work, ignore_errors=True)
            work.mkdir(parents=True)
            handle = self.backend.start(task, work)
            running[handle] = task
            self._task_started[handle] = self._now()
            if task.kind == LEAD:
                state.lead = work
            if state.started is None:
                state.started = time.monotonic()
                self.reporter.started(task.job)
                if task.kind == CHUNK:
                    self.reporter.chunks(task.job, task.count)

    def _on_event(self, handle: int, event: int | Cut | Finished, pending: list[Task], running: dict[int, Task],
                  progress: dict, outcomes: list[Outcome]) -> bool:
        """Take one event of a running task (a frame count, a cut, or its end); True when the run must stop (bad
        input: the same input would fail every other clip, so no more is written). A Ctrl-C that came while the
        task finished is raised here."""
        task = running[handle]
        state = progress[task.job.key]
        if isinstance(event, int):  # frames drawn so far by this task
            state.frames[task.name] = event
            if not state.done:
                self.reporter.frames(task.job, sum(state.frames.values()))
            return False
        if isinstance(event, Cut):  # the lead stopped short: the other chunks start there
            self._traced(task.name, "cut", self._now(), self._now(), frame=event.stop)
            if not state.done:
                pending[:] = sorted(pending + self._after_cut(state, event.stop), key=lambda t: -t.cost)
            return False
        del running[handle]
        began = self._task_started.pop(handle, 0.0)
        self._traced(task.name, task.kind, began, self._now(), cpu=event.cpu, ok=event.result is not None)
        if state.done:
            return False  # a sibling chunk failed: this one's work is void
        follow_up, outcome, interrupted = self._handle(event, state, self._now() - began)
        pending[:] = sorted(pending + follow_up, key=lambda t: -t.cost)
        if outcome is None:
            return False
        state.done = True
        outcomes.append(outcome)
        self._drop_siblings(task.job, pending, running)
        self.reporter.finished(task.job, outcome)
        shutil.rmtree(self.work_root / task.job.name, ignore_errors=True)
        if interrupted:
            raise KeyboardInterrupt
        if outcome.bad_input:
            self._stop_all(running, progress, outcomes)
            return True
        return False

    def _handle(self, event: Finished, state: _Progress, task_seconds: float = 0.0
                ) -> tuple[list[Task], Outcome | None, bool]:
        """New tasks this event makes, the job's outcome if it is now settled, and whether Ctrl-C came meanwhile.
        `task_seconds`: how long the task ran."""
        task, job = event.task, event.task.job
        seconds = time.monotonic() - state.started
        if event.result is None:
            error = event.error or "worker failed"
            return [], self._outcome(job, FAILED, seconds, error=error, log=self._keep_log(job, event.log),
                                     bad_input=event.bad_input), False
        if task.kind == MEASURE:
            # The measuring pass draws nothing and runs on one core: the share of a core it got says how many of
            # the run's cores are really free (other programs' load), which is what chunks would get.
            share = min(1.0, event.cpu / task_seconds) if event.cpu and task_seconds > 0 else 1.0
            return self._measured(state, ChunkResult.from_dict(event.result).timeline, task_seconds,
                                  max(1.0, self.parallel * share)), None, False
        if task.kind in (CHUNK, LEAD):
            chunk = state.chunks[task.index] = ChunkResult.from_dict(event.result)
            if state.count is None and chunk.ran_to_end:
                state.count = 1  # a lead that was never cut rendered the whole clip
            if state.count is None or len(state.chunks) < state.count:
                return [], None, False
            try:
                joining = self._now()
                result = assemble([state.chunks[i] for i in range(state.count)], job.formats,
                                  self.work_root / job.name / "joined")
                self._traced(f"{job.name}.join", "join", joining, self._now())
            except Exception as error:
                return [], self._outcome(job, FAILED, seconds,
                                         error=f"joining the chunks failed: {type(error).__name__}: {error}"), False
        else:
            result = ClipResult.from_dict(event.result)
        interrupted: list[int] = []
        try:
            installing = self._now()
            with deferred_interrupts() as interrupted:
                outcome = self.install(job, result)
            self._traced(f"{job.name}.install", "install", installing, self._now())
            outcome.seconds = seconds
            (self.logs_dir / f"{job.name}.log").unlink(missing_ok=True)
        except Exception as error:  # e.g. disk full while moving files in
            outcome = self._outcome(job, FAILED, seconds,
                                    error=f"installing the clip failed: {type(error).__name__}: {error}")
        return [], outcome, bool(interrupted)

    def _measured(self, state: _Progress, timeline, measured_seconds: float, cores: float) -> list[Task]:
        """The clip's timeline is known: plan its chunks, only where the model predicts they pay (schedule.py).
        With a lead rendering already, tell it where to stop, or nothing (it renders the whole clip); the other
        chunks wait for its answer (_after_cut)."""
        job = state.job
        job.timeline, job.timeline_fps = timeline, job.quality.fps
        animations = job.animations()
        model = job.model().measured(measured_seconds)
        models = None if self.always_split else {job.key: model}
        if state.lead is None or self.always_split:
            pieces = sorted(schedule.plan({job.key: (job.cost(), animations, job.quality.fps)}, self.parallel,
                                          models=models), key=lambda piece: piece.index)
        if state.lead is None:
            state.count = len(pieces)
            if len(pieces) > 1:
                self.reporter.chunks(job, len(pieces))
            return [piece_task(job, piece) for piece in pieces]
        if state.chunks:  # a lead already back rendered the whole clip
            return []
        if self.always_split:
            if len(pieces) > 1:
                state.planned = [piece.window for piece in pieces]
                atomic.write_text(state.lead / CUT_FILE, str(pieces[1].window.start))
            return []
        seconds = sum(a.frames for a in animations) / job.quality.fps
        most = max(1, min(self.parallel, int(seconds // schedule.MIN_CHUNK_SECONDS)))
        plan = schedule.lead_plan(animations, model, cores, most, state.frames.get(f"{job.name}.{LEAD}", 0),
                                  time.monotonic() - state.started)
        self._traced(f"{job.name}.plan", "plan", self._now(), self._now(), predicted_whole=round(plan.whole, 2),
                     predicted_split=round(plan.split, 2), stop=plan.stop, cores=round(cores, 2))
        if plan.stop is not None:
            state.planned = [Window(0, plan.stop), *plan.windows]
            atomic.write_text(state.lead / CUT_FILE, str(plan.stop))
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

    def _now(self) -> float:
        return time.monotonic() - self._origin

    def _traced(self, name: str, kind: str, start: float, end: float, **fields) -> None:
        self.trace.append({"task": name, "kind": kind, "start": round(start, 3), "end": round(end, 3), **fields})

    @staticmethod
    def _outcome(job: Job, status: str, seconds: float = 0.0, **fields) -> Outcome:
        return Outcome(job.spec.id, job.quality.name, status, seconds, narrated=job.narrated,
                       aspect=job.quality.aspect, described=job.described, language=job.quality.language,
                       **fields)

    def _keep_log(self, job: Job, log: Path | None) -> Path | None:
        if log is None or not log.exists():
            return None
        self.logs_dir.mkdir(parents=True, exist_ok=True)
        target = self.logs_dir / f"{job.name}.log"
        shutil.copyfile(log, target)
        return target
