"""The post's formulas: LaTeX translated to Typst math, typeset offline to SVG, sized to sit on the text line."""

from __future__ import annotations

import re

import pytest
import typst

import rendering.site.math_svg as math_svg
from rendering import cache_root
from rendering.site.latex_typst import latex_to_typst
from rendering.site.math_svg import MathRenderer
from rendering.site.post_text import load_post


@pytest.mark.parametrize("latex, typst_math", [
    (r"\frac{a}{b}", "(a)/(b)"),
    (r"QK^\top", "Q K^(top)"),  # LaTeX letters are separate symbols; Typst would read "QK" as one name
    (r"x_{ij}", "x_(i j)"),
    (r"x_ij", "x_(i)j"),  # as in LaTeX, an unbraced script takes one character
    (r"\mathrm{softmax}(X)", '"softmax"(X)'),
    (r"q_i^\top k_j / \sqrt{d_k}", r"q_(i)^(top)k_(j)\/sqrt(d_(k))"),  # a bare / would make a Typst fraction
    (r"\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}", "mat(1, 2; 3, 4)"),
    (r"\begin{cases} a & j \le i \\ -\infty & j > i \end{cases}", "cases(a & j<=i, -infinity & j>i)"),
    (r"\begin{align*} a &= 1 \\ b &= 2 \end{align*}", r"a &=1 \ b &=2"),
    (r"\mathrm{softmax}\!\left(\frac{x}{y}\right)", '"softmax"lr(( (x)/(y) ))'),
    (r"x \in \mathbb{R}^{T \times d}", "x in RR^(T times d)"),
    (r"\omega_i \quad (i = 1,\ldots,4)", "omega_(i)quad (i=1,dots.h,4)"),
    (r"h_1\ (\texttt{I})", 'h_(1)space (mono("I"))'),  # "space(" would read as a call
    (r"\sum_{j'} x", "sum_(j')x"),
])
def test_latex_to_typst(latex, typst_math):
    assert latex_to_typst(latex) == typst_math


@pytest.mark.parametrize("latex, message", [
    (r"\foo{x}", r"unsupported LaTeX command \\foo"),
    (r"x_{i", "missing '}'"),
    (r"a}", "unexpected '}'"),
    (r"\begin{matrix} 1 \end{matrix}", "unsupported environment 'matrix'"),
    (r"\left( x", r"\\left without \\right"),
])
def test_unsupported_or_broken_latex_is_a_clear_error(latex, message):
    with pytest.raises(ValueError, match=message):
        latex_to_typst(latex)


@pytest.fixture(scope="module")
def typeset(tmp_path_factory):
    """Every formula of the post, typeset once."""
    folder = tmp_path_factory.mktemp("math")
    renderer = MathRenderer(folder, "page/math")
    images = {(latex, display): renderer.render(latex, display) for latex, display in load_post().formulas()}
    return folder, images


def test_every_formula_of_the_post_typesets_to_an_svg(typeset):
    folder, images = typeset
    assert len(images) > 70
    files = sorted(folder.glob("*.svg"))
    assert len(files) == len({image.path for image in images.values()})
    for image in images.values():
        assert image.width_pt > 0 and image.height_pt > 0
        assert 0 < image.baseline_pt <= image.height_pt
    for file in files:
        svg = file.read_text(encoding="utf-8")
        assert svg.startswith("<svg ") and ("<path" in svg or "<use" in svg)
        assert not re.search(r"""(href|src)="https?:""", svg), "an SVG must not load anything"
        assert "<text" not in svg  # glyphs are outlines: the browser needs no math font


def test_inline_formulas_record_where_their_baseline_is(typeset):
    _, images = typeset
    x = images[("x_3", False)]
    fraction = images[(r"\alpha_{ij} = \frac{\exp(\omega_{ij})}{\sum_{j'} \exp(\omega_{ij'})}", False)]
    plain = images[("i", False)]
    assert plain.depth_pt < 0.3  # "i" sits on the baseline
    assert 1.0 < x.depth_pt < 3.5  # the subscript hangs below it
    assert fraction.depth_pt > 3.0 and fraction.baseline_pt > 5.0  # a denominator below, a numerator above
    wide = images[(r"W_q = \begin{pmatrix} 0.9 & 0.0 & 0.0 \\ 0.1 & 0.5 & 0.0 \\ 0.0 & 0.0 & 0.8 \end{pmatrix} "
                   r"\quad\Rightarrow\quad q = W_q\, s_{\mathrm{decoder}} = (0.9,\ 0.1,\ 0.8).", True)]
    assert wide.height_pt > 30 and wide.width_pt > 150  # three matrix rows, both sides of the arrow


