"""Make copying Typst text cheap: share each glyph's parsed SVG path instead of deep-copying it.

Every Transform copies its mobjects. Manim keeps the parsed `svgelements.Path` on each glyph
(`VMobjectFromSVGPath.path_obj`), only needed while the glyph's points are built, and deep-copying it was
about 1 ms per glyph — most of a scene's build time. The path is never changed after construction, so copies
can share it safely.
"""

from __future__ import annotations

from manim import Mobject
from manim.mobject.svg.svg_mobject import VMobjectFromSVGPath

def _deepcopy_sharing_svg_path(self: VMobjectFromSVGPath, memo: dict) -> VMobjectFromSVGPath:
    path = getattr(self, "path_obj", None)
    if path is not None:
        memo[id(path)] = path  # copy.deepcopy returns memo hits as they are: the copy shares the path
    return Mobject.__deepcopy__(self, memo)  # looked up now: mobject_copy may have replaced it


def install() -> None:
    VMobjectFromSVGPath.__deepcopy__ = _deepcopy_sharing_svg_path
