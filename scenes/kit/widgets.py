"""Mobjects built from tensors: token rows, vectors, matrices, heat maps, softmax bars, arrows.

Every number inside comes from a `Source` (so it is traced); shades encode values with the palette.
"""

from __future__ import annotations

from typing import Literal, Sequence
import numpy as np

from manim import (
    DOWN, LEFT, RIGHT, UP, Arrow, Brace, Line, Rectangle, RoundedRectangle, VGroup, VMobject,
    SurroundingRectangle,
)

from .contrast import readable_on
from . import palette, typography
from .numbers import Source, TracedNumber
from .text import label, wrapped
from .reuse import Reused

Shading = Literal["none", "diverging", "weights"]


def token_box(text: str, color=palette.ENGLISH, *, font_size: float = typography.LABEL_SIZE) -> VGroup:
    """A word in a rounded box: the unit of every token row."""
    word = label(text, font_size=font_size, color=color)
    box = RoundedRectangle(corner_radius=0.08, width=max(word.width + 0.3, 0.9), height=word.height + 0.3,
                           stroke_color=color, stroke_width=2, fill_color=palette.BACKGROUND, fill_opacity=1)
    word.move_to(box)
    return VGroup(box, word)


class TokenRow(VGroup):
    """Words side by side (or stacked): `row.tokens[i]` is the i-th box."""

    def __init__(self, tokens: Sequence[str], color=palette.ENGLISH, *, direction=RIGHT,
                 buff: float = 0.2, font_size: float = typography.LABEL_SIZE):
        super().__init__(*(token_box(t, color, font_size=font_size) for t in tokens))
        self.arrange(direction, buff=buff)

    @property
    def tokens(self) -> list[VGroup]:
        return list(self.submobjects)


class TensorGrid(VGroup, metaclass=Reused):
    """A 1-D or 2-D tensor as a grid of cells; each cell a shaded square with its traced number.

    shading="none": a plain matrix with brackets; "diverging": blue/red by sign and size;
    "weights": violet by probability (0 → dark). `cell(i, j)`, `row(i)`, `column(j)` return cells.
    """

    def __init__(self, source: Source, path: str, *, decimals: int = 2, shading: Shading = "none",
                 orientation: Literal["row", "column"] = "row", cell_size: float = typography.CELL,
                 cell_width: float | None = None, show_values: bool = True,
                 number_color=palette.TEXT, bracket_color=palette.TEXT, font_size: float = typography.NUMBER_SIZE,
                 scale_to: float | None = None):
        super().__init__()
        tensor = source.get(path)
        shape = tuple(tensor.shape)
        if len(shape) not in (1, 2):
            raise ValueError(f"TensorGrid shows 1-D or 2-D tensors; {source.name}.{path} has shape {shape}")
        self.source, self.path, self.shape_2d, self.shading = source, path, shape, shading
        if len(shape) == 1:
            rows, cols = (1, shape[0]) if orientation == "row" else (shape[0], 1)
        else:
            rows, cols = shape
        self.rows, self.cols = rows, cols
        numbers = {}
        if show_values:
            for r in range(rows):
                for c in range(cols):
                    index = self._index(r, c, len(shape), orientation)
                    numbers[r, c] = source.number(path, index, decimals=decimals, font_size=font_size,
                                                  color=number_color)
        widest = max((n.width for n in numbers.values()), default=0.0)
        width = cell_width or max(cell_size, widest + 0.2)
        finite = [abs(v) for v in tensor.flatten().tolist() if v == v and abs(v) != float("inf")]
        scale = scale_to if scale_to is not None else (max(finite) if finite else 1.0)
        self.cells: list[list[VGroup]] = []
        # One square made, the others copied from it (a copy costs a tenth of building one), each centred on the
        # origin and its cell shifted into place (the cell's box is its square's: its number sits centred in it).
        blank = Rectangle(width=width, height=cell_size, stroke_width=1 if shading != "none" else 0,
                          stroke_color=palette.BACKGROUND)
        for r in range(rows):
            row_cells = []
            for c in range(cols):
                index = self._index(r, c, len(shape), orientation)
                value = source.value(path, index)
                square = blank.copy()
                shade = self._fill(value, shading, scale)
                square.set_fill(shade, opacity=1 if shading != "none" else 0)
                cell = VGroup(square)
                if show_values:
                    if shading != "none":  # the digits take the colour that reads on their own shade
                        numbers[r, c].set_color(readable_on(shade, (number_color, palette.TEXT,
                                                                    palette.BACKGROUND)))
                    cell.add(numbers[r, c].move_to(square))
                cell.shift([c * width, -r * cell_size, 0])
                cell.grid_path, cell.grid_shape = path, (rows, cols)  # what the shade gate asks of a loose cell
                row_cells.append(cell)
            self.cells.append(row_cells)
        self.body = VGroup(*(cell for row in self.cells for cell in row))
        self.add(self.body)
        if shading == "none":
            self.brackets = self._brackets(bracket_color)
            self.add(self.brackets)
        self.move_to([0, 0, 0])

    @staticmethod
    def _index(r: int, c: int, ndim: int, orientation: str) -> tuple[int, ...]:
        if ndim == 2:
            return (r, c)
        return (c,) if orientation == "row" else (r,)

    @staticmethod
    def _fill(value: float, shading: Shading, scale: float):
        if value == float("-inf"):
            return palette.MASKED
        if shading == "weights":
            return palette.weight_color(value)
        if shading == "diverging":
            return palette.value_color(value, scale)
        return palette.BACKGROUND

    def _brackets(self, color) -> VGroup:
        height, pad = self.body.height + 0.1, 0.08
        left, right = self.body.get_left()[0] - pad, self.body.get_right()[0] + pad
        top, bottom = self.body.get_center()[1] + height / 2, self.body.get_center()[1] - height / 2
        serif = 0.12

        def bracket(x: float, sign: int) -> VMobject:
            return VMobject(stroke_color=color, stroke_width=2).set_points_as_corners(
                [[x + sign * serif, top, 0], [x, top, 0], [x, bottom, 0], [x + sign * serif, bottom, 0]])

        return VGroup(bracket(left, 1), bracket(right, -1))

    def cell(self, r: int, c: int = 0) -> VGroup:
        if self.rows == 1 and c == 0 and r > 0:
            r, c = 0, r  # a row vector indexed by position
        return self.cells[r][c]

    def row(self, r: int) -> VGroup:
        return VGroup(*self.cells[r])

    def column(self, c: int) -> VGroup:
        return VGroup(*(row[c] for row in self.cells))

    def numbers(self) -> list[TracedNumber]:
        return [m for m in self.get_family() if isinstance(m, TracedNumber)]

    def add_row_labels(self, texts: Sequence[str], color=palette.TEXT, font_size=typography.SMALL_SIZE) -> VGroup:
        left_edge = (self.brackets if hasattr(self, "brackets") else self.body).get_left()[0] - 0.15
        labels = VGroup()
        for i, text in enumerate(texts):
            word = label(text, font_size=font_size, color=color)
            word.move_to([left_edge - word.width / 2, self.cells[i][0].get_center()[1], 0])
            labels.add(word)
        self.add(labels)
        self.row_labels = labels
        return labels

    def add_column_labels(self, texts: Sequence[str], color=palette.TEXT, font_size=typography.SMALL_SIZE) -> VGroup:
        labels = VGroup(*(label(t, font_size=font_size, color=color).next_to(self.cells[0][j], UP, buff=0.15)
                          for j, t in enumerate(texts)))
        self.add(labels)
        self.column_labels = labels
        return labels


