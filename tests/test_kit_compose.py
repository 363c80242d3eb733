"""The layout engine's picture tests (scenes.kit.compose): given a frame and content, the form chosen, its rung
and its smallest text; the preference order on synthetic content in the three frames."""

from __future__ import annotations

import pytest
from manim import Square, VGroup, tempconfig

from scenes import frame
from scenes.kit import shot_content, compose, layout, legible_fit, typography
from scenes.kit.forms import flow_forms
from scenes.kit.numbers import Source
from scenes.kit.products import DotProducts, encoder_scoring_forms
from scenes.quality.headless import resolution_480p


def in_frame(aspect: str):
    return tempconfig(resolution_480p(aspect))


def scoring_tokens() -> list[str]:
    return list(Source("coffee").get("tokens"))


def plan_for(aspect: str, forms_of):
    with in_frame(aspect):
        made, plan = compose.compose(forms_of())
        return made, plan, compose.smallest_number(plan.whole), layout.body()


def test_the_post_scoring_reads_worked_side_by_side_in_landscape():
    _, plan, _, body = plan_for("landscape", lambda: encoder_scoring_forms(Source("coffee"), scoring_tokens()))
    assert (plan.form, plan.rung) == ("side by side, square rows", compose.WORKED)
    assert plan.whole.width <= body.width + 1e-6 and plan.whole.height <= body.height + 1e-6


def test_the_post_scoring_stacks_in_portrait_with_every_number():
    """3 × 3 stacked, the words right of H's rows (above the sums), fits a phone's body at the floor: no camera,
    no shades."""
    made, plan, number, body = plan_for("portrait", lambda: encoder_scoring_forms(Source("coffee"), scoring_tokens()))
    assert plan.form.startswith("stacked") and plan.rung in (compose.WORKED, compose.FLOOR)
    assert number >= typography.MIN_FONT_SIZE * (1 - 1e-6) and not compose.shows_shades(plan.whole)
    assert plan.whole.width <= body.width + 1e-6 and plan.whole.height <= body.height + 1e-6
    assert made.words.get_left()[0] > made.comp.matrix.get_right()[0]  # the words on H's right
    assert made.comp.result.get_left()[0] > made.comp.products.get_right()[0]


def test_the_post_scoring_under_a_stacked_formula_takes_lower_rows_in_portrait():
    """Under soft_formula's three-line formula a phone's body is short: the stacked form at a lower row height
    still reads at the floor."""
    with in_frame("portrait"):
        body = layout.body()
        short = layout.Region(body.left, body.right, body.bottom, body.bottom + 4.2)
        made, plan = compose.compose(encoder_scoring_forms(Source("coffee"), scoring_tokens()), short)
        number = compose.smallest_number(plan.whole)
    assert plan.form.startswith("stacked") and not plan.form.endswith("square rows")
    assert plan.rung in (compose.WORKED, compose.FLOOR) and number >= typography.MIN_FONT_SIZE * (1 - 1e-6)


def test_a_small_product_stacks_in_portrait_with_its_numbers():
    """q = W_q s for the post's 3 × 3 W_q: stacked, the portrait body's own flow, numbers at the floor or more."""
    def forms():
        return flow_forms(lambda stacked: DotProducts(Source("coffee"), matrix="W_q", vector="s_decoder",
                                                      products="q_terms", result="q", stacked=stacked))
    _, plan, number, body = plan_for("portrait", forms)
    assert plan.form == "stacked" and plan.rung in (compose.WORKED, compose.FLOOR)
    assert number >= typography.MIN_FONT_SIZE * (1 - 1e-6)
    assert plan.whole.width <= body.width + 1e-6 and plan.whole.height <= body.height + 1e-6


@pytest.mark.parametrize("aspect", frame.ASPECTS)
def test_the_first_form_that_reads_best_wins(aspect):
    built = []

    def form(name, scale):
        def build():
            built.append(name)
            return DotProducts(Source("coffee"), matrix="H", vector="q", products="score_terms", result="scores",
                               stacked=layout.is_tall()).scale(scale)
        return compose.Form(name, build)

    with in_frame(aspect):
        _, plan = compose.compose([form("tiny", 0.01), form("plain", 1.0), form("never", 1.0)])
    assert plan.form == "plain" and plan.rung != compose.CAMERA, "a form at the floor beats one under it"
    # "plain", weighed as a sketch (scenes.kit.sketch), is built again for real once chosen
    if plan.rung == compose.WORKED:
        assert built == ["tiny", "plain", "plain"], "a form after one that reads worked is not built"
    else:  # at the floor only: a later form might read worked, so it is built, and the first at the floor kept
        assert built == ["tiny", "plain", "never", "plain"]


