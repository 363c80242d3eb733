"""Beats hand each other what they leave on screen explicitly: a beat returns it, `construct()` passes it on.

A beat that stores mobjects on `self` for a later beat hides the storyboard's state; with arguments and return
values a beat can be read, rendered and tested on its own.
"""

from __future__ import annotations

import ast

import pytest

from conftest import ROOT
from scenes.registry import SCENES


def _is_beat(function: ast.FunctionDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "beat" for d in function.decorator_list)


def state_through_self(source: str) -> list[str]:
    """`self.x = ...` (or `self.x += ...`) inside a @beat method: state handed on without being declared."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.FunctionDef) and _is_beat(node)):
            continue
        for sub in ast.walk(node):
            targets = sub.targets if isinstance(sub, ast.Assign) else (
                [sub.target] if isinstance(sub, (ast.AugAssign, ast.AnnAssign)) else [])
            for target in targets:
                for leaf in ast.walk(target):
                    if isinstance(leaf, ast.Attribute) and isinstance(leaf.value, ast.Name) and leaf.value.id == "self":
                        found.append(f"line {leaf.lineno}: beat {node.name} sets self.{leaf.attr}")
    return found


def test_the_checker_finds_state_set_in_a_beat():
    source = ("@beat\ndef one(self):\n    self.grid = 1\n    self.a, self.b = 2, 3\n    local = 4\n    return local\n"
              "def helper(self):\n    self.box = 5\n")
    assert [f.split(":")[0] for f in state_through_self(source)] == ["line 3", "line 4", "line 4"]


@pytest.mark.parametrize("spec", SCENES, ids=lambda s: s.id)
def test_beats_pass_state_explicitly(spec):
    found = state_through_self((ROOT / spec.path).read_text())
    assert not found, (f"{spec.path}: beats hand state on through self; return it and pass it to the next beat:\n"
                       + "\n".join(found))
