"""The offline page in a real browser: Debian's headless Chromium, driven by Playwright, served from 127.0.0.1.

`check_page_in_browser(media_dir)` works on any media folder with a manifest.json and index.html: the small
clips this file encodes with PyAV, or the real rendered ones (set PAGE_MEDIA_DIR, or render into media/).
Narrated clips and the film must play with sound (Chromium counts the audio bytes it decodes), transcripts
start collapsed, and the film's chapter list seeks the film.
"""

from __future__ import annotations

import contextlib
import hashlib
import html
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
SEEK_TOLERANCE_S = 0.05
# A narrated player plays unmuted until Chromium has decoded some of its audio (after MIN_PLAY_S, as a silent one
# plays), for at most this long: its decoded audio is counted then (0 after AUDIBLE_PLAY_S: no sound).
AUDIBLE_PLAY_S = 1.0
MIN_PLAY_S = 0.25
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
    audible_players: int = 0  # narrated players (and the film) that played with sound
    audible_sources: int = 0  # narrated MP4s and WebMs that played with sound on their own
    checked_transcripts: int = 0
    chapter_seeks: int = 0
    audio_bytes: list[int] = field(default_factory=list)  # what Chromium had decoded when counted, per check
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
  const shown = figure.querySelector('span.duration') || figure.querySelector('.quality-single');
  const result = {duration: video.duration, currentSrc: video.currentSrc, durationText: shown.textContent.trim(),
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
  // A narrated rendering plays unmuted until Chromium has decoded some of its audio, at most audibleSeconds
  // (the count stays 0 for no track).
  video.muted = !expected.audible;
  video.volume = 1;
  video.currentTime = 0;
  await video.play();
  await until(() => video.currentTime > (expected.audible ? expected.audibleSeconds : expected.minSeconds)
                    || video.ended || expected.audible && video.currentTime > expected.minSeconds
                                      && video.webkitAudioDecodedByteCount > 0,
              'playback');
  result.played = video.currentTime;
  result.muted = video.muted;
  result.audioBytes = video.webkitAudioDecodedByteCount;
  video.pause();
  if (track) {  // the cue now playing is written under the picture, not drawn over it (captions.js)
    const line = figure.querySelector('.cue-line');
    result.trackMode = track.track.mode;
    result.cueLine = line ? line.textContent : null;
    result.cueBelow = line ? line.getBoundingClientRect().top >= video.getBoundingClientRect().bottom - 0.5 : null;
  }
  return result;
}
"""

def vtt_cues(vtt: Path) -> list[tuple[float, float, str]]:
    """A WebVTT file's cues: start and end in seconds, and the text as the browser's TextTrackCue.text gives it."""
    def seconds(stamp: str) -> float:  # HH:MM:SS.mmm, or MM:SS.mmm (the hours are optional)
        *whole, rest = stamp.strip().split(":")
        return sum(int(part) * 60 ** (len(whole) - i) for i, part in enumerate(whole)) + float(rest)

    cues = []
    for block in vtt.read_text(encoding="utf-8").replace("\r\n", "\n").strip().split("\n\n")[1:]:
        lines = block.split("\n")
        for i, line in enumerate(lines):
            if "-->" in line:
                start, end = line.split("-->")
                cues.append((seconds(start), seconds(end.split()[0]), "\n".join(lines[i + 1:])))
                break
    return cues


def first_cue_text(vtt: Path) -> str:
    cues = vtt_cues(vtt)
    if not cues:
        raise ValueError(f"{vtt} has no cue")
    return cues[0][2]


def unescaped(cue_text: str) -> str:
    """A cue's text as the page shows it: its entities read, its white space (line breaks) as single spaces."""
    return " ".join(html.unescape(cue_text).split())