def test_a_formula_already_typeset_is_reused_and_stale_ones_are_removed(tmp_path, monkeypatch):
    first = MathRenderer(tmp_path, "page/math")
    kept = first.render("a + b", display=False)
    stale = first.render("c", display=True)
    assert (tmp_path / stale.path.rsplit("/", 1)[1]).exists()

    def no_typst(*args, **kwargs):
        raise AssertionError("typst was called for a formula that is cached")

    monkeypatch.setattr(typst, "compile", no_typst)
    monkeypatch.setattr(typst, "query", no_typst)
    second = MathRenderer(tmp_path, "page/math")
    assert second.render("a + b", display=False) == kept
    second.remove_unused()
    assert sorted(p.name for p in tmp_path.iterdir()) == [kept.path.rsplit("/", 1)[1]]


def test_html_size_of_a_formula_scales_with_the_text(typeset):
    _, images = typeset
    image = images[("q", False)]
    em = float(image.em(image.height_pt).removesuffix("em"))
    assert em == pytest.approx(image.height_pt / math_svg.FONT_PT * math_svg.EM_PER_FONT, abs=1e-3)


def _no_typst(monkeypatch):
    def no_typst(*args, **kwargs):
        raise AssertionError("typst was called for a formula that is cached")

    monkeypatch.setattr(typst, "compile", no_typst)
    monkeypatch.setattr(typst, "query", no_typst)


def test_a_page_in_another_folder_takes_its_formulas_from_the_cache(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setattr(MathRenderer, "_typeset_in_this_process", {})  # only the cache may remember
    typeset = MathRenderer(tmp_path / "first", "page/math", cache=cache).render(r"\frac{a}{b_1}", display=False)
    name = typeset.path.rsplit("/", 1)[1]
    assert (cache / name).read_text(encoding="utf-8") == (tmp_path / "first" / name).read_text(encoding="utf-8")

    monkeypatch.setattr(MathRenderer, "_typeset_in_this_process", {})
    with monkeypatch.context() as patched:
        _no_typst(patched)
        again = MathRenderer(tmp_path / "second", "page/math", cache=cache).render(r"\frac{a}{b_1}", display=False)
    assert again == typeset
    assert (tmp_path / "second" / name).read_bytes() == (tmp_path / "first" / name).read_bytes()


@pytest.mark.parametrize("damage", ["", "<svg></svg>", "\udcff"])
def test_an_unreadable_cached_formula_is_typeset_again(tmp_path, monkeypatch, damage):
    cache = tmp_path / "cache"
    monkeypatch.setattr(MathRenderer, "_typeset_in_this_process", {})
    typeset = MathRenderer(tmp_path / "first", "page/math", cache=cache).render("x^2", display=False)
    name = typeset.path.rsplit("/", 1)[1]
    (cache / name).write_bytes(damage.encode("utf-8", "surrogateescape"))
    monkeypatch.setattr(MathRenderer, "_typeset_in_this_process", {})
    again = MathRenderer(tmp_path / "second", "page/math", cache=cache).render("x^2", display=False)
    assert again == typeset
    assert (tmp_path / "second" / name).read_text(encoding="utf-8") == (tmp_path / "first" / name).read_text(
        encoding="utf-8")


def test_the_page_keeps_its_formulas_in_the_projects_cache(typeset, tmp_path, monkeypatch):
    """(After `typeset`, in its worker: the post's formulas are then typeset already in this process.)"""
    from rendering.site.page import write_page

    monkeypatch.setenv(cache_root.CACHE_ENV_VAR, str(tmp_path / "root"))
    write_page({"version": 1, "clips": []}, tmp_path / "out")
    on_page = {path.name: path.read_bytes() for path in (tmp_path / "out" / "page" / "math").glob("*.svg")}
    assert len(on_page) > 70
    assert {path.name: path.read_bytes() for path in (tmp_path / "root" / "math").glob("*.svg")} == on_page
    monkeypatch.delenv(cache_root.CACHE_ENV_VAR)
    assert math_svg.default_cache_dir() == cache_root.DEFAULT_CACHE_ROOT.expanduser() / "math"
