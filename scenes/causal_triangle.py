"""Causal attention hides the future: mask the scores with −∞, then softmax, never the other way round.

Follows the post's "Causal attention: hide the future" (the ✓/✗ table, the masked ω̃ cases, the zero upper
triangle) and its "order of operations": softmax first and mask after leaves rows that no longer sum to one.
Every grid is an AttentionMap sized from the example's tokens and numbers; every claim is read from the data.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Union

from manim import (
    DOWN, LEFT, RIGHT, UP, Create, FadeIn, FadeOut, Indicate, LaggedStart, ReplacementTransform, VGroup, Write,
)

from scenes.kit import (
    AttentionMap, AttentionScene, Source, baseline_y, beat, format_value, frame_box, label, layout, math,
    motion, palette, typography,
)
from scenes.kit import camera, close_up, framed, legible
from scenes.kit.attention_map import UPRIGHT_PAD, shaded_number_size, share_columns
from scenes.kit.claims import count_word, words_list
from scenes.kit.contrast import readable_on
from scenes.kit.products import settle
from scenes.kit.spread_claims import past_rows_phrase

CHECK, CROSS = "✓", "✗"
FONT = typography.SMALL_SIZE  # every map and sum column of the clip: one size, so maps swap cell for cell
EQUATION = typography.BODY_SIZE + 2
ONE_TO_ONE = 1  # the camera's zoom while it follows a stage taller than the body: pans only


def room_factor(mob, region: layout.Region) -> float:
    """How much `mob` should scale to fill `region`: shrink to fit, or grow (up to the kit's MAX_GROWTH) when it
    would leave the region mostly empty."""
    return min(layout.MAX_GROWTH, region.width / mob.width, region.height / mob.height)


def compact_row(font_size: float) -> float:
    """A dense map's row height: one line of text and a hairline each side (the kit's rows add a TIGHT pad more)."""
    return label("Ag", font_size=font_size).height + 2 * layout.HAIRLINE


@dataclass(frozen=True)
class MainStage:
    """The right-order maps, one on top of the other, and the row sums beside them (scaled_scores → softmax)."""

    scores: AttentionMap
    masked: AttentionMap
    weights: AttentionMap
    sums: VGroup  # header, then one traced sum per row
    names: VGroup = VGroup()  # stacked form only: "query i" and the query words, under the map (see RowNames)
    shaded: bool = False  # the cells' numbers too small to read: shaded cells stand in for them (close_up)
    follow: bool = False  # taller than the body: the camera follows the row being worked (region: under the band)
    region: layout.Region | None = None

    @property
    def whole(self) -> VGroup:
        return VGroup(self.scores, self.masked, self.weights, self.sums, self.names)


@dataclass(frozen=True)
class MaskedScreen:
    """What mask_the_future leaves: the cases formula, and the cells on screen (past: scores, future: −∞)."""

    cases: VGroup
    cells: tuple[tuple[VGroup, ...], ...]
    axes: VGroup


@dataclass(frozen=True)
class OrderStage:
    """The wrong order against the right one: one map whose cells change, its title, and a column of sums each."""

    unmasked: AttentionMap  # softmax over all keys
    zeroed: AttentionMap  # ... then the future zeroed
    right: AttentionMap  # mask, then softmax
    title_wrong: VGroup
    title_right: VGroup
    wrong_sums: VGroup
    right_sums: VGroup
    names: VGroup = VGroup()  # stacked form only: the query words the sums stand beside
    shaded: bool = False  # as in MainStage
    follow: bool = False
    region: layout.Region | None = None
    pans: bool = False  # the names and both sums too wide for the frame at the floor: the camera pans between them

    @property
    def whole(self) -> VGroup:
        return VGroup(self.unmasked, self.zeroed, self.right, self.wrong_sums, self.right_sums, self.names)

    @property
    def table(self) -> VGroup:
        """What the camera frames for the sums: the map's last row over the names and sums under it."""
        return VGroup(self.zeroed.row(self.zeroed.rows - 1), self.names, self.wrong_sums, self.right_sums)

    @property
    def wrong_table(self) -> VGroup:
        """What the camera frames for the wrong order's sums: the table, or (where it pans) the names and those sums."""
        if not self.pans:
            return self.table
        return VGroup(self.zeroed.row(self.zeroed.rows - 1), self.names, self.wrong_sums)

    @property
    def right_table(self) -> VGroup:
        """... and for the right order's: the table, or (where it pans) both orders' sums side by side."""
        if not self.pans:
            return self.table
        return VGroup(self.zeroed.row(self.zeroed.rows - 1), self.wrong_sums, self.right_sums)


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


