"""The page's and the decks' own words in French (issue 43): every label, button, aria-label and announcement of the
interface is a message of the catalog, none left in English; the scripts announce in the page's language; a message
the catalog lacks fails, never falls back to English. Built from small manifests: no clip is rendered."""

from __future__ import annotations

import copy
import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from rendering.site import interface
from rendering.site.deck_html import render_deck_html
from rendering.site.page import write_page
from scenes.quality import language_gate
from scenes.registry import SCENES

ROOT = Path(__file__).resolve().parents[1]
#: English words of the page's and the deck's interface (beyond the gate's ENGLISH_ONLY), none of them French.
INTERFACE_ENGLISH = frozenset("""beat beats slide slides download quality transcript chapter chapters replay previous
    start home arrow speaker screen full deck controls browser fps silent described post animated typeset
    press""".split())
#: Interface texts that read the same in both languages by design (a French word, or a clip's number).
SAME_IN_BOTH = re.compile(r"^(Notes|Clip \d+\.)$")
#: Tokens that are no words of either language: formats, frame sizes, durations, numbers, punctuation.
TOKENS = re.compile(r"\b(MP4|WebM|GIF)\b|\d+p\b|\d+:\d\d|\d+(?:[.,]\d+)?|[^\w\s]|_")
ATTRIBUTES = ("aria-label", "label", "data-alt-label", "aria-roledescription")


def _beats(language: str) -> list[dict]:
    return [{"beat": "a", "caption": f"{language}-premier", "start": 0.0, "end": 1.5},
            {"beat": "b", "caption": f"{language}-second", "start": 1.5, "end": 4.0}]


def _entry(spec, language: str, quality: str, *, narrated=False, described=False, aspect="landscape") -> dict:
    folder = "/".join(part for part in ("clips", quality, None if aspect == "landscape" else aspect,
                                         None if language == "en" else language,
                                         "described" if described else "narrated" if narrated else None) if part)
    formats = ("mp4", "webm", "png", "vtt")
    size = {"low": [854, 480], "high": [1920, 1080]}[quality]
    entry = {"id": spec.id, "title": f"{language}-titre-{spec.id}", "section": spec.section, "order": spec.order,
             "quality": quality, "resolution": size if aspect == "landscape" else size[::-1],
             "fps": 23.976 if quality == "low" else 60, "duration": 4.0, "frames": 60, "input_hash": "h",
             "files": {fmt: {"path": f"{folder}/{spec.id}.{fmt}", "bytes": 10, "sha256": "0" * 64} for fmt in formats},
             "language": language, "beats": _beats(language), "narrated": narrated or described}
    if aspect != "landscape":
        entry["aspect"] = aspect
    if narrated or described:
        entry["transcript"] = [{"beat": "a", "text": f"{language}-voix",
                                "descriptions": [f"{language}-vu"] if described else []}]
    if described:
        entry["described"] = True
        entry["files"]["descriptions_vtt"] = {"path": f"{folder}/{spec.id}.descriptions.vtt", "bytes": 1,
                                              "sha256": "0" * 64}
    return entry


def _film(language: str) -> dict:
    folder = "film/low/narrated" if language == "en" else f"film/low/{language}/narrated"
    names = {"mp4": "film.mp4", "vtt": "film.vtt", "chapters_vtt": "film.chapters.vtt", "chapters_txt": "chapters.txt"}
    return {"quality": "low", "narrated": True, "resolution": [854, 480], "fps": 15, "duration": 135.0, "frames": 2025,
            "input_hash": "h", "language": language, "beats": _beats(language),
            "files": {key: {"path": f"{folder}/{name}", "bytes": 10, "sha256": "0" * 64} for key, name in names.items()},
            "chapters": [{"id": SCENES[0].id, "title": f"{language}-chapitre", "start": 0.0, "end": 135.0}]}


