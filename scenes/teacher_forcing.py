"""Training vs generating: one wrong first word stays in the decoder's input history when generating, but teacher
forcing scores it and feeds the reference forward instead (post: "Training vs generating").

Every token, step and verdict comes from the `teacher_forcing` record (the post's two step tables, built from the
example's English, French reference and wrong first word); the layout follows from the words' sizes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from manim import (
    DOWN, LEFT, ORIGIN, RIGHT, UP, Arrow, Create, FadeIn, FadeOut, GrowArrow, Indicate, LaggedStart, Line, ReplacementTransform,
    SurroundingRectangle, TransformFromCopy, Typst, VectorizedPoint, VGroup, Write,
)

from scenes.kit import AttentionScene, Source, TokenRow, beat, flow_arrow, frame_box, label, layout, palette, typography
from scenes.kit import shot_content, staging
from scenes.kit.compose import Form, Plan, compose, single
from scenes.kit.layout import Region
from scenes.kit.languages import source_language, target_language
from scenes.kit.text import wrapped
from scenes.kit.translation import N_, _, capitalized, quoted


def generating_note() -> str:
    """The generating mode's header note: only the source sentence is known."""
    return capitalized(_("{source} only: no reference {target}").format(source=source_language(),
                                                                      target=target_language()))


def generating_caption(step) -> tuple[str, str]:
    """The first generating step's caption and narration: what the model predicts, and whether it is right."""
    values = dict(source=source_language(), step=step.step, given=step.given[0], predicted=quoted(step.predicted))
    if step.wrong:
        return (_("Generating ({source} only). Step {step}: given s + {given}, the model predicts {predicted}: "
                  "wrong.").format(**values),
                _("First, generating, where we only have the {source}. At step {step} the decoder is given s and the "
                  "{given} token, and it predicts {predicted}: a wrong first word.").format(**values))
    return (_("Generating ({source} only). Step {step}: given s + {given}, the model predicts {predicted}: "
              "right.").format(**values),
            _("First, generating, where we only have the {source}. At step {step} the decoder is given s and the "
              "{given} token, and it predicts {predicted}: the right first word.").format(**values))


def training_note() -> str:
    """The training mode's header note: the source sentence and the reference translation are both given."""
    return capitalized(_("{source} + the reference {target}").format(source=source_language(),
                                                                   target=target_language()))


def divergence_moral() -> str:
    """The divergence beat's moral: the model and its input are the same, only the history fed to it differs."""
    return _("Same model, same {source}. Only the {target} history changed.").format(source=source_language(),
                                                                                    target=target_language())


@dataclass(frozen=True)
class TeacherForcingLayout:
    """The sizes this scene chooses itself; every position follows from them and the words."""

    arrow_length: float = 0.9  #: the "→ prediction" arrow of a step row
    panel_zoom: float = 1.2  #: the last beat's two step inputs, a notch larger than the table's (before fitting)
    panel_gap: float = 2.0  #: between the last beat's two panels, so they read as two modes
    short_arrow_length: float = 0.5  #: the step row's arrow in a narrow frame, each step's tag over its row


L = TeacherForcingLayout()


@dataclass(frozen=True)
class Encoder:
    """The encoder strip (English words → s) that stays at the top, and its summary box s."""

    strip: VGroup
    summary: VGroup


@dataclass(frozen=True)
class Strip:
    """The encoder strip: tag, the words (every one, or first "…" last, or none), the arrows, the arrow into s,
    and s; `kind` says which."""

    group: VGroup
    tag: VGroup
    words: VGroup
    arrows: VGroup
    into_s: VGroup
    summary: VGroup
    kind: str

    def pairs(self, reading: "Strip") -> tuple[tuple, tuple]:
        """(pieces of the reading strip, the pieces of this band strip each becomes)."""
        if self.kind == "whole":
            return ((reading.tag, reading.words, reading.arrows, reading.into_s, reading.summary),
                    (self.tag, self.words, self.arrows, self.into_s, self.summary))
        if self.kind == "shortened":
            return ((VGroup(reading.tag, reading.words[0], reading.arrows[0]),
                     VGroup(*reading.words[1:], *reading.arrows[1:]), VGroup(reading.into_s, reading.summary)),
                    (VGroup(self.tag, self.words[0], self.words[1]), VGroup(self.words[2], self.arrows),
                     VGroup(self.into_s, self.summary)))
        return ((reading.tag, VGroup(reading.words, reading.arrows, reading.into_s), reading.summary),
                (self.tag, self.into_s, self.summary))


