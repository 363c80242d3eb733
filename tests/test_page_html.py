"""The page's HTML without a browser: the post in order, clips at their sections, escaping, no network links."""

from __future__ import annotations

import copy
import html
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from rendering.site.manifest_check import QUALITIES
from rendering.site.page import embed_snippet, quality_label, write_page
from rendering.site.post_text import Code, Heading, Paragraph, load_post
from scenes.registry import SCENES

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
RESOLUTIONS = {"low": ([854, 480], 15), "medium": ([1280, 720], 30), "high": ([1920, 1080], 60),
               "1440p": ([2560, 1440], 60), "4k": ([3840, 2160], 60)}


def clip_entry(spec, quality="low", formats=("mp4", "webm", "png", "vtt"), title=None):
    resolution, fps = RESOLUTIONS[quality]
    files = {fmt: {"path": f"clips/{quality}/{spec.id}.{fmt}", "bytes": 10, "sha256": "0" * 64} for fmt in formats}
    return {"id": spec.id, "title": title or spec.title, "section": spec.section, "order": spec.order,
            "quality": quality, "resolution": resolution, "fps": fps, "duration": 4.0 + spec.order / 10,
            "frames": 60, "input_hash": "h", "files": files}


def full_manifest():
    """Every registry scene in low and high quality; summary without WebM; one title with markup in it."""
    clips = []
    for spec in SCENES:
        for quality in ("low", "high"):
            formats = ("mp4", "png", "vtt") if spec.id == "summary" else ("mp4", "webm", "png", "vtt")
            title = '<script>alert("x")</script> & more' if spec.id == "bottleneck" else None
            clips.append(clip_entry(spec, quality, formats, title))
    return {"version": 1, "clips": clips}


