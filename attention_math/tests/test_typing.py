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
    """mypy --strict (with untyped calls into torch allowed) over this folder's sources, whatever its name, installed
    or not: mypy runs in an empty folder holding only a link named attention_math to it. (Run on an installed copy,
    mypy would report nothing: it keeps quiet about errors in site-packages.)"""
    (tmp_path / "attention_math").symlink_to(PACKAGE_DIR, target_is_directory=True)
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(PACKAGE_DIR / "pyproject.toml"),
         "--cache-dir", str(tmp_path / "mypy-cache"), "--no-error-summary", "-p", "attention_math"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == "", result.stdout