@dataclass(frozen=True)
class StepRow:
    """One step of a table: "step n | s + history → prediction ✓/✗"."""

    tag: VGroup
    given: VGroup  # s + history boxes; .s_box, .given_tokens, .words
    arrow: Arrow
    pred: VGroup
    verdict: VGroup | None
    group: VGroup  # everything above, for fading the row as one

    @property
    def given_tokens(self) -> list[VGroup]:
        return self.given.given_tokens


@dataclass(frozen=True)
class StepTable:
    """A mode's header ("Generating", "Training") and its step rows, laid out together; in training, the reference
    words over them and the loss note ("loss", and the scored word under the prediction where the rows are
    wrapped). `plan` says how the stage shows it (a table longer than the stage scrolls as its rows come)."""

    header: VGroup
    rows: list[StepRow]
    group: VGroup  # everything above: what is fitted
    reference: TokenRow | None = None  # the reference words, one box each
    ref_tag: VGroup | None = None
    loss_note: tuple = (None, None)
    plan: Plan | None = None

    @property
    def head(self) -> VGroup:
        """What stays over the rows while they scroll: the header, and in training the reference."""
        return VGroup(self.header, *(part for part in (self.ref_tag, self.reference) if part is not None))


@dataclass(frozen=True)
class Comparison:
    """The last beat's picture: the two modes' panels (heading, s + history, "same s", "history") and the moral."""

    group: VGroup
    panels: VGroup
    heads: list
    givens: list
    notes: list  # ("same s", the history's box, "history") per panel
    moral: VGroup


def _whole(built) -> VGroup:
    """What a form of this scene fits and measures: the group its build laid out."""
    return built.group


