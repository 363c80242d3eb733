"""An attention map with token axes: one shaded cell per (query, key), the tokens down the left and across the top.

Every clip that shows who attends to whom draws this one piece, so the axes read the same everywhere: query tokens
label the rows, key tokens the columns, a causal map greys the future (j > i). Cells are sized from what they hold
(the widest number, and each key token above its column), never typed, so eight short tokens give a compact map and
"internationalization" a wide column of its own; `fit_into(region)` then shrinks the whole map into its place.
"""

from __future__ import annotations

from collections.abc import Sequence

from manim import DOWN, LEFT, ORIGIN, RIGHT, UP, ManimColor, Typst, VGroup, interpolate_color

from .contrast import readable_on
from . import layout, palette, typography
from .numbers import Source
from .text import SANS_PREAMBLE, align_baselines, escape_markup, label, typeset
from .widgets import TensorGrid
from .reuse import Reused

#: Space around a cell's number, each side: enough that two neighbouring numbers never read as one.
CELL_PAD = layout.TIGHT
#: Space between a key token and its neighbour's, when the token (not the number) sets a column's width.
LABEL_PAD = layout.NEAR
#: ... and between two upright key tokens, which stand side by side like lines of text.
UPRIGHT_PAD = layout.TIGHT
#: Columns share one width unless that would widen the map by more than this factor over giving each column its own.
UNIFORM_SLACK = 1.75
#: Typst that stands a word upright (turned by Typst, so its glyphs keep their font size and stay measurable).
UPRIGHT = "#rotate(-90deg, reflow: true)"


