"""`render.py --cluster`: run the tasks on a Dask distributed cluster instead of local processes.

`tcp://HOST:PORT` connects to a running scheduler (its workers started with `dask worker tcp://HOST:PORT` from the
project's venv); `tls://HOST:PORT` does the same over TLS with mutual authentication, so only holders of a
certificate from the cluster's CA can join or submit (`--tls-ca-file/--tls-cert/--tls-key`, or Dask's own
configuration `distributed.comm.tls.*`); `local:N` starts a cluster of N worker processes on this machine.

Each task runs run_on_worker (remote.render_task) on a worker and comes back with its files as bytes. A reply is
trusted no further than it is checked: every file name must be relative and normalised, stay inside the task's work
folder without passing through a symlink, be one of the files that kind of task makes and fit under a size cap, and
the result may name no file but those; any other reply fails the task in one line and nothing of it is written.
Each task also carries the client's input hash, and a worker whose own project hashes differently refuses it.
These checks stop a faulty or mismatched worker, not a hostile one (Dask's replies are pickles): TLS keeps those out.
A worker that dies mid-task has its task run again on another (Dask's own retry, up to its allowed-failures
setting).

Dask is the optional extra `cluster`; this module is imported only for --cluster, so a plain render never loads it.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import posixpath
import re
import socket
import ssl
from dataclasses import replace
from pathlib import Path

from rendering.records import ProjectCheck

CONNECT_SECONDS = 10.0  # how long a client waits for the scheduler (the reachability check and Dask's connect)
CONNECT_TIMEOUT = f"{CONNECT_SECONDS:g}s"
# One file of a reply: a 2-minute 4k clip's gif, the largest file a task makes, is well under this.
MAX_FILE_BYTES = 4 << 30
MAX_FILE_BYTES_ENV = "RENDER_CLUSTER_MAX_FILE_BYTES"  # another cap, in bytes
_LOCAL = re.compile(r"local:(\d+)")
_ADDRESS = re.compile(r"(tcp|tls)://[^\s:/]+:\d+")
VALID = ("valid: tcp://HOST:PORT or tls://HOST:PORT (a running Dask scheduler) "
         "or local:N (N worker processes on this machine, N >= 1)")


def parse_cluster(text: str) -> str:
    """Check the --cluster value's form; ValueError names the valid forms."""
    local = _LOCAL.fullmatch(text)
    if (local and int(local.group(1)) >= 1) or _ADDRESS.fullmatch(text):
        return text
    raise ValueError(f"--cluster {text!r} is not a cluster; {VALID}")


def _import_distributed():
    try:
        import distributed
    except ImportError as error:
        raise ValueError("--cluster needs Dask: install the project's cluster extra "
                         "(pip install -e '.[cluster]', which ./dev.sh does)") from error
    return distributed


# --- TLS -------------------------------------------------------------------------------------------------------

_TLS_SOURCES = {  # Security field: (the option, the Dask configuration key)
    "tls_ca_file": ("--tls-ca-file", "distributed.comm.tls.ca-file"),
    "tls_client_cert": ("--tls-cert", "distributed.comm.tls.client.cert"),
    "tls_client_key": ("--tls-key", "distributed.comm.tls.client.key"),
}


