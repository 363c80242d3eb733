"""Compile Typst texts with one font book for the whole process, and write each compiled SVG atomically.

manim's `typst_to_svg_file` calls `typst.compile` without fonts, so every text of a scene scans the machine's
fonts again: about 13 ms a call here, against 1.2 ms with one `typst.Fonts()` passed to every call (typst-py
0.15; the SVG is the same bytes). The SVG is written to a temporary name and renamed into place, so another
process sharing the cache folder never reads a half-written file. Everything else is manim's: the same
template, the same content hash, the same cache path.

Parsing a compiled SVG (`svgelements.SVG.parse`) was half of making a new text's glyphs, and the headless runs
parse every text afresh (they empty manim's in-memory SVG cache, whose copies of a Typst text lose its stroke
tracking: scenes/quality/headless.py): `generate_mobject` here keeps the parsed SVG, keyed by the exact bytes manim
would write and parse (the file after `modify_xml_tree`, so a formula's capture groups and the style defaults are in
the key), and builds the glyphs from it with manim's own `get_mobjects_from`, as a fresh parse does. A parsed SVG is
only read to build glyphs (a glyph's path, `path_obj`, is shared by its copies already: copy_speed), so a text made
again gets the same glyphs, attributes and tracking as a fresh parse gives.
"""

from __future__ import annotations

import functools
import os
import tempfile
from pathlib import Path

from collections import OrderedDict
from xml.etree import ElementTree

import svgelements
from manim import RIGHT, config
from manim.mobject.svg.svg_mobject import SVGMobject
from manim.mobject.text import typst_mobject
from manim.utils import typst_file_writing as writing

_stock_typst_to_svg_file = writing.typst_to_svg_file
_stock_generate_mobject = SVGMobject.generate_mobject


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


#: How many parsed SVGs are kept (the most recently used): a few scenes' texts. A parsed text holds about 0.2 MB
#: (tiny's coffee_cafe: 63 texts, 12.3 MB), so this caps a process's cache near 200 MB.
MAX_PARSED = 1024

_PARSED: "OrderedDict[bytes, svgelements.SVG]" = OrderedDict()


def generate_mobject(self: SVGMobject) -> SVGMobject:
    """manim's SVGMobject.generate_mobject (the same steps, the same file written and parsed on a miss), with the
    parsed SVG kept by the bytes parsed: the same bytes are not parsed again."""
    file_path = self.get_file_path()
    new_tree = self.modify_xml_tree(ElementTree.parse(file_path))
    data = ElementTree.tostring(new_tree.getroot())  # what ElementTree.write puts in the file (us-ascii, no header)
    svg = _PARSED.get(data)
    if svg is None:
        modified_file_path = file_path.with_name(f"{file_path.stem}_{file_path.suffix}")
        modified_file_path.write_bytes(data)
        svg = svgelements.SVG.parse(modified_file_path)
        modified_file_path.unlink()
        _PARSED[data] = svg
        while len(_PARSED) > MAX_PARSED:
            _PARSED.popitem(last=False)
    else:
        _PARSED.move_to_end(data)
    mobjects, mobject_dict = self.get_mobjects_from(svg)
    self.add(*mobjects)
    self.id_to_vgroup_dict = mobject_dict
    self.flip(RIGHT)  # Flip y
    return self


def install() -> None:
    writing.typst_to_svg_file = typst_to_svg_file
    typst_mobject.typst_to_svg_file = typst_to_svg_file  # imported by name there
    SVGMobject.generate_mobject = generate_mobject
