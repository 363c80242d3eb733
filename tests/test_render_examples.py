"""render.py --example, --check and --vocabulary: a user's example renders into its own folder, a bad one is
refused in one line with nothing written."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import ROOT
from tests.fixtures.render.harness import REPO, make_project, one_line_error

TINY = ROOT / "examples" / "tiny.toml"


@pytest.fixture
def project(tmp_path):
    return make_project(tmp_path / "project")


def _render(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "render.py", *args], cwd=REPO, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("body, expected", [
    ("name = 'x'\n[self_attention]\ntokens = ['a']\n", "missing encoder_decoder"),
    (TINY.read_text().replace("d_k = 1", "dk = 1"), "unknown key self_attention.dk; did you mean 'd_k'?"),
    (TINY.read_text().replace("heads = 1", "heads = 3"), "heads = 3 does not divide d_out = 2"),
    (TINY.read_text().replace('["cats", "sleep"]', '[]'), "self_attention.tokens must be a non-empty sentence"),
    (TINY.read_text().replace('"I", "drink", "tea"', '"I", "adore", "tea"'), "'adore' not in the translator's"),
    # U+0378 is unassigned: no font draws it (tests/test_font_coverage.py asks fontconfig to be sure)
    (TINY.read_text().replace('["cats", "sleep"]', '["cats", "sl\u0378eep"]'),
     "self_attention.tokens[1] = 'sl\\u0378eep' holds '\\u0378' (U+0378), which no installed font can draw"),
])
def test_a_bad_example_exits_2_with_one_line_and_writes_nothing(project, tmp_path, body, expected):
    bad = tmp_path / "bad.toml"
    bad.write_text(body)
    for extra in ((), ("--check",)):
        result = project.render("sentence", "--example", str(bad), *extra)
        assert result.returncode == 2, result.stderr
        assert expected in one_line_error(result)
        assert not project.out.exists()


def test_check_prints_what_the_clips_would_show_without_rendering(tmp_path):
    result = _render("--example", str(TINY), "--check", "--out", str(tmp_path / "media"))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "2 tokens 'cats sleep', width 2" in out and "1 head(s) of width 2 (d_out 2)" in out
    assert "'hello world'" in out and "warnings:" in out
    assert not (tmp_path / "media").exists()


def test_vocabulary_lists_the_translators_words():
    result = _render("--vocabulary")
    assert result.returncode == 0
    assert result.stdout.startswith("The translator knows 32 English words:")
    words = result.stdout.splitlines()[1].split()
    assert {"coffee", "love", "I", "water"} <= set(words) and "<pad>" not in words


def test_an_example_renders_its_own_numbers_and_rerenders_when_the_file_changes(project, tmp_path):
    mine = tmp_path / "mine.toml"
    mine.write_text(TINY.read_text())
    first = project.render("sentence", "--example", str(mine), "-f", "mp4")
    assert first.returncode == 0, first.stderr
    assert "sentence: cats sleep" in project.clip("sentence", ext="vtt").read_text()
    assert "0 rendered, 1 up to date" in project.render("sentence", "--example", str(mine), "-f", "mp4").stdout
    mine.write_text(TINY.read_text().replace('["cats", "sleep"]', '["dogs", "bark"]'))
    again = project.render("sentence", "--example", str(mine), "-f", "mp4")
    assert again.returncode == 0 and "sentence: dogs bark" in project.clip("sentence", ext="vtt").read_text()


def test_without_out_an_example_goes_to_its_own_folder():
    from rendering.pipeline.example_file import choose, default_out

    media = ROOT / "media"
    assert default_out(media, choose(None)) == media
    assert default_out(media, choose(str(TINY))) == media / "examples" / "tiny"


def test_the_page_says_which_example_its_clips_come_from(project, tmp_path):
    mine = tmp_path / "mine.toml"
    mine.write_text(TINY.read_text().replace('description = "Two tokens, width 2, one head"',
                                             'description = "Cats <b>sleep</b>"'))
    assert project.render("sentence", "--example", str(mine), "-f", "mp4").returncode == 0
    assert project.manifest()["example"] == {"name": "tiny", "description": "Cats <b>sleep</b>"}
    page = (project.out / "index.html").read_text()
    assert "computed from the example “tiny”: Cats &lt;b&gt;sleep&lt;/b&gt;" in page


def test_the_cli_names_the_same_post_example_as_the_package():
    from attention_math import example_spec
    from rendering.pipeline import example_file as cli_examples

    # examples/post.toml is the repository's link to the file the package ships
    assert cli_examples.POST_EXAMPLE.resolve() == example_spec.POST_EXAMPLE.resolve()
    assert cli_examples.POST_EXAMPLE.is_symlink()
