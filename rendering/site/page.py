"""The offline HTML page: the post, with each clip embedded at its section, written next to the media.

`write_page(manifest, out_dir)` writes out_dir/index.html plus out_dir/page/ (stylesheet, formula SVGs). All
references are relative paths inside out_dir, so the page works opened from disk or from any static host, and it
loads nothing from the network. `embed_snippet(clip)` is the ready-to-paste <video> element for one clip.

Each clip plays its narrated rendering where the manifest has one for that quality (else the silent one), with
the narration's transcript collapsed under it; the manifest's film, when there is one, sits under the title with
its chapters.

Every clip and the film with beats in the manifest get a Step mode (page_assets/step.js): a switch beside the
player, remembered for the page, that pauses the video at the end of each beat, with Next / Previous / Start
buttons, the keys a presentation clicker sends, and a list of the beats by their first caption.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import math
import shutil
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from urllib.parse import quote

from rendering.atomic import write_text
from rendering.site.manifest_check import VIDEO_FORMATS, check_clip, check_relative_path, is_narrated, is_seconds
from rendering.site.math_svg import MathImage, MathRenderer
from rendering.site.players import Player, choose_film, group_players
from rendering.site.post_text import (Code, Diagram, DisplayMath, Heading, ListBlock, Paragraph, Post, Preformatted,
                                 Table, inline_parts, load_post)

ASSETS_DIR = Path(__file__).resolve().parent / "page_assets"
PAGE_DIR = "page"  # out_dir/page/: stylesheet and formula SVGs
REFERENCES_HEADING = "References"

# One inline script (quality chooser, film chapters), allowed by its hash in the page's CSP: no inline handlers.
_PAGE_SCRIPT = "\n".join((ASSETS_DIR / name).read_text(encoding="utf-8") for name in ("quality.js", "film.js",
                                                                                          "step.js"))


def embed_snippet(clip: Mapping) -> str:
    """A ready-to-paste <video> for one manifest entry: poster, WebM and MP4 sources, English captions."""
    return _video_element(clip, caption_url=_url)


def _video_element(clip: Mapping, caption_url: Callable[[str], str]) -> str:
    check_clip(clip)
    return _video_markup(clip["files"], clip["resolution"], clip["title"], caption_url)


def _video_markup(files: Mapping, resolution, label: str, caption_url: Callable[[str], str]) -> str:
    """The <video> of a clip or the film: poster, sources, captions and (the film's) chapters track."""
    width, height = resolution
    attributes = ['controls', 'preload="metadata"', 'playsinline', f'width="{int(width)}"', f'height="{int(height)}"']
    if "png" in files:
        attributes.append(f'poster="{_url(files["png"]["path"])}"')
    attributes.append(f'aria-label="{_escape(label)}"')
    lines = [f"<video {' '.join(attributes)}>"]
    for name, mime in VIDEO_FORMATS:
        if name in files:
            lines.append(f'  <source src="{_url(files[name]["path"])}" type="{mime}">')
    if "vtt" in files:
        captions = caption_url(files["vtt"]["path"])
        lines.append(f'  <track kind="captions" srclang="en" label="English" src="{captions}" default>')
    if "chapters_vtt" in files:
        chapters = caption_url(files["chapters_vtt"]["path"])
        lines.append(f'  <track kind="chapters" srclang="en" label="Chapters" src="{chapters}">')
    fallback = next(files[name]["path"] for name in ("mp4", "webm") if name in files)
    lines.append(f'  <p>Your browser cannot play this video. <a href="{_url(fallback)}">Download it</a>.</p>')
    lines.append("</video>")
    return "\n".join(lines)


def _inline_captions(out_dir: Path) -> Callable[[str], str]:
    """Captions as data: URLs read from out_dir: browsers refuse to load a <track> file from a page opened
    from disk (file: URLs are unique origins), and a data: URL is allowed everywhere. A missing file keeps
    its relative link."""
    def caption_url(path: str) -> str:
        check_relative_path(path, "captions")
        file = out_dir / path
        if not file.is_file():
            return _url(path)
        encoded = base64.b64encode(file.read_bytes()).decode("ascii")
        return f"data:text/vtt;charset=utf-8;base64,{encoded}"
    return caption_url


def write_page(manifest: Mapping, out_dir: Path) -> Path:
    """Write out_dir/index.html (atomically) and its assets under out_dir/page/; return the index path."""
    out_dir = Path(out_dir)
    players = group_players(manifest)
    film = choose_film(manifest)
    post = load_post()
    _check_sections(players, post)

    page_dir = out_dir / PAGE_DIR
    page_dir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(ASSETS_DIR / "page.css", page_dir / "page.css.tmp")
    (page_dir / "page.css.tmp").replace(page_dir / "page.css")
    renderer = MathRenderer(page_dir / "math", f"{PAGE_DIR}/math")
    document = render_document(post, players, renderer, _inline_captions(out_dir), film,
                               example=manifest.get("example"))
    renderer.remove_unused()

    index = out_dir / "index.html"
    write_text(index, document)
    return index


def _check_sections(players: Iterable[Player], post: Post) -> None:
    headings = [h.text for h in post.headings()]
    for player in players:
        if player.section not in headings:
            raise ValueError(f"clip {player.id!r}: section {player.section!r} is not a heading of the post; "
                             f"valid: {'; '.join(headings)}")


# ---------------------------------------------------------------- document


def render_document(post: Post, players: list[Player], renderer: MathRenderer,
                    caption_url: Callable[[str], str] | None = None, film: Mapping | None = None,
                    example: Mapping | None = None) -> str:
    caption_url = caption_url or _url
    by_section: dict[str, list[Player]] = {}
    for player in players:
        by_section.setdefault(player.section, []).append(player)
    body: list[str] = []
    pending: list[Player] = []  # the clips of the section being written, placed before its next heading
    numbers = {player.id: n for n, player in enumerate(players, 1)}
    reference_ids = _reference_numbers(post)
    previous = None
    for block in post.blocks:
        if isinstance(block, Heading):
            body.extend(_figure(p, numbers[p.id], caption_url) for p in pending)
            pending = list(by_section.get(block.text, []))
            body.append(f'<h{block.level} id="{_escape(block.slug)}">{_escape(block.text)}</h{block.level}>')
        else:
            is_references = isinstance(previous, Heading) and previous.text == REFERENCES_HEADING
            body.append(_block(block, renderer, reference_ids, is_references))
        previous = block
    body.extend(_figure(p, numbers[p.id], caption_url) for p in pending)

    script = _PAGE_SCRIPT
    script_hash = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    policy = ("default-src 'none'; img-src 'self' data:; media-src 'self' data:; style-src 'self' 'unsafe-inline'; "
              f"script-src 'sha256-{script_hash}'; base-uri 'none'; form-action 'none'")
    count = len(players)
    summary = f"{count} animated clip{'s' if count != 1 else ''}" if count else "no clips rendered yet"
    if film is not None:
        summary += f", and all of them as one film ({_duration_text(film['duration'])})"
    if isinstance(example, Mapping) and isinstance(example.get("name"), str):
        about = f": {example['description']}" if example.get("description") else ""
        summary += _escape(f", computed from the example “{example['name']}”{about} (the text keeps the post's "
                           "own numbers)")
    return "\n".join([
        "<!doctype html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="color-scheme" content="light dark">',
        f'<meta http-equiv="Content-Security-Policy" content="{policy}">',
        f"<title>{_escape(post.title)}</title>",
        '<link rel="icon" href="data:,">',
        f'<link rel="stylesheet" href="{PAGE_DIR}/page.css">',
        "</head>",
        "<body>",
        '<main class="post">',
        "<header>",
        f"<h1>{_escape(post.title)}</h1>",
        f'<p class="byline">The post with {summary}. Everything on this page is local: it works offline.</p>',
        "</header>",
        *([_film_figure(film, caption_url)] if film is not None else []),
        *body,
        "</main>",
        '<footer class="colophon"><p>Clips animated with Manim; formulas typeset with Typst when the page was '
        "built.</p></footer>",
        f"<script>{script}</script>",
        "</body>",
        "</html>",
        "",
    ])


def _block(block, renderer: MathRenderer, reference_ids: set[int], is_references: bool) -> str:
    if isinstance(block, Paragraph):
        return f"<p>{_inline(block.text, renderer, reference_ids)}</p>"
    if isinstance(block, ListBlock):
        tag = "ol" if block.ordered else "ul"
        items = []
        for n, item in enumerate(block.items, 1):
            anchor = f' id="ref-{n}"' if is_references else ""
            items.append(f"<li{anchor}>{_inline(item, renderer, reference_ids)}</li>")
        css = ' class="references"' if is_references else ""
        return f"<{tag}{css}>\n" + "\n".join(items) + f"\n</{tag}>"
    if isinstance(block, Table):
        header, *rows = block.rows
        head = "".join(f'<th scope="col">{_inline(c, renderer, reference_ids)}</th>' for c in header)
        body = "\n".join("<tr>" + "".join(f"<td>{_inline(c, renderer, reference_ids)}</td>" for c in row)
                         + "</tr>" for row in rows)
        return (f'<div class="table-wrap"><table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>\n'
                "</table></div>")
    if isinstance(block, Code):
        return f'<pre class="code"><code class="language-python">{_escape(block.text)}</code></pre>'
    if isinstance(block, Preformatted):
        return f'<pre class="text-figure">{_escape(block.text)}</pre>'
    if isinstance(block, DisplayMath):
        return f'<div class="display-math">{_math_img(renderer.render(block.latex, display=True))}</div>'
    if isinstance(block, Diagram):
        summary = ("Diagram source (Mermaid, as in the original post)" if block.mermaid
                   else "Diagram text (its boxes, as copied from the original post)")
        return (f'<details class="diagram"><summary>{summary}</summary>'
                f"<pre>{_escape(block.text)}</pre></details>")
    raise ValueError(f"no HTML for block {type(block).__name__}")


def _inline(text: str, renderer: MathRenderer, reference_ids: set[int]) -> str:
    out = []
    for kind, value in inline_parts(text):
        if kind == "text":
            out.append(_escape(value))
        elif kind == "math":
            out.append(_math_img(renderer.render(value, display=False)))
        elif kind == "code":
            out.append(f"<code>{_escape(value)}</code>")
        elif int(value) in reference_ids:
            out.append(f'<a class="cite" href="#ref-{int(value)}">[{int(value)}]</a>')
        else:
            out.append(_escape(f"[{value}]"))
    return "".join(out)


def _math_img(image: MathImage) -> str:
    style = f"width:{image.em(image.width_pt)};height:{image.em(image.height_pt)}"
    if not image.display:
        style += f";vertical-align:-{image.em(image.depth_pt)}"
    css = "math display" if image.display else "math"
    return f'<img class="{css}" src="{_url(image.path)}" alt="{_escape(image.latex)}" style="{style}">'


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


def _beat_attributes(entry: Mapping) -> str:
    """data-beats and data-fps for Step mode, on the figure (its default rendering) and each quality option."""
    times = beat_times(entry)
    if not times:
        return ""
    return (f' data-beats="{_escape(json.dumps(times, separators=(",", ":")))}"'
            f' data-fps="{_escape(float(entry["fps"]))}"')


def _step_panel(entry: Mapping, label: str) -> list[str]:
    """The Step switch, its buttons, the beat list (first captions) and the live region that announces beats."""
    beats = [beat for beat in entry.get("beats", []) if isinstance(beat, Mapping)]
    if not beat_times(entry):
        return []
    items = []
    for n, beat in enumerate(beats, 1):
        caption = str(beat.get("caption", f"Beat {n}"))
        items.append(f'      <li><button type="button" data-beat="{n - 1}" data-caption="{_escape(caption)}">'
                     f'<span class="beat-number">{n}.</span> {_escape(caption)}</button></li>')
    name = _escape(label)
    return [
        f'  <div class="step" role="group" aria-label="Step through {name} beat by beat">',
        f'    <button type="button" class="step-toggle" aria-pressed="false">Step mode</button>',
        '    <span class="step-only step-buttons" hidden>',
        '      <button type="button" class="step-home" aria-label="Back to the start (Home)">&#8676; Start</button>',
        '      <button type="button" class="step-prev" aria-label="Replay the previous beat (Left arrow, Page Up)">'
        "&#8592; Previous</button>",
        '      <button type="button" class="step-next" aria-label="Play the next beat (Right arrow, Space, Page Down)">'
        "Next &#8594;</button>",
        "    </span>",
        '    <p class="step-status" aria-live="polite" role="status"></p>',
        f'    <ol class="step-only beats" aria-label="Beats of {name}" hidden>',
        *items,
        "    </ol>",
        "  </div>",
    ]


def _figure(player: Player, number: int, caption_url: Callable[[str], str]) -> str:
    chosen = player.default
    snippet = _video_element(chosen, caption_url)
    indented = "\n".join("  " + line for line in snippet.splitlines())
    return "\n".join([
        f'<figure class="clip" id="clip-{_escape(player.id)}"{_beat_attributes(chosen)}>',
        indented,
        "  <figcaption>",
        f'    <span class="clip-title"><span class="clip-number">Clip {number}.</span> '
        f"{_escape(player.title)}</span>",
        f'    <span class="clip-controls">{_quality_control(player, chosen, caption_url)}'
        f"{_download_links(player, chosen)}</span>",
        "  </figcaption>",
        *_step_panel(chosen, player.title),
        *_transcript(player, chosen),
        "</figure>",
    ])


def _transcript(player: Player, chosen: Mapping) -> list[str]:
    """The narration as text, collapsed: for readers who cannot or would rather not listen. Hidden (by the
    quality chooser) while a quality without narration plays."""
    beats = [beat["text"] for beat in player.transcript if beat["text"].strip()]
    if not beats:
        return []
    hidden = "" if is_narrated(chosen) else " hidden"
    return [f'  <details class="transcript"{hidden}>',
            "    <summary>Transcript of the narration</summary>",
            *(f"    <p>{_escape(text)}</p>" for text in beats),
            "  </details>"]


def _film_figure(film: Mapping, caption_url: Callable[[str], str]) -> str:
    """The whole film under the title: player with captions and chapters track, and a chapter list that seeks
    it (page_assets/film.js), since browsers show no chapter menu of their own."""
    files = film["files"]
    title = "All the clips as one film" + (", narrated" if is_narrated(film) else "")
    snippet = _video_markup(files, film["resolution"], title, caption_url)
    chapters = []
    for chapter in film["chapters"]:
        start = float(chapter["start"])
        chapters.append(f'      <li><button type="button" class="chapter" data-start="{start:.3f}">'
                        f'<span class="chapter-time">{_duration_text(start)}</span> '
                        f"{_escape(chapter['title'])}</button></li>")
    links = [f'<a data-format="{name}" href="{_url(files[name]["path"])}" download>{label}</a>'
             for name, label in (("mp4", "MP4"), ("webm", "WebM")) if name in files]
    if "chapters_txt" in files:
        links.append(f'<a class="chapter-list" href="{_url(files["chapters_txt"]["path"])}">chapter list</a>')
    return "\n".join([
        f'<figure class="film" id="film"{_beat_attributes(film)}>',
        "\n".join("  " + line for line in snippet.splitlines()),
        "  <figcaption>",
        f'    <span class="clip-title">{_escape(title)}</span>',
        f'    <span class="clip-controls"><span class="quality-single">{_escape(quality_label(film))} · '
        f'{_duration_text(film["duration"])}</span> '
        + (f'<span class="downloads">Download {" ".join(links)}</span>' if links else "") + "</span>",
        "  </figcaption>",
        *(['  <nav class="chapters" aria-label="Chapters of the film">', "    <ol>", *chapters, "    </ol>",
           "  </nav>"] if chapters else []),
        *_step_panel(film, "the film"),
        "</figure>",
    ])


def quality_label(clip: Mapping) -> str:
    width, height = clip["resolution"]
    fps = float(clip["fps"])  # render.py measures it: 15.000741 is "15 fps" to a reader
    fps_text = str(round(fps)) if math.isfinite(fps) and abs(fps - round(fps)) < 0.01 else f"{fps:.2f}"
    return f"{int(height)}p · {fps_text} fps"


def _quality_control(player: Player, chosen: Mapping, caption_url: Callable[[str], str]) -> str:
    duration = _duration_text(chosen["duration"])
    if len(player.variants) == 1:
        return f'<span class="quality-single">{_escape(quality_label(chosen))} · {duration}</span> '
    mixed = any(is_narrated(v) for v in player.variants)  # then say which qualities have no voice
    options = []
    for variant in player.variants:
        files = variant["files"]
        data = [f'data-{name}="{_url(files[name]["path"])}"' for name in ("webm", "mp4", "gif", "png")
                if name in files]
        if "vtt" in files:
            data.append(f'data-vtt="{caption_url(files["vtt"]["path"])}"')
        width, height = variant["resolution"]
        data += [f'data-width="{int(width)}"', f'data-height="{int(height)}"',
                 f'data-duration="{float(variant["duration"]):.3f}"',
                 f'data-narrated="{"true" if is_narrated(variant) else "false"}"']
        if beat_times(variant):
            data.append(_beat_attributes(variant).strip())
        selected = " selected" if variant is chosen else ""
        label = quality_label(variant) + (" · silent" if mixed and not is_narrated(variant) else "")
        options.append(f'<option value="{_escape(variant["quality"])}" {" ".join(data)}{selected}>'
                       f"{_escape(label)}</option>")
    return (f'<label class="quality">Quality <select class="quality" aria-label="Video quality for '
            f'{_escape(player.title)}">{"".join(options)}</select></label> <span class="duration">{duration}'
            "</span> ")


def _download_links(player: Player, chosen: Mapping) -> str:
    """Links for every format any quality has; the chooser hides those the chosen quality lacks."""
    present = {name for variant in player.variants for name in variant["files"]}
    links = []
    for name, label in (("mp4", "MP4"), ("webm", "WebM"), ("gif", "GIF")):
        if name not in present:
            continue
        path = chosen["files"].get(name, {}).get("path")
        target = f'href="{_url(path)}"' if path else "hidden"
        links.append(f'<a data-format="{name}" {target} download>{label}</a>')
    return f'<span class="downloads">Download {" ".join(links)}</span>' if links else ""


def _duration_text(seconds: float) -> str:
    total = max(0, math.floor(float(seconds)))  # as the player's own clock shows it
    return f"{total // 60}:{total % 60:02d}"


def _url(path: str) -> str:
    """A relative path as an attribute value: percent-encoded (spaces, '#', '?') and HTML-escaped."""
    check_relative_path(path, "link")
    return _escape(quote(path, safe="/"))


def _escape(text: object) -> str:
    return html.escape(str(text), quote=True)
