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

from scenes.kit import layout, legible_fit, motion, staging
from scenes.kit import (
    AttentionMap, AttentionScene, Source, beat, format_value, frame_box, heatmap, label, math, palette, typography,
)
from scenes.kit.compose import Form, compose, part_name
from scenes.kit.forms import flow_forms, lines_forms
from scenes.kit.text import wrapped
from scenes.kit.translation import N_, _


@dataclass(frozen=True)
class LearnedHeadsLayout:
    """The scene's own sizes; everything else is placed relative to its neighbours with the kit's named gaps."""

    digit_box: float = 0.62  #: side of one digit's box in the task row
    mass_cell_width: float = 2.1  #: a cell of the offset-mass table
    mass_cell_height: float = 0.7
    narrow_mass_cell_width: float = 1.2  #: a cell of that table in a tall frame (its names on two lines)
    arrow_lift: float = 0.1  #: the task arrows start and end this far above the digit boxes
    card_pad_width: float = 0.8  #: a result card's frame is this much wider than its words
    card_pad_height: float = 0.6  #: ... and this much taller
    balance_step: float = 0.95  #: a wrapped text tries widths this much narrower each time (as often as
    balance_tries: int = 6  #: this), while its lines stay as few: lines of even length, no lone last word


L = LearnedHeadsLayout()
HEAD_TINTS = palette.HEAD_TINTS
#: The previous token is one position back: the offset of the "local adjacency" head.
PREVIOUS_OFFSET = 1
PREVIOUS_TEXT = f"t - {PREVIOUS_OFFSET}"


def _head_name(h: int) -> str:
    """Heads are numbered from 1 on screen (index h in the tensors)."""
    return _("head {n}").format(n=h + 1)


def verdict(prev_head: int, far_head: int) -> str:
    """What the training showed of the post's sentence: two heads took one offset each, or one head took both."""
    if prev_head != far_head:
        return _("Trained here on a task that needs both, {first} and {second} did exactly that, and now it is "
                 "measured, not asserted.").format(first=_head_name(prev_head), second=_head_name(far_head))
    return _("Trained here on a task that needs both, one head, {head}, took both offsets: measured, and not the "
             "split the post describes.").format(head=_head_name(prev_head))


#: A relation between two words ("t ≥ k") is never broken: no line starts or ends with it.
GLUED = frozenset({"≥", "≤", "=", "<", ">"})


def _glued(units: list) -> list:
    """`units` (words, and traced numbers as mobjects) with every relation word joined to the words either side of
    it, so "positions t ≥ k" never leaves "k" alone on a line."""
    joined: list = []
    for unit in units:
        if joined and isinstance(unit, str) and isinstance(joined[-1], str) and (
                unit in GLUED or joined[-1].split(" ")[-1] in GLUED):
            joined[-1] += " " + unit
        else:
            joined.append(unit)
    return joined


def _flowed(parts, width: float, *, gap: float = layout.NEAR, line_gap: float = layout.TIGHT, **style) -> VGroup:
    """`parts` (words as str, traced numbers as mobjects) side by side when that is at most `width` wide, as a
    landscape frame has them; else their words and numbers packed greedily into centred lines no wider than
    `width`, a line's neighbouring words set as one label (a portrait frame's "one causal attention layer with 2
    heads")."""
    pieces = [label(p, **style) if isinstance(p, str) else p for p in parts]
    row = VGroup(*pieces).arrange(RIGHT, buff=gap)
    if row.width <= width:
        return row
    units = _glued([w for p in parts for w in (p.split(" ") if isinstance(p, str) else [p])])  # no-break spaces hold

    def line_of(chunk) -> VGroup:
        merged = []  # runs of words joined into one label, numbers as they are
        for unit in chunk:
            if isinstance(unit, str) and merged and isinstance(merged[-1], str):
                merged[-1] += " " + unit
            else:
                merged.append(unit)
        return VGroup(*(label(m, **style) if isinstance(m, str) else m for m in merged)).arrange(RIGHT, buff=gap)

    def packed(room: float) -> list[list]:
        chunks, current = [], []
        for unit in units:
            if current and line_of([*current, unit]).width > room:
                chunks.append(current)
                current = []
            current.append(unit)
        return [*chunks, current]

    # as many lines as the width needs, but balanced: the narrowest width that needs no more of them, so the last
    # line is not a lone word ("back.")
    chunks = packed(width)
    for _ in range(L.balance_tries):
        narrower = packed(width * L.balance_step)
        if len(narrower) > len(chunks):
            break
        width, chunks = width * L.balance_step, narrower
    return VGroup(*(line_of(chunk) for chunk in chunks)).arrange(DOWN, buff=line_gap)


