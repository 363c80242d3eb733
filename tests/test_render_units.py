"""The pieces of render.py that need no rendering: the input hash, captions, the manifest, installing a clip,
the blank-frame test for posters, the output-directory check."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from rendering import atomic
from rendering.pipeline import inputs
from rendering.encode.captions import Cue, parse_webvtt, timestamp, to_webvtt
from rendering.encode.framesink import is_blank
from rendering.pipeline.install import Installer
from rendering.pipeline.jobs import Job
from rendering.pipeline.manifest import Manifest
from rendering.outdir import check_writable
from rendering.qualities import QUALITIES
from rendering.records import Beat, ClipResult, MadeFile
from scenes.registry import SceneSpec

LOW, HIGH = QUALITIES["low"], QUALITIES["high"]


# --- input hash ---------------------------------------------------------------------------------------------

@pytest.fixture
def tree(tmp_path):
    """A project root with two scenes, a kit, attention_math and a registry file."""
    for rel, text in {"scenes/one.py": "A = 1\n", "scenes/two.py": "B = 2\n", "scenes/kit/palette.py": "RED = 1\n",
                      "attention_math/soft.py": "X = 1\n", "attention_math/data/table.tsv": "1\t2\n",
                      "scenes/registry.py": "SCENES = ()\n"}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return tmp_path


ONE = SceneSpec("one", "One", "S", "scenes.one", "OneScene", 1)
TWO = SceneSpec("two", "Two", "S", "scenes.two", "TwoScene", 2)


def _hashes(root: Path, quality=LOW) -> tuple[str, str]:
    shared = inputs.shared_digest(root, root / "scenes/registry.py")
    return inputs.clip_input_hash(shared, root, ONE, quality), inputs.clip_input_hash(shared, root, TWO, quality)


def test_editing_a_scene_changes_only_its_hash(tree):
    one, two = _hashes(tree)
    (tree / "scenes/one.py").write_text("A = 1  # edited\n")
    one_after, two_after = _hashes(tree)
    assert one_after != one and two_after == two


def test_touching_a_file_or_compiling_it_changes_nothing(tree):
    before = _hashes(tree)
    (tree / "scenes/one.py").touch()
    (tree / "scenes/kit/__pycache__").mkdir()
    (tree / "scenes/kit/__pycache__/palette.cpython-311.pyc").write_bytes(b"\0compiled")
    (tree / "attention_math/soft.pyc").write_bytes(b"\0")
    assert _hashes(tree) == before


@pytest.mark.parametrize("rel", ["scenes/kit/palette.py", "attention_math/soft.py", "attention_math/data/table.tsv",
                                 "scenes/registry.py"])
def test_editing_a_shared_input_changes_every_hash(tree, rel):
    before = _hashes(tree)
    (tree / rel).write_text((tree / rel).read_text() + "# edit\n")
    after = _hashes(tree)
    assert after[0] != before[0] and after[1] != before[1]


@pytest.mark.parametrize("rel", ["attention_math/tests/test_soft.py", "attention_math/README.md",
                                 "attention_math/pyproject.toml", "attention_math/attention_math.egg-info/PKG-INFO",
                                 "attention_math/build/lib/soft.py"])
def test_the_math_packages_tests_and_packaging_are_no_clip_input(tree, rel):
    """Editing a math test, the package's API page, or reinstalling it (egg-info) rebuilds no clip."""
    before = _hashes(tree)
    (tree / rel).parent.mkdir(parents=True, exist_ok=True)
    (tree / rel).write_text("changed\n")
    assert _hashes(tree) == before


def test_adding_a_kit_file_or_a_manim_cfg_changes_every_hash(tree):
    before = _hashes(tree)
    (tree / "scenes/kit/new.py").write_text("")
    middle = _hashes(tree)
    (tree / "manim.cfg").write_text("[CLI]\nbackground_color = WHITE\n")
    after = _hashes(tree)
    assert len({before, middle, after}) == 3


def test_quality_and_library_versions_are_inputs(tree, monkeypatch):
    assert _hashes(tree, LOW) != _hashes(tree, HIGH)
    before = _hashes(tree)
    real = inputs.package_version
    monkeypatch.setattr(inputs, "package_version", lambda name: "9.9" if name == "manim" else real(name))
    assert _hashes(tree) != before
    monkeypatch.setattr(inputs, "package_version", lambda name: "9.9" if name == "typst" else real(name))
    assert _hashes(tree) != before


