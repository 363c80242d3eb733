"""The project depends on the math package as a distribution of its own (attention_math/pyproject.toml), and the
bootstrap installs it from its folder; the suite runs that package's own tests too."""

from __future__ import annotations

import tomllib

from packaging.requirements import Requirement

import attention_math
from conftest import ROOT


def _project(path):
    return tomllib.loads(path.read_text(encoding="utf-8"))


def test_the_project_requires_the_math_distribution_at_its_current_version():
    requirements = [Requirement(r) for r in _project(ROOT / "pyproject.toml")["project"]["dependencies"]]
    math = [r for r in requirements if r.name == "attention-math"]
    assert len(math) == 1, requirements
    assert math[0].specifier.contains(attention_math.__version__), (math[0], attention_math.__version__)
    assert not any(r.name.startswith("manim") for r in [Requirement(d) for d in _project(
        ROOT / "attention_math" / "pyproject.toml")["project"]["dependencies"]])


def test_the_project_no_longer_packages_attention_math_itself():
    find = _project(ROOT / "pyproject.toml")["tool"]["setuptools"]["packages"]["find"]
    assert not any(pattern.startswith("attention_math") for pattern in find["include"]), find


def test_the_suite_collects_the_math_packages_own_tests():
    assert "attention_math/tests" in _project(ROOT / "pyproject.toml")["tool"]["pytest"]["ini_options"]["testpaths"]


def test_the_bootstrap_installs_the_math_package_and_reinstalls_when_its_pyproject_changes():
    script = (ROOT / "scripts" / "bootstrap.sh").read_text(encoding="utf-8")
    stamp = script.split("stamp_value() {", 1)[1].split("}", 1)[0]
    assert '"$ROOT/attention_math/pyproject.toml"' in stamp
    assert 'pip install -q -e "$ROOT/attention_math" -e "$ROOT[' in script