def test_a_last_resort_form_is_taken_only_where_no_other_reads_and_never_for_the_camera(monkeypatch):
    """A map packed closer than the kit likes: an earlier form at the floor beats it even where it reads worked; it
    beats the camera; and where even it needs the camera, the camera takes a roomier form. (The rungs are given:
    what is under test is the choice among them.)"""
    rungs = {}
    monkeypatch.setattr(compose, "rung_of", lambda mob, region, **kw: rungs[mob.name])

    def form(name, rung, last_resort=False):
        rungs[name] = rung
        return compose.Form(name, lambda: Square(1.0, name=name), last_resort=last_resort, camera=not last_resort)

    with in_frame("landscape"):
        choice = lambda *forms: compose.compose(list(forms))[1]  # noqa: E731
        plan = choice(form("roomy", compose.FLOOR), form("packed", compose.WORKED, last_resort=True))
        assert (plan.form, plan.rung) == ("roomy", compose.FLOOR)
        plan = choice(form("roomy", compose.CAMERA), form("packed", compose.FLOOR, last_resort=True))
        assert (plan.form, plan.rung) == ("packed", compose.FLOOR)
        plan = choice(form("roomy", compose.CAMERA), form("packed", compose.CAMERA, last_resort=True))
        assert (plan.form, plan.rung) == ("roomy", compose.CAMERA)


def test_a_wide_product_goes_to_the_camera_at_the_floor():
    """The wide example's 8 words × 6 wide scoring cannot read whole in a phone's body: camera, at the floor."""
    import os
    from attention_math import example_spec
    from tests.conftest import ROOT

    os.environ[example_spec.EXAMPLE_ENV_VAR] = str(ROOT / "examples" / "wide.toml")
    try:
        source = Source("coffee")
        assert source.shape("H") == (8, 6)
        _, plan, number, _ = plan_for("portrait", lambda: encoder_scoring_forms(source, list(source.get("tokens"))))
    finally:
        del os.environ[example_spec.EXAMPLE_ENV_VAR]
    assert plan.rung == compose.CAMERA
    assert typography.MIN_FONT_SIZE * (1 - 1e-6) <= number <= typography.MIN_FONT_SIZE * 1.1


def test_compose_needs_a_form():
    with pytest.raises(ValueError, match="at least one form"):
        compose.compose([])


# --- the generators two scenes share (scenes.kit.forms, scenes.kit.score_bars) ---------------------------------
def rain_softmax_forms():
    """weight_free's Step B content (the post's ω and α over the rain sentence) in the softmax step's forms."""
    from scenes.kit.score_bars import softmax_forms
    from scenes.kit.text import math
    from scenes.kit.widgets import vector

    src = Source("rain")
    return softmax_forms(src, "alpha", list(src.get("tokens")),
                         lambda cell, orientation: vector(src, "omega", orientation=orientation, cell_size=cell),
                         lambda: math("omega"))


@pytest.mark.parametrize("aspect, form, rung", [
    ("landscape", "scores beside the bars, ", compose.WORKED),
    ("square", "scores over the bars, ", compose.WORKED),
    # a phone: every standing or roomy lying form needs the camera, so the form made for it (the lying bars close
    # to the scores) is built, and it reads at the floor
    ("portrait", "lying bars close to the scores, ", compose.FLOOR),
])
def test_the_softmax_step_takes_the_arrangement_its_frame_reads(aspect, form, rung):
    made, plan, number, body = plan_for(aspect, rain_softmax_forms)
    assert plan.form.startswith(form) and plan.rung == rung
    assert number >= typography.MIN_FONT_SIZE * (1 - 1e-6)
    assert plan.whole.width <= body.width + 1e-6 and plan.whole.height <= body.height + 1e-6
    arrow = made.arrow()  # the arrow of the arrangement: on the names' line where the bars lie close
    if made.arrow_runs == "on the names":
        assert abs(arrow.get_center()[1] - made.target[1].get_center()[1]) < 1e-6
    else:
        assert made.target[0].get_right()[0] <= arrow.get_left()[0] + 1e-6 or made.arrow_runs == "downwards"


