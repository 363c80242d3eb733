"""The page's HTML for narrated clips and the film, without a browser (tests/test_page_browser.py plays them)."""

from __future__ import annotations

import base64
import hashlib
import re

import pytest

from rendering.site.page import embed_snippet, write_page
from scenes.registry import SCENES
from test_page_html import Collector, clip_entry, full_manifest

NARRATED_BOTH, NARRATED_LOW_ONLY, SILENT_ONLY = SCENES[0], SCENES[1], SCENES[2]


def narrated_entry(spec, quality="low", formats=("mp4", "webm", "png", "vtt"), beats=None):
    """A narrated manifest entry as the writer makes it: files under clips/<quality>/narrated/."""
    entry = clip_entry(spec, quality, formats)
    for fmt, info in entry["files"].items():
        info["path"] = f"clips/{quality}/narrated/{spec.id}.{fmt}"
    entry["duration"] += 1.5  # a voice usually needs longer than the silent clip
    entry["narrated"] = True
    entry["audio"] = {"codecs": {"mp4": "aac", "webm": "opus"}, "sample_rate": 48000, "channels": 1,
                      "duration": entry["duration"], "loudness_lufs": -16.0, "peak_dbfs": -3.2, "target_lufs": -16.0}
    entry["transcript"] = [{"beat": f"beat_{n}", "text": text}
                           for n, text in enumerate(beats or [f"{spec.id} says one thing.", "Then another."])]
    return entry


def film_entry(quality="low", narrated=True, formats=("mp4", "webm", "vtt", "chapters_vtt", "chapters_txt")):
    folder = f"film/{quality}/narrated" if narrated else f"film/{quality}"
    names = {"mp4": "film.mp4", "webm": "film.webm", "vtt": "film.vtt", "chapters_vtt": "film.chapters.vtt",
             "chapters_txt": "chapters.txt"}
    chapters, start = [], 0.0
    for spec, length in zip(SCENES[:3], (44.25, 61.5, 30.0)):
        chapters.append({"id": spec.id, "title": spec.title, "start": start, "end": start + length})
        start += length
    width_height = {"low": [854, 480], "medium": [1280, 720], "high": [1920, 1080], "4k": [3840, 2160]}[quality]
    return {"quality": quality, "narrated": narrated, "resolution": width_height, "fps": 15, "duration": start,
            "frames": int(start * 15), "input_hash": "h",
            "files": {key: {"path": f"{folder}/{names[key]}", "bytes": 10, "sha256": "0" * 64} for key in formats},
            "chapters": chapters}


def mixed_manifest():
    """Clip 1: narrated at low and high; clip 2: narrated at low only; clip 3: silent only (as before narration)."""
    clips = [clip_entry(NARRATED_BOTH, "low"), clip_entry(NARRATED_BOTH, "high"),
             narrated_entry(NARRATED_BOTH, "low", beats=["Soft attention: a <weighted> average & more."]),
             narrated_entry(NARRATED_BOTH, "high", beats=["Soft attention: a <weighted> average & more."]),
             clip_entry(NARRATED_LOW_ONLY, "low"), clip_entry(NARRATED_LOW_ONLY, "high"),
             narrated_entry(NARRATED_LOW_ONLY, "low"),
             clip_entry(SILENT_ONLY, "low"), clip_entry(SILENT_ONLY, "high")]
    for clip in clips[:2] + clips[4:6] + clips[7:]:
        clip["narrated"] = False
    return {"version": 1, "clips": clips}


def figure_of(document: str, clip_id: str) -> str:
    return re.search(rf'<figure class="clip" id="clip-{clip_id}">(.*?)</figure>', document, re.S).group(1)


def parse(document: str) -> Collector:
    parsed = Collector()
    parsed.feed(document)
    parsed.close()
    assert parsed.errors == [] and parsed.stack == []
    return parsed


