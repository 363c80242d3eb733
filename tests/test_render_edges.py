"""render.py's edges (issue 14): output folders the OS refuses to make, and empty --quality/--format values.

Each case must exit 2 with one line before anything renders, and leave nothing behind. The read-only and
full-disk cases run render.py inside a private mount namespace (`unshare`) over a small tmpfs, so the refusal
comes from a real file system (EROFS, ENOSPC), not from a permission bit root would ignore, and no mount is
left on the machine afterwards.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures.render.harness import REPO, Project, make_project, one_line_error


@pytest.fixture
def project(tmp_path):
    return make_project(tmp_path / "project")


# --- empty --quality / --format -----------------------------------------------------------------------------

QUALITY_CHOICES = "valid: low, medium, high, 1440p, 4k"
FORMAT_CHOICES = "valid: mp4, webm, gif, png"


@pytest.mark.parametrize("args, expected", [
    (["--quality", ""], f"empty quality in --quality ''; {QUALITY_CHOICES}"),
    (["-q", ","], f"empty quality in --quality ','; {QUALITY_CHOICES}"),
    (["-q", "low", "-q", " "], f"empty quality in --quality ' '; {QUALITY_CHOICES}"),
    (["-q", "low,"], f"empty quality in --quality 'low,'; {QUALITY_CHOICES}"),
    (["--format", ""], f"empty format in --format ''; {FORMAT_CHOICES}"),
    (["-f", " "], f"empty format in --format ' '; {FORMAT_CHOICES}"),
    (["-f", "mp4,,png"], f"empty format in --format 'mp4,,png'; {FORMAT_CHOICES}"),
])
def test_an_empty_quality_or_format_exits_2_naming_the_option_and_choices(project, args, expected):
    result = project.render("square", *args, timeout=60)
    assert result.returncode == 2, result.stderr
    assert one_line_error(result) == f"render.py: error: {expected}"
    assert not project.out.exists()


# --- folders the OS will not make ----------------------------------------------------------------------------

@pytest.mark.parametrize("out", ["/proc/render_py_test", "/sys/render_py_test", "/sys/kernel/render_py_test/media"])
def test_an_output_folder_the_kernel_refuses_exits_2_with_one_line(project, out):
    # As root, mkdir there fails with ENOENT (/proc) or EPERM (/sys) although the parent looks writable.
    result = Project(project.root, Path(out)).render("square", timeout=60)
    assert result.returncode == 2, result.stderr
    line = one_line_error(result)
    assert line.startswith(f"render.py: error: output directory {out} cannot be ")
    assert "Traceback" not in result.stderr
    assert not Path(out).exists()


def _in_private_tmpfs(tmp_path: Path, options: str, setup: str, command: list[str]):
    """Run `command` with a fresh tmpfs (mount `options`) at tmp_path/mnt, seen only by this command.

    `setup` is shell run on the mount first ($MNT). Returns (exit status, stdout, stderr, what the mount holds
    afterwards), all read back through files outside the mount.
    """
    mnt, log = tmp_path / "mnt", tmp_path / "log"
    mnt.mkdir()
    log.mkdir()
    script = f"""set -e
mount -t tmpfs -o {options} tmpfs "$MNT"
{setup}
set +e
"$@" >"$LOG/out" 2>"$LOG/err"
echo $? >"$LOG/rc"
(cd "$MNT" && find . -mindepth 1 | sort) >"$LOG/tree"
"""
    # Root can mount in a new mount namespace; anyone else first maps themselves to root in a user namespace.
    unshare = ["unshare", "--mount"] if os.geteuid() == 0 else ["unshare", "--map-root-user", "--mount"]
    done = subprocess.run([*unshare, "sh", "-c", script, "sh", *command], cwd=REPO, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "MNT": str(mnt), "LOG": str(log)})
    assert done.returncode == 0, f"could not set up a private tmpfs with unshare: {done.stderr.strip()}"
    assert not any(mnt.iterdir()), "the tmpfs was visible outside its mount namespace"
    read = lambda name: (log / name).read_text()  # noqa: E731
    return int(read("rc")), read("out"), read("err"), read("tree").split()


@pytest.mark.parametrize("relative_out, existing", [
    (".", ["./media"]),               # the mount itself: exists, on a read-only file system
    ("media", ["./media"]),           # an existing folder on it
    ("new/media", ["./media"]),       # one that would have to be made there
])
def test_an_output_folder_on_a_read_only_file_system_exits_2_and_writes_nothing(project, tmp_path, relative_out,
                                                                                 existing):
    out = tmp_path / "mnt" / relative_out
    command = Project(project.root, out).args("square")
    rc, _, err, tree = _in_private_tmpfs(tmp_path, "rw,size=1m",
                                         'mkdir "$MNT/media" && mount -o remount,ro "$MNT"', command)
    assert rc == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"render.py: error: output directory {out} cannot be ")
    assert "read-only file system" in lines[0]
    assert tree == existing


def test_the_output_lock_turns_a_read_only_mkdir_into_one_line_and_leaves_nothing(tmp_path):
    # The CLI's pre-check would catch this mount first; the lock is where the folder is really made, so its own
    # refusal (EROFS from mkdir, e.g. a file system remounted read-only mid-run) must read the same.
    out = tmp_path / "mnt" / "new" / "media"
    code = ("import sys; from pathlib import Path; from rendering.outdir import OutputLock\n"
            "try:\n    OutputLock(Path(sys.argv[1])).__enter__()\n"
            "except ValueError as error:\n    print(error)\n")
    rc, out_text, err, tree = _in_private_tmpfs(tmp_path, "ro,size=1m", "", [sys.executable, "-c", code, str(out)])
    assert rc == 0, err
    assert out_text == f"output directory {out} cannot be created: Read-only file system ({out.parent})\n"
    assert tree == []


def test_a_full_disk_while_making_the_output_folder_exits_2_and_removes_what_it_made(project, tmp_path):
    # Room for exactly one more inode: media/ is made, media/.render is refused (ENOSPC) and media/ removed again.
    out = tmp_path / "mnt" / "media"
    command = Project(project.root, out).args("square")
    rc, _, err, tree = _in_private_tmpfs(tmp_path, "rw,size=1m,nr_inodes=2", "", command)
    assert rc == 2, err
    lines = err.strip().splitlines()
    assert lines == [f"render.py: error: output directory {out} cannot be created: No space left on device "
                     f"({out / '.render'})"]
    assert tree == []
