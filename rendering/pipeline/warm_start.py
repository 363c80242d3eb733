"""Render workers forked from a process that has already imported manim and torch (rendering.encode.warm_server).

`WarmServer.start` does what `subprocess.Popen([python, -m, worker, job, fd])` did, three seconds sooner: the worker
is a process of its own, with the same environment, folder and event pipe, its output in the same log. The local
backend starts the server once a worker has ended (rendering.pipeline.local): a run whose tasks all start at once
never starts it.
"""

from __future__ import annotations

import json
import os
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

SERVER_MODULE = "rendering.encode.warm_server"


class WarmServerGone(RuntimeError):
    """The server ended or could not start (an import failed): start workers the plain way."""


class WarmServer:
    def __init__(self, root: Path, env: dict[str, str], work_root: Path) -> None:
        """`work_root`: the folder of the run's work folders, named on the server's command line (so `ps` and the
        tests tell which run a server serves)."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.process = subprocess.Popen([sys.executable, "-m", SERVER_MODULE, str(theirs.fileno()), str(work_root)],
                                            cwd=root, env=env, pass_fds=(theirs.fileno(),),
                                            stdin=subprocess.DEVNULL)
        finally:
            theirs.close()
        self.sock = ours
        self.exits: dict[int, tuple[int, float]] = {}  # pid -> (exit status, CPU seconds) of workers that ended

    def start(self, job_file: Path, events_fd: int, log_fd: int | None) -> "ForkedWorker":
        """Fork a worker for `job_file`, writing its events to `events_fd` and its output to `log_fd` (None: to
        render.py's own terminal)."""
        fds = [events_fd] + ([log_fd] if log_fd is not None else [])
        try:
            socket.send_fds(self.sock, [json.dumps({"job": str(job_file)}).encode()], fds)
            while True:
                message = self._receive(None)
                if "pid" in message:
                    return ForkedWorker(self, message["pid"])
        except OSError as error:
            raise WarmServerGone(str(error)) from error

    def _receive(self, timeout: float | None) -> dict | None:
        """The next message (an exit is noted and returned too); None when `timeout` passes first."""
        ready, _, _ = select.select([self.sock], [], [], timeout)
        if not ready:
            return None
        data = self.sock.recv(65536)
        if not data:
            raise WarmServerGone("the warm server ended")
        message = json.loads(data)
        if "exit" in message:
            self.exits[message["exit"]] = (message["status"], message["cpu"])
        return message

    def wait_for(self, pid: int, timeout: float | None) -> tuple[int, float | None] | None:
        """(exit status, CPU seconds) of worker `pid` once it has ended, None if `timeout` passes first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while pid not in self.exits:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                if self._receive(left) is None:
                    return None
            except (OSError, WarmServerGone):
                return _lost(pid, deadline)
        return self.exits[pid]

    def close(self) -> None:
        self.sock.close()  # the server ends when its socket closes
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _lost(pid: int, deadline: float | None) -> tuple[int, None] | None:
    """The end of a worker whose server has ended, so that its own status reaches no one: the server's end sends it
    SIGTERM (worker._die_with_parent), so once it is gone it is reported as ended by that signal; None if `deadline`
    passes first."""
    while not _gone(pid):
        if deadline is not None and time.monotonic() >= deadline:
            return None
        time.sleep(0.05)
    return -signal.SIGTERM, None


def _gone(pid: int) -> bool:
    """No such process, or one that has ended and waits to be reaped by whoever adopted it."""
    try:
        os.kill(pid, 0)
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except ProcessLookupError:
        return True
    except (PermissionError, OSError, IndexError):
        return False


class ForkedWorker:
    """A worker forked by the warm server, with the part of subprocess.Popen's interface the local backend uses."""

    def __init__(self, server: WarmServer, pid: int) -> None:
        self.server, self.pid = server, pid
        self.returncode: int | None = None
        self.cpu: float | None = None

    def poll(self) -> int | None:
        self._settle(0.0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if not self._settle(timeout):
            raise subprocess.TimeoutExpired(f"worker {self.pid}", timeout)
        return self.returncode

    def reap(self) -> tuple[int, float | None]:
        """Wait for the worker's end: its exit status and CPU seconds (user + system, all its threads)."""
        self.wait()
        return self.returncode, self.cpu

    def terminate(self) -> None:
        self._signal(signal.SIGTERM)

    def kill(self) -> None:
        self._signal(signal.SIGKILL)

    def _signal(self, number: int) -> None:
        if not self._settle(0.0):  # never signal a pid whose end has been reported (it may be another's now)
            try:
                os.kill(self.pid, number)
            except ProcessLookupError:
                pass

    def _settle(self, timeout: float | None) -> bool:
        if self.returncode is None:
            ended = self.server.wait_for(self.pid, timeout)
            if ended is None:
                return False
            self.returncode, self.cpu = ended
        return True
