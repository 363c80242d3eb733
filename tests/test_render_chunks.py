"""Chunked rendering: a clip rendered as separate windows of frames and joined equals the clip rendered whole.

Chunks are rendered by the real worker process (through remote.render_task, which runs it and hands back the
files) and joined by assemble.py; render.py's own splitting, and stopping a chunked render, are tried through the
command line. Frames are compared decoded: each chunk is its own encoding, so pixels agree up to the encoder's
tolerance (the bound the comparison with the manim CLI uses), and frame counts, captions and posters exactly.
"""

from __future__ import annotations

import os
import signal
import subprocess

import numpy as np
import pytest

from rendering.encode.assemble import assemble
from rendering.encode.frame_window import Window, WindowedRender
from rendering.pipeline.remote import relocate, render_task
from rendering.encode.media import sha256
from rendering.qualities import QUALITIES
from rendering.records import ChunkResult, WindowSpec, WorkerJob
from tests.fixtures.render.harness import (REPO, ctrl_c_reaches_it, decode_frames, make_project, wait_for,
                                           warm_server_pids, worker_pids)

FORMATS = ("mp4", "webm", "png")
MEAN_TOLERANCE = 0.5  # mean absolute difference over the clip, in levels of 255 (as for the manim CLI)
FRAME_TOLERANCE = 1.5  # and for any one frame


def _render(tmp_path, name: str, module: str, class_name: str, window: dict | None = None) -> dict:
    """Run the worker on one task; its files written under tmp_path/name, the result's paths pointing at them."""
    job = WorkerJob(name, f"tests.fixtures.render.{module}", class_name, QUALITIES["low"], FORMATS, "", task=name,
                    window=WindowSpec.from_dict(window) if window else None)
    reply = render_task(job.to_dict(), str(REPO))
    assert "result" in reply, reply.get("log")
    work = tmp_path / name
    for relative, data in reply["files"].items():
        (work / relative).parent.mkdir(parents=True, exist_ok=True)
        (work / relative).write_bytes(data)
    return relocate(reply["result"], reply["work"], work)


