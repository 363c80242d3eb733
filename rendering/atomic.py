"""Write files so that a reader never sees a partial one: temporary name, fsync, rename.

os.replace within one file system is atomic, so every temporary file is made next to its destination.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _default_mode() -> int:
    """The mode a plain open() would give (0666 less the umask): mkstemp's 0600 would hide pages from web servers."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_bytes(path: Path, data: bytes) -> None:
    """Replace `path` with `data` in one step."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp_name, _default_mode())
        os.replace(tmp_name, path)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def write_text(path: Path, text: str) -> None:
    write_bytes(path, text.encode("utf-8"))


def install(source: Path, destination: Path) -> None:
    """Move a finished file into place (same file system, so the rename is atomic)."""
    destination.parent.mkdir(parents=True, exist_ok=True)
    with open(source, "rb") as handle:
        os.fsync(handle.fileno())
    os.replace(source, destination)
    _fsync_dir(destination.parent)
