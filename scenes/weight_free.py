"""Self-attention with no trainable weights: the example's sentence, first for its query word (Steps A–C: dot-product
scores, softmax, weighted sum), then for every position at once (A = softmax(X Xᵀ), Z = A X), ending on the point
that one set of vectors plays query, key and value.

Follows "Simplified self-attention (no trainable weights)" and "All positions at once".
"""

from __future__ import annotations

from dataclasses import dataclass

from manim import (
    DOWN, LEFT, PI, RIGHT, UP, Create, FadeIn, FadeOut, FadeTransform, GrowFromEdge, LaggedStart,
    ReplacementTransform, Transform, VMobject, config,
    TransformFromCopy, VGroup, Write,
)

from scenes.kit import (
    AttentionScene, motion, DotProducts, SoftmaxBars, Source, TensorGrid, WeightedRows, add_rows, align_rows, beat,
    dot_every_row, flow_arrow, format_value, frame_box, group, heatmap, label, math, matrix, palette,
    scale_every_row, subscript, typography, vector,
)
from scenes.kit import camera, close_up, framed, layout
from scenes.kit import legible
from scenes.kit.legible import first_legible, fit_legibly, fits_at_floor, reads_worked, smallest_text
from scenes.kit.attention_map import AttentionMap
from scenes.kit.claims import all_of, bottom_index, count_word, top_index
from scenes.kit.products import NUMBER, into_product, product_row, row_times_vector, settle, shared_cell_width
from scenes.kit.score_bars import LYING_LENGTH, lie_beside, lying_bars, names_arrow, stand_labels_upright, upright_words
from scenes.kit.spotlight import TermLight
from scenes.kit.spread_claims import blend_phrase
from scenes.kit.text import wrapped


@dataclass(frozen=True)
class WeightFreeLayout:
    """The sizes this scene chooses itself; every position follows from them and the content."""

    bar_width: float = 0.8  #: a softmax bar, wide enough for a two-decimal weight above it
    bar_height: float = 4.5  #: the height a weight of 1 would reach, before the body limits it
    roles_and_next: tuple[int, int] = (5, 1)  #: last beat: the frame's share for the three roles and the "Next" line
    roles_and_next_narrow: tuple[int, int] = (3, 1)  #: the same where the "Next" line takes two lines (narrow frames)
    dimmed: float = 0.35  #: opacity of the steps not running, where the three share the top band


L = WeightFreeLayout()
WORKED = typography.WORKED_NUMBER_SIZE


@dataclass(frozen=True)
class Steps:
    """The post's three steps as one line across the top: each lights up while its step runs."""

    line: VGroup
    a: VGroup
    b: VGroup
    c: VGroup
    dim: float  #: the opacity of a step not running: dimmed beside the others, or hidden where they share one place


@dataclass(frozen=True)
class StepA:
    comp: DotProducts
    query_box: VGroup
    query_name: VGroup
    omega_name: VGroup


@dataclass(frozen=True)
class StepB:
    omega: VGroup  # the scores column, with its name
    arrow: VGroup  # arrow and "softmax" tag
    bars: SoftmaxBars


#: How Step B's arrow runs from the scores to the bars: across (side by side), downwards (the scores over the
#: bars), or on the names' line (lying bars built close to the scores).
ACROSS, DOWNWARDS, ON_THE_NAMES = "across", "downwards", "on the names"
#: How Step A's scoring is shown: whole, in two shots (products, then sums), or framed row by row.
WHOLE, TWO_SHOTS, FRAMED_ROWS = "whole", "two shots", "framed rows"


@dataclass(frozen=True)
class SoftmaxPicture:
    """Step B's arrangement, (ω, "softmax", bars), and how its arrow runs (which builder made it)."""

    row: VGroup
    arrow: str

    @property
    def lying(self) -> bool:
        """The bars lie along their words' rows (ScoreBars.lying)."""
        return getattr(self.row[2], "lying", False)


@dataclass(frozen=True)
class AllScores:
    eq: VGroup
    scores: AttentionMap
    passing: VGroup  # what leaves with the next beat (X, the arrow, the highlight)
    style: dict  # the maps' arrangement (row height, upright key words), shared by every map of the clip


@dataclass(frozen=True)
class Weights:
    A: AttentionMap
    leaving: VGroup  # the scores, the α check and their marks: they leave as the next beat starts
    style: dict


@dataclass(frozen=True)
class ProductRow:
    """A × X = Z, each a grid or (where the grids would not fit legibly) a symbol."""

    A: VGroup
    X: VGroup
    Z: TensorGrid
    signs: VGroup
    names: VGroup  # the grids' names above them; Z's last

    @property
    def whole(self) -> VGroup:
        return VGroup(self.A, self.X, self.Z, self.signs, self.names)


def _stacked_product(A, X, Z) -> tuple[VGroup, VGroup]:
    """`A × X = Z` down a tall frame: A, then "×", X and "=" (on one line when X is a symbol), then Z; returns
    the "×" and "=" it made."""
    times, equals = math("times", color=palette.MUTED), math("=", color=palette.MUTED)
    if isinstance(X, TensorGrid):
        VGroup(A, times, X, equals, Z).arrange(DOWN, buff=layout.GAP)
    else:
        VGroup(A, VGroup(times, X, equals).arrange(RIGHT, buff=layout.GAP), Z).arrange(DOWN, buff=layout.GAP)
    return times, equals


def in_lines(words: VGroup, width: float) -> VGroup:
    """The words left to right, a new line where the next word would pass `width`, the lines centred one under
    another (a sentence too long for one line in a narrow frame)."""
    lines, line = VGroup(), VGroup()
    for word in words:
        if len(line) and VGroup(*line, word).arrange(RIGHT, buff=layout.GAP).width > width:
            lines.add(line.arrange(RIGHT, buff=layout.GAP))
            line = VGroup()
        line.add(word)
    lines.add(line.arrange(RIGHT, buff=layout.GAP))
    return lines.arrange(DOWN, buff=layout.GAP)


def first_columns(grid: TensorGrid, width: float) -> list[VGroup]:
    """The leading columns of `grid` that, with its row labels, stay within `width` (at least the first)."""
    columns = [grid.column(0)]
    for c in range(1, grid.cols):
        if VGroup(grid.row_labels, *columns, grid.column(c)).width > width:
            break
        columns.append(grid.column(c))
    return columns