def test_a_scene_module_that_does_not_exist_is_named(tree):
    ghost = SceneSpec("ghost", "Ghost", "S", "scenes.ghost", "GhostScene", 3)
    with pytest.raises(inputs.MissingSceneModule, match=r"^scene module scenes/ghost.py not found$"):
        inputs.clip_input_hash("shared", tree, ghost, LOW)


# --- captions -----------------------------------------------------------------------------------------------

def test_timestamps_are_webvtt_style():
    assert timestamp(0) == "00:00:00.000"
    assert timestamp(61.5) == "00:01:01.500"
    assert timestamp(3725.0004) == "01:02:05.000"


def test_webvtt_escapes_markup_drops_empty_cues_and_sorts():
    text = to_webvtt([Cue(2, 3, "b <i>x</i> & y"), Cue(0, 1, "a\n\nsecond line"), Cue(1, 1, "zero length"),
                      Cue(4, 5, "   ")])
    assert text.startswith("WEBVTT\n\n1\n00:00:00.000 --> 00:00:01.000\na\nsecond line\n")
    cues = parse_webvtt(text)
    assert [(c.start, c.end, c.text) for c in cues] == [(0, 1, "a\nsecond line"),
                                                          (2, 3, "b &lt;i&gt;x&lt;/i&gt; &amp; y")]


# --- blank frames (posters) ---------------------------------------------------------------------------------

def test_a_fade_out_remnant_is_blank_but_a_thin_line_is_not():
    frame = np.zeros((48, 64, 4), np.uint8)
    frame[..., :3] = (20, 24, 30)
    assert is_blank(frame)
    frame[10:20, 10:30, :3] = (22, 25, 31)  # what is left of text at 2% opacity
    assert is_blank(frame)
    frame[30, 5:60, :3] = (200, 200, 200)  # a one-pixel rule
    assert not is_blank(frame)


# --- manifest and installing a clip -------------------------------------------------------------------------

def _job(scene_id="one", input_hash="h1", quality=LOW) -> Job:
    return Job(SceneSpec(scene_id, scene_id.title(), "S", f"scenes.{scene_id}", "X", 1), quality, ["mp4"], input_hash)


def _result(work: Path, exts=("mp4", "png"), payload=b"data") -> ClipResult:
    work.mkdir(parents=True, exist_ok=True)
    files = {}
    for ext in exts:
        path = work / f"clip.{ext}"
        path.write_bytes(payload + ext.encode())
        files[ext] = MadeFile(str(path), path.stat().st_size, "x")
    return ClipResult(854, 480, 15.0, 30, 2.0, files)


def test_installing_moves_files_in_and_records_them(tmp_path):
    out = tmp_path / "media"
    manifest = Manifest(out)
    outcome = Installer(out, manifest, embed=lambda clip: f"<video {clip['id']}>")(_job(), _result(tmp_path / "w"))
    assert outcome.status == "rendered"
    on_disk = json.loads((out / "manifest.json").read_text())
    [entry] = on_disk["clips"]
    assert entry["files"]["mp4"]["path"] == "clips/low/one.mp4"
    assert (out / "clips/low/one.mp4").read_bytes() == b"datamp4"
    assert entry["embed"] == "<video one>" and entry["fps"] == 15
    assert not list((tmp_path / "w").iterdir()), "files are moved, not copied"


def test_a_failure_while_installing_never_leaves_the_old_entry_pointing_at_new_files(tmp_path, monkeypatch):
    out = tmp_path / "media"
    manifest = Manifest(out)
    Installer(out, manifest, None)(_job(input_hash="old"), _result(tmp_path / "w1", payload=b"old"))
    calls = []

    def flaky_install(source, destination):
        calls.append(destination)
        if len(calls) == 2:
            raise OSError("disk full")
        real_install(source, destination)

    real_install = atomic.install
    monkeypatch.setattr(atomic, "install", flaky_install)
    with pytest.raises(OSError):
        Installer(out, manifest, None)(_job(input_hash="new"), _result(tmp_path / "w2", payload=b"new"))
    on_disk = json.loads((out / "manifest.json").read_text())
    assert on_disk["clips"] == [], "the clip is half replaced, so the manifest must not describe it"