def test_the_narrated_rendering_of_a_quality_plays_instead_of_the_silent_one(tmp_path):
    document = write_page(mixed_manifest(), tmp_path).read_text(encoding="utf-8")
    both = figure_of(document, NARRATED_BOTH.id)
    assert f'<source src="clips/high/narrated/{NARRATED_BOTH.id}.mp4" type="video/mp4">' in both
    assert f'<source src="clips/high/narrated/{NARRATED_BOTH.id}.webm" type="video/webm">' in both
    assert f'poster="clips/high/narrated/{NARRATED_BOTH.id}.png"' in both
    options = re.findall(r"<option [^>]*>[^<]*</option>", both)
    assert len(options) == 2  # one per quality, not one per rendering
    assert f'data-mp4="clips/low/narrated/{NARRATED_BOTH.id}.mp4"' in options[0]
    assert all('data-narrated="true"' in option and "silent" not in option for option in options)
    assert f"clips/low/{NARRATED_BOTH.id}." not in both and f"clips/high/{NARRATED_BOTH.id}." not in both
    # narrated at low only: the default (high) stays silent and says so; low plays the voice
    low_only = figure_of(document, NARRATED_LOW_ONLY.id)
    assert f'<source src="clips/high/{NARRATED_LOW_ONLY.id}.mp4" type="video/mp4">' in low_only
    low, high = re.findall(r"<option [^>]*>[^<]*</option>", low_only)
    assert f'data-mp4="clips/low/narrated/{NARRATED_LOW_ONLY.id}.mp4"' in low and 'data-narrated="true"' in low
    assert low.endswith(">480p · 15 fps</option>")
    assert 'data-narrated="false"' in high and high.endswith(" selected>1080p · 60 fps · silent</option>")
    # the quality chooser swaps sources from these data- attributes: the narrated one's duration is its own
    voiced, silent = 4.0 + NARRATED_LOW_ONLY.order / 10 + 1.5, 4.0 + NARRATED_LOW_ONLY.order / 10
    assert f'data-duration="{voiced:.3f}"' in low and f'data-duration="{silent:.3f}"' in high


def test_the_transcript_is_under_the_narrated_clip_collapsed(tmp_path):
    document = write_page(mixed_manifest(), tmp_path).read_text(encoding="utf-8")
    parse(document)
    both = figure_of(document, NARRATED_BOTH.id)
    details = re.findall(r"<details[^>]*>.*?</details>", both, re.S)
    assert len(details) == 1
    assert details[0].startswith('<details class="transcript">')  # no "open": collapsed until asked for
    assert "<summary>Transcript of the narration</summary>" in details[0]
    assert "<p>Soft attention: a &lt;weighted&gt; average &amp; more.</p>" in details[0]
    assert both.index("</figcaption>") < both.index("<details")  # under the player and its controls
    # narrated at low only: the transcript is there for the low quality, hidden while the silent high plays
    low_only = figure_of(document, NARRATED_LOW_ONLY.id)
    assert re.search(r'<details class="transcript" hidden>\s*<summary>[^<]+</summary>\s*'
                     rf"<p>{NARRATED_LOW_ONLY.id} says one thing\.</p>\s*<p>Then another\.</p>\s*</details>", low_only)
    assert "<details" not in figure_of(document, SILENT_ONLY.id)


def test_a_silent_only_manifest_has_no_transcript_no_film_and_no_silent_labels(tmp_path):
    manifest = full_manifest()  # written before narration: no "narrated", no "films"
    assert not any("narrated" in clip for clip in manifest["clips"]) and "films" not in manifest
    document = write_page(manifest, tmp_path).read_text(encoding="utf-8")
    assert 'class="transcript"' not in document and "· silent" not in document
    assert 'id="film"' not in document and 'kind="chapters"' not in document
    assert document.count('<figure class="clip"') == len(SCENES)
    assert document.count('data-narrated="false"') == 2 * len(SCENES)


def test_the_film_sits_under_the_title_with_its_chapters(tmp_path):
    manifest = mixed_manifest()
    manifest["films"] = [film_entry("low", narrated=False), film_entry("low"), film_entry("high"),
                         film_entry("4k"), film_entry("high", narrated=False)]
    chapters_vtt = tmp_path / "film/high/narrated/film.chapters.vtt"
    chapters_vtt.parent.mkdir(parents=True)
    chapters_vtt.write_text("WEBVTT\n\n00:00.000 --> 00:44.250\nChapter one\n", encoding="utf-8")
    document = write_page(manifest, tmp_path).read_text(encoding="utf-8")
    parsed = parse(document)
    order = [tag for tag, _ in parsed.tags if tag in ("header", "figure", "h2")]
    assert order[:3] == ["header", "figure", "h2"]  # after the title, before the post's first section
    film = re.search(r'<figure class="film" id="film">(.*?)</figure>', document, re.S).group(1)
    # narrated preferred, best quality up to 1080p: not the silent high, not the 4k
    assert '<source src="film/high/narrated/film.mp4" type="video/mp4">' in film
    assert '<source src="film/high/narrated/film.webm" type="video/webm">' in film
    assert '<track kind="captions" srclang="en" label="English" src="film/high/narrated/film.vtt" default>' in film
    encoded = base64.b64encode(chapters_vtt.read_bytes()).decode("ascii")
    assert (f'<track kind="chapters" srclang="en" label="Chapters" '
            f'src="data:text/vtt;charset=utf-8;base64,{encoded}">') in film  # inlined: works opened from disk
    assert '<a class="chapter-list" href="film/high/narrated/chapters.txt">' in film
    buttons = re.findall(r'<button type="button" class="chapter" data-start="([^"]+)">'
                         r'<span class="chapter-time">([^<]+)</span> ([^<]+)</button>', film)
    assert buttons == [("0.000", "0:00", SCENES[0].title), ("44.250", "0:44", SCENES[1].title),
                       ("105.750", "1:45", SCENES[2].title)]
    assert "1080p · 60 fps" not in film  # the film entry says 15 fps
    assert "all of them as one film (2:15)" in document


