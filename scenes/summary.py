"""Putting the pieces together: the post's eight stages as a pipeline, each with a small motif of its own
clip (drawn from the same attention_math examples) and the stage table's "what you gain" line, then the
checklist (post: "Putting the pieces together" and "Checklist").
"""

from __future__ import annotations

from dataclasses import dataclass

from manim import (
    DOWN, LEFT, ORIGIN, RIGHT, UP, Arrow, Create, DashedVMobject, FadeIn, GrowFromEdge, LaggedStart, Rectangle,
    RoundedRectangle, Square, VGroup, VMobject, Write, config, interpolate_color,
)

from scenes.kit import (
    AttentionScene, Source, align_baselines, beat, flow_arrow, heading, label, math, palette, typography,
)


@dataclass(frozen=True)
class Stage:
    """One box of the post's pipeline: its name, the subtitle under it, the table's gain and a motif."""

    name: str
    subtitle: tuple[tuple[str, str], ...]  # ("text", ...) / ("math", ...) pieces on one line
    gain: str | None  # the stage table's "What you gain" (None: the post has no row for it)
    motif: str  # name of the SummaryScene method that draws the motif
    packs: tuple[str, ...] = ()  # for the module stages: the names of the stages they package


STAGES: tuple[Stage, ...] = (
    Stage("Soft attention", (("text", "encoder–decoder"),),
          "Weighted sum over a set of vectors, with learned coefficients", "_motif_soft"),
    Stage("Weight-free self-attn", (("text", "softmax"), ("math", "X X^top dot X")),
          "Same computation inside one sequence; no new params", "_motif_weight_free"),
    Stage("Trainable Q, K, V", (("text", "+"), ("math", "sqrt(d_k)"), ("text", "scale")),
          "Separate projections for scoring and for the sum; stable softmax", "_motif_qkv"),
    Stage("SelfAttention", (("text", "module"),), None, "_motif_self_attention_module",
          packs=("Trainable Q, K, V",)),
    Stage("Causal mask", (("text", "block future keys"),),
          "No access to future tokens; usable for next-token prediction", "_motif_causal"),
    Stage("Dropout", (("text", "on"), ("math", "alpha")),
          "Regularization of the attention coefficients", "_motif_dropout"),
    Stage("CausalSelfAttention", (("text", "masked + dropout"),), None, "_motif_causal_module",
          packs=("Causal mask", "Dropout")),
    Stage("Multi-head", (("text", "stack or split"),),
          "Several attention patterns in parallel", "_motif_multihead"),
)

CHECKLIST: tuple[tuple[str, str | None], ...] = (
    ("Attention is score, normalize, weighted sum.", None),
    ("Self-attention applies that computation among tokens of the same sequence.", None),
    ("Trainable Q/K/V (and scaling) make the projections learnable and keep softmax numerically stable.", None),
    ("Causal masks enforce the autoregressive rule; dropout regularizes the mixing weights.", None),
    ("Multi-head attention is several causal heads concatenated, then multiplied by", "W_O"),
)