def vector(source: Source, path: str, *, color=palette.TEXT, orientation: Literal["row", "column"] = "row",
           decimals: int = 2, **kwargs) -> TensorGrid:
    """A bracketed vector whose numbers take the role colour (Q yellow, K teal, ...)."""
    return TensorGrid(source, path, decimals=decimals, orientation=orientation, number_color=color,
                      bracket_color=color, **kwargs)


def matrix(source: Source, path: str, *, color=palette.TEXT, decimals: int = 2, **kwargs) -> TensorGrid:
    return TensorGrid(source, path, decimals=decimals, number_color=color, bracket_color=color, **kwargs)


def heatmap(source: Source, path: str, *, weights: bool = True, decimals: int = 2, **kwargs) -> TensorGrid:
    """Shaded grid: probabilities in violet, or signed scores in blue/red."""
    return TensorGrid(source, path, decimals=decimals, shading="weights" if weights else "diverging", **kwargs)


class SoftmaxBars(VGroup):
    """Vertical bars, one per position, height ∝ weight, the traced value above each and a label below."""

    def __init__(self, source: Source, path: str, labels: Sequence[str], *, color=palette.WEIGHT,
                 max_height: float = 2.0, bar_width: float = 0.7, buff: float = 0.45, decimals: int = 2,
                 label_color=palette.ENGLISH):
        super().__init__()
        values = source.get(path)
        n = len(labels)
        if tuple(values.shape) != (n,):
            raise ValueError(f"SoftmaxBars needs one label per value: {n} labels for shape {tuple(values.shape)}")
        self.bars, self.values, self.labels = VGroup(), VGroup(), VGroup()
        baseline = Line(LEFT * 0.1, RIGHT * (n * (bar_width + buff) - buff + 0.1), stroke_color=palette.MUTED)
        for i in range(n):
            height = max(source.value(path, i) * max_height, 0.02)
            bar = Rectangle(width=bar_width, height=height, stroke_width=0, fill_color=color, fill_opacity=0.9)
            bar.move_to([i * (bar_width + buff) + bar_width / 2, height / 2, 0])
            number = source.number(path, i, decimals=decimals, font_size=typography.SMALL_SIZE)
            number.next_to(bar, UP, buff=0.1)
            word = label(labels[i], font_size=typography.SMALL_SIZE, color=label_color)
            word.next_to([bar.get_center()[0], 0, 0], DOWN, buff=0.15)
            self.bars.add(bar)
            self.values.add(number)
            self.labels.add(word)
        self.baseline = baseline
        self.add(baseline, self.bars, self.values, self.labels)