#: The post's sentence, as it breaks it.
QUOTE_LINES = (N_("“Different heads can learn different score patterns"),
               N_("(for example local adjacency versus longer-range links).”"))
#: The task, as the clip says it (two lines where a frame has the room).
TASK_SENTENCE = (N_("At every position t ≥ k, output two digits:"), N_("the previous one and the one k back."))


def task_description(src: Source) -> str:
    """The task in one sentence: the record's `description`, written from its numbers as a message (in English,
    the record's own words)."""
    k = format_value(src.value("distant_offset"), 0)
    return _("Random digits {first}–{last}, length {length}. At every position t ≥ {k} output two digits: the "
             "previous one, x[t-{previous}], and the one {k} back, x[t-{k}].").format(
        first=0, last=format_value(src.value("vocab_size") - 1, 0), length=format_value(src.value("seq_len"), 0),
        k=k, previous=PREVIOUS_OFFSET)


def diagonal_caption(h: int, offset: int, previous: int, distant: str) -> str:
    """What head h does with the diagonal `offset` steps left of the main one: the previous digit, or k back."""
    if offset == previous:
        return _("{head} puts its weight just left of the diagonal: the previous digit.").format(
            head=_head_name(h).capitalize())
    return _("{head} lines up {distant} steps back: the distant digit.").format(head=_head_name(h).capitalize(),
                                                                               distant=distant)


def diagonal_cells(amap: AttentionMap, offset: int, first: int) -> VGroup:
    """The cells (t, t − offset) of the rows that have a target (t ≥ `first`): the weights a head's claim is about."""
    return VGroup(*(amap.cell(t, t - offset) for t in range(first, amap.rows)))


def head_map(src: Source, h: int, digits: list[str], style: dict) -> VGroup:
    """Head h's weights on the example, each cell with its number, the future greyed, the digits on both axes, the
    head's name over it: (map, name)."""
    amap = AttentionMap(src, f"weights.{h}", digits, causal=True, font_size=typography.SMALL_SIZE,
                        query_label=None, key_label=None, query_color=palette.QUERY, key_color=palette.KEY, **style)
    name = part_name(label(_head_name(h), bold=True, color=HEAD_TINTS[h % len(HEAD_TINTS)]))
    return VGroup(amap, name.next_to(amap.column_labels, UP, buff=layout.NEAR).match_x(amap.body))


def axis_notes() -> VGroup:
    """What a map's row and column are, as a legend in the top band (it stays while the camera moves over the
    maps): on one line, or one note a line."""
    def build(lines: int) -> VGroup:
        notes = VGroup(label(_("row: position t (query)"), font_size=typography.SMALL_SIZE, color=palette.QUERY),
                       label(_("column: digit it looks at (key)"), font_size=typography.SMALL_SIZE, color=palette.KEY))
        return notes.arrange(RIGHT if lines == 1 else DOWN, buff=layout.FAR if lines == 1 else layout.TIGHT)

    notes, _plan = compose(lines_forms(build, 2, region=layout.top_band()), layout.top_band())
    return notes


def head_maps(src: Source, n_heads: int, digits: list[str], style: dict, stacked: bool) -> VGroup:
    """The heads' maps side by side, or one under another."""
    maps = VGroup(*(head_map(src, h, digits, style) for h in range(n_heads)))
    return maps.arrange(DOWN if stacked else RIGHT, buff=layout.APART if stacked else layout.FAR)


