"""Step mode in the page's HTML, without a browser: the beat times each player and quality option carries, the
beat list, the labels, and the script under the page's CSP. tests/test_slides.py drives it in Chromium."""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re

from rendering.site.page import render_document
from rendering.site.math_svg import MathRenderer
from rendering.site.players import choose_film, group_players
from rendering.site.post_text import load_post
from scenes.registry import get
from tests.test_page_html import clip_entry

BEATS = [{"beat": "show_title", "caption": "The bottleneck", "start": 0.0, "end": 3.133333},
         {"beat": "reading", "caption": 'Read <one> word & "then" the next', "start": 3.133333, "end": 8.0}]
NARRATED_BEATS = [{**BEATS[0], "end": 3.5}, {**BEATS[1], "start": 3.5, "end": 12.0}]


def _document(tmp_path, manifest) -> str:
    renderer = MathRenderer(tmp_path / "math", "page/math")
    return render_document(load_post(), group_players(manifest), renderer, film=choose_film(manifest))


def _manifest(with_beats: bool = True) -> dict:
    spec = get("bottleneck")
    silent = clip_entry(spec, "low")
    narrated = {**clip_entry(spec, "low"), "narrated": True}
    high = clip_entry(spec, "high")
    if with_beats:
        silent["beats"], narrated["beats"], high["beats"] = BEATS, NARRATED_BEATS, BEATS
    return {"version": 1, "clips": [silent, narrated, high]}


def _figure(document: str, figure_id: str) -> str:
    start = document.index(f'id="{figure_id}"')
    return document[document.rindex("<figure", 0, start):document.index("</figure>", start)]


def test_a_clip_with_beats_gets_a_step_panel_with_its_beat_list(tmp_path):
    figure = _figure(_document(tmp_path, _manifest()), "clip-bottleneck")
    # the player starts at the best quality up to 1080p, the silent high one: its beat times
    opening = figure[:figure.index(">")]
    beats = json.loads(html.unescape(re.search(r'data-beats="([^"]+)"', opening).group(1)))
    assert beats == [[0.0, 3.133333], [3.133333, 8.0]]
    assert 'data-fps="60.0"' in opening
    assert '<button type="button" class="step-toggle" aria-pressed="false">Step mode</button>' in figure
    for label in ("Back to the start (Home)", "Replay the previous beat (Left arrow, Page Up)",
                  "Play the next beat (Right arrow, Space, Page Down)"):
        assert f'aria-label="{label}"' in figure
    assert 'aria-live="polite"' in figure
    assert "Read &lt;one&gt; word &amp; &quot;then&quot; the next" in figure  # escaped, never markup
    assert "<one>" not in figure
    assert figure.count('<button type="button" data-beat=') == 2


def test_every_quality_option_carries_its_own_beat_times(tmp_path):
    figure = _figure(_document(tmp_path, _manifest()), "clip-bottleneck")
    options = re.findall(r"<option [^>]*>", figure)
    assert len(options) == 2
    times = [json.loads(html.unescape(re.search(r'data-beats="([^"]+)"', option).group(1))) for option in options]
    assert times == [[[0.0, 3.5], [3.5, 12.0]], [[0.0, 3.133333], [3.133333, 8.0]]]  # low narrated, high silent
    assert 'data-fps="60.0"' in options[1]


def test_a_clip_without_beats_has_no_step_panel(tmp_path):
    figure = _figure(_document(tmp_path, _manifest(with_beats=False)), "clip-bottleneck")
    assert "step-toggle" not in figure and "data-beats" not in figure


def test_the_film_gets_step_mode_from_its_beats(tmp_path):
    manifest = _manifest()
    film_beats = [{**beat, "clip": "bottleneck"} for beat in BEATS]
    manifest["films"] = [{"quality": "low", "narrated": False, "resolution": [854, 480], "fps": 15,
                          "duration": 8.0, "frames": 120, "files": {"mp4": {"path": "film/low/film.mp4",
                                                                           "bytes": 1, "sha256": "0"}},
                          "chapters": [{"id": "bottleneck", "title": "The bottleneck", "start": 0, "end": 8.0}],
                          "beats": film_beats}]
    figure = _figure(_document(tmp_path, manifest), "film")
    assert "Step through the film beat by beat" in figure
    assert figure.count('<button type="button" data-beat=') == 2


def test_the_step_script_runs_under_the_pages_script_hash(tmp_path):
    document = _document(tmp_path, _manifest())
    script = re.search(r"<script>(.*?)</script>", document, re.S).group(1)
    assert "step-mode:" in script and "requestAnimationFrame" in script
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in document
