"""The copy and Typst patches of scenes/speed change how fast manim builds a scene, never what it builds: the same
object graph as manim's deep copy, the same SVG bytes as manim's Typst compile, and no half-written cache file."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from manim import BLUE, Circle, DecimalNumber, MathTypst, Mobject, VGroup, tempconfig
from manim.utils import typst_file_writing

from scenes.speed import copy_speed, mobject_copy, typst_speed


def _graph(mobject: Mobject) -> list:
    """Every family member's class and attributes, arrays as lists, mobjects by their place in the family."""
    family = mobject.get_family()
    place = {id(member): index for index, member in enumerate(family)}

    def value(v):
        if isinstance(v, Mobject):
            return ("mobject", place.get(id(v)))
        if isinstance(v, np.ndarray):
            return ("array", v.dtype.str, v.tolist())
        if isinstance(v, (list, tuple)):
            return [value(item) for item in v]
        if isinstance(v, dict):
            return {key: value(item) for key, item in v.items()}
        return repr(v) if type(v).__repr__ is object.__repr__ else v

    return [(type(m).__name__, {k: value(_selectable(m, v) if k == "id_to_vgroup_dict" else v)
                                 for k, v in vars(m).items() if k not in ("original_id", "path_obj")})
            for m in family]


def _selectable(text: Mobject, groups: dict) -> dict:
    """The groups `select(label)` reads, by manim's own list of them; the rest of the SVG's groups a copy leaves out."""
    labelled = {key for keys in getattr(text, "_label_aliases", {}).values() for key in keys}
    return {key: group for key, group in groups.items() if key in labelled}


@pytest.fixture
def typst_folder(tmp_path):
    with tempconfig({"media_dir": str(tmp_path), "verbosity": "ERROR"}):
        yield tmp_path


def _copy_with(deepcopy, mobject: Mobject) -> Mobject:
    saved = Mobject.__deepcopy__
    Mobject.__deepcopy__ = deepcopy
    copy_speed.install()
    try:
        return mobject.copy()
    finally:
        Mobject.__deepcopy__ = saved


def test_the_copy_is_manims_copy(typst_folder):
    shape = VGroup(MathTypst("alpha_i h_i = 0.53"), Circle(color=BLUE))
    stock = _copy_with(mobject_copy._stock_deepcopy, shape)
    fast = _copy_with(mobject_copy._deepcopy_mobject, shape)
    assert _graph(fast) == _graph(stock) == _graph(shape)


def test_a_copied_text_selects_its_own_parts():
    text = MathTypst("{{ q : query }} dot {{ k : key }} = 0.53")
    copied = _copy_with(mobject_copy._deepcopy_mobject, text)
    own, original = {id(m) for m in copied.get_family()}, {id(m) for m in text.get_family()}
    for label in ("query", "key"):
        parts = copied.select(label)
        assert len(parts) and all(id(m) in own and id(m) not in original for m in parts.get_family()[1:])
        assert np.array_equal(parts.get_all_points(), text.select(label).get_all_points())


def test_a_copied_text_keeps_only_the_groups_a_label_names():
    text = MathTypst("{{ q : query }} dot k = 0.53")
    copied = _copy_with(mobject_copy._deepcopy_mobject, text)
    assert set(copied.id_to_vgroup_dict) == {"query"} < set(text.id_to_vgroup_dict)


def test_the_copy_shares_no_array_with_the_original_and_keeps_shared_ones_shared(typst_folder):
    original = VGroup(Circle(), Circle())
    original[1].points = original[0].points  # two members sharing one array
    copied = _copy_with(mobject_copy._deepcopy_mobject, original)
    assert copied[0].points is copied[1].points
    assert copied[0].points is not original[0].points
    copied[0].shift(np.array([1.0, 0.0, 0.0]))
    assert np.array_equal(original[0].points, Circle().points)
    assert copied[0].submobjects is not original[0].submobjects


def test_the_copy_shares_a_glyphs_parsed_path_but_not_its_points(typst_folder):
    original = MathTypst("0.53")
    glyph = next(m for m in original.get_family() if hasattr(m, "path_obj"))
    copied = _copy_with(mobject_copy._deepcopy_mobject, original)
    copied_glyph = next(m for m in copied.get_family() if hasattr(m, "path_obj"))
    assert copied_glyph.path_obj is glyph.path_obj  # read once, when the glyph was made: shared, not copied
    copied.shift(np.array([1.0, 0.0, 0.0]))
    assert not np.array_equal(copied_glyph.points, glyph.points)


