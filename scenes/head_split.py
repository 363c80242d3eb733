"""Multi-head attention as one wide matmul, a split of the width into heads, per-head attention, concat, × W_O.

Follows the post's "From one head to many" and its Approach 2 (one wide matrix multiply, then a split), and closes
with Approach 1 (stacked single-head modules) giving the same numbers.

Every beat hands the layout engine (scenes.kit.compose) the forms its picture can take, built from the example's
sizes, and lets the kit's staging move the camera where the plan says so. Claims about the heads (how many, how
wide, which head looks where) are read from the data.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from manim import (
    DOWN, LEFT, RIGHT, UP, Arrow, Create, DashedLine, FadeIn, FadeOut, FadeTransform, Indicate, Mobject, Rectangle,
    ReplacementTransform, VGroup, Write,
)

from scenes.kit import (
    AttentionMap, AttentionScene, NamedMatrix, Source, align_baselines, beat, format_value, label, math, matrix,
    motion, palette, subscript, top_token, typography,
)
from scenes.kit import layout, staging
from scenes.kit.compose import Form, Plan, compose
from scenes.kit.forms import flow_forms_by_row_height, lines_forms, map_style_forms, row_height_forms
from scenes.kit.named_matrix import shape_text
from scenes.kit.products import CELL_PADDING, NUMBER, into_product_by_row, settle, shared_cell_width
from scenes.kit.text import baseline_y, product_sign, wrapped
from scenes.kit.widgets import TensorGrid
from scenes.kit.translation import _, capitalized, quoted

#: X is (B, T, d_in); its grid shows the first sequence of the batch.
FIRST_IN_BATCH = 0


@dataclass(frozen=True)
class HeadSplitLayout:
    """The scene's own sizes: everything else follows from the example's sizes and the kit's named gaps."""

    tint_pad: float = 0.08  #: a head's panel reaches this far beyond its cells
    tint_opacity: float = 0.08  #: light enough that Q, K and V digits on it keep 4.5:1 (WCAG 1.4.3)
    dash_overhang: float = 0.15  #: a cut line runs this far past the grid
    arrow_room: float = 0.9  #: between the wide W_Q and the narrow ones, for the arrows
    row_time: float = 0.7  #: one row of a product arriving


L = HeadSplitLayout()


def falk(left, right, result) -> None:
    """`left · right = result` laid out as the product is worked (Falk's scheme): `right` above `result`, column
    over column, `left` beside it, row level with row, so row i of `left` and column j of `right` meet in cell
    (i, j) of `result`; the result's name to its right (its shape stays below it). The three grids must share a
    cell width."""
    gap = layout.GAP
    right.shift(RIGHT * (result.body.get_center()[0] - right.body.get_center()[0])
                + UP * (result.grid.get_top()[1] + gap - right.grid.get_bottom()[1]))
    left.shift(RIGHT * (result.grid.get_left()[0] - gap - left.grid.get_right()[0])
               + UP * (result.body.get_center()[1] - left.body.get_center()[1]))
    result.name.next_to(result.grid, RIGHT, buff=layout.GAP)


def stack(left, right, result) -> None:
    """The tall form of `falk` (a narrow body): `left` above `right` above `result`, `right`
    still column over column with `result` and `left` centred over them, so that X · W_Q = Q reads downwards;
    `left` keeps its name above it, `right` and `result` have theirs on their left (where `left` has its row
    labels), so the column stays as narrow as it can. Between `left` and `right`, room for names above `right`'s
    slices (the heads'). The grids share a cell width."""
    right.shift(RIGHT * (result.body.get_center()[0] - right.body.get_center()[0])
                + UP * (result.grid.get_top()[1] + layout.GAP - right.grid.get_bottom()[1]))
    left.shift(RIGHT * (right.body.get_center()[0] - left.body.get_center()[0])
               + UP * (right.grid.get_top()[1] + layout.APART - left.grid.get_bottom()[1]))
    for named in (right, result):
        named.name.next_to(named.grid, LEFT, buff=layout.GAP)


def column(left, right, result) -> None:
    """The narrowest form of `stack`: `left`'s cells end where `right`'s do (its row words over `right`'s first
    columns), so the column is no wider than `right` and its name."""
    stack(left, right, result)
    left.shift(RIGHT * (right.body.get_right()[0] - left.body.get_right()[0]))
    for named in (right, result):
        named.name.next_to(named.grid, LEFT, buff=layout.NEAR)


def narrow_forms(build: Callable[[float], Any], whole: Callable[[Any], Mobject] = lambda made: made, *,
                 suffix: str = "") -> list[Form]:
    """A picture's narrowest form (`build(cell)`: one column, tight cells, labels at the numbers' size) at each row
    height: for a frame too narrow for the others at the floor."""
    return floor_only(row_height_forms(build, whole=whole, suffix=", narrow" + suffix))


def floor_only(forms: list[Form]) -> list[Form]:
    """`forms` offered to reach the floor only: where none does, the camera films one of the roomier forms."""
    return [dataclasses.replace(form, camera=False) for form in forms]


def query_row(amap: AttentionMap, i: int) -> VGroup:
    """Row i of an attention map, with its word where the map names its rows."""
    return VGroup(amap.row(i), *([amap.row_labels[i]] if len(amap.row_labels) else []))


def tint_behind(mob: Mobject, color, *, fill: bool = True) -> Rectangle:
    """A translucent head-coloured panel behind a slice of cells."""
    rect = Rectangle(width=mob.width + L.tint_pad, height=mob.height + L.tint_pad, stroke_color=color, stroke_width=2,
                     fill_color=color, fill_opacity=L.tint_opacity if fill else 0)
    rect.move_to(mob)
    rect.set_z_index(-1)
    return rect


def brackets_of(grid: TensorGrid) -> VGroup:
    """A valued matrix's brackets (a shaded grid has none)."""
    return getattr(grid, "brackets", VGroup())


def chain(*items: Mobject) -> VGroup:
    """Items left to right at the GAP, each centred on the first one's cells (so "·" and "=" sit mid-matrix)."""
    def middle(item: Mobject) -> float:
        return (item.body if hasattr(item, "body") else item).get_center()[1]

    for previous, item in zip(items, items[1:]):
        item.next_to(previous, RIGHT, buff=layout.GAP)
        item.shift(UP * (middle(items[0]) - middle(item)))
    return VGroup(*items)


def line_up_names(named: list[NamedMatrix]) -> None:
    """Names on one baseline above the tallest grid, shapes on one baseline below the lowest. A name `wrapped` over
    lines sits on its last line's baseline (its first line's would push the rest down onto the grid)."""
    y = max(m.name.get_bottom()[1] for m in named)
    for m in named:
        last = m.name[-1] if type(m.name) is VGroup else m.name  # a wrapped name's lines; else one text
        m.name.shift(UP * (y - baseline_y(last)))
    shapes = [m.shape_label for m in named if m.shape_label is not None]
    if shapes:
        align_baselines(shapes, y=min(s.get_bottom()[1] for s in shapes))


def patterns_intro(one_head: bool) -> tuple[str, str | None]:
    """The patterns beat's opening caption (and its narration, where fuller)."""
    if one_head:
        return (_("The head scores with its slices of W_Q and W_K: here one head, so one causal pattern."),
                _("The head scores with its own slices of W_Q and W_K. With one head there is a single causal "
                  "pattern."))
    return _("Each head scores with its own slices of W_Q and W_K, so each has its own causal pattern."), None


