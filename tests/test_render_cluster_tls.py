"""render.py --cluster over TLS, and what the client trusts of a worker: only certificates from the cluster's CA
join, a worker's reply cannot write outside its task's work folder, a worker with another project refuses its
task, and missing or unusable certificates are bad input.

The certificates are made with docs/CLUSTER.md's own openssl commands, and the scheduler and workers are started
with its `dask scheduler` / `dask worker` commands. A fake worker is a real in-process Dask worker whose
rendering.pipeline.remote.render_task is replaced by one that tampers with a real reply.
"""

from __future__ import annotations

import copy
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from distributed import Client, LocalCluster
from distributed.security import Security

from rendering.pipeline import cluster, inputs, remote
from rendering.qualities import QUALITIES
from tests.fixtures.render.harness import REPO, make_project, one_line_error, wait_for

pytestmark = pytest.mark.slow

DASK = str(Path(sys.executable).with_name("dask"))
TLS_ENV = ("DASK_DISTRIBUTED__COMM__TLS__CA_FILE", "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT",
           "DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY")


def _clean_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment of a client or worker: no Dask configuration but what the test gives."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("DASK_")}
    config = tmp_path / "dask-config"
    config.mkdir(exist_ok=True)
    return {**env, "DASK_CONFIG": str(config), **extra}


