"""render.py --slides on fixture scenes: key frames at beat starts, segments cut at beats, deck.pptx read back with
python-pptx and converted by LibreOffice, the up-to-date check, and bad input.

One render (the two-beat narrated fixture and the beat-less square, silent and narrated, with the film and the
narrated deck) is shared by the checks that only read it; tests/test_slides_browser.py drives the players.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import av
import numpy as np
import pytest

from tests.fixtures.render.harness import Project, make_project, one_line_error

pytestmark = pytest.mark.slow

FPS = 15
SOFFICE = Path("/usr/bin/soffice")
# The fixture scenes' beats, from their run times at 15 fps (np.arange(0, t, 1/15) frames per play), and, silent, the
# picture held until each caption can be read at 20 characters a second, to the next 0.2 s of the clock:
# narrated.draw_a_square: Create 1 s (15) + FadeOut 0.5 s (8) + "And it goes." held (12 characters, 0.6 s from 1 s:
# to 1.8 s, 4); say_more_than_is_shown: Create 0.5 s (8) + its caption held (130 characters, 6.5 s from 1.8 s: to
# 8.4 s, 91).
SILENT_NARRATED_SPANS = [(0, 27), (27, 99)]
SQUARE_FRAMES = 15 + 8  # Create 1 s, Rotate 0.5 s; a plain Scene without beats: one slide
NARRATION = ["Here is a square. It has four sides. And it goes.",
             "A circle appears while this caption, which is much longer than two subtitle lines would hold, is read "
             "aloud from beginning to end."]
CAPTIONS = ["A square.", NARRATION[1]]


def render(project: Project, cache: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "NARRATION_CACHE_DIR": str(cache)}
    return subprocess.run(project.args(*args), cwd=project.root, capture_output=True, text=True, timeout=300,
                          env=env)


@pytest.fixture(scope="module")
def speech_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("speech-cache")


@pytest.fixture(scope="module")
def deck(tmp_path_factory, speech_cache):
    project = make_project(tmp_path_factory.mktemp("slides"))
    started = time.monotonic()
    result = render(project, speech_cache, "narrated", "square", "--narrate", "--film", "--slides",
                    "-f", "mp4,webm,png")
    assert result.returncode == 0, result.stdout + result.stderr
    print(f"narrated + square, silent and narrated, film and deck: {time.monotonic() - started:.1f} s")
    return project


def entry(project: Project, scene_id: str, narrated: bool) -> dict:
    matches = [c for c in project.manifest()["clips"] if c["id"] == scene_id and c.get("narrated") == narrated]
    assert len(matches) == 1
    return matches[0]


def deck_entry(project: Project, narrated: bool = True) -> dict:
    decks = [d for d in project.manifest().get("decks", []) if d["narrated"] == narrated]
    assert len(decks) == 1, project.manifest().get("decks")
    return decks[0]


def decoded(path: Path) -> list[np.ndarray]:
    with av.open(str(path)) as container:
        return [frame.to_ndarray(format="rgb24") for frame in container.decode(video=0)]


def key_frames(path: Path) -> list[int]:
    with av.open(str(path)) as container:
        return [n for n, frame in enumerate(container.decode(video=0)) if frame.key_frame]


def samples(path: Path) -> np.ndarray:
    with av.open(str(path)) as container:
        if not container.streams.audio:
            return np.zeros(0, np.float32)
        return np.concatenate([frame.to_ndarray().reshape(-1) for frame in container.decode(audio=0)])


def segment_paths(project: Project, deck: dict, clip_id: str, fmt: str) -> list[Path]:
    clip, = [clip for clip in deck["clips"] if clip["id"] == clip_id]
    return [project.out / segment["files"][fmt]["path"] for segment in clip["segments"]]


# ---------------------------------------------------------------- key frames and beats


@pytest.mark.parametrize("fmt", ["mp4", "webm"])
def test_the_silent_clip_has_a_key_frame_at_each_beat_start_as_its_run_times_say(deck, fmt):
    clip = entry(deck, "narrated", False)
    assert [(b["first_frame"], b["frames"]) for b in clip["beats"]] == SILENT_NARRATED_SPANS
    assert key_frames(deck.out / clip["files"][fmt]["path"]) == [first for first, _ in SILENT_NARRATED_SPANS]
    assert [b["caption"] for b in clip["beats"]] == CAPTIONS
    assert [b["narration"] for b in clip["beats"]] == NARRATION


@pytest.mark.parametrize("fmt", ["mp4", "webm"])
def test_the_narrated_clip_has_a_key_frame_where_each_spoken_beat_starts(deck, fmt):
    clip = entry(deck, "narrated", True)
    frames = decoded(deck.out / clip["files"][fmt]["path"])
    firsts = [beat["first_frame"] for beat in clip["beats"]]
    assert key_frames(deck.out / clip["files"][fmt]["path"]) == firsts
    assert sum(beat["frames"] for beat in clip["beats"]) == len(frames) == clip["frames"]
    # the second beat starts where the transcript (the speech placement) says it does
    assert firsts[1] == round(clip["transcript"][1]["start"] * FPS) > SILENT_NARRATED_SPANS[1][0]


def test_the_film_lists_every_clips_beats_moved_to_its_chapter(deck):
    film, = [f for f in deck.manifest()["films"] if f["narrated"]]
    clip = entry(deck, "narrated", True)
    square = entry(deck, "square", True)
    assert [b["clip"] for b in film["beats"]] == ["square", "narrated", "narrated"]  # registry order
    assert film["beats"][0]["start"] == 0 and film["beats"][0]["end"] == pytest.approx(square["frames"] / FPS)
    offset = square["frames"] / FPS
    for moved, own in zip(film["beats"][1:], clip["beats"]):
        assert moved["start"] == pytest.approx(own["start"] + offset, abs=1e-6)
        assert moved["end"] == pytest.approx(own["end"] + offset, abs=1e-6)
    assert film["beats"][-1]["end"] == pytest.approx(film["duration"], abs=1e-6)


# ---------------------------------------------------------------- segments


@pytest.mark.parametrize("fmt", ["mp4", "webm"])
def test_each_segment_holds_its_beat_and_together_they_decode_to_the_clip(deck, fmt):
    made = deck_entry(deck)
    for clip_id in ("narrated", "square"):
        clip = entry(deck, clip_id, True)
        whole = decoded(deck.out / clip["files"][fmt]["path"])
        pieces = [decoded(path) for path in segment_paths(deck, made, clip_id, fmt)]
        spans = clip.get("beats") or [{"frames": SQUARE_FRAMES}]
        assert [len(piece) for piece in pieces] == [beat["frames"] for beat in spans]
        joined = [frame for piece in pieces for frame in piece]
        assert len(joined) == len(whole)
        assert all(np.array_equal(a, b) for a, b in zip(joined, whole)), "a segment decodes to other pixels"
        for path in segment_paths(deck, made, clip_id, fmt):
            assert key_frames(path)[0] == 0


def test_segments_carry_their_part_of_the_narration(deck):
    """Opus trims to the sample: each webm segment's sound is its beat's span of the clip's track."""
    clip = entry(deck, "narrated", True)
    track = samples(deck.out / clip["files"]["webm"]["path"])
    rate = 48_000
    for beat, path in zip(clip["beats"], segment_paths(deck, deck_entry(deck), "narrated", "webm")):
        piece = samples(path)
        start, stop = round(beat["first_frame"] * rate / FPS), round((beat["first_frame"] + beat["frames"]) * rate / FPS)
        assert abs(len(piece) - (stop - start)) <= rate / FPS
        original = track[start:stop]
        loud = lambda x: 10 * np.log10(np.mean(np.square(x, dtype=np.float64)) + 1e-12)  # noqa: E731
        assert loud(original) > -40, "the beat is spoken"
        assert abs(loud(piece[:len(original)]) - loud(original)) < 1.0
    mp4_piece = samples(segment_paths(deck, deck_entry(deck), "narrated", "mp4")[0])
    assert len(mp4_piece) >= clip["beats"][0]["frames"] * rate / FPS - 1  # AAC: whole 1024-sample frames


