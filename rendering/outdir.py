"""The output directory: where each file goes, the check that it can be written, and the run's private area.

Layout under the output directory (default media/):
  clips/<quality>/<scene_id>.<ext>   finished clips, posters (.png) and captions (.vtt)
  manifest.json                      what is there (see manifest.py)
  logs/<scene_id>-<quality>.log      manim's output for a clip that failed
  .render/lock                       held while a render.py run writes here
  .render/tmp/                       work folders of running renders; files move out of it when complete
"""

from __future__ import annotations

import errno
import fcntl
import os
import shutil
import tempfile
from pathlib import Path

CLIPS = "clips"
MANIFEST = "manifest.json"
LOGS = "logs"
PRIVATE = ".render"


def clip_file(out_dir: Path, quality: str, scene_id: str, ext: str) -> Path:
    return out_dir / CLIPS / quality / f"{scene_id}.{ext}"


def relative(out_dir: Path, path: Path) -> str:
    return path.relative_to(out_dir).as_posix()


def check_writable(out_dir: Path) -> None:
    """ValueError unless `out_dir` is (or can be made as) a writable directory. Creates nothing."""
    if out_dir.exists():
        if not out_dir.is_dir():
            raise ValueError(f"output directory {out_dir} cannot be written: it is not a directory")
        target = out_dir
    else:
        target = out_dir.parent
        while not target.exists():
            target = target.parent
        if not target.is_dir():
            raise ValueError(f"output directory {out_dir} cannot be created: {target} is not a directory")
    if not os.access(target, os.W_OK | os.X_OK):
        raise ValueError(f"output directory {out_dir} cannot be written: no write permission on {target}")
    if not out_dir.exists():
        return
    # os.access is not the whole story (read-only mounts, root ignoring modes): try it, leaving nothing behind.
    try:
        with tempfile.TemporaryFile(dir=out_dir):
            pass
    except OSError as error:
        raise ValueError(f"output directory {out_dir} cannot be written: {error.strerror}") from error


class OutputLock:
    """An exclusive lock on the output directory, so two runs never interleave their writes."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir
        self.private = out_dir / PRIVATE
        self._fd: int | None = None

    def __enter__(self) -> "OutputLock":
        self.private.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.private / "lock", os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            os.close(fd)
            if error.errno in (errno.EAGAIN, errno.EACCES):
                raise ValueError(f"output directory {self.out_dir} is in use by another render.py run") from error
            raise
        self._fd = fd
        # Holding the lock, any work folder left here belongs to a run that was killed: remove it.
        shutil.rmtree(self.private / "tmp", ignore_errors=True)
        return self

    def work_root(self) -> Path:
        path = self.private / "tmp"
        path.mkdir(parents=True, exist_ok=True)
        return path

    def __exit__(self, *exc_info) -> None:
        shutil.rmtree(self.private / "tmp", ignore_errors=True)
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
