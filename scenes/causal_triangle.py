"""Causal attention hides the future: mask the scores with −∞, then softmax, never the other way round.

Follows the post's "Causal attention: hide the future" (the ✓/✗ table, the masked ω̃ cases, the zero upper
triangle) and its "order of operations": softmax first and mask after leaves rows that no longer sum to one.
Every grid is an AttentionMap sized from the example's tokens and numbers; every claim is read from the data.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from manim import (
    DOWN, RIGHT, UP, Create, FadeIn, FadeOut, Indicate, LaggedStart, Line, Mobject, ReplacementTransform, VGroup,
    Write,
)

from scenes.kit import (
    AttentionMap, AttentionScene, Source, baseline_y, beat, format_value, term_box, label, layout, math, motion,
    palette, staging, typography,
)
from scenes.kit.attention_map import share_columns
from scenes.kit.claims import count_word, words_list
from scenes.kit.compose import Form, Plan, compose
from scenes.kit.contrast import readable_on
from scenes.kit.forms import line_forms, map_style_forms
from scenes.kit.products import settle
from scenes.kit.spread_claims import past_rows_phrase
from scenes.kit.translation import _, n_, quoted

CHECK, CROSS = "✓", "✗"
FONT = typography.SMALL_SIZE  # every map and sum column of the clip: one size, so maps swap cell for cell
EQUATION = typography.BODY_SIZE + 2


# --- captions ------------------------------------------------------------------------------------------------
def sum_claim(src: Source, tokens, path: str) -> tuple[list[int], int]:
    """Rows whose sum, as shown, is not 1.00; and the row that keeps least (the one a caption names)."""
    shown = [format_value(src.value(path, i), 2) for i in range(len(tokens))]
    one = format_value(1, 2)
    short = [i for i, text in enumerate(shown) if text != one]
    least = min(range(len(tokens)), key=lambda i: src.value(path, i))
    return short, least


def signs_caption(scores) -> str:
    """What the score map's colours mean, naming only the signs it holds."""
    values = [float(v) for v in scores.flatten().tolist()]
    positive, negative = any(v > 0 for v in values), any(v < 0 for v in values)
    if positive and negative:
        return _("Blue cells are positive scores and red ones negative; nothing stops a row from scoring a later "
                 "word.")
    if positive:
        return _("Blue cells are positive scores; nothing stops a row from scoring a later word.")
    if negative:
        return _("Red ones negative; nothing stops a row from scoring a later word.")
    return _("Nothing stops a row from scoring a later word.")


def right_sums_caption(src: Source, tokens) -> str:
    """The right order's reading: where each row's weight goes, and that the rows sum to one (as shown)."""
    short, _least = sum_claim(src, tokens, "right_order_row_sums")
    if short:
        return _("Each row {spread}, and every row sums to one, up to rounding.").format(
            spread=past_rows_phrase(src.get("weights")))
    return _("Each row {spread}, and every row sums to one.").format(spread=past_rows_phrase(src.get("weights")))


def wrong_sums_caption(src: Source, tokens) -> str:
    """The wrong order's reading: the rows that now sum to less than one, and the row that keeps least."""
    short, least = sum_claim(src, tokens, "wrong_order_row_sums")
    kept = format_value(src.value("wrong_order_row_sums", least), 2)
    if not short:
        return _("Here the future held so little weight that every row still shows {kept}; in general the rows lose "
                 "what the future had, and are no longer distributions over the allowed positions.").format(kept=kept)
    words = words_list([tokens[i] for i in short])
    return n_("Now one row sums to less than one ({words}); the row of {word} keeps only {kept} of its weight. That "
              "is no longer a distribution over the allowed positions.",
              "Now {count} rows sum to less than one ({words}); the row of {word} keeps only {kept} of its weight. "
              "That is no longer a distribution over the allowed positions.", len(short)).format(
        count=count_word(len(short)), words=words, word=quoted(tokens[least]), kept=kept)


# --- the arrangements ----------------------------------------------------------------------------------------
def masking_cases():
    """ω̃ in two cases: the score where j ≤ i, −∞ in the future."""
    return math("{{ tilde(omega)_(i j) : lhs }} = cases({{ omega_(i j) : keep }} quad {{ j <= i : past }}, "
                "{{ -infinity : inf }} quad {{ j > i : future }})", font_size=EQUATION)


def softmax_of_masked():
    """⇒ α = softmax(ω̃), the step after the cases."""
    return math("arrow.double quad {{ alpha = op(\"softmax\")(tilde(omega)) : soft }}", font_size=EQUATION)


