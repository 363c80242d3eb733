"""The bottleneck: an encoder overwrites one hidden state word by word, so the whole English sentence has to fit
in one fixed-length vector s that is all the decoder ever sees; soft attention keeps h_1 … h_T instead
(post: "The bottleneck, with a picture").

Hidden states and each word's share of influence come from the `bottleneck` record (a seeded tanh RNN reading the
example's encoder states H); the French steps from the `teacher_forcing` record. The layout follows from the
number of words and their lengths.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from manim import (
    DOWN, LEFT, ORIGIN, RIGHT, UP, Arrow, Brace, Create, FadeIn, FadeOut, GrowArrow, GrowFromEdge, Group, Indicate, LaggedStart,
    Line, MoveToTarget, Rectangle, ReplacementTransform, SurroundingRectangle, VGroup, config,
)

from scenes.kit import (
    AttentionScene, Source, TokenRow, beat, caption_brace, flow_arrow, format_value, heading, label, layout, math,
    palette, token_box, typography, vector,
)
from scenes.kit.claims import count_word
from scenes.kit import staging
from scenes.kit.compose import Form, Plan, compose
from scenes.kit.forms import floor_scale, flow_forms, line_forms
from scenes.kit.layout import Region
from scenes.kit.products import shared_cell_width
from scenes.kit.languages import source_language
from scenes.kit.text import align_baselines, baseline_y, wrapped
from scenes.kit.translation import _, n_, quoted


@dataclass(frozen=True)
class BottleneckLayout:
    """The sizes this scene chooses itself; every position follows from them and the words."""

    word_gap: float = 0.9  #: between the English words, room for the arrow that carries the state on
    bar_height: float = 0.36  #: one word's share bar
    chain_gap: float = 0.42  #: between the decoder's steps, when the frame has the height for it
    link_room: float = 1.5  #: between s (or the kept states) and the decoder steps, for the arrows between them
    lit_stroke: float = 6  #: the links to h_1 when the last beat lights them (a style, but set_stroke calls it width)
    side_by_side: float = 1.5  #: the body's width over its height from which the pictures try side by side first
    most_tiers: int = 3  #: the most tiers the kept states' words stand on over them (more would not read as theirs)


L = BottleneckLayout()


@dataclass(frozen=True)
class Shares:
    """The "how much of each word the state still carries" block: its title, one label and one empty bar slot per
    word (the slots fix where bars start and how long a share of 1 is)."""

    title: VGroup
    labels: VGroup
    slots: VGroup
    spacers: list  # room for the number after a full bar: never drawn, only fitted with the rest


@dataclass(frozen=True)
class Reading:
    """What the encoder's reading leaves on screen, handed from beat to beat."""

    words: TokenRow
    word_arrows: VGroup
    reader: SurroundingRectangle
    read_arrow: Arrow
    state_region: Region  # the column the hidden state stands in
    zoom: float  # how much the reading picture was shrunk to fit (1 when it fits as built)
    state: VGroup  # the hidden state now, a vector
    state_title: VGroup
    shares: Shares
    bars: VGroup  # the bars and numbers of the state now: .bars, .numbers
    trail: VGroup  # "“I” share: 1.00 → 0.25 → …", every step laid out; shown a step at a time
    trail_steps: list[VGroup]  # trail[0] is the head and first share; step t is "→ share_t" (none: not shown)
    plan: Plan  # how the state and its shares are shown: in the frame, or running below it (the camera looks down)
    in_lines: bool  # the English stands in lines (many or long words), reaching down into the body
    stacked: bool  # the pictures stacked (a narrow body), not side by side


@dataclass(frozen=True)
class Picture:
    """The reading picture as one form builds it: the state, its title, the shares block, the state's region, how
    much the state was shrunk (1: not at all), and the share trail shown under it (none: the caption says it)."""

    state: VGroup
    title: VGroup
    shares: Shares
    state_region: Region
    zoom: float
    trail: VGroup
    steps: list
    stacked: bool  # the state over its shares (a narrow body): then s over the decoder's steps, in a row

    def whole(self) -> VGroup:
        return VGroup(self.title, self.state, *_block(self.shares))

    def below(self) -> list:
        """What the camera looks down at, largest first: the state over its shares, the shares alone."""
        return [VGroup(self.state, *_block(self.shares)), VGroup(*_block(self.shares))]


def _block(shares: Shares) -> list:
    """The shares block's parts: its title, words, empty bar slots and the room after them."""
    return [shares.title, shares.labels, shares.slots, *shares.spacers]


@dataclass(frozen=True)
class Kept:
    """The kept states h_1 … h_T as laid out: a row (or column) per word with .word, .name, .state, .text; how far
    the decoder's column narrows to give them room (1: not at all); whether the states show as shades."""

    rows: list
    room: float
    shaded: bool


@dataclass(frozen=True)
class Summary:
    """s on screen: its name and vector, and the frame around the vector."""

    group: VGroup  # name, vector
    frame: SurroundingRectangle
    notes: VGroup  # the arrows from every word, the brace and "all of the English must fit in here"


def _in_lines(parts, width: float, *, gap: float, line_gap: float, room_after: float = 0.0) -> list[list[int]]:
    """Move `parts` (as built) into left-aligned lines at most `width` wide, greedily, `gap` apart, the lines
    `line_gap` apart; each line but the last keeps `room_after` free after its last part (for the arrow that carries
    the reading on to the next line). Returns the parts' indices line by line."""
    lines, current, used = [], [], 0.0
    for i, part in enumerate(parts):
        needed = used + (gap if current else 0.0) + part.width
        if current and needed + room_after > width:
            lines.append(current)
            current, needed = [], part.width
        current.append(i)
        used = needed
    lines.append(current)
    rows = [VGroup(*(parts[i] for i in line)).arrange(RIGHT, buff=gap) for line in lines]
    VGroup(*rows).arrange(DOWN, buff=line_gap, aligned_edge=LEFT)
    return lines


def _return_corners(a, b, line_a, line_b, room: float) -> list:
    """The corners of the connector from `a`, the last part of `line_a`, on to `b`, the first part of the next line
    `line_b`: out of a's right side into the room the line keeps after it, down to halfway between the two lines,
    back along under the line to the left of b, and into b's left side, so a wrapped chain reads on as one."""
    out = a.get_right()[0] + room / 2
    back = b.get_left()[0] - room / 2
    between = (line_a.get_bottom()[1] + line_b.get_top()[1]) / 2
    start = a.get_right() + RIGHT * layout.HAIRLINE
    return [start, [out, start[1], 0.0], [out, between, 0.0], [back, between, 0.0], [back, b.get_center()[1], 0.0],
            b.get_left() + LEFT * layout.HAIRLINE]


def _polyline(corners: list, *, stroke_width: float) -> VGroup:
    """A link through `corners`, as straight lines (a path would fill its inside when the link is faded)."""
    return VGroup(*(Line(a, b, color=palette.MUTED, stroke_width=stroke_width) for a, b in zip(corners, corners[1:])))


def _line_of(parts, lines: list[list[int]], index: int) -> VGroup:
    """The parts of the line that holds part `index`."""
    return VGroup(*(parts[i] for i in next(line for line in lines if index in line)))


def decoder_caption(steps, language: str) -> tuple[str, str]:
    """The caption and narration as the decoder's steps come in: the French words it writes, each from s alone."""
    listed = ", ".join(steps)
    return (_("The decoder writes {words} one word at a time. Each step sees only s.").format(words=listed),
            _("The decoder then writes {words}, one word at a time, and every one of those steps sees only s, never "
              "the {language} words again.").format(words=listed, language=language))