def test_typst_compiles_the_same_svg_as_manim(typst_folder):
    code, preamble = "$ sum_i alpha_i h_i $ 0.53 coffee", '#set text(font: "DejaVu Sans")'
    fast = typst_speed.typst_to_svg_file(code, preamble=preamble)
    fast_bytes = fast.read_bytes()
    fast.unlink()
    stock = typst_speed._stock_typst_to_svg_file(code, preamble=preamble)
    assert fast == stock and fast_bytes == stock.read_bytes()


def test_typst_cache_files_are_whole_and_reused(typst_folder):
    first = typst_speed.typst_to_svg_file("$ q^top k $")
    stamp = os.stat(first).st_mtime_ns
    assert typst_speed.typst_to_svg_file("$ q^top k $") == first and os.stat(first).st_mtime_ns == stamp
    assert sorted(p.name for p in Path(first).parent.iterdir()) == sorted([first.name, first.with_suffix(".typ").name])
    assert first.read_bytes().startswith(b"<svg")


def test_install_replaces_the_name_the_typst_mobject_calls():
    from manim.mobject.text import typst_mobject

    typst_speed.install()
    assert typst_mobject.typst_to_svg_file is typst_file_writing.typst_to_svg_file is typst_speed.typst_to_svg_file


def test_a_text_built_from_a_kept_parse_is_the_text_a_fresh_parse_builds(typst_folder, monkeypatch):
    """The parsed-SVG cache (typst_speed.generate_mobject): a formula with a fraction bar (a tracked stroke) and a
    named part, and a plain text, each made twice with manim's in-memory SVG cache emptied between (as every headless
    run starts), the second time parsed by no one: both are manim's own build, attribute for attribute, the glyphs'
    tracked strokes and the labels included."""
    from manim import Typst
    from manim.mobject.svg import svg_mobject
    from manim.mobject.svg.svg_mobject import SVGMobject

    makers = (lambda: MathTypst("{{ e^(s_i) : num }} / (sum_j e^(s_j))", font_size=30),
              lambda: Typst("*coffee* scores 0.53", font_size=22))

    def build(generate) -> list:
        monkeypatch.setattr(SVGMobject, "generate_mobject", generate)
        graphs = []
        for make in makers:
            svg_mobject.SVG_HASH_TO_MOB_MAP.clear()
            text = make()
            graphs.append((_graph(text), text._label_aliases,
                           [text.get_family().index(m) for m in text._stroke_width_tracked_submobjects]))
        return graphs

    stock = build(typst_speed._stock_generate_mobject)
    assert stock[0][1] and stock[0][2], "the formula has a named part and a tracked stroke (its fraction bar)"
    typst_speed._PARSED.clear()
    parses = []
    real_parse = typst_speed.svgelements.SVG.parse
    monkeypatch.setattr(typst_speed.svgelements.SVG, "parse",
                        staticmethod(lambda *args, **kwargs: parses.append(args) or real_parse(*args, **kwargs)))
    assert build(typst_speed.generate_mobject) == stock and len(parses) == 2  # parsed, kept
    assert build(typst_speed.generate_mobject) == stock and len(parses) == 2  # built from the kept parses


def test_a_copied_number_shares_the_settings_it_was_made_with_and_still_changes_on_its_own(typst_folder):
    original = DecimalNumber(0.53, num_decimal_places=2, mob_class=MathTypst)
    copied = _copy_with(mobject_copy._deepcopy_mobject, original)
    texts = [[m for m in number.get_family() if isinstance(m, MathTypst)] for number in (copied, original)]
    assert copied.initial_config is original.initial_config  # read only by set_value, never changed: shared
    assert len(texts[0]) == len(texts[1]) == 4
    assert all(c.svg_default is o.svg_default and c is not o for c, o in zip(*texts))
    copied.set_value(0.91)
    assert copied.get_value() == pytest.approx(0.91) and original.get_value() == pytest.approx(0.53)
    assert original.initial_config == DecimalNumber(0.53, num_decimal_places=2, mob_class=MathTypst).initial_config


def test_installing_the_patches_makes_the_cycle_collector_run_less_often():
    import gc

    from scenes.speed import gc_speed, install_speed_patches

    saved = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)  # CPython's defaults
        install_speed_patches()
        assert gc.get_threshold() == gc_speed.THRESHOLDS
        assert all(ours > stock for ours, stock in zip(gc_speed.THRESHOLDS, (700, 10, 10)))
    finally:
        gc.set_threshold(*saved)