def top_score_caption(src: Source, tokens: list[str], query: int) -> str:
    """Step A's reading of the scores: the highest-scoring word (said against the query itself), or the tie."""
    omega = src.get("omega")
    best = top_index(omega)
    if best is None:
        top = format_value(float(omega.max()), 2)
        return f"Two words tie for the highest score, ω = {top}: the dot product alone cannot pick one."
    against = "against itself" if best == query else f"even above “{tokens[query]}” itself"
    return (f"“{tokens[best]}” scores highest {against}: "
            f"ω{subscript(best + 1)} = {format_value(src.value('omega', best), 2)}.")


def distribution_caption(src: Source, tokens: list[str], position: int) -> str:
    """Step B's reading of the bars: where the most and the least weight go (or the tie, when there is one)."""
    alpha = src.get("alpha")
    hi, lo = top_index(alpha), bottom_index(alpha)
    most = (f"most on “{tokens[hi]}” ({format_value(src.value('alpha', hi), 2)})" if hi is not None
            else f"the largest weights tie at {format_value(float(alpha.max()), 2)}")
    least = (f"least on “{tokens[lo]}” ({format_value(src.value('alpha', lo), 2)})" if lo is not None
             else f"the smallest tie at {format_value(float(alpha.min()), 2)}")
    return f"This is the attention distribution for position {position}: {most}, {least}."


