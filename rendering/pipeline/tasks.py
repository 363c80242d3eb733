"""The units of work a backend runs: a whole clip, a chunk of one, a lead chunk, or a measuring pass; and the
first tasks of a run (whole clips and chunks of the long ones, longest first)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from rendering.encode.frame_window import Window
from rendering.pipeline import cpu_load, schedule
from rendering.pipeline.jobs import GUESSED_SECONDS, Job
from rendering.records import WindowSpec, WorkerJob

CLIP, CHUNK, LEAD, MEASURE = "clip", "chunk", "lead", "measure"
CUT_FILE = "cut"  # in a lead chunk's work folder: the frame to stop at, written once, atomically
# Free cores below which a clip with no timeline is not measured beside its lead. With one core or less, lead_plan
# can never cut (the chunks would take turns on it); between one and two, the measuring pass takes part of the
# lead's core for the seconds it runs. 1.5 is a judgment between the two, not a measured optimum.
LEAD_MIN_FREE_CORES = 1.5


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

    def worker_job(self, work: Path, verbose: bool) -> WorkerJob:
        """What the worker (rendering/encode/worker.py) is asked to do, working in `work`."""
        job, spec = self.job, self.job.spec
        window = None
        if self.kind == MEASURE:
            window = WindowSpec(0, 0, run_to_end=True)
        elif self.kind == LEAD:
            window = WindowSpec(0, None, run_to_end=True, cut_file=str(work / CUT_FILE))
        elif self.kind == CHUNK:
            window = WindowSpec(self.window.start, self.window.stop, run_to_end=self.index == self.count - 1)
        return WorkerJob(spec.id, spec.module, spec.class_name, job.quality, tuple(job.formats), str(work),
                         verbose, job.narration, self.name, job.example, window)


@dataclass
class Finished:
    """What a backend reports when a task ends: its result, or why it failed."""

    task: Task
    result: dict | None = None  # the worker's result as sent (a ChunkResult's dict for a chunk or measuring pass)
    error: str | None = None
    bad_input: bool = False
    log: Path | None = None  # the worker's output, kept in the logs folder when a task failed
    returncode: int = 0
    cpu: float | None = None  # CPU seconds the task's process used (user + system), where the backend knows it


@dataclass(frozen=True)
class Cut:
    """A lead chunk's answer to its cut: the frame it stops at."""

    stop: int


def initial_tasks(jobs: list[Job], parallel: int, live_cuts: bool = True, always_split: bool = False,
                  free_cores: Callable[[], float | None] | None = None) -> list[Task]:
    """Whole clips, and chunks of the long ones, longest first. A clip with no timeline, where a worker would
    otherwise be idle, is measured if a split could pay for the measuring (worth_measuring); with `live_cuts` (local
    processes, which can watch a cut file) it also starts rendering at once, as a lead chunk. `free_cores`
    (cpu_load.sample_free_cores) is asked only when the plan on idle cores splits a clip even with the time the
    asking takes (cpu_load.SAMPLE_SECONDS) added to the split: the plan is then made again on the cores really free,
    or on idle cores if it says None. It is asked too before a clip with no timeline is measured beside its lead:
    with fewer than LEAD_MIN_FREE_CORES free, the measuring pass would only slow the lead down (teacher_forcing at
    low on a loaded machine: 16.3 s for the lead beside it against 7.9 s for the whole clip alone), so the clip is
    rendered whole."""
    sampled: list[float | None] = []

    def cores_free() -> float | None:  # sampled once per run, only when asked
        if not sampled:
            sampled.append(free_cores())
        return sampled[0]

    clips = {job.key: (job.cost(), job.animations() if job.splittable else None, job.quality.fps) for job in jobs}
    by_key = {job.key: job for job in jobs}
    models = None if always_split else {job.key: job.model() for job in jobs}
    asking = models is not None and free_cores is not None
    pieces = schedule.plan(clips, parallel, models=models, overhead=cpu_load.SAMPLE_SECONDS if asking else 0.0)
    if asking and any(piece.count > 1 for piece in pieces):
        cores = cores_free()
        if cores is not None and cores < parallel:
            pieces = schedule.plan(clips, parallel, models=models, cores=cores)
    tasks = [piece_task(by_key[piece.job_key], piece) for piece in pieces]
    if len(jobs) >= parallel:
        return tasks
    unknown = {job.key for job in jobs if worth_measuring(job, parallel, always_split)}
    if unknown and asking:
        cores = cores_free()
        if cores is not None and cores < LEAD_MIN_FREE_CORES:
            unknown = set()
    measured = []
    for task in tasks:
        if task.job.key not in unknown:
            measured.append(task)
        elif live_cuts:
            measured += [Task(task.job, LEAD, task.cost), Task(task.job, MEASURE, task.cost)]
        else:
            measured.append(Task(task.job, MEASURE, task.cost))
    return measured


def worth_measuring(job: Job, parallel: int, always_split: bool = False) -> bool:
    """Whether a clip with no timeline is measured (beside its lead, or before its chunks): only where the render
    model predicts that a split could still pay once the measuring pass is paid (schedule.measuring_pays, on a
    stand-in timeline of the clip's expected length, on idle cores). At low quality a worker's start and storyboard
    are a large share of a clip's time (5.3 of 12 s for a typical minute), which the chunk after the cut pays again,
    so the measuring pass is lost (weight_free at low, fresh: 1.21x slower with --jobs 2 than with --jobs 1). With
    --split always, every clip long enough for two chunks is."""
    if not job.splittable or job.animations() is not None:
        return False
    seconds = job.expected_seconds or GUESSED_SECONDS
    most = min(parallel, int(seconds // schedule.MIN_CHUNK_SECONDS))
    if always_split or most < 2:
        return most >= 2
    return schedule.measuring_pays(schedule.stand_in_timeline(seconds, job.quality.fps), job.model(), parallel, most)


def piece_task(job: Job, piece: schedule.Piece) -> Task:
    if piece.window is None:
        return Task(job, CLIP, piece.cost)
    return Task(job, CHUNK, piece.cost, piece.window, piece.index, piece.count)
