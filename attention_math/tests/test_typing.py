"""The package is typed (py.typed) and mypy --strict finds nothing in it (the config: ../pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import attention_math
from package_files import PACKAGE_DIR


def test_the_package_ships_py_typed():
    assert (Path(attention_math.__file__).parent / "py.typed").is_file()


def test_mypy_strict_finds_no_error(tmp_path):
    """mypy --strict (with untyped calls into torch allowed) over the attention_math that the tests import: the
    repository's folder, or the installed copy. Run from the folder that holds it, so mypy finds that one."""
    home = Path(attention_math.__file__).resolve().parent.parent
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(PACKAGE_DIR / "pyproject.toml"),
         "--cache-dir", str(tmp_path / "mypy-cache"), "--no-error-summary", "-p", "attention_math"],
        cwd=home, capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == "", result.stdout