def test_the_close_softmax_form_is_never_built_where_another_reads():
    with in_frame("landscape"):
        forms = rain_softmax_forms()
        assert [f.close_up for f in forms].index(True) == len(forms) - 3, "the close forms come last, made for it"
        _, plan = compose.compose(forms)
    assert not plan.form.startswith("lying bars close")


def test_row_height_forms_try_the_roomiest_rows_first_and_keep_the_first_that_reads_worked():
    from scenes.kit import legible_fit
    from scenes.kit.forms import row_height_forms

    source = Source("qkv")

    def forms():
        return row_height_forms(lambda cell: DotProducts(source, matrix="K", vector="query_row.q",
                                                         products="query_row.score_terms",
                                                         result="query_row.raw_scores", cell_size=cell))
    with in_frame("landscape"):
        names = [f.name for f in forms()]
    assert len(names) == len(legible_fit.row_heights()) and names[0] == "square rows"
    _, plan, number, _ = plan_for("landscape", forms)
    assert (plan.form, plan.rung) == (names[0], compose.WORKED) and number >= typography.WORKED_NUMBER_SIZE * 0.99
    _, plan, number, _ = plan_for("portrait", forms)  # a phone: lower rows, at the floor
    assert plan.form != names[0] and plan.rung == compose.FLOOR and number >= typography.MIN_FONT_SIZE * 0.99


def test_map_style_forms_keep_square_rows_where_they_read_and_stand_the_keys_up_on_a_phone():
    from scenes.kit.attention_map import AttentionMap
    from scenes.kit.forms import map_style_forms

    source = Source("qkv")
    forms = lambda: map_style_forms(lambda style: AttentionMap(source, "weights", list(source.get("tokens")),  # noqa: E731
                                                               **style))
    _, plan, _, _ = plan_for("landscape", forms)
    assert (plan.form, plan.rung) == ("map style 0", compose.WORKED)
    _, plan, number, _ = plan_for("portrait", forms)
    assert plan.form in ("map style 2", "map style 3", "map style 4")  # upright key words
    assert plan.rung in (compose.WORKED, compose.FLOOR) and number >= typography.MIN_FONT_SIZE * 0.99


def test_a_four_word_map_of_signed_scores_reads_on_a_phone_only_with_its_numbers_closer():
    """X Xᵀ for the post's sentence (−0.06 and its kin): every roomier style needs the camera on a phone; the last
    style (numbers and row words closer) reads at the floor, every number whole."""
    from scenes.kit.attention_map import AttentionMap
    from scenes.kit.forms import map_style_forms

    source = Source("rain")
    forms = lambda: map_style_forms(lambda style: AttentionMap(source, "scores", list(source.get("tokens")),  # noqa: E731
                                                               weights=False, font_size=32, **style))
    last = f"map style {len(legible_fit.map_styles()) - 1}"
    _, plan, number, body = plan_for("portrait", forms)
    assert (plan.form, plan.rung) == (last, compose.FLOOR) and number >= typography.MIN_FONT_SIZE * (1 - 1e-6)
    assert plan.whole.width <= body.width + 1e-6
    _, plan, _, _ = plan_for("landscape", forms)
    assert plan.form == "map style 0"
    marked = [(form.last_resort, form.camera) for form in forms()]
    assert marked == [(False, True)] * (len(marked) - 1) + [(True, False)]  # only the packed style, never filmed


def _rain_scoring(stacked: bool, cell: float):
    """Self-attention's Step A for the post's sentence: X (4 × 3) dotted with the query x₃."""
    return DotProducts(Source("rain"), matrix="X", vector="query", products="omega_terms", result="omega",
                       row_labels=list(Source("rain").get("tokens")), cell_size=cell, stacked=stacked)


def test_flow_forms_by_row_height_try_every_arrangement_at_square_rows_before_compact_ones_in_the_frames_flow():
    from scenes.kit.forms import flow_forms_by_row_height

    with in_frame("landscape"):
        wide = [form.name for form in flow_forms_by_row_height(_rain_scoring)]
    with in_frame("portrait"):
        tall = [form.name for form in flow_forms_by_row_height(_rain_scoring)]
    assert wide[:3] == ["side by side, square rows", "stacked, square rows", "side by side, compact rows"]
    assert tall[:3] == ["stacked, square rows", "side by side, square rows", "stacked, compact rows"]
    assert len(wide) == len(tall) == 6