def test_formats_from_other_inputs_are_removed_and_from_the_same_inputs_kept(tmp_path):
    out = tmp_path / "media"
    manifest = Manifest(out)
    Installer(out, manifest, None)(_job(input_hash="h1"), _result(tmp_path / "a", exts=("mp4", "gif", "vtt")))
    Installer(out, manifest, None)(_job(input_hash="h1"), _result(tmp_path / "b", exts=("webm",)))
    assert set(manifest.get("one", "low")["files"]) == {"mp4", "gif", "webm"}  # same inputs; vtt follows the render
    assert not (out / "clips/low/one.vtt").exists()
    Installer(out, manifest, None)(_job(input_hash="h2"), _result(tmp_path / "c", exts=("mp4",)))
    assert set(manifest.get("one", "low")["files"]) == {"mp4"}
    assert not (out / "clips/low/one.gif").exists() and not (out / "clips/low/one.webm").exists()


def test_manifest_keeps_other_clips_and_drops_vanished_or_unregistered_ones(tmp_path):
    out = tmp_path / "media"
    manifest = Manifest(out)
    for scene_id in ("one", "two", "three"):
        Installer(out, manifest, None)(_job(scene_id), _result(tmp_path / scene_id))
    Installer(out, manifest, None)(_job("one", quality=HIGH), _result(tmp_path / "one-high"))
    (out / "clips/low/two.png").unlink()
    reloaded, warning = Manifest.load(out)
    assert warning is None
    dropped = reloaded.prune({"one", "two"})
    assert sorted(dropped) == ["three@low", "two@low"]
    assert [(e["id"], e["quality"]) for e in reloaded.entries()] == [("one", "low"), ("one", "high")]


def test_a_manifest_of_another_version_is_ignored_with_a_warning(tmp_path):
    (tmp_path / "manifest.json").write_text(json.dumps({"version": 2, "clips": []}))
    manifest, warning = Manifest.load(tmp_path)
    assert manifest.entries() == [] and "version 1" in warning


# --- output directory ---------------------------------------------------------------------------------------

def test_checking_the_output_directory_creates_nothing(tmp_path):
    target = tmp_path / "a" / "b" / "media"
    check_writable(target)
    assert not (tmp_path / "a").exists()
    (tmp_path / "media").mkdir()
    check_writable(tmp_path / "media")
    assert list((tmp_path / "media").iterdir()) == []


def test_atomic_writes_are_readable_by_a_web_server(tmp_path):
    """mkstemp makes 0600 files; a page served by another user must be world-readable like a plain open()."""
    import os

    from rendering import atomic

    old = os.umask(0o022)
    try:
        atomic.write_text(tmp_path / "index.html", "<p>hi</p>")
    finally:
        os.umask(old)
    assert (tmp_path / "index.html").stat().st_mode & 0o777 == 0o644


def test_a_clip_result_crosses_the_wire_unchanged():
    """What a worker's "done" event carries (JSON) reads back as the same record, narrated fields included."""
    beat = Beat("scores", 0, "a caption", ("a caption",), "said", 15, 0.0, 1.0)
    result = ClipResult(480, 854, 15.0, 30, 2.0, {"mp4": MadeFile("/w/out/clip.mp4", 10, "ab")},
                        timeline=((15, 0), (15, 1)), beats=(beat,), chunks=2,
                        audio={"codecs": ["aac"], "loudness_lufs": -16.0},
                        transcript=({"beat": "scores", "text": "said", "speech": []},))
    assert ClipResult.from_dict(json.loads(json.dumps(result.to_dict()))) == result
    silent = ClipResult(854, 480, 15.0, 30, 2.0, {})
    assert "audio" not in silent.to_dict() and ClipResult.from_dict(silent.to_dict()) == silent


def test_a_narrated_clip_entry_records_its_audio_and_transcript(tmp_path):
    out = tmp_path / "media"
    job = Job(SceneSpec("one", "One", "S", "scenes.one", "X", 1), QUALITIES["low"], ["mp4"], "h", narration={"voice": None})
    made = _result(tmp_path / "w", exts=("mp4",))
    narrated = ClipResult(made.width, made.height, made.fps, made.frames, made.duration, made.files,
                          timeline=((30, 0),), audio={"loudness_lufs": -16.0},
                          transcript=({"beat": "b", "text": "t", "speech": []},))
    Installer(out, Manifest(out), None)(job, narrated)
    [entry] = json.loads((out / "manifest.json").read_text())["clips"]
    assert entry["narrated"] is True and entry["audio"] == {"loudness_lufs": -16.0}
    assert entry["transcript"] == [{"beat": "b", "text": "t", "speech": []}] and entry["timeline"] == [[30, 0]]
