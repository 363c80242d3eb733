"""A learned alignment: the weights a trained model really puts on I, love, coffee while it writes café.

Follows "Soft attention: use every encoder vector, not one summary", the part "Here is what training actually
does": the post shows an illustrative 0.05 / 0.10 / 0.85; here a small GRU encoder–decoder with soft attention,
trained on the CPU on the project's English→French corpus, shows what training produces, how the alignment
sharpens while it trains, and that the weights can cross when French word order differs from English.
"""

from __future__ import annotations

from manim import (
    DOWN, LEFT, RIGHT, UP, Create, FadeIn, FadeOut, FadeTransform, Line, ReplacementTransform, VGroup, Write,
)

from scenes.kit import (
    AttentionScene, Source, TokenRow, beat, flow_arrow, format_value, frame_box, heatmap, label, palette,
    typography,
)
from scenes.kit.widgets import TensorGrid


def _layout_sizes() -> dict:
    return {"cell_w": 1.25, "cell_h": 0.62, "row_cell_w": 1.35, "lapse_cell_w": 1.15, "reorder_cell_w": 0.95,
            "reorder_cell_h": 0.55, "link_gap": 2.2, "link_max_width": 7.0}


SIZE = _layout_sizes()


def _words(tokens) -> str:
    return " ".join(tokens)


def _axis_labels(grid: TensorGrid, rows, cols, *, font_size=typography.LABEL_SIZE) -> VGroup:
    """French words left of the rows, English words above the columns (kept outside the grid so a new grid can
    replace the cells while the words stay)."""
    row_labels = VGroup(*(label(w, font_size=font_size, color=palette.FRENCH) for w in rows))
    for i, word in enumerate(row_labels):
        word.next_to(grid.cells[i][0], LEFT, buff=0.25)
    col_labels = VGroup(*(label(w, font_size=font_size, color=palette.ENGLISH) for w in cols))
    for j, word in enumerate(col_labels):
        word.next_to(grid.cells[0][j], UP, buff=0.2)
    return VGroup(row_labels, col_labels)


def _axis_titles(grid: TensorGrid, labels: VGroup) -> VGroup:
    """What the two axes are: the English words are the keys, each row is one French decoder step."""
    top = label("English words (encoder vectors h_i)", font_size=typography.SMALL_SIZE, color=palette.MUTED)
    top.next_to(labels[1], UP, buff=0.3).match_x(grid.body)
    side = label("French step", font_size=typography.SMALL_SIZE, color=palette.MUTED)
    side.next_to(labels[0], UP, buff=0.3).align_to(labels[0], RIGHT).match_y(labels[1])
    return VGroup(top, side)


