"""Self-attention with no trainable weights: the example's sentence, first for its query word (Steps A–C: dot-product
scores, softmax, weighted sum), then for every position at once (A = softmax(X Xᵀ), Z = A X), ending on the point
that one set of vectors plays query, key and value.

Follows "Simplified self-attention (no trainable weights)" and "All positions at once".
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from manim import (
    DOWN, LEFT, RIGHT, UP, Create, FadeIn, FadeOut, FadeTransform, GrowFromEdge, LaggedStart, ReplacementTransform,
    TransformFromCopy, VGroup, VMobject, Write,
)

from scenes.kit import (
    AttentionScene, DotProducts, SoftmaxBars, Source, TensorGrid, WeightedRows, add_rows, align_rows, beat,
    flow_arrow, format_value, group, heatmap, label, layout, math, matrix, motion, palette, row_box, staging,
    subscript, typography, vector,
)
from scenes.kit import shot_content
from scenes.kit.attention_map import AttentionMap
from scenes.kit.claims import all_of, bottom_index, count_word, top_index
from scenes.kit.compose import Form, Plan, compose
from scenes.kit.forms import flow_forms_by_row_height, lines_forms, map_style_forms, row_height_forms
from scenes.kit.products import NUMBER, into_product_by_row, product_row, settle, shared_cell_width
from scenes.kit.score_bars import LYING_LENGTH, lie_beside, lying_bars, names_arrow, stand_labels_upright, upright_words
from scenes.kit.spotlight import TermLight, lit_band
from scenes.kit.spread_claims import blend_phrase
from scenes.kit.text import wrapped
from scenes.kit.translation import N_, _, quoted


@dataclass(frozen=True)
class WeightFreeLayout:
    """The sizes this scene chooses itself; every position follows from them and the content."""

    bar_width: float = 0.8  #: a softmax bar, wide enough for a two-decimal weight above it
    bar_height: float = 4.5  #: the height a weight of 1 would reach, before the body limits it
    roles_and_next: tuple[int, int] = (5, 1)  #: last beat: the frame's share for the three roles and the "Next" line
    roles_and_next_narrow: tuple[int, int] = (3, 1)  #: the same where the "Next" line takes two lines (narrow frames)
    dimmed: float = 0.35  #: opacity of the steps not running, where the three share the top band


L = WeightFreeLayout()


# --- captions ------------------------------------------------------------------------------------------------
def top_score_caption(src: Source, tokens: list[str], query: int) -> str:
    """Step A's reading of the scores: the highest-scoring word (said against the query itself), or the tie."""
    omega = src.get("omega")
    best = top_index(omega)
    if best is None:
        top = format_value(float(omega.max()), 2)
        return _("Two words tie for the highest score, ω = {value}: the dot product alone cannot pick one.").format(
            value=top)
    message = (_("{word} scores highest against itself: {name} = {value}.") if best == query else
               _("{word} scores highest, even above {query} itself: {name} = {value}."))
    return message.format(word=quoted(tokens[best]), query=quoted(tokens[query]), name=f"ω{subscript(best + 1)}",
                          value=format_value(src.value("omega", best), 2))


def distribution_caption(src: Source, tokens: list[str], position: int) -> str:
    """Step B's reading of the bars: where the most and the least weight go (or the tie, when there is one)."""
    alpha = src.get("alpha")
    hi, lo = top_index(alpha), bottom_index(alpha)
    most = (_("most on {word} ({value})").format(word=quoted(tokens[hi]), value=format_value(src.value("alpha", hi), 2))
            if hi is not None else
            _("the largest weights tie at {value}").format(value=format_value(float(alpha.max()), 2)))
    least = (_("least on {word} ({value})").format(word=quoted(tokens[lo]), value=format_value(src.value("alpha", lo), 2))
             if lo is not None else
             _("the smallest tie at {value}").format(value=format_value(float(alpha.min()), 2)))
    return _("This is the attention distribution for position {position}: {most}, {least}.").format(
        position=position, most=most, least=least)


def distribution_subject(bars: SoftmaxBars, alpha) -> VGroup:
    """What Step B's reading talks about: the bars of the most and the least weight with their values (all the
    bars where either ties)."""
    hi, lo = top_index(alpha), bottom_index(alpha)
    if hi is None or lo is None:
        return VGroup(bars.bars, bars.values)
    return VGroup(*(VGroup(bars.bars[i], bars.values[i]) for i in (hi, lo)))


