"""Typeset formulas to SVG files with Typst at build time, so the page needs no math library or CDN.

Each formula becomes one SVG (glyphs as outlines, no fonts needed by the browser), named by a hash of its Typst
source, so an unchanged formula is not typeset again. Inline formulas also record where their baseline is, which
the page needs to sit them on the line of text (`vertical-align`).

A formula typeset once is also kept in the project's cache (`$ATTENTION_CACHE_DIR/math`, else
`~/.cache/attention-animated/math`, beside the speech and the trained models), so a page built in a new output
folder does not typeset the post's ~100 formulas again (about 9 s). The name holds the Typst version and source.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

import typst

from rendering.atomic import write_text
from rendering.cache_root import cache_folder
from rendering.site.latex_typst import latex_to_typst

TYPST_VERSION = version("typst")  # part of each formula's cache key: a new Typst may typeset differently
FONT_PT = 11.0  # the size Typst sets the math at
# The page draws FONT_PT at this many em of the surrounding text: Typst's New Computer Modern has a smaller
# x-height than the page's serif fonts, so at 1:1 a formula looks a size too small beside the words.
EM_PER_FONT = 1.15
INK = "#1f2328"  # the page's light-mode text colour; dark mode inverts the images in CSS
PREAMBLE = (
    '#set page(width: auto, height: auto, margin: 0pt, fill: none)\n'
    f'#set text(size: {FONT_PT}pt, fill: rgb("{INK}"), top-edge: "bounds", bottom-edge: "bounds")\n'
)
# A zero-size box after an inline formula sits on the line's baseline; its position is read back by a query.
BASELINE_PROBE = (
    '#box(width: 0pt, height: 0pt)[#metadata(none)<baseline>]\n'
    '#context [#metadata(locate(<baseline>).position())<baseline-position>]\n'
)
_SIZE = re.compile(r'<svg\b[^>]*?\swidth="([\d.]+)pt"\s+height="([\d.]+)pt"')
_BASELINE_ATTR = re.compile(r'data-baseline-pt="([\d.]+)"')


def default_cache_dir() -> Path:
    """`$ATTENTION_CACHE_DIR/math`, else `~/.cache/attention-animated/math`."""
    return cache_folder("math")


@dataclass(frozen=True)
class MathImage:
    """One typeset formula: its file (relative to the page) and size in pt at FONT_PT."""

    path: str
    latex: str
    display: bool
    width_pt: float
    height_pt: float
    baseline_pt: float  # distance from the top down to the baseline; equals height_pt for display math

    @property
    def depth_pt(self) -> float:
        return self.height_pt - self.baseline_pt

    def em(self, value_pt: float) -> str:
        return f"{value_pt / FONT_PT * EM_PER_FONT:.3f}em"


def typst_source(latex: str, display: bool) -> str:
    math = latex_to_typst(latex)
    if display:
        return PREAMBLE + f"$ {math} $\n"
    return PREAMBLE + f"${math}$" + BASELINE_PROBE


class MathRenderer:
    """Writes formula SVGs into `directory` (which `prefix` names relative to the page) and reuses them: the ones
    already there, and with a `cache` folder the ones typeset for any other page."""

    _typeset_in_this_process: dict[str, str] = {}  # file name -> SVG, shared by renderers of other folders

    def __init__(self, directory: Path, prefix: str, cache: Path | None = None):
        self.directory = directory
        self.prefix = prefix.rstrip("/")
        self.cache = cache
        self.used: set[str] = set()

    def render(self, latex: str, display: bool) -> MathImage:
        source = typst_source(latex, display)
        digest = hashlib.sha256(f"{TYPST_VERSION}\n{source}".encode()).hexdigest()[:20]
        name = f"{'d' if display else 'i'}-{digest}.svg"
        path = self.directory / name
        self.used.add(name)
        if path.exists():
            svg = path.read_text(encoding="utf-8")
        else:
            svg = self._typeset_in_this_process.get(name) or self._cached(name) or self._typeset(source, display,
                                                                                                    latex)
            write_text(path, svg)
            self._keep(name, svg)
        self._typeset_in_this_process[name] = svg
        return _image(f"{self.prefix}/{name}", latex, display, svg)

    def _cached(self, name: str) -> str | None:
        """The cache's SVG of that name, if it has a readable one."""
        if self.cache is None:
            return None
        try:
            svg = (self.cache / name).read_text(encoding="utf-8")
            _svg_size(svg)
        except (OSError, UnicodeError, ValueError):
            return None
        return svg if _BASELINE_ATTR.search(svg) else None

    def _keep(self, name: str, svg: str) -> None:
        """Put a formula in the cache (a cache that cannot be written costs time, not the page)."""
        if self.cache is None or (self.cache / name).exists():
            return
        try:
            write_text(self.cache / name, svg)
        except OSError:
            pass

    def remove_unused(self) -> None:
        """Delete SVGs of formulas the post no longer has, so the folder does not grow forever."""
        for stale in self.directory.glob("*.svg"):
            if stale.name not in self.used:
                stale.unlink()

    @staticmethod
    def _typeset(source: str, display: bool, latex: str) -> str:
        try:
            svg = typst.compile(source.encode("utf-8"), format="svg").decode("utf-8")
            baseline = None if display else _query_baseline(source)
        except Exception as error:  # typst raises its own error types; say which formula failed
            raise ValueError(f"Typst could not typeset {latex!r}: {error}") from error
        width, height = _svg_size(svg)
        baseline_pt = height if baseline is None else baseline
        return svg.replace("<svg ", f'<svg data-baseline-pt="{baseline_pt:.4f}" ', 1)


def _query_baseline(source: str) -> float:
    found = json.loads(typst.query(source.encode("utf-8"), "<baseline-position>"))
    if len(found) != 1:
        raise ValueError("baseline probe not found")
    return float(found[0]["value"]["y"].removesuffix("pt"))


def _svg_size(svg: str) -> tuple[float, float]:
    match = _SIZE.search(svg)
    if not match:
        raise ValueError("Typst SVG without a width/height in pt")
    return float(match.group(1)), float(match.group(2))


def _image(path: str, latex: str, display: bool, svg: str) -> MathImage:
    width, height = _svg_size(svg)
    match = _BASELINE_ATTR.search(svg)
    baseline = float(match.group(1)) if match else height
    return MathImage(path, latex, display, width, height, min(baseline, height))
