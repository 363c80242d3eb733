"""A learned alignment: the weights a trained model really puts on the English words while it writes French.

Follows "Soft attention: use every encoder vector, not one summary", the part "Here is what training actually
does": the post shows an illustrative 0.05 / 0.10 / 0.85; here a small GRU encoder–decoder with soft attention,
trained on the CPU on the project's English→French corpus, shows what training produces for the example's
sentence, how the alignment sharpened while it trained, and whether the weights cross when the word order differs.
Every claim a caption makes (which word a row looks at, how sharp it is, whether links cross) is computed from the
weights by scenes.kit.alignment_claims.
"""

from __future__ import annotations

from dataclasses import dataclass

from manim import (
    DOWN, LEFT, RIGHT, UP, Arrow, Create, FadeIn, FadeOut, FadeTransform, LaggedStart, Line, Mobject,
    Rectangle, ReplacementTransform, VGroup,
)

from attention_math.learned import corpus
from scenes.kit import (
    AttentionScene, Source, TokenRow, beat, flow_arrow, format_value, frame_box, heatmap, label, layout, palette,
    staging, typography,
)
from scenes.kit.text import align_baselines
from scenes.kit import alignment_claims as claims
from scenes.kit import motion
from scenes.kit.attention_map import AttentionMap, flat_if_short
from scenes.kit.compose import Form, compose
from scenes.kit.forms import flow_forms, map_style_forms
from scenes.kit.claims import top_index
from scenes.kit.translation import N_, _, n_, quoted

#: The trained translator's languages: its corpus's two columns (attention_math.learned.corpus), whatever the example.
SOURCE, TARGET = corpus.SOURCE_LANGUAGE, corpus.TARGET_LANGUAGE


def source() -> str:
    """The corpus's source language, named in the language of the run."""
    return _(SOURCE)


def target() -> str:
    """The corpus's target language, named in the language of the run."""
    return _(TARGET)


@dataclass(frozen=True)
class LearnedAlignmentLayout:
    """The scene's own sizes: what the kit's named gaps do not cover."""

    link_gap: float = 2.2  # height between the English and French rows of the link diagram (room for crossings)
    link_stroke: float = 6.0  # stroke width of a link of weight 1
    link_row_lag: float = 0.3  # how much one French word's links start after the previous word's
    arrow_buff: float = 0.15  # room between a stage of the model chain and its arrow
    side_link_gap: float = 1.2  # width between the English and French columns of the link diagram stood upright
    most_lines: int = 3  # the most lines a sentence or a note is broken into


L = LearnedAlignmentLayout()


def _words(tokens) -> str:
    return " ".join(tokens)


def _down_arrow(upper: Mobject, lower: Mobject) -> Arrow:
    """The flow arrow of a stacked chain: straight down from the middle of one stage to the next (the kit's
    `flow_arrow` goes sideways when the two centres are not exactly above each other)."""
    return Arrow(upper.get_bottom(), lower.get_top(), buff=L.arrow_buff, color=palette.MUTED, stroke_width=3,
                 max_tip_length_to_length_ratio=0.15)


def cell_stroke(cell: Mobject, link: Line) -> Line:
    """A link's stroke laid along the foot of its weight's cell: where the link starts its journey (under the
    number, so the number stays readable while the stroke waits its turn)."""
    return Line(cell.get_corner(DOWN + LEFT), cell.get_corner(DOWN + RIGHT), stroke_color=link.get_stroke_color(),
                stroke_width=link.get_stroke_width(), stroke_opacity=link.get_stroke_opacity())


def cell_width(cols, font_size) -> float:
    """Wide enough for the widest column word (so neighbouring words never touch) and for a number."""
    widest = max(label(w, font_size=font_size).width for w in cols)
    return max(typography.CELL, widest + layout.NEAR)


# --- captions ------------------------------------------------------------------------------------------------
def against_the_corpus(reference, french) -> str:
    """How the model's French compares with the corpus's (which may not have the sentence at all)."""
    if reference is None:
        return _(". The sentence is not in its training corpus.")
    if tuple(reference) == tuple(french):
        return _(": the corpus's own translation.")
    return _("; the corpus says {sentence}.").format(sentence=quoted(_words(reference)))


def english_words(cols) -> str:
    return claims.listing_or_count(cols, _("{source} words").format(source=source()))


def spread_caption(weights, rows, cols) -> tuple[str, str]:
    """Caption and narration for the least concentrated row: that it spreads its weight, and over which two
    words; or, where even that row is sharp, that every row is."""
    spread = claims.least_concentrated_row(weights)
    if claims.is_sharp(weights[spread]):
        text = _("Every row is sharp: each {target} word puts almost all its weight on one {source} word.").format(
            target=target(), source=source())
        return text, text
    two = claims.top_two(weights[spread], cols)
    return (_("{row} spreads its weight: {two}.").format(row=rows[spread], two=two),
            _("{row} has no single {source} word: it spreads its weight, {two}.").format(row=rows[spread],
                                                                                         source=source(), two=two))


def order_claim(weights, rows, cols, what: str) -> tuple[str, str]:
    """Caption and narration for whether the rows' strongest links keep the English order or cross."""
    crossing = claims.first_crossing(weights)
    if crossing is None:
        text = _("Each {target} word's {what}: they step through the {source} in order, so the two sentences keep the "
                 "same order here.").format(target=target(), what=_(what), source=source())
        return text, text
    r1, r2 = crossing
    tops = claims.strongest_links(weights)
    w1 = format_value(float(weights[r1, tops[r1]]), 2)
    w2 = format_value(float(weights[r2, tops[r2]]), 2)
    values = dict(first=rows[r1], first_word=cols[tops[r1]], first_weight=w1, second=rows[r2],
                  second_word=cols[tops[r2]], second_weight=w2, source=source())
    caption = _("The order changes: {first} looks at {first_word} ({first_weight}), then {second} at {second_word} "
                "({second_weight}), a word that comes earlier in the {source}.").format(**values)
    narration = _("The order changes: {first} looks at {first_word}, with {first_weight}, and then {second} looks back "
                  "at {second_word}, with {second_weight}, a word that comes earlier in the {source}.").format(**values)
    return caption, narration


