"""deck.pptx: the deck for PowerPoint and LibreOffice Impress, one slide per beat (python-pptx, the slides extra).

Each slide: the caption as its title, the beat's mp4 segment as a movie (H.264 with AAC sound, what PowerPoint
plays) showing the beat's poster until it is clicked, and the narration, then the caption, as speaker notes (their
labels in the deck's language: interface.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from rendering.languages import DEFAULT_LANGUAGE, N_
from rendering.site.interface import text

SLIDE_WIDTH_IN, SLIDE_HEIGHT_IN = 13.333, 7.5  # 16:9, PowerPoint's default widescreen
TITLE_HEIGHT_IN = 1.3
MARGIN_IN = 0.3
TITLE_ONLY_LAYOUT = 5  # in python-pptx's default template


def write_deck_pptx(slides: list[dict], out: Path, source_of: Callable[[str], Path],
                    language: str = DEFAULT_LANGUAGE) -> None:
    """`source_of(path)` is where the file the manifest calls `path` is now (in the work folder or installed)."""
    from pptx import Presentation
    from pptx.util import Inches, Pt

    deck = Presentation()
    deck.slide_width, deck.slide_height = Inches(SLIDE_WIDTH_IN), Inches(SLIDE_HEIGHT_IN)
    layout = deck.slide_layouts[TITLE_ONLY_LAYOUT]
    for slide_info in slides:
        slide = deck.slides.add_slide(layout)
        title = slide.shapes.title
        title.left, title.top = Inches(MARGIN_IN), Inches(MARGIN_IN / 2)
        title.width, title.height = Inches(SLIDE_WIDTH_IN - 2 * MARGIN_IN), Inches(TITLE_HEIGHT_IN)
        title.text = slide_info["caption"]
        for paragraph in title.text_frame.paragraphs:
            for run in paragraph.runs:
                run.font.size = Pt(24 if len(slide_info["caption"]) < 90 else 18)
        width, height = _movie_box(slide_info)
        left = Inches((SLIDE_WIDTH_IN - width) / 2)
        top = Inches(TITLE_HEIGHT_IN + MARGIN_IN / 2)
        files = slide_info["files"]
        poster = str(source_of(files["png"]["path"])) if "png" in files else None
        movie = slide.shapes.add_movie(str(source_of(files["mp4"]["path"])), left, top, Inches(width),
                                       Inches(height), poster_frame_image=poster, mime_type="video/mp4")
        movie.name = f"{slide_info['clip']} {slide_info['beat']}"
        notes = slide.notes_slide.notes_text_frame
        notes.text = slide_info["narration"]
        notes.add_paragraph().text = text(N_("Caption: {caption}"), language, caption=slide_info["caption"])
        notes.add_paragraph().text = text(N_("{clip}, beat {n} of {total}"), language, clip=slide_info["clip_title"],
                                          n=slide_info["number_in_clip"], total=slide_info["beats_in_clip"])
    deck.save(str(out))


def _movie_box(slide_info: dict) -> tuple[float, float]:
    """The movie's size in inches: the clip's 16:9 picture as large as fits under the title."""
    room_w = SLIDE_WIDTH_IN - 2 * MARGIN_IN
    room_h = SLIDE_HEIGHT_IN - TITLE_HEIGHT_IN - MARGIN_IN
    width = min(room_w, room_h * 16 / 9)
    return width, width * 9 / 16
