"""The default backend: each task in a worker process of its own on this machine, followed through its event pipe
(forked from the warm server, which has imported manim and torch once for the whole run)."""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from rendering import REPO_ROOT
from rendering.pipeline.tasks import Cut, Finished, Task
from rendering.pipeline.warm_start import ForkedWorker, WarmServer, WarmServerGone
from rendering.records import WORKER_MODULE


def worker_env(root: Path) -> dict[str, str]:
    env = dict(os.environ)
    paths = [str(root), str(REPO_ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    env["PYTHONHASHSEED"] = "0"  # set and dict iteration orders must not vary between two renders
    env.setdefault("OMP_NUM_THREADS", "1")  # torch in several workers on few cores: no oversubscription
    return env


@dataclass
class _Process:
    task: Task
    process: subprocess.Popen | ForkedWorker
    fd: int
    work: Path
    log: Path | None
    buffer: bytes = b""
    result: dict | None = None
    error: str | None = None
    bad_input: bool = False


class LocalProcesses:
    """The default backend: each task in a `python -m rendering.encode.worker` process of its own on this machine,
    followed through its event pipe (JSON lines: started, frames, done, error)."""

    def __init__(self, root: Path, verbose: bool) -> None:
        self.root = root
        self.verbose = verbose
        self.env = worker_env(root)
        self.selector = selectors.DefaultSelector()
        self.processes: dict[int, _Process] = {}
        # the warm server (rendering.pipeline.warm_start): None until a worker has ended, False once it cannot serve
        self.warm: WarmServer | None | bool = None
        self.ended = 0  # workers that have ended

    def start(self, task: Task, work: Path) -> int:
        job_file = work / "job.json"
        job_file.write_text(json.dumps(task.worker_job(work, self.verbose).to_dict()), encoding="utf-8")
        read_fd, write_fd = os.pipe()
        log = None if self.verbose else work / "worker.log"
        stderr = None if log is None else open(log, "wb")
        try:
            process = self._launch(job_file, write_fd, stderr)
        finally:
            os.close(write_fd)
            if stderr is not None:
                stderr.close()
        self.processes[read_fd] = _Process(task, process, read_fd, work, log)
        self.selector.register(read_fd, selectors.EVENT_READ)
        return read_fd

    def _launch(self, job_file: Path, write_fd: int, stderr) -> subprocess.Popen | ForkedWorker:
        """The worker: spawned the plain way until one has ended (a run whose tasks all start at once gains nothing
        from a server, which would import torch even for a clip that does not need it), then forked by the warm
        server, started then; spawned the plain way again if the server cannot serve (it failed or ended)."""
        if self.warm is not False and (self.warm is not None or self.ended):
            try:
                if self.warm is None:
                    self.warm = WarmServer(self.root, self.env, job_file.parent.parent)
                return self.warm.start(job_file, write_fd, None if stderr is None else stderr.fileno())
            except (OSError, WarmServerGone):
                self._close_warm()
                self.warm = False
        return subprocess.Popen(
            [sys.executable, "-m", WORKER_MODULE, str(job_file), str(write_fd)],
            cwd=self.root, env=self.env, pass_fds=(write_fd,), stdin=subprocess.DEVNULL,
            stdout=stderr if stderr is not None else None, stderr=stderr)

    def _close_warm(self) -> None:
        if self.warm:
            self.warm.close()

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
            returncode, cpu = _reap(run.process)
            self.ended += 1
            if returncode == 0 and run.result is not None:
                events.append((key.fd, Finished(run.task, run.result, cpu=cpu)))
            else:
                error = run.error or _exit_reason(returncode, run.log)
                events.append((key.fd, Finished(run.task, None, error, run.bad_input, run.log, returncode, cpu)))
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
        self._close_warm()


def _reap(process: subprocess.Popen | ForkedWorker) -> tuple[int, float | None]:
    """Wait for a worker's end: its exit status and the CPU seconds (user + system, all its threads) it used."""
    if isinstance(process, ForkedWorker):
        return process.reap()
    if process.returncode is None:
        try:
            _, status, usage = os.wait4(process.pid, 0)
        except ChildProcessError:  # already reaped elsewhere
            return process.wait(), None
        process.returncode = os.waitstatus_to_exitcode(status)
        return process.returncode, usage.ru_utime + usage.ru_stime
    return process.returncode, None


def _exit_reason(returncode: int, log: Path | None) -> str:
    reason = (f"worker killed by signal {-returncode}" if returncode < 0
              else f"worker exited with status {returncode}")
    if log is not None and log.exists():
        lines = [line for line in log.read_text(errors="replace").splitlines() if line.strip()]
        if lines:
            reason += f": {lines[-1].strip()}"
    return reason