def through_s_caption(first: str) -> tuple[str, str]:
    """The caption and narration that name the first English word, seen by the decoder only through s."""
    return (_("Whatever it writes, the decoder sees {word} only through s, mixed with every word after it.").format(
                word=quoted(first)),
            _("Whatever word it writes, the decoder sees {word} only through s, blended with every word that came "
              "after it.").format(word=quoted(first)))


#: The shortest arrow from s that reads as one (its tip and a shaft), with its gaps at both ends.
MIN_LINK = layout.APART


def links_from_s(frame, boxes: list, steps_in_lines: VGroup | None = None) -> VGroup:
    """An arrow from s (its frame) to each decoder step's box: across into steps that all stand right of s (a column
    beside it), else down into them (a row under s), as the chain was laid out. Steps in lines (`steps_in_lines`,
    the chain's boxes and links): one arrow down into a frame around them all, as arrows into the lower lines would
    cross the upper ones."""
    if steps_in_lines is not None:
        around = SurroundingRectangle(steps_in_lines, color=palette.CONTEXT, buff=layout.TIGHT, stroke_width=2,
                                      corner_radius=0.05)
        if frame.get_bottom()[1] - around.get_top()[1] < MIN_LINK:  # no room: the frame hangs from s's own
            return VGroup(around)
        return VGroup(Arrow(frame.get_bottom(), around.get_top(), buff=layout.TIGHT, color=palette.CONTEXT,
                            stroke_width=3, max_tip_length_to_length_ratio=0.25), around)
    beside = all(box.get_left()[0] > frame.get_right()[0] for box in boxes)
    start = frame.get_right() if beside else frame.get_bottom()
    return VGroup(*(Arrow(start, box.get_left() if beside else box.get_top(), buff=layout.TIGHT,
                          color=palette.CONTEXT, stroke_width=3, max_tip_length_to_length_ratio=0.07)
                    for box in boxes))


def kept_caption(first: str, share: str) -> tuple[str, str]:
    """The caption and narration once every state is kept: the first word, only `share` of s, is whole in h_1."""
    return (_("Nothing squeezed: {word}, a {share} share of s, is all there in h_1, and every step can look "
              "straight at it.").format(word=quoted(first), share=share),
            _("Nothing is squeezed: {word}, which was only a small share of s, is all there in h_1, and every "
              "decoder step can look straight at it.").format(word=quoted(first)))


def overwrite_caption(first: str, shares: list[str], fades: bool) -> tuple[str, str]:
    """The caption and narration as later words overwrite the state: the first word's share, shown at each step,
    fades (or, for another example, only changes)."""
    later = shares[1] if len(shares) > 1 else shares[0]
    for value in shares[2:]:
        later = _("{earlier}, then to {later}").format(earlier=later, later=value)
    if fades:
        caption = _("Each new word overwrites the same hidden state. {word} fades: its share goes {shares}.")
        narration = _("Each new word overwrites the same hidden state, and {word} fades: its share goes from "
                      "{first} to {later}.")
    else:
        caption = _("Each new word overwrites the same hidden state. {word} changes: its share goes {shares}.")
        narration = _("Each new word overwrites the same hidden state, and {word} changes: its share goes from "
                      "{first} to {later}.")
    return (caption.format(word=quoted(first), shares=" → ".join(shares)),
            narration.format(word=quoted(first), first=shares[0], later=later))


def summary_caption(last: str, size: int) -> str:
    """The caption once the last word is read: that state is s, and all of the source sentence must fit in it."""
    return n_("The state after {word} is the summary s. All of the {source} must fit in it: {size} number, however "
              "long the sentence.",
              "The state after {word} is the summary s. All of the {source} must fit in it: {size} numbers, however "
              "long the sentence.", size).format(word=quoted(last), source=source_language(), size=size)


def same_size_caption(words: int, size: int) -> tuple[str, str]:
    """The caption and narration that s has `size` numbers whatever the sentence's length (`words` here)."""
    count = count_word(words)
    return (n_("{count} word or many more: the same {size} numbers.",
               "{count} words or many more: the same {size} numbers.", words).format(count=count.capitalize(),
                                                                                    size=size),
            n_("Whether the sentence has {count} word or many more, s is always the same {size} numbers.",
               "Whether the sentence has {count} words or many more, s is always the same {size} numbers.",
               words).format(count=count, size=size))


