"""Dropout on the attention weights: after the softmax, before × V; zero some α_ij and rescale the rest.

Follows the post's "Dropout on attention weights": the five-step order of operations, one seeded keep-mask,
the 1/(1 − p) rescale, train vs eval, and why mask and softmax may not be swapped.
"""

from __future__ import annotations

from manim import (
    DOWN, LEFT, RIGHT, UP, Arrow, Create, FadeIn, FadeOut, Indicate, LaggedStart, ReplacementTransform,
    RoundedRectangle, Swap, VGroup, Write,
)

from scenes.kit import (
    AttentionScene, Source, align_baselines, beat, format_value, frame_box, heatmap, label, math, matrix,
    palette, typography,
)
from scenes.kit.widgets import TensorGrid

#: The constant "1" of the formulas 1 − p and 1/(1 − p): part of the notation, not data.
ONE = 1


def _layout_sizes() -> dict:
    """Cell and box sizes shared by every grid and the pipeline in this clip."""
    return {"cell_w": 0.95, "cell_h": 0.56, "small_cell_w": 0.86, "small_cell_h": 0.48,
            "box_w": 2.15, "box_h": 0.78, "pipe_y": 3.3}


SIZE = _layout_sizes()

#: The post's five steps, in order; `STEP["dropout"]` is the index of that box in the pipeline.
STEP_NAMES = ("scores", "mask", "softmax", "dropout", "times_v")
STEP = {name: k for k, name in enumerate(STEP_NAMES)}


def _place(grid: TensorGrid, center) -> TensorGrid:
    """Move a grid so that its cells (not its labels) are centred on `center`."""
    return grid.shift(center - grid.body.get_center())