def test_the_post_step_a_reads_worked_side_by_side_in_landscape_and_needs_the_camera_in_portrait():
    """4 × 3 with its products and sums: whole at square rows in landscape; in a phone's body no arrangement of
    the kit's DotProducts reads at the floor (the sums beside the products make it too wide), so the camera."""
    from scenes.kit.forms import flow_forms_by_row_height

    _, plan, number, body = plan_for("landscape", lambda: flow_forms_by_row_height(_rain_scoring))
    assert (plan.form, plan.rung) == ("side by side, square rows", compose.WORKED)
    assert number >= typography.WORKED_NUMBER_SIZE * (1 - 1e-6)
    _, plan, number, body = plan_for("portrait", lambda: flow_forms_by_row_height(_rain_scoring))
    assert plan.rung == compose.CAMERA and plan.whole.width > body.width
    assert number >= typography.MIN_FONT_SIZE * (1 - 1e-6), "its numbers built legible"
    assert shot_content.smallest_font(plan.whole) <= typography.MIN_FONT_SIZE * 1.1, "its smallest text at the floor"


@pytest.mark.parametrize("aspect", frame.ASPECTS)
def test_a_table_of_marks_is_no_shaded_stand_in_for_numbers(aspect):
    """A ✓/✗ table built on a map's shaded cells (no numbers): its shades go with its marks, so a form that says so
    (Form.marks) is laid out at rest; without it the same table counts as shades standing in for numbers."""
    from dataclasses import replace

    from scenes.kit import label, palette
    from scenes.kit.attention_map import AttentionMap
    from scenes.kit.forms import map_style_forms

    src = Source("causal")
    tokens = list(src.get("tokens"))

    def table(style):
        amap = AttentionMap(src, "mask", tokens, causal=True, show_values=False,
                            font_size=typography.LABEL_SIZE, **style)
        for i in range(len(tokens)):
            for j in range(len(tokens)):
                amap.cell(i, j).add(label("✗" if j > i else "✓", font_size=typography.LABEL_SIZE,
                                          color=palette.TEXT).move_to(amap.cell(i, j)[0]))
        return amap

    with in_frame(aspect):
        _, marked = compose.compose([replace(form, marks=True) for form in map_style_forms(table)])
        _, shaded = compose.compose(map_style_forms(table))
        assert marked.rung == compose.WORKED and not marked.camera
        assert marked.whole.width <= layout.body().width + 1e-6
        assert shaded.rung == compose.CAMERA


# --- motion that follows a camera plan (scenes.kit.staging) -----------------------------------------------------
def test_a_column_taller_than_a_phone_holds_is_framed_top_to_bottom_at_the_frames_own_scale():
    """end_across's shots on a part taller than the region: each as tall as the region holds, no zoom, the first
    showing the part's top and the last its bottom (the wide example's eleven rows of X in a phone's frame)."""
    from manim import DOWN, RIGHT, Rectangle

    from scenes.kit import camera_moves
    from scenes.kit.staging import _down

    with in_frame("portrait"):
        region = layout.body()
        room = region.height - 2 * camera_moves.FRAMING_MARGIN
        column = Rectangle(width=1.0, height=2.6 * room).move_to([0.3, -1.0, 0])
        shots = _down(column, region)
        assert len(shots) == 3
        for shot in shots:
            assert shot.width == pytest.approx(camera_moves.rest_shot().width)  # panned, never zoomed
        seen = [(s.center[1] + region.center[1] - room / 2, s.center[1] + region.center[1] + room / 2) for s in shots]
        assert seen[0][1] == pytest.approx(column.get_top()[1]) and seen[-1][0] == pytest.approx(column.get_bottom()[1])
        assert all(a[0] <= b[1] for a, b in zip(seen, seen[1:])), "no gap between one shot and the next"
        short = Rectangle(width=1.0, height=0.5 * room)
        assert len(_down(short, region)) == 1