def last_word_patterns(word: str, count: int, tops: list[tuple[str | None, float]], valued: list[bool]
                       ) -> tuple[str, str]:
    """Where the last word (which sees every word) looks in each head: `tops[h]` is head h's top word and its
    weight (None: it spreads over all `count` words); `valued[h]`: head h's map shows its numbers, so the caption
    says the weight."""
    claims = []
    for h, ((top, peak), numbers) in enumerate(zip(tops, valued)):
        if top is None:
            claims.append(_("head {n} spreads {word} over all {count} words").format(n=h + 1, word=quoted(word),
                                                                                     count=count))
        elif numbers:
            claims.append(_("head {n} gives {top} {value} of {word}'s weight").format(
                n=h + 1, top=quoted(top), value=format_value(peak, 2), word=quoted(word)))
        else:
            claims.append(_("in head {n}, {word} looks most at {top}").format(n=h + 1, word=quoted(word),
                                                                               top=quoted(top)))
    sentence = _("; ").join(claims)  # French sets a no-break space before the semicolon
    return (capitalized(sentence) + ".",
            _("Look at the last word, {word}, which may look at every word: {claims}.").format(word=quoted(word),
                                                                                                claims=sentence))



# --- the example's sizes and the forms the beats' pictures take ----------------------------------------------
@dataclass(frozen=True)
class Example:
    """The multi-head example: its tensors and the sizes read from their shapes (X is (B, T, d_in), Q (B, T, d_out),
    Q_heads (heads, T, head_dim))."""

    src: Source
    tokens: tuple[str, ...]
    batch: int
    T: int
    d_in: int
    d_out: int
    n_heads: int
    head_dim: int

    @property
    def one_head(self) -> bool:
        return self.n_heads == 1


def example_of(src: Source) -> Example:
    batch, T, d_in = src.shape("X")
    n_heads, _, head_dim = src.shape("Q_heads")
    return Example(src, tuple(src.get("tokens")), batch, T, d_in, src.shape("Q")[-1], n_heads, head_dim)


def label_size(narrow: bool) -> float:
    """The size of a form's labels (words, heads' names, shapes): a narrow form sets them at the numbers' size, so
    that fitted to the floor none reads smaller than the numbers it names."""
    return NUMBER if narrow else typography.SMALL_SIZE


def cell_width(ex: Example, paths: tuple[str, ...], narrow: bool = False) -> float:
    """One cell width for the grids of `paths` (products.shared_cell_width); a narrow form's cells leave TIGHT
    between two of the widest numbers instead of the kit's CELL_PADDING."""
    width = shared_cell_width(ex.src, paths, font_size=NUMBER)
    return width - CELL_PADDING + layout.TIGHT if narrow else width


def wrap_shape(named: NamedMatrix, font_size: float) -> None:
    """A narrow form's shape under its grid on two lines, "(B, T, d_out)" over "= (1, 4, 4)", at `font_size`."""
    symbolic, actual = named.shape_text.split(" = ")
    style = dict(font_size=font_size, color=palette.MUTED, mono=True)
    lines = VGroup(label(symbolic, **style), label(f"= {actual}", **style)).arrange(DOWN, buff=layout.TIGHT)
    lines.next_to(named.grid, DOWN, buff=layout.NEAR).match_x(named.grid.body)
    named.remove(named.shape_label)
    named.shape_label = lines
    named.add(lines)


def named_grid(ex: Example, path: str, name, color, cell: float, width: float | None = None, *, words: bool = False,
               axes: tuple[str, ...] | None = None, narrow: bool = False) -> NamedMatrix:
    """A matrix of `ex` with its numbers, rows `cell` tall (cells `width` wide), its name over it; its rows named
    by the words (`words`); its shape under it, with the batch axis, where `axes` names the grid's own axes (in a
    `narrow` form, on two lines; words and shape at the numbers' size)."""
    grid = matrix(ex.src, path, color=color, cell_size=cell, cell_width=width, font_size=NUMBER)
    if words:
        grid.add_row_labels(list(ex.tokens), color=palette.ENGLISH, font_size=label_size(narrow))
    else:
        grid.row_labels = VGroup()  # unnamed: an empty group, for the fades that name the rows
    named = NamedMatrix(grid, name, color=color, shape=axes is not None, axes=axes,
                        batch=ex.batch if axes is not None else None)
    if narrow and named.shape_label is not None:
        wrap_shape(named, label_size(narrow))
    return named


def head_columns(ex: Example, grid: TensorGrid, h: int) -> VGroup:
    """The cells of head h's slice of a wide grid: columns h·head_dim … (h+1)·head_dim − 1."""
    return VGroup(*(grid.column(c) for c in range(h * ex.head_dim, (h + 1) * ex.head_dim)))


def head_name(h: int, *, short: bool = False, narrow: bool = False) -> Mobject:
    text = f"h{subscript(h + 1)}" if short else _("head {n}").format(n=h + 1)
    return label(text, font_size=label_size(narrow), color=palette.HEAD_TINTS[h], bold=True)


def slice_names(slices: VGroup, direction, narrow: bool = False) -> VGroup:
    """"head h" beside each slice (above or below it); "h₁" where the full names would run into each other."""
    names = VGroup(*(head_name(h, narrow=narrow) for h in range(len(slices))))
    if any(name.width + layout.TIGHT > piece.width - L.tint_pad for name, piece in zip(names, slices)):
        names = VGroup(*(head_name(h, short=True, narrow=narrow) for h in range(len(slices))))
    for name, piece in zip(names, slices):
        name.next_to(piece, direction, buff=layout.TIGHT)
    align_baselines(names)
    return names


@dataclass(frozen=True)
class WideProduct:
    """left · right = result laid out column over column (`falk`, or `stack` in a narrow body), each head's slice
    of the wide matrices tinted and named; `formula` over it (or an empty group)."""

    left: NamedMatrix
    right: NamedMatrix
    result: NamedMatrix
    tints: VGroup
    heads: VGroup
    formula: VGroup

    @property
    def whole(self) -> VGroup:
        return VGroup(self.left, self.right, self.result, self.tints, self.heads, self.formula)


def query_product(ex: Example, stacked: bool, cell: float, narrow: bool = False) -> WideProduct:
    """X · W_Q = Q, the heads' slices tinted down W_Q and Q (their names over W_Q); X's rows named by the words,
    Q's shape (B, T, d_out) under it; `narrow`, in one column."""
    width = cell_width(ex, ("X", "W_q", "Q"), narrow)
    x = named_grid(ex, f"X.{FIRST_IN_BATCH}", "X", palette.TEXT, cell, width, words=True, narrow=narrow)
    w = named_grid(ex, "W_q", "W_Q", palette.QUERY, cell, width)
    q = named_grid(ex, "Q", "Q", palette.QUERY, cell, width, axes=("T", "d_out"), narrow=narrow)
    (column if narrow else stack if stacked else falk)(x, w, q)
    w.name.next_to(w.grid, LEFT, buff=layout.NEAR if narrow else layout.GAP)  # above W_Q: the heads' names
    tints = VGroup(*(tint_behind(VGroup(head_columns(ex, w.grid, h), head_columns(ex, q.grid, h)),
                                 palette.HEAD_TINTS[h]) for h in range(ex.n_heads)))
    return WideProduct(x, w, q, tints, slice_names(tints, UP, narrow), VGroup())


