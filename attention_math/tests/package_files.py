"""The files of the attention-math distribution, as its tests see them: this folder's parent, minus tests and build
output. A helper module of the tests (not collected)."""

from __future__ import annotations

import hashlib
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parents[1]
#: What the distribution ships besides its modules (pyproject.toml's package-data), and the pyproject itself.
DATA_PATTERNS = ("py.typed", "data/*.toml", "learned/data/*.tsv")


def source_files() -> list[Path]:
    """Every module of the package and every data file it ships, plus pyproject.toml (its dependencies)."""
    modules = [*PACKAGE_DIR.glob("*.py"), *PACKAGE_DIR.glob("learned/*.py")]
    data = [path for pattern in DATA_PATTERNS for path in PACKAGE_DIR.glob(pattern)]
    return sorted({*modules, *data, PACKAGE_DIR / "pyproject.toml"})


def sources_hash() -> str:
    """sha256 over the relative path and bytes of each source file."""
    digest = hashlib.sha256()
    for path in source_files():
        data = path.read_bytes()
        digest.update(f"{path.relative_to(PACKAGE_DIR).as_posix()}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()
