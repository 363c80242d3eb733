"""The package needs torch and numpy only: it never imports manim, the scenes or the render pipeline."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

from package_files import PACKAGE_DIR, source_files

ALLOWED_THIRD_PARTY = {"torch", "numpy"}


def _top_level_imports(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):  # every import, also those inside functions (the lazy ones)
        if isinstance(node, ast.Import):
            yield from (alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0]


def test_every_import_is_the_standard_library_torch_numpy_or_the_package():
    outside = {}
    for path in source_files():
        if path.suffix != ".py":
            continue
        names = set(_top_level_imports(path)) - set(sys.stdlib_module_names) - ALLOWED_THIRD_PARTY - {"attention_math"}
        if names:
            outside[path.relative_to(PACKAGE_DIR).as_posix()] = sorted(names)
    assert outside == {}


def test_the_distribution_depends_on_torch_and_numpy_only():
    project = tomllib.loads((PACKAGE_DIR / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = {requirement.split(";")[0].split("[")[0].split("=")[0].split(">")[0].split("<")[0].strip().lower()
             for requirement in project["dependencies"]}
    assert names == ALLOWED_THIRD_PARTY


def test_importing_every_module_loads_no_manim():
    code = (
        "import sys, pkgutil, importlib, attention_math, attention_math.learned; "
        "[importlib.import_module(m.name) for p in (attention_math, attention_math.learned) "
        " for m in pkgutil.iter_modules(p.__path__, p.__name__ + '.')]; "
        "from attention_math import examples; examples.load('coffee'); "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('manim', 'manimpango', 'cairo', 'scenes', "
        "'rendering')); print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_the_posts_example_ships_with_the_package():
    import attention_math
    from attention_math import example_spec

    assert example_spec.POST_EXAMPLE == Path(attention_math.__file__).resolve().parent / "data" / "post.toml"
    assert example_spec.POST_EXAMPLE.is_file()
    assert example_spec.post().name == "post"
