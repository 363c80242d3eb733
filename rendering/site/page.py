"""The offline HTML page: the post, with each clip embedded at its section, written next to the media.

`write_page(manifest, out_dir)` writes out_dir/index.html plus out_dir/page/ (stylesheet, formula SVGs). All
references are relative paths inside out_dir, so the page works opened from disk or from any static host, and it
loads nothing from the network. `embed_snippet(clip)` is the ready-to-paste <video> element for one clip.

Each clip plays its narrated rendering where the manifest has one for that quality (else the silent one), with
the narration's transcript collapsed under it; the manifest's film, when there is one, sits under the title with
its chapters.

Clips in another language than English (render.py --language fr) get a page of their own, out_dir/index.fr.html,
with the post in that language (post_text.load_post_in) and the clips in it; each clip sits under the heading at
the same place in the translated post as its section in the English one. When a page in another language is
written, every page carries a language switch (English / Français) that opens the other page at the same clip,
beat and point in the beat (page_assets/language.js), playing if it was.

Every clip and the film with beats in the manifest get a Step mode (page_assets/step.js): a switch beside the
player, remembered for the page, that pauses the video at the end of each beat, with Next / Previous / Start
buttons, the keys a presentation clicker sends, and a list of the beats by their first caption.

The markup is in Jinja2 templates (page_assets/page.html.j2 and page_macros.html.j2), autoescaped: this module
only works out the values. The page's own words are messages in the page's language (interface.py): the templates
mark theirs with _() and n_(), and hand the scripts theirs in a JSON block (#page-messages). Which entries are
accepted is manifest_check.py's job, which rendering plays players.py's.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import math
import shutil
from functools import lru_cache
from dataclasses import replace
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from urllib.parse import quote

import jinja2
from markupsafe import Markup

from rendering.atomic import write_text
from rendering.languages import DEFAULT_LANGUAGE, LANGUAGES, NAMES, N_, translation
from rendering.site.interface import number, template_functions, text
from rendering.site.manifest_check import (
    VIDEO_FORMATS, check_clip, check_relative_path, is_described, is_narrated, is_seconds,
)
from rendering.site.math_svg import MathImage, MathRenderer, default_cache_dir
from rendering.site.players import Player, choose_film, group_players
from rendering.site.post_text import (Code, Diagram, DisplayMath, Heading, ListBlock, Paragraph, Post, Preformatted,
                                      Table, inline_parts, load_post_in)

ASSETS_DIR = Path(__file__).resolve().parent / "page_assets"
PAGE_DIR = "page"  # out_dir/page/: stylesheet and formula SVGs
REFERENCES_HEADING = "References"

# One inline script (the page's messages, quality chooser, film chapters, step mode, captions under the player,
# language switch), allowed by its hash in the page's CSP: no inline handlers. (The messages' JSON block is data,
# which a CSP does not run.)
_SCRIPTS = ("messages.js", "quality.js", "film.js", "step.js", "captions.js", "language.js")
_PAGE_SCRIPT = "\n".join((ASSETS_DIR / name).read_text(encoding="utf-8") for name in _SCRIPTS)


def _escaped(value: object) -> Markup:
    """Every {{ value }} of the templates, escaped as html.escape does (quotes as &quot; and &#x27;, the page's
    spelling since its first version); markup the templates made (Markup) passes as it is."""
    return value if isinstance(value, Markup) else Markup(html.escape(str(value), quote=True))


@lru_cache(maxsize=None)
def _templates(language: str) -> jinja2.Environment:
    """The page's templates, their _() and n_() speaking `language` (babel.cfg extracts the messages)."""
    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(str(ASSETS_DIR)), autoescape=True,
                                     undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                                     keep_trailing_newline=True, finalize=_escaped)
    environment.globals.update(template_functions(language))
    return environment


def _macros(language: str = DEFAULT_LANGUAGE):
    return _templates(language).get_template("page_macros.html.j2").module


def embed_snippet(clip: Mapping) -> str:
    """A ready-to-paste <video> for one manifest entry: poster, WebM and MP4 sources, captions in its language."""
    check_clip(clip)
    language = _language(clip)
    return str(_macros(language).video(_video(clip["files"], clip["resolution"], clip["title"], _href, language)))


def _language(entry: Mapping) -> str:
    return entry.get("language", DEFAULT_LANGUAGE)  # entries from before there were languages are English


