"""Coffee and café: the post's toy soft-attention step, every number and every claim computed.

Follows "Soft attention: use every encoder vector, not one summary": French so far → decoder state →
query q = W_q s_decoder → a dot-product score against every encoder vector h_i → softmax weights →
context c = Σ α_i h_i. It ends by setting the weights these toy scores really give beside the post's
illustrative trained outcome, each clearly labelled (or, for an example without one, says so).
Everything adapts to the example: 2–8 English words, vectors 2–6 wide, French words of any length.
"""

from __future__ import annotations

from dataclasses import dataclass

from manim import (
    DOWN, LEFT, ORIGIN, RIGHT, UP, Create, FadeIn, FadeOut, GrowFromEdge, Indicate, RoundedRectangle,
    TransformFromCopy, VGroup, Write,
)

from scenes.kit import (
    AttentionScene, DotProducts, Source, TokenRow, WeightedRows, add_rows, beat, dot_every_row, flow_arrow,
    format_value, frame_pieces, label, math, matrix, palette, scale_every_row, token_box, typography, vector,
)
from scenes.kit import layout, motion, staging
from scenes.kit.claims import leader_of, value_list
from scenes.kit.widgets import divider
from scenes.kit.compose import Form, compose
from scenes.kit.forms import flow_forms, flow_forms_by_row_height, lines_forms
from scenes.kit.products import compact_row, encoder_scoring_forms
from scenes.kit.claims import count_word, tied_at_top, top_index, words_list
from scenes.kit.score_bars import ScoreBars, ScoreRows, bars_or_rows
from scenes.kit.languages import source_language, target_language
from scenes.kit.text import wrapped
from scenes.kit.translation import N_, _, capitalized, n_, numbers_listed, quoted


@dataclass(frozen=True)
class CoffeeCafeLayout:
    """The scene's own sizes (everything else follows from the content and scenes.kit.layout)."""

    decoder_width: float = 2.2  #: the decoder box, wide enough for its label with room around it
    decoder_height: float = 1.1
    decoder_corner: float = 0.15
    weights_bar_height: float = 2.6  #: tallest possible bar (weight 1) when the weights have the body to themselves
    weights_bar_length: float = 1.2  #: the same for bars lying down, a row per word (many words, a narrow frame)
    compare_bar_height: float = 2.4  #: the same in the computed-vs-illustrative panels side by side
    flat_bar_height: float = 1.2  #: and in those panels stacked one above the other (long sentences)
    narrow_bar_height: float = 0.8  #: and in those stacked in a portrait frame, each heading above its bars
    hollow_stroke: float = 2  #: outline of the illustrative (not computed) bars
    listed: int = 4  #: a caption lists every value (or every h_i) up to this many words; beyond, it names the leader


L = CoffeeCafeLayout()


def _per_word(src: Source, path: str, tokens: list[str], decimals: int = 2) -> str:
    """"0.28 for I, 0.19 for love and 0.52 for coffee": each traced value with the word it belongs to."""
    return words_list(_("{value} for {word}").format(value=format_value(src.value(path, i), decimals), word=t)
                      for i, t in enumerate(tokens))


def _vector_names(n: int) -> str:
    """"h_1, h_2 and h_3", or "h_1 … h_8" once listing them all would be a chore to read."""
    return words_list(f"h_{i + 1}" for i in range(n)) if n <= L.listed else f"h_1 … h_{n}"


def _named_row(name: str, body, color) -> VGroup:
    """"q = [ … ]": a vector with its name in front, the name on the vector's middle line."""
    head = math(f"{name} =", font_size=typography.BODY_SIZE, color=color)
    return VGroup(head, body).arrange(RIGHT, buff=layout.NEAR)


def _query_and_encoder(q_row, purpose, role, encoder, *, side: bool) -> VGroup:
    """q and its job above the encoder vectors and theirs; `side`: q and its job on the left, the encoder vectors
    beside them (many words: a column too tall for the frame)."""
    column = VGroup(q_row, purpose, role, encoder)
    if side:
        VGroup(VGroup(q_row, purpose).arrange(DOWN, buff=layout.GAP),
               VGroup(role, encoder).arrange(DOWN, buff=layout.NEAR)).arrange(RIGHT, buff=layout.FAR, aligned_edge=UP)
    else:
        column.arrange(DOWN, buff=layout.GAP)
        role.next_to(encoder, UP, buff=layout.NEAR)
    return column


