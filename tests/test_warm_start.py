"""render.py's workers are forked from one warm server per run (rendering.encode.warm_server), which has imported
manim and torch once; where the server cannot serve, workers are spawned the plain way and the run goes on."""

from __future__ import annotations

import subprocess

from rendering.pipeline.local import LocalProcesses
from tests.fixtures.render.harness import (_processes, frames_drawn, make_project, wait_for, warm_server_pids,
                                           worker_pids)


def test_a_clips_worker_is_forked_from_the_runs_warm_server_which_ends_with_the_run(tmp_path):
    project = make_project(tmp_path / "warm")
    process = project.start("slow", "-f", "mp4", "--jobs", "1")
    wait_for(lambda: frames_drawn(project, "slow") or process.poll() is not None, 120, "slow to start drawing")
    servers, workers = warm_server_pids(str(project.out)), worker_pids(str(project.out))
    parents = {pid: parent for pid, (_, parent) in _processes().items()}
    assert len(servers) == 1 and len(workers) == 1, (servers, workers)
    assert parents[workers[0]] == servers[0]
    output, _ = process.communicate(timeout=120)
    assert process.returncode == 0, output
    assert (project.out / "clips" / "low" / "slow.mp4").exists()
    assert not warm_server_pids(str(project.out)) and not worker_pids(str(project.out))


def test_a_worker_is_spawned_the_plain_way_when_the_warm_server_cannot_start(tmp_path, monkeypatch):
    monkeypatch.setattr("rendering.pipeline.warm_start.SERVER_MODULE", "rendering.no_such_server")
    backend = LocalProcesses(tmp_path, verbose=False)
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
