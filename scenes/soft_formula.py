"""Soft attention in one formula: each term lights up as the coffee picture it names comes back.

Follows "Soft attention in one formula": e_{t,i} = score(q_t, h_i), α_{t,i} = softmax, c_t = Σ α_{t,i} h_i,
then the two common score functions (dot product, small MLP over [q; h_i]) side by side on the same q and
h_i, and the closing point that score → normalise → weighted sum is the pattern self-attention reuses.
"""

from __future__ import annotations

from manim import (
    DOWN, LEFT, RIGHT, UP, Create, FadeIn, FadeOut, GrowFromEdge, Indicate, Line, ReplacementTransform,
    RoundedRectangle, TransformFromCopy, VGroup, Write,
)

from scenes.kit import (
    AttentionScene, Source, SoftmaxBars, agreeing_top, beat, caption_brace, flow_arrow, format_value, frame_box,
    heatmap, label, math, palette, token_box, top_token, typography, vector,
)

FORMULA = (
    '{{ e_(t,i) = op("score")({{ q_t : q }}, {{ h_i : h1 }}) : score }}, quad '
    '{{ {{ alpha_(t,i) : a1 }} = exp(e_(t,i)) / (sum_j exp(e_(t,j))) : softmax }}, quad '
    '{{ {{ c_t : c }} = sum_i {{ alpha_(t,i) : a2 }} {{ h_i : h2 }} : context }}'
)
OPERATOR_SIZE = typography.NUMBER_SIZE


def _op(symbol: str, color=palette.TEXT):
    return math(symbol, font_size=OPERATOR_SIZE, color=color)


def _caption_list(src: Source, path: str, decimals: int = 2) -> str:
    """"0.73 / 0.35 / 1.35" formatted from the source, for a subcaption."""
    return " / ".join(format_value(v, decimals) for v in src.get(path).tolist())


def _spoken_list(src: Source, path: str, decimals: int = 2) -> str:
    """"0.73, 0.35 and 1.35": the same numbers as `_caption_list`, as a narrator lists them."""
    values = [format_value(v, decimals) for v in src.get(path).tolist()]
    return ", ".join(values[:-1]) + " and " + values[-1]


def _formula():
    """The three-part formula with its roles coloured (q yellow, h teal, α violet, c green)."""
    eq = math(FORMULA, font_size=typography.BODY_SIZE + 10)
    eq.select("q").set_color(palette.QUERY)
    for name in ("h1", "h2"):
        eq.select(name).set_color(palette.KEY)
    for name in ("a1", "a2"):
        eq.select(name).set_color(palette.WEIGHT)
    eq.select("c").set_color(palette.CONTEXT)
    return eq


def _score_panel(src: Source, title: str, expression: str, scores: str, weights: str, tokens: list[str]):
    """One score function: its name, its formula, the scores it gives (shaded) and the softmax bars."""
    heading_text = label(title, bold=True)
    formula = math(expression, font_size=typography.BODY_SIZE + 4)
    bars = SoftmaxBars(src, weights, tokens, max_height=3.0, bar_width=0.8, buff=0.5)
    pitch = bars.bars[1].get_center()[0] - bars.bars[0].get_center()[0]
    score_row = heatmap(src, scores, weights=False, cell_width=pitch, cell_size=0.6)
    score_row.match_x(bars.bars)
    score_name = math("e_i", font_size=typography.BODY_SIZE).next_to(score_row, LEFT, buff=0.25)
    alpha_name = math("alpha_i", font_size=typography.BODY_SIZE, color=palette.WEIGHT)
    scores_group = VGroup(score_row, score_name)
    body = VGroup(scores_group, bars).arrange(DOWN, buff=0.55)
    alpha_name.next_to(bars.bars, LEFT, buff=0.25).match_x(score_name)
    weights_group = VGroup(bars, alpha_name)
    panel = VGroup(heading_text, formula, VGroup(scores_group, weights_group)).arrange(DOWN, buff=0.35)
    panel.scores_group, panel.weights_group, panel.bars = scores_group, weights_group, bars
    panel.formula, panel.heading = formula, heading_text
    return panel