def formula_place(lines: int) -> layout.Region:
    """The formula's place: the top band, as tall again for each line beyond the first."""
    band = layout.top_band()
    return layout.Region(band.left, band.right, band.bottom - (lines - 1) * band.height, band.top)


def formula_line_forms() -> list[Form]:
    """The cases ⇒ softmax line: on one line in the top band, else the two one over the other in a taller place."""
    def build(lines: int) -> VGroup:
        return VGroup(masking_cases(), softmax_of_masked()).arrange(RIGHT if lines == 1 else DOWN,
                                                                    buff=layout.GAP if lines == 1 else layout.TIGHT)

    return [Form(f"in {lines} line(s)", lambda lines=lines: build(lines), region=formula_place(lines), grow=lines == 1)
            for lines in (1, 2)]


def under(place: layout.Region) -> layout.Region:
    """The body under the formula's place."""
    body = layout.body()
    return layout.Region(body.left, body.right, body.bottom, min(body.top, place.bottom - layout.TIGHT))


def check_table(src: Source, tokens, style: dict) -> AttentionMap:
    """The post's ✓/✗ table: the causal mask as a map, ✓ where key j ≤ query i, ✗ for the future."""
    size = typography.LABEL_SIZE
    table = AttentionMap(src, "mask", tokens, causal=True, show_values=False, font_size=size,
                         query_label=_("query i"), key_label=_("key j"), **style)
    for i in range(len(tokens)):
        for j in range(len(tokens)):
            future = j > i
            mark = label(CROSS if future else CHECK, font_size=size,  # ✗ read on the mask's grey (4.5:1)
                         color=readable_on(palette.MASKED, (palette.WRONG, palette.TEXT)) if future else palette.RIGHT)
            table.cell(i, j).add(mark.move_to(table.cell(i, j)[0]))
    return table


def check_forms(src: Source, tokens) -> list[Form]:
    """The table in each of the kit's map arrangements; its cells' shades go with their marks."""
    return [replace(form, marks=True) for form in map_style_forms(lambda style: check_table(src, tokens, style))]


def causal_map(src: Source, tokens, path: str, style: dict, *, weights: bool, causal: bool) -> AttentionMap:
    """One of the clip's maps; a style with `label_rows=False` leaves its rows unnamed (the key words above name
    the same tokens in the same order) for a frame too narrow for the words and a column of sums both."""
    rows_named = style.get("label_rows", True)
    return AttentionMap(src, path, tokens, weights=weights, causal=causal, font_size=FONT,
                        query_label=_("query i") if rows_named else None, key_label=_("key j"), **style)


def rows_unnamed(build, whole, name: str = "") -> list[Form]:
    """The packed map style once more, its rows unnamed: where even it is too wide with the row words beside a
    column of sums (a phone). A last resort after the named one, never filmed."""
    return map_style_forms(lambda style: build(dict(style, label_rows=False)), whole=whole,
                           name=f"rows unnamed, {name}")[-1:]


def sums_column(src: Source, path: str, amap: AttentionMap, header: str | tuple[str, ...], color) -> VGroup:
    """A header on the key tokens' baseline and one traced row sum level with each row, right of the map. A header
    given as lines stacks them, the last on that baseline (a narrow column for a long name)."""
    numbers = VGroup(*(src.number(path, i, decimals=2, font_size=FONT, color=color) for i in range(amap.rows)))
    lines = (header,) if isinstance(header, str) else header
    head = VGroup(*(label(line, font_size=FONT, color=color) for line in lines)).arrange(DOWN, buff=layout.TIGHT)
    head.next_to(amap.body, RIGHT, buff=layout.GAP)
    if amap.upright_keys:  # upright key words stand on the map: the header stands on it too
        head.align_to(amap.column_labels, DOWN)
    else:
        head.shift(UP * (baseline_y(amap.column_labels[0]) - baseline_y(head[-1])))
    for i, number in enumerate(numbers):
        number.match_y(amap.cell(i, 0)).match_x(head)
    return VGroup(head, numbers)


def shared_place(*maps: AttentionMap) -> tuple[AttentionMap, ...]:
    """Maps built alike, their columns shared, put on top of each other (the last's place): one fit places all."""
    shared = share_columns(*maps)
    for amap in shared[:-1]:
        amap.shift(shared[-1].body.get_center() - amap.body.get_center())
    return shared


