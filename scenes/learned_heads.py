"""What trained heads attend to: two causal heads, trained on the CPU, split the work between offsets.

Follows "From one head to many", which says that "different heads can learn different score patterns (for
example local adjacency versus longer-range links)". A one-layer, two-head causal model (the post's multi-head
code) is trained on a task that needs the previous digit and a digit k back; the clip shows each head's pattern
and then measures, rather than asserts, how much weight each head puts on each offset.
"""

from __future__ import annotations

from dataclasses import dataclass

from manim import (
    DOWN, LEFT, RIGHT, UP, Create, CurvedArrow, DashedLine, FadeIn, FadeOut, Indicate, RoundedRectangle,
    VGroup, Write,
)

from scenes.kit import layout, motion
from scenes.kit import (
    AttentionMap, AttentionScene, Source, beat, format_value, frame_box, heatmap, label, math, palette, typography,
)


@dataclass(frozen=True)
class LearnedHeadsLayout:
    """The scene's own sizes; everything else is placed relative to its neighbours with the kit's named gaps."""

    digit_box: float = 0.62  #: side of one digit's box in the task row
    map_cell: float = 0.4  #: side of a square cell of a head's weight map (shade only)
    mass_cell_width: float = 2.1  #: a cell of the offset-mass table
    mass_cell_height: float = 0.7
    arrow_lift: float = 0.1  #: the task arrows start and end this far above the digit boxes
    card_pad_width: float = 0.8  #: a result card's frame is this much wider than its words
    card_pad_height: float = 0.6  #: ... and this much taller


L = LearnedHeadsLayout()
HEAD_TINTS = palette.HEAD_TINTS
#: The previous token is one position back: the offset of the "local adjacency" head.
PREVIOUS_OFFSET = 1
PREVIOUS_TEXT = f"t - {PREVIOUS_OFFSET}"


def _head_name(h: int) -> str:
    """Heads are numbered from 1 on screen (index h in the tensors)."""
    return f"head {h + 1}"


