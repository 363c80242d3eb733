"""Trainable queries, keys and values, one query row worked step by step, and why the scores are divided by √dₖ.

X is projected by W_Q, W_K, W_V into Q (yellow), K (teal), V (pink); the example's query row is then projected,
scored, normalised and mixed while the terms of softmax(QKᵀ/√dₖ)V light up; finally random queries and keys of
growing width show the softmax saturating without the scale. Follows "Adding trainable weights: queries, keys,
values", "Scaled scores and context" and "Step-by-step for one query row".

Every beat hands the layout engine (scenes.kit.compose) the forms its content can take and lets the kit's
staging move the camera where the plan says so.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import torch
from manim import (
    DOWN, LEFT, RIGHT, UP, Create, FadeIn, FadeOut, GrowFromEdge, Indicate, LaggedStart, MathTypst,
    ReplacementTransform, Transform, TransformFromCopy, VGroup,
)

from scenes.kit import (
    AttentionScene, DotProducts, SoftmaxBars, Source, TensorGrid, WeightedRows, add_rows, align_rows, beat,
    flow_arrow, format_value, frame_box, group, label, math, matrix, palette, subscript, typography, vector,
)
from scenes.kit import layout, motion, staging
from scenes.kit.attention_map import AttentionMap
from scenes.kit.claims import top_index
from scenes.kit.compose import Form, Plan, compose
from scenes.kit.forms import flow_forms_by_row_height, lines_forms, map_style_forms, row_height_forms
from scenes.kit.products import (CELL_PADDING, NUMBER, TALL_CELL_PADDING, into_product_by_row, product_row, settle,
                                 shared_cell_width)
from scenes.kit.score_bars import SoftmaxPicture, softmax_forms
from scenes.kit.spotlight import TermLight, lit_band
from scenes.kit.spread_claims import held_most, scaled_weights_stay_spread
from scenes.kit.text import product_sign, wrapped
from scenes.kit.translation import N_, _, quoted


@dataclass(frozen=True)
class QKVScaleLayout:
    """The sizes this scene chooses itself; every position follows from them and the content."""

    bar_width: float = 0.8  #: a softmax bar, wide enough for a two-decimal weight above it
    bar_height: float = 2.6  #: the height a weight of 1 would reach, before the body limits it
    chart_gap: float = 0.7  #: between the small saturation charts
    chart_height: float = 1.9  #: a saturation chart's bar for a weight of 1
    chart_bar_width: float = 0.3
    chart_bar_gap: float = 0.14
    #: a saturation chart's bar for a weight of 1 where one d_k is shown at a time (a frame too narrow for all),
    #: tallest first: the layout engine keeps the first whose pair of charts reads at the floor
    single_chart_heights: tuple = (1.9, 1.4, 1.0, 0.7)
    travel_time: float = 0.5  #: a row of a product's travelling copies (one row in flight at a time)


L = QKVScaleLayout()

ROLES = (("Q", palette.QUERY, "W_q", "Q"), ("K", palette.KEY, "W_k", "K"), ("V", palette.VALUE, "W_v", "V"))
ROLE_CAPTIONS = (N_("Queries Q = X W_Q: the vectors that do the scoring."),
                 N_("Keys K = X W_K: the vectors that get scored."),
                 N_("Values V = X W_V: the vectors that enter the weighted sum."))


# --- captions ------------------------------------------------------------------------------------------------
def widths_caption(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor, d_k: int) -> str:
    """What the three projections gave each word: their width, and whether the three differ."""
    differ = not (torch.equal(Q, K) or torch.equal(K, V) or torch.equal(Q, V))
    return (_("Each word now has a query, a key and a value of width d_k = {d_k}, and they differ.") if differ else
            _("Each word now has a query, a key and a value of width d_k = {d_k}; here two of them happen to "
              "coincide.")).format(d_k=d_k)


def attends_caption(tokens: list[str], query: int, weights: list[float], before: list[float]) -> str:
    """Where the worked query's weight goes now (`weights`), and (from the weight-free weights `before`) what
    the projections changed; or the tie, when the largest weights tie."""
    best, was, word = top_index(weights), top_index(before), tokens[query]
    if best is None:
        return _("With these projections {word} spreads its weight: the largest weights tie at {value}.").format(
            word=quoted(word), value=format_value(max(weights), 2))
    values = dict(word=quoted(word), best=quoted(tokens[best]), value=format_value(weights[best], 2))
    if was is None or was == best:
        return _("With these projections {word} attends most to {best} ({value}).").format(**values)
    if was == query:
        message = (_("With these projections {word} attends most to {best} ({value}), no longer mostly to itself.")
                   if held_most(before[was]) else
                   _("With these projections {word} attends most to {best} ({value}), no longer most to itself."))
    else:
        message = (_("With these projections {word} attends most to {best} ({value}), no longer mostly to {was}.")
                   if held_most(before[was]) else
                   _("With these projections {word} attends most to {best} ({value}), no longer most to {was}."))
    return message.format(**values, was=quoted(tokens[was]))


def saturation_caption(d_k: int, scores: torch.Tensor, unscaled_max: float, scaled_max: float) -> str:
    """One d_k's case: the raw dot products' range and the largest weight without and with the scale."""
    return _("d_k = {d_k}: raw dot products from {low} to {high}; the largest weight is {unscaled} without the "
             "scale, {scaled} with it.").format(d_k=d_k, low=format_value(float(scores.min()), 2),
                                               high=format_value(float(scores.max()), 2),
                                               unscaled=format_value(unscaled_max, 2),
                                               scaled=format_value(scaled_max, 2))


def saturation_narration(d_k: int, scores: torch.Tensor, previous: torch.Tensor | None, unscaled_max: float,
                         scaled_max: float) -> str:
    """The same, spoken: whether the raw dot products spread wider than at the d_k before."""
    wider = previous is not None and float(scores.max() - scores.min()) > float(previous.max() - previous.min())
    message = (_("At d_k = {d_k}, the raw dot products spread wider, and the largest weight is {unscaled} without "
                 "the scale, {scaled} with it.") if wider else
               _("At d_k = {d_k}, the largest weight is {unscaled} without the scale, {scaled} with it."))
    return message.format(d_k=d_k, unscaled=format_value(unscaled_max, 2), scaled=format_value(scaled_max, 2))


def jacobian_caption(d_k: int, unscaled_norm: float, scaled_norm: float) -> str:
    """The gradient that survives the softmax at the widest d_k, without and with the scale."""
    return _("Nearly one-hot weights leave almost no gradient: at d_k = {d_k} the softmax Jacobian norm is "
             "{unscaled} unscaled, {scaled} scaled.").format(d_k=d_k, unscaled=format_value(unscaled_norm, decimals=5),
                                                            scaled=format_value(scaled_norm, 2))


def takeaway_caption(scaled_maxima) -> str:
    """What the scale buys, said as strongly as the scaled weights allow."""
    if scaled_weights_stay_spread(scaled_maxima):
        return _("Dividing by √d_k keeps the scores in a sensible range, so the weights stay spread out and "
                 "trainable.")
    return _("Dividing by √d_k keeps the scores in a far smaller range, so the weights are far less one-hot and more "
             "trainable.")


# --- forms ---------------------------------------------------------------------------------------------------
def _grid(src: Source, path: str, color=palette.TEXT, cell: float = typography.CELL, *, tall: bool = False
          ) -> TensorGrid:
    """One of X, W and the projections, all with one cell width (a `tall` form's tighter: its width is a grid's)."""
    width = shared_cell_width(src, ("X", "W_q", "Q", "K", "V"), font_size=NUMBER,
                              padding=TALL_CELL_PADDING if tall else CELL_PADDING)
    return matrix(src, path, color=color, font_size=NUMBER, cell_width=width, cell_size=cell)


def _cells(grid: TensorGrid) -> list:
    """A grid's cells, row by row: what the travelling copies brought in one by one, to `settle` into the grid."""
    return [cell for row in grid.cells for cell in row]


