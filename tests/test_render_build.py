"""render.py end to end on tiny fixture scenes at 480p15: outputs, manifest, captions, posters, qualities,
formats, the up-to-date logic, failure isolation and determinism.

One project is built once for the module and later tests build on its state in file order (up to date, then an
edited scene, then a broken one), which keeps the number of renders, and the time, small.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from rendering.encode.captions import parse_webvtt
from rendering.encode.media import sha256
from tests.fixtures.render.harness import REPO, decode_frames, make_project, status_lines

ALL_FORMATS = "mp4,webm,gif,png"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    project = make_project(tmp_path_factory.mktemp("render-build"))
    result = project.render("square", "fade_text", "-f", ALL_FORMATS)
    assert result.returncode == 0, result.stdout + result.stderr
    return project, result


def test_first_build_renders_both_and_exits_0(built):
    project, result = built
    assert status_lines(result.stdout) == {"square@low": "rendered", "fade_text@low": "rendered"}
    assert "2 rendered, 0 up to date, 0 failed" in result.stdout


def test_every_format_poster_and_captions_are_written_and_nothing_else(built):
    project, _ = built
    names = sorted(p.name for p in (project.out / "clips" / "low").iterdir())
    expected = sorted(f"{scene}.{ext}" for scene in ("square", "fade_text")
                      for ext in ("mp4", "webm", "gif", "png", "vtt"))
    assert names == expected
    assert not (project.out / ".render" / "tmp").exists(), "work folders must be cleaned up"


def test_manifest_describes_each_clip_from_its_files(built):
    project, _ = built
    manifest = project.manifest()
    assert manifest["version"] == 1
    assert [(c["id"], c["quality"]) for c in manifest["clips"]] == [("square", "low"), ("fade_text", "low")]
    for clip in manifest["clips"]:
        assert set(clip) >= {"id", "title", "section", "order", "quality", "resolution", "fps", "duration",
                             "frames", "input_hash", "files", "embed"}
        assert clip["resolution"] == [854, 480] and clip["fps"] == 15
        assert set(clip["files"]) == {"mp4", "webm", "gif", "png", "vtt"}
        for ext, info in clip["files"].items():
            path = project.out / info["path"]
            assert info["path"] == f"clips/low/{clip['id']}.{ext}"
            assert path.stat().st_size == info["bytes"]
            assert sha256(path) == info["sha256"]
        mp4_frames = decode_frames(project.out / clip["files"]["mp4"]["path"])
        webm_frames = decode_frames(project.out / clip["files"]["webm"]["path"])
        assert clip["frames"] == len(mp4_frames) == len(webm_frames)
        assert mp4_frames[0].shape == (480, 854, 3)
        assert clip["duration"] == pytest.approx(clip["frames"] / 15, abs=1 / 15)
    square = project.entry("square")
    assert (square["title"], square["section"], square["order"]) == ("A square", "Why attention exists", 1)
    # run_time 1 + 0.5 at 15 fps: 15 + 7 frames plus manim's closing frame
    assert 22 <= square["frames"] <= 24


def test_clips_show_the_same_frames_as_the_plain_manim_cli(built, tmp_path):
    """render.py encodes the videos itself (each drawn frame converted once, waits re-encoded, not re-drawn): the
    clip must still be the CLI's movie, frame for frame, up to the codec's rounding."""
    project, _ = built
    for scene_id, module, class_name in (("fade_text", "fade_text", "FadeTextScene"), ("square", "square",
                                                                                         "SquareScene")):
        media = tmp_path / scene_id
        cli = subprocess.run([sys.executable, "-m", "manim", "render", "-ql", "--disable_caching", "--media_dir",
                              str(media), str(project.scene_file(module)), class_name],
                             cwd=project.root, capture_output=True, text=True, timeout=240)
        assert cli.returncode == 0, cli.stdout + cli.stderr
        reference = decode_frames(next(media.rglob(f"{class_name}.mp4")))
        ours = decode_frames(project.clip(scene_id, "mp4"))
        assert len(ours) == len(reference), f"{scene_id}: {len(ours)} frames vs the CLI's {len(reference)}"
        differences = [np.abs(a.astype(int) - b.astype(int)).mean() for a, b in zip(ours, reference)]
        assert max(differences) < 0.5, f"{scene_id}: frame {int(np.argmax(differences))} differs by " \
                                       f"{max(differences):.2f} levels on average"


def test_videos_are_browser_playable_and_the_mp4_can_start_before_it_has_all_arrived(built):
    import av

    project, _ = built
    expected = {"mp4": ("h264", "yuv420p"), "webm": ("vp9", "yuv420p")}
    for ext, (codec, pixel_format) in expected.items():
        with av.open(str(project.clip("square", ext))) as container:
            stream = container.streams.video[0]
            assert (stream.codec_context.name, stream.codec_context.format.name) == (codec, pixel_format), ext
    data = project.clip("square", "mp4").read_bytes()
    assert 0 < data.find(b"moov") < data.find(b"mdat"), "faststart: the mp4's index must come before its data"


def test_embed_snippet_comes_from_the_page_builder(built):
    from rendering.site import page

    project, _ = built
    for clip in project.manifest()["clips"]:
        assert clip["embed"] == page.embed_snippet(clip)
    assert (project.out / "index.html").is_file()


def test_webvtt_captions_hold_the_subcaptions(built):
    project, _ = built
    text = project.clip("square", "vtt").read_text(encoding="utf-8")
    assert text.startswith("WEBVTT\n")
    cues = parse_webvtt(text)
    assert [c.text for c in cues] == ["A square is drawn.", "It turns &amp; &lt;stops&gt;."]
    assert (cues[0].start, cues[0].end, cues[1].start) == (0.0, 1.0, 1.0)
    assert cues[1].end == pytest.approx(1.5, abs=0.07)
    fade = parse_webvtt(project.clip("fade_text", "vtt").read_text(encoding="utf-8"))
    assert [(c.start, c.end, c.text) for c in fade] == [(1.0, 1.5, "The word stays.")]


def test_poster_is_a_frame_of_the_clip_and_never_the_empty_last_frame(built):
    project, _ = built
    from PIL import Image

    square_poster = np.asarray(Image.open(project.clip("square", "png")).convert("RGB")).astype(int)
    last = decode_frames(project.clip("square", "mp4"))[-1].astype(int)
    assert square_poster.shape == last.shape
    assert np.abs(square_poster - last).mean() < 2.0, "the square clip ends on content: its last frame is the poster"

    fade_frames = decode_frames(project.clip("fade_text", "mp4"))
    assert fade_frames[-1].max() < 20, "fixture check: the fade_text clip ends on an empty (black) frame"
    fade_poster = np.asarray(Image.open(project.clip("fade_text", "png")).convert("RGB")).astype(int)
    assert fade_poster.max() > 200, "the poster shows the word, not the empty end"
    distances = [np.abs(fade_poster - frame.astype(int)).mean() for frame in fade_frames]
    assert min(distances) < 2.0, "the poster is one of the clip's frames"


def test_gif_loops_at_the_clip_rate_when_at_most_30_fps(built):
    project, _ = built
    import av

    with av.open(str(project.clip("fade_text", "gif"))) as container:
        frames = sum(1 for _ in container.decode(video=0))
    assert frames == project.entry("fade_text")["frames"]


def test_nothing_changed_is_up_to_date_without_importing_manim(built):
    project, _ = built
    before = project.mtimes()
    manifest_before = project.manifest()
    code = ("import json, sys, time\n"
            "from rendering.pipeline.cli import main\n"
            "t = time.perf_counter()\n"
            f"rc = main({project.args('square', 'fade_text', '-f', ALL_FORMATS)[2:]!r})\n"
            "print(json.dumps({'rc': rc, 'seconds': time.perf_counter() - t,\n"
            "    'loaded': sorted(m for m in ('manim', 'av', 'numpy', 'torch', 'cairo') if m in sys.modules)}))\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["rc"] == 0, result.stdout + result.stderr
    assert report["loaded"] == []
    assert "0 rendered, 2 up to date, 0 failed" in result.stdout
    assert project.mtimes() == before
    assert [c["input_hash"] for c in project.manifest()["clips"]] == [
        c["input_hash"] for c in manifest_before["clips"]]


def test_a_subset_of_the_formats_made_is_up_to_date(built):
    project, _ = built
    result = project.render("square", "fade_text", "-f", "mp4", "-q", "low")
    assert result.returncode == 0
    assert status_lines(result.stdout) == {}
    assert "0 rendered, 2 up to date" in result.stdout


def test_touching_without_changing_rebuilds_nothing(built):
    project, _ = built
    project.scene_file("square").touch()
    result = project.render("square", "fade_text", "-f", ALL_FORMATS)
    assert result.returncode == 0
    assert status_lines(result.stdout) == {}
    assert "0 rendered, 2 up to date" in result.stdout


def test_editing_one_scene_rebuilds_only_that_scene(built):
    project, _ = built
    before = project.mtimes()
    old_hash = project.entry("square")["input_hash"]
    fade_hash = project.entry("fade_text")["input_hash"]
    path = project.scene_file("square")
    path.write_text(path.read_text() + "\n# an edit that changes the file, not the picture\n")
    result = project.render("square", "fade_text", "-f", ALL_FORMATS)
    assert result.returncode == 0, result.stdout
    assert status_lines(result.stdout) == {"square@low": "rendered"}
    assert "1 rendered, 1 up to date" in result.stdout
    after = project.mtimes()
    assert all(after[name] == stamp for name, stamp in before.items() if name.startswith("low/fade_text"))
    assert all(after[name] != stamp for name, stamp in before.items() if name.startswith("low/square"))
    assert project.entry("square")["input_hash"] != old_hash
    assert project.entry("fade_text")["input_hash"] == fade_hash


def test_a_broken_scene_fails_alone_and_is_named_in_the_summary(built):
    project, _ = built
    before = project.manifest()
    result = project.render("broken", "fade_text", "missing", "--force", "-f", "mp4")
    assert result.returncode == 1
    assert status_lines(result.stdout) == {"broken@low": "failed", "fade_text@low": "rendered"}
    assert "FAILED broken@low: ValueError: deliberately broken fixture scene" in result.stdout
    assert "FAILED missing@low: scene module rfx/not_written_yet.py not found" in result.stdout
    log = project.out / "logs" / "broken-low.log"
    assert "Traceback" in log.read_text() and str(log) in result.stdout
    manifest = project.manifest()
    assert {c["id"] for c in manifest["clips"]} == {"square", "fade_text"}
    assert not list((project.out / "clips" / "low").glob("broken.*"))
    # fade_text was rebuilt as mp4 only; its other formats, made from the same inputs, stay listed and valid
    fade = project.entry("fade_text")
    assert set(fade["files"]) == {"mp4", "webm", "gif", "png", "vtt"}
    old_fade = next(c for c in before["clips"] if c["id"] == "fade_text")
    assert fade["files"]["webm"] == old_fade["files"]["webm"]


def test_two_renders_of_the_same_inputs_give_identical_frames(built):
    project, _ = built
    first = {ext: decode_frames(project.clip("square", ext)) for ext in ("mp4", "webm")}
    poster = project.clip("square", "png").read_bytes()
    result = project.render("square", "--force", "-f", "mp4,webm,png")
    assert status_lines(result.stdout) == {"square@low": "rendered"}
    for ext, frames in first.items():
        again = decode_frames(project.clip("square", ext))
        assert len(again) == len(frames)
        assert all(np.array_equal(a, b) for a, b in zip(frames, again)), f"{ext} frames differ between renders"
    assert project.clip("square", "png").read_bytes() == poster


def test_medium_quality_is_added_beside_low_in_the_merged_manifest(built):
    project, _ = built
    low_before = project.entry("square", "low")
    result = project.render("square", "-q", "medium", "-f", "mp4,png")
    assert result.returncode == 0, result.stdout
    medium = project.entry("square", "medium")
    assert medium["resolution"] == [1280, 720] and medium["fps"] == 30
    assert medium["frames"] == len(decode_frames(project.clip("square", "mp4", "medium")))
    assert medium["duration"] == pytest.approx(low_before["duration"], abs=0.1)
    assert set(medium["files"]) == {"mp4", "png", "vtt"}
    assert project.entry("square", "low") == low_before
    order = [(c["id"], c["quality"]) for c in project.manifest()["clips"]]
    assert order.index(("square", "low")) + 1 == order.index(("square", "medium"))


def test_only_the_requested_formats_are_made(tmp_path):
    project = make_project(tmp_path / "gif-only")
    result = project.render("fade_text", "-f", "gif,png")
    assert result.returncode == 0, result.stdout
    names = sorted(p.name for p in (project.out / "clips" / "low").iterdir())
    assert names == ["fade_text.gif", "fade_text.png", "fade_text.vtt"]
    assert set(project.entry("fade_text")["files"]) == {"gif", "png", "vtt"}
    assert project.entry("fade_text")["embed"] == "", "the page's <video> needs an mp4 or webm source"
