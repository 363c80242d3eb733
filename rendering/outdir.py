"""The output directory: where each file goes, the check that it can be written, and the run's private area.

Layout under the output directory (default media/):
  clips/<quality>/<scene_id>.<ext>   finished clips, posters (.png) and captions (.vtt)
  clips/<quality>/narrated/<scene_id>.<ext>   the narrated version of a clip (render.py --narrate)
  clips/<quality>/described/<scene_id>.<ext>   the described version (--narrate --describe): the voice also says
                                     what the frame shows; <scene_id>.descriptions.vtt is its descriptions track
  clips/<quality>/<aspect>/[narrated/]<scene_id>.<ext>   a portrait or square clip (--aspect); landscape as above
  clips/<quality>/[<aspect>/]<language>/[narrated/|described/]<scene_id>.<ext>   a clip in another language than
                                     English (--language fr): the language folder nests inside the aspect folder
                                     (clips/low/fr/, clips/low/portrait/fr/); English clips stay where they were
  film/<quality>/[<aspect>/][<language>/][narrated/]film.<ext>   every clip joined in the post's order, with
                                     chapters (--film); the language folder only for another language than English
  slides/<quality>/[<aspect>/][<language>/][narrated/|described/]deck.html   the classroom deck (--slides), nested
                                     the same way (site/slides.py)
  index.html                         the page, in English; index.fr.html beside it when French clips exist
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
NARRATED = "narrated"
DESCRIBED = "described"
FILM = "film"
MANIFEST = "manifest.json"
LOGS = "logs"
PRIVATE = ".render"


ENGLISH = "en"


def _aspect_folder(folder: Path, aspect: str, language: str = ENGLISH) -> Path:
    """The aspect's folder (landscape: where clips always were), then the language's (English: none)."""
    folder = folder if aspect == "landscape" else folder / aspect
    return folder if language == ENGLISH else folder / language


def clip_file(out_dir: Path, quality: str, scene_id: str, ext: str, narrated: bool = False,
              aspect: str = "landscape", described: bool = False, language: str = ENGLISH) -> Path:
    """Where a clip's file goes; `ext` is a format, or a file kind such as descriptions_vtt (its dots as "_")."""
    folder = _aspect_folder(out_dir / CLIPS / quality, aspect, language)
    voice = folder / DESCRIBED if described else folder / NARRATED if narrated else folder
    return voice / f"{scene_id}.{ext.replace('_', '.')}"


def film_dir(out_dir: Path, quality: str, narrated: bool, aspect: str = "landscape", language: str = ENGLISH) -> Path:
    folder = _aspect_folder(out_dir / FILM / quality, aspect, language)
    return folder / NARRATED if narrated else folder


def relative(out_dir: Path, path: Path) -> str:
    return path.relative_to(out_dir).as_posix()


def check_writable(out_dir: Path) -> None:
    """ValueError unless `out_dir` is (or can be made as) a writable directory. Creates nothing.

    A pre-check only: some refusals (EPERM in /sys, ENOENT in /proc) show only when the folder is made, which
    OutputLock does, with the same kind of one-line ValueError.
    """
    try:
        _check_writable(out_dir)
    except OSError as error:  # e.g. a parent we may not search: stat itself fails
        raise ValueError(f"output directory {out_dir} cannot be checked: {error.strerror}") from error


def _check_writable(out_dir: Path) -> None:
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
    # Before os.access, which fails on a read-only mount too but cannot say why.
    if os.statvfs(target).f_flag & os.ST_RDONLY:
        raise ValueError(f"output directory {out_dir} cannot be written: {target} is on a read-only file system")
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


def _make_dirs(path: Path) -> list[Path]:
    """mkdir -p that returns the folders it made, outermost first, so a failure can remove exactly those."""
    missing = []
    while not path.exists():
        missing.append(path)
        path = path.parent
    made: list[Path] = []
    try:
        for folder in reversed(missing):
            try:
                folder.mkdir()
            except FileExistsError:
                if not folder.is_dir():
                    raise
                continue  # another run made it just now: not ours to remove
            made.append(folder)
    except OSError:
        _remove_dirs(made)
        raise
    return made


def _remove_dirs(made: list[Path]) -> None:
    for folder in reversed(made):
        try:
            folder.rmdir()
        except OSError:
            pass


class OutputLock:
    """An exclusive lock on the output directory, so two runs never interleave their writes."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir
        self.private = out_dir / PRIVATE
        self._fd: int | None = None

    def __enter__(self) -> "OutputLock":
        """Take the lock; ValueError (one line, nothing left behind) if the folder cannot be made or written."""
        existed = self.out_dir.exists()
        made: list[Path] = []
        try:
            made = _make_dirs(self.private)
            fd = os.open(self.private / "lock", os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            _remove_dirs(made)
            verb = "written" if existed else "created"
            where = f" ({error.filename})" if error.filename and Path(error.filename) != self.out_dir else ""
            raise ValueError(f"output directory {self.out_dir} cannot be {verb}: {error.strerror}{where}") from error
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
