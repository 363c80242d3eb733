"""The API page's examples run: the test in "In your own test" passes (and fails on wrong code), and a state_dict
saved from the post's class loads with the recipe."""

from __future__ import annotations

import re

import torch

from attention_math import MultiHeadCausalAttention
from package_files import PACKAGE_DIR
from test_math_post_reference import PostMultiHeadCausalAttention  # the post's code, verbatim

README = (PACKAGE_DIR / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    return README.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def _code(title: str) -> str:
    (code,) = re.findall(r"```python\n(.*?)```", _section(title), flags=re.S)
    return code


def test_the_example_test_is_ten_lines_and_passes():
    code = _code("In your own test")
    assert len([line for line in code.splitlines() if line.strip()]) <= 10
    namespace: dict[str, object] = {}
    exec(compile(code, "README.md", "exec"), namespace)
    namespace["test_my_attention_matches_the_post"]()  # type: ignore[operator]


def test_the_example_test_fails_when_the_users_code_is_wrong():
    code = _code("In your own test").replace("/ 2.0", "/ 4.0")  # the wrong scale
    namespace: dict[str, object] = {}
    exec(compile(code, "README.md", "exec"), namespace)
    try:
        namespace["test_my_attention_matches_the_post"]()  # type: ignore[operator]
    except AssertionError:
        return
    raise AssertionError("the README's example test passed with the wrong scale")


def test_the_state_dict_recipe_loads_a_saved_post_layout_file(tmp_path):
    torch.manual_seed(1)
    path = tmp_path / "post_mha.pt"
    torch.save(PostMultiHeadCausalAttention(3, 4, 6, 2, 0.0).state_dict(), path)
    code = _code("Loading a `state_dict` saved from the post's code").replace('"post_mha.pt"', repr(str(path)))
    namespace: dict[str, object] = {}
    exec(compile(code, "README.md", "exec"), namespace)
    model = namespace["model"]
    assert isinstance(model, MultiHeadCausalAttention)
    assert torch.equal(model.W_q.weight, torch.load(path, weights_only=True)["W_q.weight"])