class AttentionMap(VGroup, metaclass=Reused):
    """A (query × key) map of `source.path` with token labels on both axes.

    `tokens` label both axes (self-attention); `key_tokens` labels the columns when they differ (a French query over
    English keys). `weights=True` shades probabilities (violet, or `tint`), False shades signed scores blue/red.
    `causal=True` greys every cell with j > i and collects them in `.future`. `number_size` sets the cells' numbers
    larger than the token labels (`font_size`, the default): where long key words set the columns' width, the
    numbers may grow into their cells without widening the map.
    Small maps: `cell_width` makes every column at least that wide (square shaded cells with `cell_size`; a number
    or a flat key token still widens its column), `upright_keys=True` stands the key tokens upright so long words
    no longer widen their columns (with `short_keys_flat=True` a word no wider than it is tall, such as "I", stays
    flat: turned on its side it would read as a dash), `number_pad` (default CELL_PAD) is the room each side of a
    number in its column, where a narrow frame needs the columns closer (the cells' edges still part the numbers),
    and `label_rows=False` leaves the rows unnamed (`.row_labels` empty) for a map
    beside another that already names the same query tokens. `label_pad` (default: the kit's, by orientation) is the
    room a key token leaves in its column: a narrow frame (portrait) packs a row of short tokens closer with it;
    `row_label_gap` the room between a query token and its row (closer in a narrow frame).
    Parts: `.grid` (TensorGrid), `.row_labels`, `.column_labels`, `.query_name`, `.key_name` (empty when the label
    is None), `.future`; cells through `.cell(i, j)`, `.row(i)`, `.column(j)`.
    """

    def __init__(self, source: Source, path: str, tokens: Sequence[str], *, causal: bool = False,
                 weights: bool = True, tint: ManimColor | None = None, show_values: bool = True,
                 font_size: float = typography.SMALL_SIZE, cell_size: float | None = None,
                 query_label: str | None = "query", key_label: str | None = "key", decimals: int = 2,
                 key_tokens: Sequence[str] | None = None, query_color=palette.ENGLISH, key_color=None,
                 cell_width: float | None = None, upright_keys: bool = False, label_rows: bool = True,
                 number_size: float | None = None, label_pad: float | None = None, short_keys_flat: bool = False,
                 number_pad: float | None = None, row_label_gap: float = layout.NEAR):
        super().__init__()
        shape = source.shape(path)
        key_tokens = list(tokens if key_tokens is None else key_tokens)
        tokens = list(tokens)
        if len(shape) != 2 or shape != (len(tokens), len(key_tokens)):
            raise ValueError(f"AttentionMap needs a (queries, keys) = ({len(tokens)}, {len(key_tokens)}) tensor for "
                             f"its tokens; {source.name}.{path} has shape {shape}")
        if causal and len(tokens) != len(key_tokens):
            raise ValueError(f"a causal AttentionMap needs as many keys as queries; got {len(tokens)} queries and "
                             f"{len(key_tokens)} keys")
        if tint is not None and not weights:
            raise ValueError("tint colours a map of weights; a map of scores (weights=False) is shaded blue/red")
        self.source, self.path, self.tokens, self.key_tokens = source, path, tokens, key_tokens
        self.rows, self.cols = shape
        key_color = query_color if key_color is None else key_color

        self.upright_keys = upright_keys
        self.label_pad = label_pad
        self.row_label_gap = row_label_gap
        self.number_pad = CELL_PAD if number_pad is None else number_pad
        key_word = upright_label if upright_keys else label
        if upright_keys and short_keys_flat:
            key_word = flat_if_short
        self.column_labels = VGroup(*(key_word(t, font_size=font_size, color=key_color) for t in key_tokens))
        self.row_labels = VGroup(*(label(t, font_size=font_size, color=query_color) for t in tokens
                                   if label_rows))
        number_size = font_size if number_size is None else number_size
        grid = TensorGrid(source, path, decimals=decimals, shading="weights" if weights else "diverging",
                          show_values=show_values, font_size=number_size,
                          cell_size=cell_size or self._natural_height(max(font_size, number_size)))
        self.grid = grid
        self._natural_columns(grid, cell_size, cell_width)
        if tint is not None:
            for i in range(self.rows):
                for j in range(self.cols):
                    value = source.value(path, (i, j))
                    shade = interpolate_color(palette.ZERO, tint, max(0.0, min(1.0, value)))
                    grid.cell(i, j)[0].set_fill(shade)
                    for number in grid.cell(i, j)[1:]:  # its digits in the colour that reads on the head's shade
                        number.set_color(readable_on(shade, (palette.TEXT, palette.BACKGROUND)))
        self.future = VGroup(*(grid.cell(i, j) for i in range(self.rows) for j in range(self.cols)
                               if causal and j > i))
        for cell in self.future:
            cell[0].set_fill(palette.MASKED, opacity=1)
            for number in cell.submobjects[1:]:
                number.set_color(readable_on(palette.MASKED, (palette.MUTED, palette.TEXT)))

        self.add(grid, self.row_labels, self.column_labels)
        self.query_name = label(query_label, font_size=font_size, color=palette.QUERY) if query_label else VGroup()
        self.key_name = label(key_label, font_size=font_size, color=palette.KEY) if key_label else VGroup()
        self.add(self.key_name, self.query_name)
        self._place_labels()

    # --- sizing ----------------------------------------------------------------------------------------------
    @staticmethod
    def _natural_height(font_size: float) -> float:
        """A row is one line of text plus padding: measured from a sample with ascender and descender."""
        return label("Ag", font_size=font_size).height + 2 * CELL_PAD + layout.HAIRLINE * 2

    def _natural_columns(self, grid: TensorGrid, cell_size: float | None, cell_width: float | None) -> None:
        """Give each column the width of its widest content (number or key token), then lay the cells out."""
        numbers = [max((part.width for cell in col for part in cell.submobjects[1:]), default=0.0)
                   for col in (grid.column(j) for j in range(self.cols))]
        base = max(max(numbers) + 2 * self.number_pad, cell_size or grid.cell(0, 0)[0].height, cell_width or 0.0)
        pad = self.label_pad if self.label_pad is not None else UPRIGHT_PAD if self.upright_keys else LABEL_PAD
        widths = [max(base, word.width + pad) for word in self.column_labels]
        if max(widths) * self.cols <= sum(widths) * UNIFORM_SLACK:
            widths = [max(widths)] * self.cols
        self._lay_out_cells(widths)

    def _lay_out_cells(self, widths: Sequence[float]) -> None:
        grid = self.grid
        height = grid.cell(0, 0)[0].height
        lefts = [sum(widths[:j]) for j in range(self.cols)]
        for i in range(self.rows):
            for j in range(self.cols):
                cell = grid.cell(i, j)
                square = cell[0]
                square.stretch_to_fit_width(widths[j])
                cell.move_to(RIGHT * (lefts[j] + widths[j] / 2) + DOWN * (i * height))
                for part in cell.submobjects[1:]:
                    part.move_to(square)
        grid.move_to(ORIGIN)
        self.column_widths = tuple(float(w) for w in widths)

    def _place_labels(self) -> None:
        """Key tokens centred over their columns on one baseline; query tokens right-aligned left of their rows;
        "key" above the key tokens, "query" on their line above the query tokens (the corner both axes start from)."""
        grid = self.grid
        for j, word in enumerate(self.column_labels):
            word.next_to(grid.cell(0, j), UP, buff=layout.TIGHT)
        if not self.upright_keys:  # upright words stand on the map's top edge, which next_to already gave them
            align_baselines(self.column_labels)
        left = grid.body.get_left()
        for i, word in enumerate(self.row_labels):
            word.next_to(left, LEFT, buff=self.row_label_gap).match_y(grid.cell(i, 0))
        if len(self.key_name):
            self.key_name.next_to(self.column_labels, UP, buff=layout.TIGHT).match_x(grid.body)
        if len(self.query_name):
            if self._query_name_over_the_words():
                return
            if len(self.row_labels):
                self.query_name.align_to(self.row_labels, RIGHT)
            else:
                self.query_name.next_to(left, LEFT, buff=layout.NEAR)
            self.query_name.match_y(self.column_labels)
            if self.upright_keys:
                self.query_name.align_to(self.column_labels, DOWN)
            else:
                align_baselines([self.column_labels[0], self.query_name])

    def _query_name_over_the_words(self) -> bool:
        """Where the query name is wider than the words it names (a longer language), stand it on the key name's
        line from the words' left edge, so it does not widen the map, if that line has room left of the key name.
        True when placed so."""
        if not (len(self.row_labels) and len(self.key_name)) or self.query_name.width <= self.row_labels.width:
            return False
        right_end = self.row_labels.get_left()[0] + self.query_name.width
        if right_end > self.key_name.get_left()[0] - layout.NEAR:
            return False
        self.query_name.align_to(self.row_labels, LEFT)
        align_baselines([self.key_name, self.query_name])
        return True

    def use_column_widths(self, widths: Sequence[float]) -> "AttentionMap":
        """Lay the map out again with these column widths (each at least its own), before any scaling or placing.

        So several maps of one clip (scores, masked scores, weights) line up column for column; see `share_columns`.
        """
        if len(widths) != self.cols:
            raise ValueError(f"use_column_widths needs {self.cols} widths, one per key; got {len(widths)}")
        self._lay_out_cells([max(w, own) for w, own in zip(widths, self.column_widths)])
        self._place_labels()
        return self

    # --- access ----------------------------------------------------------------------------------------------
    def cell(self, i: int, j: int) -> VGroup:
        return self.grid.cells[i][j]

    def row(self, i: int) -> VGroup:
        return self.grid.row(i)

    def column(self, j: int) -> VGroup:
        return self.grid.column(j)

    @property
    def body(self) -> VGroup:
        """The cells alone (no labels): what to align another map or a row-sum column with."""
        return self.grid.body

    @property
    def axes(self) -> VGroup:
        """Everything but the cells: the token labels and the axis names."""
        return VGroup(self.row_labels, self.column_labels, self.query_name, self.key_name)

    def fit_into(self, region: layout.Region, *, center: bool = True) -> "AttentionMap":
        """Shrink (never enlarge) the whole map, labels included, into `region`."""
        layout.fit_into(self, region, center=center)
        return self

    def fits_legibly(self, region: layout.Region) -> bool:
        """Whether this map, shrunk into `region`, keeps its labels at or above the legibility floor."""
        return layout.fits_legibly(self, region, self.column_labels[0].font_size)