class Collector(HTMLParser):
    """Tags in document order, with attributes, plus a balance check of non-void elements."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else None}>")
        else:
            self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("media")
    # Caption files for half the clips: those become data: URLs, the rest stay relative links.
    manifest = full_manifest()
    for clip in manifest["clips"]:
        if clip["quality"] == "low" and "vtt" in clip["files"]:
            vtt = out / clip["files"]["vtt"]["path"]
            vtt.parent.mkdir(parents=True, exist_ok=True)
            vtt.write_text(f"WEBVTT\n\n00:00.000 --> 00:01.000\n{clip['id']}\n", encoding="utf-8")
    index = write_page(manifest, out)
    document = index.read_text(encoding="utf-8")
    parsed = Collector()
    parsed.feed(document)
    parsed.close()
    return out, index, document, parsed, manifest


def test_write_page_writes_index_and_assets_atomically(built):
    out, index, document, parsed, _ = built
    assert index == out / "index.html"
    assert document.startswith("<!doctype html>")
    assert (out / "page" / "page.css").is_file()
    leftovers = [p for p in out.rglob("*") if p.name.endswith(".tmp") or p.name.startswith(".")]
    assert leftovers == []
    assert parsed.errors == [] and parsed.stack == []


def test_headings_follow_the_post_and_each_clip_sits_in_its_section(built):
    _, _, document, parsed, _ = built
    post = load_post()
    heading_ids = [tag[1]["id"] for tag in parsed.tags if tag[0] in ("h2", "h3")]
    assert heading_ids == [h.slug for h in post.headings()]
    slug_of = {h.text: h.slug for h in post.headings()}
    order = [tag[1]["id"] for tag in parsed.tags if tag[0] in ("h2", "h3", "figure")]
    for spec in SCENES:
        figure = order.index(f"clip-{spec.id}")
        section = order.index(slug_of[spec.section])
        between = order[section + 1:figure]
        assert section < figure and all(item.startswith("clip-") for item in between), spec.id
    figures = [item for item in order if item.startswith("clip-")]
    assert figures == [f"clip-{spec.id}" for spec in SCENES]  # one player per scene, registry order


def test_the_page_is_the_post_text(built):
    _, _, document, parsed, _ = built
    post = load_post()
    text = "".join(parsed.text)
    plain = [b.text for b in post.blocks if isinstance(b, Paragraph) and not re.search(r"[$`]|\[\d\]", b.text)]
    assert len(plain) > 40
    for paragraph in plain:
        assert paragraph in text
    for code in (b for b in post.blocks if isinstance(b, Code)):
        assert f'<code class="language-python">{html.escape(code.text)}</code>' in document
    assert text.count(post.title) >= 2  # <title> and <h1>


def test_text_is_escaped(built):
    _, _, document, parsed, _ = built
    assert "<script>alert" not in document
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more" in document
    assert document.count("<script>") == 1  # only the page's own quality chooser
    assert "&lt;start&gt;" in document  # from the post's "given s + <start>" picture


def test_no_link_leaves_the_page(built):
    out, _, document, parsed, _ = built
    links = [(tag, name, value) for tag, attrs in parsed.tags for name, value in attrs.items()
             if name in ("src", "href", "poster", "data-webm", "data-mp4", "data-png", "data-gif", "data-vtt")
             and value is not None]
    assert len(links) > 100
    for tag, name, value in links:
        if value.startswith("data:"):
            assert value.startswith(("data:,", "data:text/vtt;")), (tag, name)
            continue
        assert not re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", value), (tag, name, value)  # no scheme at all
        assert not value.startswith(("/", "//", "\\")), (tag, name, value)
        if not value.startswith("#"):
            assert ".." not in value.split("/")
    for tag, attrs in parsed.tags:
        if tag == "img":
            assert (out / attrs["src"]).is_file(), attrs["src"]
    csp = next(attrs["content"] for tag, attrs in parsed.tags
               if tag == "meta" and attrs.get("http-equiv") == "Content-Security-Policy")
    assert "default-src 'none'" in csp and "http" not in csp


def test_light_and_dark_colours_and_a_responsive_layout(built):
    out, _, document, parsed, _ = built
    css = (out / "page" / "page.css").read_text(encoding="utf-8")
    assert "@media (prefers-color-scheme: dark)" in css
    assert re.search(r"@media \(max-width: [\d.]+rem\)", css)
    assert "@import" not in css and "url(" not in css and "@font-face" not in css  # nothing to download
    assert ("meta", {"name": "viewport", "content": "width=device-width, initial-scale=1"}) in parsed.tags
    assert ("meta", {"name": "color-scheme", "content": "light dark"}) in parsed.tags


def test_players_offer_the_rendered_qualities(built):
    _, _, document, parsed, manifest = built
    selects = re.findall(r'<figure class="clip" id="clip-(\w+)">.*?</figure>', document, re.S)
    assert len(selects) == len(SCENES)
    for spec in SCENES:
        figure = re.search(rf'<figure class="clip" id="clip-{spec.id}">(.*?)</figure>', document, re.S).group(1)
        options = re.findall(r'<option value="([^"]+)"', figure)
        assert options == ["low", "high"]
        assert re.search(r'<option value="high"[^>]* selected>1080p · 60 fps</option>', figure)
        assert 'controls preload="metadata" playsinline' in figure
        assert f'<source src="clips/high/{spec.id}.mp4" type="video/mp4">' in figure
        assert ('type="video/webm"' in figure) == (spec.id != "summary")
        assert re.search(r'<track kind="captions" srclang="en" label="English" src="[^"]+" default>', figure)


def test_captions_are_inlined_when_the_file_is_there(built):
    _, _, document, parsed, _ = built
    options = [attrs for tag, attrs in parsed.tags if tag == "option"]
    low = [o["data-vtt"] for o in options if o["value"] == "low"]
    high = [o["data-vtt"] for o in options if o["value"] == "high"]
    assert all(v.startswith("data:text/vtt;charset=utf-8;base64,") for v in low)
    assert all(v.startswith("clips/high/") and v.endswith(".vtt") for v in high)


def test_a_single_quality_has_no_chooser_and_a_missing_poster_is_fine(tmp_path):
    spec = SCENES[0]
    manifest = {"version": 1, "clips": [clip_entry(spec, "medium", formats=("webm",))]}
    document = write_page(manifest, tmp_path).read_text(encoding="utf-8")
    assert "<select" not in document and "720p · 30 fps" in document
    assert "poster=" not in document and "<track" not in document
    assert f'<source src="clips/medium/{spec.id}.webm" type="video/webm">' in document


def test_embed_snippet_is_one_ready_to_paste_video():
    clip = clip_entry(SCENES[2], "high")
    snippet = embed_snippet(clip)
    parsed = Collector()
    parsed.feed(snippet)
    tags = parsed.tags
    assert tags[0][0] == "video"
    assert {"controls", "preload", "playsinline", "poster"} <= set(tags[0][1])
    assert tags[0][1]["preload"] == "metadata" and tags[0][1]["poster"] == f"clips/high/{SCENES[2].id}.png"
    assert [(t, a.get("type")) for t, a in tags[1:3]] == [("source", "video/webm"), ("source", "video/mp4")]
    assert tags[3] == ("track", {"kind": "captions", "srclang": "en", "label": "English",
                                 "src": f"clips/high/{SCENES[2].id}.vtt", "default": None})
    assert parsed.errors == [] and parsed.stack == []
    clip["files"]["mp4"]["path"] = "clips/a b#1.mp4"
    assert 'src="clips/a%20b%231.mp4"' in embed_snippet(clip)


@pytest.mark.parametrize("change, message", [
    (lambda m: m.update(version=2), "version"),
    (lambda m: m["clips"][0].update(quality="8k"), "valid: " + ", ".join(QUALITIES)),
    (lambda m: [c.update(section="Not in the post") for c in m["clips"][:2]], "is not a heading of the post"),
    (lambda m: m["clips"][0]["files"]["mp4"].update(path="https://cdn.example/x.mp4"), "relative"),
    (lambda m: m["clips"][0]["files"]["mp4"].update(path="/abs/x.mp4"), "relative"),
    (lambda m: m["clips"][0]["files"]["mp4"].update(path="../x.mp4"), "relative"),
    (lambda m: m["clips"][0].pop("duration"), "lacks duration"),
    (lambda m: m["clips"].append(copy.deepcopy(m["clips"][0])), "quality twice"),
    (lambda m: [m["clips"][0]["files"].pop(f) for f in ("mp4", "webm")], "neither an mp4 nor a webm"),
])
def test_a_manifest_that_breaks_the_schema_is_a_clear_error(tmp_path, change, message):
    manifest = full_manifest()
    change(manifest)
    with pytest.raises(ValueError, match=re.escape(message)):
        write_page(manifest, tmp_path)
    assert not (tmp_path / "index.html").exists()


def test_an_empty_manifest_still_gives_the_post(tmp_path):
    document = write_page({"version": 1, "clips": []}, tmp_path).read_text(encoding="utf-8")
    assert "no clips rendered yet" in document and "<video" not in document
    assert document.count("<h2") == sum(1 for h in load_post().headings() if h.level == 2)


def test_heading_levels_come_from_the_outline(built):
    _, _, _, parsed, _ = built
    levels = [int(tag[0][1]) for tag in parsed.tags if tag[0] in ("h1", "h2", "h3")]
    assert levels[0] == 1 and levels.count(1) == 1
    assert levels[1:] == [h.level for h in load_post().headings() if isinstance(h, Heading)]


def test_rewriting_the_page_replaces_it(tmp_path):
    manifest = full_manifest()
    write_page(manifest, tmp_path)
    manifest["clips"] = [c for c in manifest["clips"] if c["id"] != "summary"]
    document = write_page(manifest, tmp_path).read_text(encoding="utf-8")
    assert "clip-summary" not in document
    assert Path(tmp_path / "index.html").stat().st_size == len(document.encode("utf-8"))


@pytest.mark.parametrize("resolution, fps, label", [
    ([854, 480], 15.000741104278312, "480p · 15 fps"),  # a measured rate, as render.py writes it
    ([1920, 1080], 60, "1080p · 60 fps"),
    ([1280, 720], 29.97, "720p · 29.97 fps"),
])
def test_quality_labels_read_well(resolution, fps, label):
    assert quality_label({"resolution": resolution, "fps": fps}) == label
