"""Causal attention hides the future: mask the scores with −∞, then softmax, never the other way round.

Follows the post's "Causal attention: hide the future" (the ✓/✗ table, the masked ω̃ cases, the zero upper
triangle) and its "order of operations": softmax first and mask after leaves rows that no longer sum to one.
"""

from __future__ import annotations

from manim import (
    DOWN, LEFT, RIGHT, UP, Arrow, FadeIn, FadeOut, LaggedStart, Rectangle, ReplacementTransform, VGroup, Write,
    Create, Indicate,
)

from scenes.kit import (
    AttentionScene, Source, align_baselines, beat, format_value, frame_box, heatmap, label, math, palette,
    typography,
)
from scenes.kit.widgets import TensorGrid



def _layout_cells() -> tuple[float, float]:
    """One cell size for every grid in this clip, so scores, −∞ and weights line up exactly."""
    return 1.1, 0.66


CELL_W, CELL_H = _layout_cells()

CHECK, CROSS = "✓", "✗"


def _place(grid: TensorGrid, center) -> TensorGrid:
    """Move a grid so that its cells (not its labels) are centred on `center`."""
    return grid.shift(center - grid.body.get_center())


def _label_axes(grid: TensorGrid, tokens) -> TensorGrid:
    """Query tokens down the left, key tokens across the top."""
    grid.add_row_labels(tokens, color=palette.ENGLISH)
    align_baselines(grid.add_column_labels(tokens, color=palette.ENGLISH))
    return grid


def _axis_names(grid: TensorGrid) -> VGroup:
    """Small "query i" / "key j" names that say which token runs along which side."""
    queries = label("query i", font_size=typography.SMALL_SIZE, color=palette.QUERY)
    queries.next_to(grid.row_labels, UP, buff=0.2).align_to(grid.row_labels, RIGHT)
    keys = label("key j", font_size=typography.SMALL_SIZE, color=palette.KEY)
    keys.next_to(grid.column_labels, UP, buff=0.15)
    return VGroup(queries, keys)