_SOURCE_METADATA = """
async ([url, timeoutMs, audibleSeconds, minSeconds]) => {
  const video = document.createElement('video');
  video.preload = 'metadata';
  video.muted = !audibleSeconds;
  const failed = new Promise((_, reject) => {
    video.addEventListener('error', () => reject(new Error(`media error ${video.error && video.error.code}`)),
                           {once: true});
    setTimeout(() => reject(new Error('timed out')), timeoutMs);
  });
  const loaded = new Promise(resolve => video.addEventListener('loadedmetadata', resolve, {once: true}));
  video.src = url;
  try {
    await Promise.race([loaded, failed]);
    const result = {duration: video.duration, audioBytes: null};
    if (audibleSeconds) {  // a narrated file on its own: does it carry sound the browser decodes?
      await Promise.race([video.play(), failed]);
      const played = new Promise(resolve => {
        const tick = () => video.currentTime > audibleSeconds || video.ended
          || video.currentTime > minSeconds && video.webkitAudioDecodedByteCount > 0 ? resolve() : setTimeout(tick, 50);
        tick();
      });
      await Promise.race([played, failed]);
      result.audioBytes = video.webkitAudioDecodedByteCount;
    }
    return result;
  } finally { video.pause(); video.removeAttribute('src'); video.load(); }
}
"""

_FILM_STATE = """
async ([timeoutMs]) => {
  const video = document.querySelector('figure.film video');
  const until = async (test, what) => {
    const start = performance.now();
    while (!test()) {
      if (video.error) throw new Error(`${what}: media error ${video.error.code} ${video.error.message}`);
      if (performance.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
      await new Promise(r => setTimeout(r, 50));
    }
  };
  await until(() => video.readyState >= 1, 'film metadata');
  const tracks = {};
  for (const track of video.querySelectorAll('track')) {
    if (track.track.mode === 'disabled') track.track.mode = 'hidden';
    await until(() => track.readyState === 2 || track.readyState === 3, `film ${track.kind} track`);
    tracks[track.kind] = {state: track.readyState,
                          cues: Array.from(track.track.cues || []).map(c => [c.startTime, c.text])};
  }
  return {currentSrc: video.currentSrc, duration: video.duration, tracks: tracks,
          buttons: Array.from(document.querySelectorAll('figure.film button.chapter'))
                   .map(b => b.textContent.trim())};
}
"""

_RECORD_SEEKS = """
() => {
  const video = document.querySelector('figure.film video');
  window.__filmSeeks = [];
  video.addEventListener('seeked', () => window.__filmSeeks.push(video.currentTime));
}
"""