def masking_cases():
    """ω̃ in two cases: the score where j ≤ i, −∞ in the future."""
    return math("{{ tilde(omega)_(i j) : lhs }} = cases({{ omega_(i j) : keep }} quad {{ j <= i : past }}, "
                "{{ -infinity : inf }} quad {{ j > i : future }})", font_size=EQUATION)


def softmax_of_masked():
    """⇒ α = softmax(ω̃), the step after the cases."""
    return math("arrow.double quad {{ alpha = op(\"softmax\")(tilde(omega)) : soft }}", font_size=EQUATION)


def row_names(tokens, amap: AttentionMap) -> VGroup:
    """The stacked form's names of the map's rows, for a frame too narrow for them beside it (portrait): "query i"
    over the query words, right-aligned, one a row's height under the other; the rows' sums stand beside them."""
    header = label("query i", font_size=FONT, color=palette.QUERY)
    words = VGroup(*(label(t, font_size=FONT, color=palette.ENGLISH) for t in tokens))
    pitch = amap.cell(0, 0)[0].height
    first = baseline_y(header) - pitch - layout.NEAR  # on baselines a row apart, whatever each word's ascenders
    for i, word in enumerate(words):
        word.align_to(header, RIGHT).shift(UP * (first - i * pitch - baseline_y(word)))
    return VGroup(header, words)


def sums_beside(src: Source, path: str, beside: VGroup, names: VGroup, header: str | tuple[str, ...],
                color) -> VGroup:
    """sums_column for the stacked form: right of `beside` (the names, or the sums before), each sum level with its
    query word, the header's last line on the baseline of "query i"; close-packed (the frame is narrow)."""
    words = names[1]
    numbers = VGroup(*(src.number(path, i, decimals=2, font_size=FONT, color=color) for i in range(len(words))))
    lines = (header,) if isinstance(header, str) else header
    head = VGroup(*(label(line, font_size=FONT, color=color) for line in lines)).arrange(DOWN, buff=layout.TIGHT)
    head.next_to(beside, RIGHT, buff=layout.NEAR)
    head.shift(UP * (baseline_y(names[0]) - baseline_y(head[-1])))
    for number, word in zip(numbers, words):
        number.match_x(head)
        number.shift(UP * (baseline_y(word) - baseline_y(number)))
    return VGroup(head, numbers)


def stack_under(amap: AttentionMap, table: VGroup) -> VGroup:
    """The table of names and sums under the map, centred on its cells."""
    table.next_to(amap, DOWN, buff=layout.GAP).match_x(amap.body)
    return VGroup(amap, table)


def sum_claim(src: Source, tokens, path: str) -> tuple[list[int], int]:
    """Rows whose sum, as shown, is not 1.00; and the row that keeps least (the one a caption names)."""
    shown = [format_value(src.value(path, i), 2) for i in range(len(tokens))]
    one = format_value(1, 2)
    short = [i for i, text in enumerate(shown) if text != one]
    least = min(range(len(tokens)), key=lambda i: src.value(path, i))
    return short, least


#: Either stage: both are chosen between their forms by CausalTriangleScene._other_form.
Stage = Union[MainStage, OrderStage]