def cluster_security(spec: str, ca_file: str | None = None, cert: str | None = None, key: str | None = None):
    """The distributed Security for `spec`: for tls://, encryption required and this client's certificate from the
    options or else Dask's configuration, every file read and checked now; None for tcp:// and local:N. ValueError
    in one line for missing or unusable certificates, or certificate options without a tls:// address."""
    given = {"tls_ca_file": ca_file, "tls_client_cert": cert, "tls_client_key": key}
    if not spec.startswith("tls://"):
        named = [_TLS_SOURCES[field][0] for field, value in given.items() if value is not None]
        if named:
            raise ValueError(f"{', '.join(named)} only apply to a tls://HOST:PORT cluster, not {spec}")
        return None
    _import_distributed()
    from distributed.security import Security

    security = Security(require_encryption=True, **{field: value for field, value in given.items() if value})

    def source(field: str) -> str:
        option, config_key = _TLS_SOURCES[field]
        if given[field]:
            return f"{option} {given[field]}"
        value = getattr(security, field)
        shown = "(PEM text)" if value and "\n" in value else value
        return f"Dask's configuration {config_key} {shown}"

    missing = [_TLS_SOURCES[field][0] for field in ("tls_ca_file", "tls_client_cert") if not getattr(security, field)]
    if missing:
        raise ValueError(f"--cluster {spec} needs the cluster's CA and this client's certificate: give "
                         f"{' and '.join(missing)} (and --tls-key unless the key is in the certificate file), or set "
                         "distributed.comm.tls.ca-file and distributed.comm.tls.client.cert/.key in Dask's "
                         "configuration")
    for field in _TLS_SOURCES:
        value = getattr(security, field)
        if value and "\n" not in value:  # a path (a value with newlines is the PEM text itself, as Dask allows)
            try:
                with open(value, "rb") as handle:
                    handle.read(1)
            except OSError as error:
                raise ValueError(f"{source(field)}: cannot read it: {error.strerror or error}") from error
    ca, cert, key = security.tls_ca_file, security.tls_client_cert, security.tls_client_key
    steps = [(f"{source('tls_ca_file')} is not a PEM CA certificate",
              lambda: ssl.create_default_context(**({"cadata": ca} if "\n" in ca else {"cafile": ca})))]
    if "\n" not in cert and not (key and "\n" in key):
        pair = f"{source('tls_client_cert')}" + (f" with {source('tls_client_key')}" if key else "")
        steps.append((f"{pair} is not a PEM certificate and its private key",
                      lambda: ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT).load_cert_chain(cert, key)))
    steps.append(("the TLS certificates cannot make a client connection",
                  lambda: security.get_connection_args("client")))  # the context Dask itself builds
    for what, step in steps:
        try:
            step()
        except (ssl.SSLError, OSError, ValueError) as error:
            reason = re.sub(r"\s*\(_ssl\.c:\d+\)", "", " ".join(str(error).split())) or type(error).__name__
            raise ValueError(f"{what} ({reason})") from error
    return security


def _tls_refusal(error: BaseException) -> str | None:
    """The handshake's own reason when `error` (or what caused it) is a refused TLS handshake, else None."""
    chain, seen = [], error
    while seen is not None and len(chain) < 20:
        chain.append(seen)
        seen = seen.__cause__ or seen.__context__
    # OpenSSL's own words (certificate verify failed, unknown ca) first; else Dask's message that names TLS.
    found = next((e for e in chain if isinstance(e, ssl.SSLError)), None) \
        or next((e for e in chain if re.search(r"\b(SSL|TLS)", str(e))), None)
    if found is None:
        return None
    return re.sub(r"\s*\(_ssl\.c:\d+\)", "", " ".join(str(found).split())) or type(found).__name__


def check_reachable(spec: str, security=None, timeout: float = CONNECT_SECONDS) -> None:
    """ValueError in one line at once when nothing answers at tcp:// or tls:// `spec`'s host and port (refused,
    unknown host, no route; no answer within `timeout`), where Dask would retry the address until its own connect
    timeout. For tls:// the probe also makes the TLS handshake with the client's certificate (so that the scheduler
    does not log a failed handshake for every client) and reports a refused one as DaskBackend does."""
    host, port = spec.split("://", 1)[1].rsplit(":", 1)
    try:
        probe = socket.create_connection((host, int(port)), timeout=timeout)
    except OSError as error:
        reason = f"no answer within {timeout:g} s" if isinstance(error, TimeoutError) \
            else (error.strerror or " ".join(str(error).split()) or type(error).__name__)
        raise ValueError(f"cannot reach the Dask scheduler at {spec}: {reason}") from error
    with probe:
        if security is None:
            return
        context = security.get_connection_args("client")["ssl_context"]
        try:
            context.wrap_socket(probe, server_hostname=host).close()
        except ssl.SSLError as error:
            raise ValueError(_tls_failed(spec, _tls_refusal(error))) from error
        except OSError:  # closed or timed out mid-handshake: Dask's own connect says what it finds
            return


