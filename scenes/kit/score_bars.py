"""Scores over their softmax weights: one column per token, each score cell right above its weight bar.

Soft attention's normalise step reads best as a column per word: the score, then the weight it became. The bars'
spacing follows the widest word under them (so "internationalization" never runs into its neighbour) and the score
row shares that spacing, so the two line up for any sentence.
"""

from __future__ import annotations

from collections.abc import Sequence

from manim import DOWN, LEFT, RIGHT, UP, Arrow, Line, VGroup

from . import layout, palette, typography
from .numbers import Source
from .text import label, math
from .attention_map import upright_label
from .widgets import SoftmaxBars, heatmap

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


class ScoreBars(VGroup):
    """Softmax bars for `weights` (one per token), optionally with the `scores` they came from as a shaded row above.

    Parts: `.bars` (SoftmaxBars: `.bars`, `.values`, `.labels`, `.baseline`), `.weight_name` (α_i, left of the
    bars), and when `scores` is given `.scores` (TensorGrid row), `.score_name` (e_i) and `.arrow` (a "softmax"
    arrow from the scores down to the bars, when `arrow=True`; else an empty VGroup). `.scores_group` and
    `.weights_group` collect each half with its name.
    """

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


__all__ = ["ScoreBars", "bar_pitch", "BAR_WIDTH", "stand_labels_upright"]