class SummaryScene(AttentionScene):
    scene_id = "summary"

    def construct(self):
        self.numbered = list(enumerate(STAGES, start=1))
        self.show_title()
        self.first_row_of_stages()
        self.second_row_of_stages()
        self.checklist()

    # --- beats ------------------------------------------------------------------------------------------------

    @beat
    def first_row_of_stages(self):
        """Stages 1-4: from encoder-decoder soft attention to a self-attention module."""
        half = len(self.numbered) // 2
        self.cards = [self._card(number, stage) for number, stage in self.numbered]
        self._layout_pipeline(self.cards)
        self._show_row(self.numbered[:half], self.cards[:half])

    @beat
    def second_row_of_stages(self):
        """Stages 5-8: hide the future, regularize the weights, run several heads."""
        half = len(self.numbered) // 2
        self._show_row(self.numbered[half:], self.cards[half:])
        self.say(f"{len(STAGES)} stages, one mechanism: score, normalize, weighted sum.")
        self.wait(2.0)

    @beat
    def checklist(self):
        """The post's closing checklist, one line at a time."""
        self.say("Checklist.", narration="The checklist.")
        self.clear_stage()
        head = heading("Checklist")
        lines = VGroup()
        for text, tail in CHECKLIST:
            lines.add(self._check_line(text, tail))
        lines.arrange(DOWN, buff=0.38, aligned_edge=LEFT)
        block = VGroup(head, lines).arrange(DOWN, buff=0.5, aligned_edge=LEFT).move_to(ORIGIN)
        self.play(FadeIn(head, shift=DOWN * 0.2), run_time=0.6)
        for (text, tail), line in zip(CHECKLIST, lines):
            self.say(text + (f" {tail}." if tail else ""))
            self.play(FadeIn(line.mark, scale=1.4), FadeIn(line.body, shift=RIGHT * 0.2), run_time=0.8)
            self.wait(2.0)
        self.wait(1.5)

    # --- the pipeline -----------------------------------------------------------------------------------------

    def _show_row(self, numbered, cards) -> None:
        for (number, stage), card in zip(numbered, cards):
            gain = self._gain(stage)
            self.say(f"{number}. {stage.name}: {gain}.",
                     narration=f"Stage {number}, {stage.name}: {gain[0].lower() + gain[1:]}.")
            self.play(Create(card.frame), FadeIn(card.head), FadeIn(card.subtitle), run_time=0.6)
            if card.link is not None:
                self.play(Create(card.link), run_time=0.3)
            self.play(LaggedStart(*(FadeIn(m) for m in card.motif), lag_ratio=0.05), run_time=0.9)
            self.play(Write(card.gain), run_time=0.8)
            self.wait(1.2)

    def _gain(self, stage: Stage) -> str:
        """The table's gain line; module stages say which stages they package (numbers from the enumeration)."""
        if stage.gain is not None:
            return stage.gain
        numbers = [number for number, s in self.numbered if s.name in stage.packs]
        listed = " and ".join(str(n) for n in numbers)
        return f"Stage{'s' if len(numbers) > 1 else ''} {listed} as one compact module"

    def _card(self, number: int, stage: Stage) -> VGroup:
        width, height = self._layout_card_size()
        frame = RoundedRectangle(corner_radius=0.12, width=width, height=height, stroke_color=palette.MUTED,
                                 stroke_width=2, fill_color=palette.BACKGROUND, fill_opacity=1)
        num = label(str(number), font_size=typography.MIN_FONT_SIZE, color=palette.MUTED, bold=True)
        name = label(stage.name, font_size=typography.MIN_FONT_SIZE, bold=True)
        head = VGroup(num, name).arrange(RIGHT, buff=0.12)
        align_baselines([num, name])
        subtitle = self._subtitle(stage.subtitle)
        motif = getattr(self, stage.motif)()
        gain = self._wrapped(self._gain(stage), max_width=width - 0.3)
        card = VGroup(frame, head, subtitle, motif, gain)
        card.frame, card.head, card.subtitle, card.motif, card.gain, card.link = frame, head, subtitle, motif, gain, None
        self._layout_card_inside(card)
        return card

    def _subtitle(self, pieces) -> VGroup:
        parts = [label(text, font_size=typography.MIN_FONT_SIZE, color=palette.MUTED) if kind == "text"
                 else math(text, font_size=typography.MIN_FONT_SIZE, color=palette.MUTED) for kind, text in pieces]
        group = VGroup(*parts).arrange(RIGHT, buff=0.1)
        align_baselines([p for p, (kind, _) in zip(parts, pieces) if kind == "text"] or parts[:1])
        return group

    def _wrapped(self, text: str, max_width: float) -> VGroup:
        """Greedy word wrap into lines no wider than max_width, at the smallest legible size."""
        words, lines, current = text.split(), [], ""
        for word in words:
            trial = f"{current} {word}".strip()
            if current and label(trial, font_size=typography.MIN_FONT_SIZE).width > max_width:
                lines.append(current)
                current = word
            else:
                current = trial
        lines.append(current)
        group = VGroup(*(label(line, font_size=typography.MIN_FONT_SIZE) for line in lines))
        return group.arrange(DOWN, buff=0.1, aligned_edge=LEFT)

    def _check_line(self, text: str, tail: str | None) -> VGroup:
        mark = label("✓", font_size=typography.BODY_SIZE, color=palette.RIGHT)
        body = self._wrapped_body(text, tail)
        line = VGroup(mark, body).arrange(RIGHT, buff=0.3, aligned_edge=UP)
        first_line = body[0][0] if isinstance(body[0][0], type(mark)) else body[0]
        align_baselines([first_line, mark])
        line.mark, line.body = mark, body
        return line

    def _wrapped_body(self, text: str, tail: str | None) -> VGroup:
        lines = VGroup()
        words, current = text.split(), ""
        limit = config.frame_width - self._layout_checklist_margin()
        for word in words:
            trial = f"{current} {word}".strip()
            if current and label(trial, font_size=typography.BODY_SIZE).width > limit:
                lines.add(label(current, font_size=typography.BODY_SIZE))
                current = word
            else:
                current = trial
        last = label(current, font_size=typography.BODY_SIZE)
        if tail is not None:
            symbol = math(tail, font_size=typography.BODY_SIZE + 4)
            stop = label(".", font_size=typography.BODY_SIZE)
            last = VGroup(last, symbol, stop).arrange(RIGHT, buff=0.12)
            stop.shift(LEFT * 0.06)
            align_baselines([last[0], stop])
        lines.add(last)
        return lines.arrange(DOWN, buff=0.12, aligned_edge=LEFT)

    # --- motifs: each a miniature of its stage's clip, from the same examples -------------------------------

    def _motif_soft(self) -> VGroup:
        """Soft attention's weights over I / love / coffee as tiny bars."""
        src = Source("coffee")
        weights = src.get("weights")
        bars, words = VGroup(), VGroup()
        for i, word in enumerate(src.get("tokens")):
            bar = Rectangle(width=0.42, height=max(float(weights[i]) * 2.0, 0.02), stroke_width=0,
                            fill_color=palette.WEIGHT, fill_opacity=0.9)
            bars.add(bar)
            words.add(label(word, font_size=typography.MIN_FONT_SIZE, color=palette.ENGLISH))
        bars.arrange(RIGHT, buff=0.55, aligned_edge=DOWN)
        for bar, word in zip(bars, words):
            word.next_to(bar, DOWN, buff=0.12)
        align_baselines(words)
        return VGroup(bars, words)

    def _motif_weight_free(self) -> VGroup:
        """The weight-free softmax(X Xᵀ) heat map over the rain sentence."""
        return self._mini_map(Source("rain").get("weights"))

    def _motif_qkv(self) -> VGroup:
        """Q, K and V of the rain sentence as coloured blocks, shade ∝ |value|."""
        src = Source("qkv")
        blocks = VGroup()
        for role in ("Q", "K", "V"):
            values = src.get(role)
            scale = float(values.abs().max())
            color = palette.ROLE_COLORS[role]
            grid = self._cells(values, lambda v, c=color, s=scale: interpolate_color(palette.ZERO, c, abs(v) / s),
                               self._layout_small_cell())
            letter = label(role, font_size=typography.SMALL_SIZE, color=color, bold=True)
            blocks.add(VGroup(letter, grid).arrange(DOWN, buff=0.1))
        return blocks.arrange(RIGHT, buff=0.35)

    def _motif_self_attention_module(self) -> VGroup:
        """The Q/K/V weights heat map inside a module box."""
        return self._module(self._mini_map(Source("qkv").get("weights")))

    def _motif_causal(self) -> VGroup:
        """The causal weights: future cells masked."""
        src = Source("causal")
        return self._mini_map(src.get("weights"), masked=src.get("mask"))

    def _motif_dropout(self) -> VGroup:
        """The causal weights after dropout: dropped cells marked."""
        return self._dropout_map()

    def _motif_causal_module(self) -> VGroup:
        """Mask and dropout together inside a module box."""
        return self._module(self._dropout_map())

    def _motif_multihead(self) -> VGroup:
        """The two heads' causal weight patterns side by side."""
        src = Source("multihead")
        weights, mask = src.get("weights"), src.get("mask")
        heads = VGroup()
        for h in range(src.get("n_heads")):
            name = label(f"head {h + 1}", font_size=typography.MIN_FONT_SIZE, color=palette.MUTED)
            heads.add(VGroup(self._mini_map(weights[h], masked=mask), name).arrange(DOWN, buff=0.12))
        return heads.arrange(RIGHT, buff=0.35)

    def _dropout_map(self) -> VGroup:
        src = Source("dropout")
        dropped = {tuple(p) for p in src.get("dropped_positions")}
        return self._mini_map(src.get("dropped_weights"), masked=src.get("mask"), dropped=dropped)

    def _mini_map(self, values, masked=None, dropped=frozenset()) -> VGroup:
        """A value-free heat map: violet by weight, masked cells dim, dropped cells dark red."""

        def fill(v, r, c):
            if masked is not None and bool(masked[r][c]):
                return palette.MASKED
            if (r, c) in dropped:
                return palette.DROPPED
            return palette.weight_color(v)

        cells = self._cells(values, fill, self._layout_map_cell(), positional=True)
        if masked is None:
            return cells
        return VGroup(cells, self._mask_boundary(cells, masked))

    def _mask_boundary(self, cells: VGroup, masked) -> VMobject:
        """The staircase between visible and masked cells, so the hidden triangle reads at a glance."""
        size = self._layout_map_cell()
        corner = cells.get_corner(UP + LEFT)
        points = []
        for r, row in enumerate(masked.tolist()):
            first = row.index(True) if True in row else len(row)
            points.append(corner + RIGHT * first * size + DOWN * r * size)
            if first < len(row):
                points.append(corner + RIGHT * first * size + DOWN * (r + 1) * size)
        return VMobject(stroke_color=palette.TEXT, stroke_width=2).set_points_as_corners(points)

    @staticmethod
    def _cells(values, fill, size: float, positional: bool = False) -> VGroup:
        rows, cols = values.shape
        grid = VGroup()
        for r in range(rows):
            for c in range(cols):
                v = float(values[r][c])
                square = Square(side_length=size, stroke_width=1, stroke_color=palette.BACKGROUND)
                square.set_fill(fill(v, r, c) if positional else fill(v), opacity=1)
                square.move_to(RIGHT * c * size + DOWN * r * size)
                grid.add(square)
        return grid

    def _module(self, inner: VGroup) -> VGroup:
        """A dashed block around the inner picture, with an arrow in and an arrow out: one reusable module."""
        box = RoundedRectangle(corner_radius=0.1, width=inner.width + 0.35, height=inner.height + 0.3,
                               stroke_color=palette.MUTED, stroke_width=2).move_to(inner)
        dashed = DashedVMobject(box, num_dashes=28)
        into = Arrow(box.get_left() + LEFT * 0.5, box.get_left(), buff=0.04, color=palette.MUTED, stroke_width=3,
                     max_tip_length_to_length_ratio=0.35)
        out = Arrow(box.get_right(), box.get_right() + RIGHT * 0.5, buff=0.04, color=palette.MUTED, stroke_width=3,
                    max_tip_length_to_length_ratio=0.35)
        return VGroup(inner, dashed, into, out)

    # --- layout -----------------------------------------------------------------------------------------------

    @staticmethod
    def _layout_card_size() -> tuple[float, float]:
        return 3.2, 3.45

    @staticmethod
    def _layout_map_cell() -> float:
        return 0.27

    @staticmethod
    def _layout_small_cell() -> float:
        return 0.22

    @staticmethod
    def _layout_checklist_margin() -> float:
        return 1.8

    def _layout_pipeline(self, cards) -> None:
        """Two rows of four cards; small arrows between neighbours in a row."""
        half = len(cards) // 2
        rows = [VGroup(*cards[:half]).arrange(RIGHT, buff=0.26), VGroup(*cards[half:]).arrange(RIGHT, buff=0.26)]
        VGroup(*rows).arrange(DOWN, buff=0.22).move_to(ORIGIN)
        for row in rows:
            for left, right in zip(row[:-1], row[1:]):
                right.link = flow_arrow(left.frame, right.frame, buff=0.03)

    @staticmethod
    def _layout_card_inside(card) -> None:
        top = card.frame.get_top()[1]
        left = card.frame.get_left()[0]
        card.head.move_to([left + 0.14 + card.head.width / 2, top - 0.3, 0])
        card.subtitle.next_to(card.head, DOWN, buff=0.12).align_to(card.head, LEFT)
        motif_centre_y = top - 1.55
        card.motif.move_to([card.frame.get_center()[0], motif_centre_y, 0])
        card.gain.move_to([left + 0.14 + card.gain.width / 2, 0, 0])
        card.gain.align_to(card.frame.get_bottom() + UP * 0.95, UP)
