"""Soft attention in one formula: each term lights up as the picture it names comes back.

Follows "Soft attention in one formula": e_{t,i} = score(q_t, h_i), α_{t,i} = softmax, c_t = Σ α_{t,i} h_i,
then the two common score functions (dot product, small MLP over [q; h_i]) side by side on the same q and
h_i, and the closing point that score → normalise → weighted sum is the pattern self-attention reuses.
Everything adapts to the example's sentence and widths; every claim (which word leads) is computed.
"""

from __future__ import annotations

from dataclasses import dataclass

from manim import (
    DOWN, LEFT, RIGHT, UP, Create, FadeIn, FadeOut, GrowFromEdge, Indicate, Line, ReplacementTransform,
    SurroundingRectangle, VGroup, Write,
)

from scenes.kit import (
    AttentionScene, DotProducts, Source, WeightedRows, add_rows, beat, caption_brace, dot_every_row, flow_arrow,
    format_value, frame_box, label, math, palette, scale_every_row, typography,
)
from scenes.kit import camera, close_up, framed, layout, motion, legible
from scenes.kit.claims import leader
from scenes.kit.products import encoder_scoring
from scenes.kit.claims import count_word, words_list
from scenes.kit.score_bars import ScoreBars, bars_or_rows
from scenes.kit.languages import source_language
from scenes.kit.text import wrapped

#: The formula's three terms (score, softmax, context), on one line in a wide frame, one under the other in a narrow one.
TERMS = (
    '{{ e_(t,i) = op("score")({{ q_t : q }}, {{ h_i : h1 }}) : score }}',
    '{{ {{ alpha_(t,i) : a1 }} = exp(e_(t,i)) / (sum_j exp(e_(t,j))) : softmax }}',
    '{{ {{ c_t : c }} = sum_i {{ alpha_(t,i) : a2 }} {{ h_i : h2 }} : context }}',
)
FORMULA = ", quad ".join(TERMS)
STEP_NAMES = ("score", "normalise", "weighted sum")


@dataclass(frozen=True)
class SoftFormulaLayout:
    """The scene's own sizes (everything else follows from the content and scenes.kit.layout)."""

    weights_bar_height: float = 2.2  #: tallest possible bar (weight 1) under the formula
    weights_bar_length: float = 1.2  #: the same for bars lying down, a row per word (many words, a narrow frame)
    panel_bar_length: float = 1.2  #: and in a dot-vs-additive panel with a row per word
    panel_bar_height: float = 2.4  #: the same in the dot-vs-additive panels side by side
    flat_bar_height: float = 1.2  #: and in those panels stacked one above the other (long sentences)
    step_pad: float = 0.3  #: room inside the frame of each closing step word
    step_corner: float = 0.12
    listed: int = 4  #: a caption lists every value up to this many words; beyond, it names the leader


L = SoftFormulaLayout()


@dataclass(frozen=True)
class Lit:
    """The formula at the top and the box lighting up the term the picture below illustrates."""

    eq: VGroup
    box: SurroundingRectangle


@dataclass(frozen=True)
class Scoring:
    """What the score step leaves on screen: the products composition, the words naming its rows, the names."""

    comp: DotProducts
    words: VGroup
    names: VGroup

    def group_all(self) -> VGroup:
        return VGroup(self.comp, self.words, self.names)


def _caption_list(src: Source, path: str, decimals: int = 2) -> str:
    """"0.73 / 0.35 / 1.35" formatted from the source, for a subcaption."""
    return " / ".join(format_value(v, decimals) for v in src.get(path).tolist())


def _spoken_list(src: Source, path: str, decimals: int = 2) -> str:
    """"0.73, 0.35 and 1.35": the same numbers as `_caption_list`, as a narrator lists them."""
    return words_list(format_value(v, decimals) for v in src.get(path).tolist())


def _leader(src: Source, path: str, tokens: list[str]) -> tuple[int | None, str]:
    return leader(tokens, src.get(path).tolist())


def _reads_whole(part, region: layout.Region) -> bool:
    """Whether the camera, framing `part` (the column of scores with its words) in `region`, shows every text of it
    legible: then the beat ends on all the scores, which the caption lists, rather than on the top one alone."""
    shot = camera.shot_on(part, region)
    return all(close_up.legible_in(unit, shot, region) for unit in close_up.text_units(part))


def _spread(src: Source, path: str) -> float:
    values = src.get(path)
    return float(values.max() - values.min())