# --- the arrangements ----------------------------------------------------------------------------------------
def in_lines(words: VGroup, lines: int) -> VGroup:
    """The words in `lines` lines, as many on each as the first holds, the lines centred one under another."""
    per = -(-len(words) // lines)
    return VGroup(*(VGroup(*words[i:i + per]).arrange(RIGHT, buff=layout.GAP)
                    for i in range(0, len(words), per))).arrange(DOWN, buff=layout.GAP)


def sentence_forms(tokens: list[str]) -> list[Form]:
    """The sentence on one line, then in two, three, ... lines (a long sentence in a narrow frame)."""
    def build(lines: int) -> VGroup:
        words = VGroup(*(label(t, font_size=typography.HEADING_SIZE, color=palette.ENGLISH) for t in tokens))
        in_lines(words, lines)
        return words

    return lines_forms(build, len(tokens))


def x_matrix(src: Source, tokens: list[str] | None, color=palette.TEXT, cell: float = typography.CELL) -> TensorGrid:
    """X as a grid, its rows named by their words (none when `tokens` is None)."""
    grid = matrix(src, "X", color=color, font_size=NUMBER, cell_size=cell,
                  cell_width=shared_cell_width(src, ("X",), font_size=NUMBER))
    if tokens is not None:
        grid.add_row_labels(tokens, color=palette.ENGLISH, font_size=typography.LABEL_SIZE)
    return grid


def named_x_forms(src: Source, tokens: list[str]) -> list[Form]:
    """X with its name above it, at each row height."""
    def build(cell: float) -> VGroup:
        grid = x_matrix(src, tokens, cell=cell)
        return VGroup(grid, math("X", font_size=typography.HEADING_SIZE).next_to(grid.body, UP, buff=layout.GAP))

    return row_height_forms(build)


@dataclass(frozen=True)
class Steps:
    """The post's three steps across the top band: each lights up while its step runs."""

    line: VGroup
    a: VGroup
    b: VGroup
    c: VGroup
    dim: float  #: the opacity of a step not running: dimmed beside the others, or hidden where they share one place


def map_names() -> dict:
    """An attention map's query and key names, in the language of the run."""
    return {"query_label": _("query"), "key_label": _("key")}


def steps_forms(qn: int) -> list[Form]:
    """The three steps on one line (the others dimmed), else one at a time in the same place (a narrow frame),
    each step's name beside its formula, else over it (a longer language)."""
    def build(one_line: bool, name_over: bool = False) -> Steps:
        size = dict(font_size=typography.SMALL_SIZE) if name_over else {}  # two lines share the band's height
        a = math(group("omega_i", "om") + " = " + group(f"x_{qn}^top", "q") + " " + group("x_i", "k"), **size)
        b = math(group("alpha_i", "al") + " = " + group('op("softmax")(omega)_i', "sm"), **size)
        c = math(group(f"z_{qn}", "z") + " = " + group("sum_i", "sum") + " " + group("alpha_i", "al")
                 + " " + group("x_i", "v"), **size)
        line = VGroup(*(VGroup(label(_("Step {letter}").format(letter=letter), font_size=typography.SMALL_SIZE,
                                     color=palette.MUTED),
                               formula).arrange(DOWN if name_over else RIGHT,
                                                buff=layout.TIGHT if name_over else layout.NEAR)
                        for letter, formula in zip("ABC", (a, b, c))))
        if one_line:
            line.arrange(RIGHT, buff=layout.FAR)
        else:
            for step in line:
                step.move_to(line[0])
        return Steps(line, a, b, c, L.dimmed if one_line else 0)

    return [Form(name, lambda one=one, over=over: build(one, over), lambda steps: steps.line, lit_band())
            for name, one, over in (("one line", True, False), ("one at a time", False, False),
                                    ("one at a time, named over", False, True))]


@dataclass(frozen=True)
class Scoring:
    """Step A: X dotted with the query x_q, the products and the scores ω, with the names of x_q and ω."""

    comp: DotProducts
    q_name: VGroup
    o_name: VGroup

    @property
    def group(self) -> VGroup:
        return VGroup(self.comp, self.q_name, self.o_name)


def sums_under(src: Source, comp: DotProducts, cell: float) -> None:
    """The stacked product made narrower (a phone's frame): ω as a row under the products, "sum" pointing down to
    it, score i under product row i's place in the list."""
    comp.remove(comp.result, comp.sum_sign)
    comp.result = omega_grid(src, cell, "row")
    comp.sum_sign = label(_("sum ↓"), font_size=NUMBER, color=palette.MUTED)
    VGroup(comp.sum_sign, comp.result).arrange(DOWN, buff=layout.NEAR).next_to(comp.products, DOWN, buff=layout.GAP)
    comp.result.align_to(comp.products, RIGHT)  # four or more scores: the row reaches left, under X's words
    comp.sum_sign.match_x(comp.products.body)
    comp.add(comp.sum_sign, comp.result)


def scoring_forms(src: Source, tokens: list[str], qn: int) -> list[Form]:
    """Across or down (the body's flow first), then down with the scores as a row under the products, at each row
    height; for the camera, down with the query's name on the sums' side, where the shot of ω ends."""
    def build(stacked: bool, cell: float, under: bool = False, by_the_sums: bool = False) -> Scoring:
        comp = DotProducts(src, matrix="X", vector="query", products="omega_terms", result="omega",
                           row_labels=tokens, cell_size=cell, label_size=typography.LABEL_SIZE, stacked=stacked)
        if under:
            sums_under(src, comp, cell)
        q_name = math(f"x_{qn}", color=palette.QUERY).next_to(comp.vector, RIGHT if by_the_sums else LEFT,
                                                              buff=layout.NEAR)
        o_name = math("omega", font_size=typography.HEADING_SIZE).next_to(comp.sum_sign if under else comp.result,
                                                                          LEFT if under else UP, buff=layout.GAP)
        return Scoring(comp, q_name, o_name)

    whole = lambda scoring: scoring.group  # noqa: E731
    return [*flow_forms_by_row_height(build, whole=whole),
            *row_height_forms(lambda cell: build(True, cell, under=True), whole=whole,
                              suffix=", sums under the products"),
            *row_height_forms(lambda cell: build(True, cell, by_the_sums=True), whole=whole, close_up=True,
                              suffix=", x named by the sums")]  # for the camera: the name in the shot of ω


#: How Step B's arrow runs from the scores to the bars: across (side by side), downwards (the scores over the
#: bars), or on the names' line (lying bars built close to the scores).
ACROSS, DOWNWARDS, ON_THE_NAMES = "across", "downwards", "on the names"


@dataclass(frozen=True)
class SoftmaxPicture:
    """Step B's arrangement, (ω, "softmax", bars), and how its arrow runs (which builder made it)."""

    row: VGroup
    arrow: str

    @property
    def lying(self) -> bool:
        """The bars lie along their words' rows (ScoreBars.lying)."""
        return getattr(self.row[2], "lying", False)


def omega_grid(src: Source, cell: float = typography.CELL, orientation: str = "column") -> TensorGrid:
    """The scores ω as a column (or a row, over the bars), at the size step A builds them (before any fitting)."""
    width = shared_cell_width(src, ("X", "query", "omega_terms", "omega"), font_size=NUMBER)
    return vector(src, "omega", orientation=orientation, font_size=NUMBER, cell_width=width, cell_size=cell)


def softmax_bars(src: Source, tokens: list[str], room: float) -> SoftmaxBars:
    """Bars as tall as `room` allows: a first build measures the labels, the second gets the rest. Words that laid
    flat would make the bars wider than the body stand upright under them (as in ScoreBars)."""
    upright = upright_words(tokens, L.bar_width)
    widest = max(label(t, font_size=typography.SMALL_SIZE).width for t in tokens)
    width = L.bar_width if upright else max(L.bar_width, widest - layout.GAP + layout.TIGHT)

    def build(height: float) -> SoftmaxBars:
        bars = SoftmaxBars(src, "alpha", tokens, max_height=height, bar_width=width,
                           buff=layout.NEAR if upright else layout.GAP)
        return stand_labels_upright(bars, tokens) if upright else bars

    probe = build(L.bar_height)
    labels = probe.height - max(b.height for b in probe.bars)
    return build(min(L.bar_height, (room - labels) / float(src.get("alpha").max())))  # softmax: the max > 0


def softmax_picture(src: Source, tokens: list[str], cell: float, stacked: bool) -> SoftmaxPicture:
    """ω, "softmax" and the bars side by side, or the scores as a row over the bars (`stacked`)."""
    omega_name = math("omega", font_size=typography.HEADING_SIZE)
    tag = label("softmax", font_size=typography.SMALL_SIZE, color=palette.WEIGHT)
    if stacked:
        target = VGroup(omega_grid(src, cell, "row"), omega_name)
        target[1].next_to(target[0], LEFT, buff=layout.NEAR)
        bars = softmax_bars(src, tokens, layout.body().height - target.height - 2 * layout.FAR)
        return SoftmaxPicture(VGroup(target, tag, bars).arrange(DOWN, buff=layout.FAR), DOWNWARDS)
    target = VGroup(omega_grid(src, cell), omega_name)
    target[1].next_to(target[0], UP, buff=layout.NEAR)
    bars = softmax_bars(src, tokens, layout.body().height)
    return SoftmaxPicture(VGroup(target, tag, bars).arrange(
        RIGHT, buff=layout.GAP if upright_words(tokens, L.bar_width) else layout.FAR), ACROSS)


def lying_softmax(src: Source, tokens: list[str], cell: float, close: bool = False) -> SoftmaxPicture:
    """The scores as a column beside their words, each weight a bar lying along its word's row; `close`: the bars
    close to the scores (the arrow on the names' line), as long as the body's width leaves at the floor."""
    def build(length: float, gap: float) -> VGroup:
        target = VGroup(omega_grid(src, cell), math("omega", font_size=typography.HEADING_SIZE))
        target[0].add_row_labels(tokens, color=palette.ENGLISH, font_size=typography.SMALL_SIZE)
        target[1].next_to(target[0].body, UP, buff=layout.NEAR)
        tag = label("softmax", font_size=typography.SMALL_SIZE, color=palette.WEIGHT)
        return lie_beside(target, lying_bars(src, "alpha", tokens, cell, length), tag, gap)

    if not close:
        return SoftmaxPicture(build(LYING_LENGTH, layout.FAR), ACROSS)
    probe = build(LYING_LENGTH, layout.GAP)
    room = layout.body().width * shot_content.smallest_font(probe) / typography.MIN_FONT_SIZE
    row = build(LYING_LENGTH + min(0, room - probe.width), layout.GAP)
    row[1].match_y(row[0][1])
    return SoftmaxPicture(row, ON_THE_NAMES)


def softmax_forms(src: Source, tokens: list[str]) -> list[Form]:
    """Scores → softmax → bars: across or down (the body's flow first), then the bars lying along the words'
    rows, then those close to the scores; each at every row height."""
    whole = lambda picture: picture.row  # noqa: E731
    return [*flow_forms_by_row_height(lambda stacked, cell: softmax_picture(src, tokens, cell, stacked), whole=whole),
            *row_height_forms(lambda cell: lying_softmax(src, tokens, cell), whole=whole, suffix=", lying bars"),
            *row_height_forms(lambda cell: lying_softmax(src, tokens, cell, close=True), whole=whole,
                         suffix=", lying bars close")]


def softmax_arrow(picture: SoftmaxPicture) -> VMobject:
    """The arrow from the scores to the bars (and the tag beside it where the arrangement did not place it)."""
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


@dataclass(frozen=True)
class Mixing:
    """Step C: each row of X scaled by its weight α_i and added up into z, with the names of α, α_i x_i and z."""

    comp: WeightedRows
    a_name: VGroup
    w_name: VGroup
    z_name: VGroup

    @property
    def group(self) -> VGroup:
        return VGroup(self.comp, self.a_name, self.w_name, self.z_name)


def mixing_forms(src: Source, tokens: list[str], qn: int) -> list[Form]:
    """The weighted rows with the words beside X's rows, then (a narrow frame) unnamed: Step B's bars named them."""
    def build(stacked: bool, cell: float, words: bool) -> Mixing:
        comp = WeightedRows(src, weights="alpha", matrix="X", products="weighted_x", result="z",
                            row_labels=tokens if words else None, weights_side=RIGHT, cell_size=cell,
                            label_size=typography.LABEL_SIZE, stacked=stacked)
        a_name = math("alpha", font_size=typography.HEADING_SIZE, color=palette.WEIGHT)
        a_name.next_to(comp.weights, UP, buff=layout.NEAR)
        w_name = math("alpha_i x_i", color=palette.MUTED).next_to(  # stacked: the arrow is above the products
            comp.products, RIGHT if stacked else UP, buff=layout.NEAR)
        z_name = math(f"z_{qn}", color=palette.CONTEXT).next_to(comp.result, RIGHT, buff=layout.NEAR)
        return Mixing(comp, a_name, w_name, z_name)

    return [form for words in (True, False) for form in flow_forms_by_row_height(
        lambda stacked, cell, words=words: build(stacked, cell, words), whole=lambda mixing: mixing.group,
        suffix="" if words else ", rows unnamed")]


def map_probe(src: Source, tokens: list[str], style: dict) -> VGroup:
    """The scores map with its tag over it, as all_scores_at_once shows it alone: its signed numbers make it the
    clip's widest map, so every map of the clip takes the first arrangement in which it reads (and the scores turn
    into the weights cell for cell)."""
    scores = AttentionMap(src, "scores", tokens, weights=False, font_size=NUMBER, **map_names(), **style)
    return VGroup(scores, math("X X^top", color=palette.MUTED).next_to(scores, UP, buff=layout.NEAR))


def alpha_under(src: Source, A: AttentionMap, cell: float = typography.CELL) -> VGroup:
    """α from Step B as a shaded row under A, each weight under its own column, named at the row labels."""
    alpha = heatmap(src, "alpha", font_size=NUMBER, cell_size=cell)
    for j in range(alpha.cols):
        alpha.cell(0, j)[0].stretch_to_fit_width(A.column(j).width)
    alpha.next_to(A, DOWN, buff=layout.NEAR).align_to(A.body, LEFT)
    for j in range(alpha.cols):
        alpha.cell(0, j).match_x(A.column(j))
    name = label(_("α from Step B"), font_size=typography.SMALL_SIZE, color=palette.WEIGHT)
    name.next_to(alpha, LEFT, buff=layout.NEAR)
    return VGroup(alpha, name)


@dataclass(frozen=True)
class ScoresPicture:
    """All the scores X Xᵀ, with X beside them (the arrow from X), or alone under their name."""

    X: VGroup  # empty when the grid stands alone
    tag: VGroup
    scores: AttentionMap
    arrow: VGroup


def scores_forms(src: Source, tokens: list[str], style: dict) -> list[Form]:
    def build(with_x: bool) -> ScoresPicture:
        scores = AttentionMap(src, "scores", tokens, weights=False, font_size=NUMBER, **map_names(), **style)
        tag = math("X X^top", color=palette.MUTED)
        if not with_x:
            tag.next_to(scores, UP, buff=layout.NEAR)
            return ScoresPicture(VGroup(), tag, scores, VGroup())
        X = x_matrix(src, tokens)
        VGroup(X, tag, scores).arrange(RIGHT, buff=layout.FAR)
        align_rows(scores, X)
        return ScoresPicture(X, tag, scores, VGroup())

    return [Form(name, lambda with_x=with_x: build(with_x), lambda p: VGroup(p.X, p.tag, p.scores))
            for name, with_x in (("beside X", True), ("alone", False))]


@dataclass(frozen=True)
class WeightsPicture:
    """The weight map A (its name, the softmax tag and the α check), beside the scores or in their place."""

    moved: VGroup  # the scores moved beside A (empty where A takes their place)
    tag: VGroup
    A: AttentionMap
    a_name: VGroup
    check: VGroup  # α under A, and its name

    @property
    def group(self) -> VGroup:
        return VGroup(self.moved, self.tag, self.A, self.a_name, self.check)


def weights_forms(src: Source, tokens: list[str], style: dict) -> list[Form]:
    """Beside the scores; else in their place, the name and tag beside A; else (narrow) both over A."""
    def build(form: str) -> WeightsPicture:
        A = AttentionMap(src, "weights", tokens, font_size=NUMBER, **map_names(), **style)
        a_name = math("A", font_size=typography.HEADING_SIZE, color=palette.WEIGHT).next_to(A.body, RIGHT,
                                                                                           buff=layout.GAP)
        check = alpha_under(src, A, style["cell_size"])
        tag = VGroup(*(label(w, font_size=typography.SMALL_SIZE, color=palette.WEIGHT)
                       for w in ("softmax", _("each row"))))
        tag.arrange(DOWN, buff=layout.TIGHT)
        if form == "beside the scores":
            moved = AttentionMap(src, "scores", tokens, weights=False, font_size=NUMBER, **map_names(), **style)
            right = VGroup(A, a_name, check)
            VGroup(moved, tag, right).arrange(RIGHT, buff=layout.FAR)
            right.shift(UP * (moved.body.get_top()[1] - A.body.get_top()[1]))  # A's rows on the scores' rows
            return WeightsPicture(moved, tag, A, a_name, check)
        if form == "names beside":
            tag.next_to(a_name, DOWN, buff=layout.NEAR).align_to(a_name, LEFT)
        else:
            VGroup(a_name, tag).arrange(RIGHT, buff=layout.GAP).next_to(A, UP, buff=layout.GAP)
            check[1].next_to(check[0], DOWN, buff=layout.NEAR).align_to(check[0], LEFT)
        return WeightsPicture(VGroup(), tag, A, a_name, check)

    return [Form(name, lambda name=name: build(name), lambda picture: picture.group)
            for name in ("beside the scores", "names beside", "names over")]


@dataclass(frozen=True)
class ProductRow:
    """A × X = Z, each a grid or (where the grids would not read) a symbol."""

    A: VGroup
    X: VGroup
    Z: TensorGrid
    signs: VGroup
    names: VGroup  # the grids' names beside them; Z's last

    @property
    def whole(self) -> VGroup:
        return VGroup(self.A, self.X, self.Z, self.signs, self.names)


def _stacked_product(A, X, Z) -> tuple[VGroup, VGroup]:
    """`A × X = Z` downwards: A, then "×", X and "=" (on one line when X is a symbol), then Z."""
    times, equals = math("times", color=palette.MUTED), math("=", color=palette.MUTED)
    if isinstance(X, TensorGrid):
        VGroup(A, times, X, equals, Z).arrange(DOWN, buff=layout.GAP)
    else:
        VGroup(A, VGroup(times, X, equals).arrange(RIGHT, buff=layout.GAP), Z).arrange(DOWN, buff=layout.GAP)
    return times, equals


def product_row_of(src: Source, tokens: list[str], style: dict, stacked: bool, *, a_grid: bool = True,
                   x_grid: bool = True) -> ProductRow:
    """A × X = Z with the rows of every grid on one line (or A over X over Z, `stacked`), A or X written as a
    symbol where it is not a grid; the grids' rows as tall as `style` (the maps' arrangement) makes A's."""
    width, cell = shared_cell_width(src, ("X", "Z"), font_size=NUMBER), style["cell_size"]
    A = AttentionMap(src, "weights", tokens, font_size=NUMBER, **map_names(), **style) if a_grid else math(
        "A", font_size=typography.HEADING_SIZE, color=palette.WEIGHT)
    X = matrix(src, "X", font_size=NUMBER, cell_width=width, cell_size=cell) if x_grid else math(
        "X", font_size=typography.HEADING_SIZE)
    if x_grid and not a_grid:
        X.add_row_labels(tokens, color=palette.ENGLISH, font_size=typography.LABEL_SIZE)
    Z = matrix(src, "Z", color=palette.CONTEXT, font_size=NUMBER, cell_width=width, cell_size=cell)
    times, equals = _stacked_product(A, X, Z) if stacked else product_row(A, X, Z)
    names = VGroup(*(math(n, font_size=typography.HEADING_SIZE, color=c).next_to(g, LEFT if stacked else UP,
                                                                                buff=layout.NEAR)
                     for n, c, g in (("X", palette.TEXT, X), ("Z", palette.CONTEXT, Z)) if isinstance(g, TensorGrid)))
    return ProductRow(A, X, Z, VGroup(times, equals), names)


def outputs_forms(src: Source, tokens: list[str], style: dict) -> list[Form]:
    """A × X = Z as three grids (across or down), then X as a symbol, then A as a symbol (X's rows named), at
    each row height."""
    whole = lambda row: row.whole  # noqa: E731
    return [*flow_forms_by_row_height(lambda stacked, cell: product_row_of(src, tokens, style, stacked), whole=whole),
            *flow_forms_by_row_height(lambda stacked, cell: product_row_of(src, tokens, style, stacked, x_grid=False),
                              whole=whole, suffix=", X a symbol"),
            *flow_forms_by_row_height(lambda stacked, cell: product_row_of(src, tokens, dict(cell_size=cell), stacked,
                                                                   a_grid=False), whole=whole, suffix=", A a symbol")]


def map_parts(m: AttentionMap) -> list[VGroup]:
    """A map from left to right: its row words (and their axis name), then each column with its key word."""
    return [VGroup(m.row_labels, m.query_name), *(VGroup(m.column(j), m.column_labels[j]) for j in range(m.cols))]


def roles_panels(src: Source, roles, one: bool, region: layout.Region, cell: float = typography.CELL,
                 shaded: bool = False) -> VGroup:
    """X three times, as queries, keys and values; `one`: one X named three times (a narrow frame), `shaded` by its
    values (the overview once its numbers were read in close-up)."""
    if not one:
        return VGroup(*(VGroup(math(f"{letter} = X", color=color, font_size=typography.HEADING_SIZE),
                               x_matrix(src, None, color, cell),
                               label(_(word), font_size=typography.LABEL_SIZE, color=color)).arrange(
            DOWN, buff=layout.GAP) for word, color, letter in roles)).arrange(RIGHT, buff=layout.FAR, aligned_edge=UP)
    names = [math(f"{letter} = X", color=color, font_size=typography.HEADING_SIZE) for _, color, letter in roles]
    names = VGroup(*names).arrange(RIGHT, buff=layout.GAP) if shaded else layout.flow(*names, region=region,
                                                                                       gap=layout.FAR)
    grid = (heatmap(src, "X", weights=False, show_values=False, cell_size=cell) if shaded
            else x_matrix(src, None, cell=cell))
    uses = wrapped(_("as queries, keys and values"), region.width, font_size=typography.LABEL_SIZE,
                   color=palette.MUTED)
    return VGroup(VGroup(names, grid, uses).arrange(DOWN, buff=layout.GAP))


def roles_forms(src: Source, roles, region: layout.Region) -> list[Form]:
    """Three copies of X side by side; else one X named three times, at each row height (where even that needs
    the camera, it frames X's rows legibly in turn)."""
    return [Form("three copies", lambda: roles_panels(src, roles, False, region), region=region),
            *row_height_forms(lambda cell: roles_panels(src, roles, True, region, cell), region=region,
                              suffix=", one X")]


def next_forms() -> list[Form]:
    """"Next: learn W_Q, W_K, W_V so the three roles can differ." on one line under the roles, else on two."""
    differ = _("so the three roles can differ.")

    def build(lines: int, head_in_two: bool = False) -> VGroup:
        head = VGroup(label(_("Next: learn"), font_size=typography.BODY_SIZE, color=palette.MUTED),
                      math("W_Q, W_K, W_V", color=palette.MUTED)).arrange(DOWN if head_in_two else RIGHT,
                                                                          buff=layout.TIGHT if head_in_two else
                                                                          layout.NEAR)
        if lines == 1:
            return VGroup(*head, label(differ, font_size=typography.BODY_SIZE, color=palette.MUTED)).arrange(
                RIGHT, buff=layout.NEAR)
        return VGroup(head, wrapped(differ, layout.frame().width, font_size=typography.BODY_SIZE,
                                    color=palette.MUTED)).arrange(DOWN, buff=layout.TIGHT)

    return [Form(name, lambda lines=lines, two=two: build(lines, two), region=layout.frame().split_rows(*shares)[1])
            for name, lines, two, shares in (("one line", 1, False, L.roles_and_next),
                                             ("two lines", 2, False, L.roles_and_next_narrow),
                                             ("three lines", 2, True, L.roles_and_next_narrow))]


def pinned_with(plan: Plan, light: TermLight) -> Plan:
    """The plan with the formula's highlight box pinned too (it moves with the formula while the camera moves)."""
    return replace(plan, pinned=(*plan.pinned, light.box)) if light.box is not None else plan


@dataclass(frozen=True)
class StepA:
    comp: DotProducts
    o_name: VGroup  # ω
    leaving: VGroup  # the query's box and name


@dataclass(frozen=True)
class StepB:
    omega: VGroup  # the scores column, with its name
    arrow: VGroup  # arrow and "softmax" tag
    bars: SoftmaxBars


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
        steps, _ = compose(steps_forms(self.qn), lit_band())
        a = self.step_a_scores(X, steps, light)
        b = self.step_b_softmax(a, steps, light)
        self.step_c_weighted_sum(b, steps, light)
        scores = self.all_scores_at_once(light)
        weights = self.all_weights_at_once(scores, light)
        self.all_outputs_at_once(weights, scores.eq, light)
        self.same_vectors_three_roles(light)

    # --- beats ---------------------------------------------------------------------------------------------
    @beat
    def embedding_vectors(self) -> VGroup:
        """The sentence becomes the matrix X: one embedding per word, one row per token."""
        n = len(self.tokens)
        sentence, _plan = compose(sentence_forms(self.tokens))
        self.say(_("Pretend each word of {sentence} is already an embedding vector.").format(
                     sentence=quoted(" ".join(self.tokens))),
                 subject=list(sentence))
        self.play(LaggedStart(*(FadeIn(w, shift=UP * layout.NUDGE) for w in sentence), lag_ratio=0.2), run_time=1.2)
        self.wait(1.5)
        (X, name), plan = compose(named_x_forms(self.src, self.tokens))
        self.say(_("{Count} tokens, {count} vectors: stacked as rows they form the matrix X.").format(
            Count=count_word(n).capitalize(), count=count_word(n)), subject=X)
        staging.enter(self, plan, *(ReplacementTransform(w, lab) for w, lab in zip(sentence, X.row_labels)),
                      LaggedStart(*(FadeIn(X.row(i)) for i in range(X.rows)), lag_ratio=0.2),
                      FadeIn(X.brackets), FadeIn(name), run_time=1.6, carried=sentence)
        staging.end_across(self, plan, [VGroup(X.row_labels, name), *(X.column(j) for j in range(X.cols))])
        self.wait(1.6)
        return VGroup(X, name)

    @beat
    def step_a_scores(self, X_named: VGroup, steps: Steps, light: TermLight) -> StepA:
        """Step A: the query x₃ dotted with every x_i, product by product, gives the scores ω."""
        X, X_name = X_named
        scoring, plan = compose(scoring_forms(self.src, self.tokens, self.qn), pinned=[steps.line])
        comp, q_name, o_name = scoring.comp, scoring.q_name, scoring.o_name
        self.say(_("Step A: fix the query {word} ({name}) and score every word by a dot product.").format(
            word=quoted(self.tokens[self.qi]), name=f"x{subscript(self.qn)}"), subject=comp.matrix.row(self.qi))
        # from the close-up on X, where it took one
        staging.come_to_rest(self, plan.pinned, staying=X_named, region=plan.region)
        self.add(steps.line[1:].set_opacity(0))
        staging.enter(self, plan, FadeOut(X_name), ReplacementTransform(X, comp.matrix), FadeIn(steps.line[0]),
                      run_time=1.0, carried=X_named)
        staging.end_across(self, plan, [comp.matrix.row_labels[self.qi], *comp.matrix.row(self.qi)])
        q_box = row_box(comp.matrix.row(self.qi), color=palette.QUERY)
        self.play(Create(q_box), TransformFromCopy(comp.matrix.row(self.qi), comp.vector.body),
                  FadeIn(comp.vector.brackets), FadeIn(q_name), steps.line[1:].animate.set_opacity(steps.dim),
                  *light.on(steps.a, ["q"], palette.QUERY), run_time=1.2)
        settle(self, [comp.vector], [comp.vector.body, comp.vector.brackets])
        self.play(FadeIn(comp.scaffold()), FadeIn(o_name), run_time=0.5)
        self.wait(0.8)
        qn = subscript(self.qn)
        self.say(_("Multiply {name} and xᵢ entry by entry, add the products: one score ωᵢ per word.").format(
                     name=f"x{qn}"),
                 narration=_("Multiply {name} and each xᵢ entry by entry, and add the products: that gives one score, "
                             "ωᵢ, per word.").format(name=f"x{qn}"), subject=VGroup(comp.products, comp.result))
        self.play(*light.on(steps.a, ["q", "k"], palette.KEY, paint=["k"]), run_time=0.5)
        shown = staging.dot_every_row(self, pinned_with(plan, light), comp, labels=list(comp.matrix.row_labels),
                                      color=palette.KEY)
        self.play(*light.on(steps.a, ["om"]), run_time=0.5)
        best = top_index(self.src.get("omega"))
        self.say(top_score_caption(self.src, self.tokens, self.qi), subject=VGroup(o_name, comp.result))
        omega = [o_name, *(comp.result.cell(i) for i in range(len(self.tokens)))]
        staging.end_across(self, pinned_with(plan, light), omega, FadeOut(shown[-1].box))
        self.play(*([] if best is None else [comp.result.cell(best)[1].animate.set_color(palette.QUERY)]),
                  run_time=0.6)
        self.wait(1.6)
        return StepA(comp, o_name, VGroup(q_box, q_name))

    @beat
    def step_b_softmax(self, a: StepA, steps: Steps, light: TermLight) -> StepB:
        """Step B: softmax turns the scores into weights that sum to 1 (bars)."""
        comp = a.comp
        picture, plan = compose(softmax_forms(self.src, self.tokens), pinned=[steps.line])
        target, tag, bars = picture.row
        arrow = softmax_arrow(picture)
        self.say(_("Step B: softmax turns the scores into weights α that are positive and sum to one."),
                 subject=target[0])
        leaving = VGroup(comp.matrix, comp.vector, comp.products, comp.times, comp.sum_sign, a.leaving)
        staging.enter(self, pinned_with(plan, light), FadeOut(leaving),
                      ReplacementTransform(VGroup(comp.result, a.o_name), target), with_the_move=True,
                      from_anywhere=True)
        self.play(*light.off(), steps.line[0].animate.set_opacity(steps.dim), steps.line[1].animate.set_opacity(1),
                  run_time=0.5)
        self.play(*light.on(steps.b, ["sm"], palette.WEIGHT), Create(arrow), FadeIn(tag), run_time=0.8)
        scores = [target[0].cell(i) for i in range(len(self.tokens))]
        self.play(Create(bars.baseline), FadeIn(bars.labels),
                  LaggedStart(*(GrowFromEdge(b, LEFT if picture.lying else DOWN) for b in bars.bars), lag_ratio=0.15),
                  motion.lagged(motion.scores_to_weights(scores, list(bars.values))),
                  *light.on(steps.b, ["al"], palette.WEIGHT), run_time=1.6)
        staging.end_on(self, plan, picture.row)
        alpha = self.src.get("alpha")
        subject = distribution_subject(bars, alpha)
        self.say(distribution_caption(self.src, self.tokens, self.qn), subject=subject)
        staging.end_on(self, plan, subject)  # under a camera: the most and the least weight, while it is said
        hi = top_index(alpha)
        if hi is not None:
            self.play(bars.bars[hi].animate.set_fill(palette.PEAK), run_time=0.6)
        self.wait(3.0)
        return StepB(target, VGroup(arrow, tag), bars)

    @beat
    def step_c_weighted_sum(self, b: StepB, steps: Steps, light: TermLight) -> None:
        """Step C: z₃ = Σ αᵢ xᵢ — each row of X scaled by its weight, then added up."""
        mixing, plan = compose(mixing_forms(self.src, self.tokens, self.qn), pinned=[steps.line])
        comp, bars = mixing.comp, b.bars
        self.say(_("Step C: scale each word’s vector by its weight…"), subject=comp.products)
        self.play(FadeOut(b.omega), FadeOut(b.arrow), steps.line[1].animate.set_opacity(steps.dim),
                  steps.line[2].animate.set_opacity(1), *light.off(), run_time=0.6)
        staging.enter(self, plan, *(ReplacementTransform(bars.values[i], comp.weights.cell(i))
                                    for i in range(comp.weights.rows)),
                      FadeOut(VGroup(bars.bars, bars.baseline, bars.labels)), FadeIn(comp.matrix),
                      FadeIn(mixing.a_name), scaffold=[FadeIn(comp.scaffold()), FadeIn(mixing.w_name)],
                      carried=[bars])
        staging.end_across(self, plan, [VGroup(comp.matrix.row_labels) if hasattr(comp.matrix, "row_labels") else
                                        VGroup(), *(comp.matrix.column(j) for j in range(comp.matrix.cols)),
                                        comp.weights])
        self.play(*light.on(steps.c, ["al", "v"], palette.VALUE), run_time=0.4)
        labels = list(comp.matrix.row_labels) if hasattr(comp.matrix, "row_labels") else []
        shown = staging.scale_every_row(self, pinned_with(plan, light), comp, labels=labels, color=palette.VALUE)
        blend = blend_phrase(self.src.get("alpha"), self.tokens, all_of(len(self.tokens), _("words")))
        self.say(_("…and add them up: {name} is {blend}.").format(name=f"z{subscript(self.qn)}", blend=blend),
                 subject=comp.result)
        self.play(FadeOut(shown[-1].box), run_time=0.3)
        add_rows(self, comp, with_sum=[FadeIn(mixing.z_name)])
        self.play(*light.on(steps.c, ["sum", "z"], palette.CONTEXT), run_time=0.5)
        staging.end_on(self, pinned_with(plan, light), VGroup(mixing.z_name, comp.result))
        self.wait(2.6)

    @beat
    def all_scores_at_once(self, light: TermLight) -> AllScores:
        """Repeating A–C for every query is one matrix product: the scores of all pairs are X Xᵀ."""
        n, qi = len(self.tokens), self.qi
        eq = math(group("A", "a") + " = " + group('op("softmax")', "sm") + "(" + group("X X^top", "xx")
                  + "), quad " + group("Z", "z") + " = " + group("A X", "ax"), font_size=typography.HEADING_SIZE)
        layout.fit_into(eq, lit_band())
        (style, _probe), _plan = compose(map_style_forms(lambda style: (style, map_probe(self.src, self.tokens, style)),
                                                whole=lambda made: made[1]))
        picture, plan = compose(scores_forms(self.src, self.tokens, style), pinned=[eq])
        scores, X, tag = picture.scores, picture.X, picture.tag
        self.say(_("Repeat Steps A–C with every word as the query and you get all positions at once."), subject=eq)
        self.clear_stage()
        light.forget()
        arrow = flow_arrow(X, scores.row_labels) if isinstance(X, TensorGrid) else VGroup()
        if isinstance(X, TensorGrid):
            tag.next_to(arrow, UP, buff=layout.TIGHT)
        self.play(FadeIn(eq), FadeIn(X), run_time=1.0)
        self.wait(1.2)
        self.say(_("All the dot products form one {n} × {n} grid: X Xᵀ, one row per query.").format(n=n),
                 subject=scores)
        self.play(*light.on(eq, ["xx"]), run_time=0.5)
        staging.enter(self, pinned_with(plan, light), FadeIn(arrow), FadeIn(tag),
                      LaggedStart(*(FadeIn(scores.row(i), shift=RIGHT * layout.NUDGE) for i in range(n)),
                                  lag_ratio=0.2), FadeIn(scores.axes), run_time=1.6)
        settle(self, [scores], [*(scores.row(i) for i in range(n)), scores.axes])
        staging.end_across(self, pinned_with(plan, light), map_parts(scores))  # at rest: on screen already
        self.wait(1.0)
        query_row = row_box(scores.row(qi), color=palette.QUERY)
        self.say(_("Row {row} is exactly the ω of Step A: {word} against every word.").format(
                     row=self.qn, word=quoted(self.tokens[qi])),
                 subject=scores.row(qi))
        word_last = [*reversed(scores.row(qi)), scores.row_labels[qi]]  # the shots end on the word the caption names
        staging.end_across(self, pinned_with(plan, light), word_last, Create(query_row))
        self.wait(1.6)
        return AllScores(eq, scores, VGroup(X, arrow, tag, query_row), style)

    @beat
    def all_weights_at_once(self, s: AllScores, light: TermLight) -> Weights:
        """Softmax along each row gives A; the query's row is the α already computed in Step B."""
        scores, qi, n = s.scores, self.qi, len(self.tokens)
        w, plan = compose(weights_forms(self.src, self.tokens, s.style), pinned=[s.eq])
        A, beside = w.A, len(w.moved) > 0
        arrow = flow_arrow(w.moved.body, A.row_labels) if beside else VGroup()
        if beside:
            w.tag.next_to(arrow, UP, buff=layout.TIGHT)
        self.say(_("Softmax along each row turns the scores into the weight matrix A; every row sums to one."),
                 subject=A)
        staging.come_to_rest(self, pinned_with(plan, light).pinned, FadeOut(s.passing),
                             *([ReplacementTransform(scores, w.moved)] if beside else []), staying=[scores],
                             region=plan.region)
        growth = [(TransformFromCopy(w.moved.row(i), A.row(i)) if beside else
                   ReplacementTransform(scores.row(i), A.row(i))) for i in range(n)]
        axes = FadeIn(A.axes) if beside else ReplacementTransform(scores.axes, A.axes)
        self.play(*light.on(s.eq, ["sm", "a"], palette.WEIGHT), run_time=0.5)
        staging.enter(self, pinned_with(plan, light), FadeIn(arrow), FadeIn(w.tag),
                      LaggedStart(*growth, lag_ratio=0.2), axes, FadeIn(w.a_name), run_time=1.8,
                      carried=[scores, w.moved])
        settle(self, [A], [*(A.row(i) for i in range(n)), A.axes, *([] if beside else [scores])])
        staging.end_across(self, pinned_with(plan, light), map_parts(A))  # at rest: on screen already
        self.wait(0.6)
        query_row = row_box(A.row(qi), color=palette.QUERY)
        alpha, alpha_name = w.check
        alpha_box = row_box(alpha, color=palette.QUERY)
        self.say(_("Row {row} ({word}) matches the α we computed in Step B, weight for weight.").format(
                     row=self.qn, word=quoted(self.tokens[qi])),
                 subject=VGroup(A.row(qi), alpha))
        self.play(Create(query_row), run_time=0.6)
        self.play(TransformFromCopy(A.row(qi), alpha.body), FadeIn(alpha_name), Create(alpha_box), run_time=1.2)
        staging.end_across(self, pinned_with(plan, light), [*(VGroup(A.cell(qi, j), alpha.cell(0, j))  # back from
                                                              for j in reversed(range(A.cols))),  # where it is,
                                                            VGroup(A.row_labels[qi], alpha_name)])  # to the names
        self.wait(1.8)
        return Weights(A, VGroup(w.moved, arrow, w.tag, w.a_name, query_row, w.check, alpha_box), s.style)

    @beat
    def all_outputs_at_once(self, w: Weights, eq: VGroup, light: TermLight) -> None:
        """Z = A X: every context vector at once, entry by entry (a row at a time); the query's row is z from
        Step C."""
        qi = self.qi
        row, plan = compose(outputs_forms(self.src, self.tokens, w.style), pinned=[eq])
        A, X, Z = row.A, row.X, row.Z
        self.say(_("Multiply the weights by X: Z = A X holds every context vector, one row per word."),
                 subject=X)  # its grid, or (the grid left out) its symbol
        staging.come_to_rest(self, pinned_with(plan, light).pinned, FadeOut(w.leaving), staying=[w.A],
                             region=plan.region)
        a_enter = ReplacementTransform(w.A, A) if isinstance(A, AttentionMap) else FadeTransform(w.A, A)
        self.play(*light.on(eq, ["ax"]), run_time=0.5)
        staging.enter(self, pinned_with(plan, light), a_enter, FadeIn(row.signs), FadeIn(X), FadeIn(row.names[:-1]),
                      run_time=1.0, carried=[w.A])
        staging.end_across(self, pinned_with(plan, light), [g.column(j) for g in (A, X) if isinstance(g, TensorGrid)
                                                            for j in range(g.cols)])
        self.play(motion.row_after_row(into_product_by_row(A, X, Z)), FadeIn(Z.brackets), FadeIn(row.names[-1]),
                  *light.on(eq, ["z", "ax"], palette.CONTEXT), run_time=0.6 * Z.rows + 0.6)
        settle(self, [Z], [cell for cells in Z.cells for cell in cells])
        self.say(_("Row {row} of Z is {name} from Step C: the same numbers, now for {all} in one product.").format(
            row=self.qn, name=f"z{subscript(self.qn)}", all=all_of(Z.rows, _("positions"))), subject=Z.row(qi))
        boxes = [row_box(Z.row(qi), color=palette.QUERY)]
        if isinstance(A, AttentionMap):
            boxes.append(row_box(A.row(qi), color=palette.QUERY))
        staging.end_across(self, pinned_with(plan, light), [row.names[-1], *Z.row(qi)], *map(Create, boxes))
        self.wait(2.4)

    @beat
    def same_vectors_three_roles(self, light: TermLight) -> None:
        """The bridge: with no weights, the same rows of X were query, key and value."""
        roles = ((N_("as queries"), palette.QUERY, "Q"), (N_("as keys"), palette.KEY, "K"),
                 (N_("as values"), palette.VALUE, "V"))
        nxt, next_plan = compose(next_forms())
        upper = layout.frame().split_rows(*(L.roles_and_next if next_plan.form == "one line"
                                            else L.roles_and_next_narrow))[0]
        panels, plan = compose(roles_forms(self.src, roles, upper), upper)
        self.say(_("Notice: with no weights, the same vectors X played all three roles — query, key and value."),
                 subject=list(panels))
        self.clear_stage()
        light.forget()
        staging.enter(self, plan, LaggedStart(*(FadeIn(p, shift=UP * layout.NUDGE) for p in panels), lag_ratio=0.3),
                      run_time=1.8, then_on=panels)
        self.wait(1.5)
        staging.rest_as(self, plan, row_height_forms(lambda cell: roles_panels(self.src, roles, True, upper, cell, True)))
        self.say(_("Next, three trainable matrices W_Q, W_K, W_V let queries, keys and values differ."), subject=nxt)
        self.play(Write(nxt), run_time=1.2)
        self.wait(2.0)
