"""Putting the pieces together: the post's eight stages as a pipeline, each with a small motif of its own
clip (drawn from the same attention_math examples) and the stage table's "what you gain" line, then the
checklist (post: "Putting the pieces together" and "Checklist").

The cards share the frame by construction (two rows of four regions); each motif is sized from the room its card
leaves, so the active example's 2 or 8 tokens and 1 to 4 heads give smaller or larger cells, never an overflow.
Words stay at the legibility floor: where they do not fit (a long sentence under the soft-attention bars) fewer of
them are shown, never smaller ones.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import (
    DL, DOWN, LEFT, RIGHT, UL, UP, Arrow, Create, DashedVMobject, FadeIn, FadeOut, LaggedStart, Mobject, Rectangle,
    RoundedRectangle, SurroundingRectangle, VGroup, VMobject, Write, interpolate_color,
)

from scenes.kit import (
    AttentionScene, NamedMatrix, Source, align_baselines, beat, flow_arrow, heading, heatmap, label, layout, math,
    palette, typography,
)
from scenes.kit.claims import count_word, top_index
from scenes.kit.layout import Region
from scenes.kit.translation import N_, _, listed, n_
from scenes.kit.widgets import TensorGrid


@dataclass(frozen=True)
class SummaryLayout:
    """The scene's own sizes: what the kit's named gaps do not cover."""

    card_pad: float = 0.1  # inside a card, between its frame and its text
    card_gap: float = 0.2  # between neighbouring cards: room for the arrow
    card_corner: float = 0.12
    min_card_width: float = 3.2  # a card narrower than this cannot hold its gain in three lines at the floor:
    #                              the frame takes as many columns of cards as leave each this wide (16:9: four)
    #                              on an equal share; a column whose words need more (a name is one word: "7
    #                              CausalSelfAttention") takes its floor, and the others share what is left
    min_card_height: float = 3.4  # and as many rows as leave each this tall (two); the cards that do not fit
    #                               at once come page after page (a portrait frame: two cards a page, one above
    #                               the other; a square one: two by two)
    max_cell: float = 0.27  # a mini map's cell never grows past this (a 2-token map stays a thumbnail)
    bar_fill: float = 0.45  # a soft-attention bar's share of its slot's width
    min_bar: float = 0.02  # a weight of 0 still shows as a sliver on the baseline
    module_pad: float = 0.17  # between a module's dashed box and the picture inside it
    module_arrow: float = 0.5  # length of the arrows into and out of a module
    module_dashes: int = 28


L = SummaryLayout()


@dataclass(frozen=True)
class Stage:
    """One box of the post's pipeline: its name, the subtitle under it, the table's gain and a motif."""

    name: str
    subtitle: tuple[tuple[str, str], ...]  # ("text", ...) / ("math", ...) pieces on one line
    gain: str | None  # the stage table's "What you gain" (None: the post has no row for it)
    motif: str  # name of the SummaryScene method that draws the motif
    packs: tuple[str, ...] = ()  # for the module stages: the names of the stages they package


# Names, subtitles, gains and checklist items are messages kept in English here (N_) and translated where they are
# shown (_), in the language of the run; a name also identifies the stages a module packs. "SelfAttention",
# "CausalSelfAttention" and "softmax" are code and math: they stay as they are in every language.
STAGES: tuple[Stage, ...] = (
    Stage(N_("Soft attention"), (("text", N_("encoder–decoder")),),
          N_("Weighted sum over a set of vectors, with learned coefficients"), "_motif_soft"),
    Stage(N_("Weight-free self-attn"), (("code", "softmax"), ("math", "X X^top dot X")),
          N_("Same computation inside one sequence; no new params"), "_motif_weight_free"),
    Stage(N_("Trainable Q, K, V"), (("code", "+"), ("math", "sqrt(d_k)"), ("text", N_("scale"))),
          N_("Separate projections for scoring and for the sum; stable softmax"), "_motif_qkv"),
    Stage("SelfAttention", (("text", N_("module")),), None, "_motif_self_attention_module",
          packs=("Trainable Q, K, V",)),
    Stage(N_("Causal mask"), (("text", N_("block future keys")),),
          N_("No access to future tokens; usable for next-token prediction"), "_motif_causal"),
    Stage(N_("Dropout"), (("text", N_("on")), ("math", "alpha")),
          N_("Regularization of the attention coefficients"), "_motif_dropout"),
    Stage("CausalSelfAttention", (("text", N_("masked + dropout")),), None, "_motif_causal_module",
          packs=("Causal mask", "Dropout")),
    Stage(N_("Multi-head"), (("text", N_("stack or split")),),
          N_("Several attention patterns in parallel"), "_motif_multihead"),
)

CHECKLIST: tuple[tuple[str, str | None], ...] = (
    (N_("Attention is score, normalize, weighted sum."), None),
    (N_("Self-attention applies that computation among tokens of the same sequence."), None),
    (N_("Trainable Q/K/V (and scaling) make the projections learnable and keep softmax numerically stable."), None),
    (N_("Causal masks enforce the autoregressive rule; dropout regularizes the mixing weights."), None),
    (N_("Multi-head attention is several causal heads concatenated, then multiplied by"), "W_O"),
)


def _corner(region: Region, direction) -> np.ndarray:
    """A corner of a region as a point (UL: top left, DL: bottom left)."""
    x = region.left if direction[0] < 0 else region.right
    y = region.top if direction[1] > 0 else region.bottom
    return np.array([x, y, 0.0])


@dataclass(frozen=True)
class Card:
    """One stage's card: its frame and the parts that appear one after the other, and the arrow from its left
    neighbour (None for the first card of a row)."""

    frame: RoundedRectangle
    head: VGroup
    subtitle: VGroup
    motif: Mobject
    gain: VGroup
    link: Arrow | None
    page: int = 0  # which screenful the card is shown on (every card is on page 0 where all fit at once)


class SummaryScene(AttentionScene):
    scene_id = "summary"

    def construct(self):
        self.numbered = list(enumerate(STAGES, start=1))
        self.show_title()
        cards = self.first_row_of_stages()
        self.second_row_of_stages(cards)
        self.checklist()

    # --- beats ------------------------------------------------------------------------------------------------

    @beat
    def first_row_of_stages(self) -> list[Card]:
        """Stages 1-4: from encoder-decoder soft attention to a self-attention module."""
        cards = self._pipeline()
        half = len(cards) // 2
        self._show_row(self.numbered[:half], cards[:half], page_before=0)
        return cards

    @beat
    def second_row_of_stages(self, cards: list[Card]):
        """Stages 5-8: hide the future, regularize the weights, run several heads."""
        half = len(cards) // 2
        self._show_row(self.numbered[half:], cards[half:], page_before=cards[half - 1].page)
        count = len(STAGES)
        caption = n_("{count} stage, one mechanism: score, normalize, weighted sum.",
                     "{count} stages, one mechanism: score, normalize, weighted sum.", count).format(
            count=count_word(count).capitalize())
        if cards[-1].page == 0:
            self.say(caption, subject=[card.head for card in cards[half:]])
        else:  # shown page after page: all the stages once more, as one pipeline of names
            self._turn_page()
            overview = self._overview()
            self.say(caption, subject=overview)
            self.play(LaggedStart(*(FadeIn(m, shift=DOWN * layout.NUDGE) for m in overview), lag_ratio=0.15),
                      run_time=1.5)
        self.wait(2.0)

    @beat
    def checklist(self):
        """The post's closing checklist, one line at a time."""
        head = heading(_("Checklist"))
        self.say(_("Checklist."), narration=_("The checklist."), subject=head)
        self.clear_stage()
        region = layout.page()
        lines = VGroup(*(self._check_line(_(text), tail, region.width) for text, tail in CHECKLIST))
        pages = self._check_pages(head, lines, region)
        for page, items in enumerate(pages):
            if page:  # the items so far leave; the next ones take their place under the heading
                self.play(*(FadeOut(line, shift=UP * layout.NUDGE) for line in pages[page - 1]), run_time=0.6)
            else:
                self.play(FadeIn(head, shift=DOWN * layout.NUDGE), run_time=0.6)
            for line in items:
                text, tail = CHECKLIST[list(lines).index(line)]
                self.say(_(text) + (f" {tail}." if tail else ""), subject=line)
                self.play(FadeIn(line[0], scale=1.4), FadeIn(line[1], shift=RIGHT * layout.NUDGE), run_time=0.8)
                self.wait(2.0)
        self.wait(1.5)

    @staticmethod
    def _check_pages(head: Mobject, lines: VGroup, region: Region) -> list[list[Mobject]]:
        """The checklist's items in pages under the heading: one page filling `region` where all fit at their size,
        else as many items a page as fit there at that size, each page's items where the first page's start."""
        lines.arrange(DOWN, buff=layout.GAP, aligned_edge=LEFT)
        whole = VGroup(head, lines).arrange(DOWN, buff=layout.APART, aligned_edge=LEFT)
        if whole.height <= region.height:
            layout.fit_into(whole, region)
            return [list(lines)]
        head.move_to(_corner(region, UL), aligned_edge=UL)
        room = head.get_bottom()[1] - layout.APART - region.bottom
        pages: list[list[Mobject]] = [[]]
        for line in lines:
            if pages[-1] and VGroup(*pages[-1], line).arrange(DOWN, buff=layout.GAP).height > room:
                pages.append([])
            pages[-1].append(line)
        for items in pages:
            VGroup(*items).arrange(DOWN, buff=layout.GAP, aligned_edge=LEFT).next_to(
                head, DOWN, buff=layout.APART, aligned_edge=LEFT)
        return pages

    # --- the pipeline -----------------------------------------------------------------------------------------

    def _show_row(self, numbered, cards: list[Card], *, page_before: int) -> None:
        """Each card of the row in turn, said; a card on another page than the one before turns the page."""
        for (number, stage), card in zip(numbered, cards):
            gain = self._gain(stage)
            here = self._here(stage)
            name = _(stage.name)
            self.say(_("{number}. {name}: {gain}{here}.").format(number=number, name=name, gain=gain, here=here),
                     narration=_("Stage {number}, {name}: {gain}{here}.").format(
                         number=number, name=name, gain=gain[0].lower() + gain[1:], here=here),
                     subject=card.head)
            if card.page != page_before:
                self._turn_page()
                page_before = card.page
            self.play(Create(card.frame), FadeIn(card.head), FadeIn(card.subtitle), run_time=0.6)
            if card.link is not None:
                self.play(Create(card.link), run_time=0.3)
            self.play(LaggedStart(*(FadeIn(m) for m in card.motif), lag_ratio=0.05), run_time=0.9)
            self.play(Write(card.gain), run_time=0.8)
            self.wait(1.2)

    def _gain(self, stage: Stage) -> str:
        """The table's gain line; module stages say which stages they package (numbers from the enumeration)."""
        if stage.gain is not None:
            return _(stage.gain)
        numbers = [number for number, s in self.numbered if s.name in stage.packs]
        return n_("Stage {numbers} as one compact module", "Stages {numbers} as one compact module",
                  len(numbers)).format(numbers=listed([str(n) for n in numbers]))

    @staticmethod
    def _here(stage: Stage) -> str:
        """What the motif of this example shows where the table speaks in general (how many heads it has)."""
        if stage.motif != "_motif_multihead":
            return ""
        n = Source("multihead").get("n_heads")
        return n_(" (this example has {count} head)", " (this example has {count} heads)", n).format(
            count=count_word(n))

    def _pipeline(self) -> list[Card]:
        """Two rows of cards sharing the frame; every card's gain text starts at one height, so the motifs above
        them get equal room; small arrows join neighbours in a row."""
        across, down = self._grid()
        widths = self._column_widths(across)
        rows = layout.frame().split_rows(*([1] * down), gap=layout.GAP)
        page = [cell for row in rows for cell in row.split_columns(*widths, gap=L.card_gap)]
        regions = [page[i % len(page)] for i in range(len(self.numbered))]
        inner = [layout.inset(region, L.card_pad) for region in regions]
        gains = [self._wrapped(self._gain(stage), box.width) for (_number, stage), box in zip(self.numbered, inner)]
        band = max(g.height for g in gains)
        cards: list[Card] = []
        for (number, stage), region, box, gain in zip(self.numbered, regions, inner, gains):
            frame = RoundedRectangle(corner_radius=L.card_corner, width=region.width, height=region.height,
                                     stroke_color=palette.MUTED, stroke_width=2, fill_color=palette.BACKGROUND,
                                     fill_opacity=1).move_to(region.center)
            num = label(str(number), font_size=typography.MIN_FONT_SIZE, color=palette.MUTED, bold=True)
            # a name too long for the card at the floor ("Weight-free self-attn") wraps onto a second line
            name = self._wrapped(_(stage.name), box.width - num.width - layout.TIGHT, bold=True)
            head = VGroup(num, name).arrange(RIGHT, buff=layout.TIGHT, aligned_edge=UP)
            align_baselines([num, name[0]])
            head.move_to(_corner(box, UL), aligned_edge=UL)
            subtitle = self._subtitles()[number - 1]
            subtitle.next_to(head, DOWN, buff=layout.TIGHT).align_to(head, LEFT)
            gain.move_to(_corner(box, DL) + UP * band, aligned_edge=UL)
            room = Region(box.left, box.right, box.bottom + band + layout.NEAR,
                          subtitle.get_bottom()[1] - layout.NEAR)
            motif = getattr(self, stage.motif)(room)
            layout.fit_into(motif, room)
            link = None
            index = len(cards)
            if index % len(page) and index % across:  # a neighbour on its left, in the same row of the page
                link = flow_arrow(cards[-1].frame, frame, buff=layout.HAIRLINE)
            elif index % len(page) and across == 1:  # one card a row: the one above it
                link = flow_arrow(cards[-1].frame, frame, buff=layout.HAIRLINE, down=True)
            cards.append(Card(frame, head, subtitle, motif, gain, link, page=index // len(page)))
        return cards

    def _grid(self) -> tuple[int, int]:
        """Columns and rows of cards on one page: as many as leave each card its minimum size (at least one), and
        each column at least the width its cards' words need (`_column_floors`)."""
        whole = layout.frame()

        def fits(count: int, length: float, gap: float, minimum: float) -> bool:
            return (length - gap * (count - 1)) / count >= minimum

        def words_fit(count: int) -> bool:
            return sum(self._column_floors(count)) + L.card_gap * (count - 1) <= whole.width

        across = max([n for n in range(1, len(STAGES) + 1)
                      if fits(n, whole.width, L.card_gap, L.min_card_width) and words_fit(n)], default=1)
        down = max([n for n in range(1, len(STAGES) + 1) if fits(n, whole.height, layout.GAP, L.min_card_height)],
                   default=1)
        return across, down

    def _card_floor(self, number: int, stage: Stage) -> float:
        """The narrowest card that holds this stage's words at the floor, its padding included: the number and the
        name's longest word in bold side by side, the subtitle (one line), the gain line's longest word. A word
        cannot wrap: a card narrower than this lets it run past its frame."""
        size = typography.MIN_FONT_SIZE
        num = label(str(number), font_size=size, bold=True)
        name = max(label(word, font_size=size, bold=True).width for word in _(stage.name).split(" "))
        gain = max(label(word, font_size=size).width for word in self._gain(stage).split(" "))
        subtitle = self._subtitles()[number - 1].width
        return max(num.width + layout.TIGHT + name, subtitle, gain) + 2 * L.card_pad

    def _subtitles(self) -> list[VGroup]:
        """Every stage's subtitle, built once a run: the one measured for its card's floor is the one drawn (a
        formula built twice comes the second time from manim's SVG cache, drawn a few pixels differently)."""
        if not hasattr(self, "_built_subtitles"):
            self._built_subtitles = [self._subtitle(stage.subtitle) for _number, stage in self.numbered]
        return self._built_subtitles

    def _column_floors(self, across: int) -> list[float]:
        """Each of `across` columns' narrowest width: its widest card's floor (the cards fill a page's rows left to
        right, page after page, so card i is in column i mod across)."""
        if not hasattr(self, "_card_floors"):  # measured once a run: words in labels take a Typst compile each
            self._card_floors = [self._card_floor(number, stage) for number, stage in self.numbered]
        floors = [0.0] * across
        for index, floor in enumerate(self._card_floors):
            floors[index % across] = max(floors[index % across], floor)
        return floors

    def _column_widths(self, across: int) -> list[float]:
        """The columns' widths as weights for `split_columns`: equal, except that a column whose floor is more than
        an equal share gets its floor and the others share what is left equally (1 each where all are equal)."""
        floors = self._column_floors(across)
        usable = layout.frame().width - L.card_gap * (across - 1)
        fixed: set[int] = set()
        while True:
            share = (usable - sum(floors[i] for i in fixed)) / (across - len(fixed))
            wider = {i for i in range(across) if i not in fixed and floors[i] > share}
            if not wider:
                break
            fixed |= wider
        return [floors[i] / share if i in fixed else 1.0 for i in range(across)]

    def _turn_page(self) -> None:
        """Before a card of a new page, or the closing overview: the cards shown so far leave."""
        shown = [m for m in self.mobjects if m is not self.camera.frame]
        if shown:
            self.play(*(FadeOut(m, shift=UP * layout.NUDGE) for m in shown), run_time=0.6)

    def _overview(self) -> VGroup:
        """Every stage's number and name, one under the other, joined by arrows: the pipeline in one screen."""
        names = VGroup()
        for number, stage in self.numbered:
            num = label(str(number), font_size=typography.MIN_FONT_SIZE, color=palette.MUTED, bold=True)
            name = label(_(stage.name), font_size=typography.MIN_FONT_SIZE, bold=True)
            names.add(VGroup(num, name).arrange(RIGHT, buff=layout.TIGHT))
            align_baselines([num, name])
        names.arrange(DOWN, buff=layout.APART)
        layout.fit_into(names, layout.frame())
        arrows = [flow_arrow(a, b, buff=layout.TIGHT, down=True) for a, b in zip(names, names[1:])]
        steps = [names[0]]
        for arrow, name in zip(arrows, names[1:]):
            steps += [arrow, name]
        return VGroup(*steps)

    def _subtitle(self, pieces) -> VGroup:
        """A stage's subtitle: words ("text", a message), code kept as it is ("code") and math, on one line."""
        parts = [label(_(text) if kind == "text" else text, font_size=typography.MIN_FONT_SIZE, color=palette.MUTED)
                 if kind != "math" else math(text, font_size=typography.MIN_FONT_SIZE, color=palette.MUTED)
                 for kind, text in pieces]
        group = VGroup(*parts).arrange(RIGHT, buff=layout.TIGHT)
        align_baselines([p for p, (kind, _text) in zip(parts, pieces) if kind != "math"] or parts[:1])
        return group

    @staticmethod
    def _wrapped(text: str, max_width: float, font_size: float = typography.MIN_FONT_SIZE, *,
                 bold: bool = False) -> VGroup:
        """Greedy word wrap into lines no wider than max_width, at `font_size` (default: the smallest legible)."""
        lines, current = [], ""
        for word in text.split(" "):  # a no-break space (French "mot :") keeps its words on one line
            trial = f"{current} {word}".strip()
            if current and label(trial, font_size=font_size, bold=bold).width > max_width:
                lines.append(current)
                current = word
            else:
                current = trial
        lines.append(current)
        group = VGroup(*(label(line, font_size=font_size, bold=bold) for line in lines))
        return group.arrange(DOWN, buff=layout.TIGHT, aligned_edge=LEFT)

    def _check_line(self, text: str, tail: str | None, width: float) -> VGroup:
        """✓ and the item, wrapped to the frame; a math tail (W_O) follows the last word, then the full stop."""
        mark = label("✓", font_size=typography.BODY_SIZE, color=palette.RIGHT)
        room = width - mark.width - layout.GAP
        body = self._wrapped(text, room, font_size=typography.BODY_SIZE)
        if tail is not None:
            last = body[-1]
            symbol = math(tail, font_size=typography.BODY_SIZE + 4).next_to(last, RIGHT, buff=layout.TIGHT)
            stop = label(".", font_size=typography.BODY_SIZE).next_to(symbol, RIGHT, buff=layout.HAIRLINE)
            align_baselines([last, stop])
            if stop.get_right()[0] - body.get_left()[0] > room:  # no room after the last word: a line of its own
                VGroup(symbol, stop).next_to(last, DOWN, buff=layout.TIGHT, aligned_edge=LEFT)
                body.add(VGroup(symbol, stop))
            else:
                body.submobjects[-1] = VGroup(last, symbol, stop)
        line = VGroup(mark, body).arrange(RIGHT, buff=layout.GAP, aligned_edge=UP)
        align_baselines([body[0], mark])
        return line

    # --- motifs: each a miniature of its stage's clip, from the same examples, sized to its card's room ---------

    def _motif_soft(self, room: Region) -> VGroup:
        """Soft attention's weights over the English words as bars; every word named when they fit at the
        legibility floor, else only the one with the largest weight."""
        src = Source("coffee")
        tokens, weights = src.get("tokens"), [float(w) for w in src.get("weights")]
        words = [label(w, font_size=typography.MIN_FONT_SIZE, color=palette.ENGLISH) for w in tokens]
        slot = room.width / len(tokens)
        named = range(len(tokens)) if all(w.width + layout.TIGHT <= slot for w in words) else \
            [i for i in [top_index(weights)] if i is not None]
        tallest = room.height - max(w.height for w in words) - layout.TIGHT
        bars = VGroup(*(Rectangle(width=slot * L.bar_fill, height=max(w * tallest, L.min_bar), stroke_width=0,
                                  fill_color=palette.WEIGHT, fill_opacity=0.9) for w in weights))
        bars.arrange(RIGHT, buff=slot * (1 - L.bar_fill), aligned_edge=DOWN)
        shown = VGroup(*(words[i].next_to(bars[i], DOWN, buff=layout.TIGHT) for i in named))
        align_baselines(list(shown))
        for word in shown:  # a long word under an end bar stays within the bars' width
            layout.keep_inside(word, Region(bars.get_left()[0], bars.get_right()[0], word.get_bottom()[1],
                                            word.get_top()[1]))
        return VGroup(bars, shown)

    def _motif_weight_free(self, room: Region) -> VGroup:
        """The weight-free softmax(X Xᵀ) heat map over the example's sentence."""
        return self._mini_map(Source("rain"), "weights", room)

    def _motif_qkv(self, room: Region) -> VGroup:
        """Q, K and V of the example's sentence as coloured blocks, shade ∝ |value|, each named above its block or,
        where that leaves larger cells, beside it (a short room: in French, card 3's name takes two lines and the
        gains four, which left the blocks 4 px cells under their names)."""
        src = Source("qkv")
        rows, cols = src.shape("Q")
        roles = ("Q", "K", "V")
        names = [math(role, font_size=typography.SMALL_SIZE) for role in roles]
        across = room.width - (len(roles) - 1) * layout.GAP
        named_above = min(L.max_cell, across / (len(roles) * cols),
                          (room.height - max(n.height for n in names) - layout.NEAR) / rows)
        named_beside = min(L.max_cell, (across - sum(n.width + layout.TIGHT for n in names)) / (len(roles) * cols),
                           room.height / rows)
        beside = named_beside > named_above
        cell = max(named_above, named_beside)
        blocks = VGroup()
        for role in roles:
            grid = heatmap(src, role, show_values=False, cell_size=cell, cell_width=cell)
            values = src.get(role)
            scale = float(values.abs().max()) or 1.0
            color = palette.ROLE_COLORS[role]
            for r in range(rows):
                for c in range(cols):
                    grid.cell(r, c)[0].set_fill(interpolate_color(palette.ZERO, color,
                                                                  abs(float(values[r, c])) / scale))
            block = NamedMatrix(grid, role, shape=False, color=color, font_size=typography.SMALL_SIZE)
            if beside:
                block.name.next_to(grid.body, LEFT, buff=layout.TIGHT)
            blocks.add(block)
        return blocks.arrange(RIGHT, buff=layout.GAP, aligned_edge=UP)

    def _motif_self_attention_module(self, room: Region) -> VGroup:
        """The Q/K/V weights heat map inside a module box."""
        return self._module(lambda inner: self._mini_map(Source("qkv"), "weights", inner), room)

    def _motif_causal(self, room: Region) -> VGroup:
        """The causal weights: future cells masked."""
        return self._mini_map(Source("causal"), "weights", room, masked=True)

    def _motif_dropout(self, room: Region) -> VGroup:
        """The causal weights after dropout: dropped cells marked."""
        return self._dropout_map(room)

    def _motif_causal_module(self, room: Region) -> VGroup:
        """Mask and dropout together inside a module box."""
        return self._module(self._dropout_map, room)

    def _motif_multihead(self, room: Region) -> VGroup:
        """Every head's causal weight pattern, framed in its head's tint, in one row or (for four) two by two,
        whichever gives the larger cells; the count below."""
        src = Source("multihead")
        n = src.get("n_heads")
        count = label(n_("{count} head", "{count} heads", n).format(count=count_word(n)),
                      font_size=typography.MIN_FONT_SIZE, color=palette.MUTED)
        tokens = src.shape("mask")[0]

        def cell_for(down: int) -> float:
            """The cell size `down` rows of heads allow (heads fill the rows left to right)."""
            across = -(-n // down)
            width = (room.width - (across - 1) * layout.NEAR) / across
            height = (room.height - count.height - layout.TIGHT - (down - 1) * layout.NEAR) / down
            return min(L.max_cell, width / tokens, height / tokens)

        down = max(range(1, n + 1), key=cell_for)  # one row for few heads, two by two for four
        across, cell = -(-n // down), cell_for(down)
        square = Region(0, cell * tokens, 0, cell * tokens)
        heads = VGroup()
        for h in range(n):
            amap = self._mini_map(src, f"weights.{h}", square, masked=True)
            frame = Rectangle(width=amap.width, height=amap.height, stroke_color=palette.HEAD_TINTS[h],
                              stroke_width=2).move_to(amap)
            heads.add(VGroup(amap, frame))
        heads.arrange_in_grid(rows=down, cols=across, buff=layout.NEAR)
        count.next_to(heads, DOWN, buff=layout.TIGHT)
        return VGroup(heads, count)

    def _dropout_map(self, room: Region) -> VGroup:
        src = Source("dropout")
        dropped = {tuple(p) for p in src.get("dropped_positions")}
        return self._mini_map(src, "dropped_weights", room, masked=True, dropped=dropped)

    def _mini_map(self, src: Source, path: str, room: Region, masked: bool = False,
                  dropped=frozenset()) -> VGroup:
        """A value-free heat map as large as `room` allows (up to a thumbnail's cell): violet by weight, masked
        cells dim with the staircase between seen and hidden, dropped cells dark red."""
        rows, cols = src.shape(path)
        cell = min(L.max_cell, room.width / cols, room.height / rows)
        grid = heatmap(src, path, show_values=False, cell_size=cell, cell_width=cell)
        mask = src.get("mask") if masked else None
        for r in range(rows):
            for c in range(cols):
                if mask is not None and bool(mask[r][c]):
                    grid.cell(r, c)[0].set_fill(palette.MASKED, opacity=1)
                elif (r, c) in dropped:
                    grid.cell(r, c)[0].set_fill(palette.DROPPED, opacity=1)
        if mask is None:
            return VGroup(grid)
        return VGroup(grid, self._mask_boundary(grid, mask))

    @staticmethod
    def _mask_boundary(grid: TensorGrid, masked) -> VMobject:
        """The staircase between visible and masked cells, so the hidden triangle reads at a glance."""
        points = []
        for r, row in enumerate(masked.tolist()):
            first = row.index(True) if True in row else len(row)
            x = grid.cell(r, first).get_left()[0] if first < len(row) else grid.cell(r, len(row) - 1).get_right()[0]
            points.append([x, grid.cell(r, 0).get_top()[1], 0])
            if first < len(row):
                points.append([x, grid.cell(r, 0).get_bottom()[1], 0])
        return VMobject(stroke_color=palette.TEXT, stroke_width=2).set_points_as_corners(points)

    @staticmethod
    def _module(build, room: Region) -> VGroup:
        """A dashed block around the inner picture, with an arrow in and an arrow out: one reusable module. The
        picture is built for the room the box and arrows leave."""
        inner_room = Region(room.left + L.module_arrow + L.module_pad, room.right - L.module_arrow - L.module_pad,
                            room.bottom + L.module_pad, room.top - L.module_pad)
        inner = build(inner_room)
        box = SurroundingRectangle(inner, buff=L.module_pad, corner_radius=L.card_corner, color=palette.MUTED,
                                   stroke_width=2)
        dashed = DashedVMobject(box, num_dashes=L.module_dashes)
        into = Arrow(box.get_left() + LEFT * L.module_arrow, box.get_left(), buff=layout.HAIRLINE,
                     color=palette.MUTED, stroke_width=3, max_tip_length_to_length_ratio=0.35)
        out = Arrow(box.get_right(), box.get_right() + RIGHT * L.module_arrow, buff=layout.HAIRLINE,
                    color=palette.MUTED, stroke_width=3, max_tip_length_to_length_ratio=0.35)
        return VGroup(inner, dashed, into, out)
