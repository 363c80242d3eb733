"""The layers import one way: the kit (and the scenes) never import render.py's package, and the frame facts the
kit's headless runner draws at are render.py's low quality."""

from __future__ import annotations

import ast

from conftest import ROOT


def _imported_modules(path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_scenes_never_import_rendering():
    offenders = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "scenes").rglob("*.py")
                       if any(name == "rendering" or name.startswith("rendering.")
                              for name in _imported_modules(path)))
    assert offenders == []


def test_headless_draws_at_render_pys_low_quality():
    from rendering.qualities import QUALITIES
    from scenes.quality.headless import QUALITY_480P

    low = QUALITIES["low"]
    assert QUALITY_480P == {"pixel_width": low.width, "pixel_height": low.height, "frame_rate": low.fps}