def _video(files: Mapping, resolution, label: str, caption_url: Callable[[str], str],
           language: str = DEFAULT_LANGUAGE) -> dict:
    """The <video> of a clip or the film: poster, sources, captions (in `language`) and (the film's) chapters."""
    width, height = resolution
    return {
        "width": int(width), "height": int(height), "label": label, "lang": language,
        "lang_name": NAMES.get(language, language),
        "poster": _href(files["png"]["path"]) if "png" in files else None,
        "sources": [(_href(files[name]["path"]), mime) for name, mime in VIDEO_FORMATS if name in files],
        "captions": caption_url(files["vtt"]["path"]) if "vtt" in files else None,
        "chapters": caption_url(files["chapters_vtt"]["path"]) if "chapters_vtt" in files else None,
        "fallback": _href(next(files[name]["path"] for name in ("mp4", "webm") if name in files)),
    }


def _inline_captions(out_dir: Path) -> Callable[[str], str]:
    """Captions as data: URLs read from out_dir: browsers refuse to load a <track> file from a page opened
    from disk (file: URLs are unique origins), and a data: URL is allowed everywhere. A missing file keeps
    its relative link."""
    def caption_url(path: str) -> str:
        check_relative_path(path, "captions")
        file = out_dir / path
        if not file.is_file():
            return _href(path)
        encoded = base64.b64encode(file.read_bytes()).decode("ascii")
        return f"data:text/vtt;charset=utf-8;base64,{encoded}"
    return caption_url


def page_file(language: str) -> str:
    """The page's file name in `language`: index.html for English (as always), index.fr.html beside it."""
    return "index.html" if language == DEFAULT_LANGUAGE else f"index.{language}.html"


def page_languages(manifest: Mapping) -> list[str]:
    """The languages the page is written in: English always, and each other language any clip or film is in."""
    entries = list(manifest.get("clips") or []) + list(manifest.get("films") or [])
    present = {_language(entry) for entry in entries if isinstance(entry, Mapping)}
    return [language for language in LANGUAGES if language == DEFAULT_LANGUAGE or language in present]


def in_language(manifest: Mapping, language: str) -> dict:
    """The manifest's clips and films in `language` only (a page plays one language)."""
    return {**manifest, **{key: [entry for entry in manifest[key] if not isinstance(entry, Mapping)
                                 or _language(entry) == language]
                           for key in ("clips", "films") if isinstance(manifest.get(key), list)}}


def write_page(manifest: Mapping, out_dir: Path) -> Path:
    """Write out_dir/index.html (atomically), a page per other language the clips are in (index.fr.html), and
    their assets under out_dir/page/; return the English index's path."""
    out_dir = Path(out_dir)
    languages = page_languages(manifest)
    english = load_post_in(DEFAULT_LANGUAGE)
    pages = {}
    for language in languages:
        players = group_players(in_language(manifest, language))
        _check_sections(players, english)
        post = english if language == DEFAULT_LANGUAGE else load_post_in(language)
        pages[language] = (post, _translated_sections(players, english, post), choose_film(in_language(manifest,
                                                                                                        language)))

    page_dir = out_dir / PAGE_DIR
    page_dir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(ASSETS_DIR / "page.css", page_dir / "page.css.tmp")
    (page_dir / "page.css.tmp").replace(page_dir / "page.css")
    renderer = MathRenderer(page_dir / "math", f"{PAGE_DIR}/math", cache=default_cache_dir())
    for language, (post, players, film) in pages.items():
        switch = _language_switch(languages, language) if len(languages) > 1 else []
        document = render_document(post, players, renderer, _inline_captions(out_dir), film,
                                   example=manifest.get("example"), language=language, switch=switch)
        write_text(out_dir / page_file(language), document)
    renderer.remove_unused()
    for language in LANGUAGES:  # a page in a language no clip is in any more
        if language not in pages:
            (out_dir / page_file(language)).unlink(missing_ok=True)
    return out_dir / page_file(DEFAULT_LANGUAGE)


def _translated_sections(players: list[Player], english: Post, post: Post) -> list[Player]:
    """The players with each section named by the heading at its place in `post` (a translation keeps the English
    post's blocks in order, so its n-th heading is the English n-th)."""
    if post is english:
        return players
    headings = dict(zip((h.text for h in english.headings()), (h.text for h in post.headings())))
    return [replace(player, section=headings[player.section]) for player in players]


