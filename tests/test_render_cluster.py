"""render.py --cluster: the same clips rendered on a Dask cluster, a worker's death survived, bad addresses refused,
and Dask never loaded by a plain render."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from rendering.encode.media import sha256
from tests.fixtures.render.harness import REPO, make_project, one_line_error, wait_for
from tests.test_render_chunks import _assert_same_pictures

pytestmark = pytest.mark.slow


def _real_scene_args(out: Path, *args: str) -> list[str]:
    """bottleneck at low, as mp4 and poster: the identity of the frames is what the backends must keep (webm's encoder
    is the same code on every backend, and costs most of the render)."""
    return [sys.executable, str(REPO / "render.py"), "bottleneck", "-f", "mp4,png", "--out", str(out), *args]


def _temporary_tls_files(folder: Path, security) -> list[str]:
    """The --tls-* options for a Security.temporary(): its in-memory CA, certificate and key written to files."""
    folder.mkdir()
    options = []
    for option, name, text in (("--tls-ca-file", "ca.pem", security.tls_ca_file),
                               ("--tls-cert", "cert.pem", security.tls_client_cert),
                               ("--tls-key", "key.pem", security.tls_client_key)):
        (folder / name).write_text(text)
        options += [option, str(folder / name)]
    return options


def test_a_cluster_over_tls_renders_a_real_scene_identical_to_a_local_render(tmp_path):
    """A real scene (Typst, the speed patches, the example) on Dask workers over TLS. `--cluster local:N` is the same
    task on a cluster render.py starts itself: the fixture scenes of the killed-worker test render through it."""
    from distributed import LocalCluster
    from distributed.security import Security

    security = Security.temporary()
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, protocol="tls", host="127.0.0.1",
                      security=security, dashboard_address=":0") as tls_cluster:
        assert tls_cluster.scheduler_address.startswith("tls://")
        tls = ["--cluster", tls_cluster.scheduler_address, *_temporary_tls_files(tmp_path / "certs", security)]
        # The local reference whole (--jobs 1): on this 2-core machine a --jobs 2 render of bottleneck splits it and
        # measures it besides, 17.3 CPU s against 9.6 for the same frames.
        for name, extra in (("local", ["--jobs", "1"]), ("tls", tls)):
            result = subprocess.run(_real_scene_args(tmp_path / name, *extra), cwd=REPO, capture_output=True,
                                    text=True, timeout=600)
            assert result.returncode == 0, result.stdout + result.stderr
    # Each backend decides on its own whether the clip is worth splitting (the local one by this machine's free
    # cores, the cluster on its workers): the mp4 may be joined from chunks on one and whole on the other, so its
    # pictures are compared, as a chunked clip's are with a whole one (test_render_chunks); the poster and captions
    # to the byte.
    clips = {name: tmp_path / name / "clips" / "low" for name in ("local", "tls")}
    _assert_same_pictures(clips["tls"] / "bottleneck.mp4", clips["local"] / "bottleneck.mp4")
    for ext in ("png", "vtt"):
        assert sha256(clips["local"] / f"bottleneck.{ext}") == sha256(clips["tls"] / f"bottleneck.{ext}"), ext


def _chunk_worker_parent(marker: str) -> int | None:
    """The Dask worker process running a chunk of `marker`'s clip: the parent of its rendering.encode.worker process."""
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            status = (proc / "status").read_text()
        except OSError:
            continue
        if "rendering.encode.worker" in cmdline and marker in cmdline and ".part" in cmdline:
            return int(re.search(r"^PPid:\s*(\d+)", status, re.MULTILINE).group(1))
    return None