def upright_label(text: str, *, font_size: float, color) -> Typst:
    """A word standing upright (read bottom to top) over a narrow column."""
    return typeset(Typst, f"{UPRIGHT}[{escape_markup(text)}]", preamble=SANS_PREAMBLE, font_size=font_size, color=color)


def flat_if_short(text: str, *, font_size: float, color):
    """A key word standing upright, unless it is no wider than it is tall (a one-letter word such as "I", which
    turned on its side reads as a dash): that one stays flat, and no wider than an upright word."""
    flat = label(text, font_size=font_size, color=color)
    return flat if flat.width <= flat.height else upright_label(text, font_size=font_size, color=color)


def shaded_number_size(probes: Sequence["AttentionMap"], font_size: float, word_pad: float) -> float:
    """The size for a dense map's numbers at which its upright key words (plus `word_pad`), not its numbers, set
    the columns' width, at most `font_size`: where even the densest map cannot show its numbers legibly (eight
    words in a narrow frame), the map then fits with its words legible and its cells' shades stand in for the
    numbers (close_up hides them below the floor). `probes`: the dense maps the scene will show."""
    widest = max(number.width for amap in probes for number in amap.grid.numbers())
    column = max(word.width for word in probes[0].column_labels) + word_pad
    return min(font_size, font_size * (column - 2 * CELL_PAD) / widest)


def share_columns(*maps: AttentionMap) -> tuple[AttentionMap, ...]:
    """Give maps over the same keys the same column widths (the widest of each), so they swap cell for cell."""
    widths = [max(m.column_widths[j] for m in maps) for j in range(maps[0].cols)]
    for amap in maps:
        amap.use_column_widths(widths)
    return maps


__all__ = ["AttentionMap", "flat_if_short", "shaded_number_size", "share_columns"]