def _language_switch(languages: list[str], current: str) -> list[dict]:
    """The links of the language switch: each language by its own name, the page's own marked current."""
    return [{"code": language, "name": NAMES.get(language, language), "href": page_file(language),
             "current": language == current} for language in languages]


def _check_sections(players: Iterable[Player], post: Post) -> None:
    headings = [h.text for h in post.headings()]
    for player in players:
        if player.section not in headings:
            raise ValueError(f"clip {player.id!r}: section {player.section!r} is not a heading of the post; "
                             f"valid: {'; '.join(headings)}")


# ---------------------------------------------------------------- document


def render_document(post: Post, players: list[Player], renderer: MathRenderer,
                    caption_url: Callable[[str], str] | None = None, film: Mapping | None = None,
                    example: Mapping | None = None, language: str = DEFAULT_LANGUAGE,
                    switch: list[dict] | None = None) -> str:
    caption_url = caption_url or _href
    script = _PAGE_SCRIPT
    script_hash = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    policy = ("default-src 'none'; img-src 'self' data:; media-src 'self' data:; style-src 'self' 'unsafe-inline'; "
              f"script-src 'sha256-{script_hash}'; base-uri 'none'; form-action 'none'")
    return _templates(language).get_template("page.html.j2").render(
        title=post.title, lang=language, switch=switch or [], policy=Markup(policy), page_dir=PAGE_DIR,
        summary=_summary(players, film, example, language),
        film=_film(film, caption_url, language) if film is not None else None,
        body=_body(post, players, renderer, caption_url, language), script=Markup(script))  # our own text, quotes kept


def _summary(players: list[Player], film: Mapping | None, example: Mapping | None, language: str) -> dict:
    """What the byline says (page.html.j2 words it): how many clips, the film's length, the example's name (in the
    language's quotation marks) and description."""
    named = isinstance(example, Mapping) and isinstance(example.get("name"), str)
    return {"count": len(players), "film": _duration_text(film["duration"]) if film is not None else None,
            "example": translation.quoted(example["name"], language) if named else None,  # “tiny”, « tiny »
            "description": (example.get("description") or None) if named else None}


def _body(post: Post, players: list[Player], renderer: MathRenderer, caption_url, language: str) -> list[dict]:
    """The post's blocks in order, each section's clips placed before the next heading."""
    by_section: dict[str, list[Player]] = {}
    for player in players:
        by_section.setdefault(player.section, []).append(player)
    numbers = {player.id: n for n, player in enumerate(players, 1)}
    reference_ids = _reference_numbers(post)
    body: list[dict] = []
    pending: list[Player] = []  # the clips of the section being written, placed before its next heading
    previous = None
    for block in post.blocks:
        if isinstance(block, Heading):
            body.extend(_figure(p, numbers[p.id], caption_url, language) for p in pending)
            pending = list(by_section.get(block.text, []))
            body.append({"kind": "heading", "level": block.level, "slug": block.slug, "text": block.text})
        else:
            is_references = isinstance(previous, Heading) and previous.text == REFERENCES_HEADING
            body.append(_block(block, renderer, reference_ids, is_references, language))
        previous = block
    body.extend(_figure(p, numbers[p.id], caption_url, language) for p in pending)
    return body


def _block(block, renderer: MathRenderer, reference_ids: set[int], is_references: bool,
           language: str = DEFAULT_LANGUAGE) -> dict:
    def inline(text: str) -> list:
        return _inline(text, renderer, reference_ids)

    if isinstance(block, Paragraph):
        return {"kind": "paragraph", "parts": inline(block.text)}
    if isinstance(block, ListBlock):
        return {"kind": "list", "tag": "ol" if block.ordered else "ul", "references": is_references,
                "entries": [inline(item) for item in block.items]}
    if isinstance(block, Table):
        header, *rows = block.rows
        return {"kind": "table", "header": [inline(cell) for cell in header],
                "rows": [[inline(cell) for cell in row] for row in rows]}
    if isinstance(block, Code):
        return {"kind": "code", "text": block.text}
    if isinstance(block, Preformatted):
        return {"kind": "preformatted", "text": block.text}
    if isinstance(block, DisplayMath):
        return {"kind": "display_math", "image": _math_image(renderer.render(block.latex, display=True))}
    if isinstance(block, Diagram):
        summary = text(N_("Diagram source (Mermaid, as in the original post)") if block.mermaid
                       else N_("Diagram text (its boxes, as copied from the original post)"), language)
        return {"kind": "diagram", "summary": summary, "text": block.text}
    raise ValueError(f"no HTML for block {type(block).__name__}")