@dataclass(frozen=True)
class Projections:
    """X and the three products with their weight matrices, side by side or one at a time in one place."""

    X: TensorGrid
    x_name: VGroup
    weights: VGroup
    outs: VGroup
    w_names: VGroup
    o_names: VGroup
    signs: VGroup  # "·" and "=" when the products come one at a time

    @property
    def whole(self) -> VGroup:
        return VGroup(self.X, self.x_name, self.weights, self.outs, self.w_names, self.o_names, self.signs)

    @property
    def together(self) -> bool:
        return not len(self.signs)


def projections_side_by_side(src: Source, tokens: list[str]) -> Projections:
    """X on the left; each W above its product Q, K, V, the three products side by side on X's rows."""
    X = _grid(src, "X")
    X.add_row_labels(tokens, color=palette.ENGLISH)
    outs = VGroup(*(_grid(src, path, color) for _, color, _, path in ROLES)).arrange(RIGHT, buff=layout.FAR)
    X.next_to(outs, LEFT, buff=layout.FAR)
    align_rows(X, outs[0])
    weights = VGroup(*(_grid(src, path, color).next_to(out, UP, buff=layout.GAP)
                       for (_, color, path, _), out in zip(ROLES, outs)))
    w_names = VGroup(*(math(f"W_{r}", color=c).next_to(w, LEFT, buff=layout.TIGHT)
                       for (r, c, *_), w in zip(ROLES, weights)))
    o_names = VGroup(*(math(r, color=c, font_size=typography.HEADING_SIZE).next_to(o, DOWN, buff=layout.NEAR)
                       for (r, c, *_), o in zip(ROLES, outs)))
    x_name = math("X", font_size=typography.HEADING_SIZE).next_to(X.body, DOWN, buff=layout.NEAR)
    return Projections(X, x_name, weights, outs, w_names, o_names, VGroup())


def projections_one_at_a_time(src: Source, tokens: list[str], cell: float, stacked: bool) -> Projections:
    """X · W = Q on one line, or `stacked`: X over "×" over W over "=" over Q, each name on its grid's right
    (X's words are on its left); K and V take the same places in turn. `cell`: the rows' height."""
    X = _grid(src, "X", cell=cell, tall=stacked)
    X.add_row_labels(tokens, color=palette.ENGLISH, font_size=typography.LABEL_SIZE)
    dot, equals = product_sign(downwards=stacked, color=palette.MUTED), math("=", color=palette.MUTED)
    weights = VGroup(*(_grid(src, path, color, cell, tall=stacked) for _, color, path, _ in ROLES))
    outs = VGroup(*(_grid(src, path, color, cell, tall=stacked) for _, color, _, path in ROLES))
    VGroup(X, dot, weights[0], equals, outs[0]).arrange(DOWN if stacked else RIGHT, buff=layout.NEAR)
    if stacked:
        for part in (dot, weights[0], equals, outs[0]):
            part.match_x(X.body)
    else:
        align_rows(outs[0], X)
        for sign in (dot, equals):
            sign.match_y(X.body)
    for w, o in zip(weights[1:], outs[1:]):
        w.move_to(weights[0])
        o.move_to(outs[0])
    side = RIGHT if stacked else UP
    w_names = VGroup(*(math(f"W_{r}", color=c).next_to(w, side, buff=layout.NEAR)
                       for (r, c, *_), w in zip(ROLES, weights)))
    o_names = VGroup(*(math(r, color=c, font_size=typography.HEADING_SIZE).next_to(o, side, buff=layout.NEAR)
                       for (r, c, *_), o in zip(ROLES, outs)))
    x_name = math("X", font_size=typography.HEADING_SIZE).next_to(X.body, side, buff=layout.NEAR)
    return Projections(X, x_name, weights, outs, w_names, o_names, VGroup(dot, equals))


def projection_forms(src: Source, tokens: list[str]) -> list[Form]:
    """The three products side by side; else one at a time in one place, on a line, then (a portrait frame)
    stacked, each at every row height."""
    whole = lambda parts: parts.whole  # noqa: E731
    forms = [Form("side by side", lambda: projections_side_by_side(src, tokens), whole)]
    for stacked in (False, True):
        forms += row_height_forms(lambda cell, stacked=stacked: projections_one_at_a_time(src, tokens, cell, stacked),
                                  whole=whole, name="one at a time, stacked, " if stacked else "one at a time, ")
    return forms


def projections_equation() -> MathTypst:
    """Q = X W_Q, K = X W_K, V = X W_V fitted into the top band: on one line, or broken into two or three lines
    where that reads larger (a portrait frame); the first of equals, so a wide frame keeps the one line."""
    terms = [group(r, r.lower()) + " = X " + group(f"W_{r}", "w" + r.lower()) for r, *_ in ROLES]
    lines = [", quad ".join(terms), ", quad ".join(terms[:-1]) + ", \\ " + terms[-1], ", \\ ".join(terms)]
    eq, _ = compose(lines_forms(lambda n: math(lines[n - 1], font_size=typography.HEADING_SIZE), len(lines)),
                    lit_band())
    return eq


def attention_equation() -> MathTypst:
    """softmax(QKᵀ/√dₖ)V, each part a named group so it can light up as the picture computes it."""
    eq = math(group('op("softmax")', "sm") + " lr(( (" + group("Q", "q") + " " + group("K^top", "k")
              + ") / " + group("sqrt(d_k)", "scale") + " )) " + group("V", "v"), font_size=typography.HEADING_SIZE)
    return layout.fit_into(eq, lit_band())