@dataclass(frozen=True)
class MainStage:
    """The right-order maps on top of each other, and the row sums beside them (scaled_scores → softmax)."""

    scores: AttentionMap
    masked: AttentionMap
    weights: AttentionMap
    sums: VGroup  # header, then one traced sum per row

    @property
    def whole(self) -> VGroup:
        return VGroup(self.scores, self.masked, self.weights, self.sums)


def main_stage_forms(src: Source, tokens) -> list[Form]:
    """Scores, masked scores and weights in one place, the sums beside, in each map arrangement; the sums' header
    on one line, then on two (narrower)."""
    def build(style: dict, header) -> MainStage:
        scores, masked, weights = shared_place(
            causal_map(src, tokens, "scores", style, weights=False, causal=False),
            causal_map(src, tokens, "masked_scores", style, weights=False, causal=True),
            causal_map(src, tokens, "weights", style, weights=True, causal=True))
        return MainStage(scores, masked, weights, sums_column(src, "right_order_row_sums", weights, header,
                                                              palette.RIGHT))

    whole = lambda stage: stage.whole  # noqa: E731
    return [form for header in (_("row sum"), tuple(_("row|sum").split("|"))) for form in map_style_forms(
        lambda style, header=header: build(style, header), whole=whole,
        name="" if isinstance(header, str) else "header on two lines, ")] + rows_unnamed(
        lambda style: build(style, tuple(_("row|sum").split("|"))), whole, "header on two lines, ")


@dataclass(frozen=True)
class OrderStage:
    """The wrong order against the right one: one map whose cells change, and a column of sums each (or, where
    the frame holds one, the right order's sums in the wrong order's place)."""

    unmasked: AttentionMap  # softmax over all keys
    zeroed: AttentionMap  # ... then the future zeroed
    right: AttentionMap  # mask, then softmax
    wrong_sums: VGroup
    right_sums: VGroup
    one_place: bool  # the right order's sums take the wrong order's place

    @property
    def whole(self) -> VGroup:
        return VGroup(self.unmasked, self.zeroed, self.right, self.wrong_sums, self.right_sums)


def order_stage_forms(src: Source, tokens) -> list[Form]:
    """The map with both orders' sums beside it, in each map arrangement; then the sums in one place."""
    def build(style: dict, one_place: bool) -> OrderStage:
        unmasked, zeroed, right = shared_place(
            *(causal_map(src, tokens, path, style, weights=True, causal=c) for path, c in (
                ("wrong_order_unmasked_weights", False), ("wrong_order_weights", True), ("weights", True))))
        wrong = sums_column(src, "wrong_order_row_sums", zeroed, tuple(_("softmax|→ mask").split("|")), palette.WRONG)
        right_sums = sums_column(src, "right_order_row_sums", right, tuple(_("mask|→ softmax").split("|")),
                                 palette.RIGHT)
        if not one_place:
            right_sums.next_to(wrong, RIGHT, buff=layout.GAP).align_to(wrong, UP)
        return OrderStage(unmasked, zeroed, right, wrong, right_sums, one_place)

    whole = lambda stage: stage.whole  # noqa: E731
    return [form for one in (False, True) for form in map_style_forms(
        lambda style, one=one: build(style, one), whole=whole, name="sums in one place, " if one else "")] + [
        form for one in (False, True) for form in rows_unnamed(lambda style, one=one: build(style, one), whole,
                                                                "sums in one place, " if one else "")]


def order_title(text: str, color) -> VGroup:
    """The order's name in the top band: on one line, else on two (a phone, a longer language)."""
    band = layout.top_band()
    return compose(line_forms(text, band.width, font_size=typography.BODY_SIZE, color=color), band)[0]


def row_word(amap: AttentionMap, i: int) -> list:
    """Row i's word as a part for staging.work_rows (nothing lands on it), spanning the words' column (a close-up
    framed on it shows the longer words of the rows near it whole too); none where the rows are unnamed."""
    words = amap.row_labels
    if not len(words):
        return []
    y = words[i].get_center()[1]
    return [(VGroup(words[i], Line([words.get_left()[0], y, 0], [words.get_right()[0], y, 0], stroke_width=0)), [])]


def row_parts(amap: AttentionMap, i: int, animations_of) -> list:
    """Row i of `amap` for staging.work_rows: its word, then each cell with what lands there."""
    return [*row_word(amap, i), *((amap.cell(i, j), animations_of(j)) for j in range(amap.cols))]