def query_product_forms(ex: Example) -> list[Form]:
    return (flow_forms_by_row_height(lambda stacked, cell: query_product(ex, stacked, cell),
                                     whole=lambda made: made.whole)
            + narrow_forms(lambda cell: query_product(ex, True, cell, narrow=True), whole=lambda made: made.whole))


def work_product(scene, plan: Plan, left: TensorGrid, right: TensorGrid, result: TensorGrid) -> None:
    """result = left · right, a row at a time: row i of `left` (with its word) and the columns of `right` travel
    into row i of `result`; under the camera plan the camera is on row i of `left`, then on row i of `result` as
    its entries land."""
    arrivals = into_product_by_row(left, right, result)
    words = list(left.row_labels) if len(left.row_labels) else [VGroup()] * left.rows
    staging.work_rows(scene, plan, [[[(VGroup(words[i], left.row(i)), [])],
                                     [(result.row(i), [motion.lagged(arrivals[i])])]] for i in range(result.rows)],
                      run_time=L.row_time)
    settle(scene, [result.body], [cell for i in range(result.rows) for cell in result.row(i)])


def head_width_caption(ex: Example) -> tuple[str, str]:
    """How the wide W_Q's columns are shared out among the heads (caption, narration)."""
    if ex.one_head:
        return (_("With one head, that head takes all d_out = {d_out} columns of W_Q: head_dim = d_out.").format(
                    d_out=ex.d_out),
                _("With a single head, that head takes all {d_out} columns of W_Q, so its head_dim is the whole width "
                  "d_out.").format(d_out=ex.d_out))
    sizes = dict(d_out=ex.d_out, heads=ex.n_heads, head_dim=ex.head_dim)
    return (_("W_Q has d_out = {d_out} columns: room for {heads} heads of head_dim = {head_dim} each.").format(**sizes),
            _("W_Q has d_out = {d_out} columns: room for {heads} heads, each {head_dim} columns wide. That width is "
              "the head_dim.").format(**sizes))


def shape_line(names: str, values: tuple[int, ...]) -> Mobject:
    """"(B, heads, T, head_dim) = (1, 2, 4, 2)" for the top band: a symbolic shape and the tensor's actual one, on
    one line or (a narrow band) the names over "= (1, 2, 4, 2)"."""
    symbolic, actual = f"({names})", f"= ({', '.join(str(v) for v in values)})"
    style = dict(font_size=typography.BODY_SIZE, mono=True)

    def build(lines: int) -> Mobject:
        if lines == 1:
            return label(f"{symbolic} {actual}", **style)
        return VGroup(label(symbolic, **style), label(actual, **style)).arrange(DOWN, buff=layout.TIGHT)

    line, _ = compose(lines_forms(build, 2, region=layout.top_band()), layout.top_band())
    return line


@dataclass(frozen=True)
class WideQKV:
    """Q, K and V, each (B, T, d_out), side by side (or one under another), their shared shape under them; the cut
    each will get: the heads' tinted slices, dashed lines between them, the heads' names over Q's slices."""

    grids: tuple[NamedMatrix, ...]
    shape: Mobject
    tints: tuple[VGroup, ...]
    cuts: VGroup
    heads: VGroup

    @property
    def whole(self) -> VGroup:
        return VGroup(*self.grids, self.shape, *self.tints, self.cuts, self.heads)


def cut_lines(ex: Example, grid: TensorGrid) -> list[DashedLine]:
    """Dashed lines down `grid` between its heads' slices, a little past its cells."""
    lines = []
    top, bottom = grid.body.get_top()[1] + L.dash_overhang, grid.body.get_bottom()[1] - L.dash_overhang
    for h in range(1, ex.n_heads):
        x = (head_columns(ex, grid, h - 1).get_right()[0] + head_columns(ex, grid, h).get_left()[0]) / 2
        lines.append(DashedLine([x, top, 0], [x, bottom, 0], color=palette.TEXT, stroke_width=2))
    return lines


def wide_qkv(ex: Example, stacked: bool, cell: float, narrow: bool = False, words: bool = True) -> WideQKV:
    """Q, K, V side by side, names on one line; or `stacked`, one under another; or `narrow`, one under another
    with their names on their left. Q's rows named by the words (unless not `words`)."""
    width = cell_width(ex, ("Q", "K", "V"), narrow)
    named = [named_grid(ex, r, r, palette.ROLE_COLORS[r], cell, width, words=words and r == "Q", narrow=narrow)
             for r in ("Q", "K", "V")]
    if narrow:  # names on the left, where Q has its words
        VGroup(*(m.grid for m in named)).arrange(DOWN, buff=layout.GAP, aligned_edge=RIGHT)
        for m in named:
            m.name.next_to(m.grid, LEFT, buff=layout.NEAR)  # the grid with its words
    elif stacked:  # each under its name, as narrow as Q and its words
        VGroup(*named).arrange(DOWN, buff=layout.GAP)
        for m in named[1:]:
            m.shift(RIGHT * (named[0].body.get_center()[0] - m.body.get_center()[0]))
    else:
        VGroup(*named).arrange(RIGHT, buff=layout.APART)
        line_up_names(named)
    symbolic, actual = shape_text((ex.batch, ex.T, ex.d_out), ("B", "T", "d_out")).split(" = ")
    style = dict(font_size=typography.SMALL_SIZE, color=palette.MUTED, mono=True)
    style["font_size"] = label_size(narrow)
    each = _("each {shape}").format(shape=symbolic)
    shared = (VGroup(label(each, **style), label(f"= {actual}", **style)).arrange(DOWN, buff=layout.TIGHT)
              if stacked or narrow else label(f"{each} = {actual}", **style))
    bodies = VGroup(*(m.body for m in named))
    shared.next_to(bodies, DOWN, buff=layout.NEAR).match_x(bodies)
    tints = tuple(VGroup(*(tint_behind(head_columns(ex, m.grid, h), palette.HEAD_TINTS[h]) for h in range(ex.n_heads)))
                  for m in named)
    cuts = VGroup(*(line for m in named for line in cut_lines(ex, m.grid)))
    return WideQKV(tuple(named), shared, tints, cuts, slice_names(tints[0], UP, narrow))


def wide_qkv_forms(ex: Example) -> list[Form]:
    """Q, K and V across or one under another, then in one column with Q's words, then without them (a portrait
    frame holds four columns of numbers, or a word and three, at the floor)."""
    return (flow_forms_by_row_height(lambda stacked, cell: wide_qkv(ex, stacked, cell), whole=lambda made: made.whole)
            + [form for words in (True, False) for form in narrow_forms(
                lambda cell, words=words: wide_qkv(ex, True, cell, narrow=True, words=words),
                whole=lambda made: made.whole, suffix="" if words else ", rows unnamed")])