class BottleneckScene(AttentionScene):
    scene_id = "bottleneck"

    def construct(self):
        self.src = Source("bottleneck")
        self.french = Source("teacher_forcing")
        self.tokens = list(self.src.get("tokens"))
        self.cell_width = shared_cell_width(self.src, ("hidden_states",), font_size=typography.NUMBER_SIZE)
        self.show_title()
        reading = self.encoder_reads_first_word()
        reading = self.later_words_overwrite(reading)
        chain = self._decoder_chain(reading.stacked)
        summary = self.squeeze_into_s(reading, chain)
        from_s = self.decoder_sees_only_s(reading, summary, chain)
        self.attention_keeps_every_h(reading, summary, chain, from_s)

    # --- beats ------------------------------------------------------------------------------------------------

    @beat
    def encoder_reads_first_word(self) -> Reading:
        """The encoder's one hidden state, after the first word, and what it is made of."""
        tokens = self.tokens
        size = self.src.get("hidden_size")
        words, in_lines = self._word_row()
        arrows = self._word_arrows(words, in_lines)
        picture, plan = compose(self._reading_forms(words, in_lines))
        self.say(n_("The encoder reads the {source} left to right, keeping one hidden state: {size} number.",
                    "The encoder reads the {source} left to right, keeping one hidden state: {size} numbers.",
                    size).format(source=source_language(), size=size),
                 narration=n_("The encoder reads the {source} from left to right. All it keeps is one hidden state, "
                              "a vector of {size} number.",
                              "The encoder reads the {source} from left to right. All it keeps is one hidden state, "
                              "a vector of {size} numbers.", size).format(source=source_language(), size=size),
                 subject=VGroup(words[0], picture.state))
        staging.hang_from_top(plan)  # running below the frame: from under the words down, the camera looks down
        state, state_title, shares, steps = picture.state, picture.title, picture.shares, picture.steps
        self.play(FadeIn(words[0]), run_time=0.5)
        reader = self._reader(words, 0)
        read_arrow = self._read_arrow(words, 0, state_title)
        self.play(Create(reader), GrowArrow(read_arrow), run_time=0.6)
        self.play(FadeIn(state), FadeIn(state_title), run_time=0.8)
        bars = self._share_bars(0, shares)
        first_share = format_value(self.src.value("first_token_share", 0), 2)
        self.say(_("After {word}, the state is all {word}: its share is {share}.").format(
                     word=quoted(tokens[0]), share=first_share),
                 narration=_("After the first word, {word}, the state holds nothing else: the share of {word} is "
                             "{share}.").format(word=quoted(tokens[0]), share=first_share), subject=bars.numbers[0])
        staging.look_at(self, plan, picture.below(), fading_in=[shares.title, shares.labels], run_time=0.5)
        self.play(GrowFromEdge(bars.bars, LEFT), FadeIn(bars.numbers), run_time=0.8)
        self._show_trail_step(steps, 0)
        self.wait(1.2)
        return Reading(words, arrows, reader, read_arrow, picture.state_region, picture.zoom, state, state_title,
                       shares, bars, picture.trail, steps, plan, in_lines, picture.stacked)

    @beat
    def later_words_overwrite(self, reading: Reading) -> Reading:
        """Each new word rewrites the same vector; the first word's share changes with it (it fades)."""
        tokens = self.tokens
        values = self.src.get("first_token_share").tolist()
        share = [format_value(v, 2) for v in values]
        fades = all(later <= earlier for earlier, later in zip(values, values[1:]))
        caption, narration = overwrite_caption(tokens[0], share, fades)
        # the words read, and the share trail (where the form has none, the caption itself says the shares)
        self.say(caption, narration=narration, subject=VGroup(reading.words, reading.trail))
        for t in range(1, len(tokens)):
            staging.look_back(self, reading.plan, fading_out=self._shares_shown(reading))
            state = self._state_vector(t).scale(reading.zoom).move_to(reading.state)
            title = self._state_title(t, reading.state_region, state, reading.zoom, crowded=reading.in_lines,
                                      stacked=reading.stacked)
            arrow = self._read_arrow(reading.words, t, title)  # to the title it reads into (it may wrap taller)
            reader = self._reader(reading.words, t)
            link = reading.word_arrows[t - 1]  # an arrow, or (at a line's end) the path on to the next line
            self.play(GrowArrow(link) if isinstance(link, Arrow) else Create(link), FadeIn(reading.words[t]),
                      ReplacementTransform(reading.reader, reader),
                      ReplacementTransform(reading.read_arrow, arrow), run_time=0.7)
            bars = self._share_bars(t, reading.shares)
            rewrite = [ReplacementTransform(reading.state, state), ReplacementTransform(reading.state_title, title)]
            # the state where the words are, then (running below the frame) down to its shares
            block = VGroup(*_block(reading.shares))
            staging.look_at(self, reading.plan, [VGroup(state, block), block], before=rewrite,
                            after=[ReplacementTransform(reading.bars, bars)], fading_in=self._shares_shown(reading),
                            run_time=1.1)
            reading = replace(reading, reader=reader, read_arrow=arrow, state=state, state_title=title, bars=bars)
            self._show_trail_step(reading.trail_steps, t)
            self.wait(1.2)
        self.wait(1.0)
        return reading

    @beat
    def squeeze_into_s(self, reading: Reading, chain: VGroup) -> Summary:
        """The last hidden state is the summary s: fixed length, whatever the sentence."""
        tokens = self.tokens
        size = self.src.get("hidden_size")
        self.say(summary_caption(tokens[-1], size), subject=reading.state)
        shown_trail = [FadeOut(VGroup(*reading.trail_steps))] if reading.trail_steps else []
        # the shares fade as the camera comes back to rest (a view left on them alone would show nothing)
        staging.look_back(self, reading.plan, FadeOut(reading.bars), FadeOut(reading.shares.title),
                          FadeOut(reading.shares.labels), *shown_trail, FadeOut(reading.reader),
                          FadeOut(reading.read_arrow), run_time=0.6)
        name = math("s", color=palette.CONTEXT, font_size=typography.HEADING_SIZE)
        name.move_to(reading.state_title)
        self.play(ReplacementTransform(reading.state_title, name), run_time=0.6)
        summary = VGroup(name, reading.state)
        summary.generate_target()
        stacked = reading.stacked  # the decoder's steps stand in a row under s, not beside it
        # stacked: the name over the vector's left end, clear of the arrows that come down from the words
        summary.target.arrange(DOWN if stacked else RIGHT, buff=layout.GAP, aligned_edge=LEFT if stacked else ORIGIN)
        place = self._left_of_chain(chain)
        if reading.in_lines:  # the English reaches into the body: s under it, room for the arrows
            place = Region(place.left, place.right, place.bottom, min(place.top, reading.words.get_bottom()[1] - layout.FAR))
        summary.target.move_to(place.center)
        self.play(MoveToTarget(summary), run_time=0.9)
        frame = SurroundingRectangle(reading.state, color=palette.CONTEXT, buff=layout.TIGHT, corner_radius=0.05)
        funnel = self._funnel(reading.words, frame, reading.in_lines)
        brace, all_of_it = self._fixed_notes(frame, stacked)
        self.play(LaggedStart(*(GrowArrow(a) for a in funnel), lag_ratio=0.25), run_time=1.2)
        self.play(Create(frame), FadeIn(brace), run_time=0.8)
        self.play(FadeIn(all_of_it, shift=LEFT * layout.NUDGE), run_time=0.6)
        self.wait(1.5)
        caption, narration = same_size_caption(len(tokens), size)
        self.say(caption, narration=narration, subject=summary)
        self.wait(1.5)
        return Summary(summary, frame, VGroup(funnel, brace, all_of_it))

    @beat
    def decoder_sees_only_s(self, reading: Reading, summary: Summary, chain: VGroup) -> VGroup:
        """Every French step is computed from s alone; the English words are out of reach."""
        steps = self._decoder_words()
        boxes = VGroup(*(chain.step(w) for w in steps))
        caption, narration = decoder_caption(steps, source_language())
        self.say(caption, narration=narration, subject=boxes)
        self.play(FadeOut(summary.notes), reading.words.animate.set_opacity(0.3),
                  reading.word_arrows.animate.set_opacity(0.3), run_time=0.6)
        self.play(LaggedStart(*(FadeIn(m) for m in chain), lag_ratio=0.15), run_time=1.2)
        in_lines = VGroup(*chain.submobjects[1:]) if getattr(chain, "in_lines", False) else None
        from_s = links_from_s(summary.frame, [chain.step(w) for w in steps], in_lines)
        self.play(LaggedStart(*(GrowArrow(m) if isinstance(m, Arrow) else Create(m) for m in from_s), lag_ratio=0.3),
                  run_time=1.5)
        self.wait(2.0)
        caption, narration = through_s_caption(self.tokens[0])
        self.say(caption, narration=narration, subject=VGroup(*boxes, reading.words[0]))
        self.play(*(Indicate(box[1], color=palette.FRENCH, scale_factor=1.3) for box in boxes),
                  Indicate(reading.words[0][1], color=palette.ENGLISH, scale_factor=1.3), run_time=1.2)
        self.wait(1.8)
        return from_s

    @beat
    def attention_keeps_every_h(self, reading: Reading, summary: Summary, chain: VGroup, from_s: VGroup) -> None:
        """The contrast: keep h_1 … h_T, and let every decoder step reach each of them."""
        tokens, steps = self.tokens, self._decoder_words()
        last = f"h_{len(tokens)}"
        kept, plan = compose(self._kept_forms(chain), self._left_of_chain(chain), pinned=[chain])
        rows = kept.rows
        self.play(FadeOut(from_s), FadeOut(summary.group), FadeOut(summary.frame), FadeOut(reading.word_arrows),
                  run_time=0.6)
        if kept.room < 1:  # long words: the decoder's column gave up width so the kept rows stay legible
            self.play(chain.animate.scale(kept.room, about_edge=RIGHT), run_time=0.6)
        # where the states as shades are larger than their room: the camera out over them, the words fading
        staging.out_over(self, plan, *(ReplacementTransform(w, row.word) for w, row in zip(reading.words, rows)),
                         instead=[FadeOut(reading.words)])
        title = staging.in_view(self, layout.fit_into(heading(_("With soft attention"), color=palette.WEIGHT),
                                                      layout.top_band()))
        self.say(_("Soft attention keeps every encoder state h_1 … {last} instead of just s.").format(last=last),
                 narration=_("Soft attention does something different: it keeps every encoder state, h_1 to {last}, "
                             "one per {source} word, instead of just s.").format(last=last, source=source_language()),
                 subject=title)  # the states come in under it (as shades, where the camera is out over them)
        self.play(*(FadeIn(VGroup(row.name, row.state)) for row in rows), FadeIn(title, shift=DOWN * layout.NUDGE),
                  run_time=0.8)
        self.wait(0.6)
        self.say(_("Each decoder step can reach all of them, not one squeezed summary."),
                 subject=chain)  # the decoder's steps (the links from each come with the cue)
        links = self._reach_every_state(chain, rows)
        self.wait(1.0)
        share = self._final_share_note()
        self.play(ReplacementTransform(title, share), run_time=0.6)
        caption, narration = kept_caption(tokens[0], format_value(self.src.value("first_token_share", len(tokens) - 1), 2))
        self.say(caption, narration=narration, subject=VGroup(share.number, rows[0].name))
        on_screen = id(rows[0].text) in {id(m) for m in self.get_mobject_family_members()}  # else faded out there
        self.play(*(line.animate.set_stroke(color=palette.ACCENT, width=L.lit_stroke) for w in steps
                    for line in links[w][:1]),
                  *(line.animate.set_stroke(opacity=0.35) for w in steps for line in links[w][1:]),
                  *([Indicate(rows[0].text, color=palette.ENGLISH, scale_factor=1.3)] if on_screen else []),
                  run_time=1.2)
        if kept.shaded:  # h_1's numbers, in close-up in place of its shades
            numbers = self._numbers_over(rows[0].state, column=chain.in_row)
            rows[0].state = staging.read_closely(self, plan, rows[0], rows[0].state, numbers, pinned=[share])
        self.wait(2.5)

    def _numbers_over(self, shades: VGroup, *, column: bool) -> VGroup:
        """h_1 with its numbers, laid as its `shades` are (a column over the decoder's row, else a row) and as wide,
        over them: what the close-up shows in their place."""
        numbers = self._state_vector(0, orientation="column", cell_width=self.cell_width) if column else \
            self._state_vector(0)
        return numbers.scale(shades.width / numbers.width).move_to(shades)

    def _final_share_note(self) -> VGroup:
        """The first word's share of s (after the last word), as a traced number, in the top band where the
        heading stood, placed for the view the camera now shows."""
        band = layout.top_band()
        note, _plan = compose(line_forms(_("first word's share of s:"), band.width, after=lambda: self.src.number(
            "first_token_share", len(self.tokens) - 1, font_size=typography.NUMBER_SIZE, color=palette.ACCENT),
            font_size=typography.LABEL_SIZE), band)
        note.number = note[-1]
        return staging.in_view(self, note)

    def _funnel(self, words: TokenRow, frame, in_lines: bool) -> VGroup:
        """An arrow from every English word down into s's frame, spread along its top edge left to right by where
        the words stand (in lines, a later word may stand further left)."""
        count = len(self.tokens)
        order = sorted(range(count), key=lambda i: words[i].get_center()[0])
        spread = [(order.index(i) + 1) / (count + 1) for i in range(count)]
        top_left = frame.get_corner(UP + LEFT)
        return VGroup(*(Arrow(self._word_foot(words, w, in_lines), top_left + RIGHT * frame.width * x,
                              buff=layout.TIGHT, color=palette.ENGLISH, stroke_width=3,
                              max_tip_length_to_length_ratio=0.06) for w, x in zip(words, spread)))

    def _fixed_notes(self, frame, stacked: bool) -> tuple[VGroup, VGroup]:
        """The brace under s's frame with "one vector, fixed length", and "all of the English must fit in here":
        stacked, each on lines as wide as the body, one under the other; else the brace's note under it and the
        other beside the frame."""
        size = self.src.get("hidden_size")
        fixed = n_("one vector, fixed length: {size} number", "one vector, fixed length: {size} numbers", size).format(
            size=size)
        must_fit = _("all of the {source} must fit in here").format(source=source_language())
        if stacked:
            width = layout.body().width
            brace = VGroup(Brace(frame, direction=DOWN, color=palette.CONTEXT))
            brace.add(wrapped(fixed, width, font_size=typography.SMALL_SIZE, color=palette.CONTEXT).next_to(
                brace, DOWN, buff=layout.TIGHT))
            all_of_it = wrapped(must_fit, width, font_size=typography.LABEL_SIZE)
            all_of_it.next_to(brace, DOWN, buff=layout.GAP)
        else:
            brace = caption_brace(frame, fixed, color=palette.CONTEXT)
            layout.keep_inside(brace[1], layout.body())  # a long note under s near the edge moves in along it
            all_of_it = label(must_fit, font_size=typography.LABEL_SIZE)
            all_of_it.next_to(frame, RIGHT, buff=layout.APART)
        layout.keep_inside(all_of_it, layout.body())
        return brace, all_of_it

    def _reach_every_state(self, chain: VGroup, kept: list[VGroup]) -> dict:
        """Step by step, a link from the decoder's step to every kept state; returns each step's links."""
        links = {}
        for w in self._decoder_words():
            step = chain.step(w)
            if chain.in_row:  # the steps under the kept states: up from each step to each state
                links[w] = VGroup(*(Line(step.get_top() + UP * layout.TIGHT, row.state.get_bottom() + DOWN * layout.TIGHT,
                                         color=palette.WEIGHT, stroke_width=3) for row in kept))
            else:
                links[w] = VGroup(*(Line(step.get_left() + LEFT * layout.TIGHT,
                                         row.state.get_right() + RIGHT * layout.TIGHT,
                                         color=palette.WEIGHT, stroke_width=3) for row in kept))
            if getattr(chain, "in_lines", False):  # links to a lower line pass behind the boxes of the upper one
                self.bring_to_back(*links[w])
            self.play(Indicate(step[1], color=palette.FRENCH, scale_factor=1.3),
                      LaggedStart(*(Create(line) for line in links[w]), lag_ratio=0.2), run_time=1.1)
            self.wait(0.5)
        return links

    # --- building blocks --------------------------------------------------------------------------------------

    def _reading_forms(self, words: TokenRow, in_lines: bool) -> list[Form]:
        """The reading picture in the frame, between the words and the share trail: side by side or stacked (the
        body's flow first), its shares in one column of words or in two (many words), or (stacked, where a long word
        leaves its bar no room beside it) each word over its bar; else (made for the camera) at its own size under
        the words, running below the frame, the trail left to the caption. The layout engine keeps the first that
        reads."""
        body, below_words = layout.body(), words.get_bottom()[1] - (layout.GAP if in_lines else layout.FAR)
        trail, steps = self._share_trail()
        region = Region(body.left, body.right, trail.get_top()[1] + layout.GAP, below_words)
        over = self._shares_in(region.split_rows(1, 1)[1], 1, stacked=True).slots[0].width <= layout.FAR
        arrangements = [(1, False), (2, False), *([(1, True), (2, True)] if over else [])]
        flows = [flow_forms(lambda stacked, shares_in=shares_in: self._reading_in_frame(
                     region, stacked, shares_in, (trail, steps), in_lines), body, whole=Picture.whole,
                     suffix=f", the shares in {shares_in[0]} column(s){', words over bars' if shares_in[1] else ''}",
                     wide_from=L.side_by_side) for shares_in in arrangements]
        # every arrangement in the body's flow first (words over bars only stacked)
        in_frame = [replace(pair[k], grow=False, region=region) for k in (0, 1) for pair in flows
                    if not (pair[k].name.startswith("side") and "over" in pair[k].name)]
        stacked = flows[0][0].name.startswith("stacked")  # below the frame: the frame's own flow after
        under = Region(body.left, body.right, body.bottom, words.get_bottom()[1] - layout.GAP)
        return [*in_frame, Form("running below the frame", lambda: self._reading_below(under, in_lines, stacked),
                                Picture.whole, region=under, grow=False, close_up=True)]

    def _reading_in_frame(self, region: Region, stacked: bool, shares_in: tuple, trail: tuple,
                          in_lines: bool) -> Picture:
        """The reading picture fitted into `region`: the state over its shares (`stacked`) or beside them, each in
        half the region, the shares as `shares_in` says (columns, words over bars); over the share trail (`trail`: the
        trail and its steps)."""
        state_region, shares_region = region.split_rows(1, 1) if stacked else region.split_columns(1, 1)
        state, state_title, shares = self._reading_picture(state_region, shares_region, shares_in, crowded=in_lines,
                                                           stacked=stacked)
        block = VGroup(*_block(shares))
        if stacked and VGroup(state_title, state).get_bottom()[1] < block.get_top()[1]:
            # the rows' halves too low for what they hold (many words): the state right over its shares
            block.next_to(VGroup(state_title, state), DOWN, buff=layout.APART)
        picture = VGroup(state_title, state, block)
        zoom = layout.fit_factor(picture, region)
        layout.fit_into(picture, region)
        return Picture(state, state_title, shares, state_region, zoom, *trail, stacked)

    def _reading_below(self, region: Region, in_lines: bool, stacked: bool) -> Picture:
        """The reading picture at its own size under the words, title over state over the shares in one column (no
        trail: the caption says the first word's shares)."""
        state = self._state_vector(0)
        zoom = layout.fit_factor(state, region)  # only a vector wider than the body shrinks
        state.scale(zoom)
        title = self._state_title(0, region, state, zoom, crowded=in_lines, stacked=True)
        shares = self._shares_in(region, 1, stacked=True)
        if shares.slots[0].width <= layout.FAR:  # a word too long to leave its bar room beside it: over its bar
            shares = self._shares_in(region, 1, over=True, stacked=True)
        block = VGroup(*_block(shares))
        layout.fit_into(block, Region(region.left, region.right, -config.frame_height, config.frame_height), grow=False)
        VGroup(title, state).next_to(region.top_edge(), DOWN, buff=0).set_x(region.center[0])
        block.next_to(state, DOWN, buff=layout.APART).set_x(region.center[0])
        return Picture(state, title, shares, region, zoom, VGroup(), [], stacked)

    @staticmethod
    def _shares_shown(reading: Reading) -> list:
        """The shares block as on screen (its title, words and the bars now): faded out while the camera is on the
        words, back in on the shares."""
        return [reading.shares.title, reading.shares.labels, reading.bars]

    def _show_trail_step(self, steps: list[VGroup], t: int) -> None:
        """Step t of the share trail, where the trail is shown."""
        if steps:
            self.play(FadeIn(steps[t], shift=RIGHT * layout.NUDGE) if t else FadeIn(steps[t]), run_time=0.5)

    def _reading_picture(self, state_region: Region, shares_region: Region, shares_in: tuple, *,
                         crowded: bool = False, stacked: bool) -> tuple[VGroup, VGroup, Shares]:
        """The hidden state after the first word (title over vector) in the left column and the share bars in the
        right one, their tops level with the vector's so an arrow from a word to the title passes over the bars."""
        state = self._state_vector(0)
        title = self._state_title(0, state_region, state, 1.0, crowded=crowded, stacked=stacked)
        VGroup(title, state).move_to(state_region.center)
        columns, over = shares_in
        shares = self._shares_in(shares_region, columns, over=over, stacked=stacked)
        if not stacked:  # side by side: level tops; stacked, each keeps its own row
            VGroup(shares.title, shares.labels, shares.slots, *shares.spacers).align_to(state, UP)
        return state, title, shares

    @staticmethod
    def _reader(words: TokenRow, t: int) -> SurroundingRectangle:
        """The box that marks the word the encoder is reading."""
        return SurroundingRectangle(words[t], color=palette.ACCENT, buff=layout.TIGHT, corner_radius=0.08)

    def _state_vector(self, t: int, **shape) -> VGroup:
        """Hidden state t, shaded on one scale for every state; by default with its numbers, its cells as wide as
        every state's widest number needs (so the vector never jumps); `shape` as `vector` takes it (a column, the
        cells as shades of one side)."""
        shape = shape or {"cell_width": self.cell_width}
        return vector(self.src, f"hidden_states.{t}", shading="diverging",
                      scale_to=float(self.src.get("hidden_states").abs().max()), **shape)

    def _state_title(self, t: int, region: Region, state: VGroup, zoom: float, *, crowded: bool,
                     stacked: bool) -> VGroup:
        """"hidden state after “word”" over `state`, scaled by `zoom` (in a narrow body, no further than the floor)."""
        words = _("hidden state after {word}").format(word=quoted(self.tokens[t]))
        if stacked:  # never scaled below the floor: wrapped to the width it then may take
            zoom = max(zoom, typography.MIN_FONT_SIZE / typography.LABEL_SIZE)
        title = (wrapped(words, region.width / zoom, font_size=typography.LABEL_SIZE) if stacked
                 else label(words, font_size=typography.LABEL_SIZE)).scale(zoom)
        layout.fit_into(title, region, center=False, grow=not crowded)  # the English in lines: room for the shares
        return title.next_to(state, UP, buff=layout.GAP * zoom)

    @staticmethod
    def _word_foot(words: TokenRow, word: VGroup, in_lines: bool):
        """Where an arrow from a word to s leaves it: its bottom, or (words in lines) under the last line, so an
        arrow from an upper line does not cross the words below it."""
        if not in_lines:
            return word.get_bottom()
        return [word.get_center()[0], words.get_bottom()[1], 0.0]

    @staticmethod
    def _word_arrows(words: TokenRow, in_lines: bool) -> VGroup:
        """The arrows that carry the state from word to word; at the end of a line (words in lines) it runs out of
        the line, into the room the line keeps for it, back under the line and into the next line's first word."""
        arrows = VGroup()
        for t, (a, b) in enumerate(zip(words[:-1], words[1:])):
            if in_lines and t + 1 in words.line_starts:
                corners = _return_corners(a, b, _line_of(words, words.lines, t), _line_of(words, words.lines, t + 1),
                                          words.gap)
                arrows.add(_polyline(corners, stroke_width=3))
            elif in_lines:  # words in lines stand closer: a link spans the gap (an
                # arrow's tip and stroke would shrink to nothing there), drawn as the path on to the next line is
                arrows.add(Line(a.get_right(), b.get_left(), buff=layout.HAIRLINE, color=palette.MUTED, stroke_width=3))
            else:
                arrows.add(flow_arrow(a, b))
        return arrows

    @staticmethod
    def _read_arrow(words: TokenRow, t: int, title: VGroup) -> Arrow:
        """From the word being read (in lines, the lines below it are not shown yet) to the state's title: its tip
        stops above the title (aimed at the title's top, a slanting arrow's tip came down onto its letters)."""
        return Arrow(words[t].get_bottom(), title.get_top() + UP * layout.TIGHT, buff=layout.NEAR, color=palette.ENGLISH,
                     stroke_width=3, max_tip_length_to_length_ratio=0.12)

    def _shares_in(self, region: Region, columns: int, *, over: bool = False, stacked: bool) -> Shares:
        """Word labels right-aligned, each beside an empty slot as long as a share of 1 may be (the region's width
        less the labels and the widest number), under one title; the whole block fitted into `region`. With two
        columns the words run down the left one, then the right one. `over`: each word over its slot instead."""
        labels = [label(w, font_size=typography.LABEL_SIZE, color=palette.ENGLISH) for w in self.tokens]
        widest_number = self.src.number("first_token_share", 0, decimals=2, font_size=typography.NUMBER_SIZE).width
        width = (region.width - layout.APART * (columns - 1)) / columns
        after = layout.APART if columns > 1 else 0.0  # two columns: room between a number and the next word
        if over:
            return self._shares_over(region, columns, labels, width - widest_number - after - layout.NEAR,
                                     widest_number + after)
        unit = width - max(m.width for m in labels) - widest_number - after - layout.NEAR * 2
        slots = [Rectangle(width=max(unit, layout.FAR), height=L.bar_height, stroke_width=0, fill_opacity=0)
                 for _ in labels]
        spacers = [Rectangle(width=widest_number + after, height=L.bar_height, stroke_width=0, fill_opacity=0)
                   for _ in labels]
        triples = [list(triple) for triple in zip(labels, slots, spacers)]
        rows = -(-len(labels) // columns)
        triples += [[VGroup(), VGroup(), VGroup()] for _ in range(rows * columns - len(triples))]
        cells = [m for r in range(rows) for c in range(columns) for m in triples[c * rows + r]]
        words = _("how much of each word the state still carries")
        title = (wrapped(words, region.width, font_size=typography.SMALL_SIZE, color=palette.MUTED)
                 if stacked else label(words, font_size=typography.SMALL_SIZE, color=palette.MUTED))
        spare = region.height - title.height - layout.GAP - rows * L.bar_height
        row_gap = min(max(spare / max(rows - 1, 1), layout.TIGHT), layout.NEAR)  # many words: rows closer
        VGroup(*cells).arrange_in_grid(rows=rows, cols=len(cells) // rows, col_alignments="rll" * columns,
                                       buff=(layout.NEAR, row_gap))
        block = VGroup(title, VGroup(*cells)).arrange(DOWN, buff=layout.GAP, aligned_edge=LEFT)
        block.move_to(region.center)
        return Shares(title, VGroup(*labels), VGroup(*slots), spacers)

    def _shares_over(self, region: Region, columns: int, labels: list, unit: float, spare: float) -> Shares:
        """The shares block with each word over its slot (`unit` long, `spare` after it for the number), the words
        down one column, then the next, under the wrapped title."""
        slots = [Rectangle(width=max(unit, layout.FAR), height=L.bar_height, stroke_width=0, fill_opacity=0)
                 for _ in labels]
        spacers = [Rectangle(width=spare, height=L.bar_height, stroke_width=0, fill_opacity=0) for _ in labels]
        units = [VGroup(name, VGroup(slot, spacer).arrange(RIGHT, buff=0)).arrange(DOWN, buff=layout.TIGHT,
                                                                                   aligned_edge=LEFT)
                 for name, slot, spacer in zip(labels, slots, spacers)]
        rows = -(-len(units) // columns)
        units += [VGroup() for _ in range(rows * columns - len(units))]
        cells = [units[c * rows + r] for r in range(rows) for c in range(columns)]
        VGroup(*cells).arrange_in_grid(rows=rows, cols=columns, col_alignments="l" * columns,
                                       buff=(layout.NEAR, layout.NEAR))
        title = wrapped(_("how much of each word the state still carries"), region.width,
                        font_size=typography.SMALL_SIZE, color=palette.MUTED)
        VGroup(title, VGroup(*cells)).arrange(DOWN, buff=layout.GAP, aligned_edge=LEFT).move_to(region.center)
        return Shares(title, VGroup(*labels), VGroup(*slots), spacers)

    def _share_bars(self, t: int, shares: Shares) -> VGroup:
        """One bar per word already read, length ∝ its share of hidden state t, with the traced share."""
        group, bars, numbers = VGroup(), VGroup(), VGroup()
        for i in range(t + 1):
            slot = shares.slots[i]
            share = self.src.value("influence", (t, i))
            bar = Rectangle(width=max(share * slot.width, layout.HAIRLINE), height=slot.height, stroke_width=0,
                            fill_color=palette.ENGLISH, fill_opacity=0.85)
            bar.align_to(slot, LEFT).match_y(slot)
            number = self.src.number("influence", (t, i), decimals=2, font_size=typography.NUMBER_SIZE)
            number.scale(slot.height / L.bar_height)  # shrunk with the block
            number.next_to(bar, RIGHT, buff=layout.NEAR * slot.height / L.bar_height)
            bars.add(bar)
            numbers.add(number)
        group.add(bars, numbers)
        group.bars, group.numbers = bars, numbers
        return group

    def _share_trail(self) -> tuple[VGroup, list[VGroup]]:
        """“I” share: 1.00 → 0.25 → 0.13, laid out whole along the bottom; step t is shown after word t. Where one
        row would not stay legible (many words, a narrow body), the steps in lines at the floor's size: the layout
        engine picks the first form that stays legible (to the floor)."""
        forms = [Form("one row", lambda: self._trail_steps(False), whole=lambda built: built[0]),
                 Form("in lines", lambda: self._trail_steps(True), whole=lambda built: built[0], grow=False)]
        (trail, steps), _ = compose(forms, layout.body())
        trail.to_edge(DOWN, buff=layout.MARGIN + layout.BOTTOM_BAND)
        return trail, steps

    def _trail_steps(self, in_lines: bool) -> tuple[VGroup, list[VGroup]]:
        """The share trail (`_share_trail`) in one row as built, or in lines at the floor's size (a long first word:
        its head on lines of its own, its number after)."""
        head = label(_("{word} share:").format(word=quoted(self.tokens[0])), font_size=typography.LABEL_SIZE,
                     color=palette.MUTED)
        first = self.src.number("first_token_share", 0, decimals=2, font_size=typography.NUMBER_SIZE)
        steps = [VGroup(head, first).arrange(RIGHT, buff=layout.NEAR)]
        for t in range(1, len(self.tokens)):
            arrow = label("→", font_size=typography.LABEL_SIZE, color=palette.MUTED)
            number = self.src.number("first_token_share", t, decimals=2, font_size=typography.NUMBER_SIZE)
            steps.append(VGroup(arrow, number).arrange(RIGHT, buff=layout.NEAR))
        trail = VGroup(*steps).arrange(RIGHT, buff=layout.NEAR)
        if not in_lines:
            return trail, steps
        body = layout.body()
        scale = floor_scale(trail)
        if steps[0].width > body.width / scale:  # a long first word: its head on lines of its own, number after
            head = wrapped(_("{word} share:").format(word=quoted(self.tokens[0])), body.width / scale,
                           font_size=typography.LABEL_SIZE,
                           color=palette.MUTED, line_gap=layout.TIGHT)
            last = head[-1] if isinstance(head, VGroup) else head
            first.next_to(last, RIGHT, buff=layout.NEAR)
            steps[0] = VGroup(head, first)
        _in_lines(steps, body.width / scale, gap=layout.NEAR, line_gap=layout.TIGHT)
        return VGroup(*steps).scale(scale), steps  # at the floor's size: the room above it is the picture's

    def _decoder_words(self) -> tuple[str, ...]:
        """The French words the decoder writes (the reference without its end token)."""
        return tuple(w for w in self.french.get("reference") if w != self.french.get("end_token"))

    def _decoder_chain(self, stacked: bool) -> VGroup:
        """start ↓ words ↓ end, down the right side of the body; chain.step(word) is a word's box. A narrow body
        (portrait, square) has no width beside s for that column: there the steps it writes stand in a row along the
        bottom (`_decoder_row`): where the reading picture was `stacked`. `chain.in_row` says which."""
        if stacked:
            return self._decoder_row()
        words = (self.french.get("start_token"), *self.french.get("reference"))
        boxes = [token_box(w, palette.FRENCH if w in self._decoder_words() else palette.MUTED) for w in words]
        body = layout.body()
        room = (body.height - sum(b.height for b in boxes)) / max(len(boxes) - 1, 1)
        column = VGroup(*boxes).arrange(DOWN, buff=max(min(L.chain_gap, room), layout.NEAR))
        links = [Line(a.get_bottom(), b.get_top(), buff=layout.HAIRLINE, color=palette.MUTED, stroke_width=2)
                 for a, b in zip(boxes[:-1], boxes[1:])]
        head = label(_("decoder"), font_size=typography.SMALL_SIZE, color=palette.MUTED)
        head.next_to(column, LEFT, buff=layout.GAP).align_to(column, DOWN)  # at the top it met the English words
        chain = VGroup(head, *[m for pair in zip(boxes, links + [VGroup()]) for m in pair])
        layout.fit_into(chain, body)
        chain.to_edge(RIGHT, buff=layout.MARGIN)
        by_word = dict(zip(words, boxes))
        chain.step = lambda w: by_word[w]
        chain.in_row = False
        return chain

    def _decoder_row(self) -> VGroup:
        """The decoder's steps left to right along the bottom of a narrow body, "decoder" under them; in lines at the
        floor's size when one row would not stay legible (many or long French words), `chain.in_lines` then set: the
        layout engine picks the first of the two forms that stays legible (to the floor)."""
        forms = [Form("one row", lambda: self._decoder_steps(False), grow=False)]
        if len(self._decoder_words()) > 1:
            forms.append(Form("in lines", lambda: self._decoder_steps(True), grow=False))
        chain, _ = compose(forms, layout.body())
        return chain.to_edge(DOWN, buff=layout.MARGIN + layout.BOTTOM_BAND)

    def _decoder_steps(self, in_lines: bool) -> VGroup:
        """The decoder's row (`_decoder_row`) in one row as built, or in lines at the floor's size."""
        boxes = [token_box(w, palette.FRENCH) for w in self._decoder_words()]
        row = VGroup(*boxes).arrange(RIGHT, buff=layout.GAP)
        body = layout.body()
        head = label(_("decoder"), font_size=typography.SMALL_SIZE, color=palette.MUTED)
        scale = floor_scale(VGroup(row, head))
        lines = (_in_lines(boxes, body.width / scale - layout.GAP / 2, gap=layout.GAP, line_gap=layout.GAP,
                           room_after=layout.GAP) if in_lines else [list(range(len(boxes)))])
        links = [self._decoder_link(boxes, t, lines) for t in range(len(boxes) - 1)]
        head.next_to(row, DOWN, buff=layout.TIGHT).align_to(row, LEFT)  # under it: the links come from above
        chain = VGroup(head, *[m for pair in zip(boxes, links + [VGroup()]) for m in pair])
        if in_lines:
            chain.scale(scale)
        by_word = dict(zip(self._decoder_words(), boxes))
        chain.step = lambda w: by_word[w]
        chain.in_lines = in_lines
        chain.in_row = True
        return chain

    @staticmethod
    def _decoder_link(boxes: list, t: int, lines: list[list[int]]) -> Line | VGroup:
        """The link from step t to step t + 1: between them in one line, else out of the end of step t's line, back
        under it and into the next line's first step."""
        a, b = boxes[t], boxes[t + 1]
        if any(t + 1 == line[0] for line in lines[1:]):
            corners = _return_corners(a, b, _line_of(boxes, lines, t), _line_of(boxes, lines, t + 1), layout.GAP)
            return _polyline(corners, stroke_width=2)
        return Line(a.get_right(), b.get_left(), buff=layout.HAIRLINE, color=palette.MUTED, stroke_width=2)

    @staticmethod
    def _left_of_chain(chain: VGroup) -> Region:
        """Where s and the kept states go: left of the decoder's column, or above its row in a narrow body."""
        body = layout.body()
        if chain.in_row:
            return Region(body.left, body.right, chain.get_top()[1] + layout.FAR, body.top)  # links run upright
        return Region(body.left, chain.get_left()[0] - L.link_room, body.bottom, body.top)

    def _word_row(self) -> tuple[TokenRow, bool]:
        """The English along the top band: in one row with room for the arrows between the words, else closer (never
        below NEAR), else in lines at the floor's size (many or long words); the layout engine picks the first that
        stays legible (to the floor). Returns the words and whether they stand in lines."""
        words, plan = compose(self._word_forms(), layout.top_band())
        in_lines = plan.form == "in lines"
        if in_lines:  # from the top of the frame down, centred with the room the paths take
            band, before = layout.top_band(), words.gap / 2  # the room the paths on to the next line take
            centring = before / 2  # the lines and that room centred together
            words.move_to(band.center).align_to(band.top_edge(), UP).shift(RIGHT * centring)
        return words, in_lines

    def _word_forms(self) -> list[Form]:
        """The forms of the English row: apart, closer, in lines (these may reach down into the body)."""
        one_row = [Form("one row", lambda: TokenRow(self.tokens, palette.ENGLISH, buff=L.word_gap)),
                   Form("one row, closer", lambda: TokenRow(self.tokens, palette.ENGLISH, buff=self._closer_gap()))]
        if len(self.tokens) == 1:
            return one_row
        band = layout.top_band()
        reaching = Region(band.left, band.right, layout.body().bottom, band.top)
        return [*one_row, Form("in lines", self._word_lines, region=reaching, grow=False)]

    def _closer_gap(self) -> float:
        """The gap that lets the words, at the floor's size, fill the top band's width (between NEAR and the
        arrows' room)."""
        words = TokenRow(self.tokens, palette.ENGLISH, buff=L.word_gap)
        at_floor = floor_scale(words)
        spare = layout.top_band().width / at_floor - sum(w.width for w in words)
        return max(min(L.word_gap, spare / max(len(words) - 1, 1)), layout.NEAR)

    def _word_lines(self) -> TokenRow:
        """Many (or long) words: in lines at the floor's size, as far apart as still keeps them in the top band (else
        closest, reaching into the body), each line keeping room at its end, under it and before the next for the
        arrow on to the next line's first word."""
        band = layout.top_band()
        scale = floor_scale(TokenRow(self.tokens, palette.ENGLISH))
        for gap in (layout.APART, layout.GAP, layout.NEAR):
            words = TokenRow(self.tokens, palette.ENGLISH, buff=gap)
            # room between the lines and before them for the path from a line's end on to the next line
            lines = _in_lines(words, band.width / scale - gap / 2, gap=gap, line_gap=layout.GAP, room_after=gap)
            if words.height * scale <= band.height:
                break
        words.scale(scale)
        words.gap = gap * scale
        words.lines = lines
        words.line_starts = {line[0] for line in lines[1:]}
        return words

    def _kept_columns(self, shaded: bool) -> list[VGroup]:
        """The kept states of a narrow body, side by side over the decoder's row: word over h_t over its state as a
        column, so a link from a step below reaches each state without crossing another."""
        columns = []
        boxes = [token_box(word, palette.ENGLISH) for word in self.tokens]
        side = max(box.height for box in boxes)  # shaded cells: one side for all, a word box's height
        for t, box in enumerate(boxes):
            name = math(f"h_{t + 1}", color=palette.TEXT, font_size=typography.BODY_SIZE + 6)
            # shaded: cells a word's height and no wider (their numbers' width would only push the words apart)
            state = (self._state_vector(t, orientation="column", show_values=False, cell_size=side) if shaded else
                     self._state_vector(t, orientation="column", cell_width=self.cell_width))
            column = VGroup(box, name, state).arrange(DOWN, buff=layout.NEAR)
            column.word, column.name, column.state, column.text = box, name, state, box[1]
            columns.append(column)
        VGroup(*columns).arrange(RIGHT, buff=layout.NEAR if shaded else layout.GAP, aligned_edge=UP)
        # every name and state level, whatever the word's box (a descender) or the name's digit (its height)
        top = min(column.state.get_top()[1] for column in columns)
        foot = min(column.name.get_bottom()[1] for column in columns)
        for column in columns:
            column.state.shift(UP * (top - column.state.get_top()[1]))
            column.name.shift(UP * (foot - column.name.get_bottom()[1]))
        return columns

    def _kept_forms(self, chain: VGroup) -> list[Form]:
        """The kept states, for the room left of the decoder's steps: with their numbers; with them, the decoder's
        column narrowed first (long words, beside it); as shades; in a narrow body, as shades under their words on
        tiers (`_tiered_forms`). The layout engine picks the first that reads (shades: the camera's rung)."""
        whole = lambda kept: VGroup(*kept.rows)  # noqa: E731
        forms = [Form("with numbers", lambda: Kept(self._kept_rows(chain.in_row), 1.0, False), whole)]
        room = self._chain_room(chain, VGroup(*self._kept_rows(chain.in_row)))
        if room < 1:
            left = chain.get_right()[0] - chain.width * room - L.link_room
            region = Region(layout.body().left, left, layout.body().bottom, layout.body().top)
            forms.append(Form("with numbers, the decoder narrower",
                              lambda: Kept(self._kept_rows(chain.in_row), room, False), whole, region=region))
        forms.append(Form("as shades", lambda: Kept(self._kept_rows(chain.in_row, shaded=True), 1.0, True), whole))
        return forms + (self._tiered_forms(whole) if chain.in_row else [])

    def _tiered_forms(self, whole) -> list[Form]:
        """A narrow body's kept states where the word boxes over them may not stay legible in one row (many words):
        each word as plain text over its own state, on alternate tiers (clear of the lines from higher tiers), a thin
        line down from each word to its state; a column per word (word, h_t, its shades), so a link from a step below
        reaches each state without crossing another. Named h_t, then without the names (the words name the states);
        on one tier, two, up to `L.most_tiers`, each word starting on each tier in turn (a long first word high up)."""
        words = [label(word, font_size=typography.LABEL_SIZE, color=palette.ENGLISH) for word in self.tokens]
        names = [math(f"h_{t + 1}", color=palette.TEXT, font_size=typography.LABEL_SIZE) for t in range(len(words))]
        side = max(token_box(word).height for word in self.tokens)  # a cell no taller than a word's box
        widths = [word.width for word in words]
        forms = []
        for named in (True, False):
            for tiers in range(1, min(len(words), L.most_tiers) + 1):
                for turn in range(tiers):
                    tier = [(t + turn) % tiers for t in range(len(words))]
                    pitch = self._tier_pitch(widths, tier)
                    if named:
                        pitch = max(pitch, max(name.width for name in names) + layout.NEAR)
                    build = (lambda tier=tier, pitch=pitch, named=named: Kept(self._tiered_columns(
                        words, names if named else None, tier, pitch, min(side, pitch - layout.NEAR)), 1.0, True))
                    forms.append(Form(f"on {tiers} tier(s), from tier {turn}{'' if named else ', unnamed'}", build,
                                      whole))
        return forms

    @staticmethod
    def _tier_pitch(widths: list[float], tier: list[int]) -> float:
        """How far apart the columns of `_kept_tiered` stand with words `widths` wide, word t on tier `tier[t]`: each
        word clear of the others on its tier, and of the line that comes down past it from a higher tier's word."""
        pitch = 0.0
        for i, width in enumerate(widths):
            for m in range(len(widths)):
                apart = abs(i - m)
                if m != i and tier[m] == tier[i]:
                    pitch = max(pitch, ((width + widths[m]) / 2 + layout.NEAR) / apart)
                elif tier[m] > tier[i]:  # m's line comes down past word i
                    pitch = max(pitch, (width / 2 + layout.TIGHT) / apart)
        return pitch

    def _tiered_columns(self, words: list, names: list | None, tier: list[int], pitch: float,
                        cell: float) -> list[VGroup]:
        """The columns of `_kept_tiered`, `pitch` apart, word t on tier `tier[t]` (tier 0 nearest the names, or without
        names the states)."""
        columns = []
        for t, word in enumerate(words):
            state = self._state_vector(t, orientation="column", show_values=False, cell_size=cell)
            state.move_to(RIGHT * pitch * t, aligned_edge=UP)
            name = names[t].copy().next_to(state, UP, buff=layout.NEAR) if names else VGroup()
            columns.append(VGroup(name, state))
        if names:  # the names level, whatever their digits' heights
            top = max(column[0].get_top()[1] for column in columns)
            for column in columns:
                column[0].shift(UP * (top - column[0].get_top()[1]))
        rise = max(word.height for word in words) + layout.TIGHT
        for t, (column, word) in enumerate(zip(columns, words)):
            name, state = column
            under = name if names else state  # what the word's line comes down to
            word = word.copy()
            word.next_to(under, UP, buff=layout.GAP)
            word.shift(UP * rise * tier[t])
            # a line down from each word to its column: from a higher tier, between the lower tiers' words
            tick = Line(word.get_bottom() + DOWN * layout.HAIRLINE, under.get_top() + UP * layout.HAIRLINE,
                        color=palette.MUTED, stroke_width=2)
            column.word, column.name, column.state = VGroup(word, tick), name, state
            column.text, column.under = word, under
            column.add_to_back(column.word)
        lowest = baseline_y(next(column.text for t, column in enumerate(columns) if tier[t] == min(tier)))
        for level in sorted(set(tier)):  # each tier's words on one baseline
            align_baselines([column.text for t, column in enumerate(columns) if tier[t] == level],
                            lowest + rise * (level - min(tier)))
        for column in columns:  # the lines reach each word where its baseline put it
            column.word[1].put_start_and_end_on(column.text.get_bottom() + DOWN * layout.HAIRLINE,
                                                column.under.get_top() + UP * layout.HAIRLINE)
        return columns

    def _chain_room(self, chain: VGroup, rows: VGroup) -> float:
        """How much the decoder's column must shrink (1: not at all) for `rows` to fit legibly left of it; never
        below what keeps the column's own words at the floor."""
        if chain.in_row:  # the row is not beside them
            return 1.0
        needed = rows.width * floor_scale(rows)  # as wide as the rows are at the floor
        width = chain.get_right()[0] - self._left_of_chain(chain).left - L.link_room - needed
        return min(1.0, max(width / chain.width, floor_scale(chain)))

    def _kept_rows(self, in_columns: bool, shaded: bool = False) -> list[VGroup]:
        """Rows "word  h_t  [vector]", one per English word, as built (not yet fitted). `shaded`: each vector as
        cells shaded by value (no numbers), a word's height, the rows closer: for more rows than fit with numbers."""
        if in_columns:  # over the decoder's row: a column per word
            return self._kept_columns(shaded)
        rows, cells = [], []
        for t, word in enumerate(self.tokens):
            box = token_box(word, palette.ENGLISH)
            name = math(f"h_{t + 1}", color=palette.TEXT, font_size=typography.BODY_SIZE + 6)
            state = self._state_vector(t, show_values=False, cell_size=box.height) if shaded else self._state_vector(t)
            row = VGroup(box, name, state)
            row.word, row.name, row.state, row.text = box, name, state, box[1]
            rows.append(row)
            cells += [box, name, state]
        VGroup(*cells).arrange_in_grid(rows=len(rows), cols=len(cells) // len(rows), col_alignments="rll",
                                       buff=(layout.GAP, layout.TIGHT if shaded else layout.NEAR))
        return rows
