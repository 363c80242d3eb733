"""The offline page in a real browser: Debian's headless Chromium, driven by Playwright, served from 127.0.0.1.

`check_page_in_browser(media_dir)` works on any media folder with a manifest.json and index.html: the small
clips this file encodes with PyAV, or the real rendered ones (set PAGE_MEDIA_DIR, or render into media/).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urljoin, urlparse

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "tests" / "_artifacts"
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--autoplay-policy=no-user-gesture-required",
]
DURATION_TOLERANCE_S = 0.1
WAIT_MS = 20_000

pytestmark = pytest.mark.browser


# ---------------------------------------------------------------- a static host on 127.0.0.1


class RangeRequestHandler(SimpleHTTPRequestHandler):
    """http.server plus byte ranges, as every real static host has: browsers fetch video in ranges."""

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass

    def send_head(self):
        header = self.headers.get("Range", "")
        path = Path(self.translate_path(self.path))
        if not header.startswith("bytes=") or not path.is_file():
            return super().send_head()
        size = path.stat().st_size
        start_text, _, end_text = header[len("bytes="):].split(",")[0].partition("-")
        if start_text:
            start, end = int(start_text), int(end_text) if end_text else size - 1
        else:
            start, end = max(0, size - int(end_text)), size - 1
        if start >= size:
            self.send_error(416, "Requested Range Not Satisfiable")
            return None
        end = min(end, size - 1)
        file = path.open("rb")
        file.seek(start)
        self.send_response(206)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.send_header("Content-Length", str(end - start + 1))
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        self._range_left = end - start + 1
        return file

    def copyfile(self, source, outputfile):
        left = getattr(self, "_range_left", None)
        if left is None:
            return super().copyfile(source, outputfile)
        while left > 0:
            chunk = source.read(min(64 * 1024, left))
            if not chunk:
                break
            outputfile.write(chunk)
            left -= len(chunk)
        self._range_left = None


class LocalServer:
    """Serves a folder on 127.0.0.1 at a free port, in a thread."""

    def __init__(self, directory: Path):
        handler = partial(RangeRequestHandler, directory=str(directory))
        handler.extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".vtt": "text/vtt",
                                  ".webm": "video/webm", ".mp4": "video/mp4", ".svg": "image/svg+xml"}
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/"

    def __enter__(self) -> LocalServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


# ---------------------------------------------------------------- the checks


@dataclass
class PageReport:
    media_dir: Path
    problems: list[str] = field(default_factory=list)
    checked_variants: int = 0
    checked_sources: int = 0
    requests: list[str] = field(default_factory=list)
    screenshots: list[Path] = field(default_factory=list)


_WAIT_FOR_VARIANT = """
async ([figureId, expected, timeoutMs]) => {
  const figure = document.getElementById(figureId);
  const video = figure.querySelector('video');
  const until = async (test, what) => {
    const start = performance.now();
    while (!test()) {
      if (video.error) throw new Error(`${what}: media error ${video.error.code} ${video.error.message}`);
      if (performance.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
      await new Promise(r => setTimeout(r, 50));
    }
  };
  const matches = (url, paths) => paths.some(p => url === new URL(p, document.baseURI).href);
  await until(() => video.readyState >= 1 && matches(video.currentSrc, expected.sources), 'metadata');
  const result = {duration: video.duration, currentSrc: video.currentSrc,
                  poster: video.poster, cues: null, trackState: null, played: null};
  const track = video.querySelector('track');
  if (track) {
    if (track.track.mode === 'disabled') track.track.mode = 'hidden';
    const cues = () => track.track.cues ? Array.from(track.track.cues) : [];
    // The chooser swaps the track too: wait for this quality's captions, not the previous ones.
    await until(() => track.readyState === 3 || track.readyState === 2 && cues().length > 0
                      && cues()[0].text === expected.firstCue, 'captions');
    result.trackState = track.readyState;
    result.cues = cues().length;
  }
  video.muted = true;
  video.currentTime = 0;
  await video.play();
  await until(() => video.currentTime > 0.25 || video.ended, 'playback');
  result.played = video.currentTime;
  video.pause();
  return result;
}
"""

def first_cue_text(vtt: Path) -> str:
    """The text of the first cue of a WebVTT file, as the browser's TextTrackCue.text gives it."""
    blocks = vtt.read_text(encoding="utf-8").replace("\r\n", "\n").strip().split("\n\n")
    for block in blocks[1:]:
        lines = block.split("\n")
        for i, line in enumerate(lines):
            if "-->" in line:
                return "\n".join(lines[i + 1:])
    raise ValueError(f"{vtt} has no cue")


_SOURCE_METADATA = """
async ([url, timeoutMs]) => {
  const video = document.createElement('video');
  video.preload = 'metadata';
  video.muted = true;
  const done = new Promise((resolve, reject) => {
    video.addEventListener('loadedmetadata', () => resolve(video.duration), {once: true});
    video.addEventListener('error', () => reject(new Error(`media error ${video.error && video.error.code}`)),
                           {once: true});
    setTimeout(() => reject(new Error('timed out')), timeoutMs);
  });
  video.src = url;
  try { return await done; } finally { video.removeAttribute('src'); video.load(); }
}
"""

_IMAGE_LOADS = """
async ([url, timeoutMs]) => {
  const image = new Image();
  const done = new Promise((resolve, reject) => {
    image.onload = () => resolve([image.naturalWidth, image.naturalHeight]);
    image.onerror = () => reject(new Error('image failed to load'));
    setTimeout(() => reject(new Error('timed out')), timeoutMs);
  });
  image.src = url;
  return await done;
}
"""


def _stays_local(url: str) -> bool:
    """127.0.0.1, or no network at all (the page opened from disk; data: and blob: URLs)."""
    parts = urlparse(url)
    return parts.scheme in ("data", "blob", "file") or parts.hostname == "127.0.0.1"


def _is_cancelled_media(request) -> bool:
    """Chromium cancels a video's range request once it has buffered enough (preload=metadata, a seek, the
    page reloading): that is the player at work, not a failure."""
    return request.resource_type == "media" and request.failure == "net::ERR_ABORTED"


def _launch(playwright, profile: Path):
    if not CHROMIUM.exists():
        raise FileNotFoundError(f"{CHROMIUM} is missing; the README setup (scripts/bootstrap.sh) installs it")
    return playwright.chromium.launch_persistent_context(
        str(profile), executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS,
        viewport={"width": 1280, "height": 900}, device_scale_factor=1,
    )


def check_page_in_browser(media_dir: Path, screenshot_dir: Path | None = ARTIFACTS) -> PageReport:
    """Serve media_dir on 127.0.0.1, open index.html in Chromium, check every clip; return what went wrong."""
    from playwright.sync_api import sync_playwright

    media_dir = Path(media_dir).resolve()
    manifest = json.loads((media_dir / "manifest.json").read_text(encoding="utf-8"))
    variants_by_id: dict[str, list[dict]] = {}
    for clip in manifest["clips"]:
        variants_by_id.setdefault(clip["id"], []).append(clip)
    report = PageReport(media_dir)
    problems = report.problems

    with LocalServer(media_dir) as server, tempfile.TemporaryDirectory(prefix="chromium-profile-") as profile, \
            sync_playwright() as playwright:
        context = _launch(playwright, Path(profile))
        try:
            def on_request(request):
                report.requests.append(request.url)
                host = urlparse(request.url)
                if not _stays_local(request.url):
                    problems.append(f"request leaves 127.0.0.1: {request.url}")

            def guard(route):  # never let a request out, even one the page should not make
                if _stays_local(route.request.url):
                    route.continue_()
                else:
                    route.abort()

            context.on("request", on_request)
            context.route("**/*", guard)
            page = context.new_page()
            page.on("console", lambda m: m.type == "error" and problems.append(f"console error: {m.text}"))
            page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
            page.on("requestfailed", lambda r: _is_cancelled_media(r) or problems.append(
                f"request failed: {r.url} {r.failure}"))
            page.on("response", lambda r: r.status >= 400 and problems.append(f"HTTP {r.status}: {r.url}"))

            index_url = server.url + "index.html"
            page.goto(index_url, wait_until="load")
            _check_players(page, index_url, variants_by_id, report)
            _check_all_sources(page, index_url, manifest, report)
            _check_layout_and_screenshots(page, screenshot_dir, report)
            page.close()

            _check_from_disk(context, media_dir, variants_by_id, report)
        finally:
            context.close()
    return report


def _check_players(page, index_url: str, variants_by_id: dict[str, list[dict]], report: PageReport) -> None:
    problems = report.problems
    figure_ids = page.eval_on_selector_all("figure.clip", "els => els.map(e => e.id)")
    expected_ids = [f"clip-{clip_id}" for clip_id in variants_by_id]
    if sorted(figure_ids) != sorted(expected_ids):
        problems.append(f"players on the page {figure_ids} != clips in the manifest {expected_ids}")
    for clip_id, variants in variants_by_id.items():
        figure_id = f"clip-{clip_id}"
        if figure_id not in figure_ids:
            continue
        select = page.locator(f"#{figure_id} select.quality")
        has_chooser = select.count() == 1
        if len(variants) > 1 and not has_chooser:
            problems.append(f"{clip_id}: {len(variants)} qualities but no quality chooser")
            continue
        order = [variants[0]]
        if has_chooser:
            offered = select.evaluate("s => Array.from(s.options).map(o => o.value)")
            if sorted(offered) != sorted(v["quality"] for v in variants):
                problems.append(f"{clip_id}: chooser offers {offered}, manifest has "
                                f"{[v['quality'] for v in variants]}")
            current = select.input_value()
            order = sorted(variants, key=lambda v: v["quality"] != current)  # the page's default first
        for variant in order:
            if has_chooser and select.input_value() != variant["quality"]:
                select.select_option(variant["quality"])
            _check_variant(page, figure_id, variant, report)


def _check_variant(page, figure_id: str, variant: dict, report: PageReport) -> None:
    name = f"{variant['id']} ({variant['quality']})"
    files = variant["files"]
    expected = {"sources": [files[f]["path"] for f in ("webm", "mp4") if f in files],
                "firstCue": first_cue_text(report.media_dir / files["vtt"]["path"]) if "vtt" in files else ""}
    try:
        result = page.evaluate(_WAIT_FOR_VARIANT, [figure_id, expected, WAIT_MS])
    except Exception as error:  # the JS error says which step failed
        report.problems.append(f"{name}: {str(error).splitlines()[0]}")
        return
    report.checked_variants += 1
    if abs(result["duration"] - variant["duration"]) > DURATION_TOLERANCE_S:
        report.problems.append(f"{name}: duration {result['duration']:.3f} s in the browser, "
                               f"{variant['duration']:.3f} s in the manifest")
    if not result["played"] or result["played"] <= 0:
        report.problems.append(f"{name}: currentTime did not advance")
    if "vtt" in files and (result["trackState"] != 2 or not result["cues"]):
        report.problems.append(f"{name}: captions track state {result['trackState']}, {result['cues']} cues")
    if "png" in files:
        if result["poster"] != urljoin(page.url, files["png"]["path"]):
            report.problems.append(f"{name}: poster is {result['poster']!r}, expected {files['png']['path']}")
        try:
            width, height = page.evaluate(_IMAGE_LOADS, [result["poster"], WAIT_MS])
            if width <= 0 or height <= 0:
                report.problems.append(f"{name}: poster has no pixels")
        except Exception as error:
            report.problems.append(f"{name}: poster {files['png']['path']}: {str(error).splitlines()[0]}")


def _check_all_sources(page, index_url: str, manifest: dict, report: PageReport) -> None:
    """Every MP4 and WebM in the manifest on its own (the player only plays the first one it can)."""
    for clip in manifest["clips"]:
        for fmt in ("webm", "mp4"):
            if fmt not in clip["files"]:
                continue
            path = clip["files"][fmt]["path"]
            try:
                duration = page.evaluate(_SOURCE_METADATA, [urljoin(index_url, path), WAIT_MS])
            except Exception as error:
                report.problems.append(f"{path}: {str(error).splitlines()[0]}")
                continue
            report.checked_sources += 1
            if abs(duration - clip["duration"]) > DURATION_TOLERANCE_S:
                report.problems.append(f"{path}: duration {duration:.3f} s, manifest {clip['duration']:.3f} s")


def _check_layout_and_screenshots(page, screenshot_dir: Path | None, report: PageReport) -> None:
    page.reload(wait_until="load")  # as a reader first sees it: posters, default qualities
    page.wait_for_function("() => Array.from(document.images).every(i => i.complete)", timeout=WAIT_MS)
    page.wait_for_load_state("networkidle", timeout=WAIT_MS)  # posters and metadata fetched
    if not page.evaluate("() => getComputedStyle(document.body).backgroundColor !== 'rgba(0, 0, 0, 0)'"):
        report.problems.append("page has no background colour")
    light = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    page.emulate_media(color_scheme="dark")
    dark = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    if light == dark:
        report.problems.append(f"dark preference does not change the colours ({light})")
    if screenshot_dir is not None:
        screenshot_dir.mkdir(parents=True, exist_ok=True)
        page.emulate_media(color_scheme="light")
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            path = screenshot_dir / ("page.png" if scheme == "light" else "page-dark.png")
            page.screenshot(path=str(path), full_page=True)
            report.screenshots.append(path)
    page.emulate_media(color_scheme="light")
    page.set_viewport_size({"width": 390, "height": 844})
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    if overflow > 0:
        report.problems.append(f"at 390 px wide the page scrolls sideways by {overflow} px")
    if screenshot_dir is not None:
        path = screenshot_dir / "page-narrow.png"
        page.screenshot(path=str(path), full_page=False)
        report.screenshots.append(path)
        if page.locator("figure.clip").count():
            page.locator("figure.clip").first.scroll_into_view_if_needed()
            path = screenshot_dir / "page-narrow-clip.png"
            page.screenshot(path=str(path), full_page=False)
            report.screenshots.append(path)
    page.set_viewport_size({"width": 1280, "height": 900})


def _check_from_disk(context, media_dir: Path, variants_by_id: dict, report: PageReport) -> None:
    """Opened as a file (no server at all) the players must still load their metadata."""
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.goto((media_dir / "index.html").as_uri(), wait_until="load")
    try:
        page.wait_for_function(
            "() => Array.from(document.querySelectorAll('video')).every(v => v.readyState >= 1 || v.error)",
            timeout=WAIT_MS)
        broken = page.evaluate("() => Array.from(document.querySelectorAll('video'))"
                               ".filter(v => v.error || v.readyState < 1).map(v => v.closest('figure').id)")
        if broken:
            report.problems.append(f"opened from disk, these players do not load: {broken}")
    except Exception as error:
        report.problems.append(f"opened from disk: {str(error).splitlines()[0]}")
    report.problems.extend(f"opened from disk, console error: {text}" for text in errors)
    page.close()


# ---------------------------------------------------------------- small clips made here with PyAV


@dataclass(frozen=True)
class SampleClip:
    id: str
    quality: str
    size: tuple[int, int]
    fps: int
    frames: int
    formats: tuple[str, ...] = ("mp4", "webm", "png", "vtt")


SAMPLE_CLIPS = (
    SampleClip("teacher_forcing", "low", (320, 180), 15, 30),
    SampleClip("teacher_forcing", "medium", (480, 270), 30, 60),
    SampleClip("coffee_cafe", "low", (320, 180), 15, 24),
    SampleClip("learned_alignment", "low", (320, 180), 15, 36, formats=("mp4", "png", "vtt")),  # no WebM
    SampleClip("summary", "low", (320, 180), 15, 27),
)


def _encode(path: Path, codec: str, clip: SampleClip, options: dict[str, str],
            container_options: dict[str, str] | None = None) -> None:
    import av

    width, height = clip.size
    with av.open(str(path), "w", options=container_options or {}) as container:
        stream = container.add_stream(codec, rate=Fraction(clip.fps), options=options)
        stream.width, stream.height, stream.pix_fmt = width, height, "yuv420p"
        for n in range(clip.frames):
            frame = _test_frame(width, height, n, clip.frames)
            for packet in stream.encode(av.VideoFrame.from_ndarray(frame, format="rgb24")):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)


