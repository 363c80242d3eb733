"""deck.html: the offline slide player, one slide per beat (Jinja2 template, autoescaped; our own player script).
Its own words (controls, labels, what the player announces) are messages in the deck's language (interface.py).

Everything is relative to the deck's folder (the segments under deck/, the player's script and stylesheet beside
them), so the deck works opened from disk and loads nothing from the network.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from urllib.parse import quote

import jinja2

from rendering.languages import N_
from rendering.site.interface import template_functions, text

ASSETS = Path(__file__).resolve().parent / "deck_assets"
#: The player's files, copied into the deck's folder under these names: the page's messages.js (pageText, which
#: fills the placeholders of the messages block, as on the page) before the player's script that uses it.
PLAYER_FILES = {"messages.js": ASSETS.parent / "page_assets" / "messages.js", "player.js": ASSETS / "player.js",
                "player.css": ASSETS / "player.css"}
VIDEO_TYPES = (("webm", "video/webm"), ("mp4", "video/mp4"))  # <source> order: the browser takes the first


def _environment(language: str) -> jinja2.Environment:
    """The deck's template, its _() speaking `language` (interface.py; babel.cfg extracts the messages)."""
    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(str(ASSETS)), autoescape=True,
                                     undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    environment.globals.update(template_functions(language))
    return environment


def _link(out_dir: Path, folder: Path, path: str) -> str:
    """A manifest path (relative to out_dir) as a URL relative to the deck's folder."""
    return quote(Path(os.path.relpath(out_dir / path, folder)).as_posix(), safe="/")


def render_deck_html(slides: list[dict], out_dir: Path, folder: Path, *, quality: str, narrated: bool,
                     language: str = "en") -> str:
    shown = []
    for number, slide in enumerate(slides, 1):
        files = slide["files"]
        shown.append({**slide, "number": number,
                      "sources": [(_link(out_dir, folder, files[fmt]["path"]), mime) for fmt, mime in VIDEO_TYPES
                                  if fmt in files],
                      "poster": _link(out_dir, folder, files["png"]["path"]) if "png" in files else None})
    title = text(N_("Attention from Scratch: the clips, beat by beat"), language)
    return _environment(language).get_template("deck.html.j2").render(
        title=title, slides=shown, quality=quality, narrated=narrated, assets="deck", lang=language)


def write_deck_html(slides: list[dict], out_dir: Path, folder: Path, work: Path, *, quality: str,
                    narrated: bool, language: str = "en") -> dict[Path, Path]:
    """deck.html (its text in `language`: the captions and narration of its slides) and the player's files in
    `work`; returns {destination: work path}."""
    made = {}
    html = work / "deck.html"
    html.write_text(render_deck_html(slides, out_dir, folder, quality=quality, narrated=narrated, language=language),
                    encoding="utf-8")
    made[folder / "deck.html"] = html
    for name, source in PLAYER_FILES.items():
        copy = work / name
        shutil.copyfile(source, copy)
        made[folder / "deck" / name] = copy
    return made