class CausalTriangleScene(AttentionScene):
    scene_id = "causal_triangle"

    def construct(self):
        self.src = Source("causal")
        self.tokens = list(self.src.get("tokens"))
        self.future = self.src.get("mask")  # True above the diagonal: key j comes after query i
        self.n = len(self.tokens)
        self.show_title()
        self.who_may_see_whom()
        self.scaled_scores()
        self.mask_the_future()
        self.softmax_each_row()
        self.wrong_order()
        self.right_order_recap()

    # --- helpers ----------------------------------------------------------------------------------------------
    def _grid(self, path: str, *, weights: bool, font_size=typography.SMALL_SIZE) -> TensorGrid:
        grid = heatmap(self.src, path, weights=weights, cell_width=CELL_W, cell_size=CELL_H, font_size=font_size)
        return _label_axes(grid, self.tokens)

    def _future_cells(self, grid: TensorGrid) -> list:
        return [grid.cell(i, j) for i in range(self.n) for j in range(self.n) if bool(self.future[i, j])]

    def _past_cells(self, grid: TensorGrid) -> list:
        return [grid.cell(i, j) for i in range(self.n) for j in range(self.n) if not bool(self.future[i, j])]

    def _grey_future(self, grid: TensorGrid) -> TensorGrid:
        """Future cells keep the masked colour after the softmax: the triangle stays visible."""
        for cell in self._future_cells(grid):
            cell[0].set_fill(palette.MASKED, opacity=1)
        return grid

    def _row_sums(self, grid: TensorGrid, path: str, color) -> VGroup:
        """One traced row sum beside each row, under a Σ_j header."""
        sums = VGroup(*(self.src.number(path, i, decimals=2, font_size=typography.SMALL_SIZE, color=color)
                        .next_to(grid.cell(i, self.n - 1), RIGHT, buff=0.45) for i in range(self.n)))
        header = label("row sum", font_size=typography.SMALL_SIZE, color=color)
        header.match_x(sums)
        align_baselines([grid.column_labels[0], header])
        return VGroup(header, sums)

    def _check_table(self) -> VGroup:
        """The post's ✓/✗ table: ✓ where key j ≤ query i, ✗ for the future."""
        cells = VGroup()
        side = CELL_H
        for i in range(self.n):
            for j in range(self.n):
                blocked = bool(self.future[i, j])
                square = Rectangle(width=side * 1.9, height=side, stroke_width=1, stroke_color=palette.BACKGROUND)
                square.set_fill(palette.MASKED if blocked else palette.ZERO, opacity=1)
                mark = label(CROSS if blocked else CHECK, font_size=typography.LABEL_SIZE,
                             color=palette.WRONG if blocked else palette.RIGHT)
                cell = VGroup(square, mark.move_to(square))
                cell.move_to(RIGHT * j * side * 1.9 + DOWN * i * side)
                cells.add(cell)
        rows = VGroup(*(label(t, font_size=typography.SMALL_SIZE, color=palette.ENGLISH)
                        .next_to(cells[i * self.n], LEFT, buff=0.15) for i, t in enumerate(self.tokens)))
        cols = VGroup(*(label(t, font_size=typography.SMALL_SIZE, color=palette.ENGLISH)
                        .next_to(cells[j], UP, buff=0.15) for j, t in enumerate(self.tokens)))
        align_baselines(cols)
        table = VGroup(cells, rows, cols)
        table.cells, table.rows, table.cols = cells, rows, cols
        return table

    # --- beats ------------------------------------------------------------------------------------------------
    @beat
    def who_may_see_whom(self):
        """The rule before any numbers: query i may use keys j ≤ i, never a later token."""
        self.say("Causal attention: the query at position i may only use keys at positions j ≤ i.")
        table = self._check_table().move_to(DOWN * 0.3)
        names = VGroup(
            label("query i", font_size=typography.SMALL_SIZE, color=palette.QUERY)
            .next_to(table.rows, UP, buff=0.2).align_to(table.rows, RIGHT),
            label("key j", font_size=typography.SMALL_SIZE, color=palette.KEY).next_to(table.cols, UP, buff=0.15),
        )
        self.play(FadeIn(table.rows), FadeIn(table.cols), FadeIn(names), run_time=1.0)
        rows = [VGroup(*table.cells[i * self.n:(i + 1) * self.n]) for i in range(self.n)]
        self.play(LaggedStart(*(FadeIn(r, shift=RIGHT * 0.2) for r in rows), lag_ratio=0.5), run_time=2.5)
        self.wait(1.0)
        self.say("When generating left to right the later tokens do not exist yet, so training must hide them too.")
        crosses = [c for k, c in enumerate(table.cells) if bool(self.future[k // self.n, k % self.n])]
        self.play(*(Indicate(c[1], color=palette.WRONG, scale_factor=1.3) for c in crosses), run_time=1.5)
        self.wait(3.5)
        self.table = VGroup(table, names)

    @beat
    def scaled_scores(self):
        """The scores grid that the mask will act on: every query row against every key column."""
        self.say("Start from the scaled scores ω = Q Kᵀ / √d_k for the short sentence: query rows, key columns.",
                 narration="Start from the scaled scores, ω = Q Kᵀ / √d_k, for a short sentence: one row per query, "
                           "one column per key.")
        self.play(FadeOut(self.table), run_time=0.8)
        eq = math("omega = (Q K^top) / sqrt(d_k)", font_size=typography.BODY_SIZE + 4)
        eq.to_edge(UP, buff=0.35)
        grid = self._place_main(self._grid("scores", weights=False))
        names = _axis_names(grid)
        self.play(Write(eq), run_time=1.0)
        self.play(FadeIn(grid.row_labels), FadeIn(grid.column_labels), FadeIn(names), run_time=0.8)
        self.play(LaggedStart(*(FadeIn(grid.row(i)) for i in range(self.n)), lag_ratio=0.4), run_time=2.0)
        self.wait(1.5)
        self.say("Blue cells are positive scores, red ones negative; nothing stops a row from scoring a later word.")
        self.play(*(Indicate(c, color=palette.WRONG, scale_factor=1.08) for c in self._future_cells(grid)),
                  run_time=1.5)
        self.wait(3.0)
        self.eq, self.grid, self.names = eq, grid, names

    def _place_main(self, grid: TensorGrid) -> TensorGrid:
        return _place(grid, LEFT * 0.4 + DOWN * 1.05)

    @beat
    def mask_the_future(self):
        """Fill the future cells with −∞: the ω̃ cases, lit up as the picture applies each case."""
        self.say("Mask: keep ω_ij where j ≤ i, and fill every future cell (j > i) with −∞.",
                 narration="Now the mask: keep ω_ij wherever j ≤ i, and fill every future cell, where j > i, "
                           "with −∞.")
        cases = math("{{ tilde(omega)_(i j) : lhs }} = cases({{ omega_(i j) : keep }} quad {{ j <= i : past }}, "
                     "{{ -infinity : inf }} quad {{ j > i : future }})", font_size=typography.BODY_SIZE + 2)
        cases.move_to(self.eq)
        self.play(ReplacementTransform(self.eq, cases), run_time=1.0)
        masked = self._place_main(self._grid("masked_scores", weights=False))
        future_box = frame_box(VGroup(cases.select("inf"), cases.select("future")), color=palette.WRONG)
        self.play(Create(future_box), run_time=0.6)
        old = self._future_cells(self.grid)
        new = self._future_cells(masked)
        self.play(LaggedStart(*(ReplacementTransform(o, n) for o, n in zip(old, new)), lag_ratio=0.15),
                  run_time=2.5)
        self.wait(1.0)
        self.say("The past and the diagonal keep their scores: that is the first case of ω̃.")
        keep_box = frame_box(VGroup(cases.select("keep"), cases.select("past")), color=palette.RIGHT)
        self.play(ReplacementTransform(future_box, keep_box), *(Indicate(c, color=palette.RIGHT, scale_factor=1.08)
                                                                 for c in self._past_cells(self.grid)), run_time=1.5)
        self.wait(2.5)
        self.play(FadeOut(keep_box), run_time=0.4)
        # from here on the screen shows the masked grid's cells (with the scores grid's labels)
        self.grid.remove(*old)
        # the cells on screen now: the past keeps the score cells, the future shows the −∞ cells
        self.on_screen = {(i, j): (masked if bool(self.future[i, j]) else self.grid).cell(i, j)
                          for i in range(self.n) for j in range(self.n)}
        self.cases = cases

    @beat
    def softmax_each_row(self):
        """Row-wise softmax: exp(−∞) = 0, so the upper triangle is exactly zero and each row sums to one."""
        self.say("Then softmax each row over the keys: exp(−∞) is zero, so every future weight is exactly zero.")
        arrow_eq = math("arrow.double quad {{ alpha = op(\"softmax\")(tilde(omega)) : soft }}",
                        font_size=typography.BODY_SIZE + 2)
        arrow_eq.next_to(self.cases, RIGHT, buff=0.3)
        self.play(self.cases.animate.shift(LEFT * arrow_eq.width / 2), run_time=0.6)
        arrow_eq.next_to(self.cases, RIGHT, buff=0.3)
        self.play(Write(arrow_eq), run_time=1.0)
        soft_box = frame_box(arrow_eq.select("soft"), color=palette.WEIGHT)
        self.play(Create(soft_box), run_time=0.5)
        weights = self._grey_future(self._place_main(self._grid("weights", weights=True)))
        sums = self._row_sums(weights, "right_order_row_sums", palette.RIGHT)
        self.play(FadeIn(sums[0]), run_time=0.5)
        for i in range(self.n):
            old = VGroup(*(self.on_screen[i, j] for j in range(self.n)))
            self.play(ReplacementTransform(old, weights.row(i)), FadeIn(sums[1][i], shift=LEFT * 0.2),
                      run_time=0.9)
        self.wait(1.0)
        self.say("Each row spreads its weight over the past only, and every row sums to one.")
        zeros = self._future_cells(weights)
        self.play(*(Indicate(c, color=palette.WEIGHT, scale_factor=1.08) for c in zeros),
                  Indicate(sums[1], color=palette.RIGHT), run_time=1.5)
        self.wait(2.0)
        self.play(FadeOut(soft_box), run_time=0.3)
        self.weights, self.sums = weights, sums

    @beat
    def wrong_order(self):
        """Softmax first, mask after: the zeros are there, but the rows no longer sum to one."""
        self.say("The wrong order: softmax over all keys first (the future included), then zero the future.",
                 narration="Now the wrong order: a softmax over all the keys first, the future included, and only "
                           "then zero the future.")
        self.clear_stage()
        src = self.src
        unmasked = self._side_grid("wrong_order_unmasked_weights", row_labels=True)
        zeroed = self._grey_future(self._side_grid("wrong_order_weights", row_labels=False))
        _place(unmasked, LEFT * 3.5 + DOWN * 0.7)
        _place(zeroed, RIGHT * 2.3 + DOWN * 0.7)
        first = label("softmax first", font_size=typography.LABEL_SIZE, color=palette.WEIGHT)
        first.next_to(unmasked.column_labels, UP, buff=0.35).match_x(unmasked.body)
        then = label("softmax, then mask", font_size=typography.LABEL_SIZE, color=palette.WRONG)
        then.next_to(zeroed.column_labels, UP, buff=0.35).match_x(zeroed.body)
        arrow = Arrow(unmasked.body.get_right(), zeroed.body.get_left(), buff=0.2, color=palette.MUTED,
                      stroke_width=3, max_tip_length_to_length_ratio=0.2)
        self.play(FadeIn(unmasked), FadeIn(first), run_time=1.2)
        self.wait(1.5)
        zero = label("zero j > i", font_size=typography.SMALL_SIZE, color=palette.MUTED)
        zero.next_to(arrow, UP, buff=0.15)
        self.play(Create(arrow), FadeIn(zero), FadeIn(then), FadeIn(zeroed.column_labels), run_time=0.8)
        self.play(*(ReplacementTransform(unmasked.cell(i, j).copy(), zeroed.cell(i, j))
                    for i in range(self.n) for j in range(self.n)), run_time=1.5)
        self.wait(1.0)
        sums = self._row_sums(zeroed, "wrong_order_row_sums", palette.WRONG)
        first_sum = format_value(src.value("wrong_order_row_sums", 0), 2)
        self.say(f"Now the rows sum to less than one: the first row keeps only {first_sum} of its weight. "
                 "That is no longer a distribution over the allowed positions.")
        self.play(FadeIn(sums, shift=LEFT * 0.2), run_time=0.8)
        short = [sums[1][i] for i in range(self.n) if format_value(src.value("wrong_order_row_sums", i), 2)
                 != format_value(src.value("right_order_row_sums", i), 2)]
        self.play(*(Indicate(s, color=palette.WRONG, scale_factor=1.3) for s in short), run_time=1.5)
        self.wait(5.0)
        self.unmasked, self.first_label, self.arrow = unmasked, first, VGroup(arrow, zero)

    def _side_grid(self, path: str, *, row_labels: bool) -> TensorGrid:
        grid = heatmap(self.src, path, cell_width=CELL_W * 0.85, cell_size=CELL_H * 0.9,
                       font_size=typography.SMALL_SIZE)
        if row_labels:
            grid.add_row_labels(self.tokens, color=palette.ENGLISH)
        align_baselines(grid.add_column_labels(self.tokens, color=palette.ENGLISH))
        return grid

    @beat
    def right_order_recap(self):
        """Side by side: mask then softmax (rows sum to one) against softmax then mask (they do not)."""
        self.say("The right order: mask the scores with −∞ first, then softmax.")
        right = self._grey_future(self._side_grid("weights", row_labels=True))
        right.shift(self.unmasked.body.get_center() - right.body.get_center())
        title = label("mask, then softmax", font_size=typography.LABEL_SIZE, color=palette.RIGHT)
        title.move_to(self.first_label)
        self.play(FadeOut(self.arrow), ReplacementTransform(self.first_label, title),
                  ReplacementTransform(self.unmasked.body, right.body), run_time=1.5)
        sums = self._row_sums(right, "right_order_row_sums", palette.RIGHT)
        self.play(FadeIn(sums, shift=LEFT * 0.2), run_time=0.8)
        self.say("Exact zeros above the diagonal, and every row is still a distribution over the past.")
        self.play(Indicate(sums[1], color=palette.RIGHT, scale_factor=1.2), run_time=1.2)
        self.wait(3.8)