def map_rows(amap: AttentionMap) -> list[list]:
    """A map's parts for staging.end_over: its axis names and key words, then each row's word and cells."""
    return [[*([amap.query_name] if len(amap.query_name) else []), *amap.column_labels],
            *([*amap.row_labels[i:i + 1], *amap.row(i)] for i in range(amap.rows))]


def future_rows(amap: AttentionMap) -> list[list]:
    """The map's cells above the diagonal (j > i), a row at a time, for staging.end_over."""
    return [[amap.cell(i, j) for j in range(i + 1, amap.cols)] for i in range(amap.rows - 1)]


def past_rows(amap: AttentionMap) -> list[list]:
    """The map's cells on and below the diagonal (j ≤ i), a row at a time, for staging.end_over."""
    return [[amap.cell(i, j) for j in range(i + 1)] for i in range(amap.rows)]


def column_rows(column: VGroup) -> list[list]:
    """A sums column (header, numbers) for staging.end_over: one part a row."""
    return [[column[0]], *([number] for number in column[1])]


def sum_phase(row: VGroup, total) -> list:
    """A row's cells collapsing into its sum, for staging.work_rows."""
    return [(total, motion.collapse(row, total))]


@dataclass(frozen=True)
class Masked:
    """What mask_the_future leaves: the cases formula, and the cells on screen (past: scores, future: −∞)."""

    cases: VGroup
    cells: tuple[tuple[VGroup, ...], ...]