# --- the pictures --------------------------------------------------------------------------------------------
def in_lines(group: VGroup, lines: int, *, gap: float | None = None, baselines: bool = False,
             width: float | None = None) -> VGroup:
    """`group`'s parts (token boxes, the words of a sentence) in at most `lines` lines, in order, the widest line as
    narrow as it can be (given `width`: in as many lines of at most that width as they need), stacked and centred;
    `baselines`: the parts are words, set on one baseline per line. The parts are `gap` apart (default: a space,
    for words_of's words, else NEAR). The group keeps its parts."""
    gap = gap if gap is not None else getattr(group, "space", layout.NEAR)
    parts = list(group.submobjects)
    widths = [part.width for part in parts]

    def span(a: int, b: int) -> float:
        return sum(widths[a:b]) + gap * (b - a - 1)

    def packed(limit: float) -> list[list]:
        rows, start = [], 0
        for k in range(1, len(parts)):
            if span(start, k + 1) > limit:  # computed as the candidate limits are: no rounding apart
                rows.append(parts[start:k])
                start = k
        return [*rows, parts[start:]]

    spans = sorted({span(a, b) for a in range(len(parts)) for b in range(a + 1, len(parts) + 1)})
    rows = packed(width) if width is not None else next(rows for rows in map(packed, spans)
                                                        if len(rows) <= max(lines, 1))
    arranged = [VGroup(*row).arrange(RIGHT, buff=gap) for row in rows]
    if baselines:
        for row in arranged:
            align_baselines(row)
    VGroup(*arranged).arrange(DOWN, buff=layout.TIGHT)
    return group


def words_of(text: str, **style) -> VGroup:
    """The words of `text`, each its own label (for in_lines), and `.space`: the width of a space between them."""
    words = VGroup(*(label(w, **style) for w in text.split(" ")))  # a no-break space keeps "mot :" together
    words.space = label("x x", **style).width - 2 * label("x", **style).width
    return words


@dataclass(frozen=True)
class Chain:
    """English → the model → French, and the corpus line under them (the count traced)."""

    english: TokenRow
    model: VGroup
    french: TokenRow
    corpus: VGroup
    n_pairs: Mobject
    arrows: VGroup

    @property
    def whole(self) -> VGroup:
        return VGroup(self.english, self.model, self.french, self.corpus, self.arrows)


def training_chain(src: Source, stacked: bool, lines: int, sentence_lines: int = 1) -> Chain:
    """The chain side by side, or stacked (English over the model over French), each line of text in `lines`
    lines, each sentence (stacked) in `sentence_lines`."""
    english = TokenRow(src.get("english_tokens"), palette.ENGLISH)
    french = TokenRow(src.get("french_tokens"), palette.FRENCH)
    note = in_lines(words_of(_("with dot-product soft attention"), font_size=typography.SMALL_SIZE,
                             color=palette.MUTED), min(lines, 2), baselines=True)
    name = in_lines(words_of(_("GRU encoder–decoder"), bold=True), lines, baselines=True)
    model = VGroup(name, note).arrange(DOWN, buff=layout.TIGHT)
    n_pairs = src.number("n_pairs", decimals=0, font_size=typography.BODY_SIZE, color=palette.ACCENT)
    before, after = (words_of(text, font_size=typography.BODY_SIZE)
                     for text in (_("trained on the CPU on"),
                                  _("{source}–{target} sentence pairs").format(source=source(), target=target())))
    corpus = in_lines(VGroup(*before, n_pairs, *after), lines, baselines=True, gap=before.space)
    if stacked:
        for row in (english, french):
            in_lines(row, sentence_lines)
    chain = VGroup(english, model, french).arrange(DOWN if stacked else RIGHT,
                                                  buff=layout.APART if stacked else layout.FAR)
    VGroup(chain, corpus).arrange(DOWN, buff=layout.FAR)
    arrows = VGroup(*((_down_arrow(a, b) if stacked else flow_arrow(a, b)) for a, b in ((english, model),
                                                                                        (model, french))))
    return Chain(english, model, french, corpus, n_pairs, arrows)


def chain_forms(src: Source) -> list[Form]:
    """Stacked (English over the model over French: each at its largest), side by side, then stacked with its text
    in two, three lines, then the sentences too."""
    whole = lambda chain: chain.whole  # noqa: E731
    return [Form("stacked", lambda: training_chain(src, True, 1), whole),
            Form("side by side", lambda: training_chain(src, False, 1), whole),
            *(Form(f"stacked, text in {n} lines, sentences in {k}", lambda n=n, k=k: training_chain(src, True, n, k),
                   whole) for n, k in ((2, 1), *((L.most_lines, k) for k in range(1, L.most_lines + 1))))]


def key_name() -> str:
    """The key axis's name: the source words, which are the encoder vectors."""
    return _("{source} words (encoder vectors h_i)").format(source=source())