def per_head_rows(ex: Example, paths: list[str], colors: list, titles: list[str] | None, cell: float,
                  gap: float, across: bool = False, narrow: bool = False) -> VGroup:
    """One row per head: its name, then one panel per path (the head's slice of each tensor, `gap` apart), role
    names on top; or `across`, one column per head, its name on top, each panel's role name over it (`narrow`:
    named once, on the left of the first head's panels; tight cells). Returns
    VGroup(rows, titles) with `.reading`, its parts in reading order; rows[h] has `.name`, `.grids` and `.panels`
    (one per path)."""
    width = cell_width(ex, tuple(paths), narrow)
    rows = VGroup()
    for h in range(ex.n_heads):
        grids = VGroup()
        for path, color in zip(paths, colors):
            grid = matrix(ex.src, f"{path}.{h}", color=color, cell_size=cell, cell_width=width, font_size=NUMBER)
            grid.remove(brackets_of(grid))  # the head's tinted panel frames it
            grids.add(grid)
        title_room = (math("Q", font_size=typography.BODY_SIZE).height + layout.NEAR
                      if across and titles and not narrow else 0)
        grids.arrange(DOWN if across else RIGHT, buff=gap + title_room)
        tints = VGroup(*(tint_behind(g.body, palette.HEAD_TINTS[h]) for g in grids))
        row = VGroup(head_name(h, narrow=narrow).next_to(tints, UP if across else LEFT, buff=layout.GAP + title_room),
                     grids, tints)
        row.name, row.grids, row.panels = row.submobjects
        rows.add(row)
    if across:
        rows.arrange(RIGHT, buff=gap, aligned_edge=UP)
    else:
        rows.arrange(DOWN, buff=layout.GAP, aligned_edge=RIGHT)
    tops = VGroup()
    if titles:  # the role names over the first row's panels; heads across, over every panel (narrow: left of the first)
        tops = VGroup(*(math(t, font_size=typography.BODY_SIZE, color=c).next_to(panel, LEFT if narrow else UP,
                                                                                  buff=layout.NEAR)
                        for row in (rows if across and not narrow else rows[:1])
                        for t, c, panel in zip(titles, colors, row.panels)))
        if not across:
            align_baselines(tops)
    split = VGroup(rows, tops)
    split.reading = rows if not across else VGroup(  # what a camera reads in turn: each row, or each role across
        VGroup(*(row.name for row in rows)),
        *(VGroup(*tops[k::len(paths)], *(VGroup(row.panels[k], row.grids[k]) for row in rows))
          for k in range(len(paths))))
    return split


def per_head_forms(ex: Example, paths: list[str], colors: list, titles: list[str] | None) -> list[Form]:
    """The heads' rows at each row height, their panels far apart, then close together; then the heads as
    columns (a narrow frame), their panels one under another; then so with the roles named once (narrower)."""
    return [form for gap, name, across, narrow in ((layout.FAR, "far", False, False),
                                                   (layout.GAP, "close", False, False),
                                                   (layout.GAP, "heads across", True, False),
                                                   (layout.NEAR, "heads across, narrow", True, True))
            for form in (floor_only if narrow else list)(row_height_forms(
                lambda cell, gap=gap, across=across, narrow=narrow: per_head_rows(
                    ex, paths, colors, titles, cell, gap, across, narrow), suffix=f", panels {name}"))]


def cut_caption(ex: Example) -> tuple[str, str]:
    """The cut of d_out into the heads' slices, and the view that names them (caption, narration)."""
    if ex.one_head:
        return (_("With one head there is nothing to cut: view gives (B, T, heads, head_dim) with one head of all "
                  "{head_dim} columns.").format(head_dim=ex.head_dim),
                _("With one head there is nothing to cut. A view still reshapes each tensor to batch, T, heads, "
                  "head_dim, with a single head {head_dim} columns wide.").format(head_dim=ex.head_dim))
    sizes = dict(heads=ex.n_heads, head_dim=ex.head_dim)
    return (_("Cut the width into {heads} slices of head_dim = {head_dim}: view gives (B, T, heads, head_dim).").format(
                **sizes),
            _("Now cut the width into {heads} slices of head_dim = {head_dim}. A view reshapes each tensor to batch, "
              "T, heads, head_dim.").format(**sizes))


def head_formula() -> Mobject:
    """head_h = CausalAttn(X W_Q^(h), X W_K^(h), X W_V^(h)) in the top band, Q/K/V in their colours; broken after
    "CausalAttn(" where two lines read larger (a narrow band)."""
    head = "{{ op(\"head\")_h : head }} = op(\"CausalAttn\")("
    args = "{{ X W_Q^((h)) : q }}, {{ X W_K^((h)) : k }}, {{ X W_V^((h)) : v }})"

    def build(lines: int) -> Mobject:
        eq = math(head + args, font_size=typography.BODY_SIZE)
        if lines == 2:
            eq = VGroup(math(head, font_size=typography.BODY_SIZE),
                        math(args, font_size=typography.BODY_SIZE)).arrange(DOWN, buff=layout.TIGHT)
        for key, role in (("q", "Q"), ("k", "K"), ("v", "V")):
            (eq[1] if lines == 2 else eq).select(key).set_color(palette.ROLE_COLORS[role])
        return eq

    eq, _ = compose(lines_forms(build, 2, region=layout.top_band()), layout.top_band())
    return eq


def head_maps(ex: Example, style: dict, stacked: bool, narrow: bool = False) -> VGroup:
    """Every head's causal map (in an AttentionMap `style`), framed in its tint and named: side by side on one
    baseline, the rows named once on the left; or `stacked`, one under another, each naming its rows (`narrow`:
    the keys named once, over the first map, the maps column over column). maps[h] is VGroup(map, frame, name)."""
    maps = VGroup()
    for h in range(ex.n_heads):
        amap = AttentionMap(ex.src, f"weights.{h}", list(ex.tokens), causal=True, font_size=NUMBER,
                            label_rows=stacked or h == 0, query_label=None, key_label=None, **style)
        if narrow and h:  # the first map's key words name these columns too
            amap.remove(amap.column_labels)
            amap.column_labels = VGroup()
        frame = tint_behind(amap.body, palette.HEAD_TINTS[h], fill=False)
        over = amap.column_labels if len(amap.column_labels) else frame
        name = head_name(h, narrow=narrow).next_to(over, UP, buff=layout.NEAR).match_x(amap.body)
        maps.add(VGroup(amap, frame, name))
    if stacked:
        maps.arrange(DOWN, buff=layout.APART)
        for m in maps[1:]:
            m.shift(RIGHT * (maps[0][0].body.get_center()[0] - m[0].body.get_center()[0]))
        return maps
    maps.arrange(RIGHT, buff=layout.APART, aligned_edge=DOWN)
    align_baselines(VGroup(*(m[2] for m in maps)), y=max(m[2].get_bottom()[1] for m in maps))
    return maps


def head_map_forms(ex: Example) -> list[Form]:
    """The heads' maps side by side in each of the kit's map styles, then one under another, then so with the keys
    named once."""
    return [form for stacked, narrow, name in ((False, False, "side by side, "), (True, False, "stacked, "),
                                               (True, True, "stacked, keys named once, "))
            for form in (floor_only if narrow else list)(map_style_forms(
                lambda style, stacked=stacked, narrow=narrow: head_maps(ex, style, stacked, narrow), name=name))]


def pattern_claim(ex: Example, h: int) -> tuple[str | None, float]:
    """Where head h's last query (which sees every token) looks: the top token, or None when it attends nowhere in
    particular (its weights span less than one uniform share, 1/T) or two top weights tie."""
    row = [ex.src.value(f"weights.{h}", (ex.T - 1, j)) for j in range(ex.T)]
    if max(row) - min(row) < 1 / ex.T:
        return None, max(row)
    return top_token(list(ex.tokens), row), max(row)


def pattern_mark(ex: Example, amap: AttentionMap, h: int, top: str | None):
    """Head h's mark on its last row: the cell of the word it looks at most, or the whole row (spread)."""
    last, tint = ex.T - 1, palette.HEAD_TINTS[h]
    if top is None:
        return Indicate(amap.row(last), color=tint, scale_factor=1.05)
    return Indicate(amap.cell(last, list(ex.tokens).index(top)), color=tint, scale_factor=1.15)


