"""render.py --aspect: portrait (9:16) and square (1:1) clips beside the landscape ones, and the page that plays the
portrait clip on a narrow or upright screen.

One render of the corner fixture (a unit square fixed in the top-left corner) in all three frames, with --film,
is shared by the path, manifest, pixel, up-to-date and browser tests (in one xdist group, so it runs once).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rendering.encode.media import sha256
from rendering.qualities import QUALITIES, framed
from rendering.records import ClipEntry, WorkerJob
from tests.fixtures.render.harness import decode_frames, make_project, status_lines

pytestmark = pytest.mark.xdist_group("render-aspect")

ASPECTS = ("landscape", "portrait", "square")
FORMATS = ("mp4", "webm", "png", "vtt")
#: 480p's frame sizes from the issue: portrait 480 x 854, square 480 x 480 (landscape as always)
SIZES = {"landscape": (854, 480), "portrait": (480, 854), "square": (480, 480)}
FOLDERS = {"landscape": "clips/low", "portrait": "clips/low/portrait", "square": "clips/low/square"}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    project = make_project(tmp_path_factory.mktemp("render-aspect"))
    result = project.render("corner", "-f", "mp4,webm,png", "--aspect", "landscape,portrait,square", "--film")
    assert result.returncode == 0, result.stdout + result.stderr
    return project, result


def _entries(project) -> dict[str, dict]:
    return {clip.get("aspect", "landscape"): clip for clip in project.manifest()["clips"]}


def test_each_aspect_is_rendered_into_its_folder_and_recorded_with_its_aspect(built):
    project, result = built
    assert status_lines(result.stdout) == {"corner@low": "rendered", "corner@low/portrait": "rendered",
                                           "corner@low/square": "rendered"}
    entries = _entries(project)
    assert sorted(entries) == sorted(ASPECTS) and len(project.manifest()["clips"]) == 3
    assert "aspect" not in entries["landscape"]  # a landscape entry keeps the form it had before aspects
    for aspect, entry in entries.items():
        assert entry["quality"] == "low"
        assert entry["resolution"] == list(SIZES[aspect])
        assert {ext: info["path"] for ext, info in entry["files"].items()} == {
            ext: f"{FOLDERS[aspect]}/corner.{ext}" for ext in FORMATS}
        for info in entry["files"].values():
            assert sha256(project.out / info["path"]) == info["sha256"]
    assert len({entry["input_hash"] for entry in entries.values()}) == 3
    assert sorted(p.name for p in (project.out / "clips" / "low").iterdir()) == [
        "corner.mp4", "corner.png", "corner.vtt", "corner.webm", "portrait", "square"]


def test_films_are_joined_per_aspect(built):
    project, _ = built
    films = {film.get("aspect", "landscape"): film for film in project.manifest()["films"]}
    assert sorted(films) == sorted(ASPECTS)
    for aspect, film in films.items():
        folder = "film/low" if aspect == "landscape" else f"film/low/{aspect}"
        assert film["files"]["mp4"]["path"] == f"{folder}/film.mp4"
        assert film["resolution"] == list(SIZES[aspect])
        assert decode_frames(project.out / film["files"]["mp4"]["path"])[0].shape[:2] == SIZES[aspect][::-1]


@pytest.mark.parametrize("aspect, unit_px", [
    ("landscape", 480 / 8), ("portrait", 854 / 8), ("square", 480 / 8),  # every frame is 8 units tall
])
def test_the_frame_has_the_aspects_pixels_and_units(built, aspect, unit_px):
    project, _ = built
    for ext in ("mp4", "webm"):
        frame = decode_frames(project.out / FOLDERS[aspect] / f"corner.{ext}")[0]
        assert frame.shape[:2] == SIZES[aspect][::-1], ext  # rows, columns
        white = frame.min(axis=2) > 200
        rows, columns = white[:, 3].nonzero()[0], white[3, :].nonzero()[0]
        # The unit square fixed at the top-left corner starts at the first pixel row and column and is
        # unit_px on each side: not squashed, not shifted off the real edge (manim#3604).
        assert rows.min() <= 1 and columns.min() <= 1, ext
        assert abs(rows.max() + 1 - unit_px) <= 2 and abs(columns.max() + 1 - unit_px) <= 2, (ext, rows.max(),
                                                                                              columns.max())


def test_each_aspect_is_up_to_date_on_its_own(built):
    project, _ = built
    again = project.render("corner", "-f", "mp4,webm,png", "--aspect", "portrait,square,landscape")
    assert again.returncode == 0, again.stderr
    assert status_lines(again.stdout) == {} and "0 rendered, 3 up to date" in again.stdout
    plain = project.render("corner", "-f", "mp4,webm,png")  # no --aspect: the landscape clip, as before
    assert status_lines(plain.stdout) == {} and "0 rendered, 1 up to date" in plain.stdout
    (project.out / FOLDERS["square"] / "corner.webm").unlink()
    before = {aspect: entry["files"]["mp4"]["sha256"] for aspect, entry in _entries(project).items()}
    partly = project.render("corner", "-f", "mp4,webm,png", "--aspect", "landscape,square,portrait")
    assert partly.returncode == 0, partly.stderr
    assert status_lines(partly.stdout) == {"corner@low/square": "rendered"}
    after = {aspect: entry["files"]["mp4"]["sha256"] for aspect, entry in _entries(project).items()}
    assert after == before  # the same inputs make the same bytes


def test_the_worker_job_and_the_manifest_entry_carry_the_aspect():
    low = QUALITIES["low"]
    portrait = framed(low, "portrait")
    job = WorkerJob("corner", "m", "C", portrait, ("mp4",), "/tmp/w")
    assert job.to_dict()["quality"]["aspect"] == "portrait"
    assert WorkerJob.from_dict(json.loads(json.dumps(job.to_dict()))).quality == portrait
    landscape = WorkerJob("corner", "m", "C", framed(low, "landscape"), ("mp4",), "/tmp/w")
    assert "aspect" not in landscape.to_dict()["quality"] and landscape.quality == low
    entry = ClipEntry("corner", "t", "s", 1, "low", (480, 854), 15, 2.0, 30, "h", {}, aspect="portrait")
    assert entry.to_dict()["aspect"] == "portrait"
    assert "aspect" not in ClipEntry("corner", "t", "s", 1, "low", (854, 480), 15, 2.0, 30, "h", {}).to_dict()


def test_narrated_and_film_paths_sit_in_the_aspects_folder(tmp_path):
    from rendering.outdir import clip_file, film_dir

    assert clip_file(tmp_path, "high", "x", "mp4", True, "portrait") == tmp_path / "clips/high/portrait/narrated/x.mp4"
    assert clip_file(tmp_path, "high", "x", "mp4", True) == tmp_path / "clips/high/narrated/x.mp4"
    assert film_dir(tmp_path, "low", True, "square") == tmp_path / "film/low/square/narrated"
    assert film_dir(tmp_path, "low", False) == tmp_path / "film/low"


# ---------------------------------------------------------------- the page on a phone


_PLAYING = """
async ([want, timeoutMs]) => {
  const video = document.querySelector('#clip-corner video');
  const start = performance.now();
  while (!(video.readyState >= 1 && video.currentSrc.includes(want) && video.videoWidth > 0)) {
    if (video.error) throw new Error(`media error ${video.error.code}`);
    if (performance.now() - start > timeoutMs) throw new Error(`timed out waiting for ${want}: ${video.currentSrc}`);
    await new Promise(r => setTimeout(r, 20));
  }
  return {src: video.currentSrc, width: video.videoWidth, height: video.videoHeight, time: video.currentTime,
          paused: video.paused};
}
"""


_WATCH_THE_TURN = """() => {
  const video = document.querySelector('#clip-corner video');
  window.resizedAt = window.swappedAt = null;
  addEventListener('resize', () => { if (window.resizedAt === null) window.resizedAt = performance.now(); });
  new MutationObserver(() => { if (window.swappedAt === null) window.swappedAt = performance.now(); })
    .observe(video, {childList: true});
  return video.currentTime;
}"""


@pytest.mark.browser
def test_a_phone_plays_the_portrait_clip_and_turning_it_switches_to_landscape_in_place(built):
    from tests.test_page_browser import ARTIFACTS, WAIT_MS, page_with_errors, served_browser

    project, _ = built
    with served_browser(project.out) as (server, context):
        page, errors = page_with_errors(context)
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(server.url + "index.html", wait_until="load")
        upright = page.evaluate(_PLAYING, ["clips/low/portrait/corner.", WAIT_MS])
        assert upright["width"] < upright["height"] and (upright["width"], upright["height"]) == (480, 854)
        assert page.evaluate("() => document.querySelector('#clip-corner video').getAttribute('poster')") \
            == "clips/low/portrait/corner.png"
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.locator("#clip-corner").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "aspect-390x844.png"))
        page.evaluate("""async () => { const v = document.querySelector('#clip-corner video'); v.muted = true;
            await v.play(); while (v.currentTime < 0.8) await new Promise(r => setTimeout(r, 20));
            v.pause(); }""")
        position = page.evaluate(_WATCH_THE_TURN)
        assert page.evaluate("() => document.querySelector('#clip-corner select').selectedOptions[0]"
                             ".textContent") == "480p portrait · 15 fps"
        page.set_viewport_size({"width": 844, "height": 390})  # the phone turned
        turned = page.evaluate(_PLAYING, ["clips/low/corner.", WAIT_MS])
        # The sources are swapped in the same task as the viewport's change: well within a frame (15 fps).
        lag = page.evaluate("() => window.swappedAt - window.resizedAt")
        assert abs(lag) < 1000 / 15, lag
        assert page.evaluate("() => document.querySelector('#clip-corner select').selectedOptions[0]"
                             ".textContent") == "480p · 15 fps"
        assert "/portrait/" not in turned["src"] and (turned["width"], turned["height"]) == (854, 480)
        page.wait_for_function(f"() => Math.abs(document.querySelector('#clip-corner video').currentTime"
                               f" - {position}) < 0.1", timeout=WAIT_MS)
        page.set_viewport_size({"width": 1280, "height": 800})
        page.screenshot(path=str(ARTIFACTS / "aspect-1280x800.png"))
        assert page.evaluate(_PLAYING, ["clips/low/corner.", WAIT_MS])["width"] == 854
        page.set_viewport_size({"width": 390, "height": 844})  # and back upright
        assert page.evaluate(_PLAYING, ["clips/low/portrait/corner.", WAIT_MS])["height"] == 854
        assert errors == []


def test_the_page_plays_landscape_and_keeps_the_portrait_rendering_beside_it_square_not_at_all(built):
    from rendering.site.players import group_players

    project, _ = built
    manifest = project.manifest()
    entries = _entries(project)
    [player] = group_players(manifest)
    assert player.variants == (entries["landscape"],)
    assert player.portrait_of(entries["landscape"]) == entries["portrait"]
    page = (project.out / "index.html").read_text(encoding="utf-8")
    assert 'data-alt-mp4="clips/low/portrait/corner.mp4"' in page and 'data-alt-width="480"' in page
    assert "square/" not in page  # a square clip is for others to embed, not played here
    landscape_only = {**manifest, "clips": [entries["landscape"]]}
    [alone] = group_players(landscape_only)
    assert alone.portrait_of(entries["landscape"]) is None

    for only in ("portrait", "square"):  # a clip rendered in one other frame only plays that
        [player] = group_players({**manifest, "clips": [entries[only]]})
        assert player.variants == (entries[only],) and player.portrait_of(entries[only]) is None


def test_a_cluster_worker_hashes_a_portrait_task_as_the_client_does():
    from dataclasses import replace

    from rendering import REPO_ROOT
    from rendering.pipeline import inputs
    from rendering.pipeline.remote import refusal
    from rendering.records import ProjectCheck
    from scenes import registry

    spec = registry.get("bottleneck")
    shared = inputs.shared_digest(REPO_ROOT, REPO_ROOT / "scenes" / "registry.py")
    hashes = {aspect: inputs.clip_input_hash(shared, REPO_ROOT, spec, framed(QUALITIES["low"], aspect))
              for aspect in ASPECTS}
    assert len(set(hashes.values())) == 3
    assert hashes["landscape"] == inputs.clip_input_hash(shared, REPO_ROOT, spec, QUALITIES["low"])
    job = WorkerJob(spec.id, spec.module, spec.class_name, framed(QUALITIES["low"], "portrait"), ("mp4",), "/tmp/w",
                    project=ProjectCheck(hashes["portrait"], "scenes.registry", "low"))
    assert refusal(REPO_ROOT, job, None) is None
    assert "refused" in refusal(REPO_ROOT, replace(job, quality=framed(QUALITIES["low"], "square")), None)