def alignment_map(source: Source, path: str, french, english, *, names: bool = True,
                  font_size=typography.LABEL_SIZE, number_size=None, **style) -> AttentionMap:
    """French decoder steps down the rows (their queries), English words across the columns (the keys); the axis
    names muted, so that only the words carry the two languages' colours. `number_size`: the weights larger than
    the words (default: the words' size). `style`: an arrangement (forms.map_style_forms); a one-letter key word
    stays flat among upright ones."""
    amap = AttentionMap(source, path, french, key_tokens=english, query_color=palette.FRENCH,
                        key_color=palette.ENGLISH, font_size=font_size, number_size=number_size,
                        query_label=_("{target} step").format(target=target()) if names else None,
                        key_label=key_name() if names else None, short_keys_flat=True, **style)
    amap.query_name.set_color(palette.MUTED)
    amap.key_name.set_color(palette.MUTED)
    return amap


@dataclass(frozen=True)
class NamedMap:
    """An alignment map and the legend over it that names its axes where the map's own names would not fit
    (empty otherwise)."""

    amap: AttentionMap
    legend: VGroup

    @property
    def whole(self) -> VGroup:
        return VGroup(self.legend, self.amap)


def named_map(src: Source, path: str, french, english, style: dict, legend: bool) -> NamedMap:
    amap = alignment_map(src, path, french, english, names=not legend, **style)
    names = VGroup()
    if legend:
        names = VGroup(*(label(line, font_size=typography.SMALL_SIZE, color=palette.MUTED) for line in (
            _("rows: {target} steps").format(target=target()), _("columns: {source} words").format(source=source()),
            _("(encoder vectors h_i)"))))
        names.arrange(DOWN, buff=layout.TIGHT, aligned_edge=LEFT).next_to(amap, UP, buff=layout.GAP)
    return NamedMap(amap, names)


def named_map_forms(src: Source, path: str, french, english) -> list[Form]:
    """The map with its own axis names in each arrangement, then with the legend over it instead."""
    whole = lambda named: named.whole  # noqa: E731
    return [form for legend in (False, True) for form in map_style_forms(
        lambda style, legend=legend: named_map(src, path, french, english, style, legend), whole=whole,
        name="legend, " if legend else "")]


def row_word(amap: AttentionMap, i: int) -> VGroup:
    """Row i's word with its cells: what a caption about the row names."""
    return VGroup(amap.row_labels[i], *amap.row(i)) if len(amap.row_labels) else VGroup(*amap.row(i))


def focus_boxes(amap: AttentionMap, r: int, weights) -> VGroup:
    """Row r boxed, and its largest weight boxed within it (a row split evenly has no cell to box)."""
    top = top_index(weights)
    boxes = VGroup(frame_box(amap.row(r), color=palette.FRENCH))
    return boxes.add(frame_box(amap.cell(r, top), color=palette.WEIGHT)) if top is not None else boxes


def map_rows(amap: AttentionMap) -> list[list]:
    """A map's parts for staging.end_over: its axis names and key words, then each row's word and cells."""
    head = [m for m in (amap.query_name, amap.key_name) if len(m)]
    return [[*head, *amap.column_labels], *([*row_word(amap, i)] for i in range(amap.rows))]


def with_keys(amap: AttentionMap, cells) -> VGroup:
    """The cells (r, c) a caption reads, with their key words."""
    return VGroup(*(VGroup(amap.cell(r, c), amap.column_labels[c]) for r, c in cells if c is not None))



def listed(values) -> str:
    """"0.05 / 0.10 / 0.85": a row as a caption quotes it."""
    return " / ".join(format_value(float(v), 2) for v in values)


def per_word(values, cols) -> str:
    """"0.05 on I, 0.10 on love and 0.85 on coffee": a row as a narrator reads it."""
    return claims.listing([_("{value} on {word}").format(value=format_value(float(v), 2), word=w)
                           for v, w in zip(values, cols)])


def compared_with_post(ours, illustrative) -> str:
    """", sharper than the post's illustration" — or not, as the numbers say (nothing without an illustration)."""
    if illustrative is None:
        return ""
    mine, theirs = (format_value(claims.concentration(ours), 2, "en"),  # read back as numbers below
                    format_value(claims.concentration(illustrative), 2, "en"))
    if mine == theirs:
        return _(": as sharp as the post's illustration")
    return _(": sharper than the post's illustration") if float(mine) > float(theirs) else \
        _(": less sharp than the post's illustration")


def focus_entries(src: Source, toy: Source) -> list[tuple]:
    """The rows set side by side: the post's illustration and the toy softmax, when the toy example writes the
    same word from the same sentence, then ours. Each (source, path, name, note)."""
    focus_word, cols = src.get("focus_word"), src.get("english_tokens")
    same_sentence = tuple(toy.get("tokens")) == tuple(cols) and toy.get("next_word") == focus_word
    entries = []
    if same_sentence and toy.get("illustrative_weights") is not None:
        entries.append((toy, "illustrative_weights", N_("Post"), N_("illustrative: typed into the post")))
    if same_sentence:
        entries.append((toy, "weights", N_("Toy"), N_("softmax of hand-made scores")))
    return [*entries, (src, f"alignment.{src.get('focus_row')}", N_("Ours"), N_("learned by training"))]


def row_caption(name: str, values, cols, illustrative) -> tuple[str, str]:
    """The caption and narration that introduce one row of the comparison (`name`: Post, Toy or Ours)."""
    shown, read = listed(values), per_word(values, cols)
    if name == "Post":
        return (_("The post's {values} is illustrative: an example typed into the post, not computed.").format(
                    values=shown),
                _("The post's row, {values}, is illustrative: an example typed into the post, not computed.").format(
                    values=read))
    if name == "Toy":
        return (_("The toy {values} is the softmax of the hand-made scores: an untrained model.").format(values=shown),
                _("The toy row, {values}, is the softmax of the hand-made scores: no training at all.").format(
                    values=read))
    compared = compared_with_post(values, illustrative)
    return (_("Ours, {values}, was learned by training{compared}, and nobody typed it.").format(values=shown,
                                                                                                compared=compared),
            _("Ours, {values}, was learned by training{compared}, and nobody typed it.").format(values=read,
                                                                                                compared=compared))