def documented_certificates(folder: Path) -> Path:
    """Run docs/CLUSTER.md's certificate commands (its ```bash block that makes the CA) in `folder`."""
    page = (REPO / "docs" / "CLUSTER.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)```", page, re.DOTALL)
    commands = next(block for block in blocks if "openssl req -x509" in block)
    folder.mkdir(parents=True)
    result = subprocess.run(["bash", "-euo", "pipefail", "-c", commands], cwd=folder, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    for name in ("ca.pem", "scheduler.pem", "scheduler.key", "worker.pem", "worker.key", "client.pem", "client.key"):
        assert (folder / name).is_file(), name
    return folder


def temporary_certificates(folder: Path) -> Path:
    """A certificate, its key and its own CA from Security.temporary(): not from the cluster's CA."""
    security = Security.temporary()
    folder.mkdir(parents=True)
    (folder / "ca.pem").write_text(security.tls_ca_file)
    (folder / "cert.pem").write_text(security.tls_client_cert)
    (folder / "key.pem").write_text(security.tls_client_key)
    return folder


@contextmanager
def started(args: list[str], log: Path, env: dict[str, str], cwd: Path = REPO):
    """A process of this test (its own session), ended by its id afterwards."""
    with open(log, "wb") as out:
        process = subprocess.Popen(args, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def _address_in(log: Path, what: str, process: subprocess.Popen, pattern: str) -> str:
    found: list[str] = []

    def ready() -> bool:
        assert process.poll() is None, f"{what} stopped: {log.read_text(errors='replace')}"
        found[:] = re.findall(pattern, log.read_text(errors="replace"))
        return bool(found)

    wait_for(ready, 60, what)
    return found[0]


def _workers(address: str, security=None) -> list[str]:
    with Client(address, security=security, timeout="10s") as client:
        return sorted(client.scheduler_info()["workers"])


# --- Only the cluster's certificates ----------------------------------------------------------------------------

def test_only_certificates_from_the_clusters_ca_join_and_a_client_without_one_is_told_in_one_line(tmp_path):
    certs = documented_certificates(tmp_path / "tls")
    rogue = temporary_certificates(tmp_path / "rogue")
    env = _clean_env(tmp_path)
    scheduler_args = [DASK, "scheduler", "--protocol", "tls", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                      "--tls-ca-file", str(certs / "ca.pem"), "--tls-cert", str(certs / "scheduler.pem"),
                      "--tls-key", str(certs / "scheduler.key")]
    with started(scheduler_args, tmp_path / "scheduler.log", env) as scheduler:
        address = _address_in(tmp_path / "scheduler.log", "the scheduler", scheduler, r"Scheduler at:\s+(tls://\S+)")
        client_security = Security(require_encryption=True, tls_ca_file=str(certs / "ca.pem"),
                                   tls_client_cert=str(certs / "client.pem"), tls_client_key=str(certs / "client.key"))
        worker_args = [DASK, "worker", address, "--nthreads", "1", "--tls-ca-file", str(certs / "ca.pem"),
                       "--tls-cert", str(certs / "worker.pem"), "--tls-key", str(certs / "worker.key")]
        with started(worker_args, tmp_path / "worker.log", env):
            wait_for(lambda: len(_workers(address, client_security)) == 1, 60, "the worker with the CA's certificate")
            joined = _workers(address, client_security)

            # A worker that trusts the cluster's CA but whose own certificate that CA did not sign is turned away.
            rogue_worker = subprocess.run(
                [DASK, "worker", address, "--nthreads", "1", "--death-timeout", "10", "--tls-ca-file",
                 str(certs / "ca.pem"), "--tls-cert", str(rogue / "cert.pem"), "--tls-key", str(rogue / "key.pem")],
                cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
            assert rogue_worker.returncode != 0, rogue_worker.stdout + rogue_worker.stderr
            assert "SSL" in rogue_worker.stderr, rogue_worker.stderr[-3000:]  # turned away at the handshake
            assert _workers(address, client_security) == joined

            # A client with such a certificate (trusting the cluster's CA or its own): exit 2, one line, within the
            # connect timeout, nothing written.
            for name, ca in (("cluster-ca", certs / "ca.pem"), ("own-ca", rogue / "ca.pem")):
                options = ["--tls-ca-file", str(ca), "--tls-cert", str(rogue / "cert.pem"),
                           "--tls-key", str(rogue / "key.pem")]
                project = make_project(tmp_path / f"rogue-client-{name}")
                result = project.render("square", "--cluster", address, *options)
                assert result.returncode == 2, result.stdout + result.stderr
                line = one_line_error(result)
                assert f"cannot reach the Dask scheduler at {address}: the TLS handshake failed" in line, line
                assert not project.out.exists()
                begun = time.monotonic()
                with pytest.raises(ValueError, match="the TLS handshake failed"):
                    cluster.DaskBackend(address, project.root,
                                        security=cluster.cluster_security(address, *options[1::2]))
                assert time.monotonic() - begun < 10, name  # CONNECT_TIMEOUT

            # The client's certificate from the CA, given through Dask's configuration: the clip renders there.
            project = make_project(tmp_path / "client")
            configured = dict(zip(TLS_ENV, (str(certs / "ca.pem"), str(certs / "client.pem"),
                                            str(certs / "client.key"))))
            result = subprocess.run(project.args("square", "--cluster", address), cwd=REPO, capture_output=True,
                                    text=True, timeout=300, env=_clean_env(tmp_path, **configured))
            assert result.returncode == 0, result.stdout + result.stderr
            assert project.clip("square", "mp4").is_file()
            assert project.entry("square")["frames"] > 0


# --- A reply that would write outside its folder ----------------------------------------------------------------

_REAL_RENDER_TASK = remote.render_task
_REAL_REPLY: dict = {}
_TAMPER: dict = {}


def _tampering_render_task(payload, root, *args, **kwargs):
    """A worker that renders (once, then replays that real reply) and tampers with the reply as the test says."""
    if "reply" not in _REAL_REPLY:
        _REAL_REPLY["reply"] = _REAL_RENDER_TASK(payload, root, *args, **kwargs)
    reply = copy.deepcopy(_REAL_REPLY["reply"])
    assert "files" in reply, reply  # the real render worked
    return _TAMPER["how"](reply, Path(payload["work_dir"]))


@pytest.fixture(scope="module")
def fake_worker_cluster():
    """A scheduler and one worker in this process (so the test can replace what the worker runs), over TCP."""
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp", host="127.0.0.1",
                      dashboard_address=":0") as local:
        yield local


def _dotdot(escaped: Path):
    def tamper(reply, work):
        reply["files"][os.path.relpath(escaped / "dotdot", work)] = b"written outside"
        return reply
    return tamper


def _absolute(escaped: Path):
    def tamper(reply, work):
        reply["files"][str(escaped / "abs")] = b"written outside"
        return reply
    return tamper


def _through_symlink(escaped: Path):
    def tamper(reply, work):  # a link in the client's work folder where the reply's out/ would go
        (escaped / "linked").mkdir()
        (work / "out").symlink_to(escaped / "linked")
        return reply
    return tamper


def _names_a_client_file(escaped: Path):
    def tamper(reply, work):  # the installer would move that file of the client's into media/
        reply["result"]["files"]["mp4"]["tmp"] = str(escaped.parent / "victim.txt")
        return reply
    return tamper


def _unchanged(escaped: Path):
    return lambda reply, work: reply


CASES = {  # name: (tamper, the bad entry the line names, the client's environment)
    "dotdot": (_dotdot, "../", {}),
    "absolute": (_absolute, "/escaped/abs", {}),
    "symlink": (_through_symlink, "symlink", {}),
    "oversized": (_unchanged, "over the cap of 1000", {"RENDER_CLUSTER_MAX_FILE_BYTES": "1000"}),
    "a client's file in the result": (_names_a_client_file, "victim.txt", {}),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_bad_worker_reply_writes_nothing_outside_the_work_folder_and_fails_the_task_in_one_line(
        tmp_path, monkeypatch, fake_worker_cluster, case):
    make_tamper, named, extra_env = CASES[case]
    escaped = tmp_path / "escaped"
    escaped.mkdir()
    victim = tmp_path / "victim.txt"  # a file of the user's, beside the work
    victim.write_text("the user's own file\n")
    monkeypatch.setitem(_TAMPER, "how", make_tamper(escaped))
    monkeypatch.setattr(remote, "render_task", _tampering_render_task)
    project = make_project(tmp_path / "project")
    address = fake_worker_cluster.scheduler_address
    (worker,) = fake_worker_cluster.scheduler_info["workers"]
    result = subprocess.run(project.args("square", "--cluster", address), cwd=REPO, capture_output=True, text=True,
                            timeout=300, env=_clean_env(tmp_path, **extra_env))
    output = result.stdout + result.stderr
    assert [path for path in escaped.rglob("*") if path.is_file()] == [], output
    assert victim.read_text() == "the user's own file\n", output
    assert not project.clip("square", "mp4").exists(), output
    assert result.returncode == 1, output
    lines = [line for line in output.splitlines() if line.startswith("failed square@low")]  # (the summary repeats it)
    assert len(lines) == 1 and "sent a reply that was refused" in lines[0], output
    assert f"worker {worker}" in lines[0] and named in lines[0], lines[0]


# --- A worker with another project ------------------------------------------------------------------------------

def test_a_worker_whose_project_hashes_differently_refuses_its_task_and_the_clip_is_not_installed(tmp_path):
    # A worker left on another commit: its own copy of rendering/, one line different.
    older = tmp_path / "older"
    shutil.copytree(REPO / "rendering", older / "rendering", ignore=shutil.ignore_patterns("__pycache__"))
    with open(older / "rendering" / "qualities.py", "a", encoding="utf-8") as handle:
        handle.write("\n# a line the client's commit does not have\n")
    env = _clean_env(tmp_path)
    with LocalCluster(n_workers=0, processes=False, protocol="tcp", host="127.0.0.1",
                      dashboard_address=":0") as local:
        address = local.scheduler_address
        worker_env = {**env, "PYTHONPATH": str(older)}
        with started([DASK, "worker", address, "--nthreads", "1"], tmp_path / "worker.log", worker_env, cwd=older):
            wait_for(lambda: len(local.scheduler_info["workers"]) == 1, 60, "the older worker")
            (worker,) = local.scheduler_info["workers"]
            project = make_project(tmp_path / "project")
            result = subprocess.run(project.args("square", "--cluster", address), cwd=REPO, capture_output=True,
                                    text=True, timeout=300, env=env)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    lines = [line for line in output.splitlines() if line.startswith("failed square@low")]  # (the summary repeats it)
    assert len(lines) == 1 and "refused the task" in lines[0], output
    hashes = re.findall(r"\b[0-9a-f]{64}\b", lines[0])
    registry_file = project.package / "registry.py"
    assert f"worker {worker}" in lines[0], lines[0]
    assert len(hashes) == 2 and hashes[0] != hashes[1], lines[0]
    client_hash = _client_input_hash(project.root, registry_file)
    assert hashes[1] == client_hash, lines[0]
    assert not project.clip("square", "mp4").exists()
    assert all(entry["id"] != "square" for entry in project.manifest()["clips"])


def _client_input_hash(root: Path, registry_file: Path) -> str:
    """The square clip's input hash as the client's own project computes it (rendering/pipeline/inputs.py)."""
    from scenes.registry import SceneSpec

    spec = SceneSpec("square", "A square", "Why attention exists", "rfx.square", "SquareScene", 1)
    return inputs.clip_input_hash(inputs.shared_digest(root, registry_file), root, spec, QUALITIES["low"])


# --- Bad input --------------------------------------------------------------------------------------------------

def _bad_input_cases(tmp_path: Path) -> dict[str, tuple[list[str], dict, str]]:
    certs = temporary_certificates(tmp_path / "certs")
    (tmp_path / "not-pem.pem").write_text("this is not a certificate\n")
    good = ["--tls-ca-file", str(certs / "ca.pem"), "--tls-cert", str(certs / "cert.pem"),
            "--tls-key", str(certs / "key.pem")]
    return {
        "no certificates": (["--cluster", "tls://127.0.0.1:9"], {}, "needs the cluster's CA"),
        "no client certificate in the configuration": (
            ["--cluster", "tls://127.0.0.1:9"], {TLS_ENV[0]: str(certs / "ca.pem")}, "--tls-cert"),
        "a missing CA file": (["--cluster", "tls://127.0.0.1:9", "--tls-ca-file", str(tmp_path / "nowhere.pem"),
                               *good[2:]], {}, "nowhere.pem: cannot read it"),
        "a folder as the certificate": (["--cluster", "tls://127.0.0.1:9", *good[:2], "--tls-cert", str(tmp_path),
                                         *good[4:]], {}, "cannot read it"),
        "a key file from the configuration that is missing": (
            ["--cluster", "tls://127.0.0.1:9", *good[:4]], {TLS_ENV[2]: str(tmp_path / "gone.key")},
            "gone.key: cannot read it"),
        "a file that is not a certificate": (["--cluster", "tls://127.0.0.1:9", *good[:2], "--tls-cert",
                                              str(tmp_path / "not-pem.pem"), *good[4:]], {},
                                             "not-pem.pem with --tls-key"),
        "a file that is not a CA certificate": (["--cluster", "tls://127.0.0.1:9", "--tls-ca-file",
                                                 str(tmp_path / "not-pem.pem"), *good[2:]], {},
                                                "not-pem.pem is not a PEM CA certificate"),
        "certificates for a tcp:// cluster": (["--cluster", "tcp://127.0.0.1:9", *good], {}, "only apply"),
        "certificates without a cluster": (good, {}, "only apply with --cluster tls://"),
        "a cap that is not a number": (["--cluster", "tcp://127.0.0.1:9"],
                                       {"RENDER_CLUSTER_MAX_FILE_BYTES": "lots"}, "RENDER_CLUSTER_MAX_FILE_BYTES"),
    }


def test_missing_or_unusable_certificates_exit_2_with_one_line_and_write_nothing(tmp_path):
    for name, (args, env, expected) in _bad_input_cases(tmp_path).items():
        project = make_project(tmp_path / re.sub(r"\W+", "-", name))
        result = subprocess.run(project.args("square", *args), cwd=REPO, capture_output=True, text=True, timeout=120,
                                env=_clean_env(tmp_path, **env))
        assert result.returncode == 2, (name, result.stdout + result.stderr)
        assert expected in one_line_error(result), (name, result.stderr)
        assert not project.out.exists(), name