def head_outputs(ex: Example, stacked: bool, cell: float) -> VGroup:
    """Each head's output Z_h = α^(h) V^(h) in its row, the formula beside the rows (or `stacked`, under them).
    Returns VGroup(VGroup(rows, titles), formula)."""
    rows = per_head_rows(ex, ["head_outputs"], [palette.CONTEXT], None, cell, layout.GAP)
    z = math("Z_h = alpha^((h)) V^((h))", font_size=typography.BODY_SIZE)
    return VGroup(rows, z).arrange(DOWN if stacked else RIGHT, buff=layout.APART)


def head_output_forms(ex: Example) -> list[Form]:
    return flow_forms_by_row_height(lambda stacked, cell: head_outputs(ex, stacked, cell))


def concat_picture(ex: Example, cell: float, narrow: bool = False) -> VGroup:
    """The concatenation (B, T, d_out): the heads' outputs side by side again, each slice tinted and named under
    it (`narrow`: tight cells, its rows unnamed). Returns VGroup(concat, tints, names)."""
    width = cell_width(ex, ("concat",), narrow)
    concat = named_grid(ex, "concat", 'op("concat")', palette.CONTEXT, cell, width, words=not narrow, narrow=narrow)
    tints = VGroup(*(tint_behind(head_columns(ex, concat.grid, h), palette.HEAD_TINTS[h]) for h in range(ex.n_heads)))
    return VGroup(concat, tints, slice_names(tints, DOWN, narrow))


def concat_forms(ex: Example) -> list[Form]:
    return (row_height_forms(lambda cell: concat_picture(ex, cell))
            + narrow_forms(lambda cell: concat_picture(ex, cell, narrow=True), suffix=", rows unnamed"))


def math_word(text: str) -> str:
    """A word (a message, in the language of the run) as upright text inside Typst math: a string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def output_name() -> str:
    """The block's output, named in the language of the run ("output", "sortie"), as a math operator. concat stays
    as the post's formula writes it (Concat), a name both languages read."""
    output = _("output")  # the matrix's name; outside the f-string, where pybabel finds the message
    return f"op({math_word(output)})"


def output_product(ex: Example, stacked: bool, cell: float, narrow: bool = False) -> WideProduct:
    """concat · W_O = output column over column (its shape (B, T, d_out) under it), the heads' slices tinted down
    concat and named under it (as the concatenation named them); `narrow`, in one column, concat's rows unnamed."""
    width = cell_width(ex, ("concat", "W_o", "output"), narrow)
    concat = named_grid(ex, "concat", 'op("concat")', palette.CONTEXT, cell, width, words=not narrow, narrow=narrow)
    w_o = named_grid(ex, "W_o", "W_O", palette.TEXT, cell, width)
    out = named_grid(ex, "output", output_name(), palette.CONTEXT, cell, width, axes=("T", "d_out"), narrow=narrow)
    (column if narrow else stack if stacked else falk)(concat, w_o, out)
    tints = VGroup(*(tint_behind(head_columns(ex, concat.grid, h), palette.HEAD_TINTS[h]) for h in range(ex.n_heads)))
    names = slice_names(tints, DOWN, narrow)
    if narrow:  # its name before its shape, under it: beside it, it would widen the column
        out.name.next_to(out.shape_label[0], LEFT, buff=layout.NEAR)
        align_baselines([out.name, out.shape_label[0]], y=baseline_y(out.shape_label[0]))
        VGroup(out.name, out.shape_label).match_x(out.body)
    shape = out.shape_label
    if shape is not None and shape.get_left()[0] < names.get_right()[0] + layout.NEAR:  # side by side they touch
        shape.shift(DOWN * max(0.0, shape.get_top()[1] - names.get_bottom()[1] + layout.TIGHT))
    return WideProduct(concat, w_o, out, tints, names, VGroup())


def output_product_forms(ex: Example) -> list[Form]:
    return (flow_forms_by_row_height(lambda stacked, cell: output_product(ex, stacked, cell),
                                     whole=lambda made: made.whole)
            + narrow_forms(lambda cell: output_product(ex, True, cell, narrow=True), whole=lambda made: made.whole,
                           suffix=", rows unnamed"))


def concat_caption(one_head: bool) -> tuple[str, str]:
    """The heads back side by side (caption, narration)."""
    if one_head:
        return (_("Transpose back and view: with one head, the concat is that head's output, (B, T, d_out)."),
                _("Transpose back and view: with a single head the concatenation is just that head's output, batch, "
                  "T, d_out."))
    return (_("Transpose back and view the heads side by side: concat is (B, T, d_out) again."),
            _("Transpose back and view the heads side by side: the concatenation is batch, T, d_out again."))


def module_label() -> Mobject:
    """"each module: CausalSelfAttention(d_in, head_dim)" in the top band: on one line, or broken over two or three
    (a narrow band)."""
    style = dict(font_size=typography.SMALL_SIZE, color=palette.MUTED, mono=True)
    each = _("each module:")
    lines = ([f"{each} CausalSelfAttention(d_in, head_dim)"],
             [each, "CausalSelfAttention(d_in, head_dim)"],
             [each, "CausalSelfAttention(", "d_in, head_dim)"])

    def build(count: int) -> Mobject:
        return VGroup(*(label(line, **style) for line in lines[count - 1])).arrange(DOWN, buff=layout.TIGHT)

    made, _plan = compose(lines_forms(build, len(lines), region=layout.top_band()), layout.top_band())
    return made


@dataclass(frozen=True)
class ModuleSplit:
    """The wide W_Q over each head's narrow W_Q^(h) (its own module's), an arrow from each slice to its module."""

    wide: NamedMatrix
    tints: VGroup
    narrow: VGroup  # narrow[h] has .grid, .panel, .name
    arrows: VGroup

    @property
    def whole(self) -> VGroup:
        return VGroup(self.wide, self.tints, self.narrow, self.arrows)


def module_split(ex: Example, cell: float, tight: bool = False) -> ModuleSplit:
    """The wide W_Q over the heads' narrow ones (`tight`: tight cells, the narrow ones closer together)."""
    width = cell_width(ex, ("W_q", "W_q_heads"), tight)
    wide = named_grid(ex, "W_q", "W_Q", palette.QUERY, cell, width)
    tints = VGroup(*(tint_behind(head_columns(ex, wide.grid, h), palette.HEAD_TINTS[h]) for h in range(ex.n_heads)))
    narrow = VGroup()
    for h in range(ex.n_heads):
        grid = matrix(ex.src, f"W_q_heads.{h}", color=palette.QUERY, cell_size=cell, cell_width=width,
                      font_size=NUMBER)
        grid.remove(brackets_of(grid))  # the head's tinted panel frames it
        panel = tint_behind(grid.body, palette.HEAD_TINTS[h])
        name = math(f"W_Q^(({h + 1}))", font_size=typography.BODY_SIZE, color=palette.QUERY)
        piece = VGroup(grid, panel, name.next_to(panel, UP, buff=layout.NEAR))
        piece.grid, piece.panel, piece.name = piece.submobjects
        narrow.add(piece)
    narrow.arrange(RIGHT, buff=layout.GAP if tight else layout.FAR, aligned_edge=UP)
    VGroup(VGroup(wide, tints), narrow).arrange(DOWN, buff=L.arrow_room)
    arrows = VGroup(*(Arrow(tints[h].get_bottom(), narrow[h].name.get_top(), buff=layout.TIGHT,
                            color=palette.HEAD_TINTS[h], stroke_width=3, max_tip_length_to_length_ratio=0.15)
                      for h in range(ex.n_heads)))
    return ModuleSplit(wide, tints, narrow, arrows)