@dataclass(frozen=True)
class FocusTable:
    """The heading, the English words over the columns, and one (title, weights) row per entry."""

    heading: VGroup
    heads: VGroup
    rows: VGroup  # each VGroup(title, grid)

    @property
    def grids(self) -> list:
        return [row[1] for row in self.rows]

    @property
    def whole(self) -> VGroup:
        return VGroup(self.heading, self.heads, self.rows)


def column_word(word: str, narrow: bool) -> Mobject:
    if not narrow:
        return label(word, color=palette.ENGLISH)
    return flat_if_short(word, font_size=typography.LABEL_SIZE, color=palette.ENGLISH)


def focus_table(entries, cols, focus_word, narrow: bool, beside: bool, lines: int) -> FocusTable:
    """Each entry's title (its name, its note under it in `lines` lines) left of its row of weights; `narrow`:
    columns as narrow as a number, the words standing upright over them, and (not `beside`) each name under its
    row rather than left of it, its note under both."""
    cell = typography.CELL if narrow else cell_width(cols, typography.LABEL_SIZE)
    grids = VGroup(*(heatmap(source, path, cell_width=cell) for source, path, _name, _note in entries))
    grids.arrange(DOWN, buff=layout.APART)
    titles = VGroup()
    for grid, (_source, _path, name, note) in zip(grids, entries):
        note = in_lines(words_of(_(note), font_size=typography.SMALL_SIZE, color=palette.MUTED), lines,
                        baselines=True)
        title = VGroup(label(_(name), bold=True), note)
        if narrow:  # the name beside its row or under it, the note under both
            title[0].next_to(grid, LEFT if beside else DOWN, buff=layout.GAP if beside else layout.TIGHT)
            if not beside:
                title[0].align_to(grid, LEFT)
            note.next_to(VGroup(title[0], grid), DOWN, buff=layout.TIGHT).align_to(title[0], LEFT)
        else:
            title.arrange(DOWN, buff=layout.TIGHT, aligned_edge=LEFT).next_to(grid, LEFT, buff=layout.APART)
        titles.add(title)
    if narrow:  # each row with its title, one under the other, the grids in one column
        for above, below in zip(VGroup(*(VGroup(g, t) for g, t in zip(grids, titles))), list(zip(grids, titles))[1:]):
            VGroup(*below).next_to(above, DOWN, buff=layout.APART)
            VGroup(*below).shift(RIGHT * (grids[0].get_x() - below[0].get_x()))
    else:
        for title in titles:
            title.align_to(titles, LEFT)
    heads = VGroup(*(column_word(w, narrow).next_to(grids[0].cells[0][j], UP, buff=layout.NEAR)
                     for j, w in enumerate(cols)))
    if narrow:
        for word in heads:
            word.align_to(heads, DOWN)
    heading = in_lines(words_of(_("weights while writing {word}").format(word=focus_word), font_size=typography.SMALL_SIZE,
                                color=palette.MUTED), lines, baselines=True)
    heading.next_to(heads, UP, buff=layout.GAP).match_x(grids[0])
    return FocusTable(heading, heads, VGroup(*(VGroup(t, g) for t, g in zip(titles, grids))))


def focus_forms(entries, cols, focus_word) -> list[Form]:
    """Wide columns with the titles beside, their notes on one line then two; then narrow columns, the names
    beside their rows, then under them; then those with the heading up in the top band (nothing else is there)."""
    whole = lambda table: table.whole  # noqa: E731
    body, top = layout.body(), layout.top_band()
    upper = layout.Region(body.left, body.right, body.bottom, top.top)
    shapes = ((False, True, 1, None), (False, True, 2, None), (True, True, 2, None), (True, False, 2, None),
              (True, True, 2, upper), (True, False, 2, upper), (True, False, L.most_lines, upper))
    return [Form(f"{'narrow' if narrow else 'wide'}, names {'beside' if beside else 'under'}, notes in {lines} "
                 f"lines{', up to the top' if region else ''}", lambda narrow=narrow, beside=beside, lines=lines:
                 focus_table(entries, cols, focus_word, narrow, beside, lines), whole, region)
            for narrow, beside, lines, region in shapes]


def start_caption(src: Source, rows, cols) -> str:
    """The timelapse's first caption: what it replays, and where the weights and the model's French start."""
    start = (_("the weights are nearly uniform") if claims.nearly_uniform(src.get("snapshot_alignments")[0])
             else _("the weights are still spread"))
    which = ("" if tuple(cols) == tuple(src.get("english_tokens"))
             else _("the training sentence whose snapshots were saved, "))
    return _("Training, replayed from snapshots of {which}{sentence}. At step {step} {start}, and the model says "
             "{says}.").format(which=which, sentence=quoted(_words(cols)),
                               step=format_value(src.value("snapshot_steps", 0), 0), start=start,
                               says=quoted(_words(src.get(f"snapshot_french.{0}"))))


@dataclass(frozen=True)
class Timelapse:
    """The first snapshot's map with the step and loss beside or under it (`slots`: where their numbers go, sized
    for the longest; `start`: the first loss, shown at the end), what the model says under them (`says`, one per
    snapshot, unfitted; `slot` sized for the longest) and how the rows were fed."""

    recorded: VGroup  # the sentence recorded on, over the rest
    amap: AttentionMap
    style: dict
    names: VGroup  # training step, loss
    slots: VGroup
    start: Mobject
    says_name: Mobject
    slot: Mobject
    says: list
    fed: VGroup
    natural: float  # the slot's width as built: what the fit scaled by is slot.width / natural

    @property
    def whole(self) -> VGroup:
        return VGroup(self.recorded, self.amap, self.names, self.slots, self.start, self.says_name, self.slot,
                      self.fed)