def _shown_size(mob) -> float:
    """The size `mob`'s smallest text comes out at once fitted into the frame (shrunk or grown)."""
    return legible.fill_factor(mob, layout.frame()) * close_up.smallest_font(mob)


class StackedFormula(VGroup):
    """The formula's terms one under the other, each its own math line; `select` finds a named part in any line
    (as the one-line formula's does), so a beat lights up a term the same way whichever form is on screen."""

    def select(self, name: str) -> VGroup:
        for line in self.submobjects:
            try:
                return line.select(name)
            except KeyError:
                continue
        raise KeyError(f"no part named {name!r} in the formula; its parts: score, softmax, context, q, h1, h2, a1, "
                       "a2, c")


def _formula(stacked: bool | None = None):
    """The three-part formula with its roles coloured (q yellow, h teal, α violet, c green): on one line, or, where
    that line fitted to the frame would set it below the legibility floor (a portrait frame) or `stacked` says so,
    its terms stacked."""
    eq = math(FORMULA, font_size=typography.BODY_SIZE + 10)
    if stacked or (stacked is None and not legible.fits_at_floor(eq, layout.frame())):
        eq = StackedFormula(*(math(term, font_size=typography.BODY_SIZE) for term in TERMS))
        eq.arrange(DOWN, buff=layout.NEAR)
    eq.select("q").set_color(palette.QUERY)
    for name in ("h1", "h2"):
        eq.select(name).set_color(palette.KEY)
    for name in ("a1", "a2"):
        eq.select(name).set_color(palette.WEIGHT)
    eq.select("c").set_color(palette.CONTEXT)
    return eq


def _fit_formula(eq):
    """The formula across the frame; stacked, only shrunk to fit (grown to the frame's width, its three lines would
    take half the frame's height from the picture)."""
    return layout.fit_into(eq, layout.frame(), grow=not isinstance(eq, StackedFormula))


def _under_at_rest() -> layout.Region:
    """The room under the formula where it sits at the top of the frame at rest (the camera carries the formula on
    screen when it moves, so its scene position then says nothing about the screen)."""
    eq = _fit_formula(_formula())
    eq.to_edge(UP, buff=layout.MARGIN)
    return _under(eq)


def _under(eq) -> layout.Region:
    """The body of the frame below the formula at the top."""
    body = layout.body()
    return layout.Region(body.left, body.right, body.bottom, min(body.top, eq.get_bottom()[1] - layout.GAP))


#: The additive score in two steps, for a frame too narrow for it on one line (the same function: u_i is the MLP's
#: hidden layer).
ADDITIVE_IN_TWO = ("e_i = w_2^top tanh(u_i)", "u_i = W_1 [q; h_i] + b_1")


def _panel_formula(expression: str | tuple[str, ...]):
    """A score function's formula: one line, or (given as lines, for a narrow frame) one under the other, a size
    smaller so the panel's bar labels need not shrink to the lines' width."""
    if isinstance(expression, str):
        return math(expression, font_size=typography.BODY_SIZE + 4)
    return VGroup(*(math(line, font_size=typography.BODY_SIZE) for line in expression)).arrange(
        DOWN, buff=layout.TIGHT)


def _additive_expression() -> str | tuple[str, ...]:
    """The additive score on one line, or in two steps where that line is wider than the frame (a portrait frame:
    shrunk to its width, it would take the panel's bar labels below the floor with it)."""
    line = "e_i = w_2^top tanh(W_1 [q; h_i] + b_1)"
    return line if _panel_formula(line).width <= layout.frame().width else ADDITIVE_IN_TWO


def _score_panel(src: Source, tokens: list[str], title: str, expression: str, scores: str, weights: str,
                 flat: bool, note: str | None = None, room: bool = False, reserve: float = 0.0) -> VGroup:
    """One score function: its name, its formula, the scores it gives (shaded) over their softmax bars, and an
    optional muted note. `flat` puts the words left of the bars (for panels stacked one above the other), else
    above them with the note underneath; `room` chooses the bars' form for the room the words leave them in the
    frame (not the whole frame: a long word standing under each bar leaves too little), `reserve` of its height
    kept for what goes under the panel."""
    width = layout.frame().width
    heading = wrapped(title, width, bold=True)
    formula = _panel_formula(expression)
    remark = wrapped(note or "", width, font_size=typography.SMALL_SIZE, color=palette.MUTED)
    region = layout.frame()
    if room:
        words = VGroup(heading, formula, remark).arrange(DOWN, buff=layout.GAP)
        region = layout.Region(region.left, region.right, region.bottom + reserve,
                               region.top - words.height - layout.GAP)
    if flat:
        bars = ScoreBars(src, weights, tokens, scores=scores, max_height=L.flat_bar_height)
    else:  # a column per word, or a row per word where the columns would not read across the frame
        bars = bars_or_rows(src, weights, tokens, region, scores=scores, max_height=L.panel_bar_height,
                            max_length=L.panel_bar_length)
    if flat:
        words = VGroup(heading, formula, remark).arrange(DOWN, buff=layout.NEAR)
        panel = VGroup(words, bars).arrange(RIGHT, buff=layout.APART)
    else:
        panel = VGroup(VGroup(heading, formula).arrange(DOWN, buff=layout.NEAR), bars, remark)
        panel.arrange(DOWN, buff=layout.GAP)
    panel.heading, panel.formula, panel.bars, panel.remark = heading, formula, bars, remark
    return panel