class LearnedHeadsScene(AttentionScene):
    scene_id = "learned_heads"

    def construct(self):
        src = self.src = Source("learned_heads")
        self.n_heads, self.T, _ = src.shape("weights")
        self.k = int(src.value("distant_offset"))
        self.prev_head = src.get("previous_token_head")
        self.far_head = src.get("distant_head")
        self.prev_color = HEAD_TINTS[self.prev_head % len(HEAD_TINTS)]
        self.far_color = HEAD_TINTS[self.far_head % len(HEAD_TINTS)]
        self.show_title()
        self.the_task()
        self.the_model()
        self.head_patterns()
        measured_cells = self.measured_masses()
        self.asserted_now_measured(measured_cells)

    # --- helpers ---------------------------------------------------------------------------------------------
    def _digit(self, t: int, *, color=palette.TEXT, font_size=typography.NUMBER_SIZE):
        """The example's digit at position t, traced."""
        return self.src.number("tokens", t, decimals=0, color=color, font_size=font_size)

    def _digit_box(self, t: int) -> VGroup:
        box = RoundedRectangle(corner_radius=0.08, width=L.digit_box, height=L.digit_box,
                               stroke_color=palette.MUTED, stroke_width=2, fill_color=palette.BACKGROUND,
                               fill_opacity=1)
        return VGroup(box, self._digit(t).move_to(box))

    def _head_map(self, h: int) -> VGroup:
        """Head h's weights on the example as a shaded map, future cells greyed, digits on both axes."""
        digits = [format_value(self.src.value("tokens", t), 0) for t in range(self.T)]
        amap = AttentionMap(self.src, f"weights.{h}", digits, causal=True, show_values=False,
                            cell_size=L.map_cell, cell_width=L.map_cell, query_label=None, key_label=None,
                            query_color=palette.QUERY, key_color=palette.KEY)
        name = label(_head_name(h), bold=True, color=HEAD_TINTS[h % len(HEAD_TINTS)])
        return VGroup(amap, name.next_to(amap.column_labels, UP, buff=layout.NEAR).match_x(amap.body))

    def _diagonal_boxes(self, amap: AttentionMap, offset: int, color) -> VGroup:
        """Outlines on the cells (t, t − offset) for the query positions that have a target (t ≥ k)."""
        return VGroup(*(frame_box(amap.cell(t, t - offset), color=color, buff=0)
                        for t in range(self.k, self.T)))

    def _crossover(self) -> str:
        """What each head puts on the other head's offset, as the table shows it."""
        if self.prev_head == self.far_head:
            return f"One head, {_head_name(self.prev_head)}, carries both offsets."
        cross = max(self.src.value("offset_masses", (self.prev_head, 1)),
                    self.src.value("offset_masses", (self.far_head, 0)))
        return f"Neither puts more than {format_value(cross, 2)} on the other's offset."

    # --- beats -----------------------------------------------------------------------------------------------
    @beat
    def the_task(self):
        """The task in one sentence, on one example sequence; the two answers travel out of the sequence."""
        src, T, k = self.src, self.T, self.k
        t = T - 1
        row = VGroup(*(self._digit_box(i) for i in range(T))).arrange(RIGHT, buff=layout.TIGHT)
        sentence = VGroup(label("At every position t ≥ k, output two digits:", font_size=typography.BODY_SIZE),
                          label("the previous one and the one k back.", font_size=typography.BODY_SIZE)).arrange(
            DOWN, buff=layout.TIGHT)
        layout.fit_into(sentence, layout.top_band(), grow=False)

        here = frame_box(row[t], color=palette.ACCENT, buff=layout.HAIRLINE)
        t_name = math("t", font_size=typography.BODY_SIZE, color=palette.ACCENT).next_to(row[t], DOWN, buff=layout.NEAR)
        prev_box = frame_box(row[t - PREVIOUS_OFFSET], color=self.prev_color, buff=layout.HAIRLINE)
        far_box = frame_box(row[t - k], color=self.far_color, buff=layout.HAIRLINE)
        prev_arrow = CurvedArrow(row[t].get_top() + UP * L.arrow_lift, row[t - PREVIOUS_OFFSET].get_top() + UP * L.arrow_lift,
                                 angle=1.6, color=self.prev_color, tip_length=0.15)
        far_arrow = CurvedArrow(row[t].get_top() + UP * L.arrow_lift, row[t - k].get_top() + UP * L.arrow_lift, angle=1.0,
                                color=self.far_color, tip_length=0.18)
        # k names the span of the long arrow: the answer k places back
        k_line = VGroup(math("k =", font_size=typography.BODY_SIZE, color=self.far_color),
                        src.number("distant_offset", decimals=0, color=self.far_color)).arrange(RIGHT, buff=layout.TIGHT)
        k_line.next_to(far_arrow, UP, buff=layout.TIGHT)
        prev_name = math(PREVIOUS_TEXT, font_size=typography.SMALL_SIZE, color=self.prev_color)
        prev_name.next_to(row[t - PREVIOUS_OFFSET], DOWN, buff=layout.NEAR).match_y(t_name)
        far_name = math("t - k", font_size=typography.SMALL_SIZE, color=self.far_color)
        far_name.next_to(row[t - k], DOWN, buff=layout.NEAR).match_y(t_name)
        prev_out = self._digit(t - PREVIOUS_OFFSET, color=self.prev_color)
        far_out = self._digit(t - k, color=self.far_color)
        outputs_name, and_word = label("outputs at t:", color=palette.MUTED), label("and", color=palette.MUTED)
        outputs = VGroup(outputs_name, prev_out, and_word, far_out).arrange(RIGHT, buff=layout.NEAR)
        outputs.next_to(VGroup(row, t_name), DOWN, buff=layout.FAR)
        layout.fit_into(VGroup(k_line, prev_arrow, far_arrow, row, here, prev_box, far_box, t_name, prev_name,
                               far_name, outputs), layout.body())

        self.say(src.get("description"))
        self.play(FadeIn(sentence), run_time=1.0)
        self.play(FadeIn(row, lag_ratio=0.08), run_time=1.5)
        self.wait(5.5)
        self.say("At position t the answer is the digit just before it and the digit k places back.")
        self.play(Create(here), FadeIn(t_name), run_time=0.6)
        self.play(Create(prev_arrow), Create(prev_box), FadeIn(prev_name), run_time=0.9)
        self.play(Create(far_arrow), Create(far_box), FadeIn(far_name), FadeIn(k_line), run_time=0.9)
        # the two answers are the digits themselves: copies travel from the sequence to the outputs
        self.play(FadeIn(outputs_name), FadeIn(and_word),
                  motion.travel(row[t - PREVIOUS_OFFSET][1], prev_out), motion.travel(row[t - k][1], far_out),
                  run_time=1.2)
        self.wait(3.0)
        self.say("Both outputs are read straight off the attention layer, so it pays to give each one its own head.")
        self.wait(6.0)

    @beat
    def the_model(self):
        """What was trained: one causal layer with the post's multi-head attention, nothing else to cheat with."""
        src = self.src
        heads = src.number("n_heads", decimals=0, color=palette.ACCENT)
        steps = src.number("train_steps", decimals=0, color=palette.ACCENT)
        line1 = VGroup(label("one causal attention layer with"), heads, label("heads")).arrange(RIGHT, buff=layout.NEAR)
        line2 = VGroup(label("the post's multi-head code:", font_size=typography.SMALL_SIZE, color=palette.MUTED),
                       label("split into heads, mask the future, softmax, concat, × W_O",
                             font_size=typography.SMALL_SIZE, color=palette.MUTED)).arrange(DOWN, buff=layout.TIGHT)
        line3 = VGroup(label("trained on the CPU for"), steps, label("steps of random sequences")).arrange(
            RIGHT, buff=layout.NEAR)
        block = VGroup(line1, line2, line3).arrange(DOWN, buff=layout.APART)
        layout.fit_into(block, layout.body())

        self.say(f"The model: one causal attention layer with {format_value(src.value('n_heads'), 0)} heads, "
                 f"trained for {format_value(src.value('train_steps'), 0)} steps. Nobody tells a head what to do.")
        self.clear_stage()
        self.play(FadeIn(line1), run_time=0.8)
        self.play(FadeIn(line2), run_time=0.8)
        self.play(FadeIn(line3), run_time=0.8)
        self.wait(4.0)

    @beat
    def head_patterns(self):
        """Each head's weights on the example sequence, side by side; the two diagonals they chose."""
        src, k = self.src, self.k
        maps = VGroup(*(self._head_map(h) for h in range(self.n_heads))).arrange(RIGHT, buff=layout.FAR)
        query_note = label("row: position t (query)", font_size=typography.SMALL_SIZE, color=palette.QUERY)
        key_note = label("column: digit it looks at (key)", font_size=typography.SMALL_SIZE, color=palette.KEY)
        notes = VGroup(query_note, key_note).arrange(RIGHT, buff=layout.FAR)
        layout.fit_into(VGroup(maps, notes).arrange(DOWN, buff=layout.GAP), layout.frame())

        self.say("Each head's weights on the example. Row t shows where position t looks; grey cells are the "
                 "masked future.")
        self.clear_stage()
        self.play(FadeIn(maps), FadeIn(notes), run_time=1.5)
        self.wait(4.5)

        prev_map, far_map = maps[self.prev_head][0], maps[self.far_head][0]
        self.say(f"{_head_name(self.prev_head).capitalize()} puts its weight just left of the diagonal: the "
                 "previous digit.")
        prev_boxes = self._diagonal_boxes(prev_map, PREVIOUS_OFFSET, self.prev_color)
        self.play(Create(prev_boxes, lag_ratio=0.1), run_time=1.2)
        self.wait(3.0)
        self.say(f"{_head_name(self.far_head).capitalize()} lines up {format_value(src.value('distant_offset'), 0)} "
                 "steps back: the distant digit.")
        far_boxes = self._diagonal_boxes(far_map, k, self.far_color)
        self.play(Create(far_boxes, lag_ratio=0.1), run_time=1.2)
        self.wait(3.0)
        cut = VGroup(*(DashedLine(m[0].cell(k, 0).get_corner(UP + LEFT),
                                  m[0].cell(k, self.T - 1).get_corner(UP + RIGHT),
                                  color=palette.MUTED, stroke_width=2) for m in maps))
        self.say("Rows above the dashed line have no target, so nothing trains them; the measurement below "
                 "skips them.")
        self.play(Create(cut), run_time=0.8)
        self.wait(5.5)

    @beat
    def measured_masses(self):
        """The measurement: mean weight on offset 1 and on offset k, per head, over fresh random sequences."""
        src = self.src
        col_names = VGroup(
            VGroup(label("previous digit", color=self.prev_color),
                   math(f"({PREVIOUS_TEXT})", font_size=typography.SMALL_SIZE, color=self.prev_color)).arrange(
                DOWN, buff=layout.TIGHT),
            VGroup(label("digit k back", color=self.far_color),
                   math("(t - k)", font_size=typography.SMALL_SIZE, color=self.far_color)).arrange(DOWN, buff=layout.TIGHT),
        )
        # a column is at least as wide as its name (with room between the two names)
        cell_width = max(L.mass_cell_width, max(name.width for name in col_names) + layout.APART)
        grid = heatmap(src, "offset_masses", cell_width=cell_width, cell_size=L.mass_cell_height)
        row_names = VGroup(*(label(_head_name(h), bold=True, color=HEAD_TINTS[h % len(HEAD_TINTS)]).next_to(grid.cells[h][0], LEFT, buff=layout.GAP)
                             for h in range(self.n_heads)))
        for j, name in enumerate(col_names):
            name.next_to(grid.cells[0][j], UP, buff=layout.NEAR)
        table = VGroup(grid, row_names, col_names)
        title = label("mean attention weight on each offset", font_size=typography.BODY_SIZE)
        n_eval = src.number("n_eval_sequences", decimals=0, font_size=typography.SMALL_SIZE, color=palette.MUTED)
        where = VGroup(label("over", font_size=typography.SMALL_SIZE, color=palette.MUTED), n_eval,
                       label("fresh random sequences, positions t ≥ k", font_size=typography.SMALL_SIZE,
                             color=palette.MUTED)).arrange(RIGHT, buff=layout.TIGHT)
        accuracy = VGroup(label("fraction of output digits right:", font_size=typography.SMALL_SIZE,
                                color=palette.MUTED),
                          src.number("accuracy", decimals=2, font_size=typography.SMALL_SIZE, color=palette.RIGHT))
        accuracy.arrange(RIGHT, buff=layout.TIGHT)
        layout.fit_into(VGroup(title, where, table, accuracy).arrange(DOWN, buff=layout.GAP), layout.frame())
        where.next_to(title, DOWN, buff=layout.TIGHT)

        n_text = format_value(src.value("n_eval_sequences"), 0)
        self.say(f"Now measure it: each head's mean weight on the previous digit and on the digit k back, over "
                 f"{n_text} fresh random sequences.")
        self.clear_stage()
        self.play(FadeIn(title), FadeIn(where), run_time=0.8)
        self.play(FadeIn(col_names), FadeIn(row_names), run_time=0.8)
        self.play(FadeIn(grid, lag_ratio=0.2), run_time=1.2)
        self.wait(4.0)
        prev = format_value(src.value("offset_masses", (self.prev_head, 0)), 2)
        far = format_value(src.value("offset_masses", (self.far_head, 1)), 2)
        self.say(f"{_head_name(self.prev_head).capitalize()}: {prev} on the previous digit. "
                 f"{_head_name(self.far_head).capitalize()}: {far} on the digit k back. {self._crossover()}")
        self.play(Create(frame_box(grid.cells[self.prev_head][0], color=self.prev_color, buff=layout.HAIRLINE)),
                  Create(frame_box(grid.cells[self.far_head][1], color=self.far_color, buff=layout.HAIRLINE)), run_time=0.8)
        self.wait(5.3)
        self.say(f"And the task is solved: a fraction {format_value(src.value('accuracy'), 2)} of the output "
                 "digits are right.")
        self.play(FadeIn(accuracy), run_time=0.8)
        self.wait(3.8)
        # handed on to the next beat: the two boxed cells, whose numbers travel into its cards
        return grid.cells[self.prev_head][0], grid.cells[self.far_head][1]

    @beat
    def asserted_now_measured(self, measured_cells):
        """The post's sentence, next to the numbers that now back it: the two measured numbers of the table
        (`measured_cells`, from measured_masses) travel into its cards."""
        src = self.src
        quote = VGroup(
            label("“Different heads can learn different score patterns", font_size=typography.BODY_SIZE),
            label("(for example local adjacency versus longer-range links).”", font_size=typography.BODY_SIZE),
        ).arrange(DOWN, buff=layout.TIGHT)
        said = label("the post: asserted", font_size=typography.SMALL_SIZE, color=palette.MUTED)
        top = VGroup(quote, said).arrange(DOWN, buff=layout.NEAR).to_edge(UP, buff=layout.APART)

        def card(h: int, column: int, title: str, color) -> VGroup:
            value = src.number("offset_masses", (h, column), decimals=2, font_size=typography.HEADING_SIZE,
                               color=color)
            words = VGroup(label(title, bold=True, color=color),
                           label(f"{_head_name(h)}, mean weight", font_size=typography.SMALL_SIZE,
                                 color=palette.MUTED)).arrange(DOWN, buff=layout.TIGHT)
            body = VGroup(words, value).arrange(DOWN, buff=layout.GAP)
            frame = RoundedRectangle(corner_radius=0.15, width=body.width + L.card_pad_width, height=body.height + L.card_pad_height,
                                     stroke_color=color, stroke_width=2)
            return VGroup(frame.move_to(body), body)

        cards = VGroup(card(self.prev_head, 0, "local adjacency", self.prev_color),
                       card(self.far_head, 1, "longer-range link", self.far_color)).arrange(RIGHT, buff=layout.FAR)
        measured = label("here: measured on a trained model", font_size=typography.SMALL_SIZE, color=palette.RIGHT)
        bottom = VGroup(cards, measured).arrange(DOWN, buff=layout.GAP).next_to(top, DOWN, buff=layout.APART)
        layout.fit_into(VGroup(top, bottom), layout.frame())

        # the two measured numbers stay on screen while the rest of the table goes; they travel into the cards
        measured_numbers = [cell[-1] for cell in measured_cells]
        for cell, number in zip(measured_cells, measured_numbers):
            cell.remove(number)
        self.add(*measured_numbers)
        self.say("The post says different heads can learn different patterns, local versus longer-range.")
        self.play(*(FadeOut(m) for m in self.mobjects if m is not self.camera.frame and m not in measured_numbers),
                  run_time=0.6)
        self.play(Write(quote), FadeIn(said), run_time=1.5)
        self.wait(3.0)
        if self.prev_head != self.far_head:
            self.say(f"Trained here on a task that needs both, {_head_name(self.prev_head)} and "
                     f"{_head_name(self.far_head)} did exactly that, and now it is measured, not asserted.")
        else:
            self.say(f"Trained here on a task that needs both, one head, {_head_name(self.prev_head)}, took both "
                     "offsets: measured, and not the split the post describes.")
        values = [c[1][1] for c in cards]
        self.play(*(FadeIn(c[0]) for c in cards), *(FadeIn(c[1][0]) for c in cards), FadeIn(measured),
                  *(motion.travel(number, value) for number, value in zip(measured_numbers, values)),
                  *(FadeOut(number) for number in measured_numbers), run_time=1.4)
        self.play(Indicate(cards[0][1][1], color=self.prev_color), Indicate(cards[1][1][1], color=self.far_color),
                  run_time=1.0)
        self.wait(4.5)