def readout_at(src: Source, s: int) -> VGroup:
    """Snapshot s's training step and loss (traced)."""
    return VGroup(src.number("snapshot_steps", s, decimals=0, color=palette.ACCENT),
                  src.number("snapshot_losses", s, decimals=3, color=palette.ACCENT))


def timelapse(src: Source, rows, cols, style: dict, beside: bool, lines: int) -> Timelapse:
    """The sentence recorded on over the map, the readout beside the map (or under it), then what the model says
    and how the rows were fed, those texts in `lines` lines; the first loss in the place of the last (shown at the
    end, when the note on the rows has been read)."""
    n = src.get("snapshot_alignments").shape[0]
    amap = alignment_map(src, f"snapshot_alignments.{0}", rows, cols, names=False, **style)
    names = VGroup(label(_("training step")), label(_("loss"))).arrange(DOWN, buff=layout.APART if beside else layout.GAP,
                                                                  aligned_edge=LEFT)
    slots = readout_at(src, n - 1)  # the last step has the most digits: the slot is wide enough
    for number, name in zip(slots, names):
        number.next_to(names, RIGHT, buff=layout.GAP).match_y(name)
    start = VGroup(label(_("loss at the start"), color=palette.MUTED),
                   src.number("snapshot_losses", 0, decimals=3, color=palette.ACCENT)).arrange(RIGHT, buff=layout.GAP)
    def said(s: int, width: float | None = None) -> VGroup:
        return in_lines(words_of(_words(src.get(f"snapshot_french.{s}")), font_size=typography.SMALL_SIZE,
                                 color=palette.FRENCH), lines, baselines=True, width=width)

    widest = max(said(s).width for s in range(n))  # the longest thing the model says, in `lines` lines
    says = [said(s, widest + layout.HAIRLINE) for s in range(n)]  # a hairline's slack for the measuring
    slot = Rectangle(width=max(said.width for said in says), height=max(said.height for said in says),
                     stroke_width=0, fill_opacity=0)  # room for the longest thing the model ever says
    says_name = label(_("the model would now say:"), font_size=typography.SMALL_SIZE, color=palette.MUTED)
    fed = in_lines(words_of(_("rows: the corpus {target} fed in, as in training (teacher forcing)").format(
                                target=target()),
                            font_size=typography.SMALL_SIZE, color=palette.MUTED), lines, baselines=True)
    middle = VGroup(amap, VGroup(names, slots)).arrange(RIGHT if beside else DOWN,
                                                               buff=layout.FAR if beside else layout.GAP)
    line = VGroup(says_name, slot).arrange(DOWN, buff=layout.TIGHT, aligned_edge=LEFT)
    recorded = in_lines(words_of(_("recorded on: {source} → {target}").format(source=_words(cols), target=_words(rows)),
                                 font_size=typography.BODY_SIZE,
                                 color=palette.MUTED), min(lines, 2), baselines=True)
    VGroup(recorded, middle, line, fed).arrange(DOWN, buff=layout.GAP)
    start.move_to(fed)
    return Timelapse(recorded, amap, style, names, slots, start, says_name, slot, says, fed, slot.width)


def timelapse_forms(src: Source, rows, cols) -> list[Form]:
    """In each map arrangement (roomiest first): the readout beside the map, its texts on one line, then on two;
    then the readout under the map, the texts on up to three lines. The heading over it takes the top band."""
    whole = lambda tl: tl.whole  # noqa: E731
    body, top = layout.body(), layout.top_band()
    upper = layout.Region(body.left, body.right, body.bottom, top.top)
    shapes = ((True, 1), (True, 2), (False, L.most_lines))
    by_shape = [map_style_forms(lambda style, beside=beside, lines=lines: timelapse(src, rows, cols, style, beside,
                                                                                   lines),
                                whole=whole, region=upper, name=f"readout {'beside' if beside else 'under'}, "
                                                                f"{lines} line(s), ")
                for beside, lines in shapes]
    return [form for forms in zip(*by_shape) for form in forms]  # every shape in one arrangement before the next


def snapshot(src: Source, tl: Timelapse, s: int, grid) -> tuple:
    """Snapshot s's grid over the one shown, its step and loss in the slots, what the model says in its place."""
    factor = tl.slot.width / tl.natural
    new_grid = alignment_map(src, f"snapshot_alignments.{s}", tl.amap.tokens, tl.amap.key_tokens, names=False,
                             **tl.style).grid
    new_grid.scale_to_fit_width(grid.width).move_to(grid)
    readout = readout_at(src, s)
    for number, slot in zip(readout, tl.slots):  # left-aligned: a longer number grows to the right
        number.scale(factor).align_to(slot, LEFT).match_y(slot)
    says = tl.says[s].copy().scale(factor).next_to(tl.says_name, DOWN, buff=layout.TIGHT)
    return new_grid, readout, says.align_to(tl.says_name, LEFT)