@pytest.mark.parametrize("aspect", ["landscape", "portrait"])
def test_floor_scale_sets_the_smallest_text_at_the_floor_with_the_build_margin(aspect):
    """A label at 32 and one at 30 side by side: scaled by floor_scale, the 30 reads at 26 × 1.04 = 27.04."""
    from manim import VGroup

    from scenes.kit import label
    from scenes.kit.forms import floor_scale

    with in_frame(aspect):
        pair = VGroup(label("big", font_size=32), label("small", font_size=30))
        factor = floor_scale(pair)
        assert factor == pytest.approx(27.04 / 30)
        pair.scale(factor)
        assert shot_content.smallest_font(pair) == pytest.approx(27.04, rel=1e-6)


@pytest.mark.parametrize("aspect, first", [("landscape", "side by side"), ("square", "stacked"),
                                           ("portrait", "stacked")])
def test_flow_forms_wide_from_sends_a_square_body_to_the_stacked_form_first(aspect, first):
    """wide_from=1.5: only a body at least 1.5 times as wide as tall (landscape's 16:9) tries side by side first; by
    default a square body, wider than tall, does."""
    with in_frame(aspect):
        body = layout.body()
        assert [f.name for f in flow_forms(lambda stacked: stacked, wide_from=1.5)][0] == first
        default_first = "stacked" if body.height > body.width else "side by side"
        assert [f.name for f in flow_forms(lambda stacked: stacked)][0] == default_first


@pytest.mark.parametrize("aspect", frame.ASPECTS)
def test_a_form_offered_for_the_floor_only_is_taken_there_and_never_filmed(aspect):
    """A form marked camera=False (made only to reach the floor: tighter, fewer labels) wins where it reads at the
    floor; where no form does, the camera films the roomier one, though the floor-only form is narrower."""
    from scenes.kit.text import label

    def line(name, chars, *, camera=True):
        return compose.Form(name, lambda: label("m" * chars, font_size=typography.NUMBER_SIZE), camera=camera)

    with in_frame(aspect):
        _, filmed = compose.compose([line("roomy", 400), line("tight", 300, camera=False)])
        _, taken = compose.compose([line("roomy", 400), line("tight", 4, camera=False)])
        _, alone = compose.compose([line("tight", 300, camera=False)])
    assert (filmed.form, filmed.rung) == ("roomy", compose.CAMERA)
    assert taken.form == "tight" and taken.rung != compose.CAMERA
    assert (alone.form, alone.rung) == ("tight", compose.CAMERA), "the only form is filmed all the same"


def test_a_line_of_text_wraps_only_where_one_line_would_fall_below_the_floor():
    """The order's title of causal_triangle in French on a phone (one line: 24.8 < 26) wraps onto two lines at the
    floor or above; in English, and in French on a laptop's frame, it stays on one line."""
    from scenes.kit.forms import line_forms

    def title(text: str, aspect: str):
        with in_frame(aspect):
            band = layout.top_band()
            made, plan = compose.compose(line_forms(text, band.width, font_size=typography.BODY_SIZE), band)
            return plan.form, shot_content.smallest_font(made), made.width <= band.width + 1e-6

    french = "softmax d’abord, puis masque"
    form, size, inside = title(french, "portrait")
    assert form == "wrapped" and size >= typography.MIN_FONT_SIZE * (1 - 1e-6) and inside
    assert title("softmax first, then mask", "portrait")[0] == "one line"
    assert title(french, "landscape")[0] == "one line"


def test_of_forms_as_narrow_for_the_camera_the_one_with_less_to_pan_across_wins():
    """Where every form needs the camera to pan across (the wide example's H, 8 words × 6, in a phone's body), q
    laid as a row over H and as a column over H are equally wide at the floor (H is the widest part of both; their
    widths differ by a rounding, which had decided). The column wins: the row of six numbers is wider than the
    frame too, and the beat that shows it says "q ≠ word" at rest (a French run put q's first entry off screen)."""
    import os
    from attention_math import example_spec
    from scenes.coffee_cafe import _query_and_encoder_forms
    from scenes.kit.translation import LANGUAGE_ENV_VAR
    from tests.conftest import ROOT

    chosen = {}
    for language in ("en", "fr"):
        os.environ[example_spec.EXAMPLE_ENV_VAR] = str(ROOT / "examples" / "wide.toml")
        os.environ[LANGUAGE_ENV_VAR] = language
        try:
            source = Source("coffee")
            made, plan, _, body = plan_for("portrait", lambda: _query_and_encoder_forms(source,
                                                                                         list(source.get("tokens"))))
        finally:
            del os.environ[example_spec.EXAMPLE_ENV_VAR], os.environ[LANGUAGE_ENV_VAR]
        assert plan.rung == compose.CAMERA
        assert made.q_row.width <= body.width  # the column: q reads whole in the frame at rest
        chosen[language] = plan.form
    assert chosen == {"en": "q as a column, over H", "fr": "q as a column, over H"}