_FILM_PLAYS_ALOUD = """
async ([seconds, timeoutMs, minSeconds]) => {
  const video = document.querySelector('figure.film video');
  video.muted = false;
  video.volume = 1;
  await video.play();
  const start = performance.now();
  while (video.currentTime <= seconds && !video.ended
         && !(video.currentTime > minSeconds && video.webkitAudioDecodedByteCount > 0)) {
    if (performance.now() - start > timeoutMs) throw new Error('timed out playing the film');
    await new Promise(r => setTimeout(r, 50));
  }
  video.pause();
  return {muted: video.muted, audioBytes: video.webkitAudioDecodedByteCount, played: video.currentTime};
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


def _launch(playwright, profile: Path, **options):
    if not CHROMIUM.exists():
        raise FileNotFoundError(f"{CHROMIUM} is missing; the README setup (scripts/bootstrap.sh) installs it")
    return playwright.chromium.launch_persistent_context(
        str(profile), executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS,
        **{"viewport": {"width": 1280, "height": 900}, "device_scale_factor": 1, **options})


@contextlib.contextmanager
def served_browser(root: Path, **options):
    """`root` served on 127.0.0.1 and a headless Chromium with a throwaway profile (`options` go to its launch,
    e.g. another viewport): yields (server, context), and closes both however the test ends."""
    from playwright.sync_api import sync_playwright

    with LocalServer(root) as server, tempfile.TemporaryDirectory(prefix="chromium-profile-") as profile, \
            sync_playwright() as playwright:
        context = _launch(playwright, Path(profile), **options)
        try:
            yield server, context
        finally:
            context.close()


def page_with_errors(context) -> tuple[object, list[str]]:
    """A new page of `context` and the list its uncaught script errors go to (a test asserts it stays empty)."""
    page, errors = context.new_page(), []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page, errors


def check_page_in_browser(media_dir: Path, screenshot_dir: Path | None = ARTIFACTS) -> PageReport:
    """Serve media_dir on 127.0.0.1, open index.html in Chromium, check every clip; return what went wrong."""
    from playwright.sync_api import sync_playwright

    media_dir = Path(media_dir).resolve()
    manifest = json.loads((media_dir / "manifest.json").read_text(encoding="utf-8"))
    variants_by_id = playable_variants(manifest)
    report = PageReport(media_dir)
    problems = report.problems

    with served_browser(media_dir) as (server, context):
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
        _check_film(page, manifest, report)
        _check_all_sources(page, index_url, manifest, report)
        _check_layout_and_screenshots(page, screenshot_dir, report)
        page.close()

        _check_from_disk(context, media_dir, variants_by_id, report)
    return report


def playable_variants(manifest: dict) -> dict[str, list[dict]]:
    """Per clip id, what each quality should play: its narrated entry where there is one, else the silent one
    (manifests from before narration have no "narrated" key)."""
    chosen: dict[tuple[str, str], dict] = {}
    for clip in manifest["clips"]:
        if clip.get("aspect", "landscape") != "landscape":  # played instead on a narrow screen (test_render_aspect)
            continue
        key = (clip["id"], clip["quality"])
        if key not in chosen or clip.get("narrated") is True:
            chosen[key] = clip
    variants_by_id: dict[str, list[dict]] = {}
    for (clip_id, _), clip in chosen.items():
        variants_by_id.setdefault(clip_id, []).append(clip)
    return variants_by_id


def _name(entry: dict) -> str:
    return f"{entry['id']} ({entry['quality']}{', narrated' if entry.get('narrated') is True else ''})"


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
    name = _name(variant)
    files = variant["files"]
    narrated = variant.get("narrated") is True
    expected = {"sources": [files[f]["path"] for f in ("webm", "mp4") if f in files],
                "firstCue": first_cue_text(report.media_dir / files["vtt"]["path"]) if "vtt" in files else "",
                "audible": narrated, "audibleSeconds": min(AUDIBLE_PLAY_S, variant["duration"] - 0.2),
                "minSeconds": MIN_PLAY_S}
    try:
        result = page.evaluate(_WAIT_FOR_VARIANT, [figure_id, expected, WAIT_MS])
    except Exception as error:  # the JS error says which step failed
        report.problems.append(f"{name}: {str(error).splitlines()[0]}")
        return
    report.checked_variants += 1
    if abs(result["duration"] - variant["duration"]) > DURATION_TOLERANCE_S:
        report.problems.append(f"{name}: duration {result['duration']:.3f} s in the browser, "
                               f"{variant['duration']:.3f} s in the manifest")
    whole = int(variant["duration"])  # a reader sees m:ss, as the player's own clock counts
    if not result["durationText"].endswith(f"{whole // 60}:{whole % 60:02d}"):
        report.problems.append(f"{name}: the page says {result['durationText']!r}, the clip lasts "
                               f"{variant['duration']:.3f} s")
    if not result["played"] or result["played"] <= 0:
        report.problems.append(f"{name}: currentTime did not advance")
    if narrated:
        report.audio_bytes.append(result["audioBytes"])
        if result["muted"] or not result["audioBytes"]:
            report.problems.append(f"{name}: no sound (muted {result['muted']}, "
                                   f"{result['audioBytes']} audio bytes decoded in {result['played']:.2f} s)")
        else:
            report.audible_players += 1
    _check_transcript(page, figure_id, variant, report)
    if "vtt" in files and (result["trackState"] != 2 or not result["cues"]):
        report.problems.append(f"{name}: captions track state {result['trackState']}, {result['cues']} cues")
    if "vtt" in files:
        playing = " ".join(unescaped(text) for start, end, text in vtt_cues(report.media_dir / files["vtt"]["path"])
                           if start <= result["played"] < end)  # "" between cues: the line is empty then too
        if result["trackMode"] != "hidden" or not result["cueBelow"] or unescaped(result["cueLine"] or "") != playing:
            report.problems.append(f"{name}: the caption under the player reads {result['cueLine']!r} (track "
                                   f"{result['trackMode']}, below the picture: {result['cueBelow']}); the cue at "
                                   f"{result['played']:.2f} s is {playing!r}")
    if "png" in files:
        if result["poster"] != urljoin(page.url, files["png"]["path"]):
            report.problems.append(f"{name}: poster is {result['poster']!r}, expected {files['png']['path']}")
        try:
            width, height = page.evaluate(_IMAGE_LOADS, [result["poster"], WAIT_MS])
            if width <= 0 or height <= 0:
                report.problems.append(f"{name}: poster has no pixels")
        except Exception as error:
            report.problems.append(f"{name}: poster {files['png']['path']}: {str(error).splitlines()[0]}")


def _check_transcript(page, figure_id: str, variant: dict, report: PageReport) -> None:
    """A narrated quality shows its transcript collapsed, and a click opens it; a silent one hides it."""
    name = _name(variant)
    details = page.locator(f"#{figure_id} details.transcript")
    texts = [beat["text"] for beat in variant.get("transcript", []) if beat["text"].strip()]
    if variant.get("narrated") is not True or not texts:
        if details.count() and details.is_visible():
            report.problems.append(f"{name}: a transcript shows while a rendering without narration plays")
        return
    if details.count() != 1:
        report.problems.append(f"{name}: {details.count()} transcripts under the narrated clip, expected 1")
        return
    if not details.is_visible():
        report.problems.append(f"{name}: the transcript is hidden while the narrated rendering plays")
        return
    if details.evaluate("d => d.open"):
        report.problems.append(f"{name}: the transcript is open before anyone asked for it")
        return
    details.locator("summary").click()
    shown = details.inner_text() if details.evaluate("d => d.open") else None
    if shown is None:
        report.problems.append(f"{name}: clicking the transcript's summary does not open it")
        return
    missing = [text for text in texts if " ".join(text.split()) not in " ".join(shown.split())]
    if missing:
        report.problems.append(f"{name}: the open transcript lacks {missing}")
        return
    details.locator("summary").click()  # closed again, as a reader left it
    report.checked_transcripts += 1


def _check_film(page, manifest: dict, report: PageReport) -> None:
    """The film under the title: the narrated one when there is one, plays with sound, its captions and chapters
    tracks load, and every entry of its chapter list seeks it to that chapter's start."""
    films = manifest.get("films") or []
    on_page = page.locator("figure.film").count()
    if not films:
        if on_page:
            report.problems.append("the page shows a film, but the manifest has none")
        return
    if on_page != 1:
        report.problems.append(f"{on_page} films on the page; the manifest has {len(films)}")
        return
    try:
        state = page.evaluate(_FILM_STATE, [WAIT_MS])
    except Exception as error:
        report.problems.append(f"film: {str(error).splitlines()[0]}")
        return
    film = next((f for f in films for fmt in ("webm", "mp4")
                 if fmt in f["files"] and urljoin(page.url, f["files"][fmt]["path"]) == state["currentSrc"]), None)
    if film is None:
        report.problems.append(f"film: plays {state['currentSrc']}, which no film in the manifest lists")
        return
    name = f"film ({film['quality']}{', narrated' if film.get('narrated') is True else ''})"
    if film.get("narrated") is not True and any(f.get("narrated") is True for f in films):
        report.problems.append(f"{name}: shown although the manifest has a narrated film")
    if abs(state["duration"] - film["duration"]) > DURATION_TOLERANCE_S:
        report.problems.append(f"{name}: duration {state['duration']:.3f} s in the browser, "
                               f"{film['duration']:.3f} s in the manifest")
    chapters = film["chapters"]
    if "vtt" in film["files"] and not state["tracks"].get("captions", {}).get("cues"):
        report.problems.append(f"{name}: the captions track has no cues")
    if "chapters_vtt" in film["files"]:
        cues = state["tracks"].get("chapters", {}).get("cues", [])
        if len(cues) != len(chapters) or any(abs(start - c["start"]) > 0.002 or c["title"] not in text
                                             for (start, text), c in zip(cues, chapters)):
            listed = [[c["start"], c["title"]] for c in chapters]
            report.problems.append(f"{name}: the chapters track has {cues}, the manifest {listed}")
    if len(state["buttons"]) != len(chapters) or any(c["title"] not in text
                                                      for c, text in zip(chapters, state["buttons"])):
        report.problems.append(f"{name}: the chapter list {state['buttons']} != the manifest's chapters")
        return
    if film.get("narrated") is True:
        sound = page.evaluate(_FILM_PLAYS_ALOUD, [min(AUDIBLE_PLAY_S, film["duration"] - 0.2), WAIT_MS, MIN_PLAY_S])
        report.audio_bytes.append(sound["audioBytes"])
        if sound["muted"] or not sound["audioBytes"]:
            report.problems.append(f"{name}: no sound (muted {sound['muted']}, {sound['audioBytes']} audio bytes)")
        else:
            report.audible_players += 1
    page.evaluate(_RECORD_SEEKS)  # Python clicks a chapter, then reads where the film landed
    buttons = page.locator("figure.film button.chapter")
    for n in reversed(range(len(chapters))):  # backwards: every click, the first one's too, really moves the film
        seen = page.evaluate("() => window.__filmSeeks.length")
        buttons.nth(n).click()
        try:
            page.wait_for_function("n => window.__filmSeeks.length > n", arg=seen, timeout=WAIT_MS)
        except Exception:
            report.problems.append(f"{name}: clicking chapter {n + 1} ({chapters[n]['title']}) did not seek")
            continue
        landed = page.evaluate("() => window.__filmSeeks[window.__filmSeeks.length - 1]")
        if abs(landed - chapters[n]["start"]) > SEEK_TOLERANCE_S:
            report.problems.append(f"{name}: chapter {n + 1} ({chapters[n]['title']}) seeked to {landed:.3f} s, "
                                   f"the manifest says it starts at {chapters[n]['start']:.3f} s")
        elif buttons.nth(n).get_attribute("aria-current") != "true":
            report.problems.append(f"{name}: chapter {n + 1} is not marked current after its click")
        else:
            report.chapter_seeks += 1
    page.evaluate("() => document.querySelector('figure.film video').pause()")


