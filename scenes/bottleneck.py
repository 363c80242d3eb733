"""The bottleneck: an encoder overwrites one hidden state word by word, so the whole English sentence has to fit
in one fixed-length vector s that is all the decoder ever sees; soft attention keeps h_1..h_3 instead
(post: "The bottleneck, with a picture").

Hidden states and each word's share of influence come from the `bottleneck` record (a seeded tanh RNN);
the French steps from the `teacher_forcing` record.
"""

from __future__ import annotations

from manim import (
    DOWN, LEFT, RIGHT, UP, Arrow, Create, FadeIn, FadeOut, GrowArrow, GrowFromEdge, Indicate, LaggedStart,
    Line, Rectangle, ReplacementTransform, SurroundingRectangle, Transform, VGroup, Write, config,
)

from scenes.kit import (
    AttentionScene, Source, beat, caption_brace, flow_arrow, format_value, heading, label, math, palette, token_box,
    typography, vector,
)


class BottleneckScene(AttentionScene):
    scene_id = "bottleneck"

    def construct(self):
        self.src = Source("bottleneck")
        self.french = Source("teacher_forcing")
        self.show_title()
        self.encoder_reads_first_word()
        self.later_words_overwrite()
        self.squeeze_into_s()
        self.decoder_sees_only_s()
        self.attention_keeps_every_h()

    # --- beats ------------------------------------------------------------------------------------------------

    @beat
    def encoder_reads_first_word(self):
        """The encoder's one hidden state, after the first word, and what it is made of."""
        tokens = self.src.get("tokens")
        size = self.src.get("hidden_size")
        self.say(f"The encoder reads the English left to right, keeping one hidden state: {size} numbers.",
                 narration=f"The encoder reads the English from left to right. All it keeps is one hidden state, "
                           f"a vector of {size} numbers.")
        words = VGroup(*(token_box(w, palette.ENGLISH) for w in tokens)).arrange(RIGHT, buff=0.9)
        words.to_edge(UP, buff=0.45)
        arrows = VGroup(*(flow_arrow(a, b) for a, b in zip(words[:-1], words[1:])))
        self.words, self.word_arrows = words, arrows
        self.play(FadeIn(words[0]), run_time=0.5)
        self.reader = SurroundingRectangle(words[0], color=palette.ACCENT, buff=0.08, corner_radius=0.08)
        self.state = self._state_vector(0)
        self.state_title = self._state_title(0)
        self.read_arrow = self._read_arrow(0)
        self.play(Create(self.reader), GrowArrow(self.read_arrow), run_time=0.6)
        self.play(FadeIn(self.state), FadeIn(self.state_title), run_time=0.8)
        self.shares_title = label("how much of each word the state still carries", font_size=typography.SMALL_SIZE,
                                  color=palette.MUTED)
        self._layout_place_shares_title(self.shares_title)
        self.share_labels = self._share_labels()
        self.shares = self._share_bars(0)
        first_share = format_value(self.src.value('first_token_share', 0), 2)
        self.say(f"After “{tokens[0]}”, the state is all “{tokens[0]}”: its share is {first_share}.",
                 narration=f"After the first word, “{tokens[0]}”, the state holds nothing else: the share of "
                           f"“{tokens[0]}” is {first_share}.")
        self.play(FadeIn(self.shares_title), FadeIn(self.share_labels), run_time=0.5)
        self.play(GrowFromEdge(self.shares.bars, LEFT), FadeIn(self.shares.numbers), run_time=0.8)
        self.first_share_trail = self._share_trail_start()
        self.play(FadeIn(self.first_share_trail), run_time=0.5)
        self.wait(1.2)

    @beat
    def later_words_overwrite(self):
        """Each new word rewrites the same vector; the first word's share fades."""
        tokens = self.src.get("tokens")
        share = [format_value(v, 2) for v in self.src.get("first_token_share").tolist()]
        self.say(f"Each new word overwrites the same hidden state. “{tokens[0]}” fades: "
                 f"its share goes {' → '.join(share)}.",
                 narration=f"Each new word overwrites the same hidden state, and “{tokens[0]}” fades: its share "
                           f"goes from {share[0]} to {', then to '.join(share[1:])}.")
        for t in range(1, len(tokens)):
            self.play(GrowArrow(self.word_arrows[t - 1]), FadeIn(self.words[t]),
                      self.reader.animate.move_to(self.words[t]),
                      Transform(self.read_arrow, self._read_arrow(t)), run_time=0.7)
            new_state, new_title, new_shares = self._state_vector(t), self._state_title(t), self._share_bars(t)
            self.play(ReplacementTransform(self.state, new_state), ReplacementTransform(self.state_title, new_title),
                      ReplacementTransform(self.shares, new_shares), run_time=1.1)
            self.state, self.state_title, self.shares = new_state, new_title, new_shares
            step = self._share_trail_step(t)
            self.play(FadeIn(step, shift=RIGHT * 0.2), run_time=0.5)
            self.remove(step)  # it lives on as part of the trail (no duplicate on screen)
            self.first_share_trail.add(step)
            self.wait(1.2)
        self.wait(1.0)

    @beat
    def squeeze_into_s(self):
        """The last hidden state is the summary s: fixed length, whatever the sentence."""
        tokens = self.src.get("tokens")
        size = self.src.get("hidden_size")
        self.say(f"The state after “{tokens[-1]}” is the summary s. All of the English must fit in it: "
                 f"{size} numbers, however long the sentence.")
        self.play(FadeOut(self.shares), FadeOut(self.shares_title), FadeOut(self.share_labels),
                  FadeOut(self.first_share_trail), FadeOut(self.reader), FadeOut(self.read_arrow), run_time=0.6)
        name = math("s", color=palette.CONTEXT, font_size=typography.HEADING_SIZE)
        summary = VGroup(name, self.state)
        self.play(ReplacementTransform(self.state_title, name), run_time=0.6)
        self.play(summary.animate.arrange(RIGHT, buff=0.3).move_to(self._layout_s_position()), run_time=0.9)
        frame = SurroundingRectangle(self.state, color=palette.CONTEXT, buff=0.1, corner_radius=0.05)
        funnel = VGroup(*(Arrow(w.get_bottom(), frame.get_top() + RIGHT * frame.width * (i + 1) / (len(tokens) + 1)
                                + LEFT * frame.width / 2, buff=0.1, color=palette.ENGLISH, stroke_width=3,
                                max_tip_length_to_length_ratio=0.06) for i, w in enumerate(self.words)))
        brace = caption_brace(frame, f"one vector, fixed length: {size} numbers", color=palette.CONTEXT)
        all_of_it = label("all of the English must fit in here", font_size=typography.LABEL_SIZE)
        all_of_it.next_to(frame, RIGHT, buff=0.5)
        self.play(LaggedStart(*(GrowArrow(a) for a in funnel), lag_ratio=0.25), run_time=1.2)
        self.play(Create(frame), FadeIn(brace), run_time=0.8)
        self.play(FadeIn(all_of_it, shift=LEFT * 0.2), run_time=0.6)
        self.wait(1.5)
        self.all_of_it = all_of_it
        self.summary, self.summary_frame, self.summary_brace, self.funnel = summary, frame, brace, funnel
        self.say(f"{len(tokens)} words or many more: the same {size} numbers.",
                 narration=f"Whether the sentence has {len(tokens)} words or many more, s is always the same "
                           f"{size} numbers.")
        self.wait(1.5)

    @beat
    def decoder_sees_only_s(self):
        """Every French step is computed from s alone; the English words are out of reach."""
        steps = self._decoder_words()
        self.say(f"The decoder writes {', '.join(steps)} one word at a time. Each step sees only s.",
                 narration=f"The decoder then writes {', '.join(steps)}, one word at a time, and every one of those "
                           "steps sees only s, never the English words again.")
        self.play(FadeOut(self.funnel), FadeOut(self.summary_brace), FadeOut(self.all_of_it),
                  self.words.animate.set_opacity(0.3),
                  self.word_arrows.animate.set_opacity(0.3), run_time=0.6)
        chain = self._decoder_chain()
        self.chain = chain
        self.play(LaggedStart(*(FadeIn(m) for m in chain), lag_ratio=0.15), run_time=1.2)
        from_s = VGroup(*(Arrow(self.summary_frame.get_right(), chain.step(w).get_left(), buff=0.12,
                                color=palette.CONTEXT, stroke_width=3, max_tip_length_to_length_ratio=0.07)
                          for w in steps))
        self.play(LaggedStart(*(GrowArrow(a) for a in from_s), lag_ratio=0.3), run_time=1.5)
        self.from_s = from_s
        self.wait(2.0)
        tokens = self.src.get("tokens")
        target = steps[-1]
        self.say(f"To write “{target}” it needs “{tokens[-1]}”, but “{tokens[-1]}” is only a "
                 f"{format_value(self.src.value('influence', (len(tokens) - 1, len(tokens) - 1)), 2)} "
                 f"share mixed into s.",
                 narration=f"To write “{target}” the decoder needs “{tokens[-1]}”, but “{tokens[-1]}” is only one "
                           "share of the mixture in s, blended with every word before it.")
        self.play(Indicate(chain.step(target)[1], color=palette.FRENCH, scale_factor=1.3),
                  Indicate(self.words[-1][1], color=palette.ENGLISH, scale_factor=1.3), run_time=1.2)
        self.wait(1.8)

    @beat
    def attention_keeps_every_h(self):
        """The contrast: keep h_1..h_3, and let every decoder step reach each of them."""
        tokens = self.src.get("tokens")
        steps = self._decoder_words()
        self.say(f"Soft attention keeps every encoder state h_1 … h_{len(tokens)} instead of just s.",
                 narration=f"Soft attention does something different: it keeps every encoder state, h_1 to "
                           f"h_{len(tokens)}, one per English word, instead of just s.")
        self.play(FadeOut(self.from_s), FadeOut(self.summary), FadeOut(self.summary_frame),
                  FadeOut(self.word_arrows), run_time=0.6)
        kept = self._kept_states()
        self.play(*(ReplacementTransform(w, row.word) for w, row in zip(self.words, kept)), run_time=1.0)
        title = heading("With soft attention", color=palette.WEIGHT).to_edge(UP, buff=0.5)
        self.play(*(FadeIn(VGroup(row.name, row.state)) for row in kept), FadeIn(title, shift=DOWN * 0.2),
                  run_time=0.8)
        self.wait(0.6)
        self.say("Each decoder step can reach all of them, not one squeezed summary.")
        links = {}
        for w in steps:
            step = self.chain.step(w)
            links[w] = VGroup(*(Line(step.get_left() + LEFT * 0.1, row.state.get_right() + RIGHT * 0.15,
                                     color=palette.WEIGHT, stroke_width=3) for row in kept))
            self.play(Indicate(step[1], color=palette.FRENCH, scale_factor=1.3),
                      LaggedStart(*(Create(line) for line in links[w]), lag_ratio=0.2), run_time=1.1)
            self.wait(0.5)
        self.wait(1.0)
        target = steps[-1]
        self.say(f"Nothing squeezed: to write “{target}”, the decoder can look straight at "
                 f"h_{len(tokens)}, the state for “{tokens[-1]}”.")
        others = [line for w in steps for line in links[w] if line is not links[target][-1]]
        self.play(links[target][-1].animate.set_stroke(color=palette.ACCENT, width=6),
                  *(line.animate.set_stroke(opacity=0.35) for line in others), Indicate(kept[-1].word[1], color=palette.ENGLISH,
                                                                          scale_factor=1.3),
                  Indicate(self.chain.step(target)[1], color=palette.FRENCH, scale_factor=1.3), run_time=1.2)
        self.wait(2.5)

    # --- building blocks --------------------------------------------------------------------------------------

    def _state_vector(self, t: int):
        scale = float(self.src.get("hidden_states").abs().max())
        grid = vector(self.src, f"hidden_states.{t}", shading="diverging", scale_to=scale)
        return grid.move_to(self._layout_state_position())

    def _state_title(self, t: int):
        word = self.src.get("tokens")[t]
        title = label(f"hidden state after “{word}”", font_size=typography.LABEL_SIZE)
        return title.next_to(self._layout_state_position(), UP, buff=0.6)

    def _read_arrow(self, t: int) -> Arrow:
        target = self._layout_state_position() + UP * 0.95
        return Arrow(self.words[t].get_bottom(), target, buff=0.1, color=palette.ENGLISH, stroke_width=3,
                     max_tip_length_to_length_ratio=0.12)

    def _share_labels(self) -> VGroup:
        rows = VGroup()
        for i, word in enumerate(self.src.get("tokens")):
            text = label(word, font_size=typography.LABEL_SIZE, color=palette.ENGLISH)
            text.move_to(self._layout_share_row(i), aligned_edge=RIGHT)
            rows.add(text)
        return rows

    def _share_bars(self, t: int) -> VGroup:
        """One bar per word already read, length ∝ its share of hidden state t, with the traced share."""
        group, bars, numbers = VGroup(), VGroup(), VGroup()
        for i in range(t + 1):
            share = self.src.value("influence", (t, i))
            start = self._layout_share_row(i) + RIGHT * 0.3
            bar = Rectangle(width=max(share * 6.0, 0.02), height=0.36, stroke_width=0, fill_color=palette.ENGLISH,
                            fill_opacity=0.85)
            bar.move_to(start, aligned_edge=LEFT)
            number = self.src.number("influence", (t, i), decimals=2, font_size=typography.NUMBER_SIZE)
            number.next_to(bar, RIGHT, buff=0.2)
            bars.add(bar)
            numbers.add(number)
        group.add(bars, numbers)
        group.bars, group.numbers = bars, numbers
        return group

    def _share_trail_start(self) -> VGroup:
        head = label(f"“{self.src.get('tokens')[0]}” share:", font_size=typography.LABEL_SIZE, color=palette.MUTED)
        first = self.src.number("first_token_share", 0, decimals=2, font_size=typography.NUMBER_SIZE)
        trail = VGroup(head, first).arrange(RIGHT, buff=0.25)
        self._layout_place_trail(trail)
        return trail

    def _share_trail_step(self, t: int) -> VGroup:
        arrow = label("→", font_size=typography.LABEL_SIZE, color=palette.MUTED)
        number = self.src.number("first_token_share", t, decimals=2, font_size=typography.NUMBER_SIZE)
        step = VGroup(arrow, number).arrange(RIGHT, buff=0.2)
        step.next_to(self.first_share_trail, RIGHT, buff=0.2)
        return step

    def _decoder_words(self) -> tuple[str, ...]:
        """The French words the decoder writes (the reference without its end token)."""
        return tuple(w for w in self.french.get("reference") if w != self.french.get("end_token"))

    def _decoder_chain(self) -> VGroup:
        """start ↓ J'aime ↓ le ↓ café ↓ end, down the right side; chain.step(word) is a word's box."""
        words = (self.french.get("start_token"), *self.french.get("reference"))
        boxes = [token_box(w, palette.FRENCH if w in self._decoder_words() else palette.MUTED) for w in words]
        column = VGroup(*boxes).arrange(DOWN, buff=0.42)
        self._layout_place_chain(column)
        links = [flow_arrow(a, b, buff=0.08) for a, b in zip(boxes[:-1], boxes[1:])]
        head = label("decoder", font_size=typography.SMALL_SIZE, color=palette.MUTED)
        head.next_to(column, LEFT, buff=0.35).align_to(column, UP)
        chain = VGroup(head, *[m for pair in zip(boxes, links + [VGroup()]) for m in pair])
        by_word = dict(zip(words, boxes))
        chain.step = lambda w: by_word[w]
        return chain

    def _kept_states(self) -> list[VGroup]:
        """Rows "word  h_t  [vector]" on the left, one per English word: the states soft attention keeps."""
        scale = float(self.src.get("hidden_states").abs().max())
        rows = []
        for t, word in enumerate(self.src.get("tokens")):
            box = token_box(word, palette.ENGLISH)
            name = math(f"h_{t + 1}", color=palette.TEXT, font_size=typography.BODY_SIZE + 6)
            state = vector(self.src, f"hidden_states.{t}", shading="diverging", scale_to=scale)
            row = VGroup(box, name, state).arrange(RIGHT, buff=0.3)
            row.word, row.name, row.state = box, name, state
            rows.append(row)
        self._layout_stack_kept(rows)
        return rows

    # --- layout constants -------------------------------------------------------------------------------------

    @staticmethod
    def _layout_state_position():
        return UP * 1.0

    @staticmethod
    def _layout_share_row(i: int):
        return LEFT * 3.2 + DOWN * (0.75 + i * 0.62)

    @staticmethod
    def _layout_place_shares_title(title) -> None:
        title.move_to(LEFT * 3.2 + DOWN * 0.15, aligned_edge=LEFT).shift(LEFT * 1.0)

    @staticmethod
    def _layout_place_trail(trail) -> None:
        trail.move_to(LEFT * 4.2 + DOWN * 3.05, aligned_edge=LEFT)

    @staticmethod
    def _layout_s_position():
        return LEFT * 2.6 + DOWN * 0.4

    @staticmethod
    def _layout_place_chain(column) -> None:
        column.move_to(RIGHT * 4.6 + DOWN * 0.45)

    @staticmethod
    def _layout_stack_kept(rows) -> None:
        """Three columns: words right-aligned, then h_t, then the vectors, rows 1.2 apart."""
        word_right, name_left = -4.6, -4.3
        state_left = name_left + max(r.name.width for r in rows) + 0.3
        for t, row in enumerate(rows):
            y = 1.0 - t * 1.3
            row.word.move_to([word_right - row.word.width / 2, y, 0])
            row.name.move_to([name_left + row.name.width / 2, y, 0])
            row.state.move_to([state_left + row.state.width / 2, y, 0])