class LearnedAlignmentScene(AttentionScene):
    scene_id = "learned_alignment"

    def construct(self):
        self.src = Source("learned_alignment")
        self.toy = Source("coffee")
        self.show_title()
        self.what_was_trained()
        self.alignment_heatmap()
        self.three_cafe_rows()
        self.sharpening_timelapse()
        self.order_need_not_match()

    # --- beats -----------------------------------------------------------------------------------------------
    @beat
    def what_was_trained(self):
        """The weights that follow are not typed: they come out of a model trained on a real (small) corpus."""
        src = self.src
        english = TokenRow(src.get("english_tokens"), palette.ENGLISH)
        french = TokenRow(src.get("french_tokens"), palette.FRENCH)
        model = VGroup(
            label("GRU encoder–decoder", bold=True),
            label("with dot-product soft attention", font_size=typography.SMALL_SIZE, color=palette.MUTED),
        ).arrange(DOWN, buff=0.15)
        chain = VGroup(english, model, french).arrange(RIGHT, buff=1.0).move_to(UP * 0.6)
        arrows = VGroup(flow_arrow(english, model), flow_arrow(model, french))
        n_pairs = src.number("n_pairs", decimals=0, font_size=typography.BODY_SIZE, color=palette.ACCENT)
        corpus = VGroup(label("trained on the CPU on", font_size=typography.BODY_SIZE), n_pairs,
                        label("English–French sentence pairs", font_size=typography.BODY_SIZE)).arrange(RIGHT,
                                                                                                      buff=0.18)
        corpus.next_to(chain, DOWN, buff=1.0)
        n_text = format_value(src.value("n_pairs"), 0)

        self.say(f"A real, trained model: a small GRU encoder–decoder with soft attention, trained on {n_text} "
                 "English–French pairs.")
        self.play(FadeIn(model), run_time=0.8)
        self.play(FadeIn(corpus, shift=UP * 0.2), run_time=1.0)
        self.wait(3.5)
        self.say(f"Asked to translate “{_words(src.get('english_tokens'))}”, it writes "
                 f"“{_words(src.get('french_tokens'))}”.")
        self.play(FadeIn(english, lag_ratio=0.3), Create(arrows[0]), run_time=1.0)
        self.play(Create(arrows[1]), FadeIn(french, lag_ratio=0.3), run_time=1.0)
        self.wait(2.0)

    @beat
    def alignment_heatmap(self):
        """The learned alignment matrix: one row per French step, one column per English word."""
        src = self.src
        rows, cols = src.get("french_tokens"), src.get("english_tokens")
        cafe = src.get("cafe_row")
        coffee = list(cols).index("coffee")
        grid = heatmap(src, "alignment", cell_width=SIZE["cell_w"], cell_size=SIZE["cell_h"])
        labels = _axis_labels(grid, rows, cols)
        titles = _axis_titles(grid, labels)
        VGroup(grid, labels, titles).move_to(DOWN * 0.2)

        self.say("Each row is one decoder step: the weights its query put on I, love and coffee.")
        self.clear_stage()
        self.play(FadeIn(labels), FadeIn(titles), run_time=0.8)
        for r in range(len(rows)):
            self.play(FadeIn(grid.row(r), lag_ratio=0.2), run_time=0.7)
        self.wait(1.5)

        cafe_box = frame_box(grid.row(cafe), color=palette.FRENCH)
        cell_box = frame_box(grid.cell(cafe, coffee), color=palette.WEIGHT)
        self.say(f"Writing café, almost all the weight sits on coffee: "
                 f"{format_value(src.value('alignment', (cafe, coffee)), 2)}.")
        self.play(Create(cafe_box), run_time=0.6)
        self.play(Create(cell_box), run_time=0.6)
        self.wait(2.2)

        love = list(cols).index("love")
        first, article = 0, 1
        love_weight = format_value(src.value('alignment', (first, love)), 2)
        self.say(f"J'aime looks at love ({love_weight}). "
                 f"“{rows[article]}” has no English word of its own: its weight spreads, mostly onto coffee.",
                 narration=f"J'aime looks at love, with weight {love_weight}. "
                           f"“{rows[article]}” has no English word of its own, so its weight spreads, mostly onto "
                           "coffee.")
        self.play(FadeOut(cafe_box), FadeOut(cell_box), run_time=0.4)
        boxes = VGroup(frame_box(grid.cell(first, love), color=palette.WEIGHT),
                       frame_box(grid.row(article), color=palette.MUTED))
        self.play(Create(boxes[0]), run_time=0.6)
        self.play(Create(boxes[1]), run_time=0.6)
        self.wait(4.5)

    @beat
    def three_cafe_rows(self):
        """The café row beside the post's illustrative numbers and the untrained toy softmax, each labelled."""
        src, toy = self.src, self.toy
        cols = src.get("english_tokens")
        cafe = src.get("cafe_row")
        entries = (
            (toy, "illustrative_weights", "Post", "illustrative: typed into the post"),
            (toy, "weights", "Toy", "softmax of hand-made scores"),
            (src, f"alignment.{cafe}", "Ours", "learned by training"),
        )
        grids = VGroup(*(heatmap(source, path, cell_width=SIZE["row_cell_w"], cell_size=SIZE["cell_h"])
                         for source, path, _, _ in entries)).arrange(DOWN, buff=0.55)
        titles = VGroup()
        for grid, (_, _, name, note) in zip(grids, entries):
            title = VGroup(label(name, bold=True),
                           label(note, font_size=typography.SMALL_SIZE, color=palette.MUTED)).arrange(
                DOWN, buff=0.1, aligned_edge=LEFT)
            titles.add(title.next_to(grid, LEFT, buff=0.5))
        for title in titles:
            title.align_to(titles, LEFT)
        table = VGroup(*(VGroup(title, grid) for title, grid in zip(titles, grids)))
        heads = VGroup(*(label(w, color=palette.ENGLISH).next_to(grids[0].cells[0][j], UP, buff=0.25)
                         for j, w in enumerate(cols)))
        heading = label("weights while writing café", font_size=typography.SMALL_SIZE, color=palette.MUTED)
        block = VGroup(heading, heads, table)
        heading.next_to(heads, UP, buff=0.3).match_x(grids[0])
        block.move_to(DOWN * 0.1)

        def listed(source, path):
            return " / ".join(format_value(v, 2) for v in source.get(path).tolist())

        def per_word(source, path):
            """"0.05 on I, 0.10 on love and 0.85 on coffee": the row as a narrator reads it."""
            parts = [f"{format_value(v, 2)} on {w}" for v, w in zip(source.get(path).tolist(), cols)]
            return ", ".join(parts[:-1]) + " and " + parts[-1]

        self.say("The café row next to the two sets of numbers we met before.",
                 narration="Let's put the café row next to the two sets of numbers we met before.")
        self.clear_stage()
        self.play(FadeIn(heading), FadeIn(heads), run_time=0.8)
        self.wait(2.6)
        self.say(f"The post's {listed(toy, 'illustrative_weights')} is illustrative: an example typed into the "
                 "post, not computed.",
                 narration=f"The post's row, {per_word(toy, 'illustrative_weights')}, is illustrative: an example "
                           "typed into the post, not computed.")
        self.play(FadeIn(table[0]), run_time=1.0)
        self.wait(4.2)
        self.say(f"The toy {listed(toy, 'weights')} is the softmax of the hand-made scores: an untrained model.",
                 narration=f"The toy row, {per_word(toy, 'weights')}, is the softmax of the hand-made scores: "
                           "no training at all.")
        self.play(FadeIn(table[1]), run_time=1.0)
        self.wait(4.0)
        self.say(f"Ours, {listed(src, f'alignment.{cafe}')}, was learned by training: sharper than the post's "
                 "illustration, and nobody typed it.",
                 narration=f"Ours, {per_word(src, f'alignment.{cafe}')}, was learned by training: sharper than "
                           "the post's illustration, and nobody typed it.")
        self.play(FadeIn(table[2]), run_time=1.0)
        self.play(Create(frame_box(table[2], color=palette.WEIGHT, buff=0.12)), run_time=0.6)
        self.wait(4.8)

    @beat
    def sharpening_timelapse(self):
        """Replay the saved training snapshots: the alignment goes from uniform to sharp as the loss falls."""
        src = self.src
        rows, cols = src.get("french_tokens"), src.get("english_tokens")
        n_snapshots = src.shape("snapshot_steps")[0]
        first_love = self._first_snapshot_looking_at("love")

        def grid_at(s: int) -> TensorGrid:
            return heatmap(src, f"snapshot_alignments.{s}", cell_width=SIZE["lapse_cell_w"],
                           cell_size=SIZE["cell_h"])

        def readout_at(s: int) -> VGroup:
            step = src.number("snapshot_steps", s, decimals=0, color=palette.ACCENT)
            loss = src.number("snapshot_losses", s, decimals=3, color=palette.ACCENT)
            return VGroup(step, loss)

        def says_at(s: int):
            return label(_words(src.get(f"snapshot_french.{s}")), font_size=typography.SMALL_SIZE,
                         color=palette.FRENCH)

        grid = grid_at(0)
        labels = _axis_labels(grid, rows, cols)
        picture = VGroup(grid, labels).move_to(LEFT * 2.6 + UP * 0.5)
        names = VGroup(label("training step"), label("loss")).arrange(DOWN, buff=0.55, aligned_edge=LEFT)
        names.move_to(RIGHT * 3.0 + UP * 1.1)
        readout = readout_at(0)

        def place(numbers: VGroup) -> VGroup:
            for number, name in zip(numbers, names):
                number.next_to(name, RIGHT, buff=0.35)
                number.align_to(names.get_right() + RIGHT * 0.35, LEFT)
            return numbers

        place(readout)
        says_name = label("the model would now say:", font_size=typography.SMALL_SIZE, color=palette.MUTED)
        says_name.next_to(picture, DOWN, buff=0.6).align_to(picture, LEFT)
        says = says_at(0).next_to(says_name, RIGHT, buff=0.25)
        fed = label("rows: the corpus French fed in, as in training (teacher forcing)",
                    font_size=typography.SMALL_SIZE, color=palette.MUTED)
        fed.next_to(says_name, DOWN, buff=0.3).align_to(says_name, LEFT)
        grid_ref = grid

        self.say(f"Training, replayed from saved snapshots. At step "
                 f"{format_value(src.value('snapshot_steps', 0), 0)} the weights are nearly uniform, and the "
                 "model babbles.")
        self.clear_stage()
        self.play(FadeIn(labels), FadeIn(grid), FadeIn(names), FadeIn(readout), FadeIn(says_name), FadeIn(says),
                  FadeIn(fed), run_time=1.2)
        self.wait(4.4)

        captions = {
            1: lambda s: (f"By step {format_value(src.value('snapshot_steps', s), 0)} café already looks at "
                          f"coffee, while the model still says “{_words(src.get(f'snapshot_french.{s}'))}”."),
            first_love: lambda s: (f"By step {format_value(src.value('snapshot_steps', s), 0)} the first row has "
                                   f"moved from I to love, and the model says “{_words(src.get(f'snapshot_french.{s}'))}”."),
            n_snapshots - 1: lambda s: (f"Loss falls from {format_value(src.value('snapshot_losses', 0), 2)} to "
                                        f"{format_value(src.value('snapshot_losses', s), decimals=3)}; the alignment is "
                                        "now sharp."),
        }
        def loss_at(s: int) -> str:
            """A loss as the readout shows it (the caption rounds the first one further)."""
            return format_value(src.value('snapshot_losses', s), decimals=3)

        narrations = {
            n_snapshots - 1: lambda s: f"The loss has fallen from {loss_at(0)} to {loss_at(s)}, and the alignment is "
                                       "now sharp.",
        }
        for s in range(1, n_snapshots):
            new_grid = grid_at(s).move_to(grid_ref.body)
            new_readout = place(readout_at(s))
            new_says = says_at(s).next_to(says_name, RIGHT, buff=0.25)
            if s in captions:
                self.say(captions[s](s), narration=narrations[s](s) if s in narrations else None)
            self.play(ReplacementTransform(grid, new_grid), ReplacementTransform(readout, new_readout),
                      FadeTransform(says, new_says), run_time=0.9)
            grid, readout, says = new_grid, new_readout, new_says
            self.wait(2.2 if s in captions else 0.3)
        self.wait(1.0)

    @beat
    def order_need_not_match(self):
        """The post's "order need not match": in a reordered pair the weights cross."""
        src = self.src
        english, french = src.get("reorder_english"), src.get("reorder_french")
        weights = src.get("reorder_alignment")
        grid = heatmap(src, "reorder_alignment", cell_width=SIZE["reorder_cell_w"], cell_size=SIZE["reorder_cell_h"],
                       font_size=typography.SMALL_SIZE)
        labels = _axis_labels(grid, french, english, font_size=typography.SMALL_SIZE)
        picture = VGroup(grid, labels).to_edge(LEFT, buff=0.5).shift(DOWN * 0.3)

        top = TokenRow(english, palette.ENGLISH, font_size=typography.SMALL_SIZE, buff=0.15)
        bottom = TokenRow(french, palette.FRENCH, font_size=typography.SMALL_SIZE, buff=0.3)
        VGroup(top, bottom).arrange(DOWN, buff=SIZE["link_gap"])
        diagram_tokens = VGroup(top, bottom)
        if diagram_tokens.width > SIZE["link_max_width"]:
            diagram_tokens.scale_to_fit_width(SIZE["link_max_width"])
        diagram_tokens.to_edge(RIGHT, buff=0.5).match_y(picture)
        links = VGroup()
        for r in range(len(french)):
            for c in range(len(english)):
                w = float(weights[r, c])
                links.add(Line(bottom.tokens[r].get_top(), top.tokens[c].get_bottom(), stroke_color=palette.WEIGHT,
                               stroke_width=6 * w, stroke_opacity=w))
        noun = list(english).index("water")
        adjective = list(english).index("cold")
        noun_row = max(range(len(french)), key=lambda r: float(weights[r, noun]))
        adjective_row = max(range(len(french)), key=lambda r: float(weights[r, adjective]))

        self.say(f"Order need not match. A training sentence: “{_words(english)}” → “{_words(french)}”.",
                 narration=f"Word order need not match. Take a training pair: “{_words(english)}” becomes "
                           f"“{_words(french)}”.")
        self.clear_stage()
        self.play(FadeIn(labels), FadeIn(grid), run_time=1.2)
        self.play(FadeIn(top), FadeIn(bottom), run_time=0.8)
        self.play(Create(links, lag_ratio=0.05), run_time=1.5)
        self.wait(1.8)
        noun_weight = format_value(src.value('reorder_alignment', (noun_row, noun)), 2)
        adjective_weight = format_value(src.value('reorder_alignment', (adjective_row, adjective)), 2)
        self.say(f"French puts the adjective after the noun: {french[noun_row]} looks at {english[noun]} "
                 f"({noun_weight}), {french[adjective_row]} at {english[adjective]} ({adjective_weight}).",
                 narration=f"French puts the adjective after the noun, and the weights follow: {french[noun_row]} "
                           f"looks at {english[noun]} with {noun_weight}, {french[adjective_row]} at "
                           f"{english[adjective]} with {adjective_weight}.")
        boxes = VGroup(frame_box(grid.cell(noun_row, noun), color=palette.WEIGHT),
                       frame_box(grid.cell(adjective_row, adjective), color=palette.WEIGHT))
        self.play(Create(boxes), run_time=0.8)
        self.wait(4.7)
        self.say("The links cross: softmax can weight any English position. No order rule, no dictionary: just "
                 "weights that lowered the loss.")
        self.wait(7.0)

    # --- helpers ---------------------------------------------------------------------------------------------
    def _first_snapshot_looking_at(self, word: str) -> int:
        """The first snapshot whose first French row puts its largest weight on `word` (for the caption)."""
        src = self.src
        column = list(src.get("english_tokens")).index(word)
        snaps = src.get("snapshot_alignments")
        for s in range(snaps.shape[0]):
            if int(snaps[s, 0].argmax()) == column:
                return s
        return snaps.shape[0] - 1
