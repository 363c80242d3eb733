"""Once one of a run's workers has ended, render.py forks the later ones from one warm server (rendering.encode.
warm_server), which has imported manim and torch once; where the server cannot serve, workers are spawned the plain
way and the run goes on."""

from __future__ import annotations

import signal
import subprocess
import time

from rendering.pipeline.local import LocalProcesses
from tests.fixtures.render.harness import (_processes, frames_drawn, make_project, wait_for, warm_server_pids,
                                           worker_pids)


def _forked_worker(project) -> tuple[int, int] | None:
    """(worker, its warm server) if a worker of `project` runs forked from its run's warm server now (one look at
    the processes, so the server and its child are seen at the same moment)."""
    processes = _processes()
    servers = warm_server_pids(str(project.out), processes)
    forked = [(pid, parent) for pid, (_, parent) in processes.items() if parent in servers]
    return forked[0] if forked else None


def test_after_the_first_clip_the_workers_are_forked_from_the_runs_warm_server_which_ends_with_the_run(tmp_path):
    project = make_project(tmp_path / "warm")
    process = project.start("slow", "slow_long", "-f", "mp4", "--jobs", "1")
    wait_for(lambda: frames_drawn(project, "slow") or frames_drawn(project, "slow_long") or process.poll() is not None,
             120, "the first clip to start drawing")
    assert _forked_worker(project) is None and not warm_server_pids(str(project.out)), "the first is spawned"
    wait_for(lambda: _forked_worker(project) is not None or process.poll() is not None, 120, "a forked worker")
    assert process.poll() is None and _forked_worker(project) is not None
    output, _ = process.communicate(timeout=120)
    assert process.returncode == 0, output
    assert {path.name for path in (project.out / "clips" / "low").iterdir()} >= {"slow.mp4", "slow_long.mp4"}
    assert not warm_server_pids(str(project.out)) and not worker_pids(str(project.out))


def test_a_worker_is_spawned_the_plain_way_when_the_warm_server_cannot_start(tmp_path, monkeypatch):
    monkeypatch.setattr("rendering.pipeline.warm_start.SERVER_MODULE", "rendering.no_such_server")
    backend = LocalProcesses(tmp_path, verbose=False)
    backend.ended = 1  # as after a run's first clip
    job = tmp_path / "work" / "job.json"
    job.parent.mkdir()
    job.write_text("{}", encoding="utf-8")  # not a job: the worker exits at once, which is all this needs
    try:
        with open(tmp_path / "worker.log", "wb") as log:
            process = backend._launch(job, log.fileno(), log)
        assert isinstance(process, subprocess.Popen)
        assert process.wait(timeout=60) != 0
        assert backend.warm is False  # and no later clip tries the server again
    finally:
        backend.close()


def test_a_worker_whose_server_has_ended_is_waited_for_until_it_is_gone_even_as_an_unreaped_zombie():
    from rendering.pipeline.warm_start import _lost

    child = subprocess.Popen(["sleep", "30"])
    try:
        assert _lost(child.pid, time.monotonic() + 0.2) is None  # still running when the deadline passes
    finally:
        child.kill()
    time.sleep(0.2)  # ended, not reaped yet: a zombie, as an orphan is until whoever adopted it reaps it
    assert _lost(child.pid, time.monotonic() + 10) == (-signal.SIGTERM, None)
    child.wait()
