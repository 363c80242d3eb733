"""What a Dask worker runs for one task: the same worker process as a local render, its files sent back as bytes.

The task runs `python -m rendering.encode.worker` in a scratch folder of the worker's machine (a process of its own, as
locally: manim's config and a crash stay inside it), then returns the worker's result together with the bytes of
every file it made, so the client can join, install and write the manifest on its own disk. Before anything runs,
the worker hashes its own project for the task's clip as the client's plan did (rendering/pipeline/inputs.py: the scene, the
kit, attention_math, the pipeline, the versions) and refuses a task whose client hashed differently: a worker left on
another commit must not render old scenes into a clip installed as current. Failures come back as
values, not exceptions: Dask retries a task only when its worker dies (that is the retry we want), not when the
scene raises. Imports nothing of Dask, so a plain render never loads it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from rendering import REPO_ROOT
from rendering.records import WORKER_MODULE, WorkerJob

LOG_TAIL_LINES = 40


def project_root(root: str) -> Path:
    """The client's scene root where this machine has it (one machine, or a shared disk); otherwise the project
    this worker's Python has installed (a cluster of machines, each with the project in its venv). The worker
    process finds `rendering` either way (local.worker_env puts this project on its path)."""
    if Path(root).is_dir():
        return Path(root)
    return REPO_ROOT


def project_input_hash(where: Path, job: WorkerJob) -> str:
    """This machine's input hash of the task's clip, computed from its own files as the client's plan computes it."""
    from types import SimpleNamespace

    from rendering.pipeline import inputs
    from rendering.qualities import QUALITIES, framed, spoken

    project = job.project
    inputs.package_version.cache_clear()  # a long-lived worker: read the installed versions as they are now
    registry_file = where / (project.registry.replace(".", "/") + ".py")
    if not registry_file.is_file():
        raise FileNotFoundError(f"scene registry {project.registry} not found")
    spec = SimpleNamespace(id=job.scene_id, module=job.module, class_name=job.class_name,
                           path=job.module.replace(".", "/") + ".py")
    narration = ""
    if job.narration is not None:
        from rendering.narration.voices import resolve_language_voice

        narration = inputs.narration_digest(resolve_language_voice(job.narration.get("language", "en"),
                                                                   job.narration.get("voice")))
    shared = inputs.shared_digest(where, registry_file, job.example)
    quality = spoken(framed(QUALITIES[project.quality], job.quality.aspect), job.quality.language)
    return inputs.clip_input_hash(shared, where, spec, quality, narration)


def refusal(where: Path, job: WorkerJob, worker: str | None) -> str | None:
    """Why this worker will not run the task (its project is not the client's), or None."""
    if job.project is None:
        return None
    expected = job.project.input_hash
    at = f"worker {worker or 'here'}"
    try:
        mine = project_input_hash(where, job)
    except Exception as error:  # a scene, registry or quality this worker's project does not have
        reason = " ".join(str(error).split()) or type(error).__name__
        return f"{at} refused the task: it cannot hash its project for this clip ({reason}); the client's is {expected}"
    if mine == expected:
        return None
    return (f"{at} refused the task: its project's input hash {mine} is not the client's {expected} "
            "(the worker must run the client's commit, with the same packages)")


def render_task(payload: dict, root: str, worker: str | None = None) -> dict:
    """Run one task, `payload` a WorkerJob's dict (what travels); returns {"result", "work", "files": {path
    relative to work: bytes}}, or {"error", "bad_input", "log"}. `worker` is this worker's address, named when it
    refuses the task."""
    from rendering.pipeline.local import worker_env

    job = WorkerJob.from_dict(payload)
    where = project_root(root)
    refused = refusal(where, job, worker)
    if refused is not None:
        return {"error": refused, "bad_input": False, "log": refused}
    # The task's name in the folder's: `ps` on a worker machine shows which clip each process is rendering.
    with tempfile.TemporaryDirectory(prefix=f"render-task-{job.task}-") as scratch:
        work = Path(scratch)
        job_file = work / "job.json"
        job_file.write_text(json.dumps(job.at(str(work)).to_dict()), encoding="utf-8")
        log = work / "worker.log"
        read_fd, write_fd = os.pipe()
        with open(log, "wb") as stderr:
            process = subprocess.Popen([sys.executable, "-m", WORKER_MODULE, str(job_file), str(write_fd)],
                                       cwd=where, env=worker_env(where), pass_fds=(write_fd,),
                                       stdin=subprocess.DEVNULL, stdout=stderr, stderr=stderr)
        os.close(write_fd)
        with os.fdopen(read_fd, "rb") as events_pipe:
            events = [json.loads(line) for line in events_pipe.read().splitlines() if line.strip()]
        returncode = process.wait()
        done = next((event for event in events if event.get("event") == "done"), None)
        if returncode == 0 and done is not None:
            return {"result": done, "work": str(work), "files": _files_under(work, done)}
        error = next((event for event in events if event.get("event") == "error"), {})
        tail = log.read_text(errors="replace").splitlines()[-LOG_TAIL_LINES:] if log.exists() else []
        message = error.get("message") or f"worker exited with status {returncode}"
        return {"error": message, "bad_input": bool(error.get("bad_input")), "log": "\n".join(tail)}


def _paths(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from _paths(item)
    elif isinstance(value, list):
        for item in value:
            yield from _paths(item)
    elif isinstance(value, str) and value.startswith("/"):
        yield value


def _files_under(work: Path, result: dict) -> dict[str, bytes]:
    """Every file of the work folder that the result names, by its path relative to the folder."""
    files = {}
    for text in _paths(result):
        path = Path(text)
        if path.is_file() and not path.is_symlink() and work in path.parents:
            files[str(path.relative_to(work))] = path.read_bytes()
    return files


def relocate(result: dict, remote_work: str, local_work: Path):
    """The result with the remote work folder's paths moved to `local_work`, where its files were written."""
    if isinstance(result, dict):
        return {key: relocate(value, remote_work, local_work) for key, value in result.items()}
    if isinstance(result, list):
        return [relocate(item, remote_work, local_work) for item in result]
    if isinstance(result, str) and result.startswith(remote_work + os.sep):
        return str(local_work / result[len(remote_work) + 1:])
    return result
