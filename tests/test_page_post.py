"""The post's plain text parsed into blocks: the structure the page is built from."""

from __future__ import annotations

import ast
import hashlib

import pytest

from rendering.site.post_text import (POST_PATH, Code, Diagram, DisplayMath, Heading, ListBlock, Paragraph, Preformatted,
                                 Table, inline_parts, load_post, parse_outline, parse_post)
from scenes.registry import SCENES

#: sha256 of the published post's plain text, as its author handed it over: the repository's copy must be it verbatim.
PUBLISHED_POST_SHA256 = "7e14db1a3cd7c5fa92d4ef28ef5ebfcedce9cb869fdcd4d6c814cba0a07f4b9a"


@pytest.fixture(scope="module")
def post():
    return load_post()


def blocks_of(post, kind):
    return [b for b in post.blocks if isinstance(b, kind)]


def test_the_repository_copy_is_the_published_post_verbatim():
    assert hashlib.sha256(POST_PATH.read_bytes()).hexdigest() == PUBLISHED_POST_SHA256
    assert POST_PATH.read_text(encoding="utf-8").startswith("Attention from Scratch: Soft Attention to Multi-Head\n")


def test_title_and_every_registry_section_is_a_heading_in_registry_order(post):
    assert post.title == "Attention from Scratch: Soft Attention to Multi-Head"
    headings = [h.text for h in post.headings()]
    positions = [headings.index(spec.section) for spec in SCENES]  # ValueError if a section is missing
    assert positions == sorted(positions), "registry order must follow the post's order"
    assert len({h.slug for h in post.headings()}) == len(headings)


def test_code_listings_are_whole_python_programs(post):
    codes = blocks_of(post, Code)
    assert len(codes) == 7
    for code in codes:
        ast.parse(code.text)
    self_attention = next(c.text for c in codes if "class SelfAttention(" in c.text)
    # The blank lines inside a class split the text into chunks; the listing must come back in one piece.
    assert "def __init__" in self_attention and "return weights @ V" in self_attention
    assert codes[0].text.startswith("import torch\n") and codes[0].text.rstrip().endswith("context vectors")


def test_tables_keep_their_rows_and_columns(post):
    tables = blocks_of(post, Table)
    assert [len(t.rows) for t in tables] == [3, 5, 7]
    assert [len(t.rows[0]) for t in tables] == [3, 5, 2]
    assert all(len(row) == len(t.rows[0]) for t in tables for row in t.rows)
    assert tables[1].rows[3] == ("3", "✓", "✓", "✓", "✗")


def test_formulas_display_and_inline(post):
    displays = blocks_of(post, DisplayMath)
    assert len(displays) == 13  # the MultiHead line holds two \[...\] formulas
    assert displays[-2].latex.startswith(r"\mathrm{MultiHead}(X)")
    assert displays[-1].latex.startswith(r"\mathrm{head}_h")
    inline = [latex for latex, display in post.formulas() if not display]
    assert r"e_i = q^\top h_i" in inline and r"\sqrt{d_k}" in inline
    assert all("$" not in latex for latex, _ in post.formulas())


def test_pictures_and_diagrams_keep_their_text(post):
    pre = blocks_of(post, Preformatted)
    assert any('[ one vector s ]' in p.text and p.text.startswith('  "I" → "love"') for p in pre)
    mermaid = [d for d in blocks_of(post, Diagram) if d.mermaid]
    assert len(mermaid) == 7
    flattened = [d for d in blocks_of(post, Diagram) if not d.mermaid]
    assert len(flattened) == 1 and flattened[0].text.count("\n") == 8  # 8 boxes, the two rows joined


def test_lists_numbered_where_the_text_counts_and_references_without_link_residue(post):
    lists = blocks_of(post, ListBlock)
    ordered = [lst.items[0][:20] for lst in lists if lst.ordered]
    assert ordered == ["Project: $ q_i = x_i", "Compute scaled score", "Dzmitry Bahdanau, Ky"]
    assert len(lists[-1].items) == 3
    assert "Read in BetterReads" not in repr(post.blocks)
    assert sum(isinstance(b, Paragraph) for b in post.blocks) > 60


def test_inline_parts_split_math_code_and_citations():
    parts = inline_parts("At step $t$, feed (`J'aime`, then `le`) as in [1] and $ q $.")
    assert parts == [("text", "At step "), ("math", "t"), ("text", ", feed ("), ("code", "J'aime"),
                     ("text", ", then "), ("code", "le"), ("text", ") as in "), ("cite", "1"),
                     ("text", " and "), ("math", "q"), ("text", ".")]


SMALL_POST = """A title

Intro paragraph with $x$.

Section one

one item
two item

a\tb
1\t2

import torch

def f(x):
    return x

    return 2 * x

\\[a = b\\] \\[c = d\\]

  left   right
  spaced  out
"""


def test_a_small_post_parses_into_each_kind_of_block():
    outline = parse_outline("h1 A title\nh2 Section one\n")
    post = parse_post(SMALL_POST, outline)
    kinds = [type(b).__name__ for b in post.blocks]
    assert kinds == ["Paragraph", "Heading", "ListBlock", "Table", "Code", "DisplayMath", "DisplayMath",
                     "Preformatted"]
    assert post.blocks[1] == Heading(2, "Section one", "section-one")
    assert post.blocks[4].text == "import torch\n\ndef f(x):\n    return x\n\n    return 2 * x"


@pytest.mark.parametrize("outline, message", [
    ("h1 A title\nh2 No such line\n", "does not contain"),
    ("h1 A title\nh4 Section one\n", "kind one of"),
    ("h2 Section one\n", "must start with its title"),
    ("h1 A title\nol Section one\n", "does not start a list"),
])
def test_an_outline_that_does_not_match_the_post_is_a_clear_error(outline, message):
    with pytest.raises(ValueError, match=message):
        parse_post(SMALL_POST, parse_outline(outline))
