"""Compile Typst texts with one font book for the whole process, and write each compiled SVG atomically.

manim's `typst_to_svg_file` calls `typst.compile` without fonts, so every text of a scene scans the machine's
fonts again: about 13 ms a call here, against 1.2 ms with one `typst.Fonts()` passed to every call (typst-py
0.15; the SVG is the same bytes). The SVG is written to a temporary name and renamed into place, so another
process sharing the cache folder never reads a half-written file. Everything else is manim's: the same
template, the same content hash, the same cache path.
"""

from __future__ import annotations

import functools
import os
import tempfile
from pathlib import Path

from manim import config
from manim.mobject.text import typst_mobject
from manim.utils import typst_file_writing as writing

_stock_typst_to_svg_file = writing.typst_to_svg_file


@functools.cache
def _font_book(font_paths: tuple[str, ...]):
    """One typst.Fonts per set of extra font folders (searching the system's fonts is the slow part)."""
    import typst

    return typst.Fonts(font_paths=list(font_paths))


def typst_to_svg_file(typst_code: str, preamble: str = "", text_size: float = writing.TYPST_COMPILATION_FONT_SIZE,
                      font_paths: list[str | Path] | None = None) -> Path:
    """manim's typst_to_svg_file (same source, hash and path), compiled with the shared font book."""
    import typst

    source = writing.TYPST_TEMPLATE.format(text_size=text_size, preamble=preamble, body=typst_code)
    content_hash = writing._typst_hash(source)
    folder = config.get_dir("tex_dir")
    folder.mkdir(parents=True, exist_ok=True)
    svg_file = folder / f"{content_hash}.svg"
    if svg_file.exists():
        return svg_file
    typ_file = folder / f"{content_hash}.typ"
    _write_atomically(typ_file, source.encode("utf-8"))
    fonts = _font_book(tuple(str(path) for path in font_paths or ()))
    _write_atomically(svg_file, typst.compile(str(typ_file), format="svg", font_paths=fonts))
    return svg_file


def _write_atomically(path: Path, data: bytes) -> None:
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=path.suffix)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def install() -> None:
    writing.typst_to_svg_file = typst_to_svg_file
    typst_mobject.typst_to_svg_file = typst_to_svg_file  # imported by name there