def flow_arrow(start: VMobject, end: VMobject, *, color=palette.MUTED, buff: float = 0.15,
               down: bool = False) -> Arrow:
    """The arrow that carries one stage of the computation to the next: across when `end` lies to the right of
    `start`, else down; `down=True` (a stacked composition) points straight down from `start` to `end`'s top."""
    across = not down and start.get_center()[0] < end.get_center()[0] - 1e-6
    target = end.get_top()
    if down:
        target = np.array([start.get_center()[0], target[1], 0.0])
    return Arrow(start.get_edge_center(RIGHT) if across else start.get_bottom(),
                 end.get_edge_center(LEFT) if across else target,
                 buff=buff, color=color, stroke_width=3, max_tip_length_to_length_ratio=0.15)


def caption_brace(mob: VMobject, text: str, *, direction=DOWN, color=palette.MUTED,
                  width: float | None = None) -> VGroup:
    """A brace under (or beside) a mobject with a short label: names what a group of cells is. `width`: the room
    the label has (between its neighbours' labels): a longer one is wrapped onto lines that wide."""
    brace = Brace(mob, direction=direction, color=color)
    style = dict(font_size=typography.SMALL_SIZE, color=color)
    words = (label(text, **style) if width is None else wrapped(text, width, **style)).next_to(brace, direction,
                                                                                             buff=0.1)
    return VGroup(brace, words)


def frame_box(mob: VMobject, color=palette.ACCENT, buff: float = 0.08) -> SurroundingRectangle:
    """The highlight box used when a term of an equation lights up with the picture."""
    return SurroundingRectangle(mob, color=color, buff=buff, stroke_width=3, corner_radius=0.05)


#: The least room between a row box's side and the numbers in the row (a packed map's numbers fill their cells).
ROW_BOX_SIDE = 0.05


def row_box(row: VMobject, color=palette.ACCENT) -> SurroundingRectangle:
    """A box round a grid's row: on the row's own top and bottom edges (the rows above and below touch them), its
    sides as wide of the row's ends as keeps ROW_BOX_SIDE between them and the row's numbers, so they never run
    through a number that fills its cell (a phone's packed map); on the ends where the cells leave that room."""
    numbers = [mob for mob in row.get_family() if isinstance(mob, TracedNumber)]
    room = min((min(n.get_left()[0] - row.get_left()[0], row.get_right()[0] - n.get_right()[0]) for n in numbers),
               default=ROW_BOX_SIDE)
    return frame_box(row, color=color, buff=(max(0.0, ROW_BOX_SIDE - room), 0.0))


def frame_pieces(*pieces: VMobject, color=palette.ACCENT, buff: float = 0.08) -> VGroup:
    """Highlight pieces that belong together (a word and its score): one box round them where they share a line,
    one box each where the form set them apart (stacked in a tall frame), so no box takes in what lies between."""
    bottoms, tops = [p.get_bottom()[1] for p in pieces], [p.get_top()[1] for p in pieces]
    one_line = max(bottoms) < min(tops)
    if one_line:
        return VGroup(frame_box(VGroup(*pieces), color=color, buff=buff))
    return VGroup(*(frame_box(piece, color=color, buff=buff) for piece in pieces))


def align_rows(grid: TensorGrid, reference: TensorGrid) -> None:
    """Move `grid` vertically so its cell rows line up with `reference`'s rows."""
    grid.shift(UP * (reference.body.get_top()[1] - grid.body.get_top()[1]))


def divider(first: VMobject, second: VMobject, *, across: bool) -> Line:
    """A thin rule between two panels set beside each other (`across`: upright between them) or one above the
    other (lying between them)."""
    from . import layout

    pair = VGroup(first, second)
    if across:
        line = Line(pair.get_top(), pair.get_bottom()).move_to(layout.between(first, second))
    else:
        line = Line(pair.get_left(), pair.get_right()).move_to(layout.below(first, second))
    return line.set_stroke(palette.MUTED, width=1)