def _manifest() -> dict:
    """In each language: a clip narrated at one quality and silent at another, with a portrait rendering; a
    described clip; a clip without beats; the film with chapters and beats; an example with a description."""
    clips = []
    for language in ("en", "fr"):
        clips += [_entry(SCENES[0], language, "low", narrated=True), _entry(SCENES[0], language, "high"),
                  _entry(SCENES[0], language, "low", aspect="portrait"),
                  _entry(SCENES[1], language, "low", narrated=True), _entry(SCENES[1], language, "low", described=True)]
        plain = _entry(SCENES[2], language, "low")
        del plain["beats"]
        clips.append(plain)
    return {"version": 1, "clips": clips, "films": [_film("en"), _film("fr")],
            "example": {"name": "tiny", "description": "tiny-description"}}


class Interface(HTMLParser):
    """The interface's texts in document order: text nodes and labelling attributes inside the figures, the byline,
    the colophon, a diagram's summary, the deck's controls and slides (not the post's own prose)."""

    def __init__(self, everywhere: bool = False):
        super().__init__(convert_charrefs=True)
        self.everywhere, self.depth, self.stack = everywhere, 0, []
        self.texts: list[str] = []
        self.messages: dict | None = None
        self._json = None

    def _inside(self) -> bool:
        return self.everywhere or self.depth > 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        opens = (tag in ("figure", "footer", "summary") or (tag == "p" and attrs.get("class") == "byline"))
        if tag == "script":
            self._json = attrs.get("type") == "application/json"
        self.stack.append((tag, opens))
        if opens:
            self.depth += 1
        if self._inside() or opens:
            self.texts += [attrs[name] for name in ATTRIBUTES if attrs.get(name)]

    def handle_endtag(self, tag):
        while self.stack:
            name, opened = self.stack.pop()
            if opened:
                self.depth -= 1
            if name == tag:
                break
        if tag == "script":
            self._json = None

    def handle_data(self, data):
        if self._json:
            self.messages = json.loads(data)
        elif self._json is None and self._inside() and data.strip() and self.stack[-1][0] not in ("title", "style"):
            self.texts.append(data.strip())


def _interface(document: str, everywhere: bool = False) -> Interface:
    parsed = Interface(everywhere)
    parsed.feed(document)
    parsed.close()
    return parsed


def _words(text: str, content: list[str]) -> str:
    """What an interface text says of its own: without the manifest's content (titles, captions, narration, the
    example; each language's own, marked by a language prefix) and tokens."""
    for part in sorted(content, key=len, reverse=True):
        text = text.replace(part, " ")
    text = re.sub(r"\b(en|fr)-[\w-]+", " ", text)
    return " ".join(TOKENS.sub(" ", text).split())


def _english_left(text: str) -> list[str]:
    text = re.sub(r"\{\w+\}", " ", text)  # a placeholder's name is code
    words = re.findall(r"[^\W\d_]+", text)
    return [word for word in words if word.lower() in INTERFACE_ENGLISH] + language_gate.english_words(text)


def _compare(english: list[str], french: list[str], content: list[str]) -> list[str]:
    """One line per French interface text still English: equal to its English counterpart (and not the same by
    design) or holding an English interface word."""
    assert len(english) == len(french), (english, french)
    problems = []
    for en, fr in zip(english, french):
        own_en, own_fr = _words(en, content), _words(fr, content)
        if own_fr and own_fr == own_en and not SAME_IN_BOTH.match(fr):
            problems.append(f"unchanged: {fr!r}")
        if _english_left(own_fr):
            problems.append(f"English {_english_left(own_fr)} in {fr!r}")
    return problems


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    out = tmp_path_factory.mktemp("media")
    write_page(_manifest(), out)
    return ((out / "index.html").read_text(encoding="utf-8"), (out / "index.fr.html").read_text(encoding="utf-8"))


def test_no_english_word_is_left_in_the_french_pages_interface(pages):
    english, french = (_interface(page) for page in pages)
    assert len(french.texts) > 60  # the figures, the film, the byline, the colophon, a diagram's summary
    assert _compare(english.texts, french.texts, ["tiny"]) == []
    assert "Mode pas à pas" in french.texts and "Step mode" in english.texts
    assert any(text.startswith("L’article avec 3 clips animés, et tous réunis en un seul film (2:15)")
               for text in french.texts)
    assert "480p · 23,98 i/s" in french.texts  # a decimal in French: a comma
    assert "480p · 23.98 fps" in english.texts
    assert re.search(r'<html lang="fr">', pages[1]) and re.search(r'<html lang="en">', pages[0])


