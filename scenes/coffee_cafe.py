"""Coffee and café: the post's toy soft-attention step, every number computed.

Follows "Soft attention: use every encoder vector, not one summary": French so far → decoder state →
query q = W_q s_decoder → a dot-product score against every encoder vector h_i → softmax weights →
context c = Σ α_i h_i. It ends by setting the weights these toy scores really give beside the post's
illustrative trained outcome, each clearly labelled.
"""

from __future__ import annotations

from manim import (
    DOWN, LEFT, ORIGIN, RIGHT, UP, Create, FadeIn, FadeOut, GrowFromEdge, Indicate, Line,
    RoundedRectangle, TransformFromCopy, VGroup, Write,
)

from scenes.kit import (
    AttentionScene, Source, SoftmaxBars, TokenRow, agreeing_top, beat, flow_arrow, format_value, frame_box,
    label, math, matrix, palette, token_box, top_token, typography, vector,
)

OPERATOR_SIZE = typography.NUMBER_SIZE


def _op(symbol: str, color=palette.TEXT):
    """An operator glyph (+, =, ·) at the size of the numbers around it."""
    return math(symbol, font_size=OPERATOR_SIZE, color=color)


def _product(src: Source, left: tuple[str, tuple], right: tuple[str, tuple], left_color, right_color):
    """"a · b" from two traced inputs (one decimal, as the post prints them)."""
    a = src.number(left[0], left[1], decimals=1, color=left_color)
    b = src.number(right[0], right[1], decimals=1, color=right_color)
    return VGroup(a, _op("dot"), b).arrange(RIGHT, buff=0.06)


def _head(name: str, color=palette.TEXT):
    """"q_1 =" as one formula whose "=" can be lined up with the other "=" signs of its line."""
    return math(name + " {{ = : eq }}", font_size=OPERATOR_SIZE, color=color)


def _level_head(head, reference) -> None:
    """Shift a `_head` vertically so its "=" sits on the same height as `reference` (another "=")."""
    head.shift(UP * (reference.get_center()[1] - head.select("eq").get_center()[1]))


def _query_row(src: Source) -> VGroup:
    """"q = [0.9 0.1 0.8]" in the query colour."""
    query = vector(src, "q", decimals=1, color=palette.QUERY)
    name = _head("q", palette.QUERY)
    group = VGroup(name, query).arrange(RIGHT, buff=0.2)
    _level_head(name, query)
    return group


def _joined(parts: list, symbol: str = "+") -> VGroup:
    """parts separated by an operator, laid out left to right."""
    row = VGroup()
    for k, part in enumerate(parts):
        if k:
            row.add(_op(symbol))
        row.add(part)
    return row.arrange(RIGHT, buff=0.14)


def _layout_pace(row: int) -> float:
    """Time factor for a repeated step: the first row slowly, the rest faster once the pattern is clear."""
    return 1.0 if row == 0 else 0.65


def _caption_list(src: Source, path: str, decimals: int = 2) -> str:
    """"0.28 / 0.19 / 0.52" formatted from the source, for a subcaption."""
    return " / ".join(format_value(v, decimals) for v in src.get(path).tolist())


def _spoken_list(src: Source, path: str, decimals: int = 2) -> str:
    """"0.28, 0.19 and 0.52": the same numbers as `_caption_list`, as a narrator lists them."""
    values = [format_value(v, decimals) for v in src.get(path).tolist()]
    return ", ".join(values[:-1]) + " and " + values[-1]


def _per_word(src: Source, path: str, tokens: list[str], decimals: int = 2) -> str:
    """"0.28 for I, 0.19 for love and 0.52 for coffee": each traced value with the word it belongs to."""
    parts = [f"{format_value(src.value(path, i), decimals)} for {token}" for i, token in enumerate(tokens)]
    return ", ".join(parts[:-1]) + " and " + parts[-1]