def _vtt_time(seconds: float) -> str:
    minutes, rest = divmod(seconds, 60)
    return f"{int(minutes):02d}:{rest:06.3f}"


def _test_frame(width: int, height: int, n: int, total: int):
    import numpy as np

    y, x = np.mgrid[0:height, 0:width]
    frame = np.zeros((height, width, 3), dtype=np.uint8)
    frame[..., 0] = (40 + 120 * x / width).astype(np.uint8)
    frame[..., 1] = (60 + 100 * y / height).astype(np.uint8)
    frame[..., 2] = 150
    bar = int((width - 20) * n / max(1, total - 1))
    frame[height // 3: 2 * height // 3, bar:bar + 20] = (250, 220, 80)
    return frame


def make_test_media(media_dir: Path, title_overrides: dict[str, str] | None = None) -> dict:
    """Encode SAMPLE_CLIPS into media_dir/clips/ and write media_dir/manifest.json (the render.py schema)."""
    from PIL import Image

    from scenes.registry import get

    clips_dir = media_dir / "clips"
    clips_dir.mkdir(parents=True, exist_ok=True)
    entries = []
    for clip in SAMPLE_CLIPS:
        spec = get(clip.id)
        duration = clip.frames / clip.fps
        stem = f"{clip.id}-{clip.quality}"
        if "mp4" in clip.formats:
            _encode(clips_dir / f"{stem}.mp4", "libx264", clip, {"preset": "ultrafast"}, {"movflags": "+faststart"})
        if "webm" in clip.formats:
            _encode(clips_dir / f"{stem}.webm", "libvpx-vp9", clip, {"deadline": "realtime", "cpu-used": "8"})
        if "png" in clip.formats:
            Image.fromarray(_test_frame(*clip.size, 0, clip.frames)).save(clips_dir / f"{stem}.png")
        if "vtt" in clip.formats:
            half = duration / 2
            (clips_dir / f"{stem}.vtt").write_text(
                f"WEBVTT\n\n{_vtt_time(0)} --> {_vtt_time(half)}\nFirst caption of {clip.id} ({clip.quality})\n\n"
                f"{_vtt_time(half)} --> {_vtt_time(duration)}\nSecond caption\n", encoding="utf-8")
        files = {}
        for fmt in clip.formats:
            data = (clips_dir / f"{stem}.{fmt}").read_bytes()
            files[fmt] = {"path": f"clips/{stem}.{fmt}", "bytes": len(data),
                          "sha256": hashlib.sha256(data).hexdigest()}
        entries.append({
            "id": clip.id, "title": (title_overrides or {}).get(clip.id, spec.title), "section": spec.section,
            "order": spec.order, "quality": clip.quality, "resolution": list(clip.size), "fps": clip.fps,
            "duration": duration, "frames": clip.frames, "input_hash": "test", "files": files,
        })
    manifest = {"version": 1, "clips": entries}
    (media_dir / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    return manifest


# ---------------------------------------------------------------- tests


@pytest.fixture(scope="module")
def test_media(tmp_path_factory) -> Path:
    from rendering.page import embed_snippet, write_page

    media_dir = tmp_path_factory.mktemp("media")
    manifest = make_test_media(media_dir, title_overrides={"summary": 'Pieces & "parts" <script>alert(1)</script>'})
    for clip in manifest["clips"]:
        clip["embed"] = embed_snippet(clip)
    (media_dir / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    write_page(manifest, media_dir)
    return media_dir


def test_page_works_in_headless_chromium(test_media):
    started = time.monotonic()
    report = check_page_in_browser(test_media)
    variants = sum(1 for _ in SAMPLE_CLIPS)
    sources = sum(("mp4" in c.formats) + ("webm" in c.formats) for c in SAMPLE_CLIPS)
    assert report.problems == [], "\n".join(report.problems)
    assert report.checked_variants == variants
    assert report.checked_sources == sources
    assert any(url.endswith(".webm") for url in report.requests) and any(url.endswith(".mp4")
                                                                         for url in report.requests)
    assert all(p.stat().st_size > 10_000 for p in report.screenshots)
    print(f"browser checks: {variants} players/qualities, {sources} sources in {time.monotonic() - started:.1f} s")


def test_the_checks_catch_a_wrong_duration_and_a_missing_poster(test_media, tmp_path):
    """The browser checks must fail on a broken page, or a passing run would mean nothing."""
    broken = tmp_path / "broken"
    shutil.copytree(test_media, broken)
    manifest = json.loads((broken / "manifest.json").read_text(encoding="utf-8"))
    manifest["clips"][2]["duration"] += 0.5  # coffee_cafe
    (broken / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    (broken / manifest["clips"][4]["files"]["png"]["path"]).unlink()  # summary's poster
    report = check_page_in_browser(broken, screenshot_dir=None)
    text = "\n".join(report.problems)
    assert "coffee_cafe (low): duration" in text
    assert "summary (low): poster" in text


def _rendered_media_dir() -> Path | None:
    configured = os.environ.get("PAGE_MEDIA_DIR")
    candidate = Path(configured) if configured else ROOT / "media"
    return candidate if (candidate / "manifest.json").exists() and (candidate / "index.html").exists() else None


if _rendered_media_dir() is not None:
    # Defined only when there is rendered media to check (a skip would fail the run; see tests/conftest.py).
    def test_rendered_media_page_works_in_headless_chromium():
        report = check_page_in_browser(_rendered_media_dir(), ARTIFACTS / "rendered")
        assert report.problems == [], "\n".join(report.problems)
        assert report.checked_variants > 0