@dataclass(frozen=True)
class QueryProjection:
    comp: WeightedRows
    x_name: VGroup
    x_word: VGroup
    W_name: VGroup
    q_name: VGroup

    @property
    def whole(self) -> VGroup:
        return VGroup(self.comp, self.x_name, self.x_word, self.W_name, self.q_name)


def query_projection(src: Source, word: str, qn: int, cell: float, under: bool, stacked: bool | None = None,
                     word_over: bool = False) -> QueryProjection:
    """q = x W_Q as x's entries scaling W_Q's rows; q's name beside the sum, or `under` it (no room on its right);
    x's word left of x, or over its name (`word_over`: a narrow frame, a longer quotation)."""
    comp = WeightedRows(src, weights="query_row.x", matrix="W_q", products="query_row.q_terms",
                        result="query_row.q", shade_weights=False, matrix_color=palette.QUERY,
                        result_color=palette.QUERY, cell_size=cell, stacked=stacked)
    x_name = math(f"x_{qn}").next_to(comp.weights, UP, buff=layout.NEAR)
    x_word = label(quoted(word), font_size=typography.SMALL_SIZE, color=palette.ENGLISH)
    x_word.next_to(x_name, UP, buff=layout.TIGHT) if word_over else x_word.next_to(comp.weights, LEFT,
                                                                                     buff=layout.NEAR)
    W_name = math("W_Q", color=palette.QUERY).next_to(comp.matrix, UP, buff=layout.NEAR)
    q_name = math(f"q_{qn} = x_{qn} W_Q", color=palette.QUERY)
    q_name.next_to(comp.result, DOWN if under else RIGHT, buff=layout.NEAR if under else layout.GAP)
    return QueryProjection(comp, x_name, x_word, W_name, q_name)


def query_projection_forms(src: Source, word: str, qn: int) -> list[Form]:
    """q's name beside the sum then under it (the body's own flow first), at every row height; then the products
    stacked under the matrix (a square frame, a wide example), then with x's word over x (a phone, French quotes)."""
    whole = lambda made: made.whole  # noqa: E731
    beside = flow_forms_by_row_height(lambda under, cell: query_projection(src, word, qn, cell, under), whole=whole)
    return beside + [form for over in (False, True) for form in row_height_forms(
        lambda cell, over=over: query_projection(src, word, qn, cell, True, True, over), whole=whole,
        name="stacked, word over, " if over else "stacked, ")]


def keys_and_values(src: Source, tokens: list[str], stacked: bool, cell: float = typography.CELL) -> VGroup:
    """K and V, named, their rows (`cell` tall) named by the words: the keys k_j and the values v_j the query row
    will use."""
    grids = VGroup()
    for path, color in (("K", palette.KEY), ("V", palette.VALUE)):
        grid = _grid(src, path, color, cell)
        grid.add_row_labels(tokens, color=palette.ENGLISH, font_size=typography.LABEL_SIZE)
        name = math(f"{path} = X W_{path}", color=color).next_to(grid, UP, buff=layout.NEAR)
        grids.add(VGroup(grid, name))
    return grids.arrange(DOWN if stacked else RIGHT, buff=layout.FAR)


@dataclass(frozen=True)
class Scoring:
    """q dotted with every key, the raw scores' name, "÷ √d_k" and the scaled scores: in a column of their own
    (`beside`), or in place of the raw scores."""

    comp: DotProducts
    names: VGroup  # q's, K's, the raw scores'
    scale: VGroup
    scaled: TensorGrid
    scaled_name: VGroup
    beside: bool

    @property
    def whole(self) -> VGroup:
        return VGroup(self.comp, self.names, self.scale, self.scaled, self.scaled_name)


def scaled_scores(src: Source, qn: int, cell: float, orientation: str = "column") -> TensorGrid:
    """The scaled scores ω, a column (or a row), `cell` tall."""
    width = shared_cell_width(src, ("query_row.scaled_scores",), font_size=NUMBER)
    return vector(src, "query_row.scaled_scores", orientation=orientation, font_size=NUMBER, cell_width=width,
                  cell_size=cell)


def scoring(src: Source, tokens: list[str], qn: int, cell: float, place: str, *, named: bool = True,
            stacked: bool | None = None) -> Scoring:
    """The scores and their scaled column: `place` "beside" (a second column), "in place" ("÷ √d_k" on the raw
    scores' right) or "over" ("÷ √d_k" over their name: a narrow frame). Rows `cell` tall, named by their words
    unless not `named`; `stacked` as in DotProducts."""
    comp = DotProducts(src, matrix="K", vector="query_row.q", products="query_row.score_terms",
                       result="query_row.raw_scores", row_labels=tokens if named else None, matrix_color=palette.KEY,
                       cell_size=cell, label_size=typography.LABEL_SIZE, stacked=stacked)
    scaled = scaled_scores(src, qn, cell)
    scaled_name = math(f"omega_({qn} j)")
    scale = VGroup(math("div sqrt(d_k)"), VGroup(math("="), src.number("query_row.scale", decimals=2,
                                                                        font_size=NUMBER)))
    scale[1].arrange(RIGHT, buff=layout.TIGHT)
    scale.arrange(DOWN, buff=layout.TIGHT)
    q_name = math(f"q_{qn}", color=palette.QUERY).next_to(comp.vector, RIGHT if comp.stacked else LEFT,
                                                          buff=layout.NEAR)  # stacked, the sums are beside the products
    k_name = math("K", font_size=typography.HEADING_SIZE, color=palette.KEY)
    k_name.next_to(comp.matrix.body, UP, buff=layout.NEAR)
    raw_name = math(f"q_{qn} dot k_j").next_to(comp.result, UP, buff=layout.NEAR)
    names = VGroup(q_name, k_name, raw_name)
    if place == "beside":
        VGroup(VGroup(comp, names), scale, scaled).arrange(RIGHT, buff=layout.GAP)
        align_rows(scaled, comp.matrix)
        scaled_name.next_to(scaled, UP, buff=layout.NEAR)
    else:  # no room for a second column: the scaled scores replace the raw ones in place
        scaled.move_to(comp.result)
        scaled_name.move_to(raw_name)
        scale.next_to(raw_name, UP, buff=layout.NEAR) if place == "over" else scale.next_to(comp.result, RIGHT,
                                                                                           buff=layout.GAP)
    return Scoring(comp, names, scale, scaled, scaled_name, place == "beside")