class SoftFormulaScene(AttentionScene):
    scene_id = "soft_formula"

    def construct(self):
        self.src = Source("coffee")
        self.tokens = list(self.src.get("tokens"))
        self.show_title()
        self.the_formula()
        self.score_term()
        self.normalise_term()
        self.weighted_sum_term()
        self.dot_vs_additive()
        self.same_pattern_as_self_attention()

    # --- beats -----------------------------------------------------------------------------------------------
    @beat
    def the_formula(self):
        """The post's formula, its three parts named."""
        eq = _formula().move_to(UP * 0.8)
        floor = eq.get_bottom()[1]

        def under(part):  # a span at the formula's lowest point, so the three braces share one line
            return Line([part.get_left()[0], floor, 0], [part.get_right()[0], floor, 0])

        braces = VGroup(*(caption_brace(under(eq.select(name)), text) for name, text in (
            ("score", "score"), ("softmax", "normalise"), ("context", "weighted sum"))))
        self.say("Given encoder states h_1 … h_T and a decoder query q_t, soft attention is one line.")
        self.play(Write(eq), run_time=2.0)
        self.wait(0.8)
        self.say("Three parts: score every English position, normalise the scores, take a weighted sum.")
        self.play(FadeIn(braces, lag_ratio=0.4), run_time=1.5)
        self.wait(1.0)
        self.say("t is the decoder step (here: about to predict café); i runs over the English words.",
                 narration="The index t is the decoder step, here the step about to predict café, and i runs over "
                           "the English words.")
        self.wait(2.5)
        self.play(FadeOut(braces), eq.animate.to_edge(UP, buff=0.4), run_time=0.8)
        self.eq = eq

    @beat
    def score_term(self):
        """e_{t,i}: one number per English word, here the coffee dot products."""
        src, tokens, eq = self.src, self.tokens, self.eq
        box = frame_box(eq.select("score"), color=palette.QUERY, buff=0.12)
        scores = heatmap(src, "scores", weights=False, orientation="column", cell_size=0.8)
        query = vector(src, "q", decimals=1, color=palette.QUERY)
        q_name = math("q_t =", font_size=typography.BODY_SIZE, color=palette.QUERY)
        q_row = VGroup(q_name, query).arrange(RIGHT, buff=0.2)
        rows = VGroup()
        for i, token in enumerate(tokens):
            name = math(f"h_{i + 1}", font_size=typography.BODY_SIZE, color=palette.KEY)
            rows.add(VGroup(token_box(token, palette.ENGLISH), name,
                            vector(src, f"H.{i}", decimals=1, color=palette.KEY)).arrange(RIGHT, buff=0.25))
        for word, name, h in rows:
            VGroup(name, h).align_to(rows[0][1], LEFT)
        scores.next_to(rows, RIGHT, buff=2.0)
        for i, row in enumerate(rows):
            row.match_y(scores.cell(i))
        for word, name, h in rows:
            word.next_to(name, LEFT, buff=0.25)
        q_row.next_to(rows, UP, buff=0.45).align_to(rows[0][1], LEFT)
        arrows = VGroup(*(flow_arrow(row, scores.cell(i)) for i, row in enumerate(rows)))
        e_name = math("e_(t,i)", font_size=typography.BODY_SIZE).next_to(scores, UP, buff=0.25)
        picture = VGroup(q_row, rows, arrows, scores, e_name).move_to(DOWN * 0.9)

        self.say("score(q_t, h_i) compares the query with each encoder vector: one number per English word.",
                 narration="The score compares the query q_t with each encoder vector h_i, giving one number per "
                           "English word.")
        self.play(Create(box), run_time=0.8)
        self.play(FadeIn(q_row), FadeIn(rows, lag_ratio=0.2), run_time=1.2)
        self.play(Create(arrows, lag_ratio=0.3), run_time=1.0)
        self.play(FadeIn(e_name), FadeIn(scores, lag_ratio=0.3), run_time=1.2)
        best = int(src.get("scores").argmax())
        self.say(f"With the dot product, the coffee example gives e = {_caption_list(src, 'scores')}: "
                 f"{tokens[best]} highest.",
                 narration=f"With the dot product, the coffee example scores {_spoken_list(src, 'scores')}: "
                           f"{tokens[best]} highest.")
        self.play(Indicate(scores.cell(best), color=palette.QUERY), run_time=1.0)
        self.wait(1.5)
        self.box, self.scores, self.picture = box, scores, picture

    @beat
    def normalise_term(self):
        """α_{t,i}: the softmax turns the scores into weights that sum to one."""
        src, tokens, eq = self.src, self.tokens, self.eq
        box = frame_box(eq.select("softmax"), color=palette.WEIGHT, buff=0.12)
        q_row, rows, arrows, scores, e_name = self.picture
        bars = SoftmaxBars(src, "weights", tokens, max_height=3.0, bar_width=0.8, buff=0.5)
        bars.move_to(RIGHT * 3.2 + DOWN * 1.1)
        alpha_name = math("alpha_(t,i)", font_size=typography.BODY_SIZE, color=palette.WEIGHT)
        alpha_name.next_to(bars, UP, buff=0.3)

        self.say("Normalise: exponentiate each score and divide by the sum, so the weights sum to one.")
        self.play(ReplacementTransform(self.box, box), FadeOut(q_row), FadeOut(rows), FadeOut(arrows), run_time=1.0)
        target = VGroup(scores, e_name).copy().move_to(LEFT * 3.5)
        target.shift(UP * (bars.bars.get_center()[1] - target[0].get_center()[1]))
        self.play(VGroup(scores, e_name).animate.move_to(target), run_time=0.8)
        arrow = flow_arrow(scores, bars.bars)
        arrow_name = label("softmax", font_size=typography.SMALL_SIZE, color=palette.WEIGHT)
        arrow_name.next_to(arrow, UP, buff=0.15)
        self.play(Create(arrow), FadeIn(arrow_name), Create(bars.baseline), FadeIn(bars.labels), run_time=0.8)
        self.play(*(GrowFromEdge(bar, DOWN) for bar in bars.bars), FadeIn(alpha_name), run_time=1.2)
        self.play(FadeIn(bars.values, shift=UP * 0.1), run_time=0.6)
        most = top_token(tokens, src.get("weights"))
        most_text = f", {most} the most." if most else "."
        self.say(f"α ≈ {_caption_list(src, 'weights')}: every word keeps some weight{most_text}",
                 narration=f"The weights come out at {_spoken_list(src, 'weights')}: every word keeps some "
                           f"weight{most_text}")
        self.wait(2.0)
        self.box, self.bars = box, bars
        self.stage = VGroup(scores, e_name, arrow, arrow_name, alpha_name)

    @beat
    def weighted_sum_term(self):
        """c_t: each encoder vector scaled by its weight, then added."""
        src, tokens, eq, bars = self.src, self.tokens, self.eq, self.bars
        box = frame_box(eq.select("context"), color=palette.CONTEXT, buff=0.12)
        rows = VGroup()
        for i in range(len(tokens)):
            alpha = src.number("weights", i, decimals=2, color=palette.WEIGHT)
            h = vector(src, f"H.{i}", decimals=1, color=palette.KEY)
            part = vector(src, f"weighted_h.{i}", decimals=2)
            rows.add(VGroup(alpha, _op("dot"), h, _op("="), part).arrange(RIGHT, buff=0.2))
        rows.arrange(DOWN, buff=0.25, aligned_edge=LEFT)
        parts = VGroup(*(row[-1] for row in rows))
        rule = Line(parts.get_left() + LEFT * 0.1, parts.get_right() + RIGHT * 0.1, stroke_color=palette.MUTED)
        rule.next_to(rows, DOWN, buff=0.15).match_x(parts)
        plus = _op("+").next_to(rule, LEFT, buff=0.2)
        context = vector(src, "context", decimals=2, color=palette.CONTEXT)
        context.next_to(rule, DOWN, buff=0.15).match_x(parts)
        c_name = math("c_t =", font_size=typography.BODY_SIZE, color=palette.CONTEXT).next_to(context, LEFT, buff=0.2)
        block = VGroup(rows, rule, plus, context, c_name).move_to(RIGHT * 2.4 + DOWN * 1.0)

        self.say("Weighted sum: scale each encoder vector h_i by its weight α_(t,i), then add them up.")
        self.play(ReplacementTransform(self.box, box), FadeOut(self.stage), run_time=0.8)
        self.play(bars.animate.next_to(block, LEFT, buff=0.9).align_to(block, DOWN), run_time=0.8)
        for i, row in enumerate(rows):
            alpha, dot, h, equals, part = row
            self.play(TransformFromCopy(bars.values[i], alpha), FadeIn(dot), FadeIn(h), run_time=0.7)
            self.play(FadeIn(equals), TransformFromCopy(VGroup(alpha, h), part), run_time=0.7)
        self.play(Create(rule), FadeIn(plus), run_time=0.4)
        self.play(TransformFromCopy(parts, context), FadeIn(c_name), run_time=1.0)
        c_text = ", ".join(format_value(v, 2) for v in src.get("context").tolist())
        self.say(f"c_t = ({c_text}): the context the decoder uses for this step.",
                 narration=f"The result, c_t = ({c_text}), is the context the decoder uses for this step.")
        self.play(Indicate(context, color=palette.CONTEXT), run_time=1.0)
        self.wait(1.5)

    @beat
    def dot_vs_additive(self):
        """The two common score functions on the same q and h_i, with their scores and weights."""
        src, tokens = self.src, self.tokens
        self.say("The score function is a choice. Two common ones: a dot product, or a small MLP over [q; h_i].",
                 narration="The score function is a choice. Two common ones: a dot product, or a small MLP applied "
                           "to q and h_i joined together.")
        self.clear_stage()
        dot = _score_panel(src, "dot product", "e_i = q^top h_i", "scores", "weights", tokens)
        mlp = _score_panel(src, "additive (small MLP)", "e_i = w_2^top tanh(W_1 [q; h_i] + b_1)",
                           "additive_scores", "additive_weights", tokens)
        dot.move_to(LEFT * 3.5 + UP * 0.3)
        mlp.move_to(RIGHT * 3.5).align_to(dot, UP)
        mlp.formula.match_y(dot.formula)
        mlp.scores_group.match_y(dot.scores_group)
        mlp.weights_group.shift(UP * (dot.bars.baseline.get_center()[1] - mlp.bars.baseline.get_center()[1]))
        untrained = label("seeded at random, not trained", font_size=typography.SMALL_SIZE, color=palette.MUTED)
        untrained.next_to(mlp.bars, DOWN, buff=0.35)
        divider = Line(UP * 3.4, DOWN * 3.4, stroke_color=palette.MUTED, stroke_width=1)

        self.play(FadeIn(dot.heading), Write(dot.formula), FadeIn(mlp.heading), Write(mlp.formula),
                  Create(divider), run_time=1.5)
        self.wait(0.8)
        self.say(f"Same q and h_i, different scores: dot product {_caption_list(src, 'scores')}, "
                 f"MLP {_caption_list(src, 'additive_scores')}.",
                 narration=f"Same q and h_i, different scores: the dot product gives {_spoken_list(src, 'scores')}; "
                           f"the MLP gives {_spoken_list(src, 'additive_scores')}.")
        for panel in (dot, mlp):
            self.play(FadeIn(panel.scores_group, lag_ratio=0.2), run_time=1.0)
        self.wait(1.0)
        first = agreeing_top(tokens, src.get("weights"), src.get("additive_weights"))
        verdict = f"Both put {first} first." if first else "They do not agree on which word comes first."
        self.say(f"Softmax weights: {_caption_list(src, 'weights')} versus {_caption_list(src, 'additive_weights')}. "
                 + verdict,
                 narration=f"After the softmax: {_spoken_list(src, 'weights')} for the dot product, versus "
                           f"{_spoken_list(src, 'additive_weights')} for the MLP. {verdict}")
        self.play(FadeIn(dot.weights_group), FadeIn(mlp.weights_group), run_time=1.2)
        self.wait(1.5)
        self.say("This MLP's W_1, b_1, w_2 are random, not trained, so its weights are flat; training shapes "
                 "any score function.")
        self.play(FadeIn(untrained), Indicate(mlp.bars.bars, color=palette.WEIGHT), run_time=1.2)
        self.wait(1.5)

    @beat
    def same_pattern_as_self_attention(self):
        """The closing point: score → normalise → weighted sum is what self-attention reuses."""
        self.say("score → normalise → weighted sum: the same pattern self-attention reuses inside Transformers.",
                 narration="Score, normalise, weighted sum: the same pattern that self-attention reuses inside "
                           "Transformers.")
        self.clear_stage()
        eq = _formula().to_edge(UP, buff=0.6)
        steps = VGroup()
        for text, color in (("score", palette.QUERY), ("normalise", palette.WEIGHT),
                            ("weighted sum", palette.CONTEXT)):
            word = label(text, font_size=typography.BODY_SIZE, color=color)
            frame = RoundedRectangle(corner_radius=0.12, width=word.width + 0.6, height=word.height + 0.5,
                                     stroke_color=color, stroke_width=2)
            steps.add(VGroup(frame, word.move_to(frame)))
        steps.arrange(RIGHT, buff=1.2).move_to(DOWN * 0.2)
        arrows = VGroup(flow_arrow(steps[0], steps[1]), flow_arrow(steps[1], steps[2]))
        links = VGroup(*(Line(eq.select(name).get_bottom() + DOWN * 0.1, step.get_top() + UP * 0.1,
                              stroke_color=palette.MUTED, stroke_width=1.5)
                         for name, step in zip(("score", "softmax", "context"), steps)))
        note = VGroup(
            label("The same pattern runs inside self-attention,", font_size=typography.BODY_SIZE),
            label("where every token is both a query source and a key/value source.",
                  font_size=typography.LABEL_SIZE, color=palette.MUTED),
        ).arrange(DOWN, buff=0.2).move_to(DOWN * 2.4)
        note.scale_to_fit_width(min(note.width, 12.8))

        self.play(FadeIn(eq), run_time=0.8)
        self.play(FadeIn(steps, lag_ratio=0.4), Create(links, lag_ratio=0.4), run_time=1.5)
        self.play(Create(arrows, lag_ratio=0.5), run_time=0.8)
        self.wait(1.0)
        self.say("In self-attention every token is both a query source and a key/value source.")
        self.play(FadeIn(note, shift=UP * 0.2), run_time=1.0)
        self.wait(2.5)