class CausalTriangleScene(AttentionScene):
    scene_id = "causal_triangle"

    def construct(self):
        self.src = Source("causal")
        self.tokens = list(self.src.get("tokens"))
        self.n = len(self.tokens)
        self.band = layout.top_band()  # the formula's place (a stacked stage leaves it the height above it)
        self.show_title()
        table = self.who_may_see_whom()
        eq, stage = self.scaled_scores(table)
        masked = self.mask_the_future(eq, stage)
        self.softmax_each_row(stage, masked)
        order = self.wrong_order()
        self.right_order_recap(order)

    # --- compositions --------------------------------------------------------------------------------------------
    def _map(self, path: str, *, weights: bool, causal: bool, dense: bool = False,
             named_rows: bool = True, shaded: bool = False) -> AttentionMap:
        """A map of the clip; `dense` stands the key words upright and packs the rows to one line each, for an
        example whose map would not stay legible laid out flat; `named_rows=False` leaves the query words (and
        "query i") to a table under the map (the stacked form); `shaded` sets the cells' numbers only as large as
        the key words' columns hold (see _shaded_number_size): their shades stand in for them."""
        sized = {"number_size": self._shaded_number_size()} if shaded else {}
        if not named_rows:
            return AttentionMap(self.src, path, self.tokens, weights=weights, causal=causal, font_size=FONT,
                                query_label=None, key_label="key j", upright_keys=dense, label_rows=False,
                                cell_size=compact_row(FONT) if dense else None, **sized)
        return AttentionMap(self.src, path, self.tokens, weights=weights, causal=causal, font_size=FONT,
                            query_label="query i", key_label="key j", upright_keys=dense,
                            cell_size=compact_row(FONT) if dense else None, **sized)

    def _shaded_number_size(self) -> float:
        """Where even the densest map cannot show its numbers legibly (eight words in a narrow frame), the cells'
        numbers are set as large as lets the upright key words, not the numbers, set the columns' width: the map
        then fits with its words at a legible size, and its cells' shades stand in for the numbers (hidden by
        close_up where they read below the floor)."""
        if getattr(self, "_number_size", None) is None:
            probes = [self._map(path, weights=w, causal=c, dense=True, named_rows=False)
                      for path, w, c in (("scores", False, False), ("masked_scores", False, True),
                                         ("weights", True, True))]
            self._number_size = shaded_number_size(probes, FONT, UPRIGHT_PAD)
        return self._number_size

    def _hide_small(self, stage) -> None:
        """A shaded stage enters with its texts as the camera at rest shows them: numbers below the floor (and,
        in a stage taller than the body, the parts under the frame) hidden, their cells' shades standing in."""
        if stage.shaded:
            close_up.apply_shot_state(camera.rest_shot(), stage.whole, stage.region)

    def _follow(self, stage, part, pinned, *animations) -> None:
        """The camera on `part` of a stage taller than the body, at the frame's own scale (the formula still)."""
        framed.move_to_shot(self, camera.shot_on(part, stage.region, max_zoom=ONE_TO_ONE), stage.whole, pinned,
                            *animations, run_time=0.6, region=stage.region)

    @staticmethod
    def _legible(plan, region: layout.Region, font_size: float) -> bool:
        return room_factor(plan, region) * font_size >= typography.MIN_FONT_SIZE

    def _check_table(self, dense: bool = False) -> AttentionMap:
        """The post's ✓/✗ table: the causal mask as a map, ✓ where key j ≤ query i, ✗ for the future."""
        size = typography.LABEL_SIZE
        table = AttentionMap(self.src, "mask", self.tokens, causal=True, show_values=False, font_size=size,
                             query_label="query i", key_label="key j", upright_keys=dense,
                             cell_size=compact_row(size) if dense else None)
        for i in range(self.n):
            for j in range(self.n):
                future = j > i
                mark = label(CROSS if future else CHECK, font_size=size,  # ✗ read on the mask's grey (4.5:1)
                             color=readable_on(palette.MASKED, (palette.WRONG, palette.TEXT)) if future
                             else palette.RIGHT)
                table.cell(i, j).add(mark.move_to(table.cell(i, j)[0]))
        if not dense and not self._legible(table, layout.body(), size):
            return self._check_table(dense=True)
        body = layout.body()
        table.follow = dense and not self._legible(table, body, size)
        if table.follow:  # too many words to read whole: built at the floor, its left part in the frame at rest,
            table.scale(typography.MIN_FONT_SIZE * close_up.BUILD_MARGIN / size)  # the camera pans to the rest
            return table.shift(RIGHT * (body.left - table.get_left()[0]) + UP * (body.top - table.get_top()[1]))
        return table.scale(room_factor(table, body)).move_to(body.center)

    @staticmethod
    def _right_part(table: AttentionMap) -> VGroup:
        """The last columns of a table too wide for the frame, with their words: as many as the body holds."""
        room = layout.body().width - 2 * camera.FRAMING_MARGIN
        edge = table.body.get_right()[0] - room
        return VGroup(*(VGroup(table.column(j), table.column_labels[j]) for j in range(table.cols)
                        if table.column(j).get_left()[0] >= edge))

    def _main_stage(self, dense: bool = False, shaded: bool = False) -> MainStage:
        """Scores, masked scores and weights share one place: built alike, so one fit puts them on top of each other.
        Where no form shows the numbers legibly, the shaded form (see _shaded_number_size)."""
        scores, masked, weights = share_columns(
            self._map("scores", weights=False, causal=False, dense=dense, shaded=shaded),
            self._map("masked_scores", weights=False, causal=True, dense=dense, shaded=shaded),
            self._map("weights", weights=True, causal=True, dense=dense, shaded=shaded))
        sums = sums_column(self.src, "right_order_row_sums", weights, "row sum", palette.RIGHT)
        plan = VGroup(weights, sums)
        other_form = self._other_form(plan, dense, shaded, self._main_stage, self._stacked_main_stage)
        if other_form is not None:
            return other_form
        factor = room_factor(plan, layout.body())
        plan.scale(factor).move_to(layout.body().center)
        for amap in (scores, masked):
            amap.scale(factor)
            amap.shift(weights.body.get_center() - amap.body.get_center())
        return MainStage(scores, masked, weights, sums, shaded=shaded, region=layout.body())

    def _other_form(self, plan: VGroup, dense: bool, shaded: bool, rebuild: Callable[..., Stage],
                    stacked: Callable[..., tuple[Stage, float]]) -> Stage | None:
        """The form a stage takes where its `plan` (built `dense`, `shaded`) does not read at FONT in the body: the
        dense form first; then the stacked form (`stacked(shaded)`) where its numbers come out larger; where
        neither reaches the floor, the shaded form, unless that would hide its words too (then the numbers' form,
        small). None: `plan` is the form to fit. `rebuild(dense=, shaded=)` builds the stage again."""
        if self._legible(plan, layout.body(), FONT):
            return None
        if not dense:
            return rebuild(dense=True, shaded=shaded)
        form, factor = stacked(shaded)
        if not shaded and max(factor, room_factor(plan, layout.body())) * FONT < typography.MIN_FONT_SIZE:
            self.band = layout.top_band()
            self.follow_too_wide = False
            shaded_stage = rebuild(dense=True, shaded=True)
            if not self.follow_too_wide:  # else it would hide its words too: the numbers' form, small
                return shaded_stage
            form, factor = stacked()
        if factor > room_factor(plan, layout.body()):  # its numbers come out larger
            return form
        self.band = layout.top_band()  # the plan as it is: the formula's place as the stacked form did not leave it
        return None

    def _stacked_main_stage(self, shaded: bool = False) -> tuple[MainStage, float]:
        """The stacked form, for a frame too narrow for the query words and the sums beside the map (portrait): the
        map alone across the frame, its rows named in a table under it, each row's sum beside its word."""
        scores, masked, weights = share_columns(
            *(self._map(path, weights=w, causal=c, dense=True, named_rows=False, shaded=shaded)
              for path, w, c in (("scores", False, False), ("masked_scores", False, True), ("weights", True, True))))
        names = row_names(self.tokens, weights)
        sums = sums_beside(self.src, "right_order_row_sums", names, names, "row sum", palette.RIGHT)
        plan = stack_under(weights, VGroup(names, sums))
        formulas = VGroup(masking_cases(), softmax_of_masked()).arrange(DOWN, buff=layout.TIGHT)
        factor, region, follow = self._fit_stacked(plan, weights, [scores, masked], formulas, may_follow=shaded)
        return MainStage(scores, masked, weights, sums, names, shaded=shaded, follow=follow, region=region), factor

    def _fit_stacked(self, plan: VGroup, fitted: AttentionMap, others: list[AttentionMap],
                     formulas: VGroup | None = None, may_follow: bool = False,
                     pan_part: VGroup | None = None) -> tuple[float, layout.Region, bool]:
        """Fit a stacked plan under the formula's place (`self.band`), which keeps the height of the tallest
        `formulas` line (the cases over the softmax: a narrow frame cannot hold them side by side), set as wide as
        the frame allows; the maps in `others` take the place of `fitted`, cell for cell. Returns the scale, the
        region under the formula's place, and whether the plan is taller than that region: where fitting it whole
        would set its words below the floor (`may_follow`), it is built at the floor, its top at the region's top,
        and the camera follows the rows down (see _follow). `pan_part`: the part of a plan too wide for the frame at
        the floor that the camera frames first (the names and the first sums); where it alone fits at the floor, the
        plan is built so that it does, wider than the frame, and the camera pans (self.pans)."""
        body, whole = layout.body(), layout.frame()
        top = body.top
        if formulas is not None:
            layout.fit_into(formulas, whole, grow=False)
            top = min(body.top, whole.top - formulas.height - layout.TIGHT)
        self.band = layout.Region(whole.left, whole.right, top, whole.top)
        region = layout.Region(body.left, body.right, body.bottom, top - layout.TIGHT)
        factor = room_factor(plan, region)
        follow = may_follow and factor * FONT < typography.MIN_FONT_SIZE
        self.pans = False
        if follow:
            factor = min(typography.MIN_FONT_SIZE * close_up.BUILD_MARGIN / FONT, region.width / plan.width)
            self.follow_too_wide = factor * FONT < typography.MIN_FONT_SIZE  # a word too long even for this
            if self.follow_too_wide and pan_part is not None:
                pan_factor = min(typography.MIN_FONT_SIZE * close_up.BUILD_MARGIN / FONT,
                                 (region.width - layout.HAIRLINE) / pan_part.width)
                if pan_factor * FONT >= typography.MIN_FONT_SIZE:  # the part fits: the camera pans to the rest
                    factor, self.follow_too_wide, self.pans = pan_factor, False, True
        plan.scale(factor).move_to(region.center)
        if follow:
            plan.shift(UP * (region.top - layout.TIGHT - plan.get_top()[1]))
        for amap in others:
            amap.scale(factor)
            amap.shift(fitted.body.get_center() - amap.body.get_center())
        return factor, region, follow

    def _order_stage(self, dense: bool = False, shaded: bool = False) -> OrderStage:
        """One map and two columns of sums (wrong order red, right order green), fitted into the body together; the
        order's name above them in the top band."""
        unmasked, zeroed, right = share_columns(
            self._map("wrong_order_unmasked_weights", weights=True, causal=False, dense=dense, shaded=shaded),
            self._map("wrong_order_weights", weights=True, causal=True, dense=dense, shaded=shaded),
            self._map("weights", weights=True, causal=True, dense=dense, shaded=shaded))
        wrong_sums = sums_column(self.src, "wrong_order_row_sums", zeroed, ("softmax", "→ mask"), palette.WRONG)
        right_sums = sums_column(self.src, "right_order_row_sums", right, ("mask", "→ softmax"), palette.RIGHT)
        right_sums.next_to(wrong_sums, RIGHT, buff=layout.GAP).align_to(wrong_sums, UP)
        title_wrong = label("softmax first, then mask", font_size=typography.BODY_SIZE, color=palette.WRONG)
        title_right = label("mask first, then softmax", font_size=typography.BODY_SIZE, color=palette.RIGHT)
        for title in (title_wrong, title_right):  # the step's name in the top band, the map under it
            layout.fit_into(title, layout.top_band(), grow=False)
        plan = VGroup(zeroed, wrong_sums, right_sums)
        other_form = self._other_form(plan, dense, shaded, self._order_stage,
                                      lambda shaded=False: self._stacked_order_stage(title_wrong, title_right, shaded))
        if other_form is not None:
            return other_form
        if not dense and room_factor(plan, layout.body()) * FONT < typography.WORKED_NUMBER_SIZE:
            packed = self._order_stage(dense=True)  # upright key words, if the numbers then come out larger
            if not packed.shaded and \
                    packed.wrong_sums[1][0].height > wrong_sums[1][0].height * room_factor(plan, layout.body()):
                return packed
        factor, center = room_factor(plan, layout.body()), plan.get_center()
        shift = layout.body().center - center
        for part in (zeroed, wrong_sums, right_sums):
            part.scale(factor, about_point=center).shift(shift)
        for amap in (unmasked, right):
            amap.scale(factor)
            amap.shift(zeroed.body.get_center() - amap.body.get_center())
        return OrderStage(unmasked, zeroed, right, VGroup(title_wrong), VGroup(title_right), wrong_sums, right_sums,
                          shaded=shaded, region=layout.body())

    def _stacked_order_stage(self, title_wrong, title_right, shaded: bool = False) -> tuple[OrderStage, float]:
        """The order stage's stacked form (see _stacked_main_stage): the map across the frame, under it the query
        words with the wrong order's sums and the right order's beside them."""
        unmasked, zeroed, right = share_columns(
            *(self._map(path, weights=True, causal=c, dense=True, named_rows=False, shaded=shaded)
              for path, c in (("wrong_order_unmasked_weights", False), ("wrong_order_weights", True),
                              ("weights", True))))
        names = row_names(self.tokens, zeroed)
        wrong_sums = sums_beside(self.src, "wrong_order_row_sums", names, names, ("softmax", "→ mask"), palette.WRONG)
        right_sums = sums_beside(self.src, "right_order_row_sums", wrong_sums, names, ("mask", "→ softmax"),
                                 palette.RIGHT)
        plan = stack_under(zeroed, VGroup(names, wrong_sums, right_sums))
        factor, region, follow = self._fit_stacked(plan, zeroed, [unmasked, right], may_follow=shaded,
                                                   pan_part=VGroup(names, wrong_sums))
        return OrderStage(unmasked, zeroed, right, VGroup(title_wrong), VGroup(title_right), wrong_sums, right_sums,
                          names, shaded=shaded, follow=follow, region=region,
                          pans=self.pans), factor

    def _formula_line(self, *parts) -> VGroup:
        """Formulas one after the other in the formula's place: side by side, or one over the other where that
        sets them larger (a narrow frame's taller place, see _fit_stacked)."""
        line = VGroup(*parts).arrange(RIGHT, buff=layout.GAP)
        if self.band.height > layout.top_band().height:
            column = VGroup(*(part.copy() for part in parts)).arrange(DOWN, buff=layout.TIGHT)
            if legible.fill_factor(column, self.band) > legible.fill_factor(line, self.band):
                line = VGroup(*parts).arrange(DOWN, buff=layout.TIGHT)
        return self._fit_formula(line)

    def _fit_formula(self, mob):
        """Fit a formula into its place: grown to fill the top band, but only shrunk to fit a stacked stage's taller
        place (which it does not fill alone)."""
        return layout.fit_into(mob, self.band, grow=self.band.height <= layout.top_band().height)

    # --- beats ----------------------------------------------------------------------------------------------------
    @beat
    def who_may_see_whom(self) -> AttentionMap:
        """The rule before any numbers: query i may use keys j ≤ i, never a later token."""
        self.say("Causal attention: the query at position i may only use keys at positions j ≤ i.")
        table = self._check_table()
        if table.follow:  # what the frame at rest shows of it: the rest enters hidden, for the camera to reveal
            close_up.apply_shot_state(camera.rest_shot(), table)
        self.play(FadeIn(table.axes), run_time=1.0)
        self.play(LaggedStart(*(FadeIn(table.row(i), shift=RIGHT * layout.NUDGE) for i in range(self.n)),
                              lag_ratio=0.5), run_time=2.5)
        self.wait(1.0)
        self.say("When generating left to right the later tokens do not exist yet, so training must hide them too.")
        if table.follow:  # along to the last keys, where the future lies
            framed.move_to_shot(self, camera.shot_on(self._right_part(table), max_zoom=ONE_TO_ONE), table, [],
                                run_time=1.0)
        self.play(*(Indicate(cell[1], color=palette.WRONG, scale_factor=1.3) for cell in table.future),
                  run_time=1.5)
        self.wait(3.5)
        return table

    @beat
    def scaled_scores(self, table: AttentionMap) -> tuple[VGroup, MainStage]:
        """The scores grid that the mask will act on: every query row against every key column."""
        tokens = f"{count_word(self.n)} tokens"
        self.say(f"Start from the scaled scores ω = Q Kᵀ / √d_k for {tokens}: query rows, key columns.",
                 narration=f"Start from the scaled scores, ω = Q Kᵀ / √d_k, for {tokens}: one row per query, "
                           "one column per key.")
        self.play(FadeOut(table), run_time=0.8)
        if not camera.at_rest(self):  # back at rest on the empty stage
            camera.reset_camera(self)
        stage = self._main_stage()
        self._hide_small(stage)
        eq = self._fit_formula(math("omega = (Q K^top) / sqrt(d_k)", font_size=EQUATION))
        scores = stage.scores
        self.play(Write(eq), run_time=1.0)
        names = stage.names if not stage.follow else VGroup()  # under the frame: they enter when the camera goes down
        self.play(*(FadeIn(part) for part in (scores.axes, names) if len(part)), run_time=0.8)
        self.play(LaggedStart(*(FadeIn(scores.row(i)) for i in range(self.n)), lag_ratio=0.4), run_time=2.0)
        self.wait(1.5)
        values = self.src.get("scores").flatten().tolist()
        signs = [name for name, present in (("blue cells are positive scores", any(v > 0 for v in values)),
                                            ("red ones negative", any(v < 0 for v in values))) if present]
        self.say(f"{words_list(signs).capitalize()}; nothing stops a row from scoring a later word.")
        future = [scores.cell(i, j) for i in range(self.n) for j in range(i + 1, self.n)]
        self.play(*(Indicate(c, color=palette.WRONG, scale_factor=1.08) for c in future), run_time=1.5)
        self.wait(3.0)
        return VGroup(eq), stage

    @beat
    def mask_the_future(self, eq: VGroup, stage: MainStage) -> MaskedScreen:
        """Fill the future cells with −∞: the ω̃ cases, lit up as the picture applies each case."""
        self.say("Mask: keep ω_ij where j ≤ i, and fill every future cell (j > i) with −∞.",
                 narration="Now the mask: keep ω_ij wherever j ≤ i, and fill every future cell, where j > i, "
                           "with −∞.")
        cases = self._fit_formula(masking_cases())
        self.play(ReplacementTransform(eq, cases), run_time=1.0)
        future_box = frame_box(VGroup(cases.select("inf"), cases.select("future")), color=palette.WRONG)
        self.play(Create(future_box), run_time=0.6)
        scores, masked = stage.scores, stage.masked
        pairs = [(i, j) for i in range(self.n) for j in range(i + 1, self.n)]
        # the −∞ of the formula travels into every future cell; the score it replaces fades, the cell turns grey
        entering = motion.mask_enters(cases.select("inf"), [masked.cell(i, j)[1] for i, j in pairs])
        self.play(motion.lagged(entering), *(ReplacementTransform(scores.cell(i, j)[0], masked.cell(i, j)[0])
                                             for i, j in pairs),
                  *(FadeOut(scores.cell(i, j)[1]) for i, j in pairs), run_time=2.5)
        settle(self, [masked.cell(i, j) for i, j in pairs], [part for i, j in pairs for part in masked.cell(i, j)])
        self.wait(1.0)
        self.say("The past and the diagonal keep their scores: that is the first case of ω̃.")
        keep_box = frame_box(VGroup(cases.select("keep"), cases.select("past")), color=palette.RIGHT)
        past = [scores.cell(i, j) for i in range(self.n) for j in range(i + 1)]
        self.play(ReplacementTransform(future_box, keep_box),
                  *(Indicate(c, color=palette.RIGHT, scale_factor=1.08) for c in past), run_time=1.5)
        self.wait(2.5)
        self.play(FadeOut(keep_box), run_time=0.4)
        cells = tuple(tuple((masked if j > i else scores).cell(i, j) for j in range(self.n)) for i in range(self.n))
        return MaskedScreen(VGroup(cases), cells, scores.axes)

    @beat
    def softmax_each_row(self, stage: MainStage, screen: MaskedScreen) -> None:
        """Row-wise softmax: exp(−∞) = 0, so the upper triangle is exactly zero and each row sums to one."""
        self.say("Then softmax each row over the keys: exp(−∞) is zero, so every future weight is exactly zero.")
        arrow_eq = softmax_of_masked()
        line = self._formula_line(screen.cases.copy(), arrow_eq)
        self.play(screen.cases.animate.match_width(line[0]).move_to(line[0]), run_time=0.6)
        self.play(Write(arrow_eq), run_time=1.0)
        soft_box = frame_box(arrow_eq.select("soft"), color=palette.WEIGHT)
        self.play(Create(soft_box), run_time=0.5)
        weights, (header, sums) = stage.weights, stage.sums
        self.play(FadeIn(header), run_time=0.5)
        if stage.follow:  # the stage is taller than the body: the camera goes down with the rows, the formula still
            framed.cover_top_band(self, stage.region)
        for i in range(self.n):  # each score of the row becomes its weight, then the row's weights add up
            shown = screen.cells[i]
            becoming = [*motion.scores_to_weights(shown, list(weights.row(i))), *(FadeOut(c) for c in shown)]
            if stage.follow:
                entering = [FadeIn(stage.names)] if i == 0 else []
                self._follow(stage, VGroup(weights.row(i), sums[i]), [screen.cases, arrow_eq, soft_box], *becoming,
                             *entering)
            else:
                self.play(*becoming, run_time=0.6)
            self.play(*motion.collapse(weights.row(i), sums[i]), run_time=0.4)
        self.wait(1.0)
        short, _ = sum_claim(self.src, self.tokens, "right_order_row_sums")
        rows = "every row sums to one" if not short else "every row sums to one, up to rounding"
        self.say(f"Each row {past_rows_phrase(self.src.get('weights'))}, and {rows}.")
        self.play(*(Indicate(c, color=palette.WEIGHT, scale_factor=1.08) for c in weights.future),
                  Indicate(sums, color=palette.RIGHT), run_time=1.5)
        self.wait(2.0)
        self.play(FadeOut(soft_box), run_time=0.3)

    @beat
    def wrong_order(self) -> OrderStage:
        """Softmax first, mask after: the zeros are there, but the rows no longer sum to one."""
        self.say("The wrong order: softmax over all keys first (the future included), then zero the future.",
                 narration="Now the wrong order: a softmax over all the keys first, the future included, and only "
                           "then zero the future.")
        self.clear_stage()
        stage = self._order_stage()
        self._hide_small(stage)
        unmasked, zeroed = stage.unmasked, stage.zeroed
        names = stage.names if not stage.follow else VGroup()  # under the frame: they enter when the camera goes down
        self.play(*(FadeIn(part) for part in (unmasked, names) if len(part)), FadeIn(stage.title_wrong),
                  run_time=1.2)
        self.wait(1.5)
        pairs = [(i, j) for i in range(self.n) for j in range(i + 1, self.n)]
        self.play(*(ReplacementTransform(unmasked.cell(i, j), zeroed.cell(i, j)) for i, j in pairs), run_time=1.5)
        self.wait(1.0)
        short, least = sum_claim(self.src, self.tokens, "wrong_order_row_sums")
        kept = format_value(self.src.value("wrong_order_row_sums", least), 2)
        if short:
            words = [self.tokens[i] for i in short]
            rows = "one row sums" if len(short) == 1 else f"{count_word(len(short))} rows sum"
            self.say(f"Now {rows} to less than one ({words_list(words)}); the row of “{self.tokens[least]}” keeps "
                     f"only {kept} of its weight. That is no longer a distribution over the allowed positions.")
        else:
            self.say(f"Here the future held so little weight that every row still shows {kept}; in general the "
                     "rows lose what the future had, and are no longer distributions over the allowed positions.")
        if stage.follow:  # the sums under the map: the camera goes down to them, the order's name still
            framed.cover_top_band(self, stage.region)
            self._follow(stage, stage.wrong_table, [stage.title_wrong], FadeIn(stage.names))
        self.play(FadeIn(stage.wrong_sums[0]), run_time=0.4)
        rows = [VGroup(*(unmasked.cell(i, j) if j <= i else zeroed.cell(i, j) for j in range(self.n)))
                for i in range(self.n)]
        self.play(motion.lagged([a for i, row in enumerate(rows)
                                 for a in motion.collapse(row, stage.wrong_sums[1][i])]), run_time=1.5)
        marks = [stage.wrong_sums[1][i] for i in short] or [stage.wrong_sums[1]]
        self.play(*(Indicate(s, color=palette.WRONG, scale_factor=1.3) for s in marks), run_time=1.5)
        self.wait(4.0)
        return stage

    @beat
    def right_order_recap(self, stage: OrderStage) -> None:
        """The same map in the right order: mask then softmax, and every row sums to one again."""
        self.say("The right order: mask the scores with −∞ first, then softmax.")
        cells = [stage.unmasked.cell(i, j) if j <= i else stage.zeroed.cell(i, j)
                 for i in range(self.n) for j in range(self.n)]
        targets = [stage.right.cell(i, j) for i in range(self.n) for j in range(self.n)]
        if stage.follow:  # back up to the map, then down again to the sums
            framed.move_to_shot(self, camera.rest_shot(), stage.whole, [stage.title_wrong], run_time=0.6,
                                region=stage.region)
        self.play(ReplacementTransform(stage.title_wrong, stage.title_right),
                  *(ReplacementTransform(c, t) for c, t in zip(cells, targets)), run_time=1.5)
        if stage.follow:
            self._follow(stage, stage.right_table, [stage.title_right])
        self.play(FadeIn(stage.right_sums[0]), run_time=0.3)
        self.play(motion.lagged([a for i in range(self.n)
                                 for a in motion.collapse(stage.right.row(i), stage.right_sums[1][i])]),
                  run_time=1.2)
        self.say("Exact zeros above the diagonal, and every row is still a distribution over the past.")
        self.play(Indicate(stage.right_sums[1], color=palette.RIGHT, scale_factor=1.2), run_time=1.2)
        self.wait(3.2)