def scoring_forms(src: Source, tokens: list[str], qn: int) -> list[Form]:
    """The scaled scores beside the raw ones, then in their place; K's rows named, then (a portrait frame) not;
    then the products stacked under K; each at every row height."""
    whole = lambda made: made.whole  # noqa: E731
    forms = []
    for named, stacked in ((True, None), (False, None), (True, True), (False, True)):
        for place in ("beside", "in place", "over"):
            forms += row_height_forms(
                lambda cell, named=named, stacked=stacked, place=place: scoring(src, tokens, qn, cell, place,
                                                                                named=named, stacked=stacked),
                whole=whole, name=f"{place}{'' if named else ', unnamed'}{', stacked' if stacked else ''}, ")
    return forms


def score_softmax_forms(src: Source, tokens: list[str], qn: int) -> list[Form]:
    """The scaled scores → "softmax over j" → the weights, in the kit's four arrangements."""
    return softmax_forms(src, "query_row.weights", tokens,
                         lambda cell, orientation: scaled_scores(src, qn, cell, orientation),
                         lambda: math(f"omega_({qn} j)"), tag=_("softmax over j"), bar_width=L.bar_width,
                         bar_height=L.bar_height)


@dataclass(frozen=True)
class Mixing:
    comp: WeightedRows
    v_name: VGroup
    a_name: VGroup
    w_name: VGroup
    z_name: VGroup

    @property
    def whole(self) -> VGroup:
        return VGroup(self.comp, self.v_name, self.a_name, self.w_name, self.z_name)


def mixing(src: Source, tokens: list[str], qn: int, cell: float, stacked: bool) -> Mixing:
    """z = Σ α_j v_j as the weights scaling V's rows; `stacked`: the products under V, the arrow down."""
    comp = WeightedRows(src, weights="query_row.weights", matrix="V", products="query_row.weighted_v",
                        result="query_row.z", row_labels=tokens, weights_side=RIGHT, matrix_color=palette.VALUE,
                        cell_size=cell, label_size=typography.LABEL_SIZE, stacked=stacked)
    v_name = math("V", font_size=typography.HEADING_SIZE, color=palette.VALUE)
    v_name.next_to(comp.matrix.body, UP, buff=layout.NEAR)
    a_name = math(f"alpha_({qn} j)", color=palette.WEIGHT).next_to(comp.weights, UP, buff=layout.NEAR)
    w_name = math(f"alpha_({qn} j) v_j", color=palette.MUTED)  # above the products, or (stacked) under the weights
    w_name.next_to(comp.products, RIGHT if stacked else UP, buff=layout.NEAR)
    z_name = math(f"z_{qn}", color=palette.CONTEXT).next_to(comp.result, RIGHT, buff=layout.NEAR)
    return Mixing(comp, v_name, a_name, w_name, z_name)


def mixing_forms(src: Source, tokens: list[str], qn: int) -> list[Form]:
    """Side by side and stacked (the body's own flow first) at every row height."""
    return flow_forms_by_row_height(lambda stacked, cell: mixing(src, tokens, qn, cell, stacked),
                                    whole=lambda made: made.whole)


def product_column(left, right, result) -> tuple[VGroup, VGroup]:
    """`left × right = result` stacked, for a frame too narrow for products.product_row: the grids one under
    another, their cells centred on one line; a factor written as a symbol shares a line with "×" and "=".
    Returns the "×" and "=" it made."""
    times, equals = math("times", color=palette.MUTED), math("=", color=palette.MUTED)
    if isinstance(right, MathTypst):
        steps = [left, VGroup(times, right, equals).arrange(RIGHT, buff=layout.NEAR), result]
    elif isinstance(left, MathTypst):
        steps = [VGroup(left, times).arrange(RIGHT, buff=layout.NEAR), right, equals, result]
    else:
        steps = [left, times, right, equals, result]
    VGroup(*steps).arrange(DOWN, buff=layout.GAP)

    def cells(step):  # a grid's or a map's cells, without its words; anything else whole
        return step.grid.body if isinstance(step, AttentionMap) else getattr(step, "body", step)

    axis = cells(result).get_center()[0]
    for step in steps:
        step.shift(RIGHT * (axis - cells(step).get_center()[0]))
    return times, equals


@dataclass(frozen=True)
class ProductRow:
    """A × V = Z, each a grid or (where the grids would not fit legibly) a symbol."""

    A: VGroup
    V: VGroup
    Z: TensorGrid
    signs: VGroup
    names: VGroup  # under the grids; Z's last

    @property
    def whole(self) -> VGroup:
        return VGroup(self.A, self.V, self.Z, self.signs, self.names)


WEIGHTS_TEXT = 'op("softmax")((Q K^top) / sqrt(d_k))'


def weights_times_values(src: Source, tokens: list[str], style: dict, *, a_grid: bool = True, v_grid: bool = True,
                         stacked: bool = False) -> ProductRow:
    """A × V = Z with the rows of every grid on one line (or `stacked`); A or V written as a symbol where it is
    not a grid. `style` arranges the map (row height, upright key words); the grids' rows are as tall as its."""
    width = shared_cell_width(src, ("V", "output"), font_size=NUMBER)
    cell = style["cell_size"]
    A = (AttentionMap(src, "weights", tokens, font_size=NUMBER, query_label=_("query"), key_label=_("key"), **style)
         if a_grid
         else math(WEIGHTS_TEXT, color=palette.WEIGHT))
    V = (matrix(src, "V", color=palette.VALUE, font_size=NUMBER, cell_width=width, cell_size=cell)
         if v_grid else math("V", font_size=typography.HEADING_SIZE, color=palette.VALUE))
    if v_grid and not a_grid:
        V.add_row_labels(tokens, color=palette.ENGLISH, font_size=typography.LABEL_SIZE)
    Z = matrix(src, "output", color=palette.CONTEXT, font_size=NUMBER, cell_width=width, cell_size=cell)
    times, equals = product_column(A, V, Z) if stacked else product_row(A, V, Z)
    names = VGroup()
    for text, color, g in ((WEIGHTS_TEXT, palette.WEIGHT, A), ("V", palette.VALUE, V), ("Z", palette.CONTEXT, Z)):
        if not isinstance(g, MathTypst):  # under the grid, or stacked: over the map, beside V and Z
            side = (UP if g is A else RIGHT) if stacked else DOWN
            names.add(math(text, color=color).next_to(g, side, buff=layout.GAP))
    return ProductRow(A, V, Z, VGroup(times, equals), names)


