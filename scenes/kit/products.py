"""Row times vector: the per-term products and their sum, as one composition and one motion.

Wherever a row meets a vector (a query dotted with every key, a row of W_q times s, a weight scaling a value row) the
reader should see the same three moves: the row is boxed, its products appear entry by entry, they add up to one
number. One implementation here keeps that motion identical in every clip (model: 3Blue1Brown's
`show_matrix_vector_product`, an animation helper that returns what it created).

Static compositions (every number traced; row i of every part on one line, columns over the entries they multiply):

    DotProducts                                   WeightedRows
                  [ vector  ]                     [w] [matrix]  →  [products]
    [matrix]  ⊙   [products ]  sum →  [result]                     ───────────
                                                                   [ result  ]

Animations (each returns a `ShownProduct` with the mobjects it created):

    row_times_vector(scene, row, vector, products, result, color=..., box=previous_box)
        box `row` (replacing `box`, the previous row's), copy `row` and `vector` into `products`, add them into
        `result`. Works on any mobjects (a grid row, a line of "0.9 · 1.0" terms, a traced number).
    dot_every_row(scene, comp: DotProducts, color=...)           row_times_vector for each row, in order
    scale_every_row(scene, comp: WeightedRows, color=...)        each weight times its row into the products
    add_rows(scene, comp: WeightedRows)                          the rule, then each products column into its sum

`settle(scene, units, pieces)` makes pieces revealed one by one whole units again (the loops above do it).
`comp.scaffold()` is what a scene fades in before the motion (signs, empty brackets).

`with_first_products` / `with_first_sum` let a scene play its own animations (an equation term lighting up)
together with the first row's moves. The last row's box is left on screen and returned, for the scene to fade.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN, LEFT, RIGHT, UP, Animation, Create, FadeIn, Line, Mobject, ReplacementTransform, Scene, TransformFromCopy,
    VGroup,
)

from . import layout, motion, palette, typography
from .numbers import Source, format_value
from .text import label, math, wrapped
from .translation import _
from .widgets import TensorGrid, align_rows, flow_arrow, frame_box

#: Numbers inside product grids: a notch under NUMBER_SIZE so a matrix, its products and the sums fit side by side.
NUMBER = typography.SMALL_SIZE + 2
#: Of one row's motion, the share spent showing the products (the rest adds them).
PRODUCTS_SHARE = 0.6
#: Padding around the widest number of a cell (TensorGrid's own default padding).
CELL_PADDING = 0.2
#: A stacked (tall) form's padding: its width is one grid's, so what its cells save is room for the text.
TALL_CELL_PADDING = layout.TIGHT


def shared_cell_width(source: Source, paths: Sequence[str], *, decimals: int = 2,
                      font_size: float = NUMBER, padding: float = CELL_PADDING) -> float:
    """One cell width that fits the widest number of every tensor at `paths`, measured by typesetting it.

    Grids that share it line up column for column (a vector's entries over the products they make), and an example
    with negative-heavy numbers gets wider cells instead of numbers spilling over their neighbours.
    """
    texts = {format_value(float(v), decimals) for path in paths for v in source.get(path).flatten().tolist()}
    longest = max(len(t) for t in texts)
    widest = max(_typeset_width(t, font_size) for t in texts if len(t) == longest)
    return max(typography.CELL, widest + padding)


@functools.cache
def _typeset_width(text: str, font_size: float) -> float:
    """The width of the number `text` set as math at `font_size` (cached: every arrangement of a composition asks
    again). A decimal comma is measured as a point: math spaces a comma as punctuation (+10 % for "0,73"), which
    the number as drawn (its glyphs set one by one) does not."""
    return math(text.replace(",", "."), font_size=font_size).width


def compact_row(font_size: float = NUMBER, pad: float = layout.TIGHT) -> float:
    """A row's height for a tall example: one line of text (measured, with ascender and descender) and `pad`
    above and below (a dense map takes a hairline), instead of the square typography.CELL, so eleven rows stay
    above the legibility floor."""
    return label("Ag", font_size=font_size).height + 2 * pad


def _grid(source: Source, path: str, color, *, orientation: str = "row", **style) -> TensorGrid:
    return TensorGrid(source, path, orientation=orientation, number_color=color, bracket_color=color, **style)


class DotProducts(VGroup):
    """Every row of `matrix` dotted with `vector`: the per-term `products` (row i = matrix row i ⊙ vector) and
    their sums `result` (one per row).

    Paths are fields of `source`: matrix (T, d), vector (d,), products (T, d), result (T,). The vector sits above the
    products grid, entry k over column k; products and result share the matrix's rows. `row_labels` (tokens) go to
    the matrix's left (at `label_size`). `cell_size` is a row's height: a tall example passes a compact one (one
    line of text and a little padding) so its rows stay above the legibility floor. Parts: `.matrix`, `.vector`,
    `.products`, `.result` (TensorGrid), `.times` ("⊙"),
    `.sum_sign` ("sum →"). `row(i)` gives (matrix row, products row, result cell).

    In a tall body (a portrait frame, `layout.is_tall`) the parts stack instead: the matrix, "⊙", the vector, the
    products under it (entry k still over column k), and "sum" over "→" with the result beside the products' rows
    (a scene names the vector on its right there, where the sums already take room). `stacked` chooses the form
    itself (None: by the body's shape), for a scene whose side-by-side form does not fit a wide body legibly.
    """

    def __init__(self, source: Source, *, matrix: str, vector: str, products: str, result: str,
                 row_labels: Sequence[str] | None = None, matrix_color=palette.TEXT, vector_color=palette.QUERY,
                 result_color=palette.TEXT, label_color=palette.ENGLISH, decimals: int = 2,
                 font_size: float = NUMBER, gap: float = layout.GAP, cell_size: float = typography.CELL,
                 label_size: float = typography.SMALL_SIZE, stacked: bool | None = None):
        super().__init__()
        self.stacked = bool(layout.is_tall() if stacked is None else stacked)
        width = shared_cell_width(source, (matrix, vector, products, result), decimals=decimals, font_size=font_size,
                                  padding=TALL_CELL_PADDING if self.stacked else CELL_PADDING)
        style = dict(decimals=decimals, font_size=font_size, cell_width=width, cell_size=cell_size)
        self.matrix = _grid(source, matrix, matrix_color, **style)
        if row_labels is not None:
            self.matrix.add_row_labels(row_labels, color=label_color, font_size=label_size)
        self.products = _grid(source, products, palette.TEXT, **style)
        self.vector = _grid(source, vector, vector_color, **style)
        self.result = _grid(source, result, result_color, orientation="column", **style)
        self.times = math("dot.o", color=palette.MUTED)
        self.sum_sign = label(_("sum →"), font_size=NUMBER, color=palette.MUTED)
        if self.stacked:
            self._stack(gap)
        else:
            VGroup(self.matrix, self.times, self.products, self.sum_sign, self.result).arrange(RIGHT, buff=gap)
            for part in (self.products, self.result):
                align_rows(part, self.matrix)
            for sign in (self.times, self.sum_sign):
                sign.match_y(self.matrix.body)
            self.vector.next_to(self.products, UP, buff=gap).match_x(self.products.body)
        self.add(self.matrix, self.times, self.vector, self.products, self.sum_sign, self.result)

    def _stack(self, gap: float) -> None:
        """The tall form: matrix over "⊙" over vector over products, the sums beside the products' rows."""
        self.sum_sign = wrapped(_("sum →"), self.sum_sign.width * 0.75, font_size=NUMBER, color=palette.MUTED,
                                line_gap=layout.TIGHT)  # "sum" over "→": the row beside the products is narrow
        self.times.next_to(self.matrix, DOWN, buff=gap).match_x(self.matrix.body)
        self.vector.next_to(self.times, DOWN, buff=gap).match_x(self.matrix.body)
        self.products.next_to(self.vector, DOWN, buff=gap).match_x(self.vector.body)
        VGroup(self.sum_sign, self.result).arrange(RIGHT, buff=gap).next_to(self.products, RIGHT, buff=gap)
        align_rows(self.result, self.products)
        self.sum_sign.match_y(self.products.body)

    def row(self, i: int) -> tuple[VGroup, VGroup, VGroup]:
        return self.matrix.row(i), self.products.row(i), self.result.cell(i)

    def scaffold(self) -> VGroup:
        """What stands empty before the numbers arrive: the signs and the products' and sums' brackets."""
        return VGroup(self.times, self.sum_sign, self.products.brackets, self.result.brackets)


class WeightedRows(VGroup):
    """Each row of `matrix` scaled by its weight: `products` row i = weights[i] · matrix row i, and `result` the sum
    of the product rows (column k sums to result[k]).

    Paths: weights (T,), matrix (T, d), products (T, d), result (d,). The weights stand as a column on
    `weights_side` of the matrix (row labels, if any, on the far left), an arrow leads to the products, and the result
    sits under a rule beneath the products, entry k under column k. `cell_size` (a row's height) and `label_size`
    (the row labels') as in DotProducts. In a tall body (portrait) the products stand under the matrix, column
    under column, the arrow pointing down (`stacked` chooses the form itself; None: by the body's shape). Parts:
    `.weights`, `.matrix`, `.products`,
    `.result` (TensorGrid), `.arrow`, `.rule`. `row(i)` gives (weight cell, matrix row, products row).
    """

    def __init__(self, source: Source, *, weights: str, matrix: str, products: str, result: str,
                 row_labels: Sequence[str] | None = None, weights_side=LEFT, shade_weights: bool = True,
                 matrix_color=palette.TEXT, result_color=palette.CONTEXT, label_color=palette.ENGLISH,
                 decimals: int = 2, font_size: float = NUMBER, gap: float = layout.GAP,
                 cell_size: float = typography.CELL, label_size: float = typography.SMALL_SIZE,
                 stacked: bool | None = None):
        super().__init__()
        self.stacked = bool(layout.is_tall() if stacked is None else stacked)
        width = shared_cell_width(source, (weights, matrix, products, result), decimals=decimals,
                                  font_size=font_size, padding=TALL_CELL_PADDING if self.stacked else CELL_PADDING)
        style = dict(decimals=decimals, font_size=font_size, cell_width=width, cell_size=cell_size)
        shading = dict(shading="weights") if shade_weights else {}
        self.weights = TensorGrid(source, weights, orientation="column", **shading, **style)
        self.matrix = _grid(source, matrix, matrix_color, **style)
        self.products = _grid(source, products, palette.TEXT, **style)
        self.result = _grid(source, result, result_color, **style)
        on_left = bool(np.allclose(weights_side, LEFT))
        pair = (self.weights, self.matrix) if on_left else (self.matrix, self.weights)
        VGroup(*pair).arrange(RIGHT, buff=layout.NEAR if self.stacked else gap)  # a tall form's width is its top row
        align_rows(self.weights, self.matrix)
        if row_labels is not None:
            pair[0].add_row_labels(row_labels, color=label_color, font_size=label_size)
        if self.stacked:  # portrait: the products under the matrix, the arrow down
            self.products.next_to(self.matrix, DOWN, buff=layout.FAR).match_x(self.matrix)
            self.arrow = flow_arrow(self.matrix, self.products, down=True)
        else:
            self.products.next_to(VGroup(*pair), RIGHT, buff=layout.FAR)
            align_rows(self.products, self.matrix)
            self.arrow = flow_arrow(VGroup(*pair), self.products)
            self.arrow.match_y(self.matrix.body)
        self.rule = Line(self.products.get_corner(DOWN + LEFT), self.products.get_corner(DOWN + RIGHT),
                         color=palette.MUTED).shift(DOWN * layout.TIGHT)
        self.result.next_to(self.rule, DOWN, buff=layout.TIGHT).match_x(self.products.body)
        self.add(self.weights, self.matrix, self.arrow, self.products, self.rule, self.result)

    def row(self, i: int) -> tuple[VGroup, VGroup, VGroup]:
        return self.weights.cell(i), self.matrix.row(i), self.products.row(i)

    def scaffold(self) -> VGroup:
        """What stands empty before the products arrive: the arrow and the products' brackets."""
        return VGroup(self.arrow, self.products.brackets)


def product_row(left: Mobject, right: Mobject, result: Mobject) -> tuple[Mobject, Mobject]:
    """Lay out `left × right = result` with the rows of every grid on one line; a factor written as a symbol
    (MathTypst) sits level with the grids. Returns the "×" and "=" it made."""
    from manim import MathTypst

    times, equals = math("times", color=palette.MUTED), math("=", color=palette.MUTED)
    VGroup(left, times, right, equals, result).arrange(RIGHT, buff=layout.GAP)
    grids = [g for g in (left, right) if not isinstance(g, MathTypst)]
    for g in grids[1:] + [result]:
        align_rows(g, grids[0])
    for part in (left, times, right, equals):
        if isinstance(part, MathTypst):
            part.match_y(grids[0].body)
    return times, equals


@dataclass(frozen=True)
class EncoderScoring:
    """The query scored against every encoder vector: the products and sums, the English words beside h's rows
    (or beside the sums), and the names of q, h and e (in that order)."""

    comp: DotProducts
    words: VGroup
    names: VGroup

    @property
    def group(self) -> VGroup:
        return VGroup(self.comp, self.words, self.names)


def encoder_scoring(source: Source, tokens: Sequence[str], *, q_name: str = "q", e_name: str = "e_i",
                    stacked: bool | None = None, words_by_sums: bool = False,
                    cell: float = typography.CELL) -> EncoderScoring:
    """e_i = q · h_i for every English word (soft attention's score, in coffee_cafe and soft_formula alike).
    `stacked` as in DotProducts; `words_by_sums` puts each word beside its score instead of its row of H (a
    close-up on the top score then shows both). Side by side, the words stand left of H's rows; stacked, right of
    them (in the room above the sums), so the tall form is no wider than H and the sums. `cell`: a row's height."""
    comp = DotProducts(source, matrix="H", vector="q", products="score_terms", result="scores",
                       matrix_color=palette.KEY, vector_color=palette.QUERY, gap=layout.NEAR, stacked=stacked,
                       cell_size=cell)
    words = VGroup(*(label(t, color=palette.ENGLISH) for t in tokens))
    # stacked, the sums stand right of the products: the words take the room right of H's rows above them
    words_side = RIGHT if comp.stacked else LEFT
    for i, word in enumerate(words):
        if words_by_sums:
            word.next_to(comp.result, RIGHT, buff=layout.NEAR).match_y(comp.result.cell(i))
        else:
            word.next_to(comp.matrix, words_side, buff=layout.NEAR).match_y(comp.matrix.cell(i, 0))
    names = VGroup(
        math(q_name, font_size=typography.BODY_SIZE, color=palette.QUERY).next_to(
            comp.vector, RIGHT if comp.stacked else LEFT, buff=layout.NEAR),
        math("h_i", font_size=typography.BODY_SIZE, color=palette.KEY).next_to(comp.matrix, UP, buff=layout.NEAR),
        math(e_name, font_size=typography.BODY_SIZE).next_to(comp.result, UP, buff=layout.NEAR),
    )
    return EncoderScoring(comp, words, names)


def encoder_scoring_forms(source: Source, tokens: Sequence[str], *, q_name: str = "q",
                          e_name: str = "e_i") -> list:
    """The arrangements of the encoder scoring, for scenes.kit.compose: the region's own flow first, with the
    words beside H's rows, at each row height (a short region under a formula takes compact rows); for the camera,
    the words beside the scores (a close-up on the top score shows both)."""
    from .forms import flow_forms, flow_forms_by_row_height

    def scoring(stacked: bool, cell: float = typography.CELL, by_sums: bool = False) -> EncoderScoring:
        return encoder_scoring(source, tokens, q_name=q_name, e_name=e_name, stacked=stacked, cell=cell,
                               words_by_sums=by_sums)

    whole = lambda built: built.group  # noqa: E731
    return [*flow_forms_by_row_height(scoring, whole=whole),
            *flow_forms(lambda stacked: scoring(stacked, by_sums=True), whole=whole, suffix=", words by the scores",
                        close_up=True)]


@dataclass(frozen=True)
class ShownProduct:
    """What one row's motion put on screen: its highlight box (the next row's box replaces it), the products and
    the sum (None when the motion stopped at the products)."""

    box: Mobject
    products: Mobject
    result: Mobject | None


def settle(scene: Scene, units: Sequence[Mobject], pieces: Iterable[Mobject]) -> None:
    """Pieces revealed one by one (rows copied in, cells added up) become the whole units on screen again.

    A transform adds the group it was given (a fresh `grid.row(i)`), not the grid; left that way, a later
    `ReplacementTransform(grid, ...)` would leave the old cells behind in those groups. Same objects, nothing moves.
    """
    scene.remove(*pieces)
    scene.add(*units)


def _move_box(box: Mobject | None, target: Mobject) -> Animation:
    return ReplacementTransform(box, target) if box is not None else Create(target)


def row_box_buff(row: Mobject) -> float:
    """How far a row's highlight box stands off its cells: a hairline, or none where the rows are hairline rows
    themselves (a box standing off them would cross the digits of the rows above and below)."""
    pads = [(cell[0].height - max(part.height for part in cell.submobjects[1:])) / 2
            for cell in row.submobjects if len(cell.submobjects) > 1]
    return layout.HAIRLINE if not pads or min(pads) - layout.HAIRLINE >= 2 * layout.HAIRLINE else 0.0


def row_times_vector(scene: Scene, row: Mobject, vector: Mobject, products: Mobject, result: Mobject | None, *,
                     color=palette.KEY, box: Mobject | None = None, with_products: Iterable[Animation] = (),
                     with_sum: Iterable[Animation] = (), run_time: float = 1.2) -> ShownProduct:
    """Box `row`, show its entry-by-entry products with `vector` (copied out of both into `products`), then add
    them into `result` (skipped when None).

    `box` is the previous row's highlight box: it slides onto this row instead of a new one appearing. The row's box
    stays on screen (returned) so the caller can pass it to the next row or fade it. `run_time` covers both moves
    (the products take PRODUCTS_SHARE of it; all of it when there is no sum).
    """
    products_time = run_time * PRODUCTS_SHARE if result is not None else run_time
    sum_time = run_time - products_time
    row_box = frame_box(row, color=color, buff=row_box_buff(row))
    scene.play(_move_box(box, row_box), *operands_to_products(row, vector, products), *with_products,
               run_time=products_time)
    if result is not None:
        scene.play(*motion.collapse(products, result), *with_sum, run_time=sum_time)
    return ShownProduct(row_box, products, result)


def operands_to_products(row: Mobject, vector: Mobject, products: Mobject) -> list[Animation]:
    """Entry k of the row and of the vector travel to product k; a single weight (a weighted row) travels to every
    product with its row's entry."""
    one_weight = not (isinstance(vector, VGroup) and len(vector.submobjects) > 1)
    row_cells, product_cells = row.submobjects, products.submobjects
    if one_weight and isinstance(row, VGroup) and len(row_cells) == len(product_cells) > 1:
        return [motion.travel(VGroup(vector, r), p) for r, p in zip(row_cells, product_cells)]
    return motion.entries_to_products(row, vector, products)


def into_product(left: Mobject, right: Mobject, product: TensorGrid) -> list[Animation]:
    """C = L R laid out as L × R = C (no products shown), entry by entry: for each cell (i, k) of `product`, the
    entries of row i of L travel with those of column k of R into it (motion.weighted_rows_into_row). L may be a
    grid or a map (anything with `.row(i)`); a factor written as a symbol travels whole in place of its entries.
    Play them lagged (`motion.lagged`), then `settle(scene, [product], cells)`."""
    return [anim for row in into_product_by_row(left, right, product) for anim in row]


def into_product_by_row(left: Mobject, right: Mobject, product: TensorGrid) -> list[list[Animation]]:
    """`into_product`'s travelling copies grouped by the row of `product` they arrive in: play them with
    `motion.row_after_row`, so one row's copies at a time are in flight, then `settle`."""
    return [_into_row(left, right, product, i) for i in range(product.rows)]


def _into_row(left: Mobject, right: Mobject, product: TensorGrid, i: int) -> list[Animation]:
    weights = left.row(i) if hasattr(left, "row") else left
    if isinstance(right, TensorGrid):
        return motion.weighted_rows_into_row(weights, [right.row(m) for m in range(right.rows)], product.row(i))
    return [motion.travel(VGroup(weights, right), cell) for cell in product.row(i)]


def dot_every_row(scene: Scene, comp: DotProducts, *, color=palette.KEY,
                  with_first_products: Iterable[Animation] = (), with_first_sum: Iterable[Animation] = (),
                  run_time: float = 1.2) -> list[ShownProduct]:
    """`row_times_vector` for every row of a DotProducts, top to bottom, one box sliding down the matrix."""
    shown: list[ShownProduct] = []
    for i in range(comp.matrix.rows):
        row, products, result = comp.row(i)
        shown.append(row_times_vector(
            scene, row, comp.vector.body, products, result, color=color, box=shown[-1].box if shown else None,
            with_products=with_first_products if i == 0 else (), with_sum=with_first_sum if i == 0 else (),
            run_time=run_time))
    settle(scene, [comp.products, comp.result], [m for s in shown for m in (s.products, s.result)])
    return shown


def scale_every_row(scene: Scene, comp: WeightedRows, *, color=palette.VALUE,
                    with_first: Iterable[Animation] = (), run_time: float = 0.6) -> list[ShownProduct]:
    """Each weight times its matrix row into the products grid, one box sliding down the matrix (no sums yet:
    `add_rows` adds the rows)."""
    shown: list[ShownProduct] = []
    for i in range(comp.matrix.rows):
        weight, row, products = comp.row(i)
        shown.append(row_times_vector(
            scene, row, weight, products, None, color=color, box=shown[-1].box if shown else None,
            with_products=with_first if i == 0 else (), run_time=run_time))
    settle(scene, [comp.products], [s.products for s in shown])
    return shown


def add_rows(scene: Scene, comp: WeightedRows, *, with_sum: Iterable[Animation] = (),
             run_time: float = 1.4) -> VGroup:
    """Draw the rule and add each column of products into its entry of the result; returns the result."""
    rows = [comp.products.row(i) for i in range(comp.products.rows)]
    sums = motion.rows_into_sum(rows, VGroup(*(comp.result.cell(0, k) for k in range(comp.products.cols))))
    scene.play(Create(comp.rule), FadeIn(comp.result.brackets), *sums, *with_sum, run_time=run_time)
    settle(scene, [comp.result], [comp.result.cell(0, k) for k in range(comp.products.cols)])
    return comp.result


__all__ = [
    "EncoderScoring", "encoder_scoring", "product_row",
    "DotProducts", "WeightedRows", "ShownProduct", "row_times_vector", "dot_every_row", "scale_every_row",
    "add_rows", "shared_cell_width", "settle", "compact_row", "into_product", "into_product_by_row",
]