def _inline(text: str, renderer: MathRenderer, reference_ids: set[int]) -> list[tuple[str, object]]:
    """(kind, value) parts: text, math (an image), code, or cite (a reference number the list has)."""
    out = []
    for kind, value in inline_parts(text):
        if kind == "math":
            out.append(("math", _math_image(renderer.render(value, display=False))))
        elif kind in ("text", "code"):
            out.append((kind, value))
        elif int(value) in reference_ids:
            out.append(("cite", int(value)))
        else:
            out.append(("text", f"[{value}]"))
    return out


def _math_image(image: MathImage) -> dict:
    style = f"width:{image.em(image.width_pt)};height:{image.em(image.height_pt)}"
    if not image.display:
        style += f";vertical-align:-{image.em(image.depth_pt)}"
    return {"display": image.display, "src": _href(image.path), "latex": image.latex, "style": style}


def _reference_numbers(post: Post) -> set[int]:
    blocks = list(post.blocks)
    for i, block in enumerate(blocks[:-1]):
        if isinstance(block, Heading) and block.text == REFERENCES_HEADING and isinstance(blocks[i + 1], ListBlock):
            return set(range(1, len(blocks[i + 1].items) + 1))
    return set()


# ---------------------------------------------------------------- players


def beat_times(entry: Mapping) -> list[list[float]]:
    """[[start, end], ...] seconds of each beat of a clip or the film; [] without beats (older manifests)."""
    return [[float(beat["start"]), float(beat["end"])] for beat in entry.get("beats", [])
            if isinstance(beat, Mapping) and is_seconds(beat.get("start")) and is_seconds(beat.get("end"))]


def _step(entry: Mapping, label: str, language: str = DEFAULT_LANGUAGE, film: bool = False) -> dict | None:
    """Step mode's values: data-beats and data-fps, the beats' first captions, and what the panel is named by
    (`label`, a clip's title; or `film`); None without beats."""
    times = beat_times(entry)
    if not times:
        return None
    beats = [beat for beat in entry.get("beats", []) if isinstance(beat, Mapping)]
    return {"beats": json.dumps(times, separators=(",", ":")), "fps": float(entry["fps"]), "label": label,
            "film": film, "captions": [str(beat["caption"]) if "caption" in beat else
                                       text(N_("Beat {n}"), language, n=n) for n, beat in enumerate(beats, 1)]}


def _figure(player: Player, number: int, caption_url: Callable[[str], str], language: str) -> dict:
    chosen = player.default
    check_clip(chosen)
    mixed = any(is_narrated(v) for v in player.variants)  # then say which qualities have no voice
    return {
        "kind": "figure", "id": player.id, "number": number, "title": player.title,
        "video": _video(chosen["files"], chosen["resolution"], chosen["title"], caption_url, _language(chosen)),
        "step": _step(chosen, player.title, language), "quality_label": quality_label(chosen, language),
        "duration": _duration_text(chosen["duration"]),
        "options": [_option(variant, variant is chosen, mixed, caption_url, language, player.portrait_of(variant))
                    for variant in player.variants]
                   + [_option(variant, False, mixed, caption_url, language) for variant in player.described],
        "portrait": any(player.portrait_of(variant) for variant in player.variants),
        "downloads": _download_links(player, chosen),
        # The narration as text, collapsed, for readers who cannot or would rather not listen; hidden (by the
        # quality chooser) while a quality without narration plays.
        "transcript": [line for beat in player.transcript for line in _transcript_lines(beat, language)],
        "transcript_hidden": not is_narrated(chosen),
        "described": bool(player.described),
    }


def _transcript_lines(beat: Mapping, language: str) -> list[str]:
    """A beat's narration, then (a described clip) what its audio descriptions said, each marked as one."""
    lines = [beat["text"]] if beat["text"].strip() else []
    return lines + [text(N_("[Description] {text}"), language, text=said) for said in beat.get("descriptions", [])]


