"""`render.py --cluster`: run the tasks on a Dask distributed cluster instead of local processes.

`tcp://HOST:PORT` connects to a running scheduler (its workers started with `dask worker tcp://HOST:PORT` from the
project's venv); `local:N` starts a cluster of N worker processes on this machine. Each task runs remote.render_task
on a worker and comes back with its files as bytes, which are written into the task's local work folder, so the
runner joins, installs and writes the manifest exactly as for a local render. A worker that dies mid-task has its
task run again on another (Dask's own retry, up to its allowed-failures setting).

Dask is the optional extra `cluster`; this module is imported only for --cluster, so a plain render never loads it.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

CONNECT_TIMEOUT = "10s"
_LOCAL = re.compile(r"local:(\d+)")
_ADDRESS = re.compile(r"tcp://[^\s:/]+:\d+")


def parse_cluster(text: str) -> str:
    """Check the --cluster value's form; ValueError names the valid forms."""
    local = _LOCAL.fullmatch(text)
    if (local and int(local.group(1)) >= 1) or _ADDRESS.fullmatch(text):
        return text
    raise ValueError(f"--cluster {text!r} is not a cluster; valid: tcp://HOST:PORT (a running Dask scheduler) "
                     "or local:N (N worker processes on this machine, N >= 1)")


def _import_distributed():
    try:
        import distributed
    except ImportError as error:
        raise ValueError("--cluster needs Dask: install the project's cluster extra "
                         "(pip install -e '.[cluster]', which ./dev.sh does)") from error
    return distributed


class DaskBackend:
    """The runner's backend on a Dask cluster: start() submits a task, wait() collects the finished ones."""

    def __init__(self, spec: str, root: Path) -> None:
        """Connects (or starts the local cluster); ValueError in one line if the scheduler cannot be reached."""
        distributed = _import_distributed()
        self.distributed = distributed
        self.root = root
        self.cluster = None
        local = _LOCAL.fullmatch(spec)
        try:
            if local:
                self.cluster = distributed.LocalCluster(n_workers=int(local.group(1)), threads_per_worker=1,
                                                        processes=True, dashboard_address=None)
                self.client = distributed.Client(self.cluster)
            else:
                self.client = distributed.Client(spec, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError) as error:
            self.close()
            reason = " ".join(str(error).split()) or type(error).__name__
            raise ValueError(f"cannot reach the Dask scheduler at {spec}: {reason}") from error
        self.slots = max(1, sum(self.client.nthreads().values()))
        self._numbers = itertools.count()
        self.futures: dict[int, tuple] = {}  # handle -> (future, task, local work folder)

    def start(self, task, work: Path) -> int:
        from .remote import render_task

        handle = next(self._numbers)
        future = self.client.submit(render_task, task.payload(work, False), str(self.root), pure=False,
                                    key=f"{task.name}-{handle}")
        self.futures[handle] = (future, task, work)
        return handle

    def wait(self, timeout: float) -> list:
        if not self.futures:
            return []
        try:
            self.distributed.wait([future for future, _, _ in self.futures.values()], timeout=timeout,
                                  return_when="FIRST_COMPLETED")
        except TimeoutError:
            return []
        events = []
        for handle, (future, task, work) in list(self.futures.items()):
            if future.done():
                del self.futures[handle]
                events.append((handle, self._finished(future, task, work)))
        return events

    def _finished(self, future, task, work: Path):
        from .remote import relocate
        from .runner import Finished

        try:
            reply = future.result()
        except Exception as error:  # the task could not run (e.g. its workers kept dying): say why
            return Finished(task, None, f"on the cluster: {type(error).__name__}: {error}".strip())
        if "error" in reply:
            log = work / "worker.log"
            log.write_text(reply.get("log", ""), encoding="utf-8")
            return Finished(task, None, reply["error"], reply.get("bad_input", False), log)
        for name, data in reply["files"].items():
            path = work / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        return Finished(task, relocate(reply["result"], reply["work"], work))

    def stop(self, handle: int) -> None:
        entry = self.futures.pop(handle, None)
        if entry is not None:
            entry[0].cancel()

    def close(self) -> None:
        for handle in list(getattr(self, "futures", {})):
            self.stop(handle)
        client = getattr(self, "client", None)
        if client is not None:
            client.close()
        if self.cluster is not None:
            self.cluster.close()