def weights_times_values_forms(src: Source, tokens: list[str]) -> list[Form]:
    """The map and both grids, roomiest arrangement first; else V, then the map, written as a symbol; then (a
    frame too narrow for any row: portrait) the same stacked, the map over V over Z."""
    whole = lambda made: made.whole  # noqa: E731
    forms = []
    for stacked in (False, True):
        how = ", stacked" if stacked else ""
        forms += map_style_forms(lambda style, s=stacked: weights_times_values(src, tokens, style, stacked=s),
                                 whole=whole, name=f"A V Z{how}, ")
        forms += map_style_forms(lambda style, s=stacked: weights_times_values(src, tokens, style, v_grid=False,
                                                                               stacked=s),
                                 whole=whole, name=f"A Z{how}, ")
        forms += row_height_forms(lambda cell, s=stacked: weights_times_values(src, tokens, dict(cell_size=cell),
                                                                               a_grid=False, stacked=s),
                                  whole=whole, name=f"V Z{how}, ")
    return forms


@dataclass(frozen=True)
class Charts:
    """The saturation charts: [unscaled row, scaled row], one chart per d_k, their d_k headers and row names;
    `one_at_a_time`: every d_k's pair in one place, each replacing the one before (a frame too narrow for all)."""

    charts: list
    headers: VGroup
    row_names: VGroup
    one_at_a_time: bool

    @property
    def whole(self) -> VGroup:
        return VGroup(self.headers, self.row_names, *self.charts[0], *self.charts[1])

    def frames(self, i: int) -> VGroup:
        """d_k number i's two charts without their bars: the baselines and the keys' names."""
        return VGroup(*(VGroup(row[i].bars_only.baseline, row[i].bars_only.labels) for row in self.charts))


def saturation_chart(sat: Source, i: int, scaled: bool, height: float) -> VGroup:
    """One small bar chart (no numbers on the bars, a weight of 1 `height` tall) and under it its traced notes:
    the largest weight, the scores' range, and (shown last) the softmax Jacobian's norm."""
    kind = "scaled" if scaled else "unscaled"
    keys = sat.get("n_keys")
    bars = SoftmaxBars(sat, f"cases.{i}.{kind}_weights", [f"k{subscript(j + 1)}" for j in range(keys)],
                       max_height=height, bar_width=L.chart_bar_width, buff=L.chart_bar_gap, label_color=palette.KEY)
    bars.remove(bars.values)
    max(bars.bars, key=lambda b: b.height).set_fill(palette.PEAK)
    scores = sat.get(f"cases.{i}.{kind}_scores")
    small = dict(font_size=typography.SMALL_SIZE)

    def note(name, *numbers):
        return VGroup(name, *numbers).arrange(RIGHT, buff=layout.TIGHT)

    peak = note(label(_("max"), color=palette.MUTED, **small), sat.number(f"cases.{i}.{kind}_max", **small))
    spread = note(label(_("scores"), color=palette.MUTED, **small),
                  sat.number(f"cases.{i}.{kind}_scores", int(scores.argmin()), **small),
                  label(_("to"), color=palette.MUTED, **small),
                  sat.number(f"cases.{i}.{kind}_scores", int(scores.argmax()), **small))
    grad = note(math("norm(J)", color=palette.MUTED, **small),
                sat.number(f"cases.{i}.{kind}_grad_norm", decimals=2 if scaled else 5, **small))
    notes = VGroup(peak, spread, grad).arrange(DOWN, buff=layout.TIGHT)
    notes.next_to(bars.labels, DOWN, buff=layout.TIGHT)
    chart = VGroup(bars, notes)
    chart.bars_only, chart.peak, chart.spread, chart.grad = bars, peak, spread, grad
    return chart


def _d_k_header(sat: Source, i: int) -> VGroup:
    d = sat.number(f"cases.{i}.d_k", decimals=0, font_size=typography.BODY_SIZE)
    return VGroup(math("d_k =", font_size=typography.BODY_SIZE + 4), d).arrange(RIGHT, buff=layout.TIGHT)


def _row_names() -> VGroup:
    return VGroup(math('op("softmax")(q dot k)', font_size=typography.LABEL_SIZE + 4),
                  math('op("softmax")((q dot k) / sqrt(d_k))', font_size=typography.LABEL_SIZE + 4))


def charts_at_once(sat: Source) -> Charts:
    """Every d_k side by side, the unscaled charts over the scaled ones, each row named on its left."""
    n = len(sat.get("d_ks"))
    charts = [[saturation_chart(sat, i, scaled, L.chart_height) for i in range(n)] for scaled in (False, True)]
    grid = VGroup(*(VGroup(*row).arrange(RIGHT, buff=L.chart_gap, aligned_edge=DOWN) for row in charts))
    grid.arrange(DOWN, buff=layout.APART)
    names = _row_names()
    for name, row in zip(names, grid):
        name.next_to(row, LEFT, buff=layout.APART)
    headers = VGroup(*(_d_k_header(sat, i) for i in range(n)))
    for header, chart in zip(headers, charts[0]):
        header.next_to(grid[0], UP, buff=layout.GAP).match_x(chart)
    return Charts(charts, headers, names, False)


def charts_one_at_a_time(sat: Source, height: float) -> Charts:
    """Each d_k's header over its unscaled chart over its scaled one, each chart under its row's name, all the d_k
    in one place; a weight of 1 `height` tall."""
    n = len(sat.get("d_ks"))
    charts = [[saturation_chart(sat, i, scaled, height) for i in range(n)] for scaled in (False, True)]
    headers = VGroup(*(_d_k_header(sat, i) for i in range(n)))
    # each row's tallest chart holds the place of all of them, its name above it; the others stand on the same
    # baseline (a weight of 1 reaches higher than a spread one)
    tallest = [max(row, key=lambda chart: chart.height) for row in charts]
    names = _row_names()
    VGroup(headers[0], names[0], tallest[0], names[1], tallest[1]).arrange(DOWN, buff=layout.GAP)
    for name, chart in zip(names, tallest):
        name.next_to(chart, UP, buff=layout.NEAR)
    for row, place in zip(charts, tallest):
        for chart in row:
            chart.move_to(place, aligned_edge=DOWN)
    for header in headers[1:]:
        header.move_to(headers[0])
    return Charts(charts, headers, names, True)


def chart_forms(sat: Source) -> list[Form]:
    """Every d_k at once; else one d_k's pair at a time, its bars as tall as reads at the floor, tallest first."""
    whole = lambda charts: charts.whole  # noqa: E731
    return ([Form("every d_k at once", lambda: charts_at_once(sat), whole)]
            + [Form(f"one d_k at a time, bars {h}", lambda h=h: charts_one_at_a_time(sat, h), whole)
               for h in L.single_chart_heights])


def pinned(plan: Plan, *mobs) -> Plan:
    """The plan with what stays still on screen while the camera moves now (the formula and its highlight)."""
    return dataclasses.replace(plan, pinned=tuple(m for m in mobs if m is not None))