def module_forms(ex: Example) -> list[Form]:
    return (row_height_forms(lambda cell: module_split(ex, cell), whole=lambda m: m.whole)
            + narrow_forms(lambda cell: module_split(ex, cell, tight=True), whole=lambda m: m.whole))


@dataclass(frozen=True)
class ModulesOut:
    """Each module's output in its head's row, their concatenation, and W_O that multiplies it."""

    rows: VGroup
    concat: NamedMatrix
    tints: VGroup
    dot: Mobject
    w_o: NamedMatrix

    @property
    def whole(self) -> VGroup:
        return VGroup(self.rows, self.concat, self.tints, self.dot, self.w_o)


def modules_out(ex: Example, stacked: bool, cell: float, narrow: bool = False) -> ModulesOut:
    """The modules' outputs (one row per head), then concat · W_O beside them (or `stacked`, under them); or
    `narrow`, the heads' outputs across, over concat over W_O (named on its left), tight cells, concat's rows
    unnamed."""
    rows, _ = per_head_rows(ex, ["stacked_head_outputs"], [palette.CONTEXT], None, cell, layout.GAP, across=narrow,
                            narrow=narrow)
    width = cell_width(ex, ("stacked_concat", "W_o"), narrow)
    concat = named_grid(ex, "stacked_concat", 'op("concat")', palette.CONTEXT, cell, width, words=not narrow)
    w_o = named_grid(ex, "W_o", "W_O", palette.TEXT, cell, width)
    dot = product_sign(downwards=narrow, font_size=typography.BODY_SIZE)
    if narrow:  # concat × W_O read downwards, the sign between them
        w_o.name.next_to(w_o.grid, LEFT, buff=layout.NEAR)
        product = VGroup(concat, dot, w_o).arrange(DOWN, buff=layout.NEAR)
        VGroup(concat, dot).match_x(w_o.body)  # column over column
    else:
        product = chain(concat, dot, w_o)
        line_up_names([concat, w_o])
    VGroup(rows, product).arrange(DOWN if stacked or narrow else RIGHT, buff=layout.APART)
    tints = VGroup(*(tint_behind(head_columns(ex, concat.grid, h), palette.HEAD_TINTS[h]) for h in range(ex.n_heads)))
    return ModulesOut(rows, concat, tints, dot, w_o)


def modules_out_forms(ex: Example) -> list[Form]:
    return (flow_forms_by_row_height(lambda stacked, cell: modules_out(ex, stacked, cell), whole=lambda m: m.whole)
            + narrow_forms(lambda cell: modules_out(ex, True, cell, narrow=True), whole=lambda m: m.whole,
                           suffix=", rows unnamed"))


def stacked_captions(one_head: bool) -> tuple[tuple[str, str], tuple[str, str]]:
    """The stacked layout's two captions (each caption, narration): the narrow W_Q per module, then what the
    modules' outputs go through."""
    if one_head:
        return ((_("The other layout stacks single-head modules; with one head it is one module with all of W_Q."),
                 _("The other layout stacks separate single-head modules. With one head, that is a single module "
                   "whose W_Q is the whole matrix.")),
                (_("The module runs its own matmuls; its output, the concat of one head, is multiplied by W_O."),
                 _("The module runs its own matrix multiplications; its output is multiplied by W_O.")))
    return ((_("The other layout stacks separate single-head modules; head h gets its own narrow W_Q^(h)."),
             _("The other layout stacks separate single-head modules: each head gets its own narrow W_Q, one slice "
               "of the wide matrix.")),
            (_("Each module runs its own small matmuls; their outputs are concatenated and multiplied by W_O."),
             _("Each module runs its own small matrix multiplications; their outputs are concatenated and multiplied "
               "by W_O.")))


def same_outputs(ex: Example, downwards: bool, cell: float, narrow: bool = False,
                 number_under: bool = False) -> VGroup:
    """The split output = the stacked one, side by side (names on one line) or one under the other (`narrow`: tight
    cells, the rows unnamed), and under them max |stacked − split| (`number_under`: its value on a line of its own,
    for a longer language's words on a narrow frame). Returns VGroup(VGroup(split, equal, stacked),
    VGroup(formula, number))."""
    width = cell_width(ex, ("output", "stacked_output"), narrow)
    room = layout.body().width if downwards else layout.body().width / 2
    names = [wrapped(text, room, font_size=typography.LABEL_SIZE)
             for text in (_("one wide matmul, then split"), _("stacked single-head modules"))]
    split = named_grid(ex, "output", names[0], palette.CONTEXT, cell, width, words=not narrow)
    stacked = named_grid(ex, "stacked_output", names[1], palette.CONTEXT, cell, width)
    equal = math("=", font_size=typography.TITLE_SIZE)
    if downwards:
        pair = VGroup(split, equal, stacked).arrange(DOWN, buff=layout.NEAR)
    else:
        pair = chain(split, equal, stacked)
        line_up_names([split, stacked])
    stacked_word, split_word = _("stacked"), _("split")  # the two outputs (French: « sortie », feminine)
    gap = VGroup(math(f"max |{math_word(stacked_word)} - {math_word(split_word)}| =", font_size=typography.BODY_SIZE),
                 ex.src.number("max_abs_diff", decimals=3, font_size=typography.BODY_SIZE, color=palette.RIGHT))
    gap.arrange(DOWN if number_under else RIGHT, buff=layout.TIGHT if number_under else layout.NEAR)
    gap.next_to(pair, DOWN, buff=layout.GAP if downwards else layout.APART)
    return VGroup(pair, gap)


def same_forms(ex: Example) -> list[Form]:
    return (flow_forms_by_row_height(lambda downwards, cell: same_outputs(ex, downwards, cell))
            + narrow_forms(lambda cell: same_outputs(ex, True, cell, narrow=True), suffix=", rows unnamed")
            + narrow_forms(lambda cell: same_outputs(ex, True, cell, narrow=True, number_under=True),
                           suffix=", rows unnamed, the number under its formula"))


def same_caption(diff: float) -> tuple[str, str]:
    """The two layouts' outputs compared, the largest difference quoted (caption, narration)."""
    shown = format_value(diff, decimals=3)
    exact = diff == 0
    if exact:
        return (_("Same weights, same math: the stacked output matches the split one, max |stacked − split| = {diff} "
                  "(exactly zero).").format(diff=shown),
                _("Same weights, same math: the stacked output matches the split one. The largest difference between "
                  "them is {diff}, exactly zero.").format(diff=shown))
    return (_("Same weights, same math: the stacked output matches the split one, max |stacked − split| = "
              "{diff}.").format(diff=shown),
            _("Same weights, same math: the stacked output matches the split one. The largest difference between them "
              "is {diff}.").format(diff=shown))