def _tls_failed(spec: str, refusal: str) -> str:
    return (f"cannot reach the Dask scheduler at {spec}: the TLS handshake failed ({refusal}); this client's "
            "certificate must be signed by the cluster's CA, and the CA file must be the one that signed the "
            "scheduler's")


# --- What runs on a worker ---------------------------------------------------------------------------------------

def run_on_worker(payload: dict, root: str) -> dict:
    """The task as the cluster runs it: remote.render_task, told this worker's address (for its refusal)."""
    import distributed

    from rendering.pipeline import remote

    return remote.render_task(payload, root, worker=distributed.get_worker().address)


# --- Checking a reply --------------------------------------------------------------------------------------------

class BadReply(ValueError):
    """A worker's reply that the client will not write: the entry, and why."""


def task_files(task) -> dict[str, str]:
    """The files a task of this kind makes, by the key its result names them with, as paths relative to the work
    folder (worker.render for a whole clip, worker._chunk_result for a chunk or a measuring pass)."""
    from rendering.pipeline.tasks import CLIP

    formats = list(task.job.formats)
    if task.kind == CLIP:
        return {ext: f"out/clip.{ext}" for ext in (*formats, "vtt")}
    videos = ["mp4"] + (["webm"] if "webm" in formats else [])
    return {**{ext: f"out/chunk.{ext}" for ext in videos}, "candidate": "out/candidate.png", "last": "out/last.png"}


def _check_name(name, work: Path, allowed: set[str]) -> str:
    if not isinstance(name, str) or not name or "\0" in name or "\\" in name:
        raise BadReply(f"{name!r}: not a file name")
    if name.startswith("/"):
        raise BadReply(f"{name!r}: an absolute path")
    if posixpath.normpath(name) != name or ".." in name.split("/"):
        raise BadReply(f"{name!r}: not a normalised path inside the work folder")
    if name not in allowed:
        raise BadReply(f"{name!r}: not a file this task makes (it makes {', '.join(sorted(allowed))})")
    path = work
    for part in name.split("/"):
        path = path / part
        if path.is_symlink():
            raise BadReply(f"{name!r}: passes through the symlink {path}")
    return name


def max_file_bytes() -> int:
    """The cap on one file of a reply: MAX_FILE_BYTES, or the environment's RENDER_CLUSTER_MAX_FILE_BYTES."""
    text = os.environ.get(MAX_FILE_BYTES_ENV)
    if text is None:
        return MAX_FILE_BYTES
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"{MAX_FILE_BYTES_ENV}={text!r}: give a whole number of bytes, at least 1")
    return int(text)


def checked_reply(reply, task, work: Path, cap: int) -> dict[str, bytes]:
    """The reply's files, every one checked (see the module's docstring); BadReply names the first bad entry."""
    if not isinstance(reply, dict) or not isinstance(reply.get("files"), dict) \
            or not isinstance(reply.get("result"), dict) or not isinstance(reply.get("work"), str) \
            or not reply["work"].startswith("/"):
        raise BadReply("the reply: not {result, work, files}")
    expected = task_files(task)
    allowed = set(expected.values())
    files: dict[str, bytes] = {}
    for name, data in reply["files"].items():
        _check_name(name, work, allowed)
        if not isinstance(data, bytes):
            raise BadReply(f"{name!r}: not bytes")
        if len(data) > cap:
            raise BadReply(f"{name!r}: {len(data)} bytes, over the cap of {cap}")
        files[name] = data
    named = reply["result"].get("files", {})
    if not isinstance(named, dict):
        raise BadReply("result.files: not a mapping")
    prefix = reply["work"].rstrip("/") + "/"
    for kind, info in named.items():
        if kind not in expected:
            raise BadReply(f"result.files.{kind!r}: not a file this task makes ({', '.join(expected)})")
        path = info.get("tmp") if isinstance(info, dict) else info  # a whole clip's {"tmp", ...}, a chunk's path
        if path != prefix + expected[kind] or expected[kind] not in files:
            raise BadReply(f"result.files.{kind} = {path!r}: not the reply's {expected[kind]}")
        data = files[expected[kind]]
        if isinstance(info, dict) and (info.get("bytes") != len(data)
                                       or info.get("sha256") != hashlib.sha256(data).hexdigest()):
            raise BadReply(f"result.files.{kind}: its size or sha256 is not that of the bytes sent")
    return files


