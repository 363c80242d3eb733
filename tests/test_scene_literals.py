"""No number typed into a scene: every value shown comes from attention_math.

Scene modules may contain numbers only as layout and timing (keyword arguments such as run_time or buff,
`self.wait(...)`, multiples of a direction like `UP * 0.5`) and the small integers 0, 1, 2 and -1 used for
indexing and counting. Strings may contain digits only as sub/superscripts in math (`h_1`, `x^2`).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from conftest import ROOT
from scenes.registry import SCENES

LAYOUT_KEYWORDS = {
    "run_time", "buff", "lag_ratio", "opacity", "fill_opacity", "stroke_width", "stroke_opacity", "scale_factor",
    "font_size", "width", "height", "corner_radius", "max_height", "bar_width", "decimals", "cell_size",
    "cell_width", "radius", "side_length", "max_tip_length_to_length_ratio", "tip_length", "angle", "rate",
    "time_width", "dot_radius", "shift", "scale", "about_point", "aligned_edge", "h_buff", "v_buff",
    "max_width", "min_width", "duration", "wait_time", "sharpness", "z_index", "length", "dash_length",
    "dashed_ratio", "num_dashes", "fade", "line_spacing", "tracking", "target_width", "target_height",
}
LAYOUT_CALLS = {"wait", "scale", "scale_to_fit_width", "scale_to_fit_height", "set_opacity", "set_stroke",
                "set_fill", "set_z_index", "rotate", "fade", "set_width", "set_height", "stretch_to_fit_width",
                "stretch_to_fit_height", "surround", "add_updater"}
DIRECTIONS = {"UP", "DOWN", "LEFT", "RIGHT", "UL", "UR", "DL", "DR", "ORIGIN", "OUT", "IN", "PI", "TAU", "DEGREES"}
FREE_INTEGERS = {0, 1, 2, -1}
DIGIT_IN_STRING = re.compile(r"(?<![_^\w])\d")


def _allowed_parents(tree: ast.AST) -> set[int]:
    """ids of numeric Constant nodes that are layout: keyword values, layout calls, direction multiples."""
    allowed: set[int] = set()

    def allow_all(node: ast.AST) -> None:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Constant):
                allowed.add(id(sub))

    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg in LAYOUT_KEYWORDS:
            allow_all(node.value)
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in LAYOUT_CALLS:
                for arg in node.args:
                    allow_all(arg)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Div)):
            names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
            if names & DIRECTIONS:
                allow_all(node)
        elif isinstance(node, ast.ClassDef) and node.name.endswith("Layout"):
            allow_all(node)  # the scene's one typed place for layout constants
    return allowed


#: Keywords whose numeric value places or sizes something: typed by hand, they are coordinates in disguise.
PLACING_KEYWORDS = {"buff", "h_buff", "v_buff", "shift", "about_point", "cell_width", "cell_size", "width",
                    "height", "max_height", "max_width", "bar_width", "target_width", "target_height", "length"}
PLACING_CALLS = {"move_to", "next_to", "shift", "scale", "scale_to_fit_width", "scale_to_fit_height", "set_width",
                 "set_height", "to_edge", "to_corner", "set_x", "set_y", "align_to", "arrange", "arrange_in_grid"}


def hand_typed_positions(source: str) -> list[str]:
    """Numbers that place or size something, typed in a scene outside its one `*Layout` class.

    A direction times a number (`UP * 2.3`), a numeric `buff=`/`shift=`/width, or a number handed to a placing call
    (`move_to([1, 2, 0])`, `scale(0.8)`). Layout follows from sizes through scenes.kit.layout, or from a named constant.
    """
    tree = ast.parse(source)
    exempt: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name.endswith("Layout"):
            exempt.update(id(sub) for sub in ast.walk(node))
    found: list[str] = []

    def numbers_in(node: ast.AST) -> list[ast.Constant]:
        return [sub for sub in ast.walk(node) if isinstance(sub, ast.Constant) and id(sub) not in exempt
                and isinstance(sub.value, (int, float)) and not isinstance(sub.value, bool)
                and sub.value not in (0, 1, -1)]

    seen: set[int] = set()

    def report(node: ast.AST, what: str) -> None:
        for constant in numbers_in(node):
            if id(constant) not in seen:
                seen.add(id(constant))
                found.append(f"line {constant.lineno}: {what} {constant.value!r}")

    for node in ast.walk(tree):
        if id(node) in exempt:
            continue
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Div)):
            names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
            if names & (DIRECTIONS - {"PI", "TAU", "DEGREES"}):
                report(node, "direction times")
        elif isinstance(node, ast.keyword) and node.arg in PLACING_KEYWORDS:
            report(node.value, f"{node.arg}=")
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in PLACING_CALLS:
                for arg in node.args:
                    report(arg, f"{name}(...)")
    return sorted(found, key=lambda line: int(line.split(":")[0].split()[1]))


def literal_violations(source: str) -> list[str]:
    tree = ast.parse(source)
    allowed = _allowed_parents(tree)
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef)) and n.body
                  and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    problems = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or id(node) in allowed or id(node) in docstrings:
            continue
        value = node.value
        if isinstance(value, bool):
            continue
        if isinstance(value, (int, float)) and value not in FREE_INTEGERS:
            problems.append(f"line {node.lineno}: numeric literal {value!r}")
        elif isinstance(value, str) and DIGIT_IN_STRING.search(value):
            problems.append(f"line {node.lineno}: digits in string {value!r}")
    return problems


def test_the_checker_catches_typed_data():
    bad = "e = 0.73\ncaption = 'weights 0.05 / 0.10 / 0.85'\nself.play(x, run_time=1.5)\nm.shift(UP * 0.5)\n"
    problems = literal_violations(bad)
    assert any("0.73" in p for p in problems)
    assert any("0.85" in p for p in problems)
    assert len(problems) == 2  # run_time and the direction multiple are layout


def test_the_checker_allows_math_subscripts():
    assert literal_violations("f = 'omega_i = x_3^top x_i'\ng = 'h_1 h_2'\n") == []


@pytest.mark.parametrize("spec", SCENES, ids=lambda s: s.id)
def test_scene_module_types_no_numbers(spec):
    path = ROOT / spec.path
    assert path.exists(), f"scene module {spec.path} is missing"
    problems = literal_violations(path.read_text())
    assert not problems, f"{spec.path} types numbers that should come from attention_math:\n" + "\n".join(problems)


def test_the_position_checker_catches_typed_coordinates():
    bad = ("a.move_to(UP * 2.3)\nb.next_to(a, DOWN, buff=0.35)\nc.shift(RIGHT*2.8 + DOWN*0.5)\n"
           "d.move_to([1.5, 0, 0])\ne.scale(0.8)\n"
           "class SceneLayout:\n    gap: float = 0.35\n    lift = UP * 0.2\n"
           "f.next_to(a, DOWN, buff=L.gap)\nself.play(FadeIn(f), run_time=1.5)\n")
    found = hand_typed_positions(bad)
    assert [line.split(":")[0] for line in found] == ["line 1", "line 2", "line 3", "line 3", "line 4", "line 5"], found


@pytest.mark.parametrize("spec", SCENES, ids=lambda s: s.id)
def test_scene_places_nothing_by_hand(spec):
    found = hand_typed_positions((ROOT / spec.path).read_text())
    assert not found, (f"{spec.path} types {len(found)} position(s) by hand; place kit pieces relative to each "
                       "other (scenes.kit.layout) or name the constant in the scene's *Layout class:\n"
                       + "\n".join(found))
