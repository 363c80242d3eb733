"""What the author sees: live progress per clip while rendering, then one summary table.

On a terminal the progress is a rich display (one bar per clip, in seconds of video drawn); elsewhere (a log, a
test, --verbose where manim writes to the same terminal) it is one plain line per event.
"""

from __future__ import annotations

import sys

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from rendering.pipeline.jobs import FAILED, INTERRUPTED, NOT_STARTED, RENDERED, UP_TO_DATE, Job, Outcome

_STYLE = {RENDERED: "green", UP_TO_DATE: "dim", FAILED: "bold red", INTERRUPTED: "yellow", NOT_STARTED: "yellow"}


def make_console() -> Console:
    return Console(highlight=False, soft_wrap=not sys.stdout.isatty())


class PlainReporter:
    """One line per clip event; no cursor movement."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def __enter__(self):
        return self

    def __exit__(self, *exc_info) -> None:
        pass

    def started(self, job: Job) -> None:
        self.console.print(f"rendering {job.key} ({job.quality.label}, {', '.join(job.formats)})")

    def frames(self, job: Job, frames: int) -> None:
        pass

    def chunks(self, job: Job, count: int) -> None:
        self.console.print(f"splitting {job.key} into {count} chunks, rendered side by side")

    def tick(self) -> None:
        pass

    def finished(self, job: Job, outcome: Outcome) -> None:
        line = f"{outcome.status} {job.key} in {outcome.seconds:.1f} s"
        if outcome.error:
            line += f": {outcome.error}"
        self.console.print(line, markup=False)


class RichReporter:
    """A bar per clip: seconds of video drawn out of the clip's length (known from its previous render)."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.progress = Progress(
            TextColumn("{task.fields[name]:<28}", markup=False),
            BarColumn(),
            TextColumn("{task.fields[video]:>14}"),
            TextColumn("{task.fields[status]}"),
            TimeElapsedColumn(),
            console=console,
            transient=False,
        )
        self.tasks: dict[str, int] = {}

    def __enter__(self):
        self.progress.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.progress.stop()

    def add(self, job: Job) -> None:
        self.tasks[job.key] = self.progress.add_task("", total=job.expected_frames, start=False, name=job.key,
                                                     video="", status="[dim]queued")

    def started(self, job: Job) -> None:
        if job.key not in self.tasks:
            self.add(job)
        self.progress.start_task(self.tasks[job.key])
        self.progress.update(self.tasks[job.key], status="[cyan]rendering")

    def chunks(self, job: Job, count: int) -> None:
        self.progress.update(self.tasks[job.key], name=f"{job.key} ×{count}")

    def frames(self, job: Job, frames: int) -> None:
        seconds = frames / job.quality.fps
        video = f"{seconds:.1f} s" + (f" / {job.expected_seconds:.0f} s" if job.expected_seconds else "")
        task = self.tasks[job.key]
        total = self.progress.tasks[task].total
        if total is not None and frames > total:
            self.progress.update(task, total=frames)
        self.progress.update(task, completed=frames, video=video)

    def tick(self) -> None:
        pass

    def finished(self, job: Job, outcome: Outcome) -> None:
        task = self.tasks[job.key]
        style = _STYLE.get(outcome.status, "")
        if outcome.status == RENDERED:  # the clip's real length is known now: show the bar full
            done = self.progress.tasks[task].completed or 1
            self.progress.update(task, total=done, completed=done)
        self.progress.update(task, status=f"[{style}]{outcome.status}")
        self.progress.stop_task(task)


def human_bytes(count: int) -> str:
    size = float(count)
    for unit in ("B", "kB", "MB", "GB"):
        if size < 1000 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1000
    return f"{count} B"


def summary(console: Console, outcomes: list[Outcome], wall_seconds: float) -> None:
    """The table at the end, then the errors in full (one line each, easy to grep), then the totals."""
    table = Table(title="render.py summary", show_lines=False)
    for column, justify in (("scene", "left"), ("quality", "left"), ("status", "left"), ("seconds", "right"),
                            ("size", "right")):
        table.add_column(column, justify=justify)
    for outcome in outcomes:
        style = _STYLE.get(outcome.status, "")
        aspect = "" if getattr(outcome, "aspect", "landscape") == "landscape" else f" {outcome.aspect}"
        voice = " described" if getattr(outcome, "described", False) else " narrated" if outcome.narrated else ""
        language = "" if getattr(outcome, "language", "en") == "en" else f" {outcome.language}"
        quality = outcome.quality + aspect + language + voice
        table.add_row(outcome.scene_id, quality, f"[{style}]{outcome.status}",
                      f"{outcome.seconds:.1f}" if outcome.status != UP_TO_DATE else "",
                      human_bytes(outcome.bytes) if outcome.bytes else "")
    console.print(table)
    for outcome in outcomes:
        if outcome.error:
            where = f" (log: {outcome.log})" if outcome.log else ""
            console.print(f"FAILED {outcome.label}: {outcome.error}{where}", markup=False, style="red")
    counts = {status: sum(1 for o in outcomes if o.status == status)
              for status in (RENDERED, UP_TO_DATE, FAILED, INTERRUPTED, NOT_STARTED)}
    parts = [f"{n} {status}" for status, n in counts.items() if n or status in (RENDERED, UP_TO_DATE, FAILED)]
    console.print(f"{', '.join(parts)} in {wall_seconds:.1f} s", markup=False)