def test_a_silent_film_is_shown_when_there_is_no_narrated_one(tmp_path):
    manifest = full_manifest()
    manifest["films"] = [film_entry("low", narrated=False, formats=("webm", "chapters_vtt"))]
    document = write_page(manifest, tmp_path).read_text(encoding="utf-8")
    film = re.search(r'<figure class="film" id="film">(.*?)</figure>', document, re.S).group(1)
    assert '<source src="film/low/film.webm" type="video/webm">' in film and "film.mp4" not in film
    assert 'kind="captions"' not in film and "chapter-list" not in film
    assert film.count('class="chapter"') == 3


def test_the_page_script_is_allowed_by_its_hash_and_no_handler_is_inline(tmp_path):
    manifest = mixed_manifest()
    manifest["films"] = [film_entry("low")]
    document = write_page(manifest, tmp_path).read_text(encoding="utf-8")
    scripts = re.findall(r"<script>(.*?)</script>", document, re.S)
    assert len(scripts) == 1 and "button[data-start]" in scripts[0] and "select.quality" in scripts[0]
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode("utf-8")).digest()).decode("ascii")
    assert f"script-src 'sha256-{digest}';" in document
    assert not re.search(r"\son[a-z]+=", document)


def test_embed_snippet_of_a_narrated_clip_plays_the_narrated_files():
    snippet = embed_snippet(narrated_entry(SCENES[3], "medium"))
    parsed = parse(snippet)
    sources = [attrs["src"] for tag, attrs in parsed.tags if tag == "source"]
    assert sources == [f"clips/medium/narrated/{SCENES[3].id}.webm", f"clips/medium/narrated/{SCENES[3].id}.mp4"]
    track = next(attrs for tag, attrs in parsed.tags if tag == "track")
    assert track["src"] == f"clips/medium/narrated/{SCENES[3].id}.vtt" and track["kind"] == "captions"
    video = parsed.tags[0][1]
    assert "muted" not in video and "controls" in video  # the reader hears it and can pause it


@pytest.mark.parametrize("change, message", [
    (lambda m: m["clips"][2].update(narrated="yes"), "\"narrated\" must be true or false"),
    (lambda m: m["clips"][2].update(transcript="Soft attention"), "\"transcript\" must be a list"),
    (lambda m: m["clips"].append(narrated_entry(NARRATED_BOTH, "low")), "quality twice: ['low', 'high', "
                                                                          "'low (narrated)', 'high (narrated)', "
                                                                          "'low (narrated)']"),
    (lambda m: m.update(films={"quality": "low"}), "manifest[\"films\"] must be a list"),
    (lambda m: m.update(films=[{**film_entry(), "quality": "8k"}]), "film: quality '8k'; valid: low, medium"),
    (lambda m: m.update(films=[{k: v for k, v in film_entry().items() if k != "chapters"}]), "lacks chapters"),
    (lambda m: m.update(films=[{**film_entry(), "duration": None}]), "film (low): duration must be seconds"),
    (lambda m: m.update(films=[film_entry(formats=("vtt",))]), "film (low) has neither an mp4 nor a webm"),
    (lambda m: m.update(films=[film_entry()]) or m["films"][0]["files"]["mp4"].update(path="/srv/film.mp4"),
     "film (low) mp4: file path '/srv/film.mp4' must be relative"),
    (lambda m: m.update(films=[film_entry()]) or m["films"][0]["chapters"][1].pop("start"),
     "film (low): chapter 1 must have title, start, end"),
])
def test_a_narrated_or_film_entry_that_breaks_the_schema_is_a_clear_error(tmp_path, change, message):
    manifest = mixed_manifest()
    change(manifest)
    with pytest.raises(ValueError, match=re.escape(message)):
        write_page(manifest, tmp_path)
    assert not (tmp_path / "index.html").exists()
