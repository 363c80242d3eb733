"""Trainable queries, keys and values, one query row worked step by step, and why the scores are divided by √dₖ.

X is projected by W_Q, W_K, W_V into Q (yellow), K (teal), V (pink); the row for "dry" is then projected, scored,
normalised and mixed while the terms of softmax(QKᵀ/√dₖ)V light up; finally random queries and keys of growing
width show the softmax saturating without the scale. Follows "Adding trainable weights: queries, keys, values",
"Scaled scores and context" and "Step-by-step for one query row".
"""

from __future__ import annotations

from manim import (
    DOWN, LEFT, RIGHT, UP, Arrow, Create, FadeIn, FadeOut, GrowFromEdge, Indicate, LaggedStart, Line,
    ReplacementTransform, TransformFromCopy, VGroup,
)

from scenes.kit import (
    AttentionScene, SoftmaxBars, Source, align_rows, beat, format_value, frame_box, group, heatmap, label, math,
    matrix, palette, subscript, typography, vector,
)

NUMBER = typography.SMALL_SIZE + 2  # numbers inside the grids: a notch under NUMBER_SIZE so several grids fit


def _arrow_between(left, right, y=None) -> Arrow:
    """A horizontal arrow from `left`'s right edge to `right`'s left edge (at height y, default `left`'s)."""
    y = left.get_center()[1] if y is None else y
    return Arrow([left.get_right()[0], y, 0], [right.get_left()[0], y, 0], buff=0.15, color=palette.MUTED,
                 stroke_width=3, max_tip_length_to_length_ratio=0.2)