def test_a_worker_killed_mid_chunk_has_its_chunk_run_again_and_the_clip_completes(tmp_path, monkeypatch):
    # slow_long draws slowly while this file exists (RFX_SLOW_WHILE): long enough to kill a worker mid-chunk; then
    # the file goes, and the chunk run again, the other chunk and the reference draw the same frames at full speed.
    slow_while = tmp_path / "slow-while"
    slow_while.touch()
    monkeypatch.setenv("RFX_SLOW_WHILE", str(slow_while))
    project = make_project(tmp_path / "killed")
    # --split always: the chunks' re-run is under test, not whether this tiny clip is worth splitting.
    process = subprocess.Popen(project.args("slow_long", "--cluster", "local:2", "--split", "always"),
                               cwd=project.root,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    found: list[int] = []
    wait_for(lambda: found.append(_chunk_worker_parent("render-task-slow_long-low")) or found[-1] is not None
             or process.poll() is not None, 180, "a cluster worker to start a chunk")
    assert process.poll() is None, process.communicate()[0]
    os.kill(found[-1], signal.SIGKILL)
    slow_while.unlink()
    output, _ = process.communicate(timeout=300)
    assert process.returncode == 0, output
    assert "rendered slow_long@low" in output
    entry = project.entry("slow_long")
    assert sha256(project.clip("slow_long", "mp4")) == entry["files"]["mp4"]["sha256"]
    # Every chunk is in, the killed one rendered again: the frames of the same clip rendered whole, here.
    whole = make_project(tmp_path / "whole")
    assert whole.render("slow_long", "--jobs", "1").returncode == 0
    assert entry["frames"] == whole.entry("slow_long")["frames"]
    assert sha256(project.clip("slow_long", "vtt")) == sha256(whole.clip("slow_long", "vtt"))


def test_an_unreachable_scheduler_exits_2_with_one_line_and_writes_nothing(tmp_path):
    project = make_project(tmp_path / "unreachable")
    result = project.render("square", "--cluster", "tcp://127.0.0.1:9")
    assert result.returncode == 2, result.stdout + result.stderr
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in one_line_error(result)
    assert not project.out.exists()


def test_an_address_nothing_listens_on_is_refused_at_once_and_a_listening_one_passes():
    """No waiting out Dask's 10 s connect timeout (it retries a refused address until then) when nothing listens;
    a port something listens on passes the check (Dask's own connect then speaks to it)."""
    import socket
    import time

    from rendering.pipeline import cluster

    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        port = listening.getsockname()[1]
        cluster.check_reachable(f"tcp://127.0.0.1:{port}")
    begun = time.monotonic()  # the same port, closed now
    with pytest.raises(ValueError, match=rf"^cannot reach the Dask scheduler at tcp://127.0.0.1:{port}: .*refused"):
        cluster.check_reachable(f"tcp://127.0.0.1:{port}")
    assert time.monotonic() - begun < 2
    # A host that never answers: a listener whose accept queue is full drops further connection attempts.
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(0)
        address = silent.getsockname()
        with socket.create_connection(address, timeout=5):  # fills the queue (never accepted)
            with pytest.raises(ValueError, match=r"no answer within 0.3 s"):
                cluster.check_reachable(f"tcp://127.0.0.1:{address[1]}", timeout=0.3)


@pytest.mark.parametrize("value", ["local:0", "local:", "127.0.0.1:8786", "tcp://nohost", "dask"])
def test_a_malformed_cluster_address_exits_2_naming_the_valid_forms(tmp_path, value):
    project = make_project(tmp_path / "malformed")
    result = project.render("square", "--cluster", value)
    assert result.returncode == 2
    assert "tcp://HOST:PORT" in one_line_error(result) and "local:N" in one_line_error(result)
    assert not project.out.exists()


def test_a_plain_render_never_imports_dask(tmp_path):
    project = make_project(tmp_path / "plain")
    args = project.args("square")
    result = subprocess.run([args[0], "-X", "importtime", *args[1:]], cwd=REPO, capture_output=True, text=True,
                            timeout=240)
    assert result.returncode == 0, result.stdout
    imported = {line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines() if "|" in line}
    assert "rendering.pipeline.runner" in imported  # the render really ran in this process
    assert not {name for name in imported if name.split(".")[0] in ("dask", "distributed")}
    for path in (REPO / "rendering").rglob("*.py"):  # and only cluster.py may import it at all
        text = path.read_text(encoding="utf-8")
        if path.name != "cluster.py":
            assert not re.search(r"^\s*(import|from) (dask|distributed)\b", text, re.MULTILINE), path