class TeacherForcingScene(AttentionScene):
    scene_id = "teacher_forcing"

    def construct(self):
        self.src = Source("teacher_forcing")
        words = (*self.src.get("english"), *self.src.get("reference"), self.src.get("wrong_first"),
                 self.src.get("start_token"), "s")
        self.token_height = TokenRow(words).height  # every box takes the tallest box's height
        self.show_title()
        encoder = self.encoder_reads_english()
        generating = self.generating_first_step(encoder)
        self.generating_error_stays(encoder, generating)
        training = self.training_first_step(encoder, generating)
        self.training_feeds_reference(encoder, training)
        self.step_two_side_by_side(encoder, training)

    # --- beats ------------------------------------------------------------------------------------------------

    @beat
    def encoder_reads_english(self) -> Encoder:
        """Both modes start the same: the encoder turns the English into one summary s."""
        english = self.src.get("english")
        strip, plan = compose(single("reading strip", lambda: self._strip(english), lambda built: built.group))
        self.say(_("Encoder first, in both modes: {words} ⇒ summary s.").format(words=" → ".join(english)),
                 narration=_("In both modes the encoder comes first: it reads {words}, and sums the sentence up in "
                             "one vector, s.").format(words=", ".join(english)),
                 subject=VGroup(strip.words, strip.summary))
        follow = lambda mob: staging.follow_along(self, plan, mob, strip.group)  # noqa: E731  (at rest: nothing)
        self.play(FadeIn(strip.tag), *follow(strip.tag), run_time=0.4)
        reader = self._reader(strip.words[0])
        self.play(FadeIn(strip.words[0]), Create(reader), *follow(strip.words[0]), run_time=0.6)
        for i in range(1, len(strip.words)):
            moved = self._reader(strip.words[i])
            self.play(GrowArrow(strip.arrows[i - 1]), FadeIn(strip.words[i]), ReplacementTransform(reader, moved),
                      *follow(strip.words[i]), run_time=0.7)
            reader = moved
        self.play(GrowArrow(strip.into_s), FadeIn(strip.summary, scale=1.3), FadeOut(reader), *follow(strip.summary),
                  run_time=0.8)
        self.wait(0.8)
        band, _band_plan = compose(self._band_forms(english), layout.top_band())
        self.say(_("This summary s goes up top: in both modes every decoder step below is given it, with the "
                   "{target} words so far.").format(target=target_language()), subject=band.summary)
        sources, targets = band.pairs(strip)
        staging.back_to_rest(self, plan, *(ReplacementTransform(a, b) for a, b in zip(sources, targets)),
                             run_time=1.0)
        self.remove(*targets)  # the same mobjects, as the one strip later beats keep on screen
        self.add(band.group)
        self.wait(1.0)
        return Encoder(band.group, band.summary)

    @beat
    def generating_first_step(self, encoder: Encoder) -> StepTable:
        """Generating, step 1: the model's first word is wrong."""
        step = self.src.get("generating")[0]
        caption, narration = generating_caption(step)
        generating = self._on_stage(self._generating_forms(encoder), encoder)
        self.say(caption, narration=narration, subject=generating.rows[0].group)
        self.play(FadeIn(generating.header, shift=DOWN * layout.NUDGE), run_time=0.6)
        self._show_row(encoder, generating, generating.rows[0])
        self.wait(1.5)
        return generating

    @beat
    def generating_error_stays(self, encoder: Encoder, generating: StepTable) -> None:
        """Each prediction is fed back, so the wrong word flows into every later step's input."""
        steps = self.src.get("generating")
        wrong = self.src.get("wrong_first")
        rows = generating.rows
        self.say(_("No teacher: {wrong} is fed back, so it stays in the input history of step {step} and "
                   "beyond.").format(wrong=quoted(wrong), step=steps[1].step),
                 narration=_("There is no teacher to correct it, so {wrong} is fed back in: it stays in the input "
                             "history of step {step} and of every step after it.").format(wrong=quoted(wrong),
                                                                                       step=steps[1].step),
                 subject=[row.given_tokens[0] for row in rows[1:]])
        for prev, row in zip(rows[:-1], rows[1:]):
            self._show_row(encoder, generating, row, fed_from=prev.pred, prev_row=prev)
        trail = VGroup(*(row.given_tokens[0] for row in rows[1:]))
        self.play(LaggedStart(*(Indicate(t[1], color=palette.WRONG, scale_factor=1.4) for t in trail),
                              lag_ratio=0.4), run_time=1.4)
        self.wait(2.0)

    @beat
    def training_first_step(self, encoder: Encoder, generating: StepTable) -> StepTable:
        """Training, step 1: the same wrong word, now scored against the reference."""
        step = self.src.get("training")[0]
        reference = self.src.get("reference")
        staging.back_to_rest(self, generating.plan, FadeOut(generating.header),
                             *(FadeOut(r.group) for r in generating.rows), run_time=0.6)
        training = self._on_stage(self._training_forms(encoder), encoder)  # at rest: the stage is measured there
        self.say(_("Training: the reference is {reference}. Step {step} still predicts {predicted}; the loss scores "
                   "it against {target}.").format(reference=" ".join(reference[:-1]), step=step.step,
                                                  predicted=quoted(step.predicted), target=quoted(step.target)),
                 subject=[training.reference, training.rows[0].pred])
        self.play(FadeIn(training.header, shift=DOWN * layout.NUDGE), FadeIn(training.ref_tag),
                  FadeIn(training.reference), run_time=0.8)
        first = training.rows[0]
        self._show_row(encoder, training, first)
        target = training.reference[reference.index(step.target)]
        loss_word, loss_target = training.loss_note
        if loss_target is not None:  # wrapped rows: the target word comes down under the prediction it scores
            self.play(TransformFromCopy(target, loss_target), FadeIn(loss_word),
                      Indicate(target[1], color=palette.WRONG, scale_factor=1.3), run_time=1.0)
        else:
            loss = Arrow(first.pred.get_top(), target.get_bottom(), buff=layout.HAIRLINE, color=palette.WRONG,
                         stroke_width=3, max_tip_length_to_length_ratio=0.3)
            loss_word.next_to(loss, LEFT, buff=layout.TIGHT)
            self.play(GrowArrow(loss), FadeIn(loss_word), Indicate(target[1], color=palette.WRONG, scale_factor=1.3),
                      run_time=1.0)
        self.wait(1.8)
        return training

    @beat
    def training_feeds_reference(self, encoder: Encoder, training: StepTable) -> None:
        """Teacher forcing: the reference word, not the prediction, goes into the next step's history."""
        steps = self.src.get("training")
        reference = self.src.get("reference")
        rows = training.rows
        predicted, fed = quoted(steps[0].predicted), quoted(steps[0].fed_forward)
        self.say(_("Teacher forcing: {predicted} is scored but not fed forward; the reference {fed} is.").format(
                     predicted=predicted, fed=fed),
                 narration=_("That is teacher forcing: {predicted} is scored, but not fed forward. The reference "
                             "word, {fed}, goes into the next step instead.").format(predicted=predicted, fed=fed),
                 subject=[rows[0].pred, rows[1].given_tokens[0]])
        first = rows[0]
        blocked = Line(first.pred.get_corner(DOWN + LEFT), first.pred.get_corner(UP + RIGHT),
                       color=palette.WRONG, stroke_width=4)
        self.play(Create(blocked), run_time=0.6)  # struck out, still read: dimmed it would fall below 4.5:1
        self.wait(0.8)
        self._show_row(encoder, training, rows[1], fed_from=training.reference[reference.index(steps[0].fed_forward)])
        self.wait(0.6)
        later = (_("Every later step gets the reference history: {words}.") if len(rows) > 2 else
                 _("Every step after the first gets the reference history: {words}."))
        self.say(later.format(words=", ".join(reference[:-1])), subject=[row.given for row in rows[1:]])
        for prev, prev_row, row in zip(steps[1:-1], rows[1:-1], rows[2:]):
            self._show_row(encoder, training, row, fed_from=training.reference[reference.index(prev.fed_forward)],
                           prev_row=prev_row)
        self.wait(2.0)

    @beat
    def step_two_side_by_side(self, encoder: Encoder, training: StepTable) -> None:
        """The whole difference, in one picture: the two inputs at the first step where they differ."""
        k = self.src.get("divergence_step")
        gen = self.src.get("generating")[k - 1]
        train = self.src.get("training")[k - 1]
        staging.clear_to(self, training.plan, [encoder.strip])  # back at rest: the stage is measured there
        compared, plan = compose(self._comparison_forms(gen, train, encoder), self._stage(encoder),
                                 pinned=(encoder.strip,))
        self.say(_("Look at step {step}: generating is given {generating}, training is given {training}.").format(
                     step=k, generating=quoted(gen.given[0]), training=quoted(train.given[0])),
                 narration=_("Now compare step {step} in the two modes. Generating is given {generating}; training "
                             "is given {training}.").format(step=k, generating=quoted(gen.given[0]),
                                                           training=quoted(train.given[0])),
                 subject=list(compared.givens))
        staging.hang_from_top(plan)
        staging.enter_below(self, plan, plan.whole, *(FadeIn(h) for h in compared.heads), run_time=0.6)
        self.play(*(TransformFromCopy(encoder.summary, g.s_box) for g in compared.givens),
                  *(FadeIn(m) for g in compared.givens for m in g if m is not g.s_box), run_time=1.0)
        staging.scroll_to(self, plan, compared.panels[-1])
        self.play(*(FadeIn(same) for same, _box, _history in compared.notes), run_time=0.5)
        self.play(*(Create(box) for _same, box, _history in compared.notes),
                  *(FadeIn(history) for _same, _box, history in compared.notes), run_time=0.8)
        self.wait(1.5)
        self.say(divergence_moral(), subject=compared.moral)
        staging.scroll_to(self, plan, compared.moral)
        self.play(Write(compared.moral), run_time=1.4)
        self.wait(2.5)

    # --- building blocks --------------------------------------------------------------------------------------

    def _panels(self, gen, train, *, width: float | None = None) -> tuple[VGroup, list, list, list]:
        """The last beat's two panels (a mode's step: its heading, s + the history it is given, "same s" and
        "history" under them), not yet arranged; `width` (a narrow frame) wraps the heading and the input and
        builds it at the table's size."""
        panels, heads, givens, notes = VGroup(), [], [], []
        for mode, step in ((N_("Generating"), gen), (N_("Training"), train)):
            text = _("{mode}, step {step}").format(mode=_(mode), step=step.step)
            head = (label(text, font_size=typography.BODY_SIZE, bold=True) if width is None
                    else wrapped(text, width, font_size=typography.BODY_SIZE, bold=True))
            given = self._given_group(step, training=mode == "Training")
            if width is None:
                given.scale(L.panel_zoom)
            else:
                self._wrap_given(given, width)
            same = label(_("same s"), font_size=typography.SMALL_SIZE, color=palette.CONTEXT)
            below_s = [m for m in given if m.get_top()[1] < given.s_box.get_bottom()[1]]
            if below_s:  # the input wrapped under s: the note beside it
                same.next_to(given.s_box, RIGHT, buff=layout.GAP)
            else:
                same.next_to(given.s_box, DOWN, buff=layout.GAP)
            box = frame_box(given.given_tokens[0], color=palette.ACCENT, buff=layout.TIGHT)
            history = label(_("history"), font_size=typography.SMALL_SIZE, color=palette.ACCENT)
            history.next_to(box, DOWN, buff=layout.NEAR)
            inner = VGroup(given, same, box, history)
            if width is None:
                panel = VGroup(head, inner).arrange(DOWN, buff=layout.APART)
            else:
                panel = VGroup(head, inner).arrange(DOWN, buff=layout.GAP, aligned_edge=LEFT)
            panels.add(panel)
            heads.append(head)
            givens.append(given)
            notes.append((same, box, history))
        return panels, heads, givens, notes

    @staticmethod
    def _flow(units, width: float, *, gap: float = layout.NEAR, own_line=()) -> VGroup:
        """`units` left to right in lines at most `width` wide (a unit wider than that keeps a line of its own),
        the lines stacked, left-aligned; a unit in `own_line` starts a new line."""
        starts = set(map(id, own_line))
        lines: list[list] = [[]]
        for unit in units:
            used = sum(m.width for m in lines[-1]) + gap * len(lines[-1])
            if lines[-1] and (id(unit) in starts or used + unit.width > width):
                lines.append([])
            lines[-1].append(unit)
        return VGroup(*(VGroup(*line).arrange(RIGHT, buff=gap) for line in lines)).arrange(
            DOWN, buff=layout.NEAR, aligned_edge=LEFT)

    def _given_units(self, given: VGroup) -> list:
        """s, then each history word (with the "+" before it, or the first one's in a compact input): the pieces a
        wrapped input breaks between."""
        parts = list(given.submobjects)
        if len(parts) == 2 * len(given.given_tokens) + 1:  # s + w1 + w2 …
            return [parts[0], *(VGroup(plus, word) for plus, word in zip(parts[1::2], parts[2::2]))]
        s_box, plus, first, *rest = parts  # compact: s + w1 w2 …
        return [s_box, VGroup(plus, first), *rest]

    def _wrap_given(self, given: VGroup, width: float) -> VGroup:
        return self._flow(self._given_units(given), width)

    @staticmethod
    def _wrap_scale() -> float:
        """The scale a wrapped table is built at: its smallest text (the step tags) just above the floor."""
        return typography.MIN_FONT_SIZE * shot_content.BUILD_MARGIN / typography.SMALL_SIZE

    def _wrap_width(self, encoder: Encoder) -> float:
        """How wide (before the wrap scale) a wrapped row may be, so it spans the stage once built."""
        return self._stage(encoder).width / self._wrap_scale()

    @staticmethod
    def _tail_units(arrow, pred, verdict, width: float) -> list[VGroup]:
        """"→ prediction ✓" as one unit of a wrapped row; where a long word makes that wider than `width`, the arrow
        ends the line above and the prediction starts its own (its verdict after it, or under it)."""
        ends = [verdict] if verdict is not None else []
        for units in ([[arrow, pred, *ends]], [[arrow], [pred, *ends]], [[arrow], [pred], [*ends]]):
            groups = [VGroup(*unit).arrange(RIGHT, buff=layout.GAP) for unit in units if unit]
            if all(group.width <= width for group in groups):
                return groups
        return groups

    def _wrapped_rows(self, steps, *, training: bool, width: float, first_note: VGroup | None = None) -> list[StepRow]:
        """One block per step for a frame too narrow for a row: its tag, then s + history → prediction ✓/✗
        wrapped into lines `width` wide; the predictions flush right, in one column. `first_note` goes on a line
        of its own under the first prediction."""
        rows, tails = [], []
        for step in steps:
            tag, given, arrow, pred, verdict = self._step_parts(step, training=training, compact=True,
                                                                arrow_length=L.short_arrow_length)
            tail = self._tail_units(arrow, pred, verdict, width)
            note = first_note if not rows else None
            extra = [note] if note is not None else []
            content = self._flow([*self._given_units(given), *tail, *extra], width, own_line=extra)
            tag.next_to(content, UP, buff=layout.TIGHT, aligned_edge=LEFT)
            rows.append(StepRow(tag, given, arrow, pred, verdict,
                                VGroup(tag, given, arrow, pred, *([verdict] if verdict is not None else []), *extra)))
            tails.append([*tail, *extra])
        VGroup(*(r.group for r in rows)).arrange(DOWN, buff=layout.GAP, aligned_edge=LEFT)
        right = max(r.group.get_right()[0] for r in rows)
        for ends in tails:
            for end in ends:
                end.shift(RIGHT * (right - end.get_right()[0]))
        return rows

    def _generating_forms(self, encoder: Encoder) -> list[Form]:
        """Generating's table: one row per step; else, in a narrow frame, each row wrapped under its tag."""
        steps = self.src.get("generating")

        def rows() -> StepTable:
            header = self._mode_header(_("Generating"), generating_note())
            rows = self._step_rows(steps, training=False)
            table = VGroup(*(r.group for r in rows))
            return StepTable(header, rows, VGroup(header, table).arrange(DOWN, buff=layout.APART, aligned_edge=LEFT))

        def wrapped() -> StepTable:
            width = self._wrap_width(encoder)
            header = self._mode_header(_("Generating"), generating_note(), width=width)
            rows = self._wrapped_rows(steps, training=False, width=width)
            group = VGroup(header, *(r.group for r in rows)).arrange(DOWN, buff=layout.GAP, aligned_edge=LEFT)
            return StepTable(header, rows, group)

        return [Form("rows", rows, _whole), Form("wrapped", wrapped, _whole)]

    def _training_forms(self, encoder: Encoder) -> list[Form]:
        """Training's table: the reference over the rows; packed closer for a long reference; tags over the rows in
        a narrow frame; narrower still, each row wrapped under its tag (the loss note under the first prediction)."""
        tables = [Form(name, lambda options=options: self._training_table(encoder, **options), _whole)
                  for name, options in (("rows", {"compact": False}), ("rows packed", {"compact": True}),
                                        ("tags over rows", {"compact": True, "narrow": True}))]
        return [*tables, Form("wrapped", lambda: self._wrapped_training(encoder), _whole)]

    def _wrapped_training(self, encoder: Encoder) -> StepTable:
        """The training table for a narrow frame: header, the reference words wrapped, the wrapped rows (with room
        for "loss" and the scored reference word under the first prediction)."""
        width = self._wrap_width(encoder)
        steps, reference = self.src.get("training"), self.src.get("reference")
        header = self._mode_header(_("Training"), training_note(), width=width)
        loss_word = label(_("loss"), font_size=typography.SMALL_SIZE, color=palette.WRONG)
        loss_target = self._token(steps[0].target, palette.FRENCH)
        # "loss" and the word it scores on one line, or the word under it where that is wider than a row (a long
        # word, a longer language)
        note = self._flow([loss_word, loss_target], width, gap=layout.GAP)
        rows = self._wrapped_rows(steps, training=True, width=width, first_note=note)
        ref_words = self._row(reference, palette.FRENCH, gap=layout.NEAR)
        ref_tag = label(_("reference"), font_size=typography.SMALL_SIZE, color=palette.MUTED)
        ref_block = self._flow([ref_tag, *ref_words.tokens], width)
        group = VGroup(header, ref_block, *(r.group for r in rows)).arrange(DOWN, buff=layout.GAP, aligned_edge=LEFT)
        return StepTable(header, rows, group, ref_words, ref_tag, (loss_word, loss_target))

    def _comparison_forms(self, gen, train, encoder: Encoder) -> list[Form]:
        """The last beat's two modes side by side, the moral under them; else stacked, each input wrapped."""
        stage_width = self._stage(encoder).width

        def side_by_side() -> Comparison:
            panels, heads, givens, notes = self._panels(gen, train)
            room = stage_width - sum(panel.width for panel in panels)  # the modes closer in a narrower frame
            panels.arrange(RIGHT, buff=min(L.panel_gap, max(layout.APART, room)), aligned_edge=UP)
            moral = wrapped(divergence_moral(), stage_width, font_size=typography.BODY_SIZE)
            group = VGroup(panels, moral).arrange(DOWN, buff=layout.FAR)
            return Comparison(group, panels, heads, givens, notes, moral)

        def stacked() -> Comparison:
            width = self._wrap_width(encoder)
            panels, heads, givens, notes = self._panels(gen, train, width=width)
            panels.arrange(DOWN, buff=layout.APART, aligned_edge=LEFT)
            moral = wrapped(divergence_moral(), width, font_size=typography.BODY_SIZE)
            group = VGroup(panels, moral).arrange(DOWN, buff=layout.APART)
            return Comparison(group, panels, heads, givens, notes, moral)

        return [Form("side by side", side_by_side, _whole), Form("stacked", stacked, _whole)]

    def _on_stage(self, forms: list[Form], encoder: Encoder) -> StepTable:
        """The first of a mode's table `forms` that reads on the stage below the encoder strip, hung from the
        stage's top as a table is read (one longer than the stage scrolls under the camera as its rows come)."""
        table, plan = compose(forms, self._stage(encoder), pinned=(encoder.strip,))
        plan.whole.shift(UP * (plan.region.top - plan.whole.get_top()[1]))
        return replace(table, plan=plan)

    def _strip(self, english, *, shortened: bool = False, folded: bool = False) -> "Strip":
        """encoder  word → word → … ⇒ s: every word (the reading strip), or, for the top band, only the first and
        the last word with "…" between them (`shortened`), or the words folded into the arrow "encoder → s"."""
        tag = label(_("encoder"), font_size=typography.SMALL_SIZE, color=palette.MUTED)
        summary = self._token("s", palette.CONTEXT)
        if folded:
            VGroup(tag, summary).arrange(RIGHT, buff=layout.FAR)
            into_s = flow_arrow(tag, summary, color=palette.CONTEXT, buff=layout.NEAR)
            return Strip(VGroup(tag, summary, into_s), tag, VGroup(), VGroup(), into_s, summary, kind="folded")
        if shortened:
            words = VGroup(self._token(english[0], palette.ENGLISH),
                           label("…", font_size=typography.LABEL_SIZE, color=palette.MUTED),
                           self._token(english[-1], palette.ENGLISH)).arrange(RIGHT, buff=layout.APART)
        else:
            words = self._row(english, palette.ENGLISH, gap=layout.APART)
        VGroup(tag, words, summary).arrange(RIGHT, buff=layout.APART)
        arrows = VGroup(*(flow_arrow(a, b, buff=layout.HAIRLINE) for a, b in zip(words[:-1], words[1:])))
        into_s = flow_arrow(words[-1], summary, color=palette.CONTEXT, buff=layout.HAIRLINE)
        return Strip(VGroup(tag, words, arrows, into_s, summary), tag, words, arrows, into_s, summary,
                     kind="shortened" if shortened else "whole")

    def _band_forms(self, english) -> list[Form]:
        """The strip the top band keeps: whole, else first … last, else folded into "encoder → s" (only shrunk)."""
        return [Form("whole", lambda: self._strip(english), lambda built: built.group),
                Form("first … last", lambda: self._strip(english, shortened=True), lambda built: built.group),
                Form("folded", lambda: self._strip(english, folded=True), lambda built: built.group, grow=False)]

    @staticmethod
    def _stage(encoder: Encoder) -> Region:
        """The frame below the encoder strip: where each mode's table (and the last comparison) goes."""
        whole = layout.frame()
        return Region(whole.left, whole.right, whole.bottom, encoder.strip.get_bottom()[1] - layout.APART)

    def _training_table(self, encoder: Encoder, *, compact: bool, narrow: bool = False) -> StepTable:
        """Header, the reference words over the predictions (or, when too long for that, over the table's right
        end), and the training steps. `compact` (a long reference) packs the rows closer and drops the "+" between
        history words; `narrow` sets each step's tag over its row."""
        reference = self.src.get("reference")
        header = self._mode_header(_("Training"), training_note())
        rows = self._step_rows(self.src.get("training"), training=True, compact=compact, narrow=narrow)
        table = VGroup(*(r.group for r in rows))
        ref_words = self._row(reference, palette.FRENCH, gap=layout.NEAR)
        ref_tag = label(_("reference"), font_size=typography.SMALL_SIZE, color=palette.MUTED)
        ref_words.next_to(table, UP, buff=layout.APART).align_to(rows[0].pred, LEFT)
        if VGroup(table, ref_words).width > self._stage(encoder).width:  # too long to start above the predictions
            ref_words.align_to(table, RIGHT)
        ref_tag.next_to(ref_words, LEFT, buff=layout.GAP)
        group = VGroup(header, VGroup(ref_tag, ref_words, table)).arrange(DOWN, buff=layout.GAP, aligned_edge=LEFT)
        loss_word = label(_("loss"), font_size=typography.SMALL_SIZE, color=palette.WRONG)
        return StepTable(header, rows, group, ref_words, ref_tag, (loss_word, None))

    @staticmethod
    def _reader(word: VGroup) -> SurroundingRectangle:
        """The box that marks the word the encoder is reading (it takes each word's width)."""
        return SurroundingRectangle(word, color=palette.ACCENT, buff=layout.TIGHT, corner_radius=0.08)

    def _mode_header(self, mode: str, detail: str, *, width: float | None = None) -> VGroup:
        """The mode's name and what it is given, side by side; stacked (the detail wrapped) when that is wider
        than `width`."""
        head = VGroup(label(mode, font_size=typography.BODY_SIZE, bold=True),
                      label(detail, font_size=typography.SMALL_SIZE, color=palette.MUTED))
        head.arrange(RIGHT, buff=layout.GAP, aligned_edge=DOWN)
        if width is not None and head.width > width:
            lines = wrapped(detail, width, font_size=typography.SMALL_SIZE, color=palette.MUTED)
            if len(lines.submobjects) > 1 and not isinstance(lines, Typst):
                lines.arrange(DOWN, buff=layout.TIGHT, aligned_edge=LEFT)
            head = VGroup(head[0], lines).arrange(DOWN, buff=layout.TIGHT, aligned_edge=LEFT)
        return head

    def _token(self, word: str, color) -> VGroup:
        """A token box stretched to the common height, so rows of words and low glyphs ("…", "s") line up."""
        return self._row((word,), color)[0]

    def _row(self, words, color, *, gap: float = layout.NEAR) -> TokenRow:
        row = TokenRow(words, color, buff=gap)
        for box in row.tokens:
            box[0].stretch_to_fit_height(self.token_height)
        return row

    def _word_color(self, word: str, *, training: bool):
        """A history word's colour says where it came from: the reference (training), or the model's own
        prediction (generating): wrong, right, or not known."""
        if training:
            known = word in self.src.get("reference") and word != self.src.get("end_token")
            return palette.FRENCH if known else palette.MUTED
        verdicts = {s.predicted: s.wrong for s in self.src.get("generating") if s.predicted_known}
        if word not in verdicts:
            return palette.MUTED
        return palette.WRONG if verdicts[word] else palette.FRENCH

    def _given_group(self, step, *, training: bool, compact: bool = False) -> VGroup:
        """s + the French history the step is given, as boxes joined by "+" (compact: "s +" then the history
        words side by side)."""
        s_box = self._token("s", palette.CONTEXT)
        parts, tokens = [s_box], []
        for word in step.given:
            if not (compact and tokens):
                parts.append(label("+", font_size=typography.LABEL_SIZE, color=palette.MUTED))
            tokens.append(self._token(word, self._word_color(word, training=training)))
            parts.append(tokens[-1])
        group = VGroup(*parts).arrange(RIGHT, buff=layout.NEAR)
        group.s_box, group.given_tokens, group.words = s_box, tokens, step.given
        return group

    def _step_parts(self, step, *, training: bool, compact: bool, arrow_length: float):
        """A step's pieces, for a row or a wrapped block: its tag, s + history, the arrow, the prediction (grey
        while not yet known, red when wrong) and its verdict ✓/✗ (None where nothing is scored)."""
        tag = label(_("step {step}").format(step=step.step), font_size=typography.SMALL_SIZE, color=palette.MUTED)
        given = self._given_group(step, training=training, compact=compact)
        arrow = Arrow(ORIGIN, RIGHT * arrow_length, buff=0, color=palette.MUTED, stroke_width=3,
                      max_tip_length_to_length_ratio=0.25)
        color = palette.MUTED if not step.predicted_known else (palette.WRONG if step.wrong else palette.FRENCH)
        pred = self._token(step.predicted, color)
        verdict = None
        if step.wrong is not None:
            verdict = label("✗" if step.wrong else "✓", font_size=typography.BODY_SIZE,
                            color=palette.WRONG if step.wrong else palette.RIGHT)
        return tag, given, arrow, pred, verdict

    def _step_rows(self, steps, *, training: bool, compact: bool = False, narrow: bool = False) -> list[StepRow]:
        """One row per step: tag | s + history | → | prediction | verdict, each part in its own column; `narrow`
        (a frame too narrow for that) sets each tag over its row instead, and shortens the arrow."""
        rows, cells = [], []
        for step in steps:
            tag, given, arrow, pred, verdict = self._step_parts(
                step, training=training, compact=compact,
                arrow_length=L.short_arrow_length if narrow else L.arrow_length)
            parts = [tag, given, arrow, pred, verdict if verdict is not None else VectorizedPoint()]
            cells += parts[1:] if narrow else parts
            rows.append(StepRow(tag, given, arrow, pred, verdict,
                                VGroup(*(p for p in parts if not isinstance(p, VectorizedPoint)))))
        columns = len(cells) // len(steps)
        row_gap = layout.TIGHT if compact else layout.NEAR
        if narrow:  # room over each row for its tag
            row_gap += max(row.tag.height for row in rows) + layout.TIGHT
        VGroup(*cells).arrange_in_grid(rows=len(steps), cols=columns, col_alignments="l" * columns,
                                        buff=(layout.GAP, row_gap))
        if narrow:
            for row in rows:
                row.tag.next_to(row.given, UP, buff=layout.TIGHT, aligned_edge=LEFT)
        return rows

    def _show_row(self, encoder: Encoder, table: StepTable, row: StepRow, fed_from=None,
                  prev_row: StepRow | None = None) -> None:
        """Bring a step row in: s copied from the encoder, the newest history word from where it was fed from,
        older history words from the previous row (a table longer than the stage scrolls down to it first)."""
        staging.scroll_to(self, table.plan, row.group, rows=[r.group for r in table.rows], head=table.head)
        copies = [TransformFromCopy(encoder.summary, row.given.s_box)]
        moved = {id(row.given.s_box)}
        if fed_from is not None:
            copies.append(TransformFromCopy(fed_from, row.given_tokens[-1]))
            moved.add(id(row.given_tokens[-1]))
        if prev_row is not None:
            for mine, theirs, word, old in zip(row.given_tokens[:-1], prev_row.given_tokens, row.given.words,
                                               prev_row.given.words):
                if word == old:
                    copies.append(TransformFromCopy(theirs, mine))
                    moved.add(id(mine))
        rest = [m for m in row.given if id(m) not in moved]
        self.play(FadeIn(row.tag), *copies, *(FadeIn(m) for m in rest), run_time=0.9)
        self.play(GrowArrow(row.arrow), FadeIn(row.pred, shift=RIGHT * layout.NUDGE), run_time=0.6)
        if row.verdict is not None:
            self.play(FadeIn(row.verdict, scale=1.4), run_time=0.4)