# ---------------------------------------------------------------- deck.pptx


def _movie_blobs(slide) -> list[bytes]:
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    blobs = []
    for shape in slide.shapes:
        if shape.shape_type == MSO_SHAPE_TYPE.MEDIA:
            link, = shape._element.xpath(".//a:videoFile/@r:link")
            blobs.append(slide.part.related_part(link).blob)
    return blobs


def test_the_pptx_has_a_slide_per_beat_with_its_segment_title_and_narration(deck):
    from pptx import Presentation

    made = deck_entry(deck)
    presentation = Presentation(str(deck.out / made["files"]["pptx"]["path"]))
    slides = list(presentation.slides)
    segments = segment_paths(deck, made, "square", "mp4") + segment_paths(deck, made, "narrated", "mp4")
    assert len(slides) == 1 + len(SILENT_NARRATED_SPANS) == made["slides"]
    for slide, segment in zip(slides, segments):
        assert _movie_blobs(slide) == [segment.read_bytes()]
    assert slides[0].shapes.title.text == "A square"  # the beat-less clip: its title
    for slide, caption, narration in zip(slides[1:], CAPTIONS, NARRATION):
        assert slide.shapes.title.text == caption
        notes = slide.notes_slide.notes_text_frame.text
        assert notes.startswith(narration) and f"Caption: {caption}" in notes
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    movie, = [shape for shape in slides[1].shapes if shape.shape_type == MSO_SHAPE_TYPE.MEDIA]
    assert movie.poster_frame.blob == segments[1].with_suffix(".png").read_bytes()