def test_the_scripts_messages_are_the_pages_language_and_every_one_they_use_is_there(pages):
    english, french = (_interface(page).messages for page in pages)
    assert english["beat"] == "Beat {n} of {total}: {caption}"
    assert french["beat"] == "Temps {n} sur {total}\u00a0: {caption}"
    for key in english:
        assert french[key] != english[key], key
        assert language_gate.placeholders(french[key]) == language_gate.placeholders(english[key]), key
        assert not _english_left(french[key]), french[key]
    scripts = "".join((ROOT / "rendering/site/page_assets" / name).read_text(encoding="utf-8")
                      for name in ("step.js", "quality.js", "film.js", "captions.js", "language.js"))
    used = set(re.findall(r'pageText\("(\w+)"', scripts))
    assert used == set(english), "every message a script announces comes from the page's block, and only those"


def _js_sentences(path: Path) -> list[str]:
    """The JavaScript's string literals that read as words (two or more, with a space): none may be English."""
    literals = re.findall(r'"((?:[^"\\\n]|\\.)*)"', re.sub(r"^\s*//.*$|//[^\n\"]*$", "", path.read_text(), flags=re.M))
    return [text for text in literals if re.search(r"[A-Za-z]{2,} [A-Za-z]{2,}", text)]


@pytest.mark.parametrize("script", ["page_assets/step.js", "page_assets/quality.js", "page_assets/messages.js",
                                    "page_assets/film.js", "page_assets/captions.js", "page_assets/language.js",
                                    "deck_assets/player.js"])
def test_no_english_sentence_is_written_in_the_scripts(script):
    sentences = _js_sentences(ROOT / "rendering/site" / script)
    assert [text for text in sentences if _english_left(text)] == []


def _slides(language: str) -> list[dict]:
    files = {fmt: {"path": f"slides/low/deck/c/01-b.{fmt}"} for fmt in ("mp4", "webm", "png")}
    return [{"clip": "c", "clip_title": f"{language}-titre", "beat": "b", "number_in_clip": n, "beats_in_clip": 2,
             "caption": f"{language}-légende-{n}", "narration": f"{language}-voix", "frames": 15, "duration": 1.0,
             "files": files} for n in (1, 2)]


def test_no_english_word_is_left_in_the_french_decks_interface(tmp_path):
    decks = {language: render_deck_html(_slides(language), tmp_path, tmp_path / "slides" / "low", quality="low",
                                        narrated=True, language=language) for language in ("en", "fr")}
    english, french = (_interface(decks[language], everywhere=True) for language in ("en", "fr"))
    assert _compare(english.texts, french.texts, []) == []
    assert "Diapositive 1 sur 2\u00a0: fr-légende-1" in french.texts and "Plein écran" in french.texts
    assert french.messages["end_of_slide"] == "Fin de la diapositive {n} sur {total}."
    used = set(re.findall(r'pageText\("(\w+)"', (ROOT / "rendering/site/deck_assets/player.js").read_text()))
    assert used == set(english.messages) and set(french.messages) == set(english.messages)
    assert re.search(r'<html lang="fr">', decks["fr"])


def test_the_powerpoint_notes_follow_the_decks_language(tmp_path):
    pytest.importorskip("pptx")
    from pptx import Presentation

    from rendering.site.deck_pptx import write_deck_pptx

    from PIL import Image

    movie, poster = tmp_path / "segment.mp4", tmp_path / "poster.png"
    movie.write_bytes(b"\0\0\0\x18ftypmp42")  # python-pptx embeds the bytes; nothing plays them here
    Image.new("RGB", (16, 9)).save(poster)
    notes = {}
    for language in ("en", "fr"):
        out = tmp_path / f"deck.{language}.pptx"
        write_deck_pptx(_slides(language), out, lambda path: poster if path.endswith(".png") else movie, language)
        notes[language] = [slide.notes_slide.notes_text_frame.text for slide in Presentation(str(out)).slides]
    assert notes["en"][0].splitlines() == ["en-voix", "Caption: en-légende-1", "en-titre, beat 1 of 2"]
    assert notes["fr"][0].splitlines() == ["fr-voix", "Légende\u00a0: fr-légende-1", "fr-titre, temps 1 sur 2"]