@dataclass(frozen=True)
class QueryAndEncoder:
    """q (a row or a column) with its job, over or beside the encoder vectors, their words and h names."""

    q_row: VGroup
    purpose: VGroup
    role: VGroup
    encoder: VGroup  # the matrix H with its words
    h_names: VGroup

    @property
    def group(self) -> VGroup:
        return VGroup(self.q_row, self.purpose, self.role, self.encoder, self.h_names)


def _query_and_encoder_forms(src: Source, tokens: list[str]) -> list[Form]:
    """q as a row, then as a column; each over the encoder vectors, then beside them."""
    width = layout.frame().width

    def build(q_column: bool, side: bool) -> QueryAndEncoder:
        q_row = _named_row("q", vector(src, "q", color=palette.QUERY,
                                       orientation="column" if q_column else "row"), palette.QUERY)
        purpose = wrapped(_("a vector used to score encoder vectors"), width, font_size=typography.SMALL_SIZE,
                          color=palette.QUERY)
        role = wrapped(_("encoder vectors: they play the key/value role"), width, font_size=typography.SMALL_SIZE,
                       color=palette.KEY)
        encoder = matrix(src, "H", color=palette.KEY)
        encoder.add_row_labels(tokens, color=palette.ENGLISH, font_size=typography.LABEL_SIZE)
        h_names = VGroup(*(math(f"h_{i + 1}", font_size=typography.BODY_SIZE, color=palette.KEY)
                           .next_to(encoder.brackets, RIGHT, buff=layout.NEAR).match_y(encoder.cell(i, 0))
                           for i in range(len(tokens))))
        _query_and_encoder(q_row, purpose, role, VGroup(encoder, h_names), side=side)
        return QueryAndEncoder(q_row, purpose, role, encoder, h_names)

    return [Form(f"q as a {'column' if q_column else 'row'}, {'beside' if side else 'over'} H",
                 lambda q_column=q_column, side=side: build(q_column, side), lambda built: built.group,
                 layout.frame())
            for q_column in (False, True) for side in (False, True)]