def timelapse_captions(src: Source, rows, cols) -> dict[int, tuple[str, str | None]]:
    """Captions at the snapshots where something happens: the first row to settle on its final English word,
    the last one, and the end (how far the loss fell, which rows are sharp)."""
    snapshots = src.get("snapshot_alignments")
    last = snapshots.shape[0] - 1
    final = snapshots[last]

    def step(s: int) -> str:
        return format_value(src.value("snapshot_steps", s), 0)

    def says(s: int) -> str:
        return _words(src.get(f"snapshot_french.{s}"))

    def loss(s: int) -> str:
        return format_value(src.value("snapshot_losses", s), decimals=3)

    settled = {r: claims.settled_at(snapshots, r) for r in range(len(rows))}
    moving = {r: s for r, s in settled.items() if s is not None and s >= 1}
    captions: dict[int, tuple[str, str | None]] = {}
    if moving:
        first = min(moving.values())
        row = max((r for r, s in moving.items() if s == first), key=lambda r: claims.concentration(final[r]))
        word = cols[top_index(final[row])]
        still = tuple(src.get(f"snapshot_french.{first}")) != tuple(rows)
        captions[first] = ((_("By step {step} {row} already looks at {word}, while the model still says {says}.")
                            if still else
                            _("By step {step} {row} already looks at {word}, while the model says {says}.")).format(
            step=step(first), row=rows[row], word=word, says=quoted(says(first))), None)
        latest = max(moving.values())
        if latest > first and latest < last:
            row = next(r for r, s in moving.items() if s == latest)
            before = top_index(snapshots[latest - 1][row])
            moved = (_("By step {step} {row} has moved from {before} to {after}, and the model says {says}.")
                     if before is not None else
                     _("By step {step} {row} has moved to {after}, and the model says {says}."))
            captions[latest] = (moved.format(step=step(latest), row=rows[row],
                                             before=cols[before] if before is not None else "",
                                             after=cols[top_index(final[row])], says=quoted(says(latest))), None)
    sharp = [rows[r] for r in range(len(rows)) if claims.is_sharp(final[r])]
    spread = [rows[r] for r in range(len(rows)) if not claims.is_sharp(final[r])]
    if not spread:
        state = _("every row is now sharp")
    elif sharp:
        state = _("{sharp}, {spread}").format(
            sharp=n_("{rows} is now sharp", "{rows} are now sharp", len(sharp)).format(rows=claims.listing(sharp)),
            spread=n_("{rows} still spreads its weight", "{rows} still spread their weight", len(spread)).format(
                rows=claims.listing(spread)))
    else:
        state = _("every row still spreads its weight")
    captions[last] = (_("The loss fell from {start} to {end}; {state}.").format(start=loss(0), end=loss(last),
                                                                                state=state),
                      _("The loss has fallen from {start} to {end}, and {state}.").format(start=loss(0), end=loss(last),
                                                                                         state=state))
    return captions


@dataclass(frozen=True)
class Reorder:
    """The second sentence's map and its weights as links between the two sentences' words."""

    amap: AttentionMap
    top: TokenRow  # the English words
    bottom: TokenRow  # the French words
    links: VGroup
    link_rows: list  # one French word's links, per row

    @property
    def whole(self) -> VGroup:
        return VGroup(self.amap, self.top, self.bottom, self.links)


def reorder_stage(src: Source, style: dict, arrangement: str, numbers: float = typography.NUMBER_SIZE) -> Reorder:
    """The map beside the link diagram, or over it (`arrangement` "beside", "under"), or over the diagram stood
    upright ("upright": the English down the left, the French down the right, the links running across); the
    map's weights at `numbers` (larger than its words, or as large)."""
    english, french, weights = src.get("reorder_english"), src.get("reorder_french"), src.get("reorder_alignment")
    amap = alignment_map(src, "reorder_alignment", french, english, names=False, font_size=typography.SMALL_SIZE,
                         number_size=numbers, **style)
    upright = arrangement == "upright"
    top = TokenRow(english, palette.ENGLISH, font_size=typography.SMALL_SIZE, buff=layout.TIGHT)
    bottom = TokenRow(french, palette.FRENCH, font_size=typography.SMALL_SIZE, buff=layout.GAP)
    if upright:
        top.arrange(DOWN, buff=layout.TIGHT, aligned_edge=RIGHT)
        bottom.arrange(DOWN, buff=layout.GAP, aligned_edge=LEFT)
    diagram = VGroup(top, bottom).arrange(RIGHT if upright else DOWN, buff=L.side_link_gap if upright
                                          else L.link_gap)
    beside = arrangement == "beside"
    VGroup(amap, diagram).arrange(RIGHT if beside else DOWN, buff=layout.FAR if beside else layout.APART)
    link_rows = []
    for r in range(len(french)):
        ends = [(bottom.tokens[r].get_left(), top.tokens[c].get_right()) if upright
                else (bottom.tokens[r].get_top(), top.tokens[c].get_bottom()) for c in range(len(english))]
        link_rows.append([Line(*end, stroke_color=palette.WEIGHT, stroke_width=L.link_stroke * float(weights[r, c]),
                               stroke_opacity=float(weights[r, c])) for c, end in enumerate(ends)])
    return Reorder(amap, top, bottom, VGroup(*(link for row in link_rows for link in row)), link_rows)


def reorder_forms(src: Source) -> list[Form]:
    """The map beside the links and over them (the body's own flow first), then over the links stood upright, in
    each map arrangement, its weights larger than its words, then as large, then with its columns closer."""
    whole = lambda stage: stage.whole  # noqa: E731
    shapes = ((typography.NUMBER_SIZE, {}), (typography.SMALL_SIZE, {}),
              (typography.SMALL_SIZE, {"number_pad": layout.HAIRLINE}))
    return [*flow_forms(lambda stacked: reorder_stage(src, {}, "under" if stacked else "beside"), whole=whole),
            *(form for k, (numbers, close) in enumerate(shapes) for form in map_style_forms(
                lambda style, numbers=numbers, close=close: reorder_stage(src, {**style, **close}, "upright", numbers),
                whole=whole, name=f"links upright {k}, "))]