class QKVScaleScene(AttentionScene):
    scene_id = "qkv_scale"

    def construct(self):
        self.src = Source("qkv")
        self.sat = Source("saturation")
        self.tokens = list(self.src.get("tokens"))
        self.qi = self.src.get("query_index")
        self.qn = self.qi + 1  # 1-based, as in the post's x₃
        self.lit_box = None
        self.show_title()
        self.three_projections()
        self.project_the_query()
        self.score_against_every_key()
        self.softmax_over_keys()
        self.weighted_sum_of_values()
        self.every_row_at_once()
        self.saturation_setup()
        self.saturation_grows_with_d_k()
        self.scale_keeps_it_spread()

    # --- helpers -------------------------------------------------------------------------------------------
    def light(self, eq, keys, color=palette.ACCENT, paint=None) -> list:
        """Animations that move the highlight box onto the equation terms the picture is using now.

        The box takes `color`; the terms named in `paint` (default: all of `keys`) take it too.
        """
        terms = VGroup(*(eq.select(k) for k in keys))
        box = frame_box(terms, color=color, buff=0.05)
        painted = VGroup(*(eq.select(k) for k in (keys if paint is None else paint)))
        anims = [painted.animate.set_color(color)] if len(painted) else []
        anims.append(ReplacementTransform(self.lit_box, box) if self.lit_box is not None else Create(box))
        self.lit_box = box
        return anims

    def grid(self, path, color=palette.TEXT, **kwargs):
        return matrix(self.src, path, color=color, font_size=NUMBER, cell_width=0.9, **kwargs)

    def clear_picture(self, keep) -> None:
        """Fade everything except `keep` (the equation that stays on screen)."""
        kept = {id(part) for k in keep if k is not None for part in k.get_family()}
        # a group that animated equation terms shares their parts: it stays if any part is kept
        gone = [m for m in self.mobjects if not any(id(part) in kept for part in m.get_family())]
        if gone:
            self.play(*(FadeOut(m) for m in gone), run_time=0.6)
        self.lit_box = None if self.lit_box not in keep else self.lit_box

    def attention_equation(self):
        """softmax(QKᵀ/√dₖ)V, each part a named group so it can light up as the picture computes it."""
        eq = math(group('op("softmax")', "sm") + " lr(( (" + group("Q", "q") + " " + group("K^top", "k")
                  + ") / " + group("sqrt(d_k)", "scale") + " )) " + group("V", "v"),
                  font_size=typography.HEADING_SIZE)
        return eq.to_edge(UP, buff=0.3)

    # --- beats ---------------------------------------------------------------------------------------------
    @beat
    def three_projections(self):
        """X times three learned matrices gives Q, K and V: the roles can now differ."""
        roles = (("Q", palette.QUERY, "W_q", "Q"), ("K", palette.KEY, "W_k", "K"), ("V", palette.VALUE, "W_v", "V"))
        eq = math(", quad ".join(group(r, r.lower()) + " = X " + group(f"W_{r}", "w" + r.lower())
                                 for r, *_ in roles), font_size=typography.HEADING_SIZE).to_edge(UP, buff=0.3)
        X = self.grid("X")
        X.add_row_labels(self.tokens, color=palette.ENGLISH)
        outs = VGroup(*(self.grid(path, color=color) for _, color, _, path in roles)).arrange(RIGHT, buff=1.0)
        X.next_to(outs, LEFT, buff=0.9)
        VGroup(X, outs).move_to(DOWN * 1.45)
        align_rows(X, outs[0])
        weights = VGroup()
        for (_, color, path, _), out in zip(roles, outs):
            w = self.grid(path, color=color)
            w.next_to(out, UP, buff=0.3)
            weights.add(w)
        w_names = VGroup(*(math(f"W_{r}", color=c).next_to(w, LEFT, buff=0.15)
                           for (r, c, *_), w in zip(roles, weights)))
        o_names = VGroup(*(math(r, color=c, font_size=typography.HEADING_SIZE).next_to(o, DOWN, buff=0.2)
                           for (r, c, *_), o in zip(roles, outs)))
        x_name = math("X", font_size=typography.HEADING_SIZE).next_to(X, DOWN, buff=0.2)
        self.say("The weight-free version used X for every role. Real self-attention learns three linear maps.")
        self.play(FadeIn(eq), FadeIn(X), FadeIn(x_name), run_time=1.0)
        self.wait(2.0)
        captions = ("Queries Q = X W_Q: the vectors that do the scoring.",
                    "Keys K = X W_K: the vectors that get scored.",
                    "Values V = X W_V: the vectors that enter the weighted sum.")
        for i, ((r, color, _, _), w, out, caption) in enumerate(zip(roles, weights, outs, captions)):
            self.say(caption)
            self.play(FadeIn(w), FadeIn(w_names[i]), *self.light(eq, [r.lower(), "w" + r.lower()], color),
                      run_time=0.7)
            self.play(LaggedStart(*(TransformFromCopy(VGroup(X.row(j), w.body), out.row(j))
                                    for j in range(out.rows)), lag_ratio=0.2),
                      FadeIn(out.brackets), FadeIn(o_names[i]), run_time=1.5)
            self.wait(0.6)
        self.say(f"Each word now has a query, a key and a value of width d_k = {self.src.get('d_k')}, "
                 f"and they differ.")
        self.play(FadeOut(self.lit_box), run_time=0.4)
        self.lit_box = None
        self.wait(2.4)

    @beat
    def project_the_query(self):
        """Step 1 of the query row: q₃ = x₃ W_Q, each entry of x₃ scaling one row of W_Q."""
        qn, word = self.qn, self.tokens[self.qi]
        self.say(f"One query row, step by step. Step one, project: q{subscript(qn)} = x{subscript(qn)} W_Q "
                 f"for “{word}”.",
                 narration=f"Now one query row, step by step, for “{word}”. Step one, project: "
                           f"q{subscript(qn)} is x{subscript(qn)} times W_Q.")
        self.clear_stage()
        self.lit_box = None
        eq = self.attention_equation()
        self.eq = eq
        x = vector(self.src, "query_row.x", orientation="column", font_size=NUMBER, cell_width=0.9)
        W = self.grid("W_q", color=palette.QUERY)
        terms = self.grid("query_row.q_terms")
        dot = math("dot.o", color=palette.MUTED)
        row = VGroup(x, dot, W).arrange(RIGHT, buff=0.3)
        terms.next_to(row, RIGHT, buff=1.3)
        VGroup(row, terms).move_to(UP * 0.4)
        arrow = _arrow_between(W, terms)
        x_name = math(f"x_{qn}").next_to(x, UP, buff=0.2)
        x_word = label(f"“{word}”", font_size=typography.SMALL_SIZE, color=palette.ENGLISH)
        x_word.next_to(x, LEFT, buff=0.2)
        W_name = math("W_Q", color=palette.QUERY).next_to(W, UP, buff=0.2)
        q = vector(self.src, "query_row.q", color=palette.QUERY, font_size=NUMBER, cell_width=0.9)
        q.next_to(terms, DOWN, buff=0.5)
        rule = Line(terms.get_corner(DOWN + LEFT), terms.get_corner(DOWN + RIGHT), color=palette.MUTED)
        rule.shift(DOWN * 0.2)
        q_name = math(f"q_{qn} = x_{qn} W_Q", color=palette.QUERY).next_to(q, RIGHT, buff=0.3)
        self.play(FadeIn(eq), FadeIn(x), FadeIn(x_name), FadeIn(x_word), FadeIn(dot), FadeIn(W), FadeIn(W_name),
                  run_time=1.0)
        self.play(Create(arrow), FadeIn(terms.brackets),
                  LaggedStart(*(TransformFromCopy(VGroup(x.cell(c), W.row(c)), terms.row(c))
                                for c in range(terms.rows)), lag_ratio=0.3), run_time=1.6)
        self.say(f"Each entry of x{subscript(qn)} scales one row of W_Q; adding the rows gives the query.")
        self.play(Create(rule), FadeIn(q.brackets),
                  *(TransformFromCopy(terms.column(k), q.cell(0, k)) for k in range(terms.cols)),
                  FadeIn(q_name), *self.light(eq, ["q"], palette.QUERY), run_time=1.4)
        self.wait(1.2)
        self.say("The keys k_j = x_j W_K and values v_j = x_j W_V are the rows of K and V we already have.",
                 narration="Keys and values are made the same way, k_j from x_j times W_K and v_j from x_j times "
                           "W_V: they are the rows of K and V we already have.")
        self.wait(3.0)

    @beat
    def score_against_every_key(self):
        """Step 2: q₃ · k_j for every key, then divided by √dₖ."""
        self.say("Step two, score: dot the query with every key, k_j being the rows of K.")
        self.clear_picture(keep=[self.eq, self.lit_box])
        qn = self.qn
        K = self.grid("K", color=palette.KEY)
        K.add_row_labels(self.tokens, color=palette.ENGLISH)
        terms = self.grid("query_row.score_terms")
        raw = vector(self.src, "query_row.raw_scores", orientation="column", font_size=NUMBER, cell_width=0.9)
        scaled = vector(self.src, "query_row.scaled_scores", orientation="column", font_size=NUMBER,
                        cell_width=0.9)
        dot = math("dot.o", color=palette.MUTED)
        VGroup(K, dot, terms).arrange(RIGHT, buff=0.3)
        raw.next_to(terms, RIGHT, buff=1.2)
        scaled.next_to(raw, RIGHT, buff=2.7)
        VGroup(K, dot, terms, raw, scaled).move_to(DOWN * 0.9)
        for g in (terms, raw, scaled):
            align_rows(g, K)
        q = vector(self.src, "query_row.q", color=palette.QUERY, font_size=NUMBER, cell_width=0.9)
        q.next_to(terms, UP, buff=0.35)
        q_name = math(f"q_{qn}", color=palette.QUERY).next_to(q, LEFT, buff=0.2)
        k_name = math("K", font_size=typography.HEADING_SIZE, color=palette.KEY).next_to(K, UP, buff=0.2)
        sum_arrow = _arrow_between(terms, raw)
        sum_tag = label("sum", font_size=typography.SMALL_SIZE, color=palette.MUTED).next_to(sum_arrow, UP, buff=0.1)
        raw_name = math(f"q_{qn} dot k_j").next_to(raw, UP, buff=0.2)
        div_arrow = _arrow_between(raw, scaled)
        scale = VGroup(math("div sqrt(d_k) ="), self.src.number("query_row.scale", decimals=2, font_size=NUMBER))
        scale.arrange(RIGHT, buff=0.12).next_to(div_arrow, UP, buff=0.1)
        scaled_name = math(f"omega_({qn} j)").next_to(scaled, UP, buff=0.2)
        self.play(FadeIn(K), FadeIn(k_name), FadeIn(q), FadeIn(q_name), FadeIn(dot), FadeIn(terms.brackets),
                  *self.light(self.eq, ["q", "k"], palette.KEY, paint=["k"]), run_time=0.9)
        for j in range(K.rows):
            self.play(TransformFromCopy(VGroup(q.body, K.row(j)), terms.row(j)), run_time=0.45)
        self.play(Create(sum_arrow), FadeIn(sum_tag), FadeIn(raw.brackets), FadeIn(raw_name),
                  LaggedStart(*(TransformFromCopy(terms.row(j), raw.cell(j)) for j in range(raw.rows)),
                              lag_ratio=0.2), run_time=1.2)
        self.say(f"Then divide by √d_k = {format_value(self.src.value('query_row.scale'), 2)}: "
                 f"these are the scaled scores ω{subscript(qn)}ⱼ.")
        self.play(Create(div_arrow), FadeIn(scale), FadeIn(scaled.brackets), FadeIn(scaled_name),
                  *self.light(self.eq, ["q", "k", "scale"], paint=[]),
                  LaggedStart(*(TransformFromCopy(raw.cell(j), scaled.cell(j)) for j in range(raw.rows)),
                              lag_ratio=0.2), run_time=1.4)
        self.wait(1.6)
        self.K, self.scaled, self.scaled_name = K, scaled, scaled_name

    @beat
    def softmax_over_keys(self):
        """Step 3: softmax along the row, over the keys j."""
        self.say("Step three, normalise: softmax along the row, over the keys j, gives weights that sum to one.")
        keep = [self.eq, self.lit_box, self.K, self.scaled, self.scaled_name]
        self.clear_picture(keep=keep)
        dx = (self.K.get_right() + RIGHT * 1.0 - self.scaled.get_left())[0]
        self.play(VGroup(self.scaled, self.scaled_name).animate.shift(RIGHT * dx), run_time=0.6)
        bars = SoftmaxBars(self.src, "query_row.weights", self.tokens, max_height=2.6, bar_width=0.8, buff=0.4)
        bars.next_to(self.scaled, RIGHT, buff=2.3).align_to(self.K, DOWN)
        arrow = _arrow_between(self.scaled, bars)
        tag = label("softmax over j", font_size=typography.SMALL_SIZE, color=palette.WEIGHT)
        tag.next_to(arrow, UP, buff=0.1)
        weights = self.src.get("query_row.weights")
        best = int(weights.argmax())
        self.play(Create(arrow), FadeIn(tag), *self.light(self.eq, ["sm", "q", "k", "scale"], palette.WEIGHT,
                                                           paint=["sm"]), run_time=0.8)
        self.play(Create(bars.baseline), FadeIn(bars.labels),
                  LaggedStart(*(GrowFromEdge(b, DOWN) for b in bars.bars), lag_ratio=0.15),
                  LaggedStart(*(TransformFromCopy(self.scaled.cell(j), bars.values[j])
                                for j in range(len(self.tokens))), lag_ratio=0.15), run_time=1.6)
        self.wait(0.6)
        self.say(f"With these projections “{self.tokens[self.qi]}” attends most to “{self.tokens[best]}” "
                 f"({format_value(self.src.value('query_row.weights', best), 2)}), no longer mostly to itself.")
        self.play(bars.bars[best].animate.set_fill(palette.QUERY), run_time=0.5)
        self.wait(2.6)
        self.bars = bars

    @beat
    def weighted_sum_of_values(self):
        """Step 4: z₃ = Σ α₃ⱼ v_j."""
        qn = self.qn
        alpha = heatmap(self.src, "query_row.weights", orientation="column", font_size=NUMBER, cell_width=0.9)
        V = self.grid("V", color=palette.VALUE)
        V.add_row_labels(self.tokens, color=palette.ENGLISH)
        weighted = self.grid("query_row.weighted_v")
        times = math("times", color=palette.MUTED)
        row = VGroup(V, times, alpha).arrange(RIGHT, buff=0.3)
        weighted.next_to(row, RIGHT, buff=1.3)
        VGroup(row, weighted).move_to(DOWN * 0.5)
        for g in (alpha, weighted):
            align_rows(g, V)
        arrow = _arrow_between(alpha, weighted)
        v_name = math("V", font_size=typography.HEADING_SIZE, color=palette.VALUE).next_to(V, UP, buff=0.2)
        a_name = math(f"alpha_({qn} j)", color=palette.WEIGHT).next_to(alpha, UP, buff=0.2)
        w_name = math(f"alpha_({qn} j) v_j", color=palette.MUTED).next_to(weighted, UP, buff=0.2)
        self.say("Step four, mix: scale each value v_j by its weight…")
        self.clear_picture(keep=[self.eq, self.lit_box, self.bars])
        self.play(*(ReplacementTransform(self.bars.values[j], alpha.cell(j)) for j in range(alpha.rows)),
                  FadeOut(VGroup(self.bars.bars, self.bars.baseline, self.bars.labels)), FadeIn(a_name),
                  FadeIn(V), FadeIn(v_name), FadeIn(times), *self.light(self.eq, ["v"], palette.VALUE), run_time=1.2)
        self.play(Create(arrow), FadeIn(weighted.brackets), FadeIn(w_name),
                  LaggedStart(*(TransformFromCopy(VGroup(alpha.cell(j), V.row(j)), weighted.row(j))
                                for j in range(V.rows)), lag_ratio=0.3), run_time=1.8)
        z = vector(self.src, "query_row.z", color=palette.CONTEXT, font_size=NUMBER, cell_width=0.9)
        z.next_to(weighted, DOWN, buff=0.5)
        rule = Line(weighted.get_corner(DOWN + LEFT), weighted.get_corner(DOWN + RIGHT), color=palette.MUTED)
        rule.shift(DOWN * 0.2)
        z_name = math(f"z_{qn}", color=palette.CONTEXT).next_to(z, RIGHT, buff=0.25)
        self.say(f"…and add: z{subscript(qn)} = Σ α{subscript(qn)}ⱼ vⱼ. Same four steps as soft attention; "
                 "new are the projections and the scale.",
                 narration=f"…and add them up: z{subscript(qn)} is the sum of every vⱼ times its weight. These are "
                           "the same four steps as soft attention; what is new is the projections and the scale.")
        self.play(Create(rule), TransformFromCopy(weighted.body, z.body), FadeIn(z.brackets), FadeIn(z_name),
                  *self.light(self.eq, ["sm", "q", "k", "scale", "v"], palette.CONTEXT, paint=[]), run_time=1.4)
        self.wait(3.0)

    @beat
    def every_row_at_once(self):
        """All query rows together: the 4×4 weights and Z = softmax(QKᵀ/√dₖ)V, row 3 as just computed."""
        self.say("Every query row at once: the weight matrix times V gives one output row per word.")
        self.clear_picture(keep=[self.eq, self.lit_box])
        qi = self.qi
        A = heatmap(self.src, "weights", font_size=NUMBER, cell_width=0.9)
        A.add_row_labels(self.tokens, color=palette.ENGLISH)
        A.add_column_labels(self.tokens, color=palette.ENGLISH)
        V = self.grid("V", color=palette.VALUE)
        Z = self.grid("output", color=palette.CONTEXT)
        times, equals = math("times", color=palette.MUTED), math("=", color=palette.MUTED)
        row = VGroup(A, times, V, equals, Z).arrange(RIGHT, buff=0.35).move_to(DOWN * 0.6)
        for g in (V, Z):
            align_rows(g, A)
        times.match_y(A.body)
        equals.match_y(A.body)
        names = VGroup(math('op("softmax")((Q K^top) / sqrt(d_k))', color=palette.WEIGHT).next_to(A, DOWN, buff=0.3),
                       math("V", color=palette.VALUE).next_to(V, DOWN, buff=0.3),
                       math("Z", color=palette.CONTEXT).next_to(Z, DOWN, buff=0.3))
        self.play(LaggedStart(*(FadeIn(A.row(i), shift=RIGHT * 0.2) for i in range(A.rows)), lag_ratio=0.15),
                  FadeIn(A.row_labels), FadeIn(A.column_labels), FadeIn(times), FadeIn(V), FadeIn(equals),
                  FadeIn(names[:2]), run_time=1.4)
        self.play(LaggedStart(*(TransformFromCopy(VGroup(A.row(i), V.body), Z.row(i)) for i in range(Z.rows)),
                              lag_ratio=0.2), FadeIn(Z.brackets), FadeIn(names[2]), run_time=1.6)
        self.say(f"Row {self.qn} is the “{self.tokens[qi]}” row we just worked through.")
        self.play(Create(frame_box(A.row(qi), color=palette.QUERY)), Create(frame_box(Z.row(qi), color=palette.QUERY)),
                  run_time=0.6)
        self.wait(1.6)

    # --- why the scale -------------------------------------------------------------------------------------
    @beat
    def saturation_setup(self):
        """Random unit-variance queries and keys of growing width: unscaled vs scaled softmax, side by side."""
        self.say(f"Why the √d_k? Take one random query and {self.sat.get('n_keys')} random keys "
                 "with unit-variance entries.")
        self.clear_stage()
        self.lit_box = None
        n = len(self.sat.get("d_ks"))
        head = label("Why divide by √dₖ?", font_size=typography.HEADING_SIZE, bold=True).to_edge(UP, buff=0.3)
        charts = [[self._layout_chart(i, scaled) for i in range(n)] for scaled in (False, True)]
        grid = VGroup(*(VGroup(*row).arrange(RIGHT, buff=0.7, aligned_edge=DOWN) for row in charts))
        grid.arrange(DOWN, buff=0.55)
        row_names = VGroup(math('op("softmax")(q dot k)', font_size=typography.LABEL_SIZE + 4),
                           math('op("softmax")((q dot k) / sqrt(d_k))', font_size=typography.LABEL_SIZE + 4))
        for name, row in zip(row_names, grid):
            name.next_to(row, LEFT, buff=0.5)
        headers = VGroup()
        for i, chart in enumerate(charts[0]):
            d = self.sat.number(f"cases.{i}.d_k", decimals=0, font_size=typography.BODY_SIZE)
            header = VGroup(math("d_k =", font_size=typography.BODY_SIZE + 4), d).arrange(RIGHT, buff=0.15)
            header.next_to(chart, UP, buff=0.3).align_to(grid[0], UP).shift(UP * 0.65)
            headers.add(header)
        VGroup(grid, row_names, headers).next_to(head, DOWN, buff=0.65)
        self.play(FadeIn(head), FadeIn(row_names), FadeIn(headers), run_time=1.0)
        self.wait(1.5)
        self.say("Top row: softmax of the raw dot products. Bottom row: divided by √d_k first.")
        self.wait(3.0)
        self.charts, self.headers, self.head = charts, headers, head

    def _layout_chart(self, i: int, scaled: bool) -> VGroup:
        """One small bar chart (no numbers on the bars) plus its traced max weight underneath."""
        kind = "scaled" if scaled else "unscaled"
        keys = self.sat.get("n_keys")
        bars = SoftmaxBars(self.sat, f"cases.{i}.{kind}_weights", [f"k{subscript(j + 1)}" for j in range(keys)],
                           max_height=1.9, bar_width=0.3, buff=0.14, label_color=palette.KEY)
        bars.remove(bars.values)
        top = max(bars.bars, key=lambda b: b.height)
        top.set_fill(palette.QUERY)
        peak = VGroup(label("max", font_size=typography.SMALL_SIZE, color=palette.MUTED),
                      self.sat.number(f"cases.{i}.{kind}_max", decimals=2, font_size=typography.SMALL_SIZE))
        peak.arrange(RIGHT, buff=0.12).next_to(bars.labels, DOWN, buff=0.15)
        chart = VGroup(bars, peak)
        chart.bars_only = bars
        chart.peak = peak
        return chart

    @beat
    def saturation_grows_with_d_k(self):
        """Column by column: raw dot products grow like √dₖ, so the unscaled softmax turns one-hot."""
        n = len(self.sat.get("d_ks"))
        previous = None  # the raw scores of the column before
        for i in range(n):
            d = self.sat.get("d_ks")[i]
            raw = format_value(self.sat.value(f"cases.{i}.unscaled_max"), 2)
            scaled = format_value(self.sat.value(f"cases.{i}.scaled_max"), 2)
            scores = self.sat.get(f"cases.{i}.unscaled_scores")
            low, high = format_value(float(scores.min()), 2), format_value(float(scores.max()), 2)
            # the raw range is in the caption only (no bar shows it), so the narration says how it changed
            spread = float(scores.max() - scores.min())
            wider = previous is not None and spread > float(previous.max() - previous.min())
            self.say(f"d_k = {d}: raw dot products from {low} to {high}; the largest weight is {raw} "
                     f"without the scale, {scaled} with it.",
                     narration=f"At d_k = {d}{', the raw dot products spread wider, and' if wider else ','} the "
                               f"largest weight is {raw} without the scale, {scaled} with it.")
            previous = scores
            top, bottom = self.charts[0][i], self.charts[1][i]
            self.play(Indicate(self.headers[i], color=palette.QUERY, scale_factor=1.1),
                      *(FadeIn(VGroup(c.bars_only.baseline, c.bars_only.labels)) for c in (top, bottom)),
                      *(GrowFromEdge(b, DOWN) for c in (top, bottom) for b in c.bars_only.bars), run_time=1.2)
            self.play(FadeIn(top.peak), FadeIn(bottom.peak), run_time=0.5)
            self.wait(2.8)

    @beat
    def scale_keeps_it_spread(self):
        """The takeaway: near one-hot weights mean vanishing gradients; √dₖ keeps the softmax spread out."""
        last = len(self.sat.get("d_ks")) - 1
        boxes = VGroup(frame_box(self.charts[0][last], color=palette.WRONG),
                       frame_box(self.charts[1][last], color=palette.RIGHT))
        case = f"cases.{last}"
        self.say(f"Nearly one-hot weights leave almost no gradient: at d_k = {self.sat.get(case + '.d_k')} the "
                 f"softmax Jacobian norm is {format_value(self.sat.value(case + '.unscaled_grad_norm'), decimals=5)} "
                 f"unscaled, {format_value(self.sat.value(case + '.scaled_grad_norm'), 2)} scaled.",
                 narration=f"Nearly one-hot weights leave almost no gradient. At d_k = {self.sat.get(case + '.d_k')}, "
                           "the softmax's gradient all but vanishes without the scale, and survives with it.")
        self.play(Create(boxes[0]), run_time=0.7)
        self.wait(3.5)
        self.say("Dividing by √d_k keeps the scores in a sensible range, so the weights stay spread out "
                 "and trainable.")
        self.play(Create(boxes[1]), run_time=0.7)
        self.wait(2.6)
