"""Interrupted and crashed renders: exit 130 on Ctrl-C (or SIGTERM), exit 1 when a worker dies, and in every case
no partial clip, no leftover work folder or process, and a manifest that is valid JSON describing only complete
clips. Uses the `slow` fixture scene, whose drawing takes a few seconds, to interrupt it mid-render.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess

import pytest

from rendering.encode.media import sha256
from tests.fixtures.render.harness import (ctrl_c_reaches_it, frames_drawn, interrupt, make_project, wait_for,
                                           warm_server_pids, worker_pids)


def _assert_consistent(project) -> dict:
    """manifest.json parses, and each file it lists is complete: the recorded size and hash."""
    manifest = json.loads((project.out / "manifest.json").read_text(encoding="utf-8"))
    for clip in manifest["clips"]:
        for info in clip["files"].values():
            path = project.out / info["path"]
            assert path.stat().st_size == info["bytes"] and sha256(path) == info["sha256"], info["path"]
    assert not (project.out / ".render" / "tmp").exists(), "work folders must be removed"
    assert not worker_pids(str(project.out)), "no worker may outlive render.py"
    assert not warm_server_pids(str(project.out)), "nor its warm server"
    return manifest


def _start_slow(project, *args) -> subprocess.Popen:
    process = subprocess.Popen(project.args("slow", *args), cwd=project.root, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, start_new_session=True,
                               preexec_fn=ctrl_c_reaches_it)
    wait_for(lambda: frames_drawn(project, "slow") or process.poll() is not None, 120, "slow to start drawing")
    assert process.poll() is None, process.communicate()[0]
    return process


def test_ctrl_c_mid_render_stops_cleanly_and_writes_no_partial_clip(tmp_path):
    project = make_project(tmp_path / "ctrl-c")
    process = _start_slow(project, "-f", "mp4,webm,png")
    os.killpg(process.pid, signal.SIGINT)  # what a terminal does: the whole foreground group gets SIGINT
    output, _ = process.communicate(timeout=60)
    assert process.returncode == 130, output
    assert "interrupted" in output
    manifest = _assert_consistent(project)
    assert manifest["clips"] == []
    assert not list(project.out.glob("clips/**/slow.*"))


def test_interrupting_a_rebuild_keeps_the_previous_complete_clip(tmp_path):
    project = make_project(tmp_path / "rebuild")
    # The complete clip to keep, rendered without the sleep that gives the later runs time to be stopped (it draws
    # nothing): the --force runs render the scene as it is again.
    scene = project.scene_file("slow")
    slow = scene.read_text()
    scene.write_text(slow.replace("time.sleep(0.1)", "None"))
    first = project.render("slow", "-f", "mp4,png")
    assert first.returncode == 0, first.stdout
    scene.write_text(slow)
    before = project.manifest()
    process = _start_slow(project, "--force", "-f", "mp4,png")
    returncode, output = interrupt(process, signal.SIGTERM)  # `kill` stops a run the same clean way as Ctrl-C
    assert returncode == 130, output
    assert _assert_consistent(project) == before

    # A worker that dies outright (killed, segfault, out of memory) fails its clip, and still nothing partial.
    process = _start_slow(project, "--force", "-f", "mp4,png")
    pids = worker_pids(str(project.out))
    assert len(pids) == 1
    os.kill(pids[0], signal.SIGKILL)
    output, _ = process.communicate(timeout=60)
    assert process.returncode == 1, output
    assert "FAILED slow@low: worker killed by signal 9" in output
    assert _assert_consistent(project) == before


@pytest.mark.parametrize("junk", ["{ not json", ""])
def test_an_unreadable_manifest_is_replaced_by_a_valid_one(tmp_path, junk):
    project = make_project(tmp_path / "junk")
    project.out.mkdir(parents=True)
    (project.out / "manifest.json").write_text(junk)
    result = project.render("missing")  # fails before rendering anything: quick
    assert result.returncode == 1
    assert "ignoring unreadable" in result.stdout
    assert _assert_consistent(project) == {"version": 1, "clips": [], "films": []}