def _check_all_sources(page, index_url: str, manifest: dict, report: PageReport) -> None:
    """Every MP4 and WebM in the manifest on its own (the player only plays the first one it can); a narrated
    one, or the narrated film, must carry sound in both formats."""
    entries = [(clip, _name(clip)) for clip in manifest["clips"]]
    entries += [(film, "film") for film in manifest.get("films") or []]
    for entry, _ in entries:
        audible = min(AUDIBLE_PLAY_S, entry["duration"] - 0.2) if entry.get("narrated") is True else 0
        for fmt in ("webm", "mp4"):
            if fmt not in entry["files"]:
                continue
            path = entry["files"][fmt]["path"]
            try:
                result = page.evaluate(_SOURCE_METADATA, [urljoin(index_url, path), WAIT_MS, audible, MIN_PLAY_S])
            except Exception as error:
                report.problems.append(f"{path}: {str(error).splitlines()[0]}")
                continue
            report.checked_sources += 1
            duration = result["duration"]
            if abs(duration - entry["duration"]) > DURATION_TOLERANCE_S:
                report.problems.append(f"{path}: duration {duration:.3f} s, manifest {entry['duration']:.3f} s")
            if audible:
                report.audio_bytes.append(result["audioBytes"])
                if result["audioBytes"]:
                    report.audible_sources += 1
                else:
                    report.problems.append(f"{path}: no sound (narrated, {result['audioBytes']} audio bytes)")


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
    narrated: bool = False  # with sound (a sine tone: AAC in the MP4, Opus in the WebM) and a transcript