class CausalTriangleScene(AttentionScene):
    scene_id = "causal_triangle"

    def construct(self):
        self.src = Source("causal")
        self.tokens = list(self.src.get("tokens"))
        self.n = len(self.tokens)
        self.show_title()
        table = self.who_may_see_whom()
        line, line_plan = compose(formula_line_forms())
        eq, stage, plan = self.scaled_scores(table, line_plan)
        masked = self.mask_the_future(eq, stage, plan)
        self.softmax_each_row(stage, plan, masked, line)
        order, order_plan = self.wrong_order()
        self.right_order_recap(order, order_plan)

    # --- beats ----------------------------------------------------------------------------------------------------
    @beat
    def who_may_see_whom(self) -> AttentionMap:
        """The rule before any numbers: query i may use keys j ≤ i, never a later token."""
        table, plan = compose(check_forms(self.src, self.tokens))
        marks = [table.cell(i, j)[1] for i in range(self.n) for j in range(self.n)]
        self.say(_("Causal attention: the query at position i may only use keys at positions j ≤ i."),
                 subject=[table.row_labels, table.column_labels, *marks])
        staging.enter(self, plan, FadeIn(table.axes), run_time=1.0)
        self.play(LaggedStart(*(FadeIn(table.row(i), shift=RIGHT * layout.NUDGE) for i in range(self.n)),
                              lag_ratio=0.5), run_time=2.5)
        staging.end_over(self, plan, map_rows(table))
        self.wait(1.0)
        self.say(_("When generating left to right the later tokens do not exist yet, so training must hide them too."),
                 subject=[cell[1] for cell in table.future])
        staging.end_over(self, plan, future_rows(table))
        self.play(*(Indicate(cell[1], color=palette.WRONG, scale_factor=1.3) for cell in table.future),
                  run_time=1.5)
        self.wait(3.5)
        return table

    @beat
    def scaled_scores(self, table: AttentionMap, line_plan: Plan) -> tuple[Mobject, MainStage, Plan]:
        """The scores grid that the mask will act on: every query row against every key column."""
        eq = layout.fit_into(math("omega = (Q K^top) / sqrt(d_k)", font_size=EQUATION), layout.top_band())
        stage, plan = compose(main_stage_forms(self.src, self.tokens), under(line_plan.region), pinned=[eq])
        scores, count = stage.scores, count_word(self.n)
        self.say(_("Start from the scaled scores ω = Q Kᵀ / √d_k for {count} tokens: query rows, key columns.").format(
            count=count), narration=_("Start from the scaled scores, ω = Q Kᵀ / √d_k, for {count} tokens: one row per "
                                      "query, one column per key.").format(count=count), subject=scores)
        self.clear_stage(run_time=0.8)
        self.play(Write(eq), run_time=1.0)
        staging.hang_from_top(plan)
        staging.enter(self, plan, FadeIn(scores.axes),
                      LaggedStart(*(FadeIn(scores.row(i)) for i in range(self.n)), lag_ratio=0.4), run_time=2.0)
        staging.end_over(self, plan, map_rows(scores))
        self.wait(1.5)
        future = [scores.cell(i, j) for i in range(self.n) for j in range(i + 1, self.n)]
        self.say(signs_caption(self.src.get("scores")), subject=VGroup(*future))
        staging.end_over(self, plan, future_rows(scores))
        self.play(*(Indicate(c, color=palette.WRONG, scale_factor=1.08) for c in future), run_time=1.5)
        self.wait(3.0)
        return eq, stage, plan

    @beat
    def mask_the_future(self, eq: Mobject, stage: MainStage, plan: Plan) -> Masked:
        """Fill the future cells with −∞: the ω̃ cases, lit up as the picture applies each case."""
        scores, masked = stage.scores, stage.masked
        future = [[(i, j) for j in range(i + 1, self.n)] for i in range(self.n - 1)]
        self.say(_("Mask: keep ω_ij where j ≤ i, and fill every future cell (j > i) with −∞."),
                 narration=_("Now the mask: keep ω_ij wherever j ≤ i, and fill every future cell, where j > i, "
                             "with −∞."), subject=VGroup(*(masked.cell(i, j) for row in future for i, j in row)))
        staging.come_to_rest(self, [eq], staying=[stage.whole], region=plan.region)
        cases = layout.fit_into(masking_cases(), layout.top_band())
        plan = replace(plan, pinned=(cases,))
        self.play(ReplacementTransform(eq, cases), run_time=1.0)
        future_box = term_box(cases, ["inf", "future"], palette.WRONG)
        self.play(Create(future_box), run_time=0.6)
        # the −∞ of the formula travels into each future cell, a row at a time; the score it replaces fades
        staging.work_rows(self, replace(plan, pinned=(cases, future_box)), [[[
            (masked.cell(i, j), [motion.travel(cases.select("inf"), masked.cell(i, j)[1]),
                                 ReplacementTransform(scores.cell(i, j), masked.cell(i, j)[0])]) for i, j in row]]
            for row in future],
            run_time=2.5 / max(1, len(future)), lag=motion.LAG)
        settle(self, [masked.cell(i, j) for row in future for i, j in row],
               [part for row in future for i, j in row for part in masked.cell(i, j)])
        self.wait(1.0)
        past = [scores.cell(i, j) for i in range(self.n) for j in range(i + 1)]
        self.say(_("The past and the diagonal keep their scores: that is the first case of ω̃."), subject=VGroup(*past))
        keep_box = term_box(cases, ["keep", "past"], palette.RIGHT)
        staging.end_over(self, plan, past_rows(scores), ReplacementTransform(future_box, keep_box))
        self.play(*(Indicate(c, color=palette.RIGHT, scale_factor=1.08) for c in past), run_time=1.5)
        self.wait(2.5)
        self.play(FadeOut(keep_box), run_time=0.4)
        cells = tuple(tuple((masked if j > i else scores).cell(i, j) for j in range(self.n)) for i in range(self.n))
        return Masked(cases, cells)

    @beat
    def softmax_each_row(self, stage: MainStage, plan: Plan, screen: Masked, line: VGroup) -> None:
        """Row-wise softmax: exp(−∞) = 0, so the upper triangle is exactly zero and each row sums to one."""
        weights, (header, sums) = stage.weights, stage.sums
        self.say(_("Then softmax each row over the keys: exp(−∞) is zero, so every future weight is exactly zero."),
                 subject=VGroup(weights, sums))
        arrow_eq = line[1]
        staging.come_to_rest(self, [screen.cases], staying=[stage.whole], region=plan.region)
        self.play(screen.cases.animate.match_width(line[0]).move_to(line[0]), run_time=0.6)
        self.play(Write(arrow_eq), run_time=1.0)
        soft_box = term_box(arrow_eq, ["soft"], palette.WEIGHT)
        self.play(Create(soft_box), FadeIn(header), run_time=0.5)
        plan = replace(plan, pinned=(screen.cases, arrow_eq, soft_box))
        staging.work_rows(self, plan, [[  # each score of the row becomes its weight, then the row's weights add up
            row_parts(weights, i, lambda j, i=i: [motion.travel(screen.cells[i][j], weights.cell(i, j)),
                                                  FadeOut(screen.cells[i][j])]),
            sum_phase(weights.row(i), sums[i])] for i in range(self.n)], run_time=0.6)
        self.wait(1.0)
        self.say(right_sums_caption(self.src, self.tokens), subject=sums)
        staging.end_over(self, plan, column_rows(stage.sums))
        self.play(*(Indicate(c, color=palette.WEIGHT, scale_factor=1.08) for c in weights.future),
                  Indicate(sums, color=palette.RIGHT), run_time=1.5)
        self.wait(2.0)
        self.play(FadeOut(soft_box), run_time=0.3)

    @beat
    def wrong_order(self) -> tuple[OrderStage, Plan]:
        """Softmax first, mask after: the zeros are there, but the rows no longer sum to one."""
        title = order_title(_("softmax first, then mask"), palette.WRONG)
        stage, plan = compose(order_stage_forms(self.src, self.tokens), pinned=[title])
        unmasked, zeroed = stage.unmasked, stage.zeroed
        self.say(_("The wrong order: softmax over all keys first (the future included), then zero the future."),
                 narration=_("Now the wrong order: a softmax over all the keys first, the future included, and only "
                             "then zero the future."),
                 subject=[cell for row in future_rows(unmasked) for cell in row])
        self.clear_stage()
        staging.hang_from_top(plan)
        staging.enter(self, plan, FadeIn(unmasked.axes), FadeIn(VGroup(*(unmasked.row(i) for i in range(self.n)))),
                      FadeIn(title), run_time=1.2)  # the cells in a group of their own: transforms replace them there
        staging.end_over(self, plan, future_rows(unmasked))
        self.wait(1.5)
        pairs = [(i, j) for i in range(self.n) for j in range(i + 1, self.n)]
        self.play(*(ReplacementTransform(unmasked.cell(i, j), zeroed.cell(i, j)) for i, j in pairs), run_time=1.5)
        self.wait(1.0)
        short, _least = sum_claim(self.src, self.tokens, "wrong_order_row_sums")
        self.say(wrong_sums_caption(self.src, self.tokens), subject=stage.wrong_sums)
        self.play(FadeIn(stage.wrong_sums[0]), run_time=0.4)
        rows = [VGroup(*(unmasked.cell(i, j) if j <= i else zeroed.cell(i, j) for j in range(self.n)))
                for i in range(self.n)]
        staging.work_rows(self, plan, [[[*row_word(zeroed, i), *sum_phase(rows[i], stage.wrong_sums[1][i])]]
                                       for i in range(self.n)], run_time=1.5 / self.n)
        marks = [stage.wrong_sums[1][i] for i in short] or [stage.wrong_sums[1]]
        staging.end_over(self, plan, column_rows(stage.wrong_sums))
        self.play(*(Indicate(s, color=palette.WRONG, scale_factor=1.3) for s in marks), run_time=1.5)
        self.wait(4.0)
        return stage, plan

    @beat
    def right_order_recap(self, stage: OrderStage, plan: Plan) -> None:
        """The same map in the right order: mask then softmax, and every row sums to one again."""
        self.say(_("The right order: mask the scores with −∞ first, then softmax."),
                 subject=[cell for row in past_rows(stage.right) for cell in row])
        cells = [stage.unmasked.cell(i, j) if j <= i else stage.zeroed.cell(i, j)
                 for i in range(self.n) for j in range(self.n)]
        targets = [stage.right.cell(i, j) for i in range(self.n) for j in range(self.n)]
        title = order_title(_("mask first, then softmax"), palette.RIGHT)
        staging.come_to_rest(self, plan.pinned, staying=[stage.whole], region=plan.region)
        self.play(ReplacementTransform(plan.pinned[0], title), run_time=0.6)
        plan = replace(plan, pinned=(title,))
        staging.enter(self, plan, *(ReplacementTransform(c, t) for c, t in zip(cells, targets)),
                      *([FadeOut(stage.wrong_sums)] if stage.one_place else []), run_time=1.5)
        staging.end_over(self, plan, past_rows(stage.right))
        self.say(_("Exact zeros above the diagonal, and every row is still a distribution over the past."),
                 subject=stage.right_sums)
        self.play(FadeIn(stage.right_sums[0]), run_time=0.3)
        staging.work_rows(self, plan, [[[*row_word(stage.right, i),
                                         *sum_phase(stage.right.row(i), stage.right_sums[1][i])]]
                                       for i in range(self.n)], run_time=1.2 / self.n)
        staging.end_over(self, plan, column_rows(stage.right_sums))
        self.play(Indicate(stage.right_sums[1], color=palette.RIGHT, scale_factor=1.2), run_time=1.2)
        self.wait(3.2)
