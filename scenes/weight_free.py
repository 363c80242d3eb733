"""Self-attention with no trainable weights: the post's "rain softens dry soil", first for the query "dry"
(Steps A–C: dot-product scores, softmax, weighted sum), then for every position at once
(A = softmax(X Xᵀ), Z = A X), ending on the point that one set of vectors plays query, key and value.

Follows "Simplified self-attention (no trainable weights)" and "All positions at once".
"""

from __future__ import annotations

from manim import (
    DOWN, LEFT, RIGHT, UP, Arrow, Create, FadeIn, FadeOut, GrowFromEdge, LaggedStart, Line, ReplacementTransform,
    TransformFromCopy, VGroup, Write,
)

from scenes.kit import (
    AttentionScene, SoftmaxBars, Source, align_rows, beat, flow_arrow, format_value, frame_box, group, heatmap,
    label, math, matrix, palette, subscript, typography, vector,
)

NUMBER = typography.SMALL_SIZE + 2  # numbers inside the grids: a notch under NUMBER_SIZE so 4×4 grids fit


class WeightFreeScene(AttentionScene):
    scene_id = "weight_free"

    def construct(self):
        self.src = Source("rain")
        self.tokens = list(self.src.get("tokens"))
        self.qi = self.src.get("query_index")
        self.qn = self.qi + 1  # 1-based position, as in the post's x₃
        self.lit_box = None
        self.show_title()
        self.four_embedding_vectors()
        self.step_a_scores()
        self.step_b_softmax()
        self.step_c_weighted_sum()
        self.all_scores_at_once()
        self.all_weights_at_once()
        self.all_outputs_at_once()
        self.same_vectors_three_roles()

    # --- helpers -------------------------------------------------------------------------------------------
    def light(self, eq, keys, color=palette.ACCENT, paint=None) -> list:
        """Animations that move the highlight box onto the equation terms the picture is using now.

        The box takes `color`; the terms named in `paint` (default: all of `keys`) take it too.
        """
        terms = VGroup(*(eq.select(k) for k in keys))
        box = frame_box(terms, color=color)
        painted = VGroup(*(eq.select(k) for k in (keys if paint is None else paint)))
        anims = [painted.animate.set_color(color)] if len(painted) else []
        anims.append(ReplacementTransform(self.lit_box, box) if self.lit_box is not None else Create(box))
        self.lit_box = box
        return anims

    def unlight(self) -> list:
        box, self.lit_box = self.lit_box, None
        return [FadeOut(box)] if box is not None else []

    def x_matrix(self, color=palette.TEXT):
        grid = matrix(self.src, "X", color=color, font_size=NUMBER, cell_width=0.9)
        grid.add_row_labels(self.tokens, color=palette.ENGLISH)
        return grid

    def step_formulas(self):
        """The post's three steps as one line across the top; each lights up when its step runs."""
        qn = self.qn
        a = math(group("omega_i", "om") + " = " + group(f"x_{qn}^top", "q") + " " + group("x_i", "k"))
        b = math(group("alpha_i", "al") + " = " + group('op("softmax")(omega)_i', "sm"))
        c = math(group(f"z_{qn}", "z") + " = " + group("sum_i", "sum") + " " + group("alpha_i", "al")
                 + " " + group("x_i", "v"))
        steps = VGroup()
        for letter, formula in zip(("A", "B", "C"), (a, b, c)):
            tag = label(f"Step {letter}", font_size=typography.SMALL_SIZE, color=palette.MUTED)
            steps.add(VGroup(tag, formula).arrange(RIGHT, buff=0.25))
        steps.arrange(RIGHT, buff=0.8).to_edge(UP, buff=0.45)
        return steps, (a, b, c)

    # --- beats ---------------------------------------------------------------------------------------------
    @beat
    def four_embedding_vectors(self):
        """The sentence becomes the matrix X: one embedding per word, one row per token."""
        sentence = VGroup(*(label(t, font_size=typography.HEADING_SIZE, color=palette.ENGLISH) for t in self.tokens))
        sentence.arrange(RIGHT, buff=0.45).move_to(UP * 1.5)
        self.say("Pretend each word of “rain softens dry soil” is already an embedding vector.")
        self.play(LaggedStart(*(FadeIn(w, shift=UP * 0.2) for w in sentence), lag_ratio=0.2), run_time=1.2)
        self.wait(1.5)
        X = self.x_matrix().move_to(DOWN * 0.6)
        name = math("X", font_size=typography.HEADING_SIZE).next_to(X, UP, buff=0.3)
        self.say("Four tokens, four vectors: stacked as rows they form the matrix X.")
        self.play(*(ReplacementTransform(w, l) for w, l in zip(sentence, X.row_labels)),
                  LaggedStart(*(FadeIn(X.row(i)) for i in range(X.rows)), lag_ratio=0.2),
                  FadeIn(X.brackets), FadeIn(name), run_time=1.6)
        self.wait(1.6)
        self.X, self.X_name = X, name

    @beat
    def step_a_scores(self):
        """Step A: the query x₃ dotted with every x_i, product by product, gives the scores ω."""
        steps, (fa, self.fb, self.fc) = self.step_formulas()
        self.steps = steps
        X, qi = self.X, self.qi
        self.say(f"Step A: fix the query “{self.tokens[qi]}” (x{subscript(self.qn)}) and score every word "
                 "by a dot product.")
        self.play(FadeOut(self.X_name), X.animate.move_to(LEFT * 3.7 + DOWN * 0.5), FadeIn(steps[0]),
                  FadeIn(steps[1:], run_time=0.8), run_time=1.0)
        steps[1:].set_opacity(0.35)
        q_box = frame_box(X.row(qi), color=palette.QUERY)
        query = vector(self.src, "query", color=palette.QUERY, font_size=NUMBER, cell_width=0.9)
        terms = matrix(self.src, "omega_terms", font_size=NUMBER, cell_width=0.9)
        terms.next_to(X, RIGHT, buff=1.3)
        align_rows(terms, X)
        query.next_to(terms, UP, buff=0.35)
        q_name = math(f"x_{self.qn}", color=palette.QUERY).next_to(query, LEFT, buff=0.2)
        omega = vector(self.src, "omega", orientation="column", font_size=NUMBER, cell_width=0.9,
                       color=palette.TEXT)
        omega.next_to(terms, RIGHT, buff=1.1)
        align_rows(omega, X)
        o_name = math("omega", font_size=typography.HEADING_SIZE).next_to(omega, UP, buff=0.2)
        times = math("dot.o", color=palette.MUTED).move_to((X.get_right() + terms.get_left()) / 2)
        sums = label("sum →", font_size=typography.SMALL_SIZE, color=palette.MUTED)
        sums.move_to((terms.get_right() + omega.get_left()) / 2)
        self.play(Create(q_box), TransformFromCopy(X.row(qi), query.body), FadeIn(query.brackets), FadeIn(q_name),
                  *self.light(fa, ["q"], palette.QUERY), run_time=1.2)
        self.play(FadeIn(terms.brackets), FadeIn(omega.brackets), FadeIn(o_name), FadeIn(times), FadeIn(sums),
                  run_time=0.5)
        self.wait(0.8)
        self.say(f"Multiply x{subscript(self.qn)} and xᵢ entry by entry, add the products: "
                 "one score ωᵢ per word.",
                 narration=f"Multiply x{subscript(self.qn)} and each xᵢ entry by entry, and add the products: "
                           "that gives one score, ωᵢ, per word.")
        k_box = None
        for i in range(X.rows):
            box = frame_box(X.row(i), color=palette.KEY, buff=0.04)
            self.play(ReplacementTransform(k_box, box) if k_box is not None else Create(box),
                      TransformFromCopy(VGroup(query.body, X.row(i)), terms.row(i)),
                      *(self.light(fa, ["q", "k"], palette.KEY, paint=["k"]) if i == 0 else []), run_time=0.7)
            self.play(TransformFromCopy(terms.row(i), omega.cell(i)),
                      *(self.light(fa, ["om"]) if i == 0 else []), run_time=0.5)
            k_box = box
        best = int(self.src.get("omega").argmax())
        self.say(f"“{self.tokens[best]}” scores highest against itself: "
                 f"ω{subscript(best + 1)} = {format_value(self.src.value('omega', best), 2)}.")
        self.play(FadeOut(k_box), omega.cell(best).animate.set_color(palette.QUERY), run_time=0.6)
        self.wait(1.6)
        self.q_box, self.omega, self.o_name = q_box, omega, o_name
        self.step_a_parts = VGroup(query, q_name, terms, times, sums)

    @beat
    def step_b_softmax(self):
        """Step B: softmax turns the scores into weights that sum to 1 (bars)."""
        steps = self.steps
        omega_spot = (self.X.get_right() + RIGHT * 1.2)[0] - self.omega.get_center()[0]
        self.say("Step B: softmax turns the scores into weights α that are positive and sum to one.")
        self.play(FadeOut(self.step_a_parts), steps[0].animate.set_opacity(0.35), steps[1].animate.set_opacity(1),
                  *self.unlight(), run_time=0.7)
        self.play(self.omega.animate.shift(RIGHT * omega_spot), self.o_name.animate.shift(RIGHT * omega_spot),
                  run_time=0.6)
        bars = SoftmaxBars(self.src, "alpha", self.tokens, max_height=4.5, bar_width=0.8, buff=0.4)
        bars.next_to(self.omega, RIGHT, buff=1.4).align_to(self.X, DOWN)
        arrow = Arrow(self.omega.get_right(), [bars.get_left()[0], self.omega.get_center()[1], 0], buff=0.2,
                      color=palette.MUTED, stroke_width=3, max_tip_length_to_length_ratio=0.15)
        tag = label("softmax", font_size=typography.SMALL_SIZE, color=palette.WEIGHT).next_to(arrow, UP, buff=0.1)
        self.play(*self.light(self.fb, ["sm"], palette.WEIGHT), Create(arrow), FadeIn(tag), run_time=0.8)
        self.play(Create(bars.baseline), FadeIn(bars.labels),
                  LaggedStart(*(GrowFromEdge(b, DOWN) for b in bars.bars), lag_ratio=0.15),
                  LaggedStart(*(TransformFromCopy(self.omega.cell(i), bars.values[i])
                                for i in range(len(self.tokens))), lag_ratio=0.15),
                  *self.light(self.fb, ["al"], palette.WEIGHT), run_time=1.6)
        alpha = self.src.get("alpha")
        hi, lo = int(alpha.argmax()), int(alpha.argmin())
        self.say(f"This is the attention distribution for position {self.qn}: "
                 f"most on “{self.tokens[hi]}” ({format_value(self.src.value('alpha', hi), 2)}), "
                 f"least on “{self.tokens[lo]}” ({format_value(self.src.value('alpha', lo), 2)}).")
        self.play(bars.bars[hi].animate.set_fill(palette.QUERY), run_time=0.6)
        self.wait(3.0)
        self.bars, self.softmax_arrow = bars, VGroup(arrow, tag)

    @beat
    def step_c_weighted_sum(self):
        """Step C: z₃ = Σ αᵢ xᵢ — each row of X scaled by its weight, then added up."""
        steps = self.steps
        alpha = heatmap(self.src, "alpha", orientation="column", font_size=NUMBER, cell_width=0.9)
        alpha.next_to(self.X, RIGHT, buff=0.5)
        align_rows(alpha, self.X)
        a_name = math("alpha", font_size=typography.HEADING_SIZE, color=palette.WEIGHT).next_to(alpha, UP, buff=0.2)
        weighted = matrix(self.src, "weighted_x", font_size=NUMBER, cell_width=0.9)
        weighted.next_to(alpha, RIGHT, buff=1.2)
        align_rows(weighted, self.X)
        w_name = math("alpha_i x_i", color=palette.MUTED).next_to(weighted, UP, buff=0.2)
        equals = math("arrow.r", color=palette.MUTED).move_to((alpha.get_right() + weighted.get_left()) / 2)
        self.say("Step C: scale each word’s vector by its weight…")
        self.play(FadeOut(self.omega), FadeOut(self.o_name), FadeOut(self.softmax_arrow), FadeOut(self.q_box),
                  steps[1].animate.set_opacity(0.35), steps[2].animate.set_opacity(1), *self.unlight(),
                  *(ReplacementTransform(self.bars.values[i], alpha.cell(i)) for i in range(alpha.rows)),
                  FadeOut(VGroup(self.bars.bars, self.bars.baseline, self.bars.labels)),
                  FadeIn(a_name), run_time=1.2)
        self.play(FadeIn(weighted.brackets), FadeIn(w_name), FadeIn(equals),
                  *self.light(self.fc, ["al", "v"], palette.VALUE), run_time=0.6)
        v_box = None
        for i in range(self.X.rows):
            box = frame_box(self.X.row(i), color=palette.VALUE, buff=0.04)
            self.play(ReplacementTransform(v_box, box) if v_box is not None else Create(box),
                      TransformFromCopy(VGroup(alpha.cell(i), self.X.row(i)), weighted.row(i)), run_time=0.6)
            v_box = box
        z = vector(self.src, "z", color=palette.CONTEXT, font_size=NUMBER, cell_width=0.9)
        z.next_to(weighted, DOWN, buff=0.45)
        rule = Line(weighted.get_corner(DOWN + LEFT), weighted.get_corner(DOWN + RIGHT), color=palette.MUTED)
        rule.shift(DOWN * 0.18)
        z_name = math(f"z_{self.qn}", color=palette.CONTEXT).next_to(z, RIGHT, buff=0.25)
        self.say(f"…and add them up: z{subscript(self.qn)} is a blend of all four words, "
                 f"leaning towards the ones with larger weights.")
        self.play(FadeOut(v_box), Create(rule), TransformFromCopy(weighted.body, z.body), FadeIn(z.brackets),
                  FadeIn(z_name), *self.light(self.fc, ["sum", "z"], palette.CONTEXT), run_time=1.4)
        self.wait(2.6)

    @beat
    def all_scores_at_once(self):
        """Repeating A–C for every query is one matrix product: the scores of all pairs are X Xᵀ."""
        self.say("Repeat Steps A–C with every word as the query and you get all positions at once.")
        self.clear_stage()
        self.lit_box = None
        eq = math(group("A", "a") + " = " + group('op("softmax")', "sm") + "(" + group("X X^top", "xx")
                  + "), quad " + group("Z", "z") + " = " + group("A X", "ax"),
                  font_size=typography.HEADING_SIZE)
        eq.to_edge(UP, buff=0.45)
        X = self.x_matrix().move_to(LEFT * 4.3 + DOWN * 0.5)
        scores = heatmap(self.src, "scores", weights=False, font_size=NUMBER, cell_width=0.9)
        scores.next_to(X, RIGHT, buff=2.6)
        align_rows(scores, X)
        scores.add_row_labels(self.tokens, color=palette.ENGLISH)
        scores.add_column_labels(self.tokens, color=palette.ENGLISH)
        arrow = flow_arrow(X, scores.row_labels)
        tag = math("X X^top", color=palette.MUTED).next_to(arrow, UP, buff=0.1)
        self.play(FadeIn(eq), FadeIn(X), run_time=1.0)
        self.wait(1.2)
        self.say(f"All the dot products form one {X.rows} × {X.rows} grid: X Xᵀ, one row per query.")
        self.play(*self.light(eq, ["xx"]), Create(arrow), FadeIn(tag),
                  LaggedStart(*(FadeIn(scores.row(i), shift=RIGHT * 0.2) for i in range(scores.rows)),
                              lag_ratio=0.2), FadeIn(scores.row_labels), FadeIn(scores.column_labels), run_time=1.6)
        self.wait(1.0)
        row_box = frame_box(scores.row(self.qi), color=palette.QUERY)
        self.say(f"Row {self.qn} is exactly the ω of Step A: “{self.tokens[self.qi]}” against every word.")
        self.play(Create(row_box), run_time=0.6)
        self.wait(1.6)
        self.eq, self.X, self.scores, self.arrow = eq, X, scores, VGroup(arrow, tag, row_box)

    @beat
    def all_weights_at_once(self):
        """Softmax along each row gives A; row 3 is the α already computed for "dry"."""
        scores, qi = self.scores, self.qi
        self.say("Softmax along each row turns the scores into the weight matrix A; every row sums to one.")
        self.play(FadeOut(self.X), FadeOut(self.arrow), scores.animate.move_to(LEFT * 3.6 + DOWN * 0.5),
                  run_time=0.8)
        A = heatmap(self.src, "weights", font_size=NUMBER, cell_width=0.9)
        A.next_to(scores, RIGHT, buff=2.4)
        align_rows(A, scores)
        A.add_column_labels(self.tokens, color=palette.ENGLISH)
        arrow = flow_arrow(scores, A)
        tag = label("softmax each row", font_size=typography.SMALL_SIZE, color=palette.WEIGHT)
        tag.next_to(arrow, UP, buff=0.1)
        a_name = math("A", font_size=typography.HEADING_SIZE, color=palette.WEIGHT).next_to(A, RIGHT, buff=0.3)
        self.play(*self.light(self.eq, ["sm", "a"], palette.WEIGHT), Create(arrow), FadeIn(tag),
                  LaggedStart(*(TransformFromCopy(scores.row(i), A.row(i)) for i in range(A.rows)), lag_ratio=0.2),
                  FadeIn(A.column_labels), FadeIn(a_name), run_time=1.8)
        self.wait(0.6)
        alpha = heatmap(self.src, "alpha", font_size=NUMBER, cell_width=0.9)
        alpha.next_to(A, DOWN, buff=0.55).align_to(A.body, LEFT)
        a_tag = label("α from Step B", font_size=typography.SMALL_SIZE, color=palette.WEIGHT)
        a_tag.next_to(alpha, LEFT, buff=0.3)
        row_box = frame_box(A.row(qi), color=palette.QUERY)
        alpha_box = frame_box(alpha, color=palette.QUERY)
        self.say(f"Row {self.qn} (“{self.tokens[qi]}”) matches the α we computed in Step B, weight for weight.")
        self.play(Create(row_box), run_time=0.6)
        self.play(TransformFromCopy(A.row(qi), alpha), FadeIn(a_tag), Create(alpha_box), run_time=1.2)
        self.wait(1.8)
        self.A = A
        self.a_parts = VGroup(scores, arrow, tag, alpha, a_tag, alpha_box, a_name, row_box)

    @beat
    def all_outputs_at_once(self):
        """Z = A X: every context vector at once; row 3 is z₃ from Step C."""
        A, qi = self.A, self.qi
        self.say("Multiply the weights by X: Z = A X holds every context vector, one row per word.")
        self.play(FadeOut(self.a_parts), FadeOut(A.column_labels), run_time=0.6)
        A.remove(A.column_labels)
        X = matrix(self.src, "X", font_size=NUMBER, cell_width=0.9)
        Z = matrix(self.src, "Z", color=palette.CONTEXT, font_size=NUMBER, cell_width=0.9)
        times = math("times", color=palette.MUTED)
        equals = math("=", color=palette.MUTED)
        row = VGroup(A.copy(), times, X, equals, Z).arrange(RIGHT, buff=0.35).move_to(DOWN * 0.5)
        names = VGroup(*(math(n, font_size=typography.HEADING_SIZE, color=c).next_to(g, UP, buff=0.25)
                         for n, c, g in (("A", palette.WEIGHT, row[0]), ("X", palette.TEXT, X),
                                         ("Z", palette.CONTEXT, Z))))
        target = row[0].get_center()
        labels = row[0].add_row_labels(self.tokens, color=palette.ENGLISH)
        self.play(A.animate.move_to(target), FadeIn(labels), FadeIn(times),
                  FadeIn(X), FadeIn(equals), FadeIn(names[:2]), *self.light(self.eq, ["ax"]), run_time=1.0)
        self.play(LaggedStart(*(TransformFromCopy(VGroup(A.row(i), X.body), Z.row(i)) for i in range(Z.rows)),
                              lag_ratio=0.25), FadeIn(Z.brackets), FadeIn(names[2]),
                  *self.light(self.eq, ["z", "ax"], palette.CONTEXT), run_time=2.0)
        self.say(f"Row {self.qn} of Z is z{subscript(self.qn)} from Step C: the same numbers, "
                 f"now for all {Z.rows} positions in one product.")
        self.play(Create(frame_box(Z.row(qi), color=palette.QUERY)), Create(frame_box(A.row(qi), color=palette.QUERY)),
                  run_time=0.7)
        self.wait(2.4)

    @beat
    def same_vectors_three_roles(self):
        """The bridge: with no weights, the same rows of X were query, key and value."""
        self.say("Notice: with no weights, the same vectors X played all three roles — "
                 "query, key and value.")
        self.clear_stage()
        self.lit_box = None
        roles = (("queries", palette.QUERY, "Q"), ("keys", palette.KEY, "K"), ("values", palette.VALUE, "V"))
        mats = VGroup(*(matrix(self.src, "X", color=color, font_size=NUMBER, cell_width=0.9)
                        for _, color, _ in roles)).arrange(RIGHT, buff=0.9).move_to(DOWN * 0.3)
        grids = VGroup()
        for (word, color, letter), grid in zip(roles, mats):
            name = math(f"{letter} = X", color=color, font_size=typography.HEADING_SIZE).next_to(grid, UP, buff=0.3)
            use = label(f"as {word}", font_size=typography.LABEL_SIZE, color=color).next_to(grid, DOWN, buff=0.3)
            if grids:
                name.match_y(grids[0][0])
            grids.add(VGroup(name, grid, use))
        self.play(LaggedStart(*(FadeIn(g, shift=UP * 0.2) for g in grids), lag_ratio=0.3), run_time=1.8)
        self.wait(1.5)
        nxt = VGroup(label("Next: learn", font_size=typography.BODY_SIZE, color=palette.MUTED),
                     math("W_Q, W_K, W_V", color=palette.MUTED),
                     label("so the three roles can differ.", font_size=typography.BODY_SIZE, color=palette.MUTED))
        nxt.arrange(RIGHT, buff=0.2).to_edge(DOWN, buff=0.5)
        self.say("Next, three trainable matrices W_Q, W_K, W_V let queries, keys and values differ.")
        self.play(Write(nxt), run_time=1.2)
        self.wait(2.0)