def links_travel(stage: Reorder):
    """Each weight becomes its link: a stroke as thick as the weight leaves the foot of its cell and travels to the
    line between the two words, one French word's row after the other."""
    return motion.lagged([motion.lagged([motion.travel(cell_stroke(stage.amap.cell(r, c), link), link)
                                         for c, link in enumerate(row)], lag=0)
                          for r, row in enumerate(stage.link_rows)], lag=L.link_row_lag)


class LearnedAlignmentScene(AttentionScene):
    scene_id = "learned_alignment"

    def construct(self):
        self.src = Source("learned_alignment")
        self.toy = Source("coffee")
        self.show_title()
        self.what_was_trained()
        self.alignment_heatmap()
        self.focus_rows()
        self.sharpening_timelapse()
        self.order_need_not_match()

    # --- beats -----------------------------------------------------------------------------------------------
    @beat
    def what_was_trained(self):
        """The weights that follow are not typed: they come out of a model trained on a real (small) corpus."""
        src = self.src
        chain, plan = compose(chain_forms(src))
        english_tokens, french_tokens = src.get("english_tokens"), src.get("french_tokens")
        n_text = format_value(src.value("n_pairs"), 0)

        self.say(_("A real, trained model: a small GRU encoder–decoder with soft attention, trained on {n} "
                   "{source}–{target} pairs.").format(n=n_text, source=source(), target=target()),
                 subject=chain.n_pairs)
        staging.enter(self, plan, FadeIn(chain.model), run_time=0.8)
        self.play(FadeIn(chain.corpus, shift=UP * layout.NUDGE), run_time=1.0)
        staging.end_on(self, plan, chain.corpus)
        self.wait(3.5)
        self.say(_("Asked to translate {english}, it writes {french}{against}").format(
                     english=quoted(_words(english_tokens)), french=quoted(_words(french_tokens)),
                     against=against_the_corpus(src.get("reference_french"), french_tokens)),
                 subject=VGroup(chain.english, chain.french))
        staging.end_on(self, plan, chain.english, FadeIn(chain.english, lag_ratio=0.3), Create(chain.arrows[0]))
        staging.end_on(self, plan, chain.french, Create(chain.arrows[1]), FadeIn(chain.french, lag_ratio=0.3))
        self.wait(2.0)

    @beat
    def alignment_heatmap(self):
        """The learned alignment matrix: one row per French step, one column per English word."""
        src = self.src
        rows, cols, weights = src.get("french_tokens"), src.get("english_tokens"), src.get("alignment")
        focus, focus_word = src.get("focus_row"), src.get("focus_word")
        named, plan = compose(named_map_forms(src, "alignment", rows, cols))
        amap = named.amap
        self.say(_("Each row is one decoder step: the weights its query puts on {words}.").format(
                     words=english_words(cols)),
                 subject=amap.body)
        self.clear_stage()
        staging.enter(self, plan, FadeIn(amap.axes), *(FadeIn(m) for m in named.legend), run_time=0.8)
        self.play(LaggedStart(*(FadeIn(amap.row(r), lag_ratio=0.2) for r in range(len(rows))), lag_ratio=0.6),
                  run_time=0.7 * len(rows))
        staging.end_over(self, plan, map_rows(amap))
        self.wait(1.5)
        boxes = focus_boxes(amap, focus, weights[focus])
        self.say(_("Writing {word}, {phrase}.").format(word=focus_word, phrase=claims.weight_phrase(weights[focus], cols)),
                 subject=row_word(amap, focus))
        staging.end_on(self, plan, VGroup(row_word(amap, focus), amap.column_labels))
        self.play(Create(boxes, lag_ratio=0.5), run_time=1.2)
        self.wait(2.2)
        self.play(FadeOut(boxes), run_time=0.4)
        tops = claims.strongest_links(weights)
        read = [(r, tops[r]) for r in claims.first_crossing(weights) or range(len(rows))]
        top_boxes = VGroup(*(frame_box(amap.cell(r, c), color=palette.WEIGHT) for r, c in enumerate(tops)
                             if c is not None))
        caption, narration = order_claim(weights, rows, cols, N_("largest weight, boxed"))
        self.say(caption, narration=narration, subject=with_keys(amap, read))
        staging.end_on(self, plan, with_keys(amap, read), Create(top_boxes, lag_ratio=0.2))
        self.wait(3.0)
        spread = claims.least_concentrated_row(weights)
        sharp = claims.is_sharp(weights[spread])
        caption, narration = spread_caption(weights, rows, cols)
        self.play(FadeOut(top_boxes), run_time=0.4)
        self.say(caption, narration=narration, subject=amap.body if sharp else row_word(amap, spread))
        if not sharp:
            staging.end_on(self, plan, VGroup(row_word(amap, spread), amap.column_labels),
                           Create(frame_box(amap.row(spread), color=palette.MUTED)))
        self.wait(3.0 if sharp else 4.0)

    @beat
    def focus_rows(self):
        """The spotlighted row beside the post's illustrative numbers and the untrained toy softmax (when the toy
        example writes the same word from the same sentence), each labelled."""
        src, toy = self.src, self.toy
        cols, focus, focus_word = src.get("english_tokens"), src.get("focus_row"), src.get("focus_word")
        ours, entries = src.get(f"alignment.{focus}"), focus_entries(src, toy)
        table, plan = compose(focus_forms(entries, cols, focus_word))
        grids = table.grids
        self.clear_stage()
        if len(entries) == 1:
            phrase = claims.weight_phrase(ours, cols)
            self.say(_("The {word} row, the most concentrated: {phrase}.").format(word=focus_word, phrase=phrase),
                     narration=_("Here is the {word} row, the most concentrated one: {phrase}.").format(
                         word=focus_word, phrase=phrase), subject=grids[0])
            staging.enter(self, plan, FadeIn(table.heading), FadeIn(table.heads), FadeIn(table.rows[0]),
                          then_on=grids[0])
            self.wait(3.0)
            self.say(_("The toy example ({sentence}) is another sentence, so it has no {word} row to set beside it; "
                       "nobody typed this one: it was learned by training.").format(
                         sentence=quoted(_words(toy.get("tokens"))), word=focus_word),
                     subject=grids[0])
            self.play(Create(frame_box(table.rows[0], color=palette.WEIGHT)), run_time=0.6)
            self.wait(4.0)
            return
        self.say(_("The {word} row next to the numbers we met before.").format(word=focus_word),
                 narration=_("Let's put the {word} row next to the numbers we met before.").format(word=focus_word),
                 subject=VGroup(*grids))
        staging.enter(self, plan, FadeIn(table.heading), FadeIn(table.heads),
                      LaggedStart(*(FadeIn(row) for row in table.rows), lag_ratio=0.4), run_time=1.6)
        staging.end_on(self, plan, VGroup(table.heads, *grids))
        self.wait(2.6)
        box = None
        for (source, path, name, _note), row in zip(entries, table.rows):
            caption, narration = row_caption(name, source.get(path).tolist(), cols, toy.get("illustrative_weights"))
            self.say(caption, narration=narration, subject=row[1])
            new = frame_box(row, color=palette.WEIGHT if name == "Ours" else palette.MUTED)
            staging.end_on(self, plan, VGroup(table.heads, row), ReplacementTransform(box, new) if box else Create(new))
            box = new
            self.wait(4.2)
        self.wait(0.6)

    @beat
    def sharpening_timelapse(self):
        """Replay the saved training snapshots: the alignment goes from uniform to sharp as the loss falls."""
        src = self.src
        rows, cols = tuple(src.get("snapshot_reference_french")), src.get("snapshot_english")
        tl, plan = compose(timelapse_forms(src, rows, cols))
        grid = tl.amap.grid
        _grid, readout, says = snapshot(src, tl, 0, grid)

        self.say(start_caption(src, rows, cols), subject=VGroup(grid, readout))
        self.clear_stage()
        staging.enter(self, plan, FadeIn(tl.recorded), FadeIn(tl.amap), FadeIn(tl.names),
                      FadeIn(readout), FadeIn(tl.says_name), FadeIn(says), FadeIn(tl.fed), run_time=1.2)
        staging.end_over(self, plan, [[*tl.amap.column_labels], *([tl.amap.row_labels[r], *grid.row(r)]
                                                                  for r in range(len(rows)))])
        self.wait(4.4)

        captions, last = timelapse_captions(src, rows, cols), src.get("snapshot_alignments").shape[0] - 1
        for s in range(1, last + 1):
            new_grid, new_readout, new_says = snapshot(src, tl, s, grid)
            if s in captions:
                subject = VGroup(tl.start[1], new_readout[1]) if s == last else VGroup(new_readout[0], new_grid)
                self.say(*captions[s], subject=subject)
            self.play(ReplacementTransform(grid, new_grid), ReplacementTransform(readout, new_readout),
                      FadeTransform(says, new_says), run_time=0.9)
            grid, readout, says = new_grid, new_readout, new_says
            if s == last:
                self.play(FadeOut(tl.fed), FadeIn(tl.start), run_time=0.6)
            self.wait(2.2 if s in captions else 0.3)
        self.wait(1.0)

    @beat
    def order_need_not_match(self):
        """The post's "order need not match": a second sentence, its weights as links that cross where the French
        order differs (or, for a pair in the same order, do not)."""
        src = self.src
        english, french = src.get("reorder_english"), src.get("reorder_french")
        weights = src.get("reorder_alignment")
        stage, plan = compose(reorder_forms(src))
        amap, words = stage.amap, VGroup(stage.top, stage.bottom)

        pair = dict(english=quoted(_words(english)), french=quoted(_words(french)))
        self.say(_("Order need not match. A second sentence: {english} → {french}.").format(**pair),
                 narration=_("Word order need not match. Take a second sentence: {english} becomes {french}.").format(
                     **pair), subject=words)
        self.clear_stage()
        staging.enter(self, plan, FadeIn(amap), run_time=1.2)
        staging.end_over(self, plan, map_rows(amap))
        staging.come_to_rest(self, [], FadeIn(stage.top), FadeIn(stage.bottom), run_time=0.8, staying=[plan.whole],
                             region=plan.region)
        self.play(links_travel(stage), run_time=2.4)
        self.wait(1.8)
        crossing = claims.first_crossing(weights)
        tops = claims.strongest_links(weights)
        read = [(r, tops[r]) for r in (crossing or range(len(french)))]
        caption, narration = order_claim(weights, french, english, N_("strongest link"))
        self.say(caption, narration=narration, subject=with_keys(amap, read))
        boxes = VGroup(*(frame_box(amap.cell(r, c), color=palette.WEIGHT) for r, c in read if c is not None))
        staging.end_on(self, plan, with_keys(amap, read), Create(boxes))
        self.wait(4.3)
        if crossing is not None:
            self.say(_("The links cross: softmax can weight any {source} position. No order rule, no dictionary: just "
                       "weights that lowered the loss.").format(source=source()), subject=VGroup(words, stage.links))
        else:
            self.say(_("Softmax could weight any {source} position; for this pair the weights keep the order. No order "
                       "rule, no dictionary: just weights that lowered the loss.").format(source=source()),
                     subject=VGroup(words, stage.links))
        staging.come_to_rest(self, [], run_time=1.2, staying=[plan.whole], region=plan.region)
        self.wait(7.0)