class WeightFreeScene(AttentionScene):
    scene_id = "weight_free"

    def construct(self):
        self.src = Source("rain")
        self.tokens = list(self.src.get("tokens"))
        self.qi = self.src.get("query_index")
        self.qn = self.qi + 1  # 1-based position, as in the post's x₃
        self.show_title()
        light = TermLight()
        X = self.embedding_vectors()
        steps = self.step_formulas()
        a = self.step_a_scores(X, steps, light)
        b = self.step_b_softmax(a, steps, light)
        self.step_c_weighted_sum(b, steps, light)
        scores = self.all_scores_at_once(light)
        weights = self.all_weights_at_once(scores, light)
        self.all_outputs_at_once(weights, scores.eq, light)
        self.same_vectors_three_roles(light)

    # --- helpers -------------------------------------------------------------------------------------------
    def x_matrix(self, color=palette.TEXT, *, labels: bool = True, cell_size: float = typography.CELL):
        grid = matrix(self.src, "X", color=color, font_size=NUMBER, cell_size=cell_size,
                      cell_width=shared_cell_width(self.src, ("X",), font_size=NUMBER))
        if labels:
            grid.add_row_labels(self.tokens, color=palette.ENGLISH, font_size=typography.LABEL_SIZE)
        return grid


    @staticmethod
    def in_frame_at_rest(mob, start=None) -> None:
        """`mob` came out larger than the body at the floor (an 8 × 8 map in portrait): it stands from the body's
        left edge (or centred, without `start`), and what the frame does not show whole stays hidden, its cells
        shaded (for parts not on screen yet: they enter in that state). Nothing changes where it is no larger than
        the frame."""
        if mob.width <= config.frame_width and mob.height <= config.frame_height:
            return
        if start is not None:
            mob.shift(RIGHT * (layout.body().left - start.get_left()[0]))
        close_up.apply_shot_state(camera.rest_shot(), mob)

    def map_style(self) -> dict:
        """One arrangement for every map of the clip (so scores turn into weights cell for cell): the first in
        which the weights, their name and the α row under them stay legible in the body."""
        def weights_with_check(style):
            A = self.weight_map(style)
            a_name = math("A", font_size=typography.HEADING_SIZE).next_to(  # portrait: over the map
                A if layout.is_tall() else A.body, UP if layout.is_tall() else RIGHT, buff=layout.GAP)
            return VGroup(A, a_name, self.alpha_under(A, style["cell_size"]).shift(UP * (layout.APART - layout.NEAR)))

        for style in legible.map_styles():
            if fits_at_floor(weights_with_check(style), layout.body()):
                return style
        return legible.map_styles()[-1]

    def step_formulas(self) -> Steps:
        qn = self.qn
        a = math(group("omega_i", "om") + " = " + group(f"x_{qn}^top", "q") + " " + group("x_i", "k"))
        b = math(group("alpha_i", "al") + " = " + group('op("softmax")(omega)_i', "sm"))
        c = math(group(f"z_{qn}", "z") + " = " + group("sum_i", "sum") + " " + group("alpha_i", "al")
                 + " " + group("x_i", "v"))
        line = VGroup()
        for letter, formula in zip(("A", "B", "C"), (a, b, c)):
            tag = label(f"Step {letter}", font_size=typography.SMALL_SIZE, color=palette.MUTED)
            line.add(VGroup(tag, formula).arrange(RIGHT, buff=layout.NEAR))
        line.arrange(RIGHT, buff=layout.FAR)
        if fits_at_floor(line, layout.top_band()):
            layout.fit_into(line, layout.top_band())
            return Steps(line, a, b, c, L.dimmed)
        # a narrow frame: the line would shrink below the floor, so each step takes the band alone while it runs
        for step in line:
            layout.fit_into(step, layout.top_band(), grow=False)
        return Steps(line, a, b, c, 0)

    # --- beats ---------------------------------------------------------------------------------------------
    @beat
    def embedding_vectors(self) -> VGroup:
        """The sentence becomes the matrix X: one embedding per word, one row per token."""
        n = len(self.tokens)
        sentence = VGroup(*(label(t, font_size=typography.HEADING_SIZE, color=palette.ENGLISH) for t in self.tokens))
        sentence.arrange(RIGHT, buff=layout.GAP)
        if fits_at_floor(sentence, layout.body()):
            layout.fit_into(sentence, layout.body())
        else:  # a long sentence in a narrow frame: in lines, each as wide as the body at the words' own size
            layout.fit_into(in_lines(sentence, layout.body().width), layout.body())
        self.say(f"Pretend each word of “{' '.join(self.tokens)}” is already an embedding vector.")
        self.play(LaggedStart(*(FadeIn(w, shift=UP * layout.NUDGE) for w in sentence), lag_ratio=0.2), run_time=1.2)
        self.wait(1.5)
        def named_x(cell):
            grid = self.x_matrix(cell_size=cell)
            return VGroup(grid, math("X", font_size=typography.HEADING_SIZE).next_to(grid.body, UP, buff=layout.GAP))

        X, name = first_legible([lambda c=c: named_x(c) for c in legible.row_heights()], layout.body())
        if not fit_legibly(VGroup(X, name), layout.body()):
            # wider than the frame at the floor (six-wide vectors in portrait): the words and the first entries in
            # the frame, the entries beyond it shaded (their numbers come back where they are used)
            shown = VGroup(X.row_labels, *first_columns(X, layout.body().width - 2 * camera.FRAMING_MARGIN))
            name.match_x(shown)
            VGroup(X, name).shift(layout.body().center - shown.get_center())
            close_up.apply_shot_state(camera.rest_shot(), VGroup(X, name))
        self.say(f"{count_word(n).capitalize()} tokens, {count_word(n)} vectors: stacked as rows they form "
                 "the matrix X.")
        self.play(*(ReplacementTransform(w, lab) for w, lab in zip(sentence, X.row_labels)),
                  LaggedStart(*(FadeIn(X.row(i)) for i in range(X.rows)), lag_ratio=0.2),
                  FadeIn(X.brackets), FadeIn(name), run_time=1.6)
        self.wait(1.6)
        return VGroup(X, name)

    @beat
    def step_a_scores(self, X_named: VGroup, steps: Steps, light: TermLight) -> StepA:
        """Step A: the query x₃ dotted with every x_i, product by product, gives the scores ω."""
        X, X_name = X_named
        whole, shots = self._scoring_picture()
        comp, q_name, o_name = whole
        self.say(f"Step A: fix the query “{self.tokens[self.qi]}” (x{subscript(self.qn)}) and score every word "
                 "by a dot product.")
        self._scoring_enters(X, X_name, whole, steps, shots)
        q_box = frame_box(comp.matrix.row(self.qi), color=palette.QUERY)
        self.play(Create(q_box), TransformFromCopy(comp.matrix.row(self.qi), comp.vector.body),
                  FadeIn(comp.vector.brackets), FadeIn(q_name), *light.on(steps.a, ["q"], palette.QUERY),
                  run_time=1.2)
        in_two_shots = shots == TWO_SHOTS
        self.play(FadeIn(comp.scaffold() if not in_two_shots else VGroup(comp.times, comp.products.brackets)),
                  FadeIn(o_name if not in_two_shots else VGroup()), run_time=0.5)
        self.wait(0.8)
        qn = subscript(self.qn)
        self.say(f"Multiply x{qn} and xᵢ entry by entry, add the products: one score ωᵢ per word.",
                 narration=f"Multiply x{qn} and each xᵢ entry by entry, and add the products: "
                           "that gives one score, ωᵢ, per word.")
        last_box = self._work_the_scores(whole, steps, light, shots, q_box)
        if in_two_shots:
            q_box, q_name = VGroup(), VGroup()
        best = top_index(self.src.get("omega"))
        self.say(top_score_caption(self.src, self.tokens, self.qi))
        self.play(FadeOut(last_box), *([] if best is None else [comp.result.cell(best).animate.set_color(
            palette.QUERY)]), run_time=0.6)
        self.wait(1.6)
        return StepA(comp, q_box, q_name, o_name)

    def _scoring_picture(self) -> tuple[VGroup, str]:
        """X times the query, its products and the scores ω, fitted legibly, and how the camera shows them: whole;
        in two shots where the whole is too wide for the floor (six-wide vectors: the products first, then the
        sums); or, where even the products do not fit (a portrait frame), built legible and framed row by row."""
        def scoring(cell):
            comp = DotProducts(self.src, matrix="X", vector="query", products="omega_terms", result="omega",
                               row_labels=self.tokens, cell_size=cell, label_size=typography.LABEL_SIZE)
            q_name = math(f"x_{self.qn}", color=palette.QUERY).next_to(comp.vector, LEFT, buff=layout.NEAR)
            o_name = math("omega", font_size=typography.HEADING_SIZE).next_to(comp.result, UP, buff=layout.NEAR)
            return VGroup(comp, q_name, o_name)

        whole = first_legible([lambda c=c: scoring(c) for c in legible.row_heights()], layout.body())
        comp, q_name, _ = whole
        if fit_legibly(whole, layout.body()):
            return whole, WHOLE
        products_part = VGroup(comp.matrix, comp.times, comp.vector, comp.products, q_name)
        if products_part.width > layout.frame().width or products_part.height > layout.frame().height:
            close_up.build_legible(whole, layout.body())
            return whole, FRAMED_ROWS
        whole.shift(layout.body().center - products_part.get_center())
        return whole, TWO_SHOTS

    def _scoring_enters(self, X: VGroup, X_name: VGroup, whole: VGroup, steps: Steps, shots: str) -> None:
        """X becomes the product's matrix and the step line's first step shows (the steps to come wait hidden in
        the band); framed row by row, where the frame shows it, then the camera pulls out to the whole."""
        comp = whole[0]
        waiting = steps.line[1:]
        if not steps.dim:
            self.add(waiting.set_opacity(steps.dim))
        if shots == FRAMED_ROWS:
            close_up.apply_shot_state(camera.rest_shot(), whole)
            self.play(FadeOut(X_name), ReplacementTransform(X, comp.matrix), FadeIn(steps.line[0]), run_time=1.0)
            framed.cover_top_band(self)
            framed.move_to_shot(self, camera.shot_on_all(whole), whole, [steps.line], run_time=0.8)
        else:
            self.play(FadeOut(X_name), ReplacementTransform(X, comp.matrix), FadeIn(steps.line[0]),
                      *(FadeIn(waiting, run_time=0.8),) if steps.dim else (), run_time=1.0)
        waiting.set_opacity(steps.dim)

    def _work_the_scores(self, whole: VGroup, steps: Steps, light: TermLight, shots: str, q_box) -> VMobject:
        """Every row of X times the query, its products collapsing into its score; returns the last row's box."""
        comp, q_name, o_name = whole
        first_products = light.on(steps.a, ["q", "k"], palette.KEY, paint=["k"])
        if shots == FRAMED_ROWS:  # the formula's box changes before the camera moves: it moves with the formula
            self.play(*first_products, run_time=0.5)
            shown = framed.dot_every_row(self, comp, whole, [steps.line, light.box],
                                         labels=list(comp.matrix.row_labels), color=palette.KEY)
            self.play(*light.on(steps.a, ["om"]), run_time=0.5)
            best = top_index(self.src.get("omega"))
            framed.frame_part(self, VGroup(comp.result if best is None else comp.result.cell(best), o_name),
                              whole, [steps.line, light.box])
            return shown[-1].box
        if shots == WHOLE:
            shown = dot_every_row(self, comp, color=palette.KEY, with_first_products=first_products,
                                  with_first_sum=light.on(steps.a, ["om"]))
            return shown[-1].box
        shown = []
        for i in range(comp.matrix.rows):
            row, products, _ = comp.row(i)
            shown.append(row_times_vector(self, row, comp.vector.body, products, None, color=palette.KEY,
                                          box=shown[-1].box if shown else None,
                                          with_products=first_products if i == 0 else (), run_time=0.7))
        settle(self, [comp.products], [s.products for s in shown])
        # X has done its part: the camera moves on to the products and their sums
        sums_part = VGroup(comp.sum_sign, comp.result.brackets, o_name)
        self.frame_on(VGroup(comp.vector, comp.products, sums_part), FadeOut(comp.matrix), FadeOut(q_box),
                      FadeOut(q_name), FadeOut(comp.times), FadeOut(shown[-1].box))
        self.play(FadeIn(sums_part), run_time=0.5)
        sums = [anim for i in range(comp.matrix.rows)
                for anim in motion.collapse(comp.products.row(i), comp.result.cell(i))]
        self.play(motion.lagged(sums), *light.on(steps.a, ["om"]), run_time=1.6)
        settle(self, [comp.result], [comp.result.cell(i) for i in range(comp.matrix.rows)])
        return VGroup()

    @beat
    def step_b_softmax(self, a: StepA, steps: Steps, light: TermLight) -> StepB:
        """Step B: softmax turns the scores into weights that sum to 1 (bars)."""
        comp = a.comp
        omega = VGroup(comp.result, a.omega_name)
        picture = self._softmax_picture()
        target, tag, bars = picture.row
        arrow = self._softmax_arrow(picture)
        self.say("Step B: softmax turns the scores into weights α that are positive and sum to one.")
        self._scores_into_place(a, steps, light, omega, target)
        self.play(*light.on(steps.b, ["sm"], palette.WEIGHT), Create(arrow), FadeIn(tag), run_time=0.8)
        scores = [comp.result.cell(i) for i in range(len(self.tokens))]
        self.play(Create(bars.baseline), FadeIn(bars.labels),
                  LaggedStart(*(GrowFromEdge(b, LEFT if picture.lying else DOWN) for b in bars.bars),
                              lag_ratio=0.15),
                  motion.lagged(motion.scores_to_weights(scores, list(bars.values))),
                  *light.on(steps.b, ["al"], palette.WEIGHT), run_time=1.6)
        self.say(distribution_caption(self.src, self.tokens, self.qn))
        hi = top_index(self.src.get("alpha"))
        if hi is not None:
            self.play(bars.bars[hi].animate.set_fill(palette.QUERY), run_time=0.6)
        self.wait(3.0)
        return StepB(omega, VGroup(arrow, tag), bars)

    def _scores_into_place(self, a: StepA, steps: Steps, light: TermLight, omega: VGroup, target: VGroup) -> None:
        """Step A's working leaves, the step line moves on to B, and the scores ω move to where softmax reads them
        (after a two-shot step A, while the camera comes back to rest)."""
        comp = a.comp
        leaving = [m for m in (comp.matrix, comp.vector, comp.products, comp.times, comp.sum_sign, a.query_box,
                               a.query_name) if self.shows(m)]
        panned = not camera.at_rest(self)
        if panned:
            pinned = [m for m in (steps.line, light.box, getattr(self, "band_cover", None)) if m is not None]
            self.play(*camera.move_camera(self, camera.rest_shot(), pinned=pinned), Transform(omega, target),
                      *(FadeOut(m) for m in leaving), run_time=1.0)
            leaving = []
        self.play(*(FadeOut(m) for m in leaving), steps.line[0].animate.set_opacity(steps.dim),
                  steps.line[1].animate.set_opacity(1), *light.off(), run_time=0.7)
        if not panned:
            self.play(Transform(omega, target), run_time=0.6)

    def _softmax_picture(self) -> SoftmaxPicture:
        """Scores → softmax → bars, in the first arrangement that reads at the floor: a row (landscape), a column
        (portrait), or the bars lying along the words' rows; where even the most legible runs off the frame (eight
        or eleven words in a square frame, eleven in portrait), the others and the lying bars close to the scores."""
        stacked = layout.is_tall()
        builds = [lambda c=c: (self._softmax_column if stacked else self._softmax_row)(c)
                  for c in legible.row_heights()]
        if stacked:
            builds += [lambda c=c: self._softmax_across(c) for c in legible.row_heights()]
        whole = lambda picture: picture.row  # noqa: E731
        picture = first_legible(builds, layout.body(), whole=whole)
        if not fit_legibly(picture.row, layout.body()) and (picture.row.width > config.frame_width
                                                            or picture.row.height > config.frame_height):
            others = [] if stacked else [self._softmax_column, self._softmax_across]
            picture = first_legible([lambda c=c, f=f: f(c) for f in (*others, self._softmax_close)
                                     for c in legible.row_heights()], layout.body(), whole=whole)
            fit_legibly(picture.row, layout.body())
        return picture

    def _softmax_row(self, cell: float) -> SoftmaxPicture:
        """ω, "softmax" and the bars side by side (full size; a long sentence packs the row closer)."""
        target = VGroup(self.omega_column(cell), math("omega", font_size=typography.HEADING_SIZE))
        target[1].next_to(target[0], UP, buff=layout.NEAR)
        bars = self.softmax_bars(layout.body().height)
        tag = label("softmax", font_size=typography.SMALL_SIZE, color=palette.WEIGHT)
        many = upright_words(self.tokens, L.bar_width)
        return SoftmaxPicture(VGroup(target, tag, bars).arrange(RIGHT, buff=layout.GAP if many else layout.FAR),
                              ACROSS)

    def _softmax_column(self, cell: float) -> SoftmaxPicture:
        """The scores as a row over the bars, the arrow pointing down from one to the other."""
        target = VGroup(self.omega_column(cell, orientation="row"), math("omega", font_size=typography.HEADING_SIZE))
        target[1].next_to(target[0], LEFT, buff=layout.NEAR)
        bars = self.softmax_bars(layout.body().height - target.height - 2 * layout.FAR)
        tag = label("softmax", font_size=typography.SMALL_SIZE, color=palette.WEIGHT)
        return SoftmaxPicture(VGroup(target, tag, bars).arrange(DOWN, buff=layout.FAR), DOWNWARDS)

    def _softmax_across(self, cell: float, length: float = LYING_LENGTH, gap: float = layout.FAR) -> SoftmaxPicture:
        """A narrow frame where even the row of scores is too wide: the scores as a column beside their words,
        each weight a bar lying along its word's row (`length` long, `gap` from the scores). Built close (a gap
        under FAR), the arrow has no room between the rows and runs on the names' line."""
        target = VGroup(self.omega_column(cell), math("omega", font_size=typography.HEADING_SIZE))
        target[0].add_row_labels(self.tokens, color=palette.ENGLISH, font_size=typography.SMALL_SIZE)
        target[1].next_to(target[0].body, UP, buff=layout.NEAR)
        bars = lying_bars(self.src, "alpha", self.tokens, cell, length)
        tag = label("softmax", font_size=typography.SMALL_SIZE, color=palette.WEIGHT)
        row = lie_beside(target, bars, tag, gap)
        if gap != layout.FAR:
            tag.match_y(target[1])
            return SoftmaxPicture(row, ON_THE_NAMES)
        return SoftmaxPicture(row, ACROSS)

    def _softmax_close(self, cell: float) -> SoftmaxPicture:
        """The lying bars closer to the scores (the arrow over them), as long as the body's width leaves at the
        floor."""
        close = self._softmax_across(cell, gap=layout.GAP).row
        room = layout.body().width * smallest_text(close) / typography.MIN_FONT_SIZE
        return self._softmax_across(cell, LYING_LENGTH + min(0, room - close.width), layout.GAP)

    @staticmethod
    def _softmax_arrow(picture: SoftmaxPicture) -> VMobject:
        """The arrow from the scores to the bars, where the arrangement leaves room for it (and the tag beside
        it where the arrangement did not place the tag already)."""
        target, tag, bars = picture.row
        if picture.arrow == ON_THE_NAMES:  # built close: from ω to the tag over the bars
            return names_arrow(target, tag)
        if picture.lying:  # the tag already over the bars
            return flow_arrow(target[0], bars).match_y(target[0].body)
        if picture.arrow == DOWNWARDS:
            arrow = flow_arrow(target[0], bars, down=True)
            tag.next_to(arrow, RIGHT, buff=layout.NEAR)
            return arrow
        arrow = flow_arrow(target, bars).match_y(target[0].body)
        tag.next_to(arrow, UP, buff=layout.TIGHT)
        return arrow

    def shows(self, mob) -> bool:
        """Whether `mob` is on screen now (a part the camera's first shot already faded is not)."""
        shown = {id(m) for m in self.get_mobject_family_members()}
        return any(id(part) in shown for part in mob.get_family())

    def omega_column(self, cell: float = typography.CELL, orientation: str = "column") -> TensorGrid:
        """The scores ω as a column (or a row, over the bars of a portrait frame), at the size step A builds them
        (before any fitting)."""
        width = shared_cell_width(self.src, ("X", "query", "omega_terms", "omega"), font_size=NUMBER)
        return vector(self.src, "omega", orientation=orientation, font_size=NUMBER, cell_width=width, cell_size=cell)

    def softmax_bars(self, room: float) -> SoftmaxBars:
        """Bars as tall as the body allows: a first build measures the labels, the second gets the rest. Words
        that laid flat would make the bars wider than the body stand upright under them (as in ScoreBars)."""
        upright = upright_words(self.tokens, L.bar_width)
        width = L.bar_width if upright else self.bar_width()

        def build(height: float) -> SoftmaxBars:
            bars = SoftmaxBars(self.src, "alpha", self.tokens, max_height=height, bar_width=width,
                               buff=layout.NEAR if upright else layout.GAP)
            return stand_labels_upright(bars, self.tokens) if upright else bars

        probe = build(L.bar_height)
        labels = probe.height - max(b.height for b in probe.bars)
        tallest = float(self.src.get("alpha").max())
        return build(min(L.bar_height, (room - labels) / tallest))  # softmax: tallest > 0

    def bar_width(self) -> float:
        """Wide enough for the widest word under a bar, so neighbouring labels never touch."""
        widest = max(label(t, font_size=typography.SMALL_SIZE).width for t in self.tokens)
        return max(L.bar_width, widest - layout.GAP + layout.TIGHT)

    @beat
    def step_c_weighted_sum(self, b: StepB, steps: Steps, light: TermLight) -> None:
        """Step C: z₃ = Σ αᵢ xᵢ — each row of X scaled by its weight, then added up."""
        qn = self.qn

        def mixing(cell, words: bool = True):
            comp = WeightedRows(self.src, weights="alpha", matrix="X", products="weighted_x", result="z",
                                row_labels=self.tokens if words else None, weights_side=RIGHT, cell_size=cell,
                                label_size=typography.LABEL_SIZE)
            a_name = math("alpha", font_size=typography.HEADING_SIZE, color=palette.WEIGHT)
            a_name.next_to(comp.weights, UP, buff=layout.NEAR)
            w_name = math("alpha_i x_i", color=palette.MUTED).next_to(  # portrait: the arrow is above the products,
                comp.products, RIGHT if layout.is_tall() else UP, buff=layout.NEAR)  # the α column above the name
            z_name = math(f"z_{qn}", color=palette.CONTEXT).next_to(comp.result, RIGHT, buff=layout.NEAR)
            return VGroup(comp, a_name, w_name, z_name)

        # where no arrangement with the words beside X's rows fits (a narrow frame), the rows go unnamed: the bars
        # of Step B named them just before
        whole = first_legible([lambda c=c: mixing(c) for c in legible.row_heights()]
                              + [lambda c=c: mixing(c, words=False) for c in legible.row_heights()], layout.body())
        comp, a_name, w_name, z_name = whole
        # too large to read whole (eight six-wide rows over their products in portrait): built legible, the camera
        # shows the whole shaded, works the first row in close-up and ends on z (kit.framed)
        big = not fit_legibly(whole, layout.body())
        if big:
            close_up.build_legible(whole, layout.body())
        bars = b.bars
        self.say("Step C: scale each word’s vector by its weight…")
        entering = [*(ReplacementTransform(bars.values[i], comp.weights.cell(i)) for i in range(comp.weights.rows)),
                    FadeOut(VGroup(bars.bars, bars.baseline, bars.labels)), FadeIn(comp.matrix), FadeIn(a_name)]
        if big:
            self.play(FadeOut(b.omega), FadeOut(b.arrow), steps.line[1].animate.set_opacity(steps.dim),
                      steps.line[2].animate.set_opacity(1), *light.off(), run_time=0.6)
            framed.cover_top_band(self)
            framed.move_to_shot(self, camera.shot_on_all(whole), whole, [steps.line], *entering, run_time=1.2)
            self.play(*light.on(steps.c, ["al", "v"], palette.VALUE), run_time=0.4)
            self.play(FadeIn(comp.scaffold()), FadeIn(w_name), run_time=0.6)
            shown = framed.scale_every_row(self, comp, whole, [steps.line, light.box],
                                           labels=list(comp.matrix.row_labels) if hasattr(comp.matrix, "row_labels")
                                           else [], color=palette.VALUE)
        else:
            self.play(FadeOut(b.omega), FadeOut(b.arrow),
                      steps.line[1].animate.set_opacity(steps.dim), steps.line[2].animate.set_opacity(1),
                      *light.off(), *entering, run_time=1.2)
            self.play(FadeIn(comp.scaffold()), FadeIn(w_name), *light.on(steps.c, ["al", "v"], palette.VALUE),
                      run_time=0.6)
            shown = scale_every_row(self, comp, color=palette.VALUE)
        blend = blend_phrase(self.src.get("alpha"), self.tokens, all_of(len(self.tokens), "words"))
        self.say(f"…and add them up: z{subscript(qn)} is {blend}.")
        self.play(FadeOut(shown[-1].box), run_time=0.3)
        if big:
            add_rows(self, comp, with_sum=[FadeIn(z_name)])
            self.play(*light.on(steps.c, ["sum", "z"], palette.CONTEXT), run_time=0.5)
            framed.frame_part(self, VGroup(comp.result, z_name), whole, [steps.line, light.box])
        else:
            add_rows(self, comp, with_sum=[FadeIn(z_name), *light.on(steps.c, ["sum", "z"], palette.CONTEXT)])
        self.wait(2.6)

    @beat
    def all_scores_at_once(self, light: TermLight) -> AllScores:
        """Repeating A–C for every query is one matrix product: the scores of all pairs are X Xᵀ."""
        n, qi = len(self.tokens), self.qi
        self.say("Repeat Steps A–C with every word as the query and you get all positions at once.")
        self.clear_stage()
        light.forget()
        eq = math(group("A", "a") + " = " + group('op("softmax")', "sm") + "(" + group("X X^top", "xx")
                  + "), quad " + group("Z", "z") + " = " + group("A X", "ax"),
                  font_size=typography.HEADING_SIZE)
        layout.fit_into(eq, layout.top_band())
        X = self.x_matrix()
        style = self.map_style()
        scores = AttentionMap(self.src, "scores", self.tokens, weights=False, font_size=NUMBER, **style)
        tag = math("X X^top", color=palette.MUTED)
        pair = VGroup(X, tag, scores).arrange(RIGHT, buff=layout.FAR)
        align_rows(scores, X)
        with_x = fits_at_floor(pair, layout.body()) and reads_worked(pair, layout.body(), NUMBER)
        if with_x:
            layout.fit_into(pair, layout.body())
            arrow = flow_arrow(X, scores.row_labels)
            tag.next_to(arrow, UP, buff=layout.TIGHT)
            shown_first = VGroup(X)
        else:  # side by side, the numbers would read below the worked size: the grid alone, named X Xᵀ
            tag.next_to(scores, UP, buff=layout.NEAR)
            if not fit_legibly(VGroup(scores, tag), layout.body()):
                self.in_frame_at_rest(VGroup(scores, tag), scores)
            arrow = VGroup()
            shown_first = VGroup()
        self.play(FadeIn(eq), FadeIn(shown_first), run_time=1.0)
        self.wait(1.2)
        self.say(f"All the dot products form one {n} × {n} grid: X Xᵀ, one row per query.")
        rows, axes = [scores.row(i) for i in range(n)], scores.axes
        self.play(*light.on(eq, ["xx"]), Create(arrow) if with_x else FadeIn(arrow), FadeIn(tag),
                  LaggedStart(*(FadeIn(r, shift=RIGHT * layout.NUDGE) for r in rows), lag_ratio=0.2),
                  FadeIn(axes), run_time=1.6)
        settle(self, [scores], [*rows, axes])
        self.wait(1.0)
        row_box = frame_box(scores.row(qi), color=palette.QUERY)
        self.say(f"Row {self.qn} is exactly the ω of Step A: “{self.tokens[qi]}” against every word.")
        self.play(Create(row_box), run_time=0.6)
        self.wait(1.6)
        return AllScores(eq, scores, VGroup(shown_first, arrow, tag, row_box), style)

    def weight_map(self, style: dict) -> AttentionMap:
        return AttentionMap(self.src, "weights", self.tokens, font_size=NUMBER, **style)

    def alpha_under(self, A: AttentionMap, cell: float = typography.CELL) -> VGroup:
        """α from Step B as a shaded row under A, each weight under its own column, named at the row labels."""
        alpha = heatmap(self.src, "alpha", font_size=NUMBER, cell_size=cell)
        for j in range(alpha.cols):
            cell = alpha.cell(0, j)
            cell[0].stretch_to_fit_width(A.column(j).width)
            cell.match_x(A.column(j))
        alpha.next_to(A, DOWN, buff=layout.APART).align_to(A.body, LEFT)
        for j in range(alpha.cols):
            alpha.cell(0, j).match_x(A.column(j))
        name = label("α from Step B", font_size=typography.SMALL_SIZE, color=palette.WEIGHT)
        name.next_to(alpha, LEFT, buff=layout.NEAR)
        return VGroup(alpha, name)

    @beat
    def all_weights_at_once(self, s: AllScores, light: TermLight) -> Weights:
        """Softmax along each row gives A; the query's row is the α already computed in Step B."""
        scores, qi, n = s.scores, self.qi, len(self.tokens)
        A = self.weight_map(s.style)
        a_name = math("A", font_size=typography.HEADING_SIZE, color=palette.WEIGHT)
        a_name.next_to(A.body, RIGHT, buff=layout.GAP)
        check = self.alpha_under(A, s.style["cell_size"])
        tag = VGroup(*(label(w, font_size=typography.SMALL_SIZE, color=palette.WEIGHT)
                       for w in ("softmax", "each row")))
        tag.arrange(DOWN, buff=layout.TIGHT)
        moved = AttentionMap(self.src, "scores", self.tokens, weights=False, font_size=NUMBER, **s.style)
        right = VGroup(A, a_name, check)
        pair = VGroup(moved, tag, right).arrange(RIGHT, buff=layout.FAR)
        right.shift(UP * (moved.body.get_top()[1] - A.body.get_top()[1]))  # A's rows on the scores' rows
        side_by_side = fits_at_floor(pair, layout.body()) and reads_worked(pair, layout.body(), NUMBER)
        if side_by_side:
            layout.fit_into(pair, layout.body())
            arrow = flow_arrow(moved.body, A.row_labels)
            tag.next_to(arrow, UP, buff=layout.TIGHT)
        else:  # side by side, the numbers would read below the worked size: the weights replace the scores
            check.shift(UP * (layout.APART - layout.NEAR))  # and the α row stands closer: eight rows need the room
            tag.next_to(a_name, DOWN, buff=layout.NEAR).align_to(a_name, LEFT)
            if not fits_at_floor(VGroup(right, tag), layout.body()):  # a narrow frame: no room beside A and α
                VGroup(a_name, tag).arrange(RIGHT, buff=layout.GAP).next_to(A, UP, buff=layout.GAP)
                check[1].next_to(check[0], DOWN, buff=layout.NEAR).align_to(check[0], LEFT)
            if not fit_legibly(VGroup(right, tag), layout.body()):
                self.in_frame_at_rest(VGroup(right, tag), A)
            arrow = VGroup()
        self.say("Softmax along each row turns the scores into the weight matrix A; every row sums to one.")
        if side_by_side:
            self.play(FadeOut(s.passing), ReplacementTransform(scores, moved), run_time=0.8)
            rows, axes = [A.row(i) for i in range(n)], A.axes
            growth = [TransformFromCopy(moved.row(i), rows[i]) for i in range(n)]
            labels = [FadeIn(axes)]
            leaving, replaced = VGroup(moved, arrow), []
        else:
            self.play(FadeOut(s.passing), run_time=0.8)
            rows, axes = [A.row(i) for i in range(n)], A.axes
            growth = [ReplacementTransform(scores.row(i), rows[i]) for i in range(n)]
            labels = [ReplacementTransform(scores.axes, axes)]
            leaving, replaced = VGroup(), [scores]
        self.play(*light.on(s.eq, ["sm", "a"], palette.WEIGHT), FadeIn(arrow), FadeIn(tag),
                  LaggedStart(*growth, lag_ratio=0.2), *labels, FadeIn(a_name), run_time=1.8)
        settle(self, [A], [*rows, axes, *replaced])
        self.wait(0.6)
        row_box = frame_box(A.row(qi), color=palette.QUERY)
        alpha, alpha_name = check
        alpha_box = frame_box(alpha, color=palette.QUERY)
        self.say(f"Row {self.qn} (“{self.tokens[qi]}”) matches the α we computed in Step B, weight for weight.")
        self.play(Create(row_box), run_time=0.6)
        self.play(TransformFromCopy(A.row(qi), alpha.body), FadeIn(alpha_name), Create(alpha_box), run_time=1.2)
        self.wait(1.8)
        return Weights(A, VGroup(leaving, tag, a_name, row_box, check, alpha_box), s.style)

    def product_row(self, style: dict, *, a_grid: bool = True, x_grid: bool = True,
                    stacked: bool | None = None) -> "ProductRow":
        """A × X = Z with the rows of every grid on one line; A or X written as a symbol where it is not a grid.
        The grids' rows are as tall as `style` (the maps' arrangement) makes A's. `stacked` (default: in a portrait
        frame): A over X over Z instead."""
        width = shared_cell_width(self.src, ("X", "Z"), font_size=NUMBER)
        cell = style["cell_size"]
        A = self.weight_map(style) if a_grid else math("A", font_size=typography.HEADING_SIZE, color=palette.WEIGHT)
        X = matrix(self.src, "X", font_size=NUMBER, cell_width=width, cell_size=cell) if x_grid else math(
            "X", font_size=typography.HEADING_SIZE)
        if x_grid and not a_grid:
            X.add_row_labels(self.tokens, color=palette.ENGLISH, font_size=typography.LABEL_SIZE)
        Z = matrix(self.src, "Z", color=palette.CONTEXT, font_size=NUMBER, cell_width=width, cell_size=cell)
        stacked = layout.is_tall() if stacked is None else stacked  # A over X over Z, each grid named on its left
        times, equals = _stacked_product(A, X, Z) if stacked else product_row(A, X, Z)
        names = VGroup(*(math(n, font_size=typography.HEADING_SIZE, color=c).next_to(
                             g, LEFT if stacked else UP, buff=layout.NEAR)
                         for n, c, g in (("X", palette.TEXT, X), ("Z", palette.CONTEXT, Z))
                         if isinstance(g, TensorGrid)))
        return ProductRow(A, X, Z, VGroup(times, equals), names)

    @beat
    def all_outputs_at_once(self, w: Weights, eq: VGroup, light: TermLight) -> None:
        """Z = A X: every context vector at once, entry by entry; the query's row is z from Step C. Where the grids
        fit only below the worked size, they are built at it and the camera follows the query's row from A and X
        into Z, then pulls back to the whole (shaded) while the other rows arrive."""
        qi = self.qi
        self.say("Multiply the weights by X: Z = A X holds every context vector, one row per word.")
        self.play(FadeOut(w.leaving), run_time=0.6)
        row, follow, floor = self.outputs_row(w.style)
        A, X, Z = row.A, row.X, row.Z
        a_enter = ReplacementTransform(w.A, A) if isinstance(A, AttentionMap) else FadeTransform(w.A, A)
        entries = into_product(A, X, Z)
        per_row = len(entries) // Z.rows
        first, rest = entries[qi * per_row:(qi + 1) * per_row], entries[:qi * per_row] + entries[(qi + 1) * per_row:]
        arrive = [FadeIn(Z.brackets), FadeIn(row.names[-1])]
        if follow:  # the operands close up, then the camera moves on to Z as the query's row travels there
            self.play(*light.on(eq, ["ax"]), run_time=0.5)
            framed.cover_top_band(self)
            framed.move_to_shot(self, camera.shot_on(VGroup(A, X)), row.whole, [eq, light.box], a_enter,
                                FadeIn(row.signs), FadeIn(X), FadeIn(row.names[:-1]), number_floor=floor)
            framed.move_to_shot(self, camera.shot_on(VGroup(X, Z, row.names[-1])), row.whole, [eq, light.box],
                                motion.lagged(first), *arrive, run_time=1.6, number_floor=floor)
            self.play(*light.on(eq, ["z", "ax"], palette.CONTEXT), run_time=0.5)
            framed.move_to_shot(self, camera.shot_on_all(row.whole), row.whole, [eq, light.box],
                                motion.lagged(rest), run_time=1.6, number_floor=floor)
        else:
            self.play(a_enter, FadeIn(row.signs), FadeIn(X), FadeIn(row.names[:-1]), *light.on(eq, ["ax"]),
                      run_time=1.0)
            self.play(motion.lagged(first + rest), *arrive, *light.on(eq, ["z", "ax"], palette.CONTEXT),
                      run_time=2.0)
        settle(self, [Z], [cell for cells in Z.cells for cell in cells])
        self.say(f"Row {self.qn} of Z is z{subscript(self.qn)} from Step C: the same numbers, "
                 f"now for {all_of(Z.rows, 'positions')} in one product.")
        boxes = [frame_box(Z.row(qi), color=palette.QUERY)]
        if isinstance(A, AttentionMap) and not follow:  # the camera ends on X and Z, not on A
            boxes.append(frame_box(A.row(qi), color=palette.QUERY))
        if follow:  # Z's numbers legible again
            framed.move_to_shot(self, camera.shot_on(VGroup(X, Z, row.names[-1])), row.whole, [eq, light.box],
                                number_floor=floor)
        self.play(*(Create(b) for b in boxes), run_time=0.7)
        self.wait(2.4)

    def outputs_row(self, style: dict) -> tuple["ProductRow", bool, float | None]:
        """A × X = Z: all three grids fitted when their numbers read at the worked size; else, when A and X, and X
        and Z, each fit the body at that size, all three built at it for the camera to follow (True, with the
        worked size as the numbers' floor); else the first arrangement legible at the floor (A, then X, as a
        symbol), fitted; where that one is taller or wider than the body at the floor (A over Z in a square frame),
        the camera follows it too, at the floor (so A's labels never reach into the top band), when its two shots
        fit the body."""
        candidates = [(style, dict()), (style, dict(x_grid=False))] + [
            (dict(cell_size=cell), dict(a_grid=False)) for cell in legible.row_heights()] + [
            (style, dict(x_grid=False, stacked=True))]  # a square frame: X as a symbol between A over Z
        grids = self.product_row(style)
        if reads_worked(grids.whole, layout.body(), NUMBER) and fits_at_floor(grids.whole, layout.body()):
            fit_legibly(grids.whole, layout.body())
            return grids, False, None
        grids.whole.scale(WORKED * close_up.BUILD_MARGIN / NUMBER).move_to(layout.body().center)
        if self.shots_fit(grids):
            return grids, True, WORKED
        row = first_legible([lambda s=s, c=c: self.product_row(s, **c) for s, c in candidates], layout.body(),
                            whole=lambda r: r.whole)
        if fit_legibly(row.whole, layout.body()):
            return row, False, None
        if self.shots_fit(row):
            return row, True, None
        self.in_frame_at_rest(row.whole)
        return row, False, None

    @staticmethod
    def shots_fit(row: "ProductRow") -> bool:
        """Whether the camera's two shots, A and X, then X and Z, each fit the body at the row's present size."""
        room = layout.body().width - 2 * camera.FRAMING_MARGIN, layout.body().height - 2 * camera.FRAMING_MARGIN
        shots = (VGroup(row.A, row.X), VGroup(row.X, row.Z, row.names[-1]))
        return all(part.width <= room[0] and part.height <= room[1] for part in shots)

    @beat
    def same_vectors_three_roles(self, light: TermLight) -> None:
        """The bridge: with no weights, the same rows of X were query, key and value."""
        self.say("Notice: with no weights, the same vectors X played all three roles — query, key and value.")
        self.clear_stage()
        light.forget()
        roles = (("queries", palette.QUERY, "Q"), ("keys", palette.KEY, "K"), ("values", palette.VALUE, "V"))
        panels = VGroup()
        for word, color, letter in roles:
            grid = self.x_matrix(color, labels=False)
            name = math(f"{letter} = X", color=color, font_size=typography.HEADING_SIZE)
            use = label(f"as {word}", font_size=typography.LABEL_SIZE, color=color)
            panels.add(VGroup(name, grid, use).arrange(DOWN, buff=layout.GAP))
        panels.arrange(RIGHT, buff=layout.FAR, aligned_edge=UP)
        differ = "so the three roles can differ."
        nxt = VGroup(label("Next: learn", font_size=typography.BODY_SIZE, color=palette.MUTED),
                     math("W_Q, W_K, W_V", color=palette.MUTED),
                     label(differ, font_size=typography.BODY_SIZE, color=palette.MUTED))
        nxt.arrange(RIGHT, buff=layout.NEAR)
        shares = L.roles_and_next
        if not fits_at_floor(nxt, layout.frame().split_rows(*shares)[1]):  # a narrow frame: on two lines
            nxt = VGroup(VGroup(*nxt[:2]).arrange(RIGHT, buff=layout.NEAR),
                         wrapped(differ, layout.frame().width, font_size=typography.BODY_SIZE,
                                 color=palette.MUTED)).arrange(DOWN, buff=layout.TIGHT)
            shares = L.roles_and_next_narrow
        upper, lower = layout.frame().split_rows(*shares)
        if not fits_at_floor(panels, upper):
            # three copies side by side would shrink below the floor: one X, named three times
            def one_x(cell, shaded=False):
                grid = (heatmap(self.src, "X", weights=False, show_values=False, cell_size=cell) if shaded
                        else self.x_matrix(labels=False, cell_size=cell))
                names = [math(f"{letter} = X", color=color, font_size=typography.HEADING_SIZE)
                         for _, color, letter in roles]
                names = (VGroup(*names).arrange(RIGHT, buff=layout.GAP) if shaded  # the shaded rows are low: the
                         else layout.flow(*names, region=upper, gap=layout.FAR))  # names on one line above them
                uses = wrapped("as queries, keys and values", upper.width, font_size=typography.LABEL_SIZE,
                               color=palette.MUTED)
                return VGroup(VGroup(names, grid, uses).arrange(DOWN, buff=layout.GAP))

            # too wide for the floor with its numbers (six-wide rows in portrait): X shaded by its values, the
            # numbers were read in the beats before
            panels = first_legible([lambda c=c: one_x(c) for c in legible.row_heights()]
                                   + [lambda c=c: one_x(c, shaded=True) for c in legible.row_heights()[1:]], upper)
        if not fit_legibly(panels, upper):
            self.in_frame_at_rest(panels)
        layout.fit_into(nxt, lower)
        self.play(LaggedStart(*(FadeIn(p, shift=UP * layout.NUDGE) for p in panels), lag_ratio=0.3), run_time=1.8)
        self.wait(1.5)
        self.say("Next, three trainable matrices W_Q, W_K, W_V let queries, keys and values differ.")
        self.play(Write(nxt), run_time=1.2)
        self.wait(2.0)