def write_files(work: Path, files: dict[str, bytes]) -> None:
    """Write checked files into `work`: new regular files only, never following a symlink."""
    for name, data in files.items():
        path = work / name
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)


def _one_line(text, limit: int = 400) -> str:
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[:limit] + "..."


# --- The backend -------------------------------------------------------------------------------------------------

class DaskBackend:
    """The runner's backend on a Dask cluster: start() submits a task, wait() collects the finished ones."""

    def __init__(self, spec: str, root: Path, registry: str = "scenes.registry", security=None) -> None:
        """Connects (or starts the local cluster); ValueError in one line if the scheduler cannot be reached."""
        distributed = _import_distributed()
        self.distributed = distributed
        self.max_bytes = max_file_bytes()
        self.root = root
        self.registry = registry
        self.cluster = None
        local = _LOCAL.fullmatch(spec)
        try:
            if local:
                self.cluster = distributed.LocalCluster(n_workers=int(local.group(1)), threads_per_worker=1,
                                                        processes=True, dashboard_address=None)
                self.client = distributed.Client(self.cluster)
            else:
                check_reachable(spec, security)
                self.client = distributed.Client(spec, timeout=CONNECT_TIMEOUT, security=security)
        except (OSError, TimeoutError) as error:
            self.close()
            refusal = _tls_refusal(error) if spec.startswith("tls://") else None
            if refusal is not None:
                raise ValueError(_tls_failed(spec, refusal)) from error
            reason = " ".join(str(error).split()) or type(error).__name__
            raise ValueError(f"cannot reach the Dask scheduler at {spec}: {reason}") from error
        self.slots = max(1, sum(self.client.nthreads().values()))
        self._numbers = itertools.count()
        self.futures: dict[int, tuple] = {}  # handle -> (future, task, local work folder)

    def start(self, task, work: Path) -> int:
        handle = next(self._numbers)
        # With what the worker checks its own project against before it renders anything.
        job = replace(task.worker_job(work, False),
                      project=ProjectCheck(task.job.input_hash, self.registry, task.job.quality.name))
        payload = job.to_dict()  # JSON-able: what travels to the cluster
        future = self.client.submit(run_on_worker, payload, str(self.root), pure=False, key=f"{task.name}-{handle}")
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

    def _worker_of(self, future) -> str:
        try:
            holders = self.client.who_has([future]).get(future.key) or []
        except Exception:  # the scheduler forgot it already: the reply still counts, only the name is unknown
            holders = []
        return ", ".join(holders) or "an unknown worker"

    def _finished(self, future, task, work: Path):
        from rendering.pipeline.remote import relocate
        from rendering.pipeline.tasks import Finished

        try:
            reply = future.result()
        except Exception as error:  # the task could not run (e.g. its workers kept dying): say why
            return Finished(task, None, _one_line(f"on the cluster: {type(error).__name__}: {error}"))
        if isinstance(reply, dict) and "error" in reply:
            log = work / "worker.log"
            log.write_text(str(reply.get("log", ""))[-(1 << 20):], encoding="utf-8")
            return Finished(task, None, _one_line(reply["error"]), bool(reply.get("bad_input", False)), log)
        try:
            files = checked_reply(reply, task, work, self.max_bytes)
        except BadReply as bad:
            return Finished(task, None, _one_line(f"worker {self._worker_of(future)} sent a reply that was refused, "
                                                  f"nothing of it written: {bad}"))
        write_files(work, files)
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
