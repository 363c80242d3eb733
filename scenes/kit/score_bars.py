"""Scores over their softmax weights: one column per token, each score cell right above its weight bar.

Soft attention's normalise step reads best as a column per word: the score, then the weight it became. The bars'
spacing follows the widest word under them (so "internationalization" never runs into its neighbour) and the score
row shares that spacing, so the two line up for any sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from manim import DOWN, LEFT, PI, RIGHT, UP, Arrow, Line, Mobject, Rectangle, VGroup

from . import layout, palette, typography
from .numbers import Source
from .text import label, math, wrapped
from .attention_map import upright_label
from .legible_fit import fits_at_floor, smallest_text
from .widgets import SoftmaxBars, flow_arrow, heatmap
from .compose import Form, to_film

#: Bar width when the words under the bars are short.
BAR_WIDTH = 0.8


def upright_words(tokens: Sequence[str], bar_width: float = BAR_WIDTH) -> bool:
    """True when the words laid flat would make the bars wider than the body: then they stand upright under them
    (many words, or one as long as "internationalization", would otherwise shrink everything below the floor)."""
    widest = max(label(t, font_size=typography.SMALL_SIZE).width for t in tokens)
    return len(tokens) * max(bar_width + layout.GAP, widest + layout.NEAR) > layout.body().width


def bar_pitch(tokens: Sequence[str], bar_width: float = BAR_WIDTH) -> float:
    """Centre-to-centre distance of the bars: a bar and a gap, or the widest word under a bar and a gap (the
    tallest, when the words stand upright)."""
    words = [label(t, font_size=typography.SMALL_SIZE) for t in tokens]
    across = max(w.height for w in words) if upright_words(tokens, bar_width) else max(w.width for w in words)
    return max(bar_width + layout.GAP, across + layout.NEAR)


def stand_labels_upright(bars: SoftmaxBars, tokens: Sequence[str]) -> SoftmaxBars:
    """Replace the bars' flat words by the same words standing upright (read bottom to top) under their bars.

    Typeset upright by Typst itself, so each word's font size is still its own: a word turned after typesetting
    would measure its length as its height."""
    for i, (flat, bar) in enumerate(zip(list(bars.labels), bars.bars)):
        word = upright_label(tokens[i], font_size=typography.SMALL_SIZE, color=flat.get_color())
        word.set_x(bar.get_center()[0]).align_to(bars.baseline.get_bottom() + DOWN * layout.TIGHT, UP)
        bars.labels.submobjects[i] = word
    return bars


def word_row(panel: VGroup, i: int) -> VGroup:
    """Word `i`'s parts in a ScoreBars or ScoreRows: its word, its score cell (when shown), its bar and its weight
    (what a camera frames together)."""
    bars = panel.bars
    score = [panel.scores.cell(i)] if panel.scores_group.submobjects else []
    return VGroup(bars.labels[i], *score, bars.bars[i], bars.values[i])


class ScoreBars(VGroup):
    """Softmax bars for `weights` (one per token), optionally with the `scores` they came from as a shaded row above.

    Parts: `.bars` (SoftmaxBars: `.bars`, `.values`, `.labels`, `.baseline`), `.weight_name` (α_i, left of the
    bars), and when `scores` is given `.scores` (TensorGrid row), `.score_name` (e_i) and `.arrow` (a "softmax"
    arrow from the scores down to the bars, when `arrow=True`; else an empty VGroup). `.scores_group` and
    `.weights_group` collect each half with its name. `.grow_edge` is the edge the bars grow from (DOWN).
    """

    grow_edge = DOWN

    def __init__(self, source: Source, weights: str, tokens: Sequence[str], *, scores: str | None = None,
                 max_height: float = 2.4, bar_width: float = BAR_WIDTH, arrow: bool = False,
                 score_name: str = "e_i", weight_name: str = "alpha_i", bar_color=palette.WEIGHT):
        super().__init__()
        pitch = bar_pitch(tokens, bar_width)
        self.bars = SoftmaxBars(source, weights, tokens, max_height=max_height, bar_width=bar_width,
                                buff=pitch - bar_width, color=bar_color)
        if upright_words(tokens, bar_width):
            stand_labels_upright(self.bars, tokens)
        self.weight_name = math(weight_name, font_size=typography.BODY_SIZE, color=palette.WEIGHT)
        baseline = self.bars.baseline
        # an invisible post as tall as a full bar and its value, so panels of different weights share a height
        value_room = self.bars.values[0].height + layout.TIGHT
        bottom = baseline.get_center()
        self.reserve = Line(bottom, bottom + UP * (max_height + value_room), stroke_opacity=0)
        self.bars.add(self.reserve)
        self.weight_name.next_to(baseline, LEFT, buff=layout.NEAR)
        self.weight_name.shift(UP * (max_height / 2))
        self.weights_group = VGroup(self.bars, self.weight_name)
        self.add(self.weights_group)
        self.arrow = VGroup()
        if scores is None:
            self.scores_group = VGroup()
            return
        self.scores = heatmap(source, scores, weights=False, cell_width=pitch, cell_size=typography.CELL)
        self.scores.shift(RIGHT * (self.bars.bars[0].get_center()[0] - self.scores.cell(0).get_center()[0]))
        top = max(self.bars.values.get_top()[1], baseline.get_center()[1] + max_height)
        lift = (layout.FAR if arrow else layout.GAP) + self.scores.height / 2
        self.scores.shift(UP * (top + lift - self.scores.get_center()[1]))
        self.score_name = math(score_name, font_size=typography.BODY_SIZE)
        self.score_name.next_to(self.scores, LEFT, buff=layout.NEAR)
        self.weight_name.align_to(self.score_name, RIGHT)
        self.scores_group = VGroup(self.scores, self.score_name)
        if arrow:
            x = self.scores.get_center()[0]
            start = self.scores.get_bottom()[1] - layout.TIGHT
            self.arrow = VGroup(Arrow([x, start, 0], [x, top + layout.TIGHT, 0], buff=0, color=palette.MUTED,
                                      stroke_width=3, max_tip_length_to_length_ratio=0.25))
            self.arrow.add(label("softmax", font_size=typography.SMALL_SIZE, color=palette.WEIGHT)
                           .next_to(self.arrow[0], RIGHT, buff=layout.NEAR))
        self.add(self.scores_group, self.arrow)

    row = word_row  # word i's parts


#: How much of a row's height a bar takes in ScoreRows (the rest keeps neighbouring bars apart).
ROW_BAR_SHARE = 0.6


class ScoreRows(VGroup):
    """ScoreBars turned a quarter, for a tall narrow frame where a column per word would set the numbers below the
    floor (eight words across a portrait frame): one row per token, its word, its score cell (when `scores` is
    given) and its weight bar growing rightwards from a common baseline, the traced weight at the bar's end.

    The same parts as ScoreBars (`.bars` with `.bars`, `.values`, `.labels`, `.baseline`; `.weight_name`,
    `.scores`, `.score_name`, `.arrow`, `.scores_group`, `.weights_group`), the names over their columns and the
    "softmax" arrow between them on that line; `.grow_edge` is the edge the bars grow from (LEFT; ScoreBars': DOWN).
    `max_length` is a bar's length at weight 1; `row_gap` the room between one row's text and the next's;
    `words_over` puts each word on a line of its own over its row (a word as long as "internationalization").
    """

    grow_edge = LEFT

    def __init__(self, source: Source, weights: str, tokens: Sequence[str], *, scores: str | None = None,
                 max_length: float = 1.2, bar_thickness: float | None = None, row_gap: float = layout.TIGHT,
                 arrow: bool = False, words_over: bool = False,
                 score_name: str = "e_i", weight_name: str = "alpha_i", bar_color=palette.WEIGHT):
        super().__init__()
        n = len(tokens)
        values = source.get(weights)
        if tuple(values.shape) != (n,):
            raise ValueError(f"ScoreRows needs one token per weight: {n} tokens for shape {tuple(values.shape)}")
        pitch = label("Ag", font_size=typography.SMALL_SIZE).height + row_gap  # a line of text and a little
        bar_thickness = bar_thickness or pitch * ROW_BAR_SHARE
        bars = VGroup()
        bars.bars, bars.values, bars.labels = VGroup(), VGroup(), VGroup()
        lines = 2 if words_over else 1  # text lines per row
        row_y = [-(lines * i + lines - 1) * pitch for i in range(n)]
        for i, y in enumerate(row_y):
            length = max(source.value(weights, i) * max_length, 0.02)
            bar = Rectangle(width=length, height=bar_thickness, stroke_width=0, fill_color=bar_color,
                            fill_opacity=0.9)
            bar.move_to([length / 2, y, 0])
            number = source.number(weights, i, decimals=2, font_size=typography.SMALL_SIZE)
            number.next_to(bar, RIGHT, buff=layout.TIGHT)
            bars.bars.add(bar)
            bars.values.add(number)
        top, bottom = pitch / 2, row_y[-1] - pitch / 2
        bars.baseline = Line([0, top, 0], [0, bottom, 0], stroke_color=palette.MUTED)
        bars.add(bars.baseline, bars.bars, bars.values)
        self.bars = bars
        self.weight_name = math(weight_name, font_size=typography.BODY_SIZE, color=palette.WEIGHT)
        self.weight_name.next_to([0, top, 0], UP, buff=layout.TIGHT).align_to(bars.baseline, LEFT)
        self.weights_group = VGroup(bars, self.weight_name)
        self.add(self.weights_group)
        self.arrow = VGroup()
        left = bars.baseline.get_left()[0]
        if scores is None:
            self.scores_group = VGroup()
        else:
            self.scores = heatmap(source, scores, weights=False, orientation="column", cell_size=pitch,
                                  font_size=typography.SMALL_SIZE)
            self.score_name = math(score_name, font_size=typography.BODY_SIZE)
            gap = layout.APART if arrow else layout.GAP  # room for the arrow on the names' line (its tag over it)
            self.scores.shift([left - gap - self.scores.get_right()[0], top - self.scores.get_top()[1], 0])
            for i, y in enumerate(row_y):
                self.scores.cell(i).set_y(y)
            self.score_name.next_to(self.scores, UP, buff=layout.TIGHT).match_y(self.weight_name)
            self.scores_group = VGroup(self.scores, self.score_name)
            if arrow:
                y = self.weight_name.get_center()[1]
                start, end = self.score_name.get_right()[0] + layout.TIGHT, self.weight_name.get_left()[0] - layout.TIGHT
                self.arrow = VGroup(Arrow([start, y, 0], [end, y, 0], buff=0, color=palette.MUTED, stroke_width=3,
                                          max_tip_length_to_length_ratio=0.25))
                self.arrow.add(label("softmax", font_size=typography.SMALL_SIZE, color=palette.WEIGHT)
                               .next_to(self.arrow[0], UP, buff=layout.TIGHT))
            left = self.scores.get_left()[0]
            self.add(self.scores_group, self.arrow)
        for i, (token, y) in enumerate(zip(tokens, row_y)):
            word = label(token, font_size=typography.SMALL_SIZE, color=palette.ENGLISH)
            if words_over:
                word.move_to([0, y + pitch, 0]).align_to([left, 0, 0], LEFT)
            else:
                word.next_to([left, y, 0], LEFT, buff=layout.NEAR)
            bars.labels.add(word)
        bars.add(bars.labels)

    row = word_row  # word i's parts


def bar_forms(source: Source, weights: str, tokens: Sequence[str], *, max_height: float = 2.4,
              max_length: float = 1.2, **kwargs) -> list[Form]:
    """A softmax's bars in the arrangements they may take, best first (for compose): a column per word; a row per
    word (eight words across a portrait frame), set closer where eleven words are too tall, or each word on a line
    over its row (a long word); the columns with bars half as tall (a word as long as "internationalization"
    standing under each bar). `kwargs` (scores, arrow, names, colour) go to every form."""
    def rows(gap: float, over: bool) -> Callable[[], ScoreRows]:
        return lambda: ScoreRows(source, weights, tokens, max_length=max_length, row_gap=gap, words_over=over,
                                 **kwargs)

    return [Form("columns", lambda: ScoreBars(source, weights, tokens, max_height=max_height, **kwargs)),
            Form("rows", rows(layout.TIGHT, False)),
            Form("rows, closer", rows(layout.HAIRLINE, False)),
            Form("words over their rows", rows(layout.TIGHT, True)),
            Form("columns, lower", lambda: ScoreBars(source, weights, tokens, max_height=max_height / 2, **kwargs))]


def bars_or_rows(source: Source, weights: str, tokens: Sequence[str], region: layout.Region, *,
                 max_height: float = 2.4, max_length: float = 1.2, **kwargs) -> ScoreBars | ScoreRows:
    """The first of `bar_forms` that fits `region` with its text at or above the floor, else the one the camera
    films best there (compose's camera rule: one it only pans down, its text largest): for a panel that is itself one
    of a composition's forms (compose then fits it, or films it). Not fitted."""
    made = []
    for form in bar_forms(source, weights, tokens, max_height=max_height, max_length=max_length, **kwargs):
        made.append(form.build())
        if fits_at_floor(made[-1], region):
            return made[-1]
    return made[to_film(made, [region] * len(made))]


#: A lying bar's length at the largest weight shown (a narrow frame's bars lie along their rows).
LYING_LENGTH = 1.2


def lying_bars(source: Source, path: str, tokens: Sequence[str], cell: float,
               length: float = LYING_LENGTH) -> SoftmaxBars:
    """The weights at `path` as bars lying along rows `cell` apart (a column of scores beside them carries the
    words), each value at its bar's end, the largest weight's bar `length` long. Built standing, then turned: only
    the bars and their line turn, the values stay upright. `.lying` marks the form for the scene's placement."""
    bars = SoftmaxBars(source, path, tokens, max_height=length / float(source.get(path).max()),
                       bar_width=cell - layout.NEAR, buff=layout.NEAR)
    bars.remove(bars.labels)
    bars.labels = VGroup()
    VGroup(bars.baseline, bars.bars).rotate(-PI / 2, about_point=bars.baseline.get_start())
    for bar, value in zip(bars.bars, bars.values):
        value.next_to(bar, RIGHT, buff=layout.TIGHT)
    bars.lying = True
    return bars



def lie_beside(column: VGroup, bars: SoftmaxBars, tag: Mobject, gap: float = layout.FAR) -> VGroup:
    """`lying_bars` to the right of the scores' `column` (a named column grid first, its rows level with the
    bars), `tag` over the bars: the softmax of a frame too narrow for a row of scores. Returns (column, tag, bars).
    `gap` between column and bars: FAR leaves room for an arrow between them; a closer one (eleven words in
    portrait) leaves the arrow to the names' line (`names_arrow`)."""
    VGroup(column, bars).arrange(RIGHT, buff=gap)
    bars.shift(UP * (column[0].cell(0).get_center()[1] - bars.bars[0].get_center()[1]))  # row on row
    tag.next_to(bars, UP, buff=layout.NEAR).align_to(bars, LEFT)
    return VGroup(column, tag, bars)


def names_arrow(column: VGroup, tag: Mobject) -> Arrow:
    """The "softmax" arrow of a `lie_beside` built close: on the names' line, from the column's name (`column[1]`)
    to the `tag` over the bars, where the rows leave no room for it between the two."""
    name = column[1]
    y = name.get_center()[1]
    start, end = name.get_right()[0] + layout.TIGHT, tag.get_left()[0] - layout.TIGHT
    return Arrow([start, y, 0], [end, y, 0], buff=0, color=palette.MUTED, stroke_width=3,
                 max_tip_length_to_length_ratio=0.25)


# --- scores → softmax → bars: the four arrangements of a softmax step ---------------------------------------------

#: How the arrow of a softmax step runs from the scores to the bars: across (side by side), downwards (the scores
#: over the bars), or on the names' line (lying bars built close to the scores).
ACROSS, DOWNWARDS, ON_THE_NAMES = "across", "downwards", "on the names"


class SoftmaxPicture(VGroup):
    """A softmax step's arrangement: `target` (the scores' grid and its name, `target[0]`, `target[1]`), `tag` (the
    "softmax" words) and `bars` (SoftmaxBars, standing or `lying`); `arrow_runs` says how the arrow runs (ACROSS,
    DOWNWARDS, ON_THE_NAMES). `arrow()` makes the arrow (placing the tag where the arrangement left it free)."""

    def __init__(self, target: VGroup, tag: Mobject, bars: SoftmaxBars, arrow_runs: str):
        super().__init__(target, tag, bars)
        self.target, self.tag, self.bars, self.arrow_runs = target, tag, bars, arrow_runs

    @property
    def lying(self) -> bool:
        """The bars lie along their words' rows (lying_bars)."""
        return getattr(self.bars, "lying", False)

    def arrow(self) -> Mobject:
        """The arrow from the scores to the bars (call once the picture is fitted)."""
        target, tag, bars = self.target, self.tag, self.bars
        if self.arrow_runs == ON_THE_NAMES:  # built close: from the scores' name to the tag over the bars
            return names_arrow(target, tag)
        if self.lying:  # the tag already over the bars
            return flow_arrow(target[0], bars).match_y(target[0].body)
        if self.arrow_runs == DOWNWARDS:  # the tag stays where the fitted picture has it, the arrow on its left
            return flow_arrow(target[0], bars, down=True).next_to(tag, LEFT, buff=layout.NEAR)
        arrow = flow_arrow(target, bars).match_y(target[0].body)
        tag.next_to(arrow, UP, buff=layout.TIGHT)
        return arrow


def standing_bars(source: Source, path: str, tokens: Sequence[str], room: float, *, bar_width: float = BAR_WIDTH,
                  bar_height: float = 2.6) -> SoftmaxBars:
    """The weights at `path` as bars standing on one line, as tall as `room` (with their words) allows, at most
    `bar_height` for a weight of 1, each as wide as the widest word under it; words that laid flat would make the
    bars wider than the body stand upright under them (as in ScoreBars)."""
    upright = upright_words(tokens, bar_width)
    widest = max(label(t, font_size=typography.SMALL_SIZE).width for t in tokens)
    width = bar_width if upright else max(bar_width, widest - layout.GAP + layout.TIGHT)

    def build(height: float) -> SoftmaxBars:
        bars = SoftmaxBars(source, path, tokens, max_height=height, bar_width=width,
                           buff=layout.NEAR if upright else layout.GAP)
        return stand_labels_upright(bars, tokens) if upright else bars

    probe = build(bar_height)
    words = probe.height - max(b.height for b in probe.bars)
    tallest = float(source.get(path).max())  # softmax: tallest > 0
    return build(min(bar_height, (room - words) / tallest))


def softmax_forms(source: Source, weights: str, tokens: Sequence[str], scores: Callable[[float, str], Mobject],
                  name: Callable[[], Mobject], *, tag: str = "softmax", bar_width: float = BAR_WIDTH,
                  bar_height: float = 2.6) -> list:
    """The arrangements of a softmax step (scores → "softmax" → bars), for the layout engine (scenes.kit.compose),
    each at every row height: the scores as a column beside standing bars (a wide body's first), as a row over
    them (a tall body's first), as a column beside their words with the bars lying along the rows, and (made for
    the camera: eleven words in portrait) the lying bars close to the scores, the arrow on the names' line.
    `scores(cell, orientation)` builds the scores' grid ("column" or "row", rows `cell` tall), `name()` its name.
    Each form builds a SoftmaxPicture."""
    from .compose import Form, to_film
    from .forms import row_height_forms

    body = layout.body()
    many = upright_words(tokens, bar_width)  # a long sentence: the row packs closer

    def tag_text() -> Mobject:
        return label(tag, font_size=typography.SMALL_SIZE, color=palette.WEIGHT)

    def beside(cell: float) -> SoftmaxPicture:
        target = VGroup(scores(cell, "column"), name())
        target[1].next_to(target[0], UP, buff=layout.NEAR)
        bars = standing_bars(source, weights, tokens, body.height, bar_width=bar_width, bar_height=bar_height)
        picture = SoftmaxPicture(target, tag_text(), bars, ACROSS)
        picture.arrange(RIGHT, buff=layout.GAP if many else layout.FAR)
        return picture

    def over(cell: float) -> SoftmaxPicture:
        target = VGroup(scores(cell, "row"), name())
        target[1].next_to(target[0], LEFT, buff=layout.NEAR)
        bars = standing_bars(source, weights, tokens, body.height - target.height - 2 * layout.FAR,
                             bar_width=bar_width, bar_height=bar_height)
        picture = SoftmaxPicture(target, tag_text(), bars, DOWNWARDS)
        picture.arrange(DOWN, buff=layout.FAR)
        return picture

    def lying(cell: float, length: float = LYING_LENGTH, gap: float = layout.FAR) -> SoftmaxPicture:
        target = VGroup(scores(cell, "column"), name())
        target[0].add_row_labels(list(tokens), color=palette.ENGLISH, font_size=typography.SMALL_SIZE)
        target[1].next_to(target[0].body, UP, buff=layout.NEAR)
        bars = lying_bars(source, weights, tokens, cell, length)
        words = tag_text()
        widest = max(label(w, font_size=typography.SMALL_SIZE).width for w in tag.split())
        if words.width > bars.width >= widest:  # a long tag over short bars: in lines as wide as the bars
            words = wrapped(tag, bars.width, font_size=typography.SMALL_SIZE, color=palette.WEIGHT)
        lie_beside(target, bars, words, gap)
        close = gap != layout.FAR
        if close:  # no room for the arrow between the rows: on the names' line
            words.match_y(target[1])
        return SoftmaxPicture(target, words, bars, ON_THE_NAMES if close else ACROSS)

    def close(cell: float) -> SoftmaxPicture:
        first = lying(cell, gap=layout.GAP)
        room = body.width * smallest_text(first) / typography.MIN_FONT_SIZE
        return lying(cell, LYING_LENGTH + min(0, room - first.width), layout.GAP)

    standing = [(beside, "beside"), (over, "over")]
    forms = [form for build, named in (standing[::-1] if layout.is_tall() else standing)
             for form in row_height_forms(build, name=f"scores {named} the bars, ")]
    forms += row_height_forms(lying, name="bars lying along the words, ")
    forms += row_height_forms(close, name="lying bars close to the scores, ", close_up=True)
    return forms


__all__ = ["ScoreBars", "ScoreRows", "bar_forms", "bars_or_rows", "lie_beside", "names_arrow", "lying_bars", "LYING_LENGTH", "bar_pitch", "BAR_WIDTH", "stand_labels_upright", "SoftmaxPicture", "softmax_forms", "standing_bars",
           "ACROSS", "DOWNWARDS", "ON_THE_NAMES"]