def _in_lines(items: list, count: int) -> None:
    """Arrange `items` (token boxes) in `count` lines, as many on each as the first holds, one under the other."""
    per = -(-len(items) // count)
    VGroup(*(VGroup(*items[i:i + per]).arrange(RIGHT, buff=layout.NEAR)
             for i in range(0, len(items), per))).arrange(DOWN, buff=layout.NEAR)


@dataclass(frozen=True)
class DecoderChain:
    """French so far → decoder → s_decoder, each stage named and its kind said."""

    sentence_title: VGroup
    words: TokenRow
    blank: VGroup
    sentence: VGroup
    kinds: VGroup
    decoder: VGroup
    state_name: VGroup
    state: VGroup
    stacked: bool

    @property
    def group(self) -> VGroup:
        return VGroup(self.sentence, self.decoder, self.state, self.sentence_title, self.state_name, self.kinds)


def _decoder_chain(src: Source, *, stacked: bool, lines: int = 1, compact: bool = False) -> DecoderChain:
    """The chain left to right, or downwards with the state's name on its left and its kind on its right;
    `lines`: the French in that many lines; `compact`: the state's cells one text line tall."""
    words = TokenRow(list(src.get("french_so_far")), palette.FRENCH, buff=layout.NEAR)
    blank = token_box("?", palette.MUTED)
    sentence = VGroup(words, blank).arrange(RIGHT, buff=layout.NEAR)
    if lines > 1:
        _in_lines([*words.tokens, blank], lines)
    chain = DecoderChain(
        label(capitalized(_("{target} so far").format(target=target_language())), font_size=typography.SMALL_SIZE,
              color=palette.MUTED), words, blank,
        sentence,
        VGroup(label(_("(tokens)"), font_size=typography.SMALL_SIZE, color=palette.MUTED),
               label(_("(a vector)"), font_size=typography.SMALL_SIZE, color=palette.MUTED)),
        VGroup(RoundedRectangle(corner_radius=L.decoder_corner, width=L.decoder_width, height=L.decoder_height,
                                stroke_color=palette.MUTED, fill_color=palette.BACKGROUND, fill_opacity=1),
               label(_("decoder"), color=palette.TEXT)),
        math('s_"decoder"', font_size=typography.BODY_SIZE),
        vector(src, "s_decoder", orientation="column",
               **(dict(cell_size=compact_row()) if compact else {})),
        stacked)
    _chain(VGroup(chain.sentence_title, chain.sentence, chain.kinds, chain.decoder, chain.state_name, chain.state),
           stacked=stacked)
    return chain


def _decoder_chain_forms(src: Source) -> list[Form]:
    """Across or down (the body's flow first), then down in the whole frame, the French in more and more lines."""
    count = len(src.get("french_so_far")) + 1
    return [*flow_forms(lambda stacked: _decoder_chain(src, stacked=stacked), whole=lambda chain: chain.group),
            *lines_forms(lambda lines: _decoder_chain(src, stacked=True, lines=lines, compact=True), count,
                         whole=lambda chain: chain.group, region=layout.frame())]


def _query_product(src: Source, stacked: bool) -> VGroup:
    """q = W_q s_decoder as products and sums, with the names of W_q, s_decoder and q."""
    comp = DotProducts(src, matrix="W_q", vector="s_decoder", products="q_terms", result="q",
                       vector_color=palette.TEXT, result_color=palette.QUERY, stacked=stacked)
    names = VGroup(
        math("W_q", font_size=typography.BODY_SIZE).next_to(comp.matrix, UP, buff=layout.NEAR),
        math('s_"decoder"', font_size=typography.BODY_SIZE).next_to(comp.vector, RIGHT if stacked else LEFT,
                                                                     buff=layout.NEAR),
        math("q", font_size=typography.BODY_SIZE, color=palette.QUERY).next_to(comp.result, UP, buff=layout.NEAR),
    )
    return VGroup(comp, names)


def _context_sum(src: Source, tokens: list[str], stacked: bool, cell: float) -> VGroup:
    """c = Σ α_i h_i as weighted rows, with the names of α_i, h_i, their products and c; `cell` is a row's
    height."""
    comp = WeightedRows(src, weights="weights", matrix="H", products="weighted_h", result="context",
                        row_labels=tokens, matrix_color=palette.KEY, stacked=stacked, cell_size=cell)
    names = VGroup(
        math("alpha_i", font_size=typography.BODY_SIZE, color=palette.WEIGHT).next_to(comp.weights, UP,
                                                                                    buff=layout.NEAR),
        math("h_i", font_size=typography.BODY_SIZE, color=palette.KEY).next_to(comp.matrix, UP, buff=layout.NEAR),
        math("alpha_i h_i", font_size=typography.BODY_SIZE, color=palette.MUTED).next_to(
            comp.products, LEFT if stacked else UP, buff=layout.NEAR),
        math("c", font_size=typography.BODY_SIZE, color=palette.CONTEXT).next_to(comp.result, LEFT,
                                                                                buff=layout.NEAR),
    )
    return VGroup(comp, names)


def _chain(parts: VGroup, *, stacked: bool) -> VGroup:
    """French so far → decoder → s_decoder, each stage named and its kind said: left to right, or downwards with
    the state's name on its left and its kind on its right (the column is tall already)."""
    sentence_title, sentence, kinds, decoder, state_name, state = parts
    if stacked:
        sentence_title.next_to(sentence, UP, buff=layout.GAP)
        kinds[0].next_to(sentence, DOWN, buff=layout.GAP)
        state_name.next_to(state, LEFT, buff=layout.NEAR)
        kinds[1].next_to(state, RIGHT, buff=layout.NEAR)
        VGroup(VGroup(sentence_title, sentence, kinds[0]), decoder, VGroup(state_name, state, kinds[1])).arrange(
            DOWN, buff=layout.APART)
    else:
        VGroup(sentence, decoder, state).arrange(RIGHT, buff=layout.FAR)
        sentence_title.next_to(sentence, UP, buff=layout.GAP)
        state_name.next_to(state, UP, buff=layout.NEAR)
        for kind, stage in zip(kinds, (sentence, state)):
            kind.next_to(stage, DOWN, buff=layout.GAP)
        kinds[0].match_y(kinds[1])
    return parts


class CoffeeCafeScene(AttentionScene):
    scene_id = "coffee_cafe"

    def construct(self):
        self.src = Source("coffee")
        self.tokens = list(self.src.get("tokens"))
        self.said = [quoted(t) for t in self.tokens]  # the words as a caption quotes them
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
        chain, plan = compose(_decoder_chain_forms(self.src))
        french, language = " ".join(self.src.get("french_so_far")), target_language()
        to_decoder = flow_arrow(VGroup(chain.sentence, chain.kinds[0]) if chain.stacked else chain.sentence,
                                chain.decoder, down=chain.stacked)
        to_state = flow_arrow(chain.decoder, chain.state, down=chain.stacked)

        self.say(_("{language} so far: {words}. We are about to predict the next word.").format(
            language=language, words=quoted(french)), subject=chain.words)
        staging.enter(self, plan, FadeIn(chain.sentence_title), FadeIn(chain.words, lag_ratio=0.3),
                      FadeIn(chain.blank), run_time=1.5)
        self.wait(0.8)
        self.say(_("The decoder reads that {language} and keeps a hidden state: s_decoder, a vector of numbers.").format(
                     language=language),
                 narration=_("The decoder reads that {language} and sums it up in a hidden state, s_decoder: not "
                             "words any more, just a vector of numbers.").format(language=language),
                 subject=chain.state)
        self.play(Create(to_decoder), FadeIn(chain.decoder), run_time=1.0)
        self.play(Create(to_state), FadeIn(chain.state), FadeIn(chain.state_name), run_time=1.2)
        self.play(FadeIn(chain.kinds), run_time=0.8)
        self.wait(1.5)

    @beat
    def state_to_query(self):
        """q = W_q s_decoder, one row of W_q at a time: the products, then their sum."""
        formula = math('{{ q : q }} = W_q s_"decoder"', font_size=typography.BODY_SIZE + 4)
        formula.select("q").set_color(palette.QUERY)
        formula.to_edge(UP, buff=layout.MARGIN)
        (comp, names), plan = compose(flow_forms(lambda stacked: _query_product(self.src, stacked)),
                                      pinned=[formula])

        self.say(_("A learned linear map turns the state into a query: q = W_q s_decoder."),
                 narration=_("A learned linear map turns that state into a query: q is the matrix W_q times "
                             "s_decoder."), subject=VGroup(comp.matrix, comp.vector))
        self.clear_stage()
        self.play(Write(formula), run_time=1.0)
        staging.enter(self, plan, FadeIn(comp.matrix), FadeIn(comp.vector), FadeIn(names),
                      scaffold=[FadeIn(comp.scaffold())], then_on=VGroup(comp.matrix, comp.vector))
        self.wait(0.6)
        self.say(n_("One row at a time: multiply a row of W_q by s_decoder entry by entry, then add the {count} "
                    "product.",
                    "One row at a time: multiply a row of W_q by s_decoder entry by entry, then add the {count} "
                    "products.", comp.matrix.cols).format(count=count_word(comp.matrix.cols)),
                 subject=VGroup(comp.products, comp.result))
        shown = staging.dot_every_row(self, plan, comp, color=palette.QUERY)
        staging.end_on(self, plan, VGroup(comp.result, names[2]))  # q, every entry legible
        q_text = numbers_listed(format_value(v, 2) for v in self.src.get("q").tolist())
        self.say(_("So q = ({values}).").format(values=q_text), subject=comp.result)
        self.play(FadeOut(shown[-1].box), Indicate(comp.result, color=palette.QUERY), run_time=1.0)
        self.wait(1.2)

    @beat
    def query_is_not_a_word(self):
        """The post's warning: q is a scoring vector, not the next word and not a guess of it."""
        src, n = self.src, len(self.tokens)
        next_word = src.get("next_word")
        parts, plan = compose(_query_and_encoder_forms(src, self.tokens))
        staging.hang_from_top(plan)  # the camera pans down over what the frame cannot hold
        settled = parts.q_row.get_center()
        differs = math("!=", font_size=typography.HEADING_SIZE, color=palette.WRONG)
        word = token_box(next_word, palette.FRENCH, font_size=typography.HEADING_SIZE)
        claim = layout.side_by_side_or_stacked(parts.q_row, differs, word, width=layout.frame().width)
        claim.shift(UP * (settled[1] - parts.q_row.get_center()[1]))
        not_word = wrapped(_("not the word {word}, not a guess of it").format(word=quoted(next_word)),
                           layout.frame().width,
                           font_size=typography.SMALL_SIZE, color=palette.WRONG).next_to(claim, DOWN, buff=layout.GAP)
        layout.keep_inside(VGroup(claim, not_word))
        encoder = VGroup(parts.encoder, parts.h_names)

        self.say(_("q is not the word {word}, and not a guess of it.").format(word=quoted(next_word)),
                 subject=parts.q_row)
        self.clear_stage()
        self.play(FadeIn(parts.q_row), FadeIn(word), run_time=1.0)
        self.play(FadeIn(differs), FadeIn(not_word), run_time=1.0)
        self.wait(1.0)
        self.say(_("It is a vector of coordinates whose only job is to score encoder vectors."), subject=parts.q_row)
        self.play(FadeOut(differs), FadeOut(word), FadeOut(not_word), run_time=0.5)
        self.play(parts.q_row.animate.move_to(settled), run_time=0.6)
        self.play(FadeIn(parts.purpose), run_time=0.8)
        self.wait(1.0)
        caption, narration = encoder_vectors_caption(n, _vector_names(n))
        self.say(caption, narration=narration, subject=parts.h_names)
        staging.enter_below(self, plan, VGroup(encoder, parts.role), FadeIn(encoder, lag_ratio=0.3),
                            FadeIn(parts.role), run_time=1.5)
        staging.end_on(self, plan, parts.h_names)  # the names the caption lists, legible (the camera's turn)
        self.wait(1.5)

    @beat
    def score_each_encoder_vector(self):
        """e_i = q · h_i for every English position: the products, then their sum, row by row."""
        src = self.src
        formula = math("{{ e_i : e }} = {{ q : q }}^top {{ h_i : h }}", font_size=typography.BODY_SIZE + 4)
        formula.select("q").set_color(palette.QUERY)
        formula.select("h").set_color(palette.KEY)
        formula.to_edge(UP, buff=layout.MARGIN)
        scoring, plan = compose(encoder_scoring_forms(src, self.tokens, q_name="q", e_name="e_i"), pinned=[formula])
        comp, words, names = scoring.comp, scoring.words, scoring.names

        self.say(_("Score each {source} position with a dot product: e_i = q · h_i.").format(source=source_language()),
                 narration=_("Now score each {source} position with a dot product: the score e_i is q dotted with "
                             "h_i.").format(source=source_language()), subject=VGroup(comp.vector, comp.matrix))
        self.clear_stage()
        self.play(Write(formula), run_time=1.0)
        staging.enter(self, plan, FadeIn(words, lag_ratio=0.2), FadeIn(comp.matrix), FadeIn(comp.vector),
                      FadeIn(names), scaffold=[FadeIn(comp.scaffold())], then_on=VGroup(comp.matrix, comp.vector))
        self.wait(0.4)
        self.say(n_("Multiply q and h_i entry by entry, then add the {count} product.",
                    "Multiply q and h_i entry by entry, then add the {count} products.", comp.matrix.cols).format(
                     count=count_word(comp.matrix.cols)), subject=VGroup(comp.products, comp.result))
        shown = staging.dot_every_row(self, plan, comp, labels=list(words), color=palette.KEY)
        best, leader = leader_of(src, "scores", self.said)
        if best is None:
            self.say(_("No single word scores highest: {leader}.").format(leader=leader), subject=comp.result)
            staging.end_on(self, plan, comp.result, FadeOut(shown[-1].box))
        else:
            top = VGroup(words[best], comp.result.cell(best))
            self.say(_("{word} scores highest: {name} = {value}.").format(
                word=self.said[best], name=f"e_{best + 1}", value=format_value(src.value("scores", best), 2)),
                subject=top)
            staging.end_on(self, plan, top)
            self.play(FadeOut(shown[-1].box), Create(frame_pieces(*top, color=palette.QUERY)),
                      comp.result.cell(best).animate.set_color(palette.QUERY), run_time=0.8)
        self.wait(1.5)

    @beat
    def softmax_to_weights(self):
        """Softmax turns the scores into weights that sum to 1."""
        src, tokens = self.src, self.tokens
        formula = math("{{ alpha_i : alpha }} = exp(e_i) / (sum_j exp(e_j))", font_size=typography.BODY_SIZE + 2)
        formula.select("alpha").set_color(palette.WEIGHT)
        formula.to_edge(UP, buff=layout.MARGIN)
        # a column per word, or (too many words across a narrow frame to read) a row per word
        panel = bars_or_rows(src, "weights", tokens, layout.body(), scores="scores", max_height=L.weights_bar_height,
                             max_length=L.weights_bar_length, arrow=True)
        layout.fit_into(panel, layout.body())
        bars = panel.bars

        self.say(_("Softmax turns the scores into weights α_i: all positive, summing to one."), subject=bars)
        self.clear_stage()
        self.play(FadeIn(panel.scores_group, lag_ratio=0.2), Write(formula), run_time=1.5)
        self.play(FadeIn(panel.arrow), run_time=0.7)
        self.play(Create(bars.baseline), FadeIn(bars.labels), run_time=0.5)
        self.play(*(GrowFromEdge(bar, panel.grow_edge) for bar in bars.bars), FadeIn(panel.weight_name),
                  run_time=1.2)
        # each score travels down to its bar and becomes the weight written over it
        scores = [panel.scores.cell(i)[1] for i in range(len(tokens))]
        self.play(motion.lagged(motion.scores_to_weights(scores, list(bars.values))), run_time=1.0)
        best, leader = leader_of(src, "weights", self.said)
        verdict = (_("{leader} gets the most weight.") if best is not None else
                   _("no single word leads: {leader}.")).format(leader=leader)
        if len(tokens) <= L.listed:
            self.say(_("These scores give α ≈ {values}: {verdict}").format(values=value_list(src, "weights"),
                                                                          verdict=verdict),
                     narration=_("The weights come out at {values}: {verdict}").format(
                         values=_per_word(src, "weights", self.said), verdict=verdict), subject=bars)
        else:
            self.say(verdict, subject=bars)
        self.play(*(Indicate(bars.bars[i], color=palette.WEIGHT)
                    for i in ([best] if best is not None else tied_at_top(src.get("weights").tolist()))),
                  run_time=1.0)
        self.wait(1.5)

    @beat
    def context_is_a_weighted_sum(self):
        """c = Σ α_i h_i: every encoder vector scaled by its weight, then added."""
        formula = math("{{ c : c }} = sum_i {{ alpha_i : alpha }} {{ h_i : h }}", font_size=typography.BODY_SIZE + 2)
        formula.select("c").set_color(palette.CONTEXT)
        formula.select("alpha").set_color(palette.WEIGHT)
        formula.select("h").set_color(palette.KEY)
        formula.to_edge(UP, buff=layout.MARGIN)
        (comp, names), plan = compose(flow_forms_by_row_height(
            lambda stacked, cell: _context_sum(self.src, self.tokens, stacked, cell)), pinned=[formula])

        self.say(_("The context vector is the weighted sum c = Σ α_i h_i."),
                 narration=_("The context vector c is the weighted sum: every h_i times its weight α_i, all added up."),
                 subject=VGroup(comp.weights, comp.matrix))
        self.clear_stage()
        self.play(Write(formula), run_time=1.0)
        staging.enter(self, plan, FadeIn(comp.weights), FadeIn(comp.matrix), FadeIn(names[:2]),
                      scaffold=[FadeIn(comp.scaffold()), FadeIn(names[2])], then_on=VGroup(comp.weights, comp.matrix))
        self.say(_("Scale each encoder vector by its weight…"), subject=comp.products)
        shown = staging.scale_every_row(self, plan, comp, labels=list(comp.weights.row_labels), color=palette.WEIGHT)
        norms = self.src.get("weighted_h").norm(dim=-1).tolist()
        largest = top_index(norms)
        then_add = (_("…then add the scaled vectors: the vector of {word} contributes the most.").format(
            word=self.said[largest]) if largest is not None else
            _("…then add the scaled vectors: those of {words} contribute the most, equally at this precision.").format(
                words=words_list(self.said[i] for i in tied_at_top(norms))))
        self.say(then_add, subject=comp.result)
        self.play(FadeOut(shown[-1].box), run_time=0.3)
        add_rows(self, comp, with_sum=[FadeIn(names[-1])])  # add_rows fades in the brackets
        if largest is not None:
            self.play(Indicate(comp.products.row(largest), color=palette.CONTEXT), run_time=0.8)
        staging.end_along(self, plan, names[-1], comp.result)  # c, its numbers legible (in pieces if too long)
        self.play(Indicate(comp.result, color=palette.CONTEXT), run_time=0.8)
        self.wait(1.5)

    @beat
    def computed_vs_illustrative(self):
        """Honesty: the weights these toy scores give, beside the post's illustrative trained outcome (if any)."""
        src = self.src
        closing = _("The decoder then predicts the next {target} word, here {word}, from its state plus c.").format(
            target=target_language(), word=quoted(src.get("next_word")))
        if src.get("illustrative_weights") is None:
            self._computed_alone(closing)
            return
        (computed, trained), plan = compose(_comparison_forms(src, self.tokens), layout.frame())
        for bar in trained.bars.bars:
            bar.set_fill(opacity=0.35).set_stroke(palette.WEIGHT, width=L.hollow_stroke)
        rule = divider(computed, trained, across=plan.form == "side by side")

        self.say(_("Honest numbers: these toy scores give α ≈ {values}.").format(values=value_list(src, "weights")),
                 narration=_("An honest word about these numbers: the softmax of our toy scores gives {values}.").format(
                     values=_per_word(src, "weights", self.said)), subject=computed)
        self.clear_stage()
        self.play(FadeIn(computed), run_time=1.2)
        self.wait(1.5)
        self.say(_("The post's {values} is an illustrative outcome of training, not the softmax of these scores.").format(
                     values=value_list(src, "illustrative_weights")),
                 narration=_("The post's {values} is an illustration of what training might produce, not the softmax "
                             "of these scores.").format(values=_per_word(src, "illustrative_weights", self.said)),
                 subject=trained)
        self.play(Create(rule), FadeIn(trained), run_time=1.2)
        self.wait(2.5)
        leaders = (leader_of(src, "weights", self.said)[0], leader_of(src, "illustrative_weights", self.said)[0])
        self.say(f"{comparison_verdict(src, self.said)} {closing}", subject=VGroup(computed.bars, trained.bars))
        highlights = [Indicate(panel.bars.bars[i], color=palette.WEIGHT)
                      for panel, i in zip((computed, trained), leaders) if i is not None]
        if highlights:
            self.play(*highlights, run_time=1.2)
        self.wait(2.0)

    def _computed_alone(self, closing: str) -> None:
        """The computed weights alone: the example gives no illustrative trained outcome to set beside them."""
        src, tokens = self.src, self.tokens
        computed, plan = compose([Form(name, lambda rows=rows, c_under=c_under: _weights_panel(
            src, tokens, *COMPUTED, flat=False, rows=rows, c_under=c_under))
            for name, rows, c_under in (("bars", False, False), ("rows", True, False), ("rows, c under", True, True))],
            layout.frame())
        listed = len(tokens) <= L.listed
        self.say(_("Honest numbers: these toy scores give α ≈ {values}.").format(values=value_list(src, "weights"))
                 if listed else _("Honest numbers: these are the weights the toy scores give."),
                 narration=_("An honest word about these numbers: the softmax of our toy scores gives {values}.").format(
                     values=_per_word(src, "weights", self.said)) if listed else None, subject=computed)
        self.clear_stage()
        staging.enter(self, plan, FadeIn(computed), run_time=1.2, then_on=computed)
        self.wait(1.5)
        self.say(_("This example gives no illustrative trained weights to set beside them: what training would make "
                   "of these scores is not shown here. {closing}").format(closing=closing),
                 subject=computed.context)  # c, which the closing names (where the camera's sweep ends)
        self.wait(2.5)


#: (path, heading, note, context path) of the two panels the last beat sets side by side.
COMPUTED = ("weights", N_("Computed"), N_("softmax of these toy scores"), "context")
ILLUSTRATIVE = ("illustrative_weights", N_("Illustrative"), N_("a trained outcome, from the post"),
                "illustrative_context")


def encoder_vectors_caption(n: int, names: str) -> tuple[str, str]:
    """The caption and narration as the encoder's vectors come in: one per source word, named."""
    values = dict(count=count_word(n), source=source_language(), names=names)
    return (n_("The encoder kept {count} vector, one per {source} word: {names}. They play the key/value role.",
               "The encoder kept {count} vectors, one per {source} word: {names}. They play the key/value role.",
               n).format(**values),
            n_("Meanwhile the encoder kept one vector per {source} word, {count} in all: {names}. They are what the "
               "query will be scored against.",
               "Meanwhile the encoder kept one vector per {source} word, {count} in all: {names}. They are what the "
               "query will be scored against.", n).format(**values))


def comparison_verdict(src: Source, said: list[str]) -> str:
    """Whether the toy scores and the post's illustrative weights agree on the leading word, and whether training
    sharpened the weights (its largest weight above the toy softmax's)."""
    lead_now, now_text = leader_of(src, "weights", said)
    lead_trained, trained_text = leader_of(src, "illustrative_weights", said)
    sharper = float(src.get("illustrative_weights").max()) > float(src.get("weights").max())
    if lead_now is not None and lead_now == lead_trained:
        verdict = (_("Either way {word} leads; training sharpens the scores.") if sharper else
                   _("Either way {word} leads."))
        return verdict.format(word=said[lead_now])
    verdict = (_("The toy scores put {toy} first, the illustrative weights {trained}; training sharpens the scores.")
               if sharper else _("The toy scores put {toy} first, the illustrative weights {trained}."))
    return verdict.format(toy=now_text, trained=trained_text)


def _weights_panel(src: Source, tokens: list[str], path: str, heading: str, note: str, context: str, *,
                   flat: bool, short: bool = False, rows: bool = False, c_under: bool = False) -> VGroup:
    """One set of weights with its heading and the context it gives; `flat` puts the heading to the left of the
    bars (for panels stacked one above the other) instead of above them; `short` keeps the heading above
    low bars (panels stacked in a portrait frame, too narrow for the heading beside them); `rows` lays a bar
    per word along a row and c in a column beside them, under the heading (many words in a narrow frame), or
    under the rows (`c_under`: long words leave no width beside them)."""
    height = L.narrow_bar_height if short else L.flat_bar_height if flat else L.compare_bar_height
    bars = ScoreRows(src, path, tokens, max_length=L.weights_bar_length) if rows else \
        ScoreBars(src, path, tokens, max_height=height)
    title = VGroup(label(_(heading), bold=True),
                   wrapped(_(note), layout.frame().width, font_size=typography.SMALL_SIZE,
                           color=palette.MUTED)).arrange(DOWN, buff=layout.TIGHT)
    if rows:
        c = VGroup(math("c", font_size=typography.BODY_SIZE, color=palette.CONTEXT),
                   vector(src, context, decimals=3, orientation="column", color=palette.CONTEXT)).arrange(
            DOWN, buff=layout.NEAR)
        body = VGroup(bars, c).arrange(DOWN if c_under else RIGHT, buff=layout.GAP if c_under else layout.APART,
                                       aligned_edge=ORIGIN if c_under else UP)
        panel = VGroup(title, body).arrange(DOWN, buff=layout.GAP)
    else:
        c = _named_row("c", vector(src, context, decimals=3, color=palette.CONTEXT), palette.CONTEXT)
        if flat:
            panel = VGroup(title, VGroup(bars, c).arrange(DOWN, buff=layout.GAP)).arrange(RIGHT, buff=layout.APART)
        else:
            panel = VGroup(title, bars, c).arrange(DOWN, buff=layout.GAP)
    panel.bars, panel.context = bars.bars, c
    return panel


def _comparison_forms(src: Source, tokens: list[str]) -> list[Form]:
    """The computed and the illustrative panels side by side, then stacked with flat headings, then stacked with
    short bars under their headings (a portrait frame), then those closer together (a portrait frame whose
    headings' notes take more lines: a longer language)."""
    def pair(flat: bool | None, direction, buff: float) -> VGroup:
        style = dict(flat=False, short=True) if flat is None else dict(flat=flat)
        panels = VGroup(_weights_panel(src, tokens, *COMPUTED, **style),
                        _weights_panel(src, tokens, *ILLUSTRATIVE, **style))
        return panels.arrange(direction, buff=buff, aligned_edge=UP if direction is RIGHT else RIGHT)

    return [Form(name, lambda flat=flat, direction=direction, buff=buff: pair(flat, direction, buff))
            for name, flat, direction, buff in (("side by side", False, RIGHT, layout.FAR),
                                                ("flat, stacked", True, DOWN, layout.FAR),
                                                ("short, stacked", None, DOWN, layout.APART),
                                                ("short, stacked closer", None, DOWN, layout.GAP))]