class HeadSplitScene(AttentionScene):
    scene_id = "head_split"

    def construct(self):
        src = self.src = Source("multihead")
        self.ex = example_of(src)
        self.show_title()
        q = self.one_wide_matmul()
        qkv = self.queries_keys_values(q)
        self.cut_width_into_heads(qkv)
        self.per_head_patterns()
        concat = self.concatenate_heads()
        self.output_projection(concat)
        self.stacked_layout()
        self.same_numbers()

    # --- beats ------------------------------------------------------------------------------------------------
    @beat
    def one_wide_matmul(self) -> tuple[NamedMatrix, VGroup]:
        """X times one wide W_Q: every head's queries in a single matmul, entry by entry."""
        ex = self.ex
        formula = layout.fit_into(math("X dot W_Q = Q", font_size=typography.BODY_SIZE), layout.top_band())
        made, plan = compose(query_product_forms(ex), pinned=[formula])
        x, w, q = made.left, made.right, made.result
        self.say(_("One matrix multiply: X times a wide W_Q gives the queries of every head at once."),
                 subject=VGroup(x.grid, w.grid))
        self.play(FadeIn(formula), run_time=0.6)
        staging.enter(self, plan, FadeIn(x), FadeIn(w), run_time=1.2, then_on=VGroup(x.grid, w.grid))
        work_product(self, plan, x.grid, w.grid, q.grid)
        self.play(FadeIn(brackets_of(q.grid)), FadeIn(q.name), FadeIn(q.shape_label), run_time=0.6)
        staging.end_on(self, plan, VGroup(q.grid, q.shape_label))
        self.wait(1.0)
        self.say(*head_width_caption(ex), subject=VGroup(w.grid, made.heads))
        staging.end_on(self, plan, VGroup(w.grid, made.heads), FadeIn(made.tints), FadeIn(made.heads))
        self.wait(2.8)
        return q, VGroup(x, w, formula, made.tints, made.heads)

    @beat
    def queries_keys_values(self, shown: tuple[NamedMatrix, VGroup]) -> tuple[WideQKV, Plan]:
        """W_K and W_V are wide too: three (B, T, d_out) tensors, Q/K/V in their colours."""
        old_q, rest = shown
        made, plan = compose(wide_qkv_forms(self.ex))
        q, k, v = made.grids
        self.say(_("W_K and W_V are wide in the same way: keys and values, each (B, T, d_out)."),
                 narration=_("W_K and W_V are just as wide, so the keys and the values also come out with shape "
                             "batch, T, d_out."), subject=VGroup(k, v, made.shape))
        staging.come_to_rest(self, [], FadeOut(rest), FadeOut(old_q), run_time=0.6)
        staging.enter(self, plan, FadeIn(q), FadeIn(k), FadeIn(v), FadeIn(made.shape), run_time=1.2,
                      then_on=VGroup(k, v, made.shape))  # named: the colours say which is which
        self.wait(3.0)
        return made, plan

    @beat
    def cut_width_into_heads(self, wide: tuple[WideQKV, Plan]) -> None:
        """The width d_out is cut into head slices, and the slices become a heads axis."""
        made, plan = wide
        roles = ("Q", "K", "V")
        self.say(*cut_caption(self.ex), subject=VGroup(made.grids[0].grid, made.heads))
        staging.come_to_rest(self, [], Create(made.cuts), *(FadeIn(t) for t in made.tints), run_time=1.2,
                             staying=made.whole, region=plan.region)
        view = shape_line("B, T, heads, head_dim", (self.ex.batch, self.ex.T, self.ex.n_heads, self.ex.head_dim))
        self.play(FadeIn(view), FadeOut(made.grids[0].name), FadeIn(made.heads), run_time=0.8)
        staging.end_on(self, dataclasses.replace(plan, pinned=(view,)), VGroup(made.grids[0].grid, made.heads))
        self.wait(2.0)
        split, plan = compose(per_head_forms(self.ex, [f"{r}_heads" for r in roles],
                                             [palette.ROLE_COLORS[r] for r in roles], list(roles)))
        rows, tops = split
        self.say(_("Transpose puts the heads axis first, (B, heads, T, head_dim): each head now has its own Q, K, V."),
                 narration=_("A transpose moves the heads axis in front of T, giving batch, heads, T, head_dim: now "
                             "each head has its own Q, K and V."), subject=rows)
        transposed = shape_line("B, heads, T, head_dim", (self.ex.batch, *self.src.shape("Q_heads")))
        staging.come_to_rest(self, [view], FadeTransform(view, transposed), run_time=0.6, staying=made.whole,
                             region=plan.region)
        plan = dataclasses.replace(plan, pinned=(transposed,))
        staging.enter(self, plan, *self._slices_out(made, rows), run_time=2.0, with_the_move=True)
        self.play(FadeIn(VGroup(*(row.name for row in rows))), FadeIn(tops), run_time=0.8)
        staging.end_on(self, plan, split.reading)
        self.wait(2.0)

    def _slices_out(self, made: WideQKV, rows: VGroup) -> list:
        """Each head's column slice of Q, K and V slides out of the wide tensor into its own panel; the wide
        tensors' names, words, cuts and shape go."""
        moves = []
        for k, m in enumerate(made.grids):
            for h in range(self.ex.n_heads):
                sub = rows[h].grids[k]
                old = VGroup(*(m.grid.cell(i, c) for c in range(h * self.ex.head_dim, (h + 1) * self.ex.head_dim)
                               for i in range(self.ex.T)))
                new = VGroup(*(sub.cell(i, c) for c in range(self.ex.head_dim) for i in range(self.ex.T)))
                moves += [*motion.slide_slices([old], [new]), FadeOut(old),
                          ReplacementTransform(made.tints[k][h], rows[h].panels[k])]
            moves += [FadeOut(brackets_of(m.grid)), FadeOut(m.grid.row_labels)] + ([FadeOut(m.name)] if k else [])
        return [*moves, FadeOut(made.cuts), FadeOut(made.heads), FadeOut(made.shape)]

    @beat
    def per_head_patterns(self) -> None:
        """Real per-head causal weights, side by side: different slices, different patterns."""
        ex = self.ex
        eq = head_formula()
        maps, plan = compose(head_map_forms(ex), pinned=[eq])
        grids = VGroup(*(m[0] for m in maps))
        self.say(*patterns_intro(ex.one_head), subject=grids)
        self.clear_stage()
        self.play(Write(eq), run_time=1.2)
        staging.enter(self, plan, *(FadeIn(m) for m in maps), run_time=1.6, then_on=grids)
        self.wait(1.0)
        tops = [pattern_claim(ex, h) for h in range(ex.n_heads)]
        last_rows = [query_row(m[0], ex.T - 1) for m in maps]
        self.say(*last_word_patterns(ex.tokens[-1], ex.T, tops, [True] * ex.n_heads), subject=VGroup(*last_rows))
        for h, ((amap, _, name), (top, _)) in enumerate(zip(maps, tops)):
            staging.end_on(self, plan, VGroup(name, last_rows[h]))
            self.play(pattern_mark(ex, amap, h, top), run_time=1.2)
            self.wait(0.8)
        staging.end_on(self, plan, VGroup(*last_rows))  # the heads compared: their last rows together where they fit
        self.wait(2.0)

    @beat
    def concatenate_heads(self) -> tuple[VGroup, Mobject]:
        """Per-head outputs, side by side again: (B, heads, T, head_dim) back to (B, T, d_out)."""
        ex = self.ex
        shape = shape_line("B, heads, T, head_dim", (ex.batch, *self.src.shape("head_outputs")))
        (rows, z), plan = compose(head_output_forms(ex), pinned=[shape])
        self.say(_("Each head's weights times its V give its output: (B, heads, T, head_dim)."),
                 narration=_("Each head multiplies its weights by its own V, and the outputs have shape batch, heads, "
                             "T, head_dim."), subject=VGroup(rows, shape))
        self.clear_stage()
        self.play(FadeIn(shape), run_time=0.6)
        staging.enter(self, plan, FadeIn(z), FadeIn(rows), run_time=1.2, then_on=rows[0])
        self.wait(2.0)
        back = shape_line("B, T, d_out", (ex.batch, *self.src.shape("concat")))
        (concat, tints, names), plan2 = compose(concat_forms(ex), pinned=[back])
        self.say(*concat_caption(ex.one_head), subject=VGroup(concat.grid, back))
        staging.come_to_rest(self, [shape], FadeOut(z), FadeTransform(shape, back), run_time=0.6,
                             staying=VGroup(rows[0]), region=plan.region)
        staging.enter(self, plan2, *self._slices_back(rows[0], concat, tints, names), FadeIn(concat.name),
                      FadeIn(brackets_of(concat.grid)), FadeIn(concat.grid.row_labels), run_time=2.0,
                      with_the_move=True)
        staging.end_on(self, plan2, VGroup(concat.grid, names))
        self.wait(3.0)
        return VGroup(concat, tints, names), back

    def _slices_back(self, rows: VGroup, concat: NamedMatrix, tints: VGroup, names: VGroup) -> list:
        """Head h's output slides back into its slice of the concatenation, its panel and name with it."""
        moves = []
        for h in range(self.ex.n_heads):
            (grid,), (panel,) = rows[h].grids, rows[h].panels
            cells = [(i, c) for i in range(self.ex.T) for c in range(self.ex.head_dim)]
            moves += motion.slide_slices([VGroup(*(grid.cell(i, c) for i, c in cells))],
                                         [VGroup(*(concat.grid.cell(i, h * self.ex.head_dim + c) for i, c in cells))])
            moves += [FadeOut(grid.cell(i, c)) for i, c in cells]
            moves += [ReplacementTransform(panel, tints[h]), ReplacementTransform(rows[h].name, names[h])]
        return moves

    @beat
    def output_projection(self, shown: tuple[VGroup, Mobject]) -> None:
        """× W_O (plus b_o) mixes the heads into the block's output, entry by entry."""
        (old, old_tints, old_names), old_shape = shown
        ex = self.ex
        formula = layout.fit_into(math(f'{output_name()} = op("concat") dot W_O + b_o', font_size=typography.BODY_SIZE),
                                  layout.top_band(), grow=False)
        made, plan = compose(output_product_forms(ex), pinned=[formula])
        concat, w_o, out = made.left, made.right, made.result
        self.say(_("Finally × W_O, plus its bias b_o, mixes the heads: the output is (B, T, d_out)."),
                 narration=_("Finally, multiplying by W_O and adding its bias b_o mixes the heads together. The output "
                             "is batch, T, d_out."), subject=VGroup(w_o.grid, out.grid, out.shape_label))
        staging.come_to_rest(self, [], FadeOut(old_shape), run_time=0.4, staying=[old, old_names])
        self.play(FadeIn(formula), run_time=0.5)
        into_concat = [ReplacementTransform(VGroup(old.grid.body, brackets_of(old.grid), old.name, old.grid.row_labels),
                                            VGroup(concat.grid.body, brackets_of(concat.grid), concat.name,
                                                   concat.grid.row_labels)),
                       ReplacementTransform(old_tints, made.tints), ReplacementTransform(old_names, made.heads)]
        staging.enter(self, plan, *into_concat, FadeIn(w_o), run_time=1.2, with_the_move=True,
                      then_on=VGroup(concat.grid, w_o.grid))
        work_product(self, plan, concat.grid, w_o.grid, out.grid)
        self.play(FadeIn(brackets_of(out.grid)), FadeIn(out.name), FadeIn(out.shape_label), run_time=0.6)
        staging.end_on(self, plan, VGroup(out.grid, out.shape_label))
        self.wait(3.0)

    @beat
    def stacked_layout(self) -> None:
        """Approach 1: separate single-head modules, head h using the h-th column slice of each wide matrix."""
        ex = self.ex
        (first, first_said), (then, then_said) = stacked_captions(ex.one_head)
        module = module_label()
        made, plan = compose(module_forms(ex), pinned=[module])
        self.say(first, narration=first_said, subject=VGroup(*(piece.grid for piece in made.narrow)))
        self.clear_stage()
        self.play(FadeIn(module), run_time=0.5)
        staging.enter(self, plan, FadeIn(made.wide), FadeIn(made.tints), run_time=0.8, then_on=made.wide.grid)
        self.play(Create(made.arrows), run_time=0.6)
        for h, piece in enumerate(made.narrow):  # head h's columns of the wide W_Q slide down into its W_Q^(h)
            cells = [made.wide.grid.cell(i, h * ex.head_dim + c) for i in range(ex.d_in) for c in range(ex.head_dim)]
            targets = [piece.grid.cell(i, c) for i in range(ex.d_in) for c in range(ex.head_dim)]
            staging.end_on(self, plan, VGroup(made.tints[h], piece))
            self.play(*motion.slide_slices([VGroup(*cells)], [VGroup(*targets)]),
                      ReplacementTransform(made.tints[h].copy(), piece.panel), FadeIn(piece.name), run_time=1.2)
        staging.end_on(self, plan, made.narrow)
        self.wait(1.0)
        out, plan2 = compose(modules_out_forms(ex), pinned=[module])
        self.say(then, narration=then_said, subject=VGroup(*(row.grids for row in out.rows), out.concat.grid,
                                                           out.w_o.grid))
        staging.come_to_rest(self, [module], *staging.fade_out_all(self, made.whole), run_time=0.6)
        staging.enter(self, plan2, FadeIn(out.rows), run_time=1.0, then_on=out.rows)
        concat = out.concat
        staging.enter(self, plan2, *self._modules_into_concat(out), FadeIn(concat.name), FadeIn(concat.grid.row_labels),
                      FadeIn(brackets_of(concat.grid)), FadeIn(out.dot), FadeIn(out.w_o), run_time=1.6)
        settle(self, [concat.grid.body], [cell for i in range(self.ex.T) for cell in concat.grid.row(i)])
        staging.end_on(self, plan2, VGroup(concat.grid, out.w_o.grid))
        self.wait(3.0)

    def _modules_into_concat(self, out: ModulesOut) -> list:
        """Each module's output slides into its slice of the concatenation, its panel becoming the slice's tint."""
        moves = []
        for h, row in enumerate(out.rows):
            cells = [(i, c) for i in range(self.ex.T) for c in range(self.ex.head_dim)]
            moves += motion.slide_slices([VGroup(*(row.grids[0].cell(i, c) for i, c in cells))],
                                         [VGroup(*(out.concat.grid.cell(i, h * self.ex.head_dim + c) for i, c in cells))])
            moves.append(ReplacementTransform(row.panels[0].copy(), out.tints[h]))
        return moves

    @beat
    def same_numbers(self) -> None:
        """Stacked vs split: the same output, to every digit."""
        ex = self.ex
        ((split, equal, stacked), gap), plan = compose(same_forms(ex))
        self.say(*same_caption(self.src.value("max_abs_diff")), subject=VGroup(split.grid, stacked.grid, gap[1]))
        self.clear_stage()
        staging.enter(self, plan, FadeIn(split), run_time=0.8, then_on=split.grid)
        staging.enter(self, plan, FadeIn(stacked), FadeIn(equal), run_time=0.8, then_on=stacked.grid)
        staging.end_on(self, plan, gap, FadeIn(gap, shift=UP * layout.NUDGE), run_time=0.8)
        self.play(Indicate(gap[1], color=palette.RIGHT, scale_factor=1.3), run_time=1.0)
        self.wait(4.0)