class QKVScaleScene(AttentionScene):
    scene_id = "qkv_scale"

    def construct(self):
        self.src = Source("qkv")
        self.rain = Source("rain")  # the weight-free weights, to say what the projections changed
        self.sat = Source("saturation")
        self.tokens = list(self.src.get("tokens"))
        self.qi = self.src.get("query_index")
        self.qn = self.qi + 1  # 1-based, as in the post's x₃
        self.show_title()
        light = TermLight()
        self.three_projections(light)
        eq = self.project_the_query(light)
        scores = self.score_against_every_key(eq, light)
        picture = self.softmax_over_keys(scores, eq, light)
        self.weighted_sum_of_values(picture, eq, light)
        self.every_row_at_once(eq, light)
        charts = self.saturation_setup()
        self.saturation_grows_with_d_k(charts)
        self.scale_keeps_it_spread(charts)

    def clear_picture(self, keep, light: TermLight) -> None:
        """Fade everything except `keep` (the equation and what the next step reuses)."""
        kept = {id(part) for k in keep if k is not None for part in k.get_family()}
        # a group that animated equation terms shares their parts: it stays if any part is kept
        gone = [m for m in self.mobjects if not any(id(part) in kept for part in m.get_family())]
        if gone:
            self.play(*(FadeOut(m) for m in gone), run_time=0.6)
        if light.box is not None and id(light.box) not in kept:
            light.forget()

    # --- the projections -----------------------------------------------------------------------------------
    @beat
    def three_projections(self, light: TermLight) -> None:
        """X times three learned matrices gives Q, K and V: the roles can now differ."""
        eq = projections_equation()
        parts, plan = compose(projection_forms(self.src, self.tokens), pinned=[eq])
        self.say(_("The weight-free version used X for every role. Real self-attention learns three linear maps."),
                 subject=parts.X)
        self.play(FadeIn(eq), run_time=0.5)
        staging.enter(self, plan, FadeIn(parts.X), FadeIn(parts.x_name), run_time=1.0, then_on=parts.X)
        self.wait(2.0)
        for i, caption in enumerate(ROLE_CAPTIONS):
            plan = self.project(parts, plan, eq, light, i, caption)
        Q, K, V = (self.src.get(p) for p in ("Q", "K", "V"))
        outs = parts.outs if parts.together else parts.outs[-1:]
        self.say(widths_caption(Q, K, V, self.src.get("d_k")), subject=outs)
        self.play(*light.off(), run_time=0.4)
        staging.end_on(self, pinned(plan, eq), outs)
        self.wait(2.4)

    def project(self, parts: Projections, plan: Plan, eq, light: TermLight, i: int, caption: str) -> Plan:
        """One projection: W enters, X W arrives in the product a row at a time, and the camera (under its plan)
        ends on the product. Returns the plan with the highlight pinned."""
        r, color, _path, _name = ROLES[i]
        W, out, w_name, o_name = parts.weights[i], parts.outs[i], parts.w_names[i], parts.o_names[i]
        self.say(_(caption), subject=out)
        if i and not parts.together:  # the product before leaves its place to this one
            self.play(FadeOut(VGroup(parts.weights[i - 1], parts.outs[i - 1], parts.w_names[i - 1],
                                     parts.o_names[i - 1])), run_time=0.4)
        signs = [FadeIn(parts.signs)] if i == 0 and not parts.together else []
        staging.enter(self, plan, FadeIn(W), FadeIn(w_name), *signs, run_time=0.7)
        self.play(*light.on(eq, [r.lower(), "w" + r.lower()], color), run_time=0.5)
        rows = into_product_by_row(parts.X, W, out)
        self.play(motion.row_after_row(rows), FadeIn(out.brackets), FadeIn(o_name),
                  run_time=L.travel_time * len(rows))
        settle(self, [out], _cells(out))
        plan = pinned(plan, eq, light.box)
        staging.end_on(self, plan, VGroup(out, o_name))
        self.wait(0.6)
        return plan

    # --- one query row, step by step ---------------------------------------------------------------------------
    @beat
    def project_the_query(self, light: TermLight) -> VGroup:
        """Step 1 of the query row: q = x W_Q, each entry of x scaling one row of W_Q; k_j and v_j are K's and V's
        rows."""
        qn, word = self.qn, self.tokens[self.qi]
        made, plan = compose(query_projection_forms(self.src, word, qn))
        comp = made.comp
        names = dict(q=f"q{subscript(qn)}", x=f"x{subscript(qn)}", word=quoted(word))
        self.say(_("One query row, step by step. Step one, project: {q} = {x} W_Q for {word}.").format(**names),
                 narration=_("Now one query row, step by step, for {word}. Step one, project: {q} is {x} times "
                             "W_Q.").format(**names), subject=VGroup(comp.weights, comp.matrix))
        self.clear_stage()
        light.forget()
        eq = attention_equation()
        plan = pinned(plan, eq)
        self.play(FadeIn(eq), run_time=0.5)
        staging.enter(self, plan, FadeIn(comp.weights), FadeIn(made.x_name), FadeIn(made.x_word),
                      FadeIn(comp.matrix), FadeIn(made.W_name), scaffold=[FadeIn(comp.scaffold())], run_time=1.0,
                      then_on=VGroup(comp.weights, comp.matrix))
        self.say(_("Each entry of {x} scales one row of W_Q; adding the rows gives the query.").format(
                     x=f"x{subscript(qn)}"),
                 subject=VGroup(comp.products, comp.result))
        shown = staging.scale_every_row(self, plan, comp, color=palette.QUERY)
        self.play(FadeOut(shown[-1].box), run_time=0.3)
        add_rows(self, comp, with_sum=[FadeIn(made.q_name), *light.on(eq, ["q"], palette.QUERY)])
        staging.end_on(self, pinned(plan, eq, light.box), VGroup(comp.result, made.q_name))
        self.wait(1.2)
        self.show_keys_and_values(eq, light)
        self.wait(3.0)
        return eq

    def show_keys_and_values(self, eq, light: TermLight) -> None:
        """K and V again, their rows named by the words, while the caption says the keys and values are their rows."""
        grids, plan = compose(flow_forms_by_row_height(
            lambda stacked, cell: keys_and_values(self.src, self.tokens, stacked, cell)), pinned=[eq, light.box])
        self.say(_("The keys k_j = x_j W_K and values v_j = x_j W_V are the rows of K and V we already have."),
                 narration=_("Keys and values are made the same way, k_j from x_j times W_K and v_j from x_j times "
                             "W_V: they are the rows of K and V we already have."),
                 subject=VGroup(grids[0][0], grids[1][0]))
        self.clear_picture([eq, light.box], light)
        staging.come_to_rest(self, [eq, light.box])
        staging.enter(self, plan, *(FadeIn(part) for part in grids), then_on=grids)

    @beat
    def score_against_every_key(self, eq: VGroup, light: TermLight) -> Scoring:
        """Step 2: q · k_j for every key, then divided by √dₖ."""
        s, plan = compose(scoring_forms(self.src, self.tokens, self.qn), pinned=[eq])
        comp, (q_name, k_name, raw_name) = s.comp, s.names
        self.say(_("Step two, score: dot the query with every key, k_j being the rows of K."),
                 subject=VGroup(comp.matrix, comp.result))
        self.clear_picture([eq, light.box], light)
        staging.come_to_rest(self, [eq, light.box])
        div_arrow = flow_arrow(comp.result, s.scaled) if s.beside else VGroup()
        if s.beside:
            s.scale.next_to(div_arrow, UP, buff=layout.TIGHT)
        self.play(*light.on(eq, ["q", "k"], palette.KEY, paint=["k"]), run_time=0.5)
        plan = pinned(plan, eq, light.box)
        staging.enter(self, plan, FadeIn(comp.matrix), FadeIn(k_name), FadeIn(comp.vector), FadeIn(q_name),
                      FadeIn(comp.scaffold()), FadeIn(raw_name), run_time=0.9)
        labels = list(comp.matrix.row_labels) if hasattr(comp.matrix, "row_labels") else []
        shown = staging.dot_every_row(self, plan, comp, labels=labels, color=palette.KEY)
        staging.end_on(self, plan, VGroup(s.scale, s.scaled, s.scaled_name), FadeOut(shown[-1].box), run_time=0.6)
        self.say(_("Then divide by √d_k = {scale}: these are the scaled scores {omega}.").format(
            scale=format_value(self.src.value("query_row.scale"), 2), omega=f"ω{subscript(self.qn)}ⱼ"),
            subject=VGroup(s.scale, s.scaled))
        cells = [s.scaled.cell(j) for j in range(s.scaled.rows)]
        move = TransformFromCopy if s.beside else ReplacementTransform
        self.play(FadeIn(div_arrow), FadeIn(s.scale), FadeIn(s.scaled.brackets),
                  FadeIn(s.scaled_name) if s.beside else ReplacementTransform(raw_name, s.scaled_name),
                  *(() if s.beside else (FadeOut(comp.result.brackets),)),
                  *light.on(eq, ["q", "k", "scale"], paint=[]),
                  LaggedStart(*(move(comp.result.cell(j), cells[j]) for j in range(s.scaled.rows)), lag_ratio=0.2),
                  run_time=1.4)
        settle(self, [s.scaled], cells)
        staging.end_on(self, plan, VGroup(s.scale, s.scaled))  # under the camera: each scaled score legible once
        self.wait(1.6)
        return s

    @beat
    def softmax_over_keys(self, s: Scoring, eq: VGroup, light: TermLight) -> SoftmaxPicture:
        """Step 3: softmax along the row, over the keys j."""
        picture, plan = compose(score_softmax_forms(self.src, self.tokens, self.qn), pinned=[eq, light.box])
        arrow, bars = picture.arrow(), picture.bars
        self.say(_("Step three, normalise: softmax along the row, over the keys j, gives weights that sum to one."),
                 subject=bars)
        column = VGroup(s.scaled, s.scaled_name)
        self.clear_picture([eq, light.box, column], light)
        staging.come_to_rest(self, [eq, light.box], staying=[column], region=plan.region)
        self.play(*light.on(eq, ["sm", "q", "k", "scale"], palette.WEIGHT, paint=["sm"]), run_time=0.5)
        plan = pinned(plan, eq, light.box)  # the scores land as the whole's shot shows them (shades if from afar)
        staging.enter(self, plan, Transform(column, picture.target), Create(arrow), FadeIn(picture.tag),
                      run_time=0.8, with_the_move=True)
        self.play(Create(bars.baseline), FadeIn(bars.labels),
                  LaggedStart(*(GrowFromEdge(b, LEFT if picture.lying else DOWN) for b in bars.bars), lag_ratio=0.15),
                  motion.lagged(motion.scores_to_weights([s.scaled.cell(j) for j in range(len(self.tokens))],
                                                         list(bars.values))), run_time=1.6)
        staging.end_on(self, plan, bars)
        self.wait(0.6)
        weights = self.src.get("query_row.weights").tolist()
        best = top_index(weights)
        self.say(attends_caption(self.tokens, self.qi, weights, self.rain.get("alpha").tolist()),
                 subject=bars.values if best is None else VGroup(bars.bars[best], bars.values[best]))
        if best is not None:  # under the camera, the top weight framed
            staging.end_on(self, plan, VGroup(bars.bars[best], bars.values[best]),
                           bars.bars[best].animate.set_fill(palette.PEAK), run_time=0.5)
        self.wait(2.6)
        return picture

    @beat
    def weighted_sum_of_values(self, picture: SoftmaxPicture, eq: VGroup, light: TermLight) -> None:
        """Step 4: z = Σ α_j v_j."""
        qn, bars = self.qn, picture.bars
        m, plan = compose(mixing_forms(self.src, self.tokens, qn), pinned=[eq])
        comp = m.comp
        self.say(_("Step four, mix: scale each value v_j by its weight…"), subject=VGroup(comp.weights, comp.products))
        self.clear_picture([eq, light.box, bars], light)
        staging.come_to_rest(self, [eq, light.box])
        self.play(*light.on(eq, ["v"], palette.VALUE), run_time=0.5)
        plan = pinned(plan, eq, light.box)
        staging.enter(self, plan, *(ReplacementTransform(bars.values[j], comp.weights.cell(j))
                                    for j in range(comp.weights.rows)),
                      FadeOut(VGroup(bars.bars, bars.baseline, bars.labels)), FadeIn(m.a_name), FadeIn(comp.matrix),
                      FadeIn(m.v_name), scaffold=[FadeIn(comp.scaffold()), FadeIn(m.w_name)], with_the_move=True,
                      then_on=VGroup(comp.matrix, comp.weights))
        # under the camera, each row's close-up takes in its word and its weight with the row it scales
        labels = [VGroup(word, comp.weights.cell(j)) for j, word in enumerate(comp.matrix.row_labels)]
        shown = staging.scale_every_row(self, plan, comp, labels=labels, color=palette.VALUE)
        names = dict(z=f"z{subscript(qn)}", alpha=f"α{subscript(qn)}ⱼ")
        self.say(_("…and add: {z} = Σ {alpha} vⱼ. Same four steps as soft attention; new are the projections and the "
                   "scale.").format(**names),
                 narration=_("…and add them up: {z} is the sum of every vⱼ times its weight. These are the same four "
                             "steps as soft attention; what is new is the projections and the scale.").format(**names),
                 subject=comp.result)
        self.play(FadeOut(shown[-1].box), run_time=0.3)
        add_rows(self, comp, with_sum=[FadeIn(m.z_name)])
        self.play(*light.on(eq, ["sm", "q", "k", "scale", "v"], palette.CONTEXT, paint=[]), run_time=0.5)
        staging.end_on(self, pinned(plan, eq, light.box), VGroup(comp.result, m.z_name))
        self.wait(3.0)

    @beat
    def every_row_at_once(self, eq: VGroup, light: TermLight) -> None:
        """All query rows together: the weights and Z = softmax(QKᵀ/√dₖ)V, the worked row among them."""
        row, plan = compose(weights_times_values_forms(self.src, self.tokens), pinned=[eq, light.box])
        A, V, Z, qi = row.A, row.V, row.Z, self.qi
        self.say(_("Every query row at once: the weight matrix times V gives one output row per word."), subject=Z)
        self.clear_picture([eq, light.box], light)
        staging.come_to_rest(self, [eq, light.box])
        a_rows = [A.row(i) for i in range(Z.rows)] if isinstance(A, AttentionMap) else []
        a_parts = ([LaggedStart(*(FadeIn(r, shift=RIGHT * layout.NUDGE) for r in a_rows), lag_ratio=0.15),
                    FadeIn(A.axes)] if a_rows else [FadeIn(A)])
        staging.enter(self, plan, *a_parts, FadeIn(row.signs), FadeIn(V), FadeIn(row.names[:-1]), run_time=1.4)
        if a_rows:
            settle(self, [A], a_rows)
        rows = into_product_by_row(A, V, Z)
        self.play(motion.row_after_row(rows), FadeIn(Z.brackets), FadeIn(row.names[-1]),
                  run_time=max(1.6, L.travel_time * len(rows)))
        settle(self, [Z], _cells(Z))
        staging.end_on(self, plan, VGroup(Z, row.names[-1]))
        self.say(_("Row {row} is the {word} row we just worked through.").format(row=self.qn,
                                                                                 word=quoted(self.tokens[qi])),
                 subject=Z.row(qi))
        staging.end_on(self, plan, Z.row(qi))  # under a camera: the row named, wherever the sweep of Z ended
        boxes = [frame_box(Z.row(qi), color=palette.QUERY)]
        if a_rows and A in self.get_mobject_family_members():  # not faded by the close-up
            boxes.append(frame_box(A.row(qi), color=palette.QUERY))
        self.play(*(Create(b) for b in boxes), run_time=0.6)
        self.wait(1.6)

    # --- why the scale -------------------------------------------------------------------------------------
    @beat
    def saturation_setup(self) -> Charts:
        """Random unit-variance queries and keys of growing width: unscaled vs scaled softmax, side by side."""
        head = wrapped(_("Why divide by √dₖ?"), layout.frame().width, font_size=typography.HEADING_SIZE, bold=True)
        head.to_edge(UP, buff=layout.MARGIN)
        below_head = layout.Region(layout.frame().left, layout.frame().right, layout.body().bottom,
                                   head.get_bottom()[1] - layout.APART)
        charts, plan = compose(chart_forms(self.sat), below_head)
        self.say(_("Why the √d_k? Take one random query and {n} random keys with unit-variance entries.").format(
            n=self.sat.get("n_keys")), subject=VGroup(head, charts.row_names))
        self.clear_stage()
        one = charts.one_at_a_time
        self.play(FadeIn(head), FadeIn(charts.row_names), FadeIn(charts.headers[:1] if one else charts.headers),
                  run_time=1.0)
        self.wait(1.5)
        frames = charts.frames(0) if one else VGroup(*(charts.frames(i) for i in range(len(charts.headers))))
        self.say(_("Top chart: softmax of the raw dot products. Bottom chart: divided by √d_k first.") if one else
                 _("Top row: softmax of the raw dot products. Bottom row: divided by √d_k first."), subject=frames)
        self.play(FadeIn(frames), run_time=0.8)
        self.wait(3.0)
        return charts

    @beat
    def saturation_grows_with_d_k(self, charts: Charts) -> None:
        """Column by column: raw dot products grow like √dₖ, so the unscaled softmax turns one-hot."""
        previous = None  # the raw scores of the column before
        for i in range(len(self.sat.get("d_ks"))):
            case = f"cases.{i}"
            d, scores = self.sat.get(f"{case}.d_k"), self.sat.get(f"{case}.unscaled_scores")
            most = (self.sat.value(f"{case}.unscaled_max"), self.sat.value(f"{case}.scaled_max"))
            top, bottom = charts.charts[0][i], charts.charts[1][i]
            self.say(saturation_caption(d, scores, *most), narration=saturation_narration(d, scores, previous, *most),
                     subject=VGroup(top.peak, top.spread, bottom.peak))
            previous = scores
            if charts.one_at_a_time and i:  # the d_k before leaves its place to this one
                before = [VGroup(row[i - 1].bars_only, row[i - 1].peak, row[i - 1].spread) for row in charts.charts]
                self.play(*(FadeOut(m) for m in (charts.headers[i - 1], *before)), FadeIn(charts.headers[i]),
                          FadeIn(charts.frames(i)), run_time=0.6)
            self.play(Indicate(charts.headers[i], color=palette.QUERY, scale_factor=1.1),
                      *(GrowFromEdge(b, DOWN) for c in (top, bottom) for b in c.bars_only.bars), run_time=1.2)
            self.play(*(FadeIn(VGroup(c.peak, c.spread)) for c in (top, bottom)), run_time=0.5)
            self.wait(2.8)

    @beat
    def scale_keeps_it_spread(self, charts: Charts) -> None:
        """The takeaway: near one-hot weights mean vanishing gradients; √dₖ keeps the softmax spread out."""
        last = len(self.sat.get("d_ks")) - 1
        top, bottom = charts.charts[0][last], charts.charts[1][last]
        boxes = VGroup(frame_box(top, color=palette.WRONG), frame_box(bottom, color=palette.RIGHT))
        case = f"cases.{last}"
        d = self.sat.get(f"{case}.d_k")
        self.say(jacobian_caption(d, self.sat.value(f"{case}.unscaled_grad_norm"),
                                  self.sat.value(f"{case}.scaled_grad_norm")),
                 narration=_("Nearly one-hot weights leave almost no gradient. At d_k = {d_k}, the softmax's gradient "
                             "all but vanishes without the scale, and survives with it.").format(d_k=d),
                 subject=VGroup(top.grad, bottom.grad))
        self.play(Create(boxes[0]), FadeIn(top.grad), FadeIn(bottom.grad), run_time=0.7)
        self.wait(3.5)
        self.say(takeaway_caption(self.sat.get("scaled_max")), subject=VGroup(bottom.peak, bottom.grad))
        self.play(Create(boxes[1]), run_time=0.7)
        self.wait(2.6)