def _option(variant: Mapping, selected: bool, mixed: bool, caption_url: Callable[[str], str], language: str,
            portrait: Mapping | None = None) -> dict:
    """One quality in the chooser, with what the player needs to switch to it; with `portrait`, that quality's
    portrait rendering too (data-alt-*), which quality.js swaps in on a narrow or upright screen."""
    option = _rendering(variant, caption_url, language)
    label = quality_label(variant, language)
    if is_described(variant):
        label = text(N_("{quality} · audio described"), language, quality=label)
    elif mixed and not is_narrated(variant):
        label = text(N_("{quality} · silent"), language, quality=label)
    option.update(quality=variant["quality"], selected=selected, label=label,
                  alt=_rendering(portrait, caption_url, language) if portrait is not None else None)
    if portrait is not None:
        width, height = portrait["resolution"]
        option["alt"]["label"] = text(N_("{height}p portrait · {fps} fps"), language,
                                      height=min(int(width), int(height)), fps=_fps_text(portrait, language))
    return option


def _rendering(variant: Mapping, caption_url: Callable[[str], str], language: str) -> dict:
    """What a player needs to play one rendering: its files, captions, size, length, voice and beats."""
    files = variant["files"]
    width, height = variant["resolution"]
    return {
        "files": [(name, _href(files[name]["path"])) for name in ("webm", "mp4", "gif", "png") if name in files],
        "vtt": caption_url(files["vtt"]["path"]) if "vtt" in files else None,
        "descriptions": caption_url(files["descriptions_vtt"]["path"]) if "descriptions_vtt" in files else None,
        "width": int(width), "height": int(height), "duration": f"{float(variant['duration']):.3f}",
        "narrated": "true" if is_narrated(variant) else "false", "step": _step(variant, "", language),
    }


def _film(film: Mapping, caption_url: Callable[[str], str], language: str) -> dict:
    """The whole film under the title: player with captions and chapters track, and a chapter list that seeks
    it (page_assets/film.js), since browsers show no chapter menu of their own."""
    files = film["files"]
    title = text(N_("All the clips as one film, narrated") if is_narrated(film) else N_("All the clips as one film"),
                 _language(film))
    links = [{"format": name, "href": _href(files[name]["path"]), "label": label, "chapter_list": False}
             for name, label in (("mp4", "MP4"), ("webm", "WebM")) if name in files]
    if "chapters_txt" in files:
        links.append({"chapter_list": True, "href": _href(files["chapters_txt"]["path"]),
                      "label": text(N_("chapter list"), language)})
    return {
        "title": title, "video": _video(files, film["resolution"], title, caption_url, _language(film)),
        "quality_label": quality_label(film, language), "duration": _duration_text(film["duration"]),
        "downloads": links,
        "chapters": [{"start": f"{float(chapter['start']):.3f}", "time": _duration_text(float(chapter["start"])),
                      "title": chapter["title"]} for chapter in film["chapters"]],
        "step": _step(film, "", language, film=True),
    }


def quality_label(clip: Mapping, language: str = DEFAULT_LANGUAGE) -> str:
    _width, height = clip["resolution"]
    return text(N_("{height}p · {fps} fps"), language, height=int(height), fps=_fps_text(clip, language))


def _fps_text(clip: Mapping, language: str) -> str:
    fps = float(clip["fps"])  # render.py measures it: 15.000741 is "15 fps" to a reader
    return str(round(fps)) if math.isfinite(fps) and abs(fps - round(fps)) < 0.01 else number(fps, language, 2)


def _download_links(player: Player, chosen: Mapping) -> list[dict]:
    """Links for every format any quality has; the chooser hides those the chosen quality lacks (no href)."""
    present = {name for variant in player.variants for name in variant["files"]}
    links = []
    for name, label in (("mp4", "MP4"), ("webm", "WebM"), ("gif", "GIF")):
        if name in present:
            path = chosen["files"].get(name, {}).get("path")
            links.append({"format": name, "href": _href(path) if path else None, "label": label,
                          "chapter_list": False})
    return links


def _duration_text(seconds: float) -> str:
    total = max(0, math.floor(float(seconds)))  # as the player's own clock shows it
    return f"{total // 60}:{total % 60:02d}"


def _href(path: str) -> str:
    """A relative path as a URL: percent-encoded (spaces, '#', '?'); the template escapes it."""
    check_relative_path(path, "link")
    return quote(path, safe="/")
