"""The French post: a translation of the English one, block for block, with French typography."""

from __future__ import annotations

import fnmatch
import re
import tomllib
from pathlib import Path

import pytest

from rendering.site.post_text import (FRENCH_OUTLINE_PATH, FRENCH_POST_PATH, OUTLINE_PATH, POST_PATH, Code, Diagram,
                                      DisplayMath, Heading, ListBlock, Paragraph, Preformatted, Table, inline_parts,
                                      load_post, load_post_in, parse_outline, post_paths, slugify)

NBSP, NNBSP = "\u00a0", "\u202f"
PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


@pytest.fixture(scope="module")
def english():
    return load_post()


@pytest.fixture(scope="module")
def french():
    return load_post_in("fr")


def shape(block) -> tuple:
    """What a translation must keep of a block: its kind, heading level, list length and order, table shape."""
    if isinstance(block, Heading):
        return ("Heading", block.level)
    if isinstance(block, ListBlock):
        return ("ListBlock", len(block.items), block.ordered)
    if isinstance(block, Table):
        return ("Table", tuple(len(row) for row in block.rows))
    if isinstance(block, Diagram):
        return ("Diagram", block.mermaid, block.text.count("\n") if not block.mermaid else None)
    return (type(block).__name__,)


def prose(post) -> list[str]:
    """The French running text: paragraphs, headings, list items and table cells, minus inline math and code."""
    runs: list[str] = [post.title]
    for block in post.blocks:
        if isinstance(block, (Paragraph, Heading)):
            runs.append(block.text)
        elif isinstance(block, ListBlock):
            runs.extend(block.items)
        elif isinstance(block, Table):
            runs.extend(cell for row in block.rows for cell in row)
    return ["".join(value for kind, value in inline_parts(run) if kind == "text") for run in runs]


def paragraph_text(post) -> list[str]:
    return ["".join(value for kind, value in inline_parts(b.text) if kind == "text")
            for b in post.blocks if isinstance(b, Paragraph)]


def test_post_paths_by_language_and_english_unchanged(english):
    assert post_paths() == (POST_PATH, OUTLINE_PATH)
    assert post_paths("en") == (POST_PATH, OUTLINE_PATH)
    assert post_paths("fr") == (FRENCH_POST_PATH, FRENCH_OUTLINE_PATH)
    with pytest.raises(ValueError, match="no post in language 'de'"):
        post_paths("de")
    assert load_post_in("en") == english
    assert load_post_in() == english


def test_the_french_files_are_packaged_like_the_english_ones():
    patterns = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]["*"]
    for path in (POST_PATH, OUTLINE_PATH, FRENCH_POST_PATH, FRENCH_OUTLINE_PATH):
        assert path.is_file()
        assert any(fnmatch.fnmatch(path.name, pattern) for pattern in patterns), path.name


def test_the_french_post_has_the_same_blocks_as_the_english(english, french):
    assert [shape(b) for b in french.blocks] == [shape(b) for b in english.blocks]
    assert sum(isinstance(b, Heading) for b in french.blocks) == 23


def test_the_french_outline_has_the_english_directives_in_order():
    def kinds(path):
        return [line.split(" ", 1)[0] for line in path.read_text(encoding="utf-8").splitlines()
                if line.strip() and not line.startswith("#")]
    assert kinds(FRENCH_OUTLINE_PATH) == kinds(OUTLINE_PATH)
    outline = parse_outline(FRENCH_OUTLINE_PATH.read_text(encoding="utf-8"))
    assert len(outline.headings) == len(parse_outline(OUTLINE_PATH.read_text(encoding="utf-8")).headings)


def test_code_and_formulas_are_the_english_ones_verbatim_and_pictures_keep_their_drawing(english, french):
    for kind in (Code, DisplayMath):
        english_blocks = [b for b in english.blocks if isinstance(b, kind)]
        assert english_blocks and [b for b in french.blocks if isinstance(b, kind)] == english_blocks, kind.__name__
    # Inline formulas too: the same LaTeX, in the same order.
    assert french.formulas() == english.formulas()
    # A picture's words are French (the bottleneck's "ALL of the English must fit…"); its drawing, line by line,
    # and the example's own tokens in it are the English picture's.
    drawing = lambda block: [re.sub(r"[^│▼↑→←_\[\]]", "", line) for line in block.text.splitlines()]  # noqa: E731
    english_pictures = [b for b in english.blocks if isinstance(b, Preformatted)]
    french_pictures = [b for b in french.blocks if isinstance(b, Preformatted)]
    assert english_pictures and [drawing(b) for b in french_pictures] == [drawing(b) for b in english_pictures]
    bottleneck = next(b.text for b in french_pictures if "vecteur s" in b.text)
    assert all(f'"{token}"' in bottleneck for token in ("I", "love", "coffee", "J'aime", "le", "café"))
    assert "English" not in bottleneck and "Decoder" not in bottleneck


def test_the_title_and_headings_are_french(english, french):
    assert french.title != english.title
    assert french.title.startswith("L’attention de zéro")
    english_headings = {h.text for h in english.headings()}
    assert not english_headings & {h.text for h in french.headings()}
    # Anchors drop accents rather than letters; English anchors are unchanged (ASCII headings).
    assert "etape-a-scores-bruts" in [h.slug for h in french.headings()]
    assert "step-a-raw-scores" in [h.slug for h in english.headings()]
    assert slugify("Step A: raw scores") == "step-a-raw-scores"
    assert len({h.slug for h in french.headings()}) == len(french.headings())


def test_the_example_keeps_its_own_tokens(french):
    paragraphs = [b.text for b in french.blocks if isinstance(b, Paragraph)]
    assert "Entrée\u00a0: I love coffee" in paragraphs
    assert "Sortie\u00a0: J'aime le café" in paragraphs


def test_french_quotes_not_straight_ones(french):
    runs = prose(french)
    assert not [run for run in runs if '"' in run]
    assert not [run for run in runs if "“" in run or "”" in run]
    joined = "\n".join(runs)
    assert joined.count("«") == joined.count("»") >= 5
    assert not re.search(f"«(?!{NBSP})", joined), "« must be followed by a non-breaking space"
    assert not re.search(f"(?<!{NBSP})»", joined), "» must be preceded by a non-breaking space"


def test_non_breaking_space_before_double_punctuation(french):
    bad = [run for run in prose(french) if re.search(r" [:;?!]", run)]
    assert not bad, bad[:3]
    joined = "\n".join(prose(french))
    assert f"{NBSP}:" in joined and f"{NNBSP};" in joined and f"{NNBSP}?" in joined


def test_decimal_commas_in_prose(french):
    decimals = [run for run in paragraph_text(french) if re.search(r"\b\d+\.\d+\b", run)]
    assert not decimals, decimals
    assert any("0,1" in run for run in paragraph_text(french))
    # The dot stays where it belongs: inside formulas and code.
    assert "0.73" in " ".join(latex for latex, _ in french.formulas())