class CoffeeCafeScene(AttentionScene):
    scene_id = "coffee_cafe"

    def construct(self):
        self.src = Source("coffee")
        self.show_title()
        self.french_so_far_to_decoder_state()
        self.state_to_query()
        self.query_is_not_a_word()
        self.score_each_encoder_vector()
        self.softmax_to_weights()
        self.context_is_a_weighted_sum()
        self.computed_vs_illustrative()

    # --- beats -----------------------------------------------------------------------------------------------
    @beat
    def french_so_far_to_decoder_state(self):
        """The query starts from the French already produced, not from any English word."""
        src = self.src
        french = list(src.get("french_so_far"))
        words = TokenRow(french, palette.FRENCH)
        blank = token_box("?", palette.MUTED)
        sentence = VGroup(words, blank).arrange(RIGHT, buff=0.2)
        sentence_title = label("French so far", font_size=typography.SMALL_SIZE, color=palette.MUTED)
        decoder = VGroup(
            RoundedRectangle(corner_radius=0.15, width=2.2, height=1.1, stroke_color=palette.MUTED,
                             fill_color=palette.BACKGROUND, fill_opacity=1),
            label("decoder", color=palette.TEXT),
        )
        state = vector(src, "s_decoder", orientation="column", decimals=1)
        state_name = math('s_"decoder"', font_size=typography.BODY_SIZE)
        chain = VGroup(sentence, decoder, state).arrange(RIGHT, buff=1.1).move_to(UP * 0.3)
        sentence_title.next_to(sentence, UP, buff=0.3)
        state_name.next_to(state, UP, buff=0.25)
        to_decoder = flow_arrow(sentence, decoder)
        to_state = flow_arrow(decoder, state)
        kinds = VGroup(
            label("(tokens)", font_size=typography.SMALL_SIZE, color=palette.MUTED).next_to(sentence, DOWN, buff=0.5),
            label("(a vector)", font_size=typography.SMALL_SIZE, color=palette.MUTED).next_to(state, DOWN, buff=0.3),
        )
        kinds[0].match_y(kinds[1])

        self.say(f"French so far: “{' '.join(french)}”. We are about to predict the next word.")
        self.play(FadeIn(sentence_title), FadeIn(words, lag_ratio=0.3), FadeIn(blank), run_time=1.5)
        self.wait(0.8)
        self.say("The decoder reads that French and keeps a hidden state: s_decoder, a vector of numbers.",
                 narration="The decoder reads that French and sums it up in a hidden state, s_decoder: not words "
                           "any more, just a vector of numbers.")
        self.play(Create(to_decoder), FadeIn(decoder), run_time=1.0)
        self.play(Create(to_state), FadeIn(state), Write(state_name), run_time=1.2)
        self.play(FadeIn(kinds), run_time=0.6)
        self.wait(1.5)

    @beat
    def state_to_query(self):
        """q = W_q s_decoder, each entry a row of W_q times s, using the per-term products."""
        src = self.src
        n = src.shape("q")[0]
        wq = matrix(src, "W_q", decimals=1)
        state = vector(src, "s_decoder", orientation="column", decimals=1)
        query = vector(src, "q", orientation="column", decimals=1, color=palette.QUERY)
        product = VGroup(wq, state, _op("="), query).arrange(RIGHT, buff=0.3).to_edge(UP, buff=0.9)
        names = VGroup(
            math("W_q", font_size=typography.BODY_SIZE).next_to(wq, UP, buff=0.2),
            math('s_"decoder"', font_size=typography.BODY_SIZE).next_to(state, UP, buff=0.2),
            math("q", font_size=typography.BODY_SIZE, color=palette.QUERY).next_to(query, UP, buff=0.2),
        )
        query_numbers = VGroup(*(query.cell(r) for r in range(n)))

        self.say("A learned linear map turns the state into a query: q = W_q s_decoder.",
                 narration="A learned linear map turns that state into a query: q is the matrix W_q times "
                           "s_decoder.")
        self.clear_stage()
        self.play(FadeIn(wq), FadeIn(state), FadeIn(product[2]), FadeIn(query.brackets), FadeIn(names),
                  run_time=1.2)
        self.wait(0.6)

        self.say("One row at a time: multiply a row of W_q by s_decoder entry by entry, then add.")
        lines = VGroup()
        for r in range(n):
            products = [_product(src, ("W_q", (r, c)), ("s_decoder", (c,)), palette.TEXT, palette.TEXT)
                        for c in range(n)]
            terms = [src.number("q_terms", (r, c), decimals=2) for c in range(n)]
            result = src.number("q", r, decimals=1, color=palette.QUERY)
            head = _head(f"q_{r + 1}", palette.QUERY)
            line = VGroup(head, _joined(products), _op("="), _joined(terms), _op("="), result)
            line.arrange(RIGHT, buff=0.18)
            _level_head(head, line[2])
            lines.add(line)
        lines.arrange(DOWN, buff=0.4, aligned_edge=LEFT).next_to(product, DOWN, buff=0.7)
        VGroup(product, names, lines).move_to(ORIGIN)
        for r, line in enumerate(lines):
            head, products, eq1, terms, eq2, result = line
            row_box = frame_box(wq.row(r), color=palette.QUERY)
            col_box = frame_box(state.body, color=palette.QUERY)
            slow = _layout_pace(r)
            self.play(Create(row_box), Create(col_box), FadeIn(head), run_time=0.6 * slow)
            self.play(FadeIn(products, lag_ratio=0.3), run_time=1.2 * slow)
            self.play(FadeIn(eq1), TransformFromCopy(products, terms), run_time=1.0 * slow)
            self.play(FadeIn(eq2), FadeIn(result), TransformFromCopy(result, query_numbers[r]), run_time=1.0 * slow)
            self.play(FadeOut(row_box), FadeOut(col_box), run_time=0.3)
        q_text = ", ".join(format_value(v, 1) for v in src.get("q").tolist())
        self.say(f"So q = ({q_text}).")
        self.play(Indicate(query, color=palette.QUERY), run_time=1.0)
        self.wait(1.2)

    @beat
    def query_is_not_a_word(self):
        """The post's warning: q is a scoring vector, not café and not a guess of it."""
        src = self.src
        q_group = _query_row(src)
        differs = math("!=", font_size=typography.HEADING_SIZE, color=palette.WRONG)
        word = token_box(src.get("next_word"), palette.FRENCH, font_size=typography.HEADING_SIZE)
        VGroup(q_group, differs, word).arrange(RIGHT, buff=0.6).move_to(UP * 2.3)
        not_word = label("not the word café, not a guess of it", font_size=typography.SMALL_SIZE,
                         color=palette.WRONG).next_to(VGroup(q_group, word), DOWN, buff=0.4)
        purpose = label("a vector used to score encoder vectors", font_size=typography.SMALL_SIZE,
                        color=palette.QUERY).next_to(q_group, DOWN, buff=0.35)

        self.say("q is not the word café, and not a guess of it.")
        self.clear_stage()
        self.play(FadeIn(q_group), FadeIn(word), run_time=1.0)
        self.play(FadeIn(differs), FadeIn(not_word), run_time=1.0)
        self.wait(1.0)
        self.say("It is a vector of coordinates whose only job is to score encoder vectors.")
        self.play(FadeOut(differs), FadeOut(word), FadeOut(not_word), run_time=0.5)
        self.play(q_group.animate.move_to(UP * 2.3), run_time=0.6)
        purpose.next_to(q_group, DOWN, buff=0.35)
        self.play(FadeIn(purpose), run_time=0.8)
        self.wait(1.0)

        tokens = list(src.get("tokens"))
        encoder_rows = VGroup()
        for i, token in enumerate(tokens):
            name = math(f"h_{i + 1}", font_size=typography.BODY_SIZE, color=palette.KEY)
            word_box = token_box(token, palette.ENGLISH)
            row = vector(src, f"H.{i}", decimals=1, color=palette.KEY)
            encoder_rows.add(VGroup(word_box, name, row).arrange(RIGHT, buff=0.3))
        encoder_rows.arrange(DOWN, buff=0.3)
        for word_box, name, row in encoder_rows:  # names and vectors in columns, words right-aligned
            VGroup(name, row).align_to(encoder_rows[0][1], LEFT)
            word_box.next_to(name, LEFT, buff=0.3)
        role = label("encoder vectors: they play the key/value role", font_size=typography.SMALL_SIZE,
                     color=palette.KEY)
        VGroup(role, encoder_rows).arrange(DOWN, buff=0.35).move_to(DOWN * 1.5)
        self.say("The encoder kept one vector per English word: h_1, h_2, h_3. They play the key/value role.",
                 narration="Meanwhile the encoder kept one vector per English word: h_1, h_2 and h_3. They are what "
                           "the query will be scored against.")
        self.play(FadeIn(encoder_rows, lag_ratio=0.3), FadeIn(role), run_time=1.5)
        self.wait(1.5)

    @beat
    def score_each_encoder_vector(self):
        """e_i = q · h_i, term by term, for every English position; coffee scores highest."""
        src = self.src
        tokens = list(src.get("tokens"))
        n = len(tokens)
        d = src.shape("q")[0]
        formula = math("e_i = {{ q : q }}^top {{ h_i : h }}", font_size=typography.BODY_SIZE)
        formula.select("q").set_color(palette.QUERY)
        formula.select("h").set_color(palette.KEY)
        top = VGroup(_query_row(src), formula).arrange(RIGHT, buff=1.5)
        top.to_edge(UP, buff=0.5)

        rows = VGroup()
        for i, token in enumerate(tokens):
            word_box = token_box(token, palette.ENGLISH)
            h = vector(src, f"H.{i}", decimals=1, color=palette.KEY)
            products = [_product(src, ("q", (k,)), ("H", (i, k)), palette.QUERY, palette.KEY) for k in range(d)]
            expr = _joined(products)
            terms = VGroup(*(src.number("score_terms", (i, k), decimals=2, font_size=typography.SMALL_SIZE,
                                        color=palette.MUTED).next_to(products[k], DOWN, buff=0.12)
                             for k in range(d)))
            head = _head(f"e_{i + 1}")
            result = src.number("scores", i, decimals=2)
            equals = _op("=")
            row = VGroup(word_box, h, head, expr, equals, result).arrange(RIGHT, buff=0.25)
            _level_head(head, equals)
            for k in range(d):
                terms[k].next_to(products[k], DOWN, buff=0.12)
            rows.add(VGroup(row, terms, VGroup(*products)))
        rows.arrange(DOWN, buff=0.45).next_to(top, DOWN, buff=0.6)
        for row, _, _ in rows:  # line the columns up
            row[1:].align_to(rows[0][0][1], LEFT)
        VGroup(top, rows).move_to(DOWN * 0.1)

        self.say("Score each English position with a dot product: e_i = q · h_i.",
                 narration="Now score each English position with a dot product: the score e_i is q dotted with h_i.")
        self.clear_stage()
        self.play(FadeIn(top), FadeIn(VGroup(*(r[0][:2] for r in rows)), lag_ratio=0.2), run_time=1.2)
        self.wait(0.4)
        self.say("Multiply q and h_i entry by entry, then add the three products.")
        for i, (row, terms, products) in enumerate(rows):
            word_box, h, head, expr, eq, result = row
            slow = _layout_pace(i)
            box = frame_box(VGroup(word_box, h), color=palette.KEY)
            self.play(Create(box), FadeIn(head), run_time=0.5 * slow)
            self.play(FadeIn(expr, lag_ratio=0.3), run_time=1.2 * slow)
            self.play(TransformFromCopy(products, terms), run_time=0.8 * slow)
            self.play(FadeIn(eq), FadeIn(result, shift=RIGHT * 0.2), FadeOut(box), run_time=0.8 * slow)
        best = int(src.get("scores").argmax())
        best_box = frame_box(rows[best][0][-1], color=palette.QUERY)
        highest = label("highest", font_size=typography.SMALL_SIZE, color=palette.QUERY)
        highest.next_to(best_box, RIGHT, buff=0.2)
        self.say(f"{tokens[best].capitalize()} scores highest: e_{best + 1} = "
                 f"{format_value(src.value('scores', best), 2)}.")
        self.play(Create(best_box), FadeIn(highest), run_time=0.8)
        self.wait(1.5)

    @beat
    def softmax_to_weights(self):
        """Softmax turns the three scores into weights that sum to 1."""
        src = self.src
        tokens = list(src.get("tokens"))
        n = len(tokens)
        scores = VGroup()
        for i in range(n):
            name = _head(f"e_{i + 1}")
            value = src.number("scores", i, decimals=2)
            row = VGroup(label(tokens[i], color=palette.ENGLISH), name, value).arrange(RIGHT, buff=0.2)
            _level_head(name, value)
            scores.add(row)
        scores.arrange(DOWN, buff=0.5, aligned_edge=RIGHT)
        formula = math("{{ alpha_i : alpha }} = exp(e_i) / (sum_j exp(e_j))", font_size=typography.BODY_SIZE + 2)
        formula.select("alpha").set_color(palette.WEIGHT)
        formula.to_edge(UP, buff=0.5)
        bars = SoftmaxBars(src, "weights", tokens, max_height=3.6, bar_width=0.9, buff=0.6)
        bars.move_to(RIGHT * 2.8 + DOWN * 0.5)
        scores.move_to(LEFT * 4.2).match_y(bars.bars)
        arrow = flow_arrow(scores, bars.bars).match_y(scores)
        arrow_name = label("softmax", font_size=typography.SMALL_SIZE, color=palette.WEIGHT)
        arrow_name.next_to(arrow, UP, buff=0.15)
        alpha_name = math("alpha_i", font_size=typography.BODY_SIZE, color=palette.WEIGHT)
        alpha_name.next_to(bars.values, UP, buff=0.25).match_x(bars)

        self.say("Softmax turns the scores into weights α_i: all positive, summing to one.")
        self.clear_stage()
        self.play(FadeIn(scores, lag_ratio=0.2), Write(formula), run_time=1.5)
        self.play(Create(arrow), FadeIn(arrow_name), run_time=0.7)
        self.play(Create(bars.baseline), FadeIn(bars.labels), run_time=0.5)
        self.play(*(GrowFromEdge(bar, DOWN) for bar in bars.bars), FadeIn(alpha_name), run_time=1.2)
        self.play(FadeIn(bars.values, shift=UP * 0.1), run_time=0.6)
        best = int(src.get("weights").argmax())
        self.say(f"These scores give α ≈ {_caption_list(src, 'weights')}: {tokens[best]} gets the most weight.",
                 narration=f"The weights come out at {_per_word(src, 'weights', tokens)}: {tokens[best]} gets the "
                           "most weight.")
        self.play(Indicate(bars.bars[best], color=palette.WEIGHT), run_time=1.0)
        self.wait(1.5)

    @beat
    def context_is_a_weighted_sum(self):
        """c = Σ α_i h_i: every encoder vector scaled by its weight, then added."""
        src = self.src
        tokens = list(src.get("tokens"))
        formula = math("{{ c : c }} = sum_i {{ alpha_i : alpha }} {{ h_i : h }}", font_size=typography.BODY_SIZE + 2)
        formula.select("c").set_color(palette.CONTEXT)
        formula.select("alpha").set_color(palette.WEIGHT)
        formula.select("h").set_color(palette.KEY)
        formula.to_edge(UP, buff=0.5)
        rows = VGroup()
        for i, token in enumerate(tokens):
            word = label(token, color=palette.ENGLISH)
            alpha = src.number("weights", i, decimals=2, color=palette.WEIGHT)
            h = vector(src, f"H.{i}", decimals=1, color=palette.KEY)
            part = vector(src, f"weighted_h.{i}", decimals=2)
            rows.add(VGroup(word, alpha, _op("dot"), h, _op("="), part).arrange(RIGHT, buff=0.25))
        rows.arrange(DOWN, buff=0.3)
        for row in rows:
            row[1:].align_to(rows[0][1], LEFT)
            row[0].next_to(row[1], LEFT, buff=0.35)
        parts = VGroup(*(row[-1] for row in rows))
        rule = Line(parts.get_left() + LEFT * 0.1, parts.get_right() + RIGHT * 0.1, stroke_color=palette.MUTED)
        context = vector(src, "context", decimals=2, color=palette.CONTEXT)
        c_name = math("c =", font_size=typography.BODY_SIZE, color=palette.CONTEXT)
        plus = _op("+").next_to(rule, LEFT, buff=0.2)
        block = VGroup(rows, rule, context, c_name, plus)
        rule.next_to(rows, DOWN, buff=0.2).align_to(parts, LEFT).shift(LEFT * 0.1)
        plus.next_to(rule, LEFT, buff=0.2)
        context.next_to(rule, DOWN, buff=0.2).align_to(parts, LEFT)
        c_name.next_to(context, LEFT, buff=0.2)
        block.next_to(formula, DOWN, buff=0.5)
        VGroup(formula, block).move_to(ORIGIN)

        self.say("The context vector is the weighted sum c = Σ α_i h_i.",
                 narration="The context vector c is the weighted sum: every h_i times its weight α_i, all added up.")
        self.clear_stage()
        self.play(Write(formula), run_time=1.0)
        self.play(FadeIn(VGroup(*(row[:-2] for row in rows)), lag_ratio=0.2), run_time=1.2)
        self.say("Scale each encoder vector by its weight…")
        for word, alpha, dot, h, equals, part in rows:
            self.play(FadeIn(equals), TransformFromCopy(VGroup(alpha, h), part), run_time=0.9)
        largest = top_token(tokens, src.get("weighted_h").norm(dim=-1))
        self.say("…then add the scaled vectors" + (f": {largest}'s vector contributes the most." if largest else "."))
        self.play(Create(rule), FadeIn(plus), run_time=0.5)
        self.play(TransformFromCopy(parts, context), FadeIn(c_name), run_time=1.2)
        self.play(Indicate(context, color=palette.CONTEXT), run_time=0.8)
        self.wait(1.5)

    @beat
    def computed_vs_illustrative(self):
        """Honesty: the weights these toy scores give, beside the post's illustrative trained outcome."""
        src = self.src
        tokens = list(src.get("tokens"))
        computed = SoftmaxBars(src, "weights", tokens, max_height=3.0, bar_width=0.8, buff=0.5)
        trained = SoftmaxBars(src, "illustrative_weights", tokens, max_height=3.0, bar_width=0.8, buff=0.5)
        for bar in trained.bars:
            bar.set_fill(opacity=0.35).set_stroke(palette.WEIGHT, width=2)
        computed.move_to(LEFT * 3.4 + DOWN * 0.5)
        trained.move_to(RIGHT * 3.4 + DOWN * 0.5)
        trained.align_to(computed, DOWN)
        computed_title = VGroup(
            label("Computed", bold=True),
            label("softmax of these toy scores", font_size=typography.SMALL_SIZE, color=palette.MUTED),
        ).arrange(DOWN, buff=0.15)
        trained_title = VGroup(
            label("Illustrative", bold=True),
            label("a trained outcome, from the post", font_size=typography.SMALL_SIZE, color=palette.MUTED),
        ).arrange(DOWN, buff=0.15)
        computed_title.to_edge(UP, buff=0.5).match_x(computed)
        trained_title.align_to(computed_title, UP).match_x(trained)
        contexts = VGroup()
        for bars, path in ((computed, "context"), (trained, "illustrative_context")):
            c = vector(src, path, decimals=3, color=palette.CONTEXT)
            name = math("c =", font_size=typography.BODY_SIZE, color=palette.CONTEXT)
            contexts.add(VGroup(name, c).arrange(RIGHT, buff=0.2).next_to(bars, DOWN, buff=0.4))
        contexts[1].align_to(contexts[0], UP)
        divider = Line(UP * 3.2, DOWN * 3.4, stroke_color=palette.MUTED, stroke_width=1)

        self.say(f"Honest numbers: these toy scores give α ≈ {_caption_list(src, 'weights')}.",
                 narration=f"An honest word about these numbers: the softmax of our toy scores gives "
                           f"{_spoken_list(src, 'weights')}.")
        self.clear_stage()
        self.play(FadeIn(computed_title), FadeIn(computed), FadeIn(contexts[0]), run_time=1.2)
        self.wait(1.5)
        self.say(f"The post's {_caption_list(src, 'illustrative_weights')} is an illustrative outcome of "
                 "training, not the softmax of these scores.",
                 narration=f"The post's {_spoken_list(src, 'illustrative_weights')} is an illustration of what "
                           "training might produce, not the softmax of these scores.")
        self.play(Create(divider), FadeIn(trained_title), FadeIn(trained), FadeIn(contexts[1]), run_time=1.2)
        self.wait(2.5)
        leader = agreeing_top(tokens, src.get("weights"), src.get("illustrative_weights"))
        sharper = float(src.get("illustrative_weights").max()) > float(src.get("weights").max())
        verdict = (f"Either way {leader} leads" if leader else "The two disagree on which word leads") + (
            "; training sharpens the scores." if sharper else ".")
        self.say(f"{verdict} The decoder then predicts the next French word from its state plus c.")
        self.play(Indicate(computed.bars[-1], color=palette.WEIGHT), Indicate(trained.bars[-1],
                  color=palette.WEIGHT), run_time=1.2)
        self.wait(2.0)