SAMPLE_CLIPS = (
    SampleClip("teacher_forcing", "low", (320, 180), 15, 30),
    SampleClip("teacher_forcing", "medium", (480, 270), 30, 60),
    SampleClip("coffee_cafe", "low", (320, 180), 15, 24),
    SampleClip("learned_alignment", "low", (320, 180), 15, 36, formats=("mp4", "png", "vtt")),  # no WebM
    SampleClip("summary", "low", (320, 180), 15, 27),
    # coffee_cafe's narrated low is longer than its silent one, as a voice makes it; teacher_forcing is narrated
    # at low but silent at medium, so its chooser switches between a narrated and a silent rendering
    SampleClip("coffee_cafe", "low", (160, 90), 15, 36, narrated=True),
    SampleClip("teacher_forcing", "low", (160, 90), 15, 48, narrated=True),  # 0:03 where medium says 0:02
)
FILM_CHAPTERS = (("teacher_forcing", 30), ("coffee_cafe", 27), ("summary", 33))  # frames of each, at FILM_FPS
FILM_SIZE, FILM_FPS = (160, 90), 15
TONE_HZ, TONE_AMPLITUDE, SAMPLE_RATE = 440.0, 0.3, 48_000


def _encode(path: Path, codec: str, size: tuple[int, int], fps: int, frames: int, options: dict[str, str],
            container_options: dict[str, str] | None = None, audio_codec: str | None = None) -> None:
    """A moving bar; with audio_codec also a mono sine tone exactly as long as the video."""
    import av
    import numpy as np

    width, height = size
    with av.open(str(path), "w", options=container_options or {}) as container:
        stream = container.add_stream(codec, rate=Fraction(fps), options=options)
        stream.width, stream.height, stream.pix_fmt = width, height, "yuv420p"
        audio = None
        if audio_codec:
            audio = container.add_stream(audio_codec, rate=SAMPLE_RATE)
            audio.layout = "mono"
        for n in range(frames):
            frame = _test_frame(width, height, n, frames)
            for packet in stream.encode(av.VideoFrame.from_ndarray(frame, format="rgb24")):
                container.mux(packet)
        if audio is not None:
            samples = round(SAMPLE_RATE * frames / fps)
            tone = (TONE_AMPLITUDE * np.sin(2 * np.pi * TONE_HZ * np.arange(samples) / SAMPLE_RATE))
            tone = tone.astype(np.float32)[None, :]
            for start in range(0, samples, 1024):  # PyAV re-chunks to the codec's frame size
                chunk = av.AudioFrame.from_ndarray(np.ascontiguousarray(tone[:, start:start + 1024]), format="flt",
                                                   layout="mono")
                chunk.sample_rate, chunk.pts, chunk.time_base = SAMPLE_RATE, start, Fraction(1, SAMPLE_RATE)
                for packet in audio.encode(chunk):
                    container.mux(packet)
        for flushing in (stream, audio):
            for packet in flushing.encode() if flushing is not None else ():
                container.mux(packet)