class SoftFormulaScene(AttentionScene):
    scene_id = "soft_formula"

    def construct(self):
        self.src = Source("coffee")
        self.tokens = list(self.src.get("tokens"))
        self.said = [f"“{t}”" for t in self.tokens]  # the words as a caption quotes them
        self.show_title()
        eq = self.the_formula()
        lit, scores = self.score_term(eq)
        lit, bars = self.normalise_term(lit, scores)
        self.weighted_sum_term(lit, bars)
        self.dot_vs_additive()
        self.same_pattern_as_self_attention()

    # --- beats -----------------------------------------------------------------------------------------------
    @beat
    def the_formula(self) -> VGroup:
        """The post's formula, its three parts named; it ends at the top of the frame for the next beats."""
        eq = _fit_formula(_formula())
        if isinstance(eq, StackedFormula):
            return self._name_stacked_terms(eq)
        floor = eq.get_bottom()[1]

        def under(part):  # a span at the formula's lowest point, so the three braces share one line
            return Line([part.get_left()[0], floor, 0], [part.get_right()[0], floor, 0])

        braces = VGroup(*(caption_brace(under(eq.select(name)), text) for name, text in zip(
            ("score", "softmax", "context"), STEP_NAMES)))
        self._write_and_name_the_terms(eq, braces, "one line")
        self.play(FadeOut(braces), eq.animate.to_edge(UP, buff=layout.MARGIN), run_time=0.8)
        return eq

    def _write_and_name_the_terms(self, formula, braces: VGroup, form: str) -> None:
        """The formula written, its three terms named by their braces, and what t and i are (one line or stacked)."""
        next_word = self.src.get("next_word")
        self.say(f"Given encoder states h_1 … h_T and a decoder query q_t, soft attention is {form}.")
        self.play(Write(formula), run_time=2.0)
        self.wait(0.8)
        self.say(f"Three parts: score every {source_language()} position, normalise the scores, take a weighted sum.")
        self.play(FadeIn(braces, lag_ratio=0.4), run_time=1.5)
        self.wait(1.0)
        over = f"{source_language()} words"
        self.say(f"t is the decoder step (here: about to predict “{next_word}”); i runs over the {over}.",
                 narration=f"The index t is the decoder step, here the step about to predict {next_word}, and i "
                           f"runs over the {over}.")
        self.wait(2.5)

    def _name_stacked_terms(self, eq: StackedFormula) -> StackedFormula:
        """the_formula with the terms stacked: each named by a brace under it, the lines spaced apart for the names;
        they close up at the top of the frame at the end, where the next beats find them."""
        eq.to_edge(UP, buff=layout.MARGIN)
        shown = eq.copy()
        braces = VGroup(*(caption_brace(line, text) for line, text in zip(shown, STEP_NAMES)))
        layout.fit_into(VGroup(*(VGroup(line, brace) for line, brace in zip(shown, braces))).arrange(
            DOWN, buff=layout.GAP), layout.frame(), grow=False)
        self._write_and_name_the_terms(shown, braces, "one formula")
        self.play(FadeOut(braces), ReplacementTransform(shown, eq), run_time=0.8)
        return eq

    @beat
    def score_term(self, eq: VGroup) -> tuple[Lit, Scoring]:
        """e_{t,i}: one number per English word, each a dot product: products of q and h_i, then their sum."""
        src, tokens = self.src, self.tokens
        box = frame_box(eq.select("score"), color=palette.QUERY)
        under = _under_at_rest()
        scoring = encoder_scoring(src, tokens, q_name="q_t", e_name="e_(t,i)")
        comp, words, names = scoring.comp, scoring.words, scoring.names
        big = not layout.fits_legibly(scoring.group, _under(eq), close_up.smallest_font(scoring.group))
        if big:  # each word beside its score, so the close-up on the top score shows both
            for i, word in enumerate(words):
                word.next_to(comp.result, RIGHT, buff=layout.NEAR).match_y(comp.result.cell(i))
        close_up.build_legible(scoring.group, _under(eq))

        per_word = f"one number per {source_language()} word"
        self.say(f"score(q_t, h_i) compares the query with each encoder vector: {per_word}.",
                 narration=f"The score compares the query q_t with each encoder vector h_i, giving {per_word}.")
        self.play(Create(box), run_time=0.8)
        parts = (FadeIn(words, lag_ratio=0.2), FadeIn(comp.matrix), FadeIn(comp.vector), FadeIn(names[:2]))
        if big:
            framed.show_whole(self, scoring.group, [eq, box], *parts, FadeIn(comp.scaffold()), FadeIn(names[-1]),
                              region=under)
            shown = framed.dot_every_row(self, comp, scoring.group, [eq, box], labels=list(words),
                                         color=palette.KEY, region=under)
        else:
            self.play(*parts, run_time=1.2)
            self.play(FadeIn(comp.scaffold()), FadeIn(names[-1]), run_time=0.5)
            shown = dot_every_row(self, comp, color=palette.KEY)
        best, leader = _leader(src, "scores", self.said)
        listed = len(tokens) <= L.listed
        if big and best is not None:  # a tall frame has the width for every score with its word: the caption lists them
            column = VGroup(comp.result, words)  # ... and so has a wider one, where the column reads framed whole
            whole = layout.is_tall() or (listed and _reads_whole(column, under))
            part = column if whole else VGroup(comp.result.cell(best), words[best])
            framed.frame_part(self, part, scoring.group, [eq, box], region=under)
            listed = listed and whole  # the caption lists only scores the close-up shows
        verdict = f"{leader} highest" if best is not None else f"no single word highest: {leader}"
        if listed:
            self.say(f"With the dot product, this example gives e = {_caption_list(src, 'scores')}: {verdict}.",
                     narration=f"With the dot product, this example scores {_spoken_list(src, 'scores')}: "
                               f"{verdict}.")
        else:
            self.say(f"With the dot product as the score: {verdict}.")
        highlight = [Indicate(comp.result.cell(best), color=palette.QUERY)] if best is not None else []
        self.play(FadeOut(shown[-1].box), *highlight, run_time=1.0)
        self.wait(1.5)
        return Lit(eq, box), Scoring(comp, words, names)

    @beat
    def normalise_term(self, lit: Lit, scoring: Scoring) -> tuple[Lit, ScoreBars]:
        """α_{t,i}: the softmax turns the scores into weights that sum to one."""
        src, tokens, comp = self.src, self.tokens, scoring.comp
        self.say("Normalise: exponentiate each score and divide by the sum, so the weights sum to one.")
        framed_up = not camera.at_rest(self)  # the scores were framed up close (the camera comes back to rest)
        under = _under_at_rest() if framed_up else _under(lit.eq)
        # a column per word, or (too many words across a narrow frame to read) a row per word
        panel = bars_or_rows(src, "weights", tokens, under, scores="scores", max_height=L.weights_bar_height,
                             max_length=L.weights_bar_length, arrow=True, score_name="e_(t,i)",
                             weight_name="alpha_(t,i)")
        layout.fit_into(panel, under)
        bars = panel.bars
        leftovers = VGroup(scoring.words, scoring.names, *(part for part in comp if part is not comp.result))
        into_panel = (FadeOut(leftovers), FadeOut(comp.result.brackets),
                      ReplacementTransform(comp.result.body, panel.scores.body), FadeIn(panel.score_name))
        if framed_up:  # the scores travel into the panel while the camera comes back to the frame at rest
            framed.move_to_shot(self, camera.rest_shot(), VGroup(), [lit.eq, lit.box], *into_panel, run_time=1.2,
                                region=under)
            self.remove(framed.cover_top_band(self, under))  # at rest nothing passes under the formula
            box = frame_box(lit.eq.select("softmax"), color=palette.WEIGHT)
            self.play(ReplacementTransform(lit.box, box), run_time=0.6)
        else:
            box = frame_box(lit.eq.select("softmax"), color=palette.WEIGHT)
            self.play(ReplacementTransform(lit.box, box), *into_panel, run_time=1.2)
        self.play(FadeIn(panel.arrow), Create(bars.baseline), FadeIn(bars.labels), run_time=0.8)
        self.play(*(GrowFromEdge(bar, panel.grow_edge) for bar in bars.bars), FadeIn(panel.weight_name),
                  run_time=1.2)
        # each score travels down to its bar and becomes the weight written over it
        scores = [panel.scores.cell(i)[1] for i in range(len(tokens))]
        self.play(motion.lagged(motion.scores_to_weights(scores, list(bars.values))), run_time=1.0)
        best, leader = _leader(src, "weights", self.said)
        most = f"; {leader} gets the most." if best is not None else f"; no single word gets the most: {leader}."
        shown = [format_value(v, 2) for v in src.get("weights").tolist()]
        tiny = sum(text == format_value(0.0, 2) for text in shown)
        keeps = ("every word keeps some weight" if not tiny else
                 f"every weight is above zero, though {count_word(tiny)} round to {format_value(0.0, 2)} here")
        if len(tokens) <= L.listed:
            self.say(f"α ≈ {_caption_list(src, 'weights')}: {keeps}{most}",
                     narration=f"The weights come out at {_spoken_list(src, 'weights')}: {keeps}{most}")
        else:
            self.say(f"{keeps[0].upper()}{keeps[1:]}{most}")
        self.wait(2.0)
        return Lit(lit.eq, box), panel

    @beat
    def weighted_sum_term(self, lit: Lit, panel: ScoreBars) -> None:
        """c_t: each encoder vector scaled by its weight, then added."""
        src, tokens = self.src, self.tokens
        box = frame_box(lit.eq.select("context"), color=palette.CONTEXT)
        comp = WeightedRows(src, weights="weights", matrix="H", products="weighted_h", result="context",
                            matrix_color=palette.KEY)
        comp.weights.add_row_labels(tokens, color=palette.ENGLISH, font_size=typography.LABEL_SIZE)
        names = VGroup(
            math("alpha_(t,i)", font_size=typography.BODY_SIZE, color=palette.WEIGHT).next_to(comp.weights, UP,
                                                                                            buff=layout.NEAR),
            math("h_i", font_size=typography.BODY_SIZE, color=palette.KEY).next_to(comp.matrix, UP,
                                                                                  buff=layout.NEAR),
            math("c_t", font_size=typography.BODY_SIZE, color=palette.CONTEXT).next_to(comp.result, LEFT,
                                                                                      buff=layout.NEAR),
        )
        whole = VGroup(comp, names)
        under = _under_at_rest()
        big = close_up.build_legible(whole, under)
        bars = panel.bars

        self.say("Weighted sum: scale each encoder vector h_i by its weight α_(t,i), then add them up.")
        into_weights = [ReplacementTransform(bars.values[i], comp.weights.cell(i)) for i in range(len(tokens))]
        panel_rest = FadeOut(VGroup(bars.bars, bars.baseline, bars.labels, panel.scores_group, panel.arrow,
                                    panel.weight_name))
        parts = (FadeIn(comp.weights.row_labels), FadeIn(comp.matrix), FadeIn(names[:2]))
        if big:  # the weights travel into the whole, seen from afar, then the first row is worked up close
            self.play(ReplacementTransform(lit.box, box), run_time=0.6)
            shot = camera.shot_on_all(whole, under)
            close_up.apply_shot_state(shot, whole, under)
            cover = framed.cover_top_band(self, under)
            framed.keep_in_front(self, [lit.eq, box])
            self.play(*camera.move_camera(self, shot, pinned=[cover, lit.eq, box]), *into_weights, panel_rest,
                      *parts, FadeIn(comp.scaffold()), run_time=1.4)
            framed.keep_in_front(self, [lit.eq, box])
            shown = framed.scale_every_row(self, comp, whole, [lit.eq, box], labels=list(comp.weights.row_labels),
                                           color=palette.WEIGHT, region=under)
        else:
            self.play(ReplacementTransform(lit.box, box), *into_weights, panel_rest, *parts, run_time=1.2)
            self.play(FadeIn(comp.scaffold()), run_time=0.5)
            shown = scale_every_row(self, comp, color=palette.WEIGHT)
        self.play(FadeOut(shown[-1].box), run_time=0.3)
        add_rows(self, comp, with_sum=[FadeIn(names[-1])])  # add_rows fades in the brackets
        c_text = ", ".join(format_value(v, 2) for v in src.get("context").tolist())
        self.say(f"c_t = ({c_text}): the context the decoder uses for this step.",
                 narration=f"The result, c_t = ({c_text}), is the context the decoder uses for this step.")
        if big:  # end on c_t, its numbers legible (in pieces where the row is too long for the frame)
            framed.frame_along(self, names[-1], comp.result, whole, [lit.eq, box], region=under)
        self.play(Indicate(comp.result, color=palette.CONTEXT), run_time=1.0)
        self.wait(1.5)

    @beat
    def dot_vs_additive(self) -> None:
        """The two common score functions on the same q and h_i, with their scores and weights."""
        src, tokens = self.src, self.tokens
        self.say("The score function is a choice. Two common ones: a dot product, or a small MLP over [q; h_i].",
                 narration="The score function is a choice. Two common ones: a dot product, or a small MLP applied "
                           "to q and h_i joined together.")
        self.clear_stage()
        kinds = (("dot product", "e_i = q^top h_i", "scores", "weights", None),
                 ("additive (small MLP)", _additive_expression(), "additive_scores",
                  "additive_weights", "seeded at random, not trained"))
        alone = [_score_panel(src, tokens, *kind[:-1], flat=False, note=kind[-1]) for kind in kinds]
        pairs_legible = False
        candidates = []
        for flat, direction in ((False, RIGHT), (True, DOWN)):
            pair = VGroup(*(_score_panel(src, tokens, *kind[:-1], flat=flat, note=kind[-1]) for kind in kinds))
            pair.arrange(direction, buff=layout.FAR, aligned_edge=UP if direction is RIGHT else RIGHT)
            if not flat:  # formulas of different heights: line the bars (and what hangs under them) up anyway
                pair[1].formula.match_y(pair[0].formula)
                VGroup(pair[1].bars, pair[1].remark).shift(
                    UP * (pair[0].bars.get_bottom()[1] - pair[1].bars.get_bottom()[1]))
            candidates.append(pair)
            pairs_legible |= layout.fits_legibly(pair, layout.frame(), close_up.smallest_font(pair))
        if not pairs_legible and not self._reads_alone(*alone):  # bars for the room the words leave them
            reserve = self._reminder().height + layout.NEAR  # under the MLP's panel: the dot product's verdict
            alone = [_score_panel(src, tokens, *kind[:-1], flat=False, note=kind[-1], room=True,
                                  reserve=reserve if kind is kinds[-1] else 0.0) for kind in kinds]
        if all(layout.fits_legibly(p, layout.frame(), close_up.smallest_font(p)) for p in alone) and (
                not pairs_legible or min(map(_shown_size, alone)) > max(map(_shown_size, candidates))
                < typography.WORKED_NUMBER_SIZE):
            # too many words for two panels legibly, or for their numbers to read at the worked size when one
            # alone would read larger: one, then the other
            self._one_panel_at_a_time(*alone)
            return
        pair = layout.fit_best(candidates, layout.frame())
        dot, mlp = pair
        if pair is candidates[0]:  # side by side: a vertical rule between them
            divider = Line(pair.get_top(), pair.get_bottom()).move_to(layout.between(dot, mlp))
        else:
            divider = Line(pair.get_left(), pair.get_right()).move_to(layout.below(dot, mlp))
        divider.set_stroke(palette.MUTED, width=1)

        self.play(FadeIn(dot.heading), Write(dot.formula), FadeIn(mlp.heading), Write(mlp.formula),
                  Create(divider), run_time=1.5)
        self.wait(0.8)
        listed = len(tokens) <= L.listed
        self.say(f"Same q and h_i, different scores: dot product {_caption_list(src, 'scores')}, "
                 f"MLP {_caption_list(src, 'additive_scores')}." if listed else "Same q and h_i, different scores.",
                 narration=f"Same q and h_i, different scores: the dot product gives {_spoken_list(src, 'scores')}; "
                           f"the MLP gives {_spoken_list(src, 'additive_scores')}." if listed else None)
        for panel in (dot, mlp):
            self.play(FadeIn(panel.bars.scores_group, lag_ratio=0.2), run_time=1.0)
        self.wait(1.0)
        dot_lead, dot_text = _leader(src, "weights", self.said)
        mlp_lead, mlp_text = _leader(src, "additive_weights", self.said)
        if dot_lead is not None and dot_lead == mlp_lead:
            verdict = f"both put {self.said[dot_lead]} first."
        else:
            verdict = f"the dot product puts {dot_text} first, the MLP {mlp_text}."
        if listed:
            self.say(f"Softmax weights: {_caption_list(src, 'weights')} versus "
                     f"{_caption_list(src, 'additive_weights')}: {verdict}",
                     narration=f"After the softmax: {_spoken_list(src, 'weights')} for the dot product, versus "
                               f"{_spoken_list(src, 'additive_weights')} for the MLP: {verdict}")
        else:
            self.say(f"After the softmax, {verdict}")
        self.play(FadeIn(dot.bars.weights_group), FadeIn(mlp.bars.weights_group), run_time=1.2)
        self.wait(1.5)
        flatter = _spread(src, "additive_weights") < _spread(src, "weights")
        shape = ("so its weights are flatter than the dot product's" if flatter else
                 "so its weights mean nothing yet, however peaked they look")
        self.say(f"This MLP's W_1, b_1, w_2 are random, not trained, {shape}; training shapes any score function.")
        self.play(FadeIn(mlp.remark), Indicate(mlp.bars.bars.bars, color=palette.WEIGHT), run_time=1.2)
        self.wait(1.5)

    def _reminder(self) -> VGroup:
        """The dot product's top word, named under the MLP's panel when the panels come one at a time."""
        dot_text = _leader(self.src, "weights", self.said)[1]
        return wrapped(f"dot product: {dot_text} first", layout.frame().width,  # a long word: on two lines
                       font_size=typography.LABEL_SIZE, color=palette.MUTED)

    def _reads_alone(self, dot: VGroup, mlp: VGroup) -> bool:
        """Whether each panel alone (the MLP's with the reminder under it) fits the frame legibly."""
        shown = VGroup(mlp.copy(), self._reminder())
        shown[1].next_to(shown[0], DOWN, buff=layout.NEAR)
        return all(layout.fits_legibly(p, layout.frame(), close_up.smallest_font(p)) for p in (dot, shown))

    def _one_panel_at_a_time(self, dot: VGroup, mlp: VGroup) -> None:
        """The dot-product panel, then the additive one in its place (each alone fills the frame legibly); the
        dot product's top word stays named under the MLP's panel so the verdict can be read off the screen."""
        src = self.src
        dot_lead, dot_text = _leader(src, "weights", self.said)
        mlp_lead, mlp_text = _leader(src, "additive_weights", self.said)
        if dot_lead is not None and dot_lead == mlp_lead:
            verdict = f"both put {self.said[dot_lead]} first."
        else:
            verdict = f"the dot product puts {dot_text} first, the MLP {mlp_text}."
        reminder = self._reminder()
        for panel in (dot, mlp):
            layout.fit_into(panel, layout.frame())
        room = layout.frame()
        mlp.add(reminder)  # the reminder shares the MLP panel's fitting, under its note
        reminder.next_to(mlp.remark, DOWN, buff=layout.NEAR)
        layout.fit_into(mlp, room)
        mlp.remove(reminder)
        self.play(FadeIn(dot.heading), Write(dot.formula), run_time=1.2)
        self.say("Same q and h_i, different scores.")
        self.play(FadeIn(dot.bars.scores_group, lag_ratio=0.2), run_time=1.0)
        self.wait(0.8)
        self.play(FadeIn(dot.bars.weights_group), run_time=1.0)
        if dot_lead is not None:
            self.play(Indicate(dot.bars.bars.bars[dot_lead], color=palette.WEIGHT), run_time=0.8)
        self.wait(0.8)
        shift = RIGHT * layout.frame().width
        on_stage = VGroup(dot.heading, dot.formula, dot.bars.scores_group, dot.bars.weights_group)
        self.play(on_stage.animate.shift(-shift).set_opacity(0), FadeIn(mlp.heading, shift=-shift),
                  FadeIn(mlp.formula, shift=-shift), run_time=1.0)
        self.remove(on_stage)
        self.play(FadeIn(mlp.bars.scores_group, lag_ratio=0.2), run_time=1.0)
        self.wait(0.8)
        self.say(f"After the softmax, {verdict}")
        self.play(FadeIn(mlp.bars.weights_group), FadeIn(reminder), run_time=1.2)
        self.wait(1.5)
        flatter = _spread(src, "additive_weights") < _spread(src, "weights")
        shape = ("so its weights are flatter than the dot product's" if flatter else
                 "so its weights mean nothing yet, however peaked they look")
        self.say(f"This MLP's W_1, b_1, w_2 are random, not trained, {shape}; training shapes any score function.")
        self.play(FadeIn(mlp.remark), Indicate(mlp.bars.bars.bars, color=palette.WEIGHT), run_time=1.2)
        self.wait(1.5)

    @beat
    def same_pattern_as_self_attention(self) -> None:
        """The closing point: score → normalise → weighted sum is what self-attention reuses."""
        self.say("score → normalise → weighted sum: the same pattern self-attention reuses inside Transformers.",
                 narration="Score, normalise, weighted sum: the same pattern that self-attention reuses inside "
                           "Transformers.")
        self.clear_stage()
        eq = _formula()
        if isinstance(eq, StackedFormula):
            self._pattern_in_stacked_terms(eq)
            return
        steps = VGroup()
        for text, color in (("score", palette.QUERY), ("normalise", palette.WEIGHT),
                            ("weighted sum", palette.CONTEXT)):
            word = label(text, font_size=typography.BODY_SIZE, color=color)
            frame = SurroundingRectangle(word, buff=L.step_pad, corner_radius=L.step_corner, color=color,
                                         stroke_width=2)
            steps.add(VGroup(frame, word))
        steps.arrange(RIGHT, buff=layout.FAR)
        note = VGroup(
            label("The same pattern runs inside self-attention,", font_size=typography.BODY_SIZE),
            label("where every token is both a query source and a key/value source.",
                  font_size=typography.LABEL_SIZE, color=palette.MUTED),
        ).arrange(DOWN, buff=layout.NEAR)
        whole = VGroup(eq, steps, note).arrange(DOWN, buff=layout.FAR)
        if not legible.fits_at_floor(whole, layout.frame()):  # the steps side by side would read too small
            self._pattern_in_stacked_terms(_formula(stacked=True))
            return
        layout.fit_into(whole, layout.frame())
        arrows = VGroup(flow_arrow(steps[0], steps[1]), flow_arrow(steps[1], steps[2]))
        links = VGroup(*(Line(eq.select(name).get_bottom() + DOWN * layout.TIGHT, step.get_top() + UP * layout.TIGHT,
                              stroke_color=palette.MUTED, stroke_width=1.5)
                         for name, step in zip(("score", "softmax", "context"), steps)))

        self.play(FadeIn(eq), run_time=0.8)
        self.play(FadeIn(steps, lag_ratio=0.4), Create(links, lag_ratio=0.4), run_time=1.5)
        self.play(Create(arrows, lag_ratio=0.5), run_time=0.8)
        self.wait(1.0)
        self.say("In self-attention every token is both a query source and a key/value source.")
        self.play(FadeIn(note, shift=UP * layout.NUDGE), run_time=1.0)
        self.wait(2.5)

    def _pattern_in_stacked_terms(self, eq: StackedFormula) -> None:
        """same_pattern_as_self_attention in a narrow frame: each term of the stacked formula framed as its step,
        named over it, the steps one under the other with arrows down, the note under them."""
        width = layout.frame().width
        steps, words = VGroup(), VGroup()
        for text, color, line in zip(STEP_NAMES, (palette.QUERY, palette.WEIGHT, palette.CONTEXT), eq):
            word = label(text, font_size=typography.BODY_SIZE, color=color)
            VGroup(word, line).arrange(DOWN, buff=layout.TIGHT)
            frame = SurroundingRectangle(VGroup(word, line), buff=layout.TIGHT, corner_radius=L.step_corner,
                                         color=color, stroke_width=2)
            steps.add(VGroup(frame, word, line))
            words.add(VGroup(frame, word))
        steps.arrange(DOWN, buff=layout.APART)
        note = VGroup(
            wrapped("The same pattern runs inside self-attention,", width, font_size=typography.BODY_SIZE),
            wrapped("where every token is both a query source and a key/value source.", width,
                    font_size=typography.LABEL_SIZE, color=palette.MUTED),
        ).arrange(DOWN, buff=layout.NEAR)
        layout.fit_into(VGroup(steps, note).arrange(DOWN, buff=layout.APART), layout.frame())
        arrows = VGroup(flow_arrow(steps[0], steps[1], down=True), flow_arrow(steps[1], steps[2], down=True))

        self.play(FadeIn(eq), run_time=0.8)
        self.play(FadeIn(words, lag_ratio=0.4), run_time=1.5)
        self.play(Create(arrows, lag_ratio=0.5), run_time=0.8)
        self.wait(1.0)
        self.say("In self-attention every token is both a query source and a key/value source.")
        self.play(FadeIn(note, shift=UP * layout.NUDGE), run_time=1.0)
        self.wait(2.5)
