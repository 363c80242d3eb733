"""Training vs generating: one wrong first word ("Je") stays in the decoder's input history when generating,
but teacher forcing scores it and feeds the reference forward instead (post: "Training vs generating").

Every token, step and verdict comes from the `teacher_forcing` record (the post's two step tables).
"""

from __future__ import annotations

from manim import (
    DOWN, LEFT, RIGHT, UP, Arrow, Create, FadeIn, FadeOut, GrowArrow, Indicate, LaggedStart, Line, Succession,
    SurroundingRectangle, TransformFromCopy, VGroup, Write, config,
)

from scenes.kit import AttentionScene, Source, beat, flow_arrow, frame_box, label, palette, token_box, typography


class TeacherForcingScene(AttentionScene):
    scene_id = "teacher_forcing"

    def construct(self):
        self.src = Source("teacher_forcing")
        self.show_title()
        self.encoder_reads_english()
        self.generating_first_step()
        self.generating_error_stays()
        self.training_first_step()
        self.training_feeds_reference()
        self.step_two_side_by_side()

    # --- beats ------------------------------------------------------------------------------------------------

    @beat
    def encoder_reads_english(self):
        """Both modes start the same: the encoder turns the English into one summary s."""
        english = self.src.get("english")
        self.say(f"Encoder first, in both modes: {' → '.join(english)} ⇒ summary s.",
                 narration=f"In both modes the encoder comes first: it reads {', '.join(english)}, and sums the "
                           "sentence up in one vector, s.")
        words = VGroup(*(self._token(w, palette.ENGLISH) for w in english)).arrange(RIGHT, buff=0.7)
        summary = self._token("s", palette.CONTEXT)
        tag = label("encoder", font_size=typography.SMALL_SIZE, color=palette.MUTED)
        strip = VGroup(tag, words, summary).arrange(RIGHT, buff=0.7)
        arrows = VGroup(*(flow_arrow(a, b) for a, b in zip(words[:-1], words[1:])))
        into_s = flow_arrow(words[-1], summary, color=palette.CONTEXT)
        self.play(FadeIn(tag), run_time=0.4)
        reader = SurroundingRectangle(words[0], color=palette.ACCENT, buff=0.08, corner_radius=0.08)
        self.play(FadeIn(words[0]), Create(reader), run_time=0.6)
        for i in range(1, len(words)):
            self.play(GrowArrow(arrows[i - 1]), FadeIn(words[i]), reader.animate.move_to(words[i]), run_time=0.7)
        self.play(GrowArrow(into_s), FadeIn(summary, scale=1.3), FadeOut(reader), run_time=0.8)
        self.wait(0.8)
        self.encoder = VGroup(tag, words, arrows, into_s, summary)
        self.summary = summary
        self.say("Whatever the mode, the decoder gets this s plus French history, one word at a time.")
        self.play(self.encoder.animate.scale(0.92).to_edge(UP, buff=0.35), run_time=0.8)
        self.wait(1.0)

    @beat
    def generating_first_step(self):
        """Generating, step 1: the model's first word is wrong."""
        step = self.src.get("generating")[0]
        self.say(f"Generating (English only). Step {step.step}: given s + {step.given[0]}, "
                 f"the model predicts “{step.predicted}”: wrong.",
                 narration=f"First, generating, where we only have the English. At step {step.step} the decoder is "
                           f"given s and the {step.given[0]} token, and it predicts “{step.predicted}”: a wrong "
                           "first word.")
        self.mode_header = self._mode_header("Generating", "English only: no reference French")
        self.play(FadeIn(self.mode_header, shift=DOWN * 0.2), run_time=0.6)
        self.gen_rows = self._layout_step_table(self.src.get("generating"), "generating")
        self.mode_header.align_to(self.gen_rows[0].tag, LEFT)
        self._show_row(self.gen_rows[0])
        self.wait(1.5)

    @beat
    def generating_error_stays(self):
        """Each prediction is fed back, so the wrong word flows into every later step's input."""
        steps = self.src.get("generating")
        wrong = self.src.get("wrong_first")
        self.say(f"No teacher: “{wrong}” is fed back, so it stays in the input history of step "
                 f"{steps[1].step} and beyond.",
                 narration=f"There is no teacher to correct it, so “{wrong}” is fed back in: it stays in the "
                           f"input history of step {steps[1].step} and of every step after it.")
        for prev, row in zip(self.gen_rows[:-1], self.gen_rows[1:]):
            self._show_row(row, fed_from=prev.pred, prev_row=prev)
        trail = VGroup(*(row.given_tokens[0] for row in self.gen_rows[1:]))
        self.play(LaggedStart(*(Indicate(t[1], color=palette.WRONG, scale_factor=1.4) for t in trail),
                              lag_ratio=0.4), run_time=1.4)
        self.wait(2.0)

    @beat
    def training_first_step(self):
        """Training, step 1: the same wrong word, now scored against the reference."""
        step = self.src.get("training")[0]
        reference = self.src.get("reference")
        self.say(f"Training: the reference is {' '.join(reference[:-1])}. Step {step.step} still predicts "
                 f"“{step.predicted}”; the loss scores it against “{step.target}”.")
        self.play(FadeOut(self.mode_header), *(FadeOut(r) for r in self.gen_rows), run_time=0.6)
        self.mode_header = self._mode_header("Training", "English + the reference French")
        self.train_rows = self._layout_step_table(self.src.get("training"), "training")
        ref_tag = label("reference", font_size=typography.SMALL_SIZE, color=palette.MUTED)
        ref_words = VGroup(*(self._token(w, palette.FRENCH) for w in reference)).arrange(RIGHT, buff=0.2)
        ref_words.next_to(self.train_rows[0].pred, UP, buff=0.55, aligned_edge=LEFT)
        ref_tag.next_to(ref_words, LEFT, buff=0.3)
        self._layout_keep_in_frame(VGroup(*self.train_rows, ref_tag, ref_words), self.mode_header)
        self.reference = ref_words
        self.play(FadeIn(self.mode_header, shift=DOWN * 0.2), FadeIn(ref_tag), FadeIn(ref_words), run_time=0.8)
        first = self.train_rows[0]
        self._show_row(first)
        target = ref_words[reference.index(step.target)]
        loss = Arrow(first.pred.get_top(), target.get_bottom(), buff=0.06, color=palette.WRONG, stroke_width=3,
                     max_tip_length_to_length_ratio=0.3)
        loss_word = label("loss", font_size=typography.SMALL_SIZE, color=palette.WRONG)
        loss_word.next_to(loss, LEFT, buff=0.15)
        self.play(GrowArrow(loss), FadeIn(loss_word), Indicate(target[1], color=palette.WRONG, scale_factor=1.3), run_time=1.0)
        self.loss = VGroup(loss, loss_word)
        self.wait(1.8)

    @beat
    def training_feeds_reference(self):
        """Teacher forcing: the reference word, not the prediction, goes into the next step's history."""
        steps = self.src.get("training")
        reference = self.src.get("reference")
        self.say(f"Teacher forcing: “{steps[0].predicted}” is scored but not fed forward; "
                 f"the reference “{steps[0].fed_forward}” is.",
                 narration=f"That is teacher forcing: “{steps[0].predicted}” is scored, but not fed forward. "
                           f"The reference word, “{steps[0].fed_forward}”, goes into the next step instead.")
        first = self.train_rows[0]
        blocked = Line(first.pred.get_corner(DOWN + LEFT), first.pred.get_corner(UP + RIGHT),
                       color=palette.WRONG, stroke_width=4)
        self.play(Create(blocked), first.pred.animate.set_opacity(0.6), run_time=0.6)
        self.wait(0.8)
        self._show_row(self.train_rows[1], fed_from=self.reference[reference.index(steps[0].fed_forward)])
        self.wait(0.6)
        self.say(f"Every later step gets the reference history: {', '.join(reference[:-1])}.")
        for prev, prev_row, row in zip(steps[1:-1], self.train_rows[1:-1], self.train_rows[2:]):
            self._show_row(row, fed_from=self.reference[reference.index(prev.fed_forward)], prev_row=prev_row)
        self.wait(2.0)

    @beat
    def step_two_side_by_side(self):
        """The whole difference, in one picture: the two step-2 inputs."""
        k = self.src.get("divergence_step")
        gen = self.src.get("generating")[k - 1]
        train = self.src.get("training")[k - 1]
        self.say(f"Look at step {k}: generating is given “{gen.given[0]}”, training is given “{train.given[0]}”.",
                 narration=f"Now compare step {k} in the two modes. Generating is given “{gen.given[0]}”; training "
                           f"is given “{train.given[0]}”.")
        keep = set(map(id, self.encoder.get_family()))
        self.play(*(FadeOut(m) for m in self.mobjects if id(m) not in keep), run_time=0.6)
        panels = VGroup()
        for mode, step in (("Generating", gen), ("Training", train)):
            head = label(f"{mode}, step {step.step}", font_size=typography.BODY_SIZE, bold=True)
            given = self._given_group(step).scale(1.2)
            panel = VGroup(head, given).arrange(DOWN, buff=0.5)
            panel.head, panel.given = head, given
            panels.add(panel)
        panels.arrange(RIGHT, buff=2.0).move_to(UP * 0.9)
        self.play(FadeIn(panels[0].head), FadeIn(panels[1].head), run_time=0.6)
        self.play(*(TransformFromCopy(self.summary, p.given.s_box) for p in panels),
                  *(FadeIn(m) for p in panels for m in p.given if m is not p.given.s_box), run_time=1.0)
        same = VGroup(*(label("same s", font_size=typography.SMALL_SIZE, color=palette.CONTEXT)
                        .next_to(p.given.s_box, DOWN, buff=0.3) for p in panels))
        self.play(FadeIn(same), run_time=0.5)
        boxes = VGroup(*(frame_box(p.given.given_tokens[0], color=palette.ACCENT, buff=0.1) for p in panels))
        differ = VGroup(*(label("history", font_size=typography.SMALL_SIZE, color=palette.ACCENT)
                          .next_to(b, DOWN, buff=0.2) for b in boxes))
        self.play(Create(boxes), FadeIn(differ), run_time=0.8)
        self.wait(1.5)
        self.say("Same model, same English. Only the French history changed.")
        moral = label("Same model, same English. Only the French history changed.",
                      font_size=typography.BODY_SIZE)
        moral.to_edge(DOWN, buff=1.2)
        self.play(Write(moral), run_time=1.4)
        self.wait(2.5)

    # --- building blocks --------------------------------------------------------------------------------------

    def _mode_header(self, mode: str, detail: str) -> VGroup:
        head = VGroup(label(mode, font_size=typography.BODY_SIZE, bold=True),
                      label(detail, font_size=typography.SMALL_SIZE, color=palette.MUTED))
        head.arrange(RIGHT, buff=0.35, aligned_edge=DOWN)
        head.next_to(self.encoder, DOWN, buff=0.45).to_edge(LEFT, buff=0.5)
        return head

    @staticmethod
    def _layout_keep_in_frame(group: VGroup, header: VGroup) -> None:
        """Shift the table (and its left-aligned header) left if its right edge passes the frame margin."""
        overflow = group.get_right()[0] - (config.frame_width / 2 - 0.4)
        if overflow > 0:
            group.shift(LEFT * overflow)
        header.align_to(group, LEFT)

    def _token(self, word: str, color) -> VGroup:
        """A token box; boxes of low glyphs ("…", "s") are stretched to the common height so rows line up."""
        box = token_box(word, color)
        if not hasattr(self, "_token_height"):
            self._token_height = token_box("J'aime")[0].height
        box[0].stretch_to_fit_height(self._token_height)
        return box

    def _word_color(self, word: str):
        if word == self.src.get("wrong_first"):
            return palette.WRONG
        if word in self.src.get("reference") and word != self.src.get("end_token"):
            return palette.FRENCH
        return palette.MUTED

    def _given_group(self, step) -> VGroup:
        """s + the French history the step is given, as boxes joined by "+"."""
        s_box = self._token("s", palette.CONTEXT)
        parts, tokens = [s_box], []
        for word in step.given:
            parts.append(label("+", font_size=typography.LABEL_SIZE, color=palette.MUTED))
            tokens.append(self._token(word, self._word_color(word)))
            parts.append(tokens[-1])
        group = VGroup(*parts).arrange(RIGHT, buff=0.16)
        group.s_box, group.given_tokens, group.words = s_box, tokens, step.given
        return group

    def _layout_step_table(self, steps, mode: str) -> list[VGroup]:
        """One row per step: tag | s + history → prediction verdict, arrows aligned in one column."""
        top = {"generating": 1.15, "training": 0.45}[mode]
        rows = []
        for step in steps:
            tag = label(f"step {step.step}", font_size=typography.SMALL_SIZE, color=palette.MUTED)
            given = self._given_group(step)
            color = palette.MUTED if not step.predicted_known else (
                palette.WRONG if step.wrong else palette.FRENCH)
            pred = self._token(step.predicted, color)
            verdict = None
            if step.wrong is not None:
                verdict = label("✗" if step.wrong else "✓", font_size=typography.BODY_SIZE,
                                color=palette.WRONG if step.wrong else palette.RIGHT)
            row = VGroup(tag, given)
            row.tag, row.given, row.given_tokens, row.pred, row.verdict = tag, given, given.given_tokens, pred, verdict
            rows.append(row)
        left = -config.frame_width / 2 + 0.5
        tag_width = max(r.tag.width for r in rows)
        given_width = max(r.given.width for r in rows)
        for i, row in enumerate(rows):
            y = top - i * 0.95
            row.tag.move_to([left + row.tag.width / 2, y, 0])
            row.given.move_to([left + tag_width + 0.35 + row.given.width / 2, y, 0])
            arrow_x = left + tag_width + 0.35 + given_width + 0.3
            row.arrow = Arrow([arrow_x, y, 0], [arrow_x + 0.9, y, 0], buff=0, color=palette.MUTED, stroke_width=3,
                              max_tip_length_to_length_ratio=0.25)
            row.pred.move_to([arrow_x + 1.15 + row.pred.width / 2, y, 0])
            row.add(row.arrow, row.pred)
            if row.verdict is not None:
                row.verdict.next_to(row.pred, RIGHT, buff=0.25)
                row.add(row.verdict)
        table = VGroup(*rows)
        table.shift(RIGHT * (-table.get_center()[0]))
        return rows

    def _show_row(self, row: VGroup, fed_from=None, prev_row=None) -> None:
        """Bring a step row in: s copied from the encoder, the newest history word from where it was fed from,
        older history words from the previous row."""
        copies = [TransformFromCopy(self.summary, row.given.s_box)]
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
        shown = [GrowArrow(row.arrow), FadeIn(row.pred, shift=RIGHT * 0.2)]
        self.play(*shown, run_time=0.6)
        if row.verdict is not None:
            self.play(FadeIn(row.verdict, scale=1.4), run_time=0.4)