def test_a_message_the_catalog_lacks_fails_and_never_falls_back_to_english(monkeypatch, tmp_path):
    import gettext

    with pytest.raises(interface.MissingMessage, match="no 'fr' translation of the page's message 'Not a message'"):
        interface.text("Not a message", "fr")
    assert interface.text("Not a message", "en") == "Not a message"
    monkeypatch.setattr(interface, "_catalog", lambda language: gettext.NullTranslations())  # an empty catalog
    with pytest.raises(interface.MissingMessage, match="no 'fr' translation of the page's message"):
        write_page(_manifest(), tmp_path)
    with pytest.raises(interface.MissingMessage):
        render_deck_html(_slides("fr"), tmp_path, tmp_path, quality="low", narrated=False, language="fr")
    # English is the source: its words need no catalog
    assert "Full screen" in render_deck_html(_slides("en"), tmp_path, tmp_path, quality="low", narrated=False)


def test_the_templates_messages_are_extracted_as_babel_cfg_says_and_the_gate_reads_them_alike():
    """The gate reads babel.cfg itself: its templates' section, with the environment's block options, is there."""
    method_map, options_map = language_gate.mappings()
    assert ("rendering/site/**.j2", "jinja2") in method_map
    assert options_map["rendering/site/**.j2"] == {"encoding": "utf-8", "silent": "false", "trim_blocks": "true",
                                                   "lstrip_blocks": "true"}
    messages = language_gate.source_messages()
    for message, where in (("Step mode", "page_macros.html.j2"), ("End of beat {n} of {total}. Next: {next}",
                                                                   "page.html.j2"),
                           ("Full screen", "deck.html.j2"), (("{n} animated clip", "{n} animated clips"),
                                                             "page.html.j2")):
        assert where in messages[message], (message, messages[message])
    assert language_gate.catalog_problems("fr", messages) == []


@pytest.mark.browser
def test_step_mode_announces_in_french_on_the_french_page(tmp_path):
    from tests.test_page_browser import WAIT_MS, page_with_errors, served_browser
    from tests.test_render_language import _black_mp4

    manifest = _manifest()
    manifest["clips"] = [clip for clip in manifest["clips"] if clip["id"] == SCENES[1].id and not clip.get("described")]
    manifest.pop("films")
    for clip in manifest["clips"]:
        clip["files"] = {"mp4": clip["files"]["mp4"]}
        _black_mp4(tmp_path / clip["files"]["mp4"]["path"])
    write_page(manifest, tmp_path)
    figure = f"#clip-{SCENES[1].id}"
    status = f"{figure} .step-status"
    with served_browser(tmp_path) as (server, context):
        page, errors = page_with_errors(context)
        page.goto(server.url + "index.fr.html", wait_until="load")
        page.click(f"{figure} button.step-toggle")
        page.click(f"{figure} button.step-next")
        assert page.locator(status).inner_text() == "Temps 1 sur 2\u00a0: fr-premier"
        page.wait_for_function(f"() => document.querySelector('{status}').textContent.startsWith('Fin du temps')",
                               timeout=WAIT_MS)
        assert page.locator(status).inner_text() == "Fin du temps 1 sur 2. Ensuite\u00a0: fr-second"
        page.click(f"{figure} button.step-home")
        assert page.locator(status).inner_text() == "Retour au début. Ensuite\u00a0: fr-premier"
        page.goto(server.url + "index.html", wait_until="load")  # the English page still says it in English
        page.click(f"{figure} button.step-toggle")  # (each page remembers its own mode)
        page.click(f"{figure} button.step-next")
        assert page.locator(status).inner_text() == "Beat 1 of 2: en-premier"
        assert errors == []
