"""A shot state hides the texts it cannot show legibly and shows them again when a later shot can; what it hid is
marked on the text itself (no module state), and a copy of a hidden text (a transform's faded padding copy) is not
taken for one the camera hid, so it stays faded. The kit keeps no layout state in module globals."""

from __future__ import annotations

import ast
from pathlib import Path

from manim import VGroup

from scenes.kit import camera_moves, label, layout
from scenes.kit.shot_content import apply_shot_state

REGION = layout.Region(-6.5, 6.5, -3.0, 3.0)
ROOT = Path(__file__).resolve().parents[1]


def _opacity(text) -> float:
    return max(part.get_fill_opacity() for part in text.family_members_with_points())


def test_a_shot_shows_again_what_a_shot_hid_but_not_a_copy_of_it():
    word = label("attention")
    far = camera_moves.Shot(word.get_center(), 400.0)  # the word far below the floor
    apply_shot_state(far, VGroup(word), REGION)
    assert _opacity(word) == 0.0
    padding = word.copy()
    near = camera_moves.shot_on(word, REGION)
    apply_shot_state(near, VGroup(word, padding), REGION)
    assert _opacity(word) == 1.0
    assert _opacity(padding) == 0.0


def test_no_module_of_the_scenes_rebinds_a_global():
    """Layout decisions travel in the composition, not through module state: no `global` statement anywhere."""
    found = [f"{path.relative_to(ROOT)}:{node.lineno}" for path in sorted((ROOT / "scenes").rglob("*.py"))
             for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.Global)]
    assert found == []
