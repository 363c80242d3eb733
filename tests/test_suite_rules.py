"""The suite's own rules: a skip fails the run; a run that collects nothing fails."""

import subprocess
import sys
import textwrap

from conftest import ROOT


def run_pytest_on(tmp_path, body: str, *options: str) -> subprocess.CompletedProcess:
    test_file = tmp_path / "test_probe.py"
    test_file.write_text(textwrap.dedent(body))
    (tmp_path / "conftest.py").write_text((ROOT / "tests" / "conftest.py").read_text())
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *options, str(test_file)],
                          cwd=tmp_path, capture_output=True, text=True)


def test_a_skipped_test_fails_the_run(tmp_path):
    result = run_pytest_on(tmp_path, """
        import pytest
        def test_ok(): pass
        def test_skipped(): pytest.skip("cairo too old")
    """)
    assert result.returncode != 0, result.stdout + result.stderr
    assert "a skip is not a pass" in result.stderr


def test_a_skip_in_a_worker_fails_the_run_too(tmp_path):
    """The suite runs on pytest-xdist workers: a skip reported by a worker still fails the whole run."""
    result = run_pytest_on(tmp_path, """
        import pytest
        def test_ok(): pass
        def test_skipped(): pytest.skip("cairo too old")
    """, "-n", "2")
    assert "bringing up nodes" in result.stdout, result.stdout  # it really ran on workers
    assert result.returncode != 0, result.stdout + result.stderr
    assert "a skip is not a pass" in result.stderr


def test_a_clean_run_passes(tmp_path):
    result = run_pytest_on(tmp_path, "def test_ok(): pass\n")
    assert result.returncode == 0, result.stdout + result.stderr



def test_the_tests_of_one_group_run_in_one_worker(tmp_path):
    """`--dist loadgroup` keeps a group in one worker (what lets a scene's gates share its one headless run), and
    the groups spread over the workers."""
    seen = tmp_path / "seen"
    seen.mkdir()
    result = run_pytest_on(tmp_path, f"""
        import os, pytest
        from conftest import per_scene

        @pytest.mark.parametrize("scene", per_scene(["a", "b", "c", "d"] * 4))
        def test_record_worker(scene):
            with open({str(seen)!r} + "/" + scene, "a") as out:
                out.write(os.environ["PYTEST_XDIST_WORKER"] + "\\n")
    """, "-n", "2", "--dist", "loadgroup")
    assert result.returncode == 0, result.stdout + result.stderr
    workers = {path.name: set(path.read_text().split()) for path in seen.iterdir()}
    assert sorted(workers) == ["a", "b", "c", "d"]
    assert all(len(names) == 1 for names in workers.values()), workers
    assert len(set.union(*workers.values())) == 2, workers