def _edges(timeline: list[list[int]]) -> list[int]:
    """Three cuts: in the middle of a static wait, in the middle of a drawn animation, and between animations."""
    starts = np.cumsum([0] + [frames for frames, _ in timeline])
    in_wait = next(int(starts[i] + frames // 2) for i, (frames, static) in enumerate(timeline)
                   if static and frames >= 4)
    in_drawn = next(int(starts[i] + frames // 2) for i, (frames, static) in enumerate(timeline)
                    if not static and frames >= 4 and starts[i] + frames // 2 != in_wait)
    between = next(int(starts[i]) for i in range(1, len(timeline)) if int(starts[i]) not in (in_wait, in_drawn))
    return sorted({in_wait, in_drawn, between})


def _assert_same_pictures(joined, whole) -> None:
    a, b = decode_frames(joined), decode_frames(whole)
    assert len(a) == len(b)
    differences = [np.abs(x.astype(np.int16) - y.astype(np.int16)).mean() for x, y in zip(a, b)]
    assert np.mean(differences) < MEAN_TOLERANCE and max(differences) < FRAME_TOLERANCE, max(differences)


#: The tests that read held_end rendered whole share one render (one worker holds it under --dist loadgroup).
HELD_END_WHOLE = pytest.mark.xdist_group("render-chunks-held-end-whole")


@pytest.fixture(scope="module")
def held_end_whole(tmp_path_factory) -> dict:
    """held_end rendered whole by the worker, once for the module: the tests only read its files."""
    return _render(tmp_path_factory.mktemp("held-end"), "whole", "held_end", "HeldEndScene")


@pytest.mark.parametrize("module, class_name", [("toy_matrix", "ToyMatrixScene"),
                                                pytest.param("held_end", "HeldEndScene", marks=HELD_END_WHOLE)])
def test_chunks_join_into_the_unsplit_clip(tmp_path, request, module, class_name):
    whole = (request.getfixturevalue("held_end_whole") if module == "held_end"
             else _render(tmp_path, "whole", module, class_name))
    edges = _edges(whole["timeline"])
    starts, stops = [0, *edges], [*edges, None]
    chunks = [_render(tmp_path, f"part{k}", module, class_name,
                      {"start": start, "stop": stop, "run_to_end": stop is None})
              for k, (start, stop) in enumerate(zip(starts, stops))]
    assert [chunk["frames"] for chunk in chunks] == [b - a for a, b in zip(starts, [*edges, whole["frames"]])]
    joined = assemble([ChunkResult.from_dict(c) for c in chunks], list(FORMATS), tmp_path / "joined").to_dict()

    assert joined["frames"] == whole["frames"] and joined["timeline"] == whole["timeline"]
    for fmt in ("mp4", "webm"):
        _assert_same_pictures(joined["files"][fmt]["tmp"], whole["files"][fmt]["tmp"])
    for ext in ("png", "vtt"):  # the same poster frame, and captions timed to the millisecond
        assert joined["files"][ext]["sha256"] == whole["files"][ext]["sha256"], ext


@HELD_END_WHOLE
def test_a_chunk_that_ends_before_the_scene_stops_early_and_keeps_only_its_frames(tmp_path, held_end_whole):
    whole = held_end_whole
    first = _render(tmp_path, "first", "held_end", "HeldEndScene", {"start": 0, "stop": 20, "run_to_end": False})
    assert first["frames"] == 20 and "clip_frames" not in first
    assert len(decode_frames(first["files"]["mp4"])) == 20
    a, b = decode_frames(first["files"]["mp4"]), decode_frames(whole["files"]["mp4"]["tmp"])[:20]
    assert np.mean([np.abs(x.astype(np.int16) - y.astype(np.int16)).mean() for x, y in zip(a, b)]) < MEAN_TOLERANCE


def test_render_py_splits_a_long_clip_for_idle_workers_and_the_result_matches_a_serial_render(tmp_path):
    """The first -j 2 render races its lead chunk against the measuring pass (under load the lead may finish the
    whole clip before the timeline is known, and then it is not split); the timeline it keeps makes the second one
    split for certain. Both must match the serial render."""
    serial = make_project(tmp_path / "serial")
    result = serial.render("held_end", "-j", "1")
    assert result.returncode == 0 and "splitting" not in result.stdout, result.stdout
    split = make_project(tmp_path / "split")
    # --split always: these tiny clips are not worth splitting (the scheduler's predictions are test_render_schedule's);
    # here the chunks' mechanics are under test.
    first = split.render("held_end", "-j", "2", "--split", "always")
    assert first.returncode == 0, first.stdout
    _assert_same_clip(split, serial)
    # The clip's timeline is kept, so the next render plans its chunks without measuring first.
    assert split.entry("held_end")["timeline"] == serial.entry("held_end")["timeline"]
    again = split.render("held_end", "-j", "2", "--force", "--split", "always")
    assert again.returncode == 0 and "splitting held_end@low into 2 chunks" in again.stdout, again.stdout
    _assert_same_clip(split, serial)


def _assert_same_clip(split, serial) -> None:
    assert split.entry("held_end")["frames"] == serial.entry("held_end")["frames"]
    for ext in ("png", "vtt"):
        assert sha256(split.clip("held_end", ext)) == sha256(serial.clip("held_end", ext))
    for ext in ("mp4", "webm"):
        _assert_same_pictures(split.clip("held_end", ext), serial.clip("held_end", ext))


def test_interrupting_a_chunked_render_installs_nothing(tmp_path):
    project = make_project(tmp_path / "interrupted")
    process = subprocess.Popen(project.args("slow_long", "-j", "2", "--split", "always"), cwd=project.root,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
                               preexec_fn=ctrl_c_reaches_it)
    work = project.out / ".render" / "tmp" / "slow_long-low"
    wait_for(lambda: any(work.glob("*part*/out/chunk.mp4")) or process.poll() is not None, 120,
             "a chunk to start drawing")
    assert process.poll() is None, process.communicate()[0]
    os.killpg(process.pid, signal.SIGINT)
    output, _ = process.communicate(timeout=60)
    assert process.returncode == 130, output
    assert "splitting slow_long@low" in output
    assert not list(project.out.glob("clips/**/slow_long.*"))
    assert project.manifest()["clips"] == []
    assert not (project.out / ".render" / "tmp").exists()
    assert not worker_pids(str(project.out)) and not warm_server_pids(str(project.out))


def test_a_lead_chunk_ends_at_its_cut_or_where_it_already_is_if_that_is_later(tmp_path):
    cut_file = tmp_path / "cut"
    said: list[int] = []
    lead = WindowedRender(Window(0, None), cut_file=str(cut_file), on_cut=said.append)
    lead.position = 50
    lead.take_cut()
    assert lead.window.stop is None and lead.run_to_end and said == []  # no cut written yet: on to the end
    cut_file.write_text("20")
    lead.take_cut()
    assert (lead.window.stop, lead.run_to_end, said) == (50, False, [50])  # 20 has passed: it stops here
    ahead = WindowedRender(Window(0, None), cut_file=str(cut_file), on_cut=said.append)
    cut_file.write_text("80")
    ahead.position = 50
    ahead.take_cut()
    assert ahead.window.stop == 80 and said[-1] == 80


@HELD_END_WHOLE
def test_a_lead_chunk_renders_up_to_its_cut(tmp_path, held_end_whole):
    cut_file = tmp_path / "cut"
    cut_file.write_text("37")  # inside the 2 s wait after the first animation
    lead = _render(tmp_path, "lead", "held_end", "HeldEndScene",
                   {"start": 0, "stop": None, "run_to_end": True, "cut_file": str(cut_file)})
    assert lead["frames"] == 37 and "clip_frames" not in lead
    rest = _render(tmp_path, "rest", "held_end", "HeldEndScene", {"start": 37, "stop": None, "run_to_end": True})
    whole = held_end_whole
    joined = assemble([ChunkResult.from_dict(c) for c in (lead, rest)], list(FORMATS), tmp_path / "joined").to_dict()
    assert joined["frames"] == whole["frames"]
    _assert_same_pictures(joined["files"]["mp4"]["tmp"], whole["files"]["mp4"]["tmp"])