def _encode_formats(stem: Path, formats, size, fps: int, frames: int, sound: bool) -> None:
    if "mp4" in formats:
        _encode(stem.with_suffix(".mp4"), "libx264", size, fps, frames, {"preset": "ultrafast"},
                {"movflags": "+faststart"}, "aac" if sound else None)
    if "webm" in formats:
        _encode(stem.with_suffix(".webm"), "libvpx-vp9", size, fps, frames, {"deadline": "realtime", "cpu-used": "8"},
                None, "libopus" if sound else None)


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


def _file_entries(media_dir: Path, keys_and_files: dict[str, Path]) -> dict:
    entries = {}
    for key, path in keys_and_files.items():
        data = path.read_bytes()
        entries[key] = {"path": path.relative_to(media_dir).as_posix(), "bytes": len(data),
                        "sha256": hashlib.sha256(data).hexdigest()}
    return entries


def sample_transcript(title: str) -> list[dict]:
    return [{"beat": "first", "text": f"The voice of {title}, first beat."},
            {"beat": "second", "text": "Then the second beat: weights & <scores>."}]


def _make_film(media_dir: Path, titles: dict[str, str], narrated: bool) -> dict:
    """A film of FILM_CHAPTERS, with captions, a chapters track and chapters.txt, as the manifest lists films."""
    folder = media_dir / "film" / "low" / ("narrated" if narrated else "")
    folder.mkdir(parents=True, exist_ok=True)
    frames = sum(length for _, length in FILM_CHAPTERS)
    _encode_formats(folder / "film", ("mp4", "webm"), FILM_SIZE, FILM_FPS, frames, sound=narrated)
    chapters, start = [], 0.0
    for clip_id, length in FILM_CHAPTERS:
        chapters.append({"id": clip_id, "title": titles[clip_id], "start": start, "end": start + length / FILM_FPS})
        start += length / FILM_FPS
    cues = [f"{_vtt_time(c['start'])} --> {_vtt_time(c['end'])}\n{c['title']}" for c in chapters]
    (folder / "film.chapters.vtt").write_text("WEBVTT\n\n" + "\n\n".join(cues) + "\n", encoding="utf-8")
    captions = [f"{_vtt_time(c['start'])} --> {_vtt_time(c['end'])}\nCaption of {c['id']}" for c in chapters]
    (folder / "film.vtt").write_text("WEBVTT\n\n" + "\n\n".join(captions) + "\n", encoding="utf-8")
    (folder / "chapters.txt").write_text("".join(f"{int(c['start']) // 60}:{int(c['start']) % 60:02d} {c['title']}\n"
                                                 for c in chapters), encoding="utf-8")
    files = {"mp4": folder / "film.mp4", "webm": folder / "film.webm", "vtt": folder / "film.vtt",
             "chapters_vtt": folder / "film.chapters.vtt", "chapters_txt": folder / "chapters.txt"}
    return {"quality": "low", "narrated": narrated, "resolution": list(FILM_SIZE), "fps": FILM_FPS,
            "duration": start, "frames": frames, "input_hash": "test",
            "files": _file_entries(media_dir, files), "chapters": chapters}


