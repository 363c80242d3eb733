"""Soft attention in one formula: each term lights up as the picture it names comes back.

Follows "Soft attention in one formula": e_{t,i} = score(q_t, h_i), α_{t,i} = softmax, c_t = Σ α_{t,i} h_i,
then the two common score functions (dot product, small MLP over [q; h_i]) side by side on the same q and
h_i, and the closing point that score → normalise → weighted sum is the pattern self-attention reuses.
Everything adapts to the example's sentence and widths; every claim (which word leads) is computed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from manim import (
    DOWN, LEFT, RIGHT, UP, Create, FadeIn, FadeOut, GrowFromEdge, Indicate, Line, ReplacementTransform,
    SurroundingRectangle, VGroup, Write,
)

from scenes.kit import (
    AttentionScene, DotProducts, Source, WeightedRows, add_rows, beat, caption_brace, dot_every_row, flow_arrow,
    format_value, term_box, label, math, palette, scale_every_row, typography,
)
from scenes.kit import layout, motion, staging
from scenes.kit.claims import count_word, leader_of, spoken_values, value_list
from scenes.kit.widgets import divider
from scenes.kit.compose import Form, Plan, compose, single
from scenes.kit.forms import flow_forms, flow_forms_by_row_height
from scenes.kit.products import encoder_scoring_forms
from scenes.kit.score_bars import ScoreBars, bars_or_rows
from scenes.kit.languages import source_language
from scenes.kit.text import wrapped
from scenes.kit.translation import N_, _, capitalized, n_, numbers_listed, quoted

#: The formula's three terms (score, softmax, context), on one line in a wide frame, one under the other in a narrow one.
TERMS = (
    '{{ e_(t,i) = op("score")({{ q_t : q }}, {{ h_i : h1 }}) : score }}',
    '{{ {{ alpha_(t,i) : a1 }} = exp(e_(t,i)) / (sum_j exp(e_(t,j))) : softmax }}',
    '{{ {{ c_t : c }} = sum_i {{ alpha_(t,i) : a2 }} {{ h_i : h2 }} : context }}',
)
FORMULA = ", quad ".join(TERMS)
STEP_NAMES = (N_("score"), N_("normalise"), N_("weighted sum"))  # messages, translated where shown


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
    """What the score step leaves on screen: the products composition, the words naming its rows, the names, and
    the plan it was shown by (the next beat brings the camera back to rest by it)."""

    comp: DotProducts
    words: VGroup
    names: VGroup
    plan: Plan


def _spread(src: Source, path: str) -> float:
    values = src.get(path)
    return float(values.max() - values.min())


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


def _formula(stacked: bool):
    """The three-part formula with its roles coloured (q yellow, h teal, α violet, c green): on one line, or its
    terms stacked, each its own line."""
    if stacked:
        eq = StackedFormula(*(math(term, font_size=typography.BODY_SIZE) for term in TERMS))
        eq.arrange(DOWN, buff=layout.NEAR)
    else:
        eq = math(FORMULA, font_size=typography.BODY_SIZE + 10)
    eq.select("q").set_color(palette.QUERY)
    for name in ("h1", "h2"):
        eq.select(name).set_color(palette.KEY)
    for name in ("a1", "a2"):
        eq.select(name).set_color(palette.WEIGHT)
    eq.select("c").set_color(palette.CONTEXT)
    return eq


def _fit_formula():
    """The formula across the frame on one line where it reads at the worked size there (a square's width takes
    it below), else its terms stacked (only shrunk to fit: grown to the frame's width, its three lines would take
    half the frame's height from the picture)."""
    eq, _ = compose([Form("one line", lambda: _formula(False), all_worked=True),
                     Form("stacked", lambda: _formula(True), grow=False)], layout.frame())
    return eq


def _term_braces(eq) -> VGroup:
    """The one-line formula's three terms, each named by a brace under it on one shared line; a name wider than the
    room between its neighbours (a longer language) wraps onto lines that wide."""
    floor, frame = eq.get_bottom()[1], layout.frame()
    terms = [eq.select(name) for name in ("score", "softmax", "context")]
    edges = [frame.left, *((a.get_right()[0] + b.get_left()[0]) / 2 for a, b in zip(terms, terms[1:])), frame.right]
    braces = VGroup()
    for k, (term, name) in enumerate(zip(terms, map(_, STEP_NAMES))):
        centre = term.get_center()[0]
        room = 2 * min(centre - edges[k], edges[k + 1] - centre) - layout.NEAR
        span = Line([term.get_left()[0], floor, 0], [term.get_right()[0], floor, 0])  # the braces share one line
        braces.add(caption_brace(span, name, width=room))
    return braces


def _under_at_rest() -> layout.Region:
    """The room under the formula where it sits at the top of the frame at rest (the camera carries the formula on
    screen when it moves, so its scene position then says nothing about the screen)."""
    eq = _fit_formula()
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
        self.said = [quoted(t) for t in self.tokens]  # the words as a caption quotes them
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
        eq = _fit_formula()
        if isinstance(eq, StackedFormula):
            return self._name_stacked_terms(eq)
        braces = _term_braces(eq)
        self._write_and_name_the_terms(eq, braces, stacked=False)
        self.play(FadeOut(braces), eq.animate.to_edge(UP, buff=layout.MARGIN), run_time=0.8)
        return eq

    def _write_and_name_the_terms(self, formula, braces: VGroup, *, stacked: bool) -> None:
        """The formula written, its three terms named by their braces, and what t and i are (one line or stacked)."""
        next_word = self.src.get("next_word")
        self.say(_("Given encoder states h_1 … h_T and a decoder query q_t, soft attention is one formula.") if stacked
                 else _("Given encoder states h_1 … h_T and a decoder query q_t, soft attention is one line."),
                 subject=formula)
        self.play(Write(formula), run_time=2.0)
        self.wait(0.8)
        self.say(_("Three parts: score every {source} position, normalise the scores, take a weighted sum.").format(
            source=source_language()), subject=braces)
        self.play(FadeIn(braces, lag_ratio=0.4), run_time=1.5)
        self.wait(1.0)
        indices = VGroup(*(formula.select(name) for name in ("q", "h1")))  # q_t carries t, h_i carries i
        self.say(_("t is the decoder step (here: about to predict {word}); i runs over the {source} words.").format(
                     word=quoted(next_word), source=source_language()),
                 narration=_("The index t is the decoder step, here the step about to predict {word}, and i runs over "
                             "the {source} words.").format(word=next_word, source=source_language()), subject=indices)
        self.play(*(Indicate(part, color=palette.ACCENT) for part in indices), run_time=1.2)
        self.wait(1.3)

    def _name_stacked_terms(self, eq: StackedFormula) -> StackedFormula:
        """the_formula with the terms stacked: each named by a brace under it, the lines spaced apart for the names;
        they close up at the top of the frame at the end, where the next beats find them."""
        eq.to_edge(UP, buff=layout.MARGIN)
        shown = eq.copy()
        braces = VGroup(*(caption_brace(line, _(text)) for line, text in zip(shown, STEP_NAMES)))
        layout.fit_into(VGroup(*(VGroup(line, brace) for line, brace in zip(shown, braces))).arrange(
            DOWN, buff=layout.GAP), layout.frame(), grow=False)
        self._write_and_name_the_terms(shown, braces, stacked=True)
        self.play(FadeOut(braces), ReplacementTransform(shown, eq), run_time=0.8)
        return eq

    @beat
    def score_term(self, eq: VGroup) -> tuple[Lit, Scoring]:
        """e_{t,i}: one number per English word, each a dot product: products of q and h_i, then their sum."""
        src = self.src
        box = term_box(eq, ["score"], palette.QUERY)
        scoring, plan = compose(encoder_scoring_forms(src, self.tokens, q_name="q_t", e_name="e_(t,i)"),
                                _under_at_rest(), pinned=[eq, box])
        comp, words, names = scoring.comp, scoring.words, scoring.names
        self.say(_("score(q_t, h_i) compares the query with each encoder vector: one number per {source} word.").format(
                     source=source_language()),
                 narration=_("The score compares the query q_t with each encoder vector h_i, giving one number per "
                             "{source} word.").format(source=source_language()),
                 subject=VGroup(comp.products, comp.result))
        self.play(Create(box), run_time=0.8)
        staging.enter(self, plan, FadeIn(words, lag_ratio=0.2), FadeIn(comp.matrix), FadeIn(comp.vector),
                      FadeIn(names[:2]), scaffold=[FadeIn(comp.scaffold()), FadeIn(names[-1])])
        shown = staging.dot_every_row(self, plan, comp, labels=list(words), color=palette.KEY)
        best = leader_of(src, "scores", self.said)[0]
        caption, narration = score_verdict(src, self.said, listed=len(self.tokens) <= L.listed)
        self.say(caption, narration=narration, subject=comp.result)
        staging.end_on(self, plan, VGroup(words, comp.result))  # the scores last: the caption reads them
        highlight = [Indicate(comp.result.cell(best), color=palette.QUERY)] if best is not None else []
        self.play(FadeOut(shown[-1].box), *highlight, run_time=1.0)
        self.wait(1.5)
        return Lit(eq, box), Scoring(comp, words, names, plan)

    @beat
    def normalise_term(self, lit: Lit, scoring: Scoring) -> tuple[Lit, ScoreBars]:
        """α_{t,i}: the softmax turns the scores into weights that sum to one."""
        src, tokens, comp = self.src, self.tokens, scoring.comp
        under = _under_at_rest()
        # a column per word, or (too many words across a narrow frame to read) a row per word; filmed where even
        # the form that reads largest is larger than the room at the floor (a long word, six words, a phone)
        panel, plan = compose(single("bars", lambda: bars_or_rows(
            src, "weights", tokens, under, scores="scores", max_height=L.weights_bar_height,
            max_length=L.weights_bar_length, arrow=True, score_name="e_(t,i)", weight_name="alpha_(t,i)")),
            under, pinned=[lit.eq])
        staging.hang_from_top(plan)
        bars = panel.bars
        leftovers = VGroup(scoring.words, scoring.names, *(part for part in comp if part is not comp.result))

        self.say(_("Normalise: exponentiate each score and divide by the sum, so the weights sum to one."),
                 subject=panel.scores)
        staging.settle_below(plan, panel)  # what lies below the frame takes its numbers in when the camera is there
        staging.back_to_rest(self, scoring.plan, FadeOut(leftovers), FadeOut(comp.result.brackets),
                             ReplacementTransform(comp.result.body, panel.scores.body), FadeIn(panel.score_name),
                             run_time=1.2)  # the scores travel into the panel (the camera comes back to rest)
        box = term_box(lit.eq, ["softmax"], palette.WEIGHT)  # the formula where it rests on screen
        plan = replace(plan, pinned=(*plan.pinned, box))  # the box stays on the formula while the camera scrolls
        self.play(ReplacementTransform(lit.box, box), run_time=0.6)
        self.play(FadeIn(panel.arrow), Create(bars.baseline), FadeIn(bars.labels), run_time=0.8)
        self.play(*(GrowFromEdge(bar, panel.grow_edge) for bar in bars.bars), FadeIn(panel.weight_name),
                  run_time=1.2)
        staging.scroll_to(self, plan, panel.row(len(tokens) - 1), rows=[panel.row(i) for i in range(len(tokens))])
        # each score travels down to its bar and becomes the weight written over it
        scores = [panel.scores.cell(i)[1] for i in range(len(tokens))]
        self.play(motion.lagged(motion.scores_to_weights(scores, list(bars.values))), run_time=1.0)
        caption, narration = weights_verdict(src, self.said, listed=len(tokens) <= L.listed)
        self.say(caption, narration=narration, subject=VGroup(*bars.values))
        self.wait(2.0)
        staging.scroll_back(self, plan)
        return Lit(lit.eq, box), panel

    @beat
    def weighted_sum_term(self, lit: Lit, panel: ScoreBars) -> None:
        """c_t: each encoder vector scaled by its weight, then added."""
        src, tokens, bars = self.src, self.tokens, panel.bars
        box = term_box(lit.eq, ["context"], palette.CONTEXT)
        under = _under_at_rest()
        (comp, names), plan = compose(flow_forms_by_row_height(
            lambda stacked, cell: _weighted_sum(src, tokens, stacked, cell)), under, pinned=[lit.eq, box])
        into_weights = [ReplacementTransform(bars.values[i], comp.weights.cell(i)) for i in range(len(tokens))]
        panel_rest = staging.fade_out_all(self, VGroup(bars.bars, bars.baseline, bars.labels, bars.values,
                                                       panel.scores_group, panel.arrow, panel.weight_name))

        self.say(_("Weighted sum: scale each encoder vector h_i by its weight α_(t,i), then add them up."),
                 subject=VGroup(comp.weights, comp.products))
        self.play(ReplacementTransform(lit.box, box), *panel_rest, run_time=0.6)
        staging.enter(self, plan, *into_weights, FadeIn(comp.weights.row_labels), FadeIn(comp.matrix),
                      FadeIn(names[:2]), scaffold=[FadeIn(comp.scaffold())], run_time=1.2)
        shown = staging.scale_every_row(self, plan, comp, labels=list(comp.weights.row_labels), color=palette.WEIGHT)
        self.play(FadeOut(shown[-1].box), run_time=0.3)
        add_rows(self, comp, with_sum=[FadeIn(names[-1])])  # add_rows fades in the brackets
        c_text = numbers_listed(format_value(v, 2) for v in src.get("context").tolist())
        self.say(_("c_t = ({values}): the context the decoder uses for this step.").format(values=c_text),
                 narration=_("The result, c_t = ({values}), is the context the decoder uses for this step.").format(
                     values=c_text),
                 subject=comp.result)
        staging.end_along(self, plan, names[-1], comp.result)  # c_t legible (in pieces where the row is too long)
        self.play(Indicate(comp.result, color=palette.CONTEXT), run_time=1.0)
        self.wait(1.5)

    @beat
    def dot_vs_additive(self) -> None:
        """The two common score functions on the same q and h_i, with their scores and weights."""
        shown, plan = compose(_score_function_forms(self.src, self.tokens, self.said), layout.frame())
        self.say(_("The score function is a choice. Two common ones: a dot product, or a small MLP over [q; h_i]."),
                 narration=_("The score function is a choice. Two common ones: a dot product, or a small MLP applied "
                             "to q and h_i joined together."), subject=shown[0].formula)  # the dot product's first
        self.clear_stage()
        if plan.form.startswith("one at a time"):
            self._one_panel_at_a_time(*shown)
            return
        dot, mlp = shown
        src, listed = self.src, len(self.tokens) <= L.listed
        rule = divider(dot, mlp, across=plan.form == "side by side")
        self.play(FadeIn(dot.heading), Write(dot.formula), FadeIn(mlp.heading), Write(mlp.formula),
                  Create(rule), run_time=1.5)
        self.wait(0.8)
        self.say(_("Same q and h_i, different scores: dot product {dot}, MLP {mlp}.").format(
                     dot=value_list(src, "scores"), mlp=value_list(src, "additive_scores"))
                 if listed else _("Same q and h_i, different scores."),
                 narration=_("Same q and h_i, different scores: the dot product gives {dot}; the MLP gives "
                             "{mlp}.").format(dot=spoken_values(src, "scores"), mlp=spoken_values(src, "additive_scores"))
                 if listed else None,
                 subject=VGroup(dot.bars.scores, mlp.bars.scores))
        for panel in (dot, mlp):
            self.play(FadeIn(panel.bars.scores_group, lag_ratio=0.2), run_time=1.0)
        self.wait(1.0)
        caption, narration = both_weights(src, self.said, listed)
        self.say(caption, narration=narration, subject=VGroup(*dot.bars.bars.values, *mlp.bars.bars.values))
        self.play(FadeIn(dot.bars.weights_group), FadeIn(mlp.bars.weights_group), run_time=1.2)
        self.wait(1.5)
        self.say(mlp_is_random(src), subject=mlp.remark)
        self.play(FadeIn(mlp.remark), Indicate(mlp.bars.bars.bars, color=palette.WEIGHT), run_time=1.2)
        self.wait(1.5)

    def _one_panel_at_a_time(self, dot: VGroup, mlp: VGroup, reminder: VGroup) -> None:
        """The dot-product panel, then the additive one in its place (each alone fills the frame legibly); the
        dot product's top word stays named under the MLP's panel so the verdict can be read off the screen."""
        src = self.src
        dot_lead = leader_of(src, "weights", self.said)[0]
        self.play(FadeIn(dot.heading), Write(dot.formula), run_time=1.2)
        self.say(_("Same q and h_i, different scores."), subject=dot.bars.scores)
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
        self.say(_("After the softmax, {verdict}").format(verdict=score_functions_verdict(src, self.said)),
                 subject=VGroup(*mlp.bars.bars.values, reminder))
        self.play(FadeIn(mlp.bars.weights_group), FadeIn(reminder), run_time=1.2)
        self.wait(1.5)
        self.say(mlp_is_random(src), subject=mlp.remark)
        self.play(FadeIn(mlp.remark), Indicate(mlp.bars.bars.bars, color=palette.WEIGHT), run_time=1.2)
        self.wait(1.5)

    @beat
    def same_pattern_as_self_attention(self) -> None:
        """The closing point: score → normalise → weighted sum is what self-attention reuses."""
        pattern, _plan = compose(_pattern_forms(), layout.frame())
        self.say(_("score → normalise → weighted sum: the same pattern self-attention reuses inside Transformers."),
                 narration=_("Score, normalise, weighted sum: the same pattern that self-attention reuses inside "
                             "Transformers."), subject=pattern.steps)
        self.clear_stage()
        self.play(FadeIn(pattern.eq), run_time=0.8)
        self.play(FadeIn(pattern.steps, lag_ratio=0.4), Create(pattern.links(), lag_ratio=0.4), run_time=1.5)
        self.play(Create(pattern.arrows(), lag_ratio=0.5), run_time=0.8)
        self.wait(1.0)
        self.say(_("In self-attention every token is both a query source and a key/value source."),
                 subject=pattern.note)
        self.play(FadeIn(pattern.note, shift=UP * layout.NUDGE), run_time=1.0)
        self.wait(2.5)


# --- captions and claims: computed from the example -------------------------------------------------------------

def score_verdict(src: Source, said: list[str], *, listed: bool) -> tuple[str, str | None]:
    """(caption, narration) after the scores: which word scores highest, with every score when `listed`."""
    best, leader = leader_of(src, "scores", said)
    verdict = (_("{leader} highest") if best is not None else _("no single word highest: {leader}")).format(
        leader=leader)
    if not listed:
        return _("With the dot product as the score: {verdict}.").format(verdict=verdict), None
    return (_("With the dot product, this example gives e = {values}: {verdict}.").format(
                values=value_list(src, "scores"), verdict=verdict),
            _("With the dot product, this example scores {values}: {verdict}.").format(
                values=spoken_values(src, "scores"), verdict=verdict))


def weights_verdict(src: Source, said: list[str], *, listed: bool) -> tuple[str, str | None]:
    """(caption, narration) after the softmax: every weight is above zero (some may round to 0.00), and which word
    gets the most, with every weight when `listed`."""
    best, leader = leader_of(src, "weights", said)
    zero = format_value(0.0, 2)
    tiny = sum(format_value(v, 2) == zero for v in src.get("weights").tolist())
    keeps = (_("every word keeps some weight") if not tiny else
             n_("every weight is above zero, though {count} round to {zero} here",  # English as it always read
                "every weight is above zero, though {count} round to {zero} here", tiny).format(
                 count=count_word(tiny), zero=zero))
    verdict = (_("{keeps}; {leader} gets the most.") if best is not None else
               _("{keeps}; no single word gets the most: {leader}.")).format(keeps=keeps, leader=leader)
    if not listed:
        return capitalized(verdict), None
    return (_("α ≈ {values}: {verdict}").format(values=value_list(src, "weights"), verdict=verdict),
            _("The weights come out at {values}: {verdict}").format(values=spoken_values(src, "weights"),
                                                                    verdict=verdict))


def score_functions_verdict(src: Source, said: list[str]) -> str:
    """Whether the dot product and the MLP put the same word first."""
    dot_lead, dot_text = leader_of(src, "weights", said)
    mlp_lead, mlp_text = leader_of(src, "additive_weights", said)
    if dot_lead is not None and dot_lead == mlp_lead:
        return _("both put {word} first.").format(word=said[dot_lead])
    return _("the dot product puts {dot} first, the MLP {mlp}.").format(dot=dot_text, mlp=mlp_text)


def both_weights(src: Source, said: list[str], listed: bool) -> tuple[str, str | None]:
    """(caption, narration) over both panels' weights."""
    verdict = score_functions_verdict(src, said)
    if not listed:
        return _("After the softmax, {verdict}").format(verdict=verdict), None
    return (_("Softmax weights: {dot} versus {mlp}: {verdict}").format(
                dot=value_list(src, "weights"), mlp=value_list(src, "additive_weights"), verdict=verdict),
            _("After the softmax: {dot} for the dot product, versus {mlp} for the MLP: {verdict}").format(
                dot=spoken_values(src, "weights"), mlp=spoken_values(src, "additive_weights"), verdict=verdict))


def mlp_is_random(src: Source) -> str:
    """The MLP is seeded, not trained: its weights flatter than the dot product's, or meaningless however peaked."""
    flatter = _spread(src, "additive_weights") < _spread(src, "weights")
    if flatter:
        return _("This MLP's W_1, b_1, w_2 are random, not trained, so its weights are flatter than the dot "
                 "product's; training shapes any score function.")
    return _("This MLP's W_1, b_1, w_2 are random, not trained, so its weights mean nothing yet, however peaked they "
             "look; training shapes any score function.")


# --- forms: the arrangements the layout engine chooses from ---------------------------------------------------

def _weighted_sum(src: Source, tokens: list[str], stacked: bool, cell: float) -> VGroup:
    """c_t = Σ α_(t,i) h_i as weighted rows (the words beside the weights), with the names of α, h and c_t; `cell`
    is a row's height."""
    comp = WeightedRows(src, weights="weights", matrix="H", products="weighted_h", result="context",
                        matrix_color=palette.KEY, stacked=stacked, cell_size=cell)
    comp.weights.add_row_labels(tokens, color=palette.ENGLISH, font_size=typography.LABEL_SIZE)
    names = VGroup(
        math("alpha_(t,i)", font_size=typography.BODY_SIZE, color=palette.WEIGHT).next_to(comp.weights, UP,
                                                                                        buff=layout.NEAR),
        math("h_i", font_size=typography.BODY_SIZE, color=palette.KEY).next_to(comp.matrix, UP, buff=layout.NEAR),
        math("c_t", font_size=typography.BODY_SIZE, color=palette.CONTEXT).next_to(comp.result, LEFT,
                                                                                  buff=layout.NEAR),
    )
    return VGroup(comp, names)


#: The two score functions: (title, formula, scores path, weights path, note).
def _score_functions() -> tuple[tuple, tuple]:
    return ((_("dot product"), "e_i = q^top h_i", "scores", "weights", None),
            (_("additive (small MLP)"), _additive_expression(), "additive_scores", "additive_weights",
             _("seeded at random, not trained")))


def _panel_pair(src: Source, tokens: list[str], *, stacked: bool) -> VGroup:
    """Both panels side by side (words over the bars) or one above the other (words left of the bars)."""
    pair = VGroup(*(_score_panel(src, tokens, *kind[:-1], flat=stacked, note=kind[-1])
                    for kind in _score_functions()))
    pair.arrange(DOWN if stacked else RIGHT, buff=layout.FAR, aligned_edge=RIGHT if stacked else UP)
    if not stacked:  # formulas of different heights: line the bars (and what hangs under them) up anyway
        pair[1].formula.match_y(pair[0].formula)
        VGroup(pair[1].bars, pair[1].remark).shift(UP * (pair[0].bars.get_bottom()[1] - pair[1].bars.get_bottom()[1]))
    return pair


def _reminder(src: Source, said: list[str]) -> VGroup:
    """The dot product's top word, named under the MLP's panel when the panels come one at a time."""
    return wrapped(_("dot product: {leader} first").format(leader=leader_of(src, "weights", said)[1]),
                   layout.frame().width,
                   font_size=typography.LABEL_SIZE, color=palette.MUTED)  # a long word: on two lines


def _panels_alone(src: Source, tokens: list[str], said: list[str], *, room: bool) -> tuple[VGroup, VGroup, VGroup]:
    """Each panel alone (dot, MLP, and the reminder under the MLP's note); `room`: the bars' form chosen for the
    room the words leave them. Laid over one another: each is shown alone in the same place."""
    reminder = _reminder(src, said)
    kinds = _score_functions()
    reserve = reminder.height + layout.NEAR
    dot, mlp = (_score_panel(src, tokens, *kind[:-1], flat=False, note=kind[-1], room=room,
                             reserve=reserve if kind is kinds[-1] and room else 0.0) for kind in kinds)
    reminder.next_to(mlp.remark, DOWN, buff=layout.NEAR)
    VGroup(mlp, reminder).move_to(dot)
    return dot, mlp, reminder


def _score_function_forms(src: Source, tokens: list[str], said: list[str]) -> list[Form]:
    """The two panels side by side, one above the other, then one at a time (bars for the whole frame, then for
    the room the words leave them)."""
    together = [Form(name, lambda stacked=stacked: _panel_pair(src, tokens, stacked=stacked))
                for name, stacked in (("side by side", False), ("stacked", True))]
    alone = [Form(name, lambda room=room: _panels_alone(src, tokens, said, room=room), lambda panels: VGroup(*panels))
             for name, room in (("one at a time", False), ("one at a time, bars for the room", True))]
    return together + alone



@dataclass(frozen=True)
class Pattern:
    """The closing picture: the formula, its three steps (framed words), the note; links and arrows drawn once
    the picture is fitted (they keep their stroke and tips whatever the fitting's scale)."""

    eq: VGroup
    steps: VGroup  # what enters as the steps (the framed words; in the stacked form, without their lines)
    boxes: VGroup  # the framed steps, whole
    note: VGroup
    down: bool

    @property
    def group(self) -> VGroup:
        return VGroup(self.eq, self.boxes, self.note)

    def arrows(self) -> VGroup:
        return VGroup(*(flow_arrow(a, b, down=self.down) for a, b in zip(self.boxes, self.boxes[1:])))

    def links(self) -> VGroup:
        """Lines from each term of the one-line formula down to its step (none when the steps hold the terms)."""
        if self.down:
            return VGroup()
        return VGroup(*(Line(self.eq.select(name).get_bottom() + DOWN * layout.TIGHT,
                             step.get_top() + UP * layout.TIGHT, stroke_color=palette.MUTED, stroke_width=1.5)
                        for name, step in zip(("score", "softmax", "context"), self.boxes)))


STEP_COLORS = (palette.QUERY, palette.WEIGHT, palette.CONTEXT)


def _pattern_note(width: float | None = None) -> VGroup:
    lines = ((_("The same pattern runs inside self-attention,"), typography.BODY_SIZE, palette.TEXT),
             (_("where every token is both a query source and a key/value source."), typography.LABEL_SIZE,
              palette.MUTED))
    return VGroup(*(wrapped(text, width, font_size=size, color=color) if width else
                    label(text, font_size=size, color=color) for text, size, color in lines)).arrange(
        DOWN, buff=layout.NEAR)


def _pattern_across() -> Pattern:
    """The one-line formula over the three steps side by side, the note under them."""
    eq, steps = _formula(False), VGroup()
    for text, color in zip(STEP_NAMES, STEP_COLORS):
        word = label(_(text), font_size=typography.BODY_SIZE, color=color)
        steps.add(VGroup(SurroundingRectangle(word, buff=L.step_pad, corner_radius=L.step_corner, color=color,
                                              stroke_width=2), word))
    steps.arrange(RIGHT, buff=layout.FAR)
    note = _pattern_note()
    VGroup(eq, steps, note).arrange(DOWN, buff=layout.FAR)
    return Pattern(eq, steps, steps, note, down=False)


def _pattern_stacked() -> Pattern:
    """Each term of the stacked formula framed as its step, named over it, the steps one under the other with
    arrows down, the note under them."""
    eq, width = _formula(True), layout.frame().width
    boxes, words = VGroup(), VGroup()
    for text, color, line in zip(STEP_NAMES, STEP_COLORS, eq):
        word = label(_(text), font_size=typography.BODY_SIZE, color=color)
        VGroup(word, line).arrange(DOWN, buff=layout.TIGHT)
        frame = SurroundingRectangle(VGroup(word, line), buff=layout.TIGHT, corner_radius=L.step_corner,
                                     color=color, stroke_width=2)
        boxes.add(VGroup(frame, word, line))
        words.add(VGroup(frame, word))
    boxes.arrange(DOWN, buff=layout.APART)
    note = _pattern_note(width)
    VGroup(boxes, note).arrange(DOWN, buff=layout.APART)
    return Pattern(eq, words, boxes, note, down=True)


def _pattern_forms() -> list[Form]:
    return [Form("across", _pattern_across, lambda p: p.group), Form("stacked", _pattern_stacked, lambda p: p.group)]