def head_maps_forms(src: Source, n_heads: int, digits: list[str]) -> list[Form]:
    """Side by side and stacked (the body's flow first) with square cells; for the camera, the same in the body's
    flow, so that the overview from afar fills the frame (the maps side by side in landscape) and each close-up
    frames one head's diagonal."""
    style = legible_fit.map_styles()[0]
    build = lambda stacked: head_maps(src, n_heads, digits, style, stacked)  # noqa: E731
    return [*flow_forms(build), *flow_forms(build, suffix=", for the camera", close_up=True)]


@dataclass(frozen=True)
class TaskPicture:
    """The task's sentence and its picture: k, the arrows, the sequence, the boxes, the names, the outputs."""

    sentence: VGroup
    picture: VGroup

    @property
    def whole(self) -> VGroup:
        return VGroup(self.sentence, self.picture)


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
        self.digits = [format_value(src.value("tokens", t), 0) for t in range(self.T)]
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

    def _card(self, h: int, column: int, title: str, color) -> VGroup:
        """A result card: head h's measured mean weight on an offset (traced), under its words."""
        value = self.src.number("offset_masses", (h, column), decimals=2, font_size=typography.HEADING_SIZE,
                                color=color)
        words = VGroup(label(title, bold=True, color=color),
                       label(_("{head}, mean weight").format(head=_head_name(h)), font_size=typography.SMALL_SIZE,
                             color=palette.MUTED)).arrange(DOWN, buff=layout.TIGHT)
        body = VGroup(words, value).arrange(DOWN, buff=layout.GAP)
        frame = RoundedRectangle(corner_radius=0.15, width=body.width + L.card_pad_width,
                                 height=body.height + L.card_pad_height, stroke_color=color, stroke_width=2)
        return VGroup(frame.move_to(body), body)

    def _diagonal_boxes(self, amap: AttentionMap, offset: int) -> VGroup:
        """Outlines on the cells (t, t − offset) for the query positions that have a target (t ≥ k), in the kit's
        accent (the map's name says whose they are: a head's tint alone would not)."""
        return VGroup(*(frame_box(amap.cell(t, t - offset), buff=0)
                        for t in range(self.k, self.T)))

    def _row_lines(self, row: VGroup, in_lines: bool) -> list[VGroup]:
        """The sequence's boxes on one line, or (`in_lines`) on lines of k + 1 counted back from the end: the last
        position, its previous digit and the digit k back then share the last line with their arrows."""
        if not in_lines:
            row.arrange(RIGHT, buff=layout.TIGHT)
            return [row]
        span = self.k + 1
        bounds = [0, *reversed(range(self.T - span, 0, -span)), self.T]
        lines = [VGroup(*row[a:b]).arrange(RIGHT, buff=layout.TIGHT) for a, b in zip(bounds[:-1], bounds[1:])]
        VGroup(*lines).arrange(DOWN, buff=layout.GAP, aligned_edge=RIGHT)
        return lines

    def _crossover(self) -> str:
        """What each head puts on the other head's offset, as the table shows it."""
        if self.prev_head == self.far_head:
            return _("One head, {head}, carries both offsets.").format(head=_head_name(self.prev_head))
        cross = max(self.src.value("offset_masses", (self.prev_head, 1)),
                    self.src.value("offset_masses", (self.far_head, 0)))
        return _("Neither puts more than {value} on the other's offset.").format(value=format_value(cross, 2))

    # --- beats -----------------------------------------------------------------------------------------------
    def _task(self, in_lines: bool) -> "TaskPicture":
        """The task on the example: the sequence (on one line, or `in_lines` of k + 1 under a wrapped sentence),
        position t, its previous digit and the digit k back with their arrows, and the outputs; not yet fitted."""
        T, k, t = self.T, self.k, self.T - 1
        row = VGroup(*(self._digit_box(i) for i in range(T)))
        lines = self._row_lines(row, in_lines)
        if in_lines:
            sentence = _flowed([" ".join(map(_, TASK_SENTENCE))], layout.frame().width, gap=layout.TIGHT,
                               font_size=typography.BODY_SIZE)
        else:
            sentence = VGroup(*(label(_(line), font_size=typography.BODY_SIZE) for line in TASK_SENTENCE)).arrange(
                DOWN, buff=layout.TIGHT)
            layout.fit_into(sentence, layout.top_band(), grow=False)
        lift = UP * L.arrow_lift
        here = frame_box(row[t], color=palette.ACCENT, buff=layout.HAIRLINE)
        t_name = math("t", font_size=typography.BODY_SIZE, color=palette.ACCENT).next_to(row[t], DOWN, buff=layout.NEAR)
        prev, far = row[t - PREVIOUS_OFFSET], row[t - k]
        prev_arrow = CurvedArrow(row[t].get_top() + lift, prev.get_top() + lift, angle=1.6, color=self.prev_color,
                                 tip_length=0.15)
        far_arrow = CurvedArrow(row[t].get_top() + lift, far.get_top() + lift, angle=1.0, color=self.far_color,
                                tip_length=0.18)
        # k names the span of the long arrow: the answer k places back
        k_line = VGroup(math("k =", font_size=typography.BODY_SIZE, color=self.far_color),
                        self.src.number("distant_offset", decimals=0, color=self.far_color)).arrange(
            RIGHT, buff=layout.TIGHT).next_to(far_arrow, UP, buff=layout.TIGHT)
        prev_name = math(PREVIOUS_TEXT, font_size=typography.SMALL_SIZE, color=self.prev_color)
        prev_name.next_to(prev, DOWN, buff=layout.NEAR).match_y(t_name)
        far_name = math("t - k", font_size=typography.SMALL_SIZE, color=self.far_color)
        far_name.next_to(far, DOWN, buff=layout.NEAR).match_y(t_name)
        outputs = VGroup(label(_("outputs at t:"), color=palette.MUTED),
                         self._digit(t - PREVIOUS_OFFSET, color=self.prev_color),
                         label(_("and"), color=palette.MUTED), self._digit(t - k, color=self.far_color)).arrange(
            RIGHT, buff=layout.NEAR).next_to(VGroup(lines[-1], t_name), DOWN, buff=layout.FAR)
        if len(lines) > 1:  # the earlier lines over the arrows and k of the last one
            VGroup(*lines[:-1]).next_to(VGroup(k_line, prev_arrow, far_arrow), UP, buff=layout.GAP).align_to(
                lines[-1], RIGHT)
        picture = VGroup(k_line, prev_arrow, far_arrow, row, here, frame_box(prev, color=self.prev_color,
                                                                             buff=layout.HAIRLINE),
                         frame_box(far, color=self.far_color, buff=layout.HAIRLINE), t_name, prev_name, far_name,
                         outputs)
        if in_lines:
            VGroup(sentence, picture).arrange(DOWN, buff=layout.FAR)
        return TaskPicture(sentence, picture)

    @beat
    def the_task(self):
        """The task in one sentence, on one example sequence; the two answers travel out of the sequence."""
        t, k = self.T - 1, self.k
        task, _plan = compose([Form("the sequence on one line", lambda: self._task(False), lambda made: made.picture),
                           Form("the sequence in lines ending at t", lambda: self._task(True), lambda made: made.whole,
                                layout.frame())])
        k_line, prev_arrow, far_arrow, row, here, prev_box, far_box, t_name, prev_name, far_name, outputs = task.picture
        self.say(task_description(self.src), subject=task.sentence)
        self.play(FadeIn(task.sentence), run_time=1.0)
        self.play(FadeIn(row, lag_ratio=0.08), run_time=1.5)
        self.wait(5.5)
        self.say(_("At position t the answer is the digit just before it and the digit k places back."),
                 subject=[row[t], row[t - PREVIOUS_OFFSET], row[t - k]])
        self.play(Create(here), FadeIn(t_name), run_time=0.6)
        self.play(Create(prev_arrow), Create(prev_box), FadeIn(prev_name), run_time=0.9)
        self.play(Create(far_arrow), Create(far_box), FadeIn(far_name), FadeIn(k_line), run_time=0.9)
        # the two answers are the digits themselves: copies travel from the sequence to the outputs
        outputs_name, prev_out, and_word, far_out = outputs
        self.play(FadeIn(outputs_name), FadeIn(and_word), motion.travel(row[t - PREVIOUS_OFFSET][1], prev_out),
                  motion.travel(row[t - k][1], far_out), run_time=1.2)
        self.wait(3.0)
        self.say(_("Both outputs are read straight off the attention layer, so it pays to give each one its own head."),
                 subject=outputs)
        self.wait(6.0)

    @beat
    def the_model(self):
        """What was trained: one causal layer with the post's multi-head attention, nothing else to cheat with."""
        src = self.src
        heads = src.number("n_heads", decimals=0, color=palette.ACCENT)
        steps = src.number("train_steps", decimals=0, color=palette.ACCENT)
        width = layout.frame().width  # a line too wide for the frame (portrait, square) breaks, at its own size
        line1 = _flowed([_("one causal attention layer with"), heads, _("heads")], width)
        line2 = VGroup(*(wrapped(text, width, font_size=typography.SMALL_SIZE, color=palette.MUTED)
                         for text in (_("the post's multi-head code:"),
                                      _("split into heads, mask the future, softmax, concat, × W_O")))).arrange(
            DOWN, buff=layout.TIGHT)
        line3 = _flowed([_("trained on the CPU for"), steps, _("steps of random sequences")], width)
        block = VGroup(line1, line2, line3).arrange(DOWN, buff=layout.APART)
        layout.fit_into(block, layout.body())

        self.say(_("The model: one causal attention layer with {heads} heads, trained for {steps} steps. Nobody tells "
                   "a head what to do.").format(heads=format_value(src.value("n_heads"), 0),
                                                steps=format_value(src.value("train_steps"), 0)), subject=block)
        self.clear_stage()
        self.play(FadeIn(line1), run_time=0.8)
        self.play(FadeIn(line2), run_time=0.8)
        self.play(FadeIn(line3), run_time=0.8)
        self.wait(4.0)

    @beat
    def head_patterns(self):
        """Each head's weights on the example, every weight a number; the two diagonals they chose."""
        src, k = self.src, self.k
        notes = axis_notes()
        shown, plan = compose(head_maps_forms(src, self.n_heads, self.digits), pinned=[notes])
        maps = [head[0] for head in shown]
        self.say(_("Each head's weights on the example. Row t shows where position t looks; grey cells are the masked "
                   "future."), subject=notes)
        self.clear_stage()
        self.play(FadeIn(notes), run_time=0.5)
        staging.enter(self, plan, FadeIn(shown), run_time=1.5)
        self.wait(4.5)
        for h, offset in ((self.prev_head, PREVIOUS_OFFSET), (self.far_head, k)):
            self.say(diagonal_caption(h, offset, PREVIOUS_OFFSET, format_value(src.value("distant_offset"), 0)),
                     subject=diagonal_cells(maps[h], offset, k))
            boxes = self._diagonal_boxes(maps[h], offset)
            staging.end_across(self, plan, [maps[h].row_labels[k:], *diagonal_cells(maps[h], offset, k)])
            staging.draw_on(self, plan, boxes, run_time=1.2)
            self.wait(3.0)
        cut = [DashedLine(m.cell(k, 0).get_corner(UP + LEFT), m.cell(k, self.T - 1).get_corner(UP + RIGHT),
                          color=palette.MUTED, stroke_width=2) for m in maps]
        self.say(_("Rows above the dashed line have no target, so nothing trains them; the measurement below skips "
                   "them."), subject=cut)
        for m, line in zip(maps, cut):  # each map from its top-left corner down to the line
            staging.end_across(self, plan, [VGroup(m.column_labels[0], m.row_labels[:k + 1], m.cell(k, 0))])
            staging.draw_on(self, plan, line, run_time=0.8)
        self.wait(2.5)
        staging.pull_back(self, plan)
        self.wait(1.5)

    def _masses(self, narrow: bool) -> VGroup:
        """(title, where, (grid, row names, column names), accuracy): the offset-mass table under its title, its
        columns wide enough for their names on one line, or (`narrow`) narrow with each name over two lines."""
        src, width = self.src, layout.frame().width
        name_width = width / (self.n_heads + 1) if narrow else width
        col_names = VGroup(*(VGroup(wrapped(words, name_width, color=color),
                                    math(f"({offset})", font_size=typography.SMALL_SIZE, color=color)).arrange(
            DOWN, buff=layout.TIGHT) for words, offset, color in ((_("previous digit"), PREVIOUS_TEXT, self.prev_color),
                                                                  (_("digit k back"), "t - k", self.far_color))))
        # a column is at least as wide as its name (with room between the two names)
        cell_width = max(L.narrow_mass_cell_width if narrow else L.mass_cell_width,
                         max(name.width for name in col_names) + (layout.TIGHT if narrow else layout.APART))
        grid = heatmap(src, "offset_masses", cell_width=cell_width, cell_size=L.mass_cell_height)
        row_names = VGroup(*(label(_head_name(h), bold=True, color=HEAD_TINTS[h % len(HEAD_TINTS)]).next_to(
            grid.cells[h][0], LEFT, buff=layout.NEAR if narrow else layout.GAP) for h in range(self.n_heads)))
        for j, name in enumerate(col_names):
            name.next_to(grid.cells[0][j], UP, buff=layout.NEAR)
        title = wrapped(_("mean attention weight on each offset"), width, font_size=typography.BODY_SIZE)
        muted = dict(font_size=typography.SMALL_SIZE, color=palette.MUTED)
        n_eval = src.number("n_eval_sequences", decimals=0, **muted)
        where = _flowed([_("over"), n_eval, _("fresh random sequences, positions t ≥ k")], width, **muted)
        accuracy = _flowed([_("fraction of output digits right:"),
                            src.number("accuracy", decimals=2, font_size=typography.SMALL_SIZE, color=palette.RIGHT)],
                           width, **muted)
        whole = VGroup(title, where, VGroup(grid, row_names, col_names), accuracy).arrange(DOWN, buff=layout.GAP)
        return whole

    @beat
    def measured_masses(self):
        """The measurement: mean weight on offset 1 and on offset k, per head, over fresh random sequences."""
        src = self.src
        masses, _plan = compose([Form(name, lambda narrow=narrow: self._masses(narrow), region=layout.frame())
                             for name, narrow in (("names on one line", False), ("names on two lines", True))])
        title, where, (grid, row_names, col_names), accuracy = masses
        where.next_to(title, DOWN, buff=layout.TIGHT)

        n_text = format_value(src.value("n_eval_sequences"), 0)
        self.say(_("Now measure it: each head's mean weight on the previous digit and on the digit k back, over {n} "
                   "fresh random sequences.").format(n=n_text), subject=grid)
        self.clear_stage()
        self.play(FadeIn(title), FadeIn(where), run_time=0.8)
        self.play(FadeIn(col_names), FadeIn(row_names), run_time=0.8)
        self.play(FadeIn(grid, lag_ratio=0.2), run_time=1.2)
        self.wait(4.0)
        prev = format_value(src.value("offset_masses", (self.prev_head, 0)), 2)
        far = format_value(src.value("offset_masses", (self.far_head, 1)), 2)
        self.say(_("{first}: {previous} on the previous digit. {second}: {distant} on the digit k back. {crossover}").format(
                     first=_head_name(self.prev_head).capitalize(), previous=prev,
                     second=_head_name(self.far_head).capitalize(), distant=far, crossover=self._crossover()),
                 subject=grid)
        self.play(Create(frame_box(grid.cells[self.prev_head][0], color=self.prev_color, buff=layout.HAIRLINE)),
                  Create(frame_box(grid.cells[self.far_head][1], color=self.far_color, buff=layout.HAIRLINE)), run_time=0.8)
        self.wait(5.3)
        self.say(_("And the task is solved: a fraction {value} of the output digits are right.").format(
            value=format_value(src.value("accuracy"), 2)), subject=accuracy)
        self.play(FadeIn(accuracy), run_time=0.8)
        self.wait(3.8)
        # handed on to the next beat: the two boxed cells, whose numbers travel into its cards
        return grid.cells[self.prev_head][0], grid.cells[self.far_head][1]

    def _quoted(self, stacked: bool, in_its_lines: bool) -> tuple[VGroup, VGroup, VGroup, VGroup]:
        """(quote, said, cards, measured): the post's sentence (`in_its_lines`: as the post breaks it, else wrapped
        to the frame) over the two result cards, side by side or (`stacked`) one under the other."""
        width = layout.frame().width
        words = (VGroup(*(label(_(line), font_size=typography.BODY_SIZE) for line in QUOTE_LINES)).arrange(
            DOWN, buff=layout.TIGHT) if in_its_lines else
            wrapped(" ".join(map(_, QUOTE_LINES)), width, font_size=typography.BODY_SIZE))
        said = label(_("the post: asserted"), font_size=typography.SMALL_SIZE, color=palette.MUTED)
        top = VGroup(words, said).arrange(DOWN, buff=layout.NEAR).to_edge(UP, buff=layout.APART)
        cards = VGroup(self._card(self.prev_head, 0, _("local adjacency"), self.prev_color),
                       self._card(self.far_head, 1, _("longer-range link"), self.far_color))
        cards.arrange(DOWN if stacked else RIGHT, buff=layout.GAP if stacked else layout.FAR)
        measured = wrapped(_("here: measured on a trained model"), width, font_size=typography.SMALL_SIZE,
                           color=palette.RIGHT)
        VGroup(cards, measured).arrange(DOWN, buff=layout.GAP).next_to(
            top, DOWN, buff=layout.GAP if stacked else layout.APART)
        return words, said, cards, measured

    def _quote_forms(self) -> list[Form]:
        """The quote in the post's two lines, then wrapped to the frame; each with the cards in the frame's own
        flow first."""
        return [form for in_its_lines in (True, False)
                for form in flow_forms(lambda stacked, lines=in_its_lines: self._quoted(stacked, lines),
                                       layout.frame(), whole=lambda parts: VGroup(*parts),
                                       suffix=", the quote in its lines" if in_its_lines else ", the quote wrapped")]

    @beat
    def asserted_now_measured(self, measured_cells):
        """The post's sentence, next to the numbers that now back it: the two measured numbers of the table
        (`measured_cells`, from measured_masses) travel into its cards."""
        (quote, said, cards, measured), _plan = compose(self._quote_forms(), layout.frame())

        # the two measured numbers stay on screen while the rest of the table goes; they travel into the cards
        measured_numbers = [cell[-1] for cell in measured_cells]
        for cell, number in zip(measured_cells, measured_numbers):
            cell.remove(number)
        self.add(*measured_numbers)
        self.say(_("The post says different heads can learn different patterns, local versus longer-range."),
                 subject=quote)
        self.play(*(FadeOut(m) for m in self.mobjects if m is not self.camera.frame and m not in measured_numbers),
                  run_time=0.6)
        self.play(Write(quote), FadeIn(said), run_time=1.5)
        self.wait(3.0)
        values = [c[1][1] for c in cards]
        self.say(verdict(self.prev_head, self.far_head), subject=values)
        self.play(*(FadeIn(c[0]) for c in cards), *(FadeIn(c[1][0]) for c in cards), FadeIn(measured),
                  *(motion.travel(number, value) for number, value in zip(measured_numbers, values)),
                  *(FadeOut(number) for number in measured_numbers), run_time=1.4)
        self.play(Indicate(cards[0][1][1], color=self.prev_color), Indicate(cards[1][1][1], color=self.far_color),
                  run_time=1.0)
        self.wait(4.5)