def make_test_media(media_dir: Path, title_overrides: dict[str, str] | None = None) -> dict:
    """Encode SAMPLE_CLIPS and a silent and a narrated film into media_dir and write media_dir/manifest.json
    (the render.py schema)."""
    from PIL import Image

    from scenes.registry import get

    titles = {clip.id: (title_overrides or {}).get(clip.id, get(clip.id).title) for clip in SAMPLE_CLIPS}
    entries = []
    for clip in SAMPLE_CLIPS:
        spec = get(clip.id)
        folder = media_dir / "clips" / ("narrated" if clip.narrated else "")
        folder.mkdir(parents=True, exist_ok=True)
        stem = folder / f"{clip.id}-{clip.quality}"
        duration = clip.frames / clip.fps
        _encode_formats(stem, clip.formats, clip.size, clip.fps, clip.frames, sound=clip.narrated)
        if "png" in clip.formats:
            Image.fromarray(_test_frame(*clip.size, 0, clip.frames)).save(stem.with_suffix(".png"))
        if "vtt" in clip.formats:
            half = duration / 2
            kind = "Narrated caption" if clip.narrated else "First caption"
            stem.with_suffix(".vtt").write_text(
                f"WEBVTT\n\n{_vtt_time(0)} --> {_vtt_time(half)}\n{kind} of {clip.id} ({clip.quality})\n\n"
                f"{_vtt_time(half)} --> {_vtt_time(duration)}\nSecond caption\n", encoding="utf-8")
        files = _file_entries(media_dir, {fmt: stem.with_suffix(f".{fmt}") for fmt in clip.formats})
        entry = {
            "id": clip.id, "title": titles[clip.id], "section": spec.section,
            "order": spec.order, "quality": clip.quality, "resolution": list(clip.size), "fps": clip.fps,
            "duration": duration, "frames": clip.frames, "input_hash": "test", "files": files,
            "narrated": clip.narrated,
        }
        if clip.narrated:
            entry["audio"] = {"codecs": {"mp4": "aac", "webm": "opus"}, "sample_rate": SAMPLE_RATE, "channels": 1,
                              "duration": duration}
            entry["transcript"] = sample_transcript(titles[clip.id])
        entries.append(entry)
    films = [_make_film(media_dir, titles, narrated=False), _make_film(media_dir, titles, narrated=True)]
    manifest = {"version": 1, "clips": entries, "films": films}
    (media_dir / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    return manifest


# ---------------------------------------------------------------- tests


@pytest.fixture(scope="module")
def test_media(tmp_path_factory) -> Path:
    from rendering.site.page import embed_snippet, write_page

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
    variants = len({(c.id, c.quality) for c in SAMPLE_CLIPS})  # one player rendering per quality
    narrated = [c for c in SAMPLE_CLIPS if c.narrated]
    sources = sum(("mp4" in c.formats) + ("webm" in c.formats) for c in SAMPLE_CLIPS) + 2 * 2  # two films
    assert report.problems == [], "\n".join(report.problems)
    assert report.checked_variants == variants
    assert report.checked_sources == sources
    assert report.audible_players == len(narrated) + 1  # and the narrated film
    assert report.audible_sources == sum(("mp4" in c.formats) + ("webm" in c.formats) for c in narrated) + 2
    assert report.checked_transcripts == len(narrated)
    assert report.chapter_seeks == len(FILM_CHAPTERS)
    assert any(url.endswith(".webm") for url in report.requests) and any(url.endswith(".mp4")
                                                                         for url in report.requests)
    assert all(p.stat().st_size > 10_000 for p in report.screenshots)
    print(f"browser checks: {variants} players/qualities, {sources} sources, {report.chapter_seeks} chapter seeks "
          f"in {time.monotonic() - started:.1f} s; audio bytes decoded when counted (at most {AUDIBLE_PLAY_S} s "
          f"of sound): {min(report.audio_bytes)}..{max(report.audio_bytes)}")


def test_a_narrated_clip_plays_with_sound_and_shows_its_transcript_collapsed(test_media):
    """The narrated player on its own, the way a reader meets it: the page's <video> for coffee_cafe."""
    from playwright.sync_api import sync_playwright

    with served_browser(test_media) as (server, context):
        page = context.new_page()
        page.goto(server.url + "index.html", wait_until="load")
        video = page.locator("#clip-coffee_cafe video")
        assert video.evaluate("v => v.currentSrc").endswith("clips/narrated/coffee_cafe-low.webm")
        heard = video.evaluate("""async v => {
            v.muted = false; v.volume = 1; await v.play();
            await new Promise(r => setTimeout(r, 1000));
            const out = {muted: v.muted, audio: v.webkitAudioDecodedByteCount, time: v.currentTime};
            v.pause(); return out; }""")
        assert heard["muted"] is False and heard["audio"] > 0 and heard["time"] > 0.5, heard
        details = page.locator("#clip-coffee_cafe details.transcript")
        assert details.evaluate("d => d.open") is False and details.is_visible()
        assert not page.locator("#clip-coffee_cafe").get_by_text("The voice of").is_visible()  # collapsed
        details.locator("summary").click()
        assert details.evaluate("d => d.open") is True
        assert page.locator("#clip-coffee_cafe").get_by_text("Then the second beat: weights & <scores>.") \
            .is_visible()
    print(f"narrated clip: {heard['audio']} audio bytes decoded in {heard['time']:.2f} s")


def test_the_checks_catch_a_silent_narration_a_wrong_chapter_and_an_open_transcript(test_media, tmp_path):
    """The browser checks must fail on a broken page, or a passing run would mean nothing."""
    broken = tmp_path / "broken"
    shutil.copytree(test_media, broken)
    manifest = json.loads((broken / "manifest.json").read_text(encoding="utf-8"))
    clips = {(c["id"], c["quality"], c["narrated"]): c for c in manifest["clips"]}
    clips[("learned_alignment", "low", False)]["duration"] += 0.5
    (broken / clips[("summary", "low", False)]["files"]["png"]["path"]).unlink()
    narration = clips[("coffee_cafe", "low", True)]  # its voice lost: the same picture, no audio track
    _encode_formats(broken / Path(narration["files"]["mp4"]["path"]).with_suffix(""), ("mp4", "webm"), (160, 90),
                    15, narration["frames"], sound=False)
    film = next(f for f in manifest["films"] if f["narrated"])
    film["chapters"][1]["start"] += 0.5  # the page's chapter button and track still say the real start
    (broken / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    index = broken / "index.html"
    document = index.read_text(encoding="utf-8")
    figure = document.index('id="clip-teacher_forcing"')
    closed = '<details class="transcript" hidden>'  # its default quality (medium) is silent
    at = document.index(closed, figure)
    assert at < document.index("</figure>", figure)
    document = document[:at] + '<details class="transcript" hidden open>' + document[at + len(closed):]
    hidden_cues = "<style>#clip-summary .cue-line { display: none; }</style>"  # its captions line out of sight
    index.write_text(document.replace("</head>", hidden_cues + "</head>", 1), encoding="utf-8")

    report = check_page_in_browser(broken, screenshot_dir=None)
    text = "\n".join(report.problems)
    assert "learned_alignment (low): duration" in text
    assert "summary (low): poster" in text
    assert "coffee_cafe (low, narrated): no sound" in text
    assert "clips/narrated/coffee_cafe-low.mp4: no sound" in text
    assert "clips/narrated/coffee_cafe-low.webm: no sound" in text
    assert f"film (low, narrated): chapter 2 ({film['chapters'][1]['title']}) seeked to" in text
    assert "teacher_forcing (low, narrated): the transcript is open before anyone asked for it" in text
    assert "coffee_cafe (low, narrated): the transcript" not in text  # the other one was left alone
    assert "summary (low): the caption under the player" in text
    assert "teacher_forcing (low): the caption under the player" not in text


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