def test_libreoffice_opens_the_pptx_and_prints_a_page_per_slide(deck, tmp_path):
    made = deck_entry(deck)
    pptx = deck.out / made["files"]["pptx"]["path"]
    profile = tmp_path / "lo-profile"
    started = time.monotonic()
    result = subprocess.run([str(SOFFICE), f"-env:UserInstallation=file://{profile}", "--headless",
                             "--convert-to", "pdf", "--outdir", str(tmp_path), str(pptx)],
                            capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stdout + result.stderr
    pdf = (tmp_path / "deck.pdf").read_bytes()
    pages = len(re.findall(rb"/Type\s*/Page(?!s)", pdf))
    assert pages == made["slides"] == 3
    print(f"LibreOffice: deck.pptx to PDF, {pages} pages, in {time.monotonic() - started:.1f} s")


# ---------------------------------------------------------------- up to date, bad input


def test_a_second_run_cuts_nothing_and_a_changed_clip_is_cut_alone(deck, speech_cache, tmp_path):
    project = Project(tmp_path / "copy", tmp_path / "copy" / "media")
    shutil.copytree(deck.root, project.root, symlinks=True)
    made = deck_entry(project)
    before = {path: path.stat().st_mtime_ns for path in project.out.joinpath("slides").rglob("*") if path.is_file()}
    again = render(project, speech_cache, "narrated", "square", "--narrate", "--slides", "-f", "mp4,webm,png")
    assert again.returncode == 0, again.stdout + again.stderr
    assert re.search(r"deck\s+│\s+low narrated\s+│\s+up to date", again.stdout), again.stdout
    assert {path: path.stat().st_mtime_ns for path in before} == before

    scene = project.scene_file("square")
    scene.write_text(scene.read_text().replace("run_time=0.5", "run_time=1"))
    changed = render(project, speech_cache, "narrated", "square", "--narrate", "--slides", "-f", "mp4,webm,png")
    assert changed.returncode == 0, changed.stdout + changed.stderr
    narrated_segments = segment_paths(project, made, "narrated", "mp4")
    assert all(path.stat().st_mtime_ns == before[path] for path in narrated_segments), "re-cut an unchanged clip"
    square, = segment_paths(project, deck_entry(project), "square", "mp4")
    assert square.stat().st_mtime_ns != before[square]
    assert len(decoded(square)) == 15 + 15  # Rotate now lasts 1 s
    assert deck_entry(project)["slides"] == 3


def test_slides_without_a_video_format_exit_2_with_one_line_and_write_nothing(tmp_path, speech_cache):
    project = make_project(tmp_path / "p")
    result = render(project, speech_cache, "narrated", "--slides", "-f", "png")
    assert result.returncode == 2
    assert "--slides" in one_line_error(result) and "mp4 or webm" in one_line_error(result)
    assert not project.out.exists() or not any(project.out.rglob("*.json"))


def test_a_deck_of_a_failed_clip_exits_1_and_installs_nothing(tmp_path, speech_cache):
    project = make_project(tmp_path / "p")
    result = render(project, speech_cache, "broken", "--slides", "-f", "mp4")
    assert result.returncode == 1, result.stdout + result.stderr
    assert re.search(r"deck\s+│\s+low\s+│\s+failed", result.stdout), result.stdout
    assert not (project.out / "slides").exists()
    assert "decks" not in project.manifest()


# ---------------------------------------------------------------- in Chromium: the deck, and Step mode on the page

ARTIFACTS = Path(__file__).resolve().parent / "_artifacts" / "slides"
FRAME = 1 / FPS


def _browser(playwright, profile: Path):
    from tests.test_page_browser import _launch

    return _launch(playwright, profile)


def _offline_page(context, problems: list[str]):
    """A page that may load file: and data: URLs only, and reports every error."""
    def guard(route):
        if route.request.url.startswith(("file:", "data:", "blob:")):
            route.continue_()
        else:
            problems.append(f"request leaves the disk: {route.request.url}")
            route.abort()

    context.route("**/*", guard)
    page = context.new_page()
    page.on("console", lambda m: m.type == "error" and problems.append(f"console error: {m.text}"))
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    return page


def _started_at(page, selector: str) -> None:
    """Note the time the video under `selector` shows when it next starts playing (window.startedAt)."""
    page.evaluate("""s => { window.startedAt = null; const v = document.querySelector(s);
        v.addEventListener('playing', () => { window.startedAt = v.currentTime; }, {once: true}); }""", selector)


def _wait_paused(page, selector: str) -> float:
    """Wait (polling inside the page: the page's CSP forbids Playwright's eval-based waits) until the video has
    stopped and settled; its currentTime then."""
    return page.evaluate("""async s => { const v = document.querySelector(s); const until = Date.now() + 30000;
        while (!(v.paused && !v.seeking && v.readyState >= 2)) {
            if (Date.now() > until) { throw new Error('the video never paused'); }
            await new Promise(r => setTimeout(r, 10)); }
        return v.currentTime; }""", selector)


def _wait_started(page) -> float:
    """The time window.startedAt recorded (see _started_at), once the video has started."""
    return page.evaluate("""async () => { const until = Date.now() + 20000;
        while (window.startedAt === null) {
            if (Date.now() > until) { throw new Error('the video never started'); }
            await new Promise(r => setTimeout(r, 10)); }
        return window.startedAt; }""")


# How much of a beat the browser tests play before its end: the start and the stop are what they check, so each beat is
# moved on to this long before its end once it has started, and the stop is still reached by playing in real time.
LEAD_S = 1.0


def _skip_to_near_end(page, selector: str, end: float | None = None) -> None:
    """Once the video under `selector` plays, move it to LEAD_S before `end` (its duration if None), unless it is
    nearer already."""
    page.evaluate("""async ([s, end, lead]) => { const v = document.querySelector(s); const until = Date.now() + 20000;
        while (v.paused || v.readyState < 2) {
            if (Date.now() > until) { throw new Error('the video never played'); }
            await new Promise(r => setTimeout(r, 10)); }
        const stop = end === null ? v.duration : end;
        if (v.currentTime < stop - lead) { v.currentTime = stop - lead; } }""", [selector, end, LEAD_S])


@pytest.mark.browser
def test_the_deck_plays_each_beat_once_moves_by_key_and_shows_notes_offline(deck, tmp_path):
    from playwright.sync_api import sync_playwright

    made = deck_entry(deck)
    html = deck.out / made["files"]["html"]["path"]
    beats = [{"frames": entry(deck, "square", True)["frames"], "narration": "A square"}] + entry(
        deck, "narrated", True)["beats"]
    problems: list[str] = []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        context = _browser(playwright, tmp_path / "profile")
        try:
            page = _offline_page(context, problems)
            page.goto(html.as_uri(), wait_until="load")
            for n, beat in enumerate(beats, 1):
                video = f"#slide-{n} video"
                if n == 1:  # the deck opens still; the first Space plays the slide it opened on
                    assert page.evaluate(f"document.querySelector('{video}').paused") is True
                    page.keyboard.press("Space")
                if n > 1:
                    _started_at(page, video)
                    page.keyboard.press("ArrowRight" if n == 2 else "PageDown")
                    assert _wait_started(page) <= FRAME, "the next slide starts at its beat's start"
                _skip_to_near_end(page, video)
                page.evaluate("""async s => { const v = document.querySelector(s); const until = Date.now() + 30000;
                    while (!v.ended) { if (Date.now() > until) { throw new Error('never ended'); }
                                       await new Promise(r => setTimeout(r, 10)); } }""", video)
                state = page.evaluate(f"""() => {{ const v = document.querySelector('{video}');
                    return {{time: v.currentTime, audio: v.webkitAudioDecodedByteCount,
                             visible: [...document.querySelectorAll('section.slide')].map(s => !s.hidden)}}; }}""")
                assert abs(state["time"] - beat["frames"] / FPS) <= FRAME, (n, state)
                assert state["visible"] == [k == n for k in range(1, len(beats) + 1)]
                assert state["audio"] > 0, "a narrated slide plays its sound"
            notes = page.locator(f"#slide-{len(beats)} .notes")
            page.keyboard.press("n")  # no letter is a shortcut (WCAG 2.1.4): the button shows the notes
            assert not notes.is_visible()
            page.locator("button.toggle-notes").click()
            assert notes.is_visible() and NARRATION[1] in notes.inner_text()
            assert f"Caption: {CAPTIONS[1]}" in notes.inner_text()
            page.screenshot(path=str(ARTIFACTS / "deck-slide-with-notes.png"))
            page.locator("button.toggle-notes").click()
            assert not notes.is_visible()
            page.keyboard.press("PageUp")
            assert page.locator(f"#slide-{len(beats) - 1}").is_visible()
            page.keyboard.press("Home")
            assert page.locator("#slide-1").is_visible() and page.url.endswith("#1")
            assert "Slide 1 of 3" in page.locator(".status").inner_text()
            page.goto(html.as_uri() + "#2", wait_until="load")  # opened at a slide: only that one shows
            page.reload(wait_until="load")
            assert page.evaluate("[...document.querySelectorAll('section.slide')].map(s => !s.hidden)") == [
                False, True, False]
        finally:
            context.close()
    assert problems == [], "\n".join(problems)


@pytest.mark.browser
def test_step_mode_on_the_page_pauses_at_every_beat_end_of_a_narrated_clip_and_the_film(deck, tmp_path):
    from playwright.sync_api import sync_playwright

    clip = entry(deck, "narrated", True)
    film, = [f for f in deck.manifest()["films"] if f["narrated"]]
    problems: list[str] = []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        context = _browser(playwright, tmp_path / "profile")
        try:
            page = _offline_page(context, problems)
            page.goto((deck.out / "index.html").as_uri(), wait_until="load")
            figure, video = "#clip-narrated", "#clip-narrated video"
            toggle = page.locator(f"{figure} button.step-toggle")
            assert toggle.get_attribute("aria-pressed") == "false"
            assert not page.locator(f"{figure} ol.beats").is_visible()
            toggle.click()
            assert toggle.get_attribute("aria-pressed") == "true"
            assert page.locator(f"{figure} ol.beats button").all_inner_texts() == [
                f"{n}. {caption}" for n, caption in enumerate(CAPTIONS, 1)]
            for n, beat in enumerate(clip["beats"]):
                _started_at(page, video)
                page.keyboard.press("ArrowRight" if n == 0 else "PageDown")
                assert abs(_wait_started(page) - beat["start"]) <= FRAME
                assert f"Beat {n + 1} of 2" in page.locator(f"{figure} .step-status").inner_text()
                _skip_to_near_end(page, video, beat["end"])
                stopped = _wait_paused(page, video)
                assert abs(stopped - beat["end"]) <= FRAME, (n, stopped, beat)
                if n == 0:
                    page.screenshot(path=str(ARTIFACTS / "page-step-mode.png"))
                    assert "End of beat 1 of 2" in page.locator(f"{figure} .step-status").inner_text()
            _started_at(page, video)
            page.keyboard.press("ArrowLeft")  # replays the previous beat, the first
            assert abs(_wait_started(page) - clip["beats"][0]["start"]) <= FRAME
            _skip_to_near_end(page, video, clip["beats"][0]["end"])
            assert abs(_wait_paused(page, video) - clip["beats"][0]["end"]) <= FRAME
            page.keyboard.press("Home")
            assert _wait_paused(page, video) == 0

            page.reload(wait_until="load")  # the mode is remembered for the page
            assert page.locator("#film button.step-toggle").get_attribute("aria-pressed") == "true"
            for beat in film["beats"]:
                _started_at(page, "#film video")
                page.locator("#film button.step-next").click()
                assert abs(_wait_started(page) - beat["start"]) <= FRAME
                _skip_to_near_end(page, "#film video", beat["end"])
                assert abs(_wait_paused(page, "#film video") - beat["end"]) <= FRAME, beat
            page.locator("#film button.step-toggle").click()
            assert page.locator(f"{figure} button.step-toggle").get_attribute("aria-pressed") == "false"
        finally:
            context.close()
    assert problems == [], "\n".join(problems)


def test_a_clip_encoded_before_beats_had_key_frames_is_rendered_again(deck, speech_cache, tmp_path):
    """A manifest entry without "beats" (an older render.py) has no key frames at its beats: never up to date."""
    import json

    project = Project(tmp_path / "copy", tmp_path / "copy" / "media")
    shutil.copytree(deck.root, project.root, symlinks=True)
    manifest = project.manifest()
    for clip in manifest["clips"]:
        if clip["id"] == "square" and not clip["narrated"]:
            del clip["beats"]
    (project.out / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    result = render(project, speech_cache, "square", "narrated", "-f", "mp4,webm,png")
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"square\s+│\s+low\s+│\s+rendered", result.stdout), result.stdout
    assert re.search(r"narrated\s+│\s+low\s+│\s+up to date", result.stdout), result.stdout
    assert entry(project, "square", False)["beats"] == []


def test_a_cut_where_no_key_frame_is_refused_and_leaves_nothing(deck, tmp_path):
    from rendering.encode.segments import Span, cut_segments

    clip = deck.out / entry(deck, "narrated", False)["files"]["mp4"]["path"]
    (_first, _), (second, last) = SILENT_NARRATED_SPANS  # key frames at 0 and `second`
    frames = second + last
    outputs = [tmp_path / "a.mp4", tmp_path / "b.mp4"]
    with pytest.raises(ValueError, match="does not start on a key frame"):
        cut_segments(clip, [Span(0, 10), Span(10, frames - 10)], outputs)
    with pytest.raises(ValueError, match=f"holds {second} frames, its beat 20"):
        cut_segments(clip, [Span(0, 20), Span(second, frames - second)], outputs)
    assert not any(path.exists() for path in outputs)


def test_the_deck_html_escapes_captions_and_links_only_inside_its_folder(tmp_path):
    from rendering.site.deck_html import render_deck_html

    files = {fmt: {"path": f"slides/low/deck/c/01-b.{fmt}"} for fmt in ("mp4", "webm", "png")}
    slide = {"clip": "c", "clip_title": "A & B", "beat": "b", "number_in_clip": 1, "beats_in_clip": 1,
             "caption": '<script>alert("x")</script> & more', "narration": "Say <b>this</b>.", "frames": 15,
             "duration": 1.0, "files": files}
    text = render_deck_html([slide], tmp_path, tmp_path / "slides" / "low", quality="low", narrated=True)
    assert "<script>alert" not in text and "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; more" in text
    assert "Say &lt;b&gt;this&lt;/b&gt;." in text
    assert re.findall(r'(?:src|poster|href)="([^"]+)"', text) == [
        "data:,", "deck/player.css", "deck/c/01-b.png", "deck/c/01-b.webm", "deck/c/01-b.mp4", "deck/messages.js",
        "deck/player.js"]
