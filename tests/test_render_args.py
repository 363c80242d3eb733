"""render.py's arguments: selection, qualities, formats, --list, --help, and exit status 2 for bad input.

Nothing here renders: a bad request must be refused before anything is written.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rendering.qualities import DEFAULT_FORMATS, QUALITIES, parse_formats, parse_qualities
from rendering.pipeline.scene_list import load_registry, select
from tests.fixtures.render.harness import REPO, Project, make_project, one_line_error


@pytest.fixture
def project(tmp_path):
    return make_project(tmp_path / "project")


@pytest.mark.parametrize("args, expected", [
    (["sqare"], "unknown scene id 'sqare' (did you mean 'square'?); valid: all, square, fade_text, broken, slow"),
    (["square", "--quality", "ultra"], "unknown quality 'ultra'; valid: low, medium, high, 1440p, 4k"),
    (["square", "-q", "low,8k"], "unknown quality '8k'; valid: low, medium, high, 1440p, 4k"),
    (["square", "--format", "mov"], "unknown format 'mov'; valid: mp4, webm, gif, png"),
    (["square", "--jobs", "0"], "--jobs needs a whole number of at least 1"),
    (["square", "--aspect", "vertical"], "unknown aspect 'vertical'; valid: landscape, portrait, square"),
    (["square", "--aspect", "portrait,tall"], "unknown aspect 'tall'; valid: landscape, portrait, square"),
    (["square", "--aspect", ""], "empty aspect in --aspect ''; valid: landscape, portrait, square"),
    (["square", "--aspect", "portrait,"], "empty aspect in --aspect 'portrait,'; valid: landscape, portrait, square"),
    (["square", "--bogus"], "unrecognized arguments: --bogus"),
])
def test_bad_input_exits_2_with_one_line_and_writes_nothing(project, args, expected):
    result = project.render(*args)
    assert result.returncode == 2
    assert expected in one_line_error(result)
    assert not project.out.exists()


def test_unknown_scene_without_a_near_match_lists_the_valid_ids(project):
    result = project.render("zzzzzz")
    assert result.returncode == 2
    line = one_line_error(result)
    assert "did you mean" not in line
    assert "valid: all, square, fade_text" in line


def test_output_directory_that_cannot_be_written_exits_2(project, tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    for out in (blocker, blocker / "media"):
        result = Project(project.root, out).render("square")
        assert result.returncode == 2, result.stderr
        assert "output directory" in one_line_error(result)
        assert blocker.read_text() == "not a folder"


def test_output_directory_on_a_read_only_file_system_exits_2(project):
    # /proc is mounted read-only for files like this for everyone, root included (chmod would not stop root).
    result = Project(project.root, Path("/proc/self")).render("square")
    assert result.returncode == 2
    assert "cannot be written" in one_line_error(result)


def test_list_prints_id_title_section_and_writes_nothing(project):
    result = project.render("--list")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["id", "title", "post", "section"]
    square = next(line for line in lines if line.startswith("square "))
    assert "A square" in square and "Why attention exists" in square
    assert [line.split()[0] for line in lines[1:]] == ["square", "fade_text", "broken", "slow", "missing",
                                                   "toy_matrix", "toy_bars", "narrated", "unnarrated", "held_end",
                                                   "slow_long", "sentence", "corner", "described", "blink"]
    assert not project.out.exists()


def test_list_of_the_real_registry_names_every_scene():
    from scenes.registry import SCENES

    result = subprocess.run([sys.executable, "render.py", "--list"], cwd=REPO, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0
    assert [line.split()[0] for line in result.stdout.splitlines()[1:]] == [s.id for s in SCENES]


def test_help_explains_every_option():
    result = subprocess.run([sys.executable, "render.py", "--help"], cwd=REPO, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0
    for word in ("--list", "--quality", "--format", "--aspect", "portrait", "square", "--jobs", "--force", "--out",
                 "--verbose", "all",
                 *QUALITIES, "mp4", "webm", "gif", "png", "poster", "manifest.json", ".vtt"):
        assert word in result.stdout, f"--help does not mention {word}"


def test_qualities_map_to_the_issue_resolutions():
    assert {name: (q.width, q.height, q.fps) for name, q in QUALITIES.items()} == {
        "low": (854, 480, 15), "medium": (1280, 720, 30), "high": (1920, 1080, 60),
        "1440p": (2560, 1440, 60), "4k": (3840, 2160, 60)}
    from manim.constants import QUALITIES as MANIM

    for quality in QUALITIES.values():
        manim = MANIM[quality.manim_name]
        assert (manim["pixel_width"], manim["pixel_height"], manim["frame_rate"]) == (
            quality.width, quality.height, quality.fps)


def test_quality_and_format_lists_accept_commas_and_repeats_in_any_case():
    assert [q.name for q in parse_qualities(None)] == ["low"]
    assert [q.name for q in parse_qualities(["HIGH,low", "4k", "low"])] == ["high", "low", "4k"]
    assert parse_formats(None) == list(DEFAULT_FORMATS) == ["mp4", "webm", "png"]
    assert parse_formats(["png", "gif,mp4"]) == ["mp4", "gif", "png"]


def test_aspects_are_frames_of_each_quality_8_units_tall():
    from rendering.qualities import framed, manim_frame, parse_aspects

    assert parse_aspects(None) == ["landscape"]
    assert parse_aspects(["SQUARE,portrait", "landscape", "square"]) == ["landscape", "portrait", "square"]
    sizes = {(name, aspect): (framed(q, aspect).width, framed(q, aspect).height)
             for name, q in QUALITIES.items() for aspect in ("landscape", "portrait", "square")}
    assert sizes[("low", "portrait")] == (480, 854) and sizes[("high", "portrait")] == (1080, 1920)
    assert sizes[("low", "square")] == (480, 480) and sizes[("high", "square")] == (1080, 1080)
    assert sizes[("medium", "portrait")] == (720, 1280) and sizes[("4k", "square")] == (2160, 2160)
    assert all(sizes[(name, "landscape")] == (q.width, q.height) for name, q in QUALITIES.items())
    assert manim_frame(framed(QUALITIES["low"], "landscape")) == {}  # manim's own 14.22 x 8, as before
    assert manim_frame(framed(QUALITIES["high"], "portrait")) == {
        "pixel_width": 1080, "pixel_height": 1920, "frame_width": 4.5, "frame_height": 8.0}
    assert manim_frame(framed(QUALITIES["low"], "square")) == {
        "pixel_width": 480, "pixel_height": 480, "frame_width": 8.0, "frame_height": 8.0}


def test_selection_keeps_registry_order_and_all_means_everything(project, monkeypatch):
    monkeypatch.syspath_prepend(str(project.root))
    registry = load_registry("rfx.registry", project.root)
    ids = [s.id for s in registry.scenes]
    assert [s.id for s in select(registry, [])] == ids
    assert [s.id for s in select(registry, ["all"])] == ids
    assert [s.id for s in select(registry, ["slow", "square"])] == ["square", "slow"]
    with pytest.raises(ValueError, match="did you mean 'fade_text'"):
        select(registry, ["fade-text"])


def test_a_second_run_on_the_same_output_directory_is_refused(project):
    import fcntl
    import os

    (project.out / ".render").mkdir(parents=True)
    fd = os.open(project.out / ".render" / "lock", os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # as a running render.py holds it
        result = project.render("square")
    finally:
        os.close(fd)
    assert result.returncode == 2
    assert "in use by another render.py run" in one_line_error(result)
    assert sorted(p.name for p in project.out.rglob("*")) == [".render", "lock"]