class DropoutWeightsScene(AttentionScene):
    scene_id = "dropout_weights"

    def construct(self):
        self.src = Source("dropout")
        self.tokens = list(self.src.get("tokens"))
        self.future = self.src.get("mask")
        self.n = len(self.tokens)
        self.show_title()
        self.order_of_operations()
        self.causal_weights()
        self.keep_mask()
        self.drop_and_rescale()
        self.train_versus_eval()
        self.why_mask_before_softmax()

    # --- pipeline ---------------------------------------------------------------------------------------------
    def _pipeline(self) -> VGroup:
        """The post's five steps as boxes in a row: scaled scores → mask → softmax → dropout → × V."""
        contents = [
            math("(Q K^top) / sqrt(d_k)", font_size=typography.LABEL_SIZE),
            label("mask −∞", font_size=typography.LABEL_SIZE),
            label("softmax", font_size=typography.LABEL_SIZE, color=palette.WEIGHT),
            label("dropout", font_size=typography.LABEL_SIZE, color=palette.WRONG),
            math("times {{ V : v }}", font_size=typography.LABEL_SIZE + 2),
        ]
        contents[-1].select("v").set_color(palette.VALUE)
        boxes = VGroup()
        for k, content in enumerate(contents):
            box = RoundedRectangle(corner_radius=0.1, width=SIZE["box_w"], height=SIZE["box_h"],
                                   stroke_color=palette.MUTED, stroke_width=2)
            number = label(f"{k + 1}", font_size=typography.SMALL_SIZE, color=palette.MUTED)
            content.move_to(box)
            number.move_to(box.get_corner(UP + LEFT) + RIGHT * 0.2 + DOWN * 0.2)
            boxes.add(VGroup(box, content, number))
        boxes.arrange(RIGHT, buff=0.5).move_to(UP * SIZE["pipe_y"])
        arrows = VGroup(*(Arrow(boxes[k].get_right(), boxes[k + 1].get_left(), buff=0.05, color=palette.MUTED,
                                stroke_width=3, max_tip_length_to_length_ratio=0.35)
                          for k in range(len(boxes) - 1)))
        pipeline = VGroup(boxes, arrows)
        pipeline.boxes, pipeline.arrows = boxes, arrows
        return pipeline

    def _focus(self, step: int, color=palette.ACCENT) -> list:
        """Animations that highlight box `step` (0-based) and dim the others."""
        anims = []
        for k, group in enumerate(self.pipe.boxes):
            box = group[0]
            if k == step:
                anims.append(box.animate.set_stroke(color, width=5).set_fill(color, opacity=0.12))
            else:
                anims.append(box.animate.set_stroke(palette.MUTED, width=2).set_fill(palette.BACKGROUND, opacity=0))
        return anims

    def _clear_all_but(self, keep) -> None:
        """Fade out everything except `keep` (the pipeline stays as the clip's spine)."""
        kept = set(keep.get_family())
        others = [m for m in self.mobjects if m not in kept]
        if others:
            self.play(*(FadeOut(m) for m in others), run_time=0.6)

    # --- grids ------------------------------------------------------------------------------------------------
    def _weights_grid(self, path: str, *, small: bool = False, column_labels: bool = True) -> TensorGrid:
        """Attention weights in violet; future cells grey (masked), dropped ones dark red."""
        w, h = (SIZE["small_cell_w"], SIZE["small_cell_h"]) if small else (SIZE["cell_w"], SIZE["cell_h"])
        grid = heatmap(self.src, path, cell_width=w, cell_size=h, font_size=typography.SMALL_SIZE)
        grid.add_row_labels(self.tokens, color=palette.ENGLISH)
        if column_labels:
            align_baselines(grid.add_column_labels(self.tokens, color=palette.ENGLISH))
        for i in range(self.n):
            for j in range(self.n):
                if bool(self.future[i, j]):
                    grid.cell(i, j)[0].set_fill(palette.MASKED, opacity=1)
        return grid

    def _mark_dropped(self, grid: TensorGrid) -> TensorGrid:
        for i, j in self.src.get("dropped_positions"):
            grid.cell(i, j)[0].set_fill(palette.DROPPED, opacity=1)
        return grid

    def _keep_grid(self) -> TensorGrid:
        """The keep-mask m_ij ∈ {0, 1}: traced zeros and ones; dropped cells dark red, the future dimmed."""
        grid = TensorGrid(self.src, "keep_mask", decimals=0, shading="weights", cell_width=SIZE["cell_w"],
                          cell_size=SIZE["cell_h"], font_size=typography.SMALL_SIZE)
        align_baselines(grid.add_column_labels(self.tokens, color=palette.ENGLISH))
        keep = self.src.get("keep_mask")
        for i in range(self.n):
            for j in range(self.n):
                square, number = grid.cell(i, j)[0], grid.cell(i, j)[1]
                kept = bool(keep[i, j])
                square.set_fill(palette.ZERO if kept else palette.DROPPED, opacity=1)
                number.set_color(palette.RIGHT if kept else palette.WRONG)
                if bool(self.future[i, j]):
                    square.set_fill(palette.MASKED, opacity=1)
                    number.set_color(palette.MUTED)
        return grid

    # --- beats ------------------------------------------------------------------------------------------------
    @beat
    def order_of_operations(self):
        """The pipeline that every later picture points into."""
        self.say("The order of operations: scaled scores, causal mask, softmax, dropout, then multiply by V.")
        self.pipe = self._pipeline()
        top = self.pipe.get_center()
        self.pipe.move_to(UP * 0.3)
        self.play(LaggedStart(*(FadeIn(b, shift=RIGHT * 0.2) for b in self.pipe.boxes), lag_ratio=0.3),
                  LaggedStart(*(Create(a) for a in self.pipe.arrows), lag_ratio=0.3), run_time=2.5)
        for k in range(len(self.pipe.boxes)):
            self.play(*self._focus(k), run_time=0.5)
        self.wait(0.5)
        self.say("Dropout acts on the weight matrix: after the softmax, before the multiplication by V.")
        self.play(*self._focus(STEP["dropout"], palette.WRONG), run_time=0.6)
        self.wait(2.0)
        self.play(self.pipe.animate.move_to(top), run_time=0.8)

    @beat
    def causal_weights(self):
        """Steps 1–3 give the causal weights: zeros above the diagonal, rows summing to one."""
        self.say("Steps one to three give the causal weights α: the future is masked, each row sums to one.")
        self.play(*self._focus(STEP["softmax"], palette.WEIGHT), run_time=0.6)
        grid = _place(self._weights_grid("weights"), LEFT * 2.9 + DOWN * 0.7)
        alpha = math("alpha", font_size=typography.BODY_SIZE + 4, color=palette.WEIGHT)
        alpha.next_to(grid.column_labels, UP, buff=0.3).match_x(grid.body)
        self.play(FadeIn(grid.row_labels), FadeIn(grid.column_labels), Write(alpha), run_time=0.8)
        self.play(LaggedStart(*(FadeIn(grid.row(i)) for i in range(self.n)), lag_ratio=0.4), run_time=2.0)
        self.wait(3.0)
        self.weights, self.alpha = grid, alpha

    @beat
    def keep_mask(self):
        """One random keep-mask: each entry kept with probability 1 − p."""
        p = format_value(self.src.value("p"), 2)
        self.say(f"In training, dropout keeps each weight with probability {ONE} − p, here p = {p}: "
                 "one random keep-mask m for this forward pass.",
                 narration=f"In training, dropout keeps each weight with probability {ONE} − p and drops the rest: "
                           "here is one random keep-mask, m, for this forward pass.")
        self.play(*self._focus(STEP["dropout"], palette.WRONG), run_time=0.6)
        keep = _place(self._keep_grid(), RIGHT * 3.6 + DOWN * 0.7)
        name = math("m", font_size=typography.BODY_SIZE + 4, color=palette.WRONG)
        name.next_to(keep.column_labels, UP, buff=0.3).match_x(keep.body)
        self.play(FadeIn(keep.column_labels), Write(name), run_time=0.6)
        self.play(LaggedStart(*(FadeIn(keep.row(i)) for i in range(self.n)), lag_ratio=0.3), run_time=2.0)
        self.wait(2.0)
        dropped = self.src.get("dropped_positions")
        self.say(f"This mask happens to drop {len(dropped)} of the nonzero weights; zeros in the future stay zero.")
        self.play(*(Indicate(keep.cell(i, j), color=palette.WRONG, scale_factor=1.15) for i, j in dropped),
                  *(Indicate(self.weights.cell(i, j), color=palette.WRONG, scale_factor=1.15) for i, j in dropped),
                  run_time=1.5)
        self.wait(3.0)
        self.keep, self.keep_name = keep, name

    @beat
    def drop_and_rescale(self):
        """Dropped weights become zero; the kept ones are divided by 1 − p."""
        self.say("Dropped weights become zero (dark red); the kept ones are multiplied by the rescale factor.",
                 narration="The dropped weights become zero, shown in dark red; the kept ones are multiplied by a "
                           "rescale factor.")
        formula = math(f"{{{{ alpha'_(i j) : out }}}} = {{{{ alpha_(i j) : a }}}} dot {{{{ m_(i j) : m }}}} dot "
                       f"{{{{ frac({ONE}, {ONE} - p) : r }}}}", font_size=typography.BODY_SIZE + 2)
        factor = VGroup(math("=", font_size=typography.BODY_SIZE + 2),
                        self.src.number("rescale", decimals=2, font_size=typography.BODY_SIZE + 2))
        factor.arrange(RIGHT, buff=0.15)
        line = VGroup(formula, factor).arrange(RIGHT, buff=0.2).move_to(UP * 2.0)
        self.play(Write(formula), run_time=1.2)
        dropped_grid = self._mark_dropped(self._weights_grid("dropped_weights"))
        dropped_grid.shift(self.weights.body.get_center() - dropped_grid.body.get_center())
        m_box = frame_box(formula.select("m"), color=palette.WRONG)
        self.play(Create(m_box), run_time=0.5)
        dropped = list(self.src.get("dropped_positions"))
        self.play(*(ReplacementTransform(self.weights.cell(i, j), dropped_grid.cell(i, j)) for i, j in dropped),
                  run_time=1.5)
        self.wait(0.8)
        rescale = format_value(self.src.value("rescale"), 2)
        self.say(f"Kept weights × {ONE}/({ONE} − p) = {rescale}: each weight keeps its expected value, "
                 "though a row's sum now varies from pass to pass.",
                 narration=f"Dividing the kept weights by {ONE} − p, that is multiplying them by {rescale}, keeps "
                           "each weight's expected value, though a row's sum now varies from pass to pass.")
        r_box = frame_box(formula.select("r"), color=palette.WEIGHT)
        self.play(ReplacementTransform(m_box, r_box), FadeIn(factor, shift=LEFT * 0.2), run_time=0.8)
        kept = [(i, j) for i in range(self.n) for j in range(self.n)
                if not bool(self.future[i, j]) and (i, j) not in dropped]
        self.play(*(ReplacementTransform(self.weights.cell(i, j), dropped_grid.cell(i, j)) for i, j in kept),
                  run_time=1.5)
        prime = math("alpha'", font_size=typography.BODY_SIZE + 4, color=palette.WEIGHT).move_to(self.alpha)
        self.play(ReplacementTransform(self.alpha, prime), run_time=0.5)
        self.wait(4.0)
        self.play(FadeOut(r_box), run_time=0.3)
        self.formula = VGroup(line)

    @beat
    def train_versus_eval(self):
        """Training mixes V with the dropped weights; eval uses the causal weights intact."""
        self.say("Then × V. In training the dropped weights mix the values; "
                 "in eval mode dropout does nothing and the weights stay intact.",
                 narration="Then multiply by V. In training, the weights after dropout mix the values; in eval "
                           "mode dropout does nothing, and the weights stay intact.")
        self._clear_all_but(self.pipe)
        self.play(*self._focus(STEP["times_v"], palette.VALUE), run_time=0.6)
        rows = VGroup(self._mix_row("training", "dropped_weights", "output_train", dropped=True),
                      self._mix_row("eval", "weights", "output_eval", dropped=False))
        rows.arrange(DOWN, buff=0.55).move_to(DOWN * 0.55)
        train_grid = rows[0].grid.body
        rows[1].shift(RIGHT * (train_grid.get_left()[0] - rows[1].grid.body.get_left()[0]))
        for row in rows:
            self.play(FadeIn(row.mode), FadeIn(row.grid), run_time=0.8)
            self.play(FadeIn(row.times), FadeIn(row.values), run_time=0.6)
            self.play(FadeIn(row.equals), FadeIn(row.out, shift=LEFT * 0.2), run_time=0.8)
        self.wait(1.0)
        self.say("Same V, different mixing: eval always gives the same output; training adds noise as regularisation.")
        train, evaluation = rows
        self.play(Indicate(train.out, color=palette.WRONG, scale_factor=1.05),
                  Indicate(evaluation.out, color=palette.RIGHT, scale_factor=1.05), run_time=1.5)
        self.wait(2.5)

    def _mix_row(self, mode: str, weights_path: str, output_path: str, *, dropped: bool) -> VGroup:
        """[mode] [weights] · [V] = [output]: one row of the train / eval comparison."""
        grid = self._weights_grid(weights_path, small=True, column_labels=False)
        if dropped:
            self._mark_dropped(grid)
        name = label(mode, font_size=typography.LABEL_SIZE, bold=True,
                     color=palette.WRONG if dropped else palette.RIGHT)
        dot = math("dot", font_size=typography.BODY_SIZE)
        values = matrix(self.src, "V", color=palette.VALUE, font_size=typography.SMALL_SIZE,
                        cell_size=SIZE["small_cell_h"])
        equals = math("=", font_size=typography.BODY_SIZE)
        out = matrix(self.src, output_path, color=palette.CONTEXT, font_size=typography.SMALL_SIZE,
                     cell_size=SIZE["small_cell_h"])
        row = VGroup(name, grid, dot, values, equals, out).arrange(RIGHT, buff=0.3)
        name.shift(LEFT * 0.2)
        row.mode, row.grid, row.times, row.values, row.equals, row.out = name, grid, dot, values, equals, out
        return row

    @beat
    def why_mask_before_softmax(self):
        """Brief reminder of the causal clip: swapping steps 2 and 3 breaks the distribution."""
        self._clear_all_but(self.pipe)
        self.play(*self._focus(-1), run_time=0.3)
        causal = Source("causal")
        first = format_value(causal.value("wrong_order_row_sums", 0), 2)
        self.say(f"Swap steps two and three (softmax, then mask) and the rows no longer sum to one: "
                 f"the first row keeps only {first}.")
        mask_box, soft_box = self.pipe.boxes[STEP["mask"]], self.pipe.boxes[STEP["softmax"]]
        self.play(Swap(mask_box, soft_box), run_time=1.2)
        self.play(mask_box[0].animate.set_stroke(palette.WRONG, width=5),
                  soft_box[0].animate.set_stroke(palette.WRONG, width=5), run_time=0.4)
        wrong = self._sums_line(causal, "wrong_order_row_sums", "softmax, then mask:", palette.WRONG)
        header = label("row sums of the weights", font_size=typography.LABEL_SIZE, color=palette.MUTED)
        header.move_to(UP * 1.4)
        wrong.next_to(header, DOWN, buff=0.6)
        self.play(FadeIn(header), FadeIn(wrong, shift=UP * 0.2), run_time=0.8)
        self.wait(3.5)
        self.say("So: mask, softmax, dropout, × V, in that order; the causal clip shows the swap in full.",
                 narration="So: mask, softmax, dropout, then multiply by V, in that order. The causal clip shows the "
                           "swap in full.")
        self.play(Swap(mask_box, soft_box), run_time=1.0)
        self.play(*self._focus(STEP["dropout"], palette.RIGHT), mask_box[0].animate.set_stroke(palette.MUTED, width=2),
                  soft_box[0].animate.set_stroke(palette.MUTED, width=2), run_time=0.6)
        right = self._sums_line(causal, "right_order_row_sums", "mask, then softmax:", palette.RIGHT)
        right.next_to(wrong, DOWN, buff=0.6)
        right.shift(RIGHT * (wrong.numbers.get_left()[0] - right.numbers.get_left()[0]))
        for new, old in zip(right.numbers, wrong.numbers):
            new.match_x(old)
        self.play(FadeIn(right, shift=UP * 0.2), run_time=0.8)
        self.wait(2.5)

    def _sums_line(self, causal: Source, path: str, text: str, color) -> VGroup:
        """"<order>: s_1 s_2 s_3 s_4" — the four traced row sums of one order of operations."""
        numbers = VGroup(*(causal.number(path, i, decimals=2, font_size=typography.NUMBER_SIZE, color=color)
                           for i in range(self.n))).arrange(RIGHT, buff=0.6)
        name = label(text, font_size=typography.LABEL_SIZE, color=color)
        line = VGroup(name, numbers).arrange(RIGHT, buff=0.4)
        line.numbers = numbers
        return line