def test_the_camera_takes_the_narrowest_form_at_the_floor_before_the_one_with_less_to_pan_across():
    """The tie-break is only a tie-break: a form narrower at the floor wins even with more parts to pan across."""
    from manim import DOWN, RIGHT, Rectangle

    from scenes.kit import label

    def build(widths):
        return VGroup(*(VGroup(Rectangle(width=w, height=0.5), label("x", font_size=typography.MIN_FONT_SIZE))
                        .arrange(RIGHT) for w in widths)).arrange(DOWN)

    with in_frame("portrait"):
        wide = layout.body().width * 3
        forms = [compose.Form("one wide part, wider", lambda: build([wide * 1.2])),
                 compose.Form("two wide parts", lambda: build([wide, wide])),
                 compose.Form("one wide part", lambda: build([wide, 0.5]))]
        _, plan = compose.compose(forms)
        assert (plan.rung, plan.form) == (compose.CAMERA, "one wide part")
        _, plan = compose.compose(forms[:2])
        assert plan.form == "two wide parts"


@pytest.mark.parametrize("aspect, form", [("landscape", "one line"), ("square", "stacked"), ("portrait", "stacked")])
def test_a_formula_on_one_line_is_taken_only_where_it_reads_at_the_worked_size(aspect, form):
    """soft_formula's three-part formula: across a square's width its one line still clears the floor, but its
    terms read smaller than the worked size while the frame below stays empty; held to the worked size
    (`all_worked`), the stacked terms win there, as on a phone."""
    from scenes.soft_formula import _formula

    def forms(all_worked):
        return [compose.Form("one line", lambda: _formula(False), all_worked=all_worked),
                compose.Form("stacked", lambda: _formula(True), grow=False)]

    with in_frame(aspect):
        _, plan = compose.compose(forms(True), layout.frame())
        text = shot_content.smallest_font(plan.whole)
        _, unheld = compose.compose(forms(False), layout.frame())
    assert plan.form == form and text >= typography.WORKED_NUMBER_SIZE * (1 - 1e-3)
    if aspect == "square":  # what the hold changes: unheld, the one line at the floor would be kept
        assert unheld.form == "one line"


def test_a_filmed_pictures_part_names_read_in_the_overview_and_an_unmarked_label_does_not():
    """Two 12 x 12 grids, each with a name over it, too large for a phone at the floor: compose films them; the names
    marked `part_name` are grown to read at the floor in the shot that shows the whole, the unmarked one is not."""
    from manim import DOWN, UP
    import torch
    from scenes.kit import camera_moves
    from scenes.kit.text import label
    from scenes.kit.widgets import TensorGrid

    source = Source.__new__(Source)
    source.name, source.data = "tiny", {"m": torch.arange(144, dtype=torch.float32).reshape(12, 12) / 10}

    def picture():
        parts = []
        for name in ("head 1", "head 2"):
            grid = TensorGrid(source, "m")
            parts.append(VGroup(grid, label(name).next_to(grid, UP)))
        marked = [compose.part_name(part[1]) for part in parts[:1]]
        assert len(marked) == 1
        return VGroup(*parts).arrange(DOWN)

    with in_frame("portrait"):
        made, plan = compose.compose(compose.single("maps", picture))
        assert plan.rung == compose.CAMERA
        zoom = camera_moves.shot_on_all(plan.whole, plan.region).zoom
        marked, unmarked = made[0][1], made[1][1]
        assert shot_content.font_size(marked) * zoom >= typography.MIN_FONT_SIZE
        assert shot_content.font_size(unmarked) * zoom < typography.MIN_FONT_SIZE
        assert marked.get_bottom()[1] > made[0][0].get_top()[1], "the grown name still sits over its grid"
