"""Multi-head attention as one wide matmul, a split of the width into heads, per-head attention, concat, × W_O.

Follows the post's "From one head to many" and "Approach 2: one big matrix multiply, then split", and closes
with Approach 1 (stacked single-head modules) giving the same numbers.
"""

from __future__ import annotations

from manim import (
    DOWN, LEFT, RIGHT, UP, Arrow, Create, DashedLine, FadeIn, FadeOut, Indicate, LaggedStart, ManimColor,
    Rectangle, ReplacementTransform, VGroup, Write,
)

from scenes.kit import (
    AttentionScene, Source, align_baselines, beat, format_value, heatmap, label, math, matrix, palette,
    typography,
)
from scenes.kit.widgets import TensorGrid

#: X is (B, T, d_in) with B = 1; its grid shows the first (only) sequence of the batch.
FIRST_IN_BATCH = 0


def _layout_head_tints() -> tuple[ManimColor, ...]:
    """Each head's own subtle tint (backgrounds and labels): sky blue, amber."""
    return ManimColor("#5DADE2"), ManimColor("#F5B041")


def _layout_sizes() -> dict:
    return {"cell_w": 0.82, "cell_h": 0.5, "tint_opacity": 0.16, "map_w": 0.95, "map_h": 0.6}


HEAD_TINTS = _layout_head_tints()
SIZE = _layout_sizes()


def _shape_text(names: str, values: tuple[int, ...]) -> str:
    """"(B, T, d_out) = (1, 4, 4)": the symbolic shape and the tensor's actual shape."""
    return f"({names}) = ({', '.join(str(v) for v in values)})"


def _shape_label(names: str, values: tuple[int, ...], color=palette.MUTED):
    return label(_shape_text(names, values), font_size=typography.SMALL_SIZE, color=color, mono=True)


def _tint_behind(mob, color) -> Rectangle:
    """A translucent head-coloured panel behind a slice of cells."""
    rect = Rectangle(width=mob.width + 0.03, height=mob.height + 0.12, stroke_color=color, stroke_width=2,
                     fill_color=color, fill_opacity=SIZE["tint_opacity"])
    rect.move_to(mob)
    rect.set_z_index(-1)
    return rect


class HeadSplitScene(AttentionScene):
    scene_id = "head_split"

    def construct(self):
        src = self.src = Source("multihead")
        self.tokens = list(src.get("tokens"))
        # every size comes from a tensor's shape: X is (B, T, d_in), Q is (T, d_out), Q_heads (heads, T, head_dim)
        self.batch, self.T, self.d_in = src.shape("X")
        self.d_out = src.shape("Q")[-1]
        self.n_heads, _, self.head_dim = src.shape("Q_heads")
        self.show_title()
        self.one_wide_matmul()
        self.queries_keys_values()
        self.cut_width_into_heads()
        self.per_head_patterns()
        self.concatenate_heads()
        self.output_projection()
        self.stacked_layout()
        self.same_numbers()

    # --- helpers ----------------------------------------------------------------------------------------------
    def _matrix(self, path: str, color, **kw) -> TensorGrid:
        return matrix(self.src, path, color=color, cell_width=SIZE["cell_w"], cell_size=SIZE["cell_h"],
                      font_size=typography.SMALL_SIZE, **kw)

    def _head_columns(self, grid: TensorGrid, h: int) -> VGroup:
        """The cells of head h's slice of a wide (T, d_out) grid: columns h·head_dim … (h+1)·head_dim − 1."""
        return VGroup(*(grid.column(c) for c in range(h * self.head_dim, (h + 1) * self.head_dim)))

    def _head_name(self, h: int, **kw):
        return label(f"head {h + 1}", font_size=typography.LABEL_SIZE, color=HEAD_TINTS[h], bold=True, **kw)

    def _role_name(self, role: str):
        return math(role, font_size=typography.BODY_SIZE + 2, color=palette.ROLE_COLORS[role])

    # --- beats ------------------------------------------------------------------------------------------------
    @beat
    def one_wide_matmul(self):
        """X times one wide W_Q: every head's queries in a single matmul."""
        self.say("One big matrix multiply: X times a wide W_Q gives the queries of every head at once.")
        x = self._matrix(f"X.{FIRST_IN_BATCH}", palette.TEXT)
        x.add_row_labels(self.tokens, color=palette.ENGLISH)
        w = self._matrix("W_q", palette.QUERY)
        q = self._matrix("Q", palette.QUERY)
        dot, eq = math("dot", font_size=typography.BODY_SIZE), math("=", font_size=typography.BODY_SIZE)
        row = VGroup(x, dot, w, eq, q).arrange(RIGHT, buff=0.3).move_to(UP * 0.4)
        names = VGroup(math("X", font_size=typography.BODY_SIZE + 2).next_to(x.body, UP, buff=0.3),
                       math("W_Q", font_size=typography.BODY_SIZE + 2, color=palette.QUERY)
                       .next_to(w.body, UP, buff=0.3),
                       self._role_name("Q").next_to(q.body, UP, buff=0.3))
        align_baselines(names)
        shapes = VGroup(_shape_label("B, T, d_in", tuple(self.src.shape("X"))),
                        _shape_label("d_in, d_out", tuple(self.src.shape("W_q"))),
                        _shape_label("B, T, d_out", (self.batch, *self.src.shape("Q"))))
        for shape, grid in zip(shapes, (x, w, q)):
            shape.next_to(grid.body, DOWN, buff=0.45)
        self.play(FadeIn(x), FadeIn(names[0]), FadeIn(shapes[0]), run_time=1.0)
        self.play(FadeIn(dot), FadeIn(w), FadeIn(names[1]), FadeIn(shapes[1]), run_time=1.0)
        self.play(FadeIn(eq), LaggedStart(*(FadeIn(q.row(i), shift=RIGHT * 0.2) for i in range(self.T)),
                                          lag_ratio=0.3), FadeIn(q.brackets), run_time=1.6)
        self.play(FadeIn(names[2]), FadeIn(shapes[2]), run_time=0.6)
        self.wait(1.0)
        self.say(f"W_Q has d_out = {self.d_out} columns: room for {self.n_heads} heads of head_dim = "
                 f"{self.head_dim} each.",
                 narration=f"W_Q has d_out = {self.d_out} columns: room for {self.n_heads} heads, each "
                           f"{self.head_dim} columns wide. That width is the head_dim.")
        tints = VGroup(*(_tint_behind(self._head_columns(w, h), HEAD_TINTS[h]) for h in range(self.n_heads)))
        heads = VGroup(*(self._head_name(h).scale(0.85).next_to(tints[h], DOWN, buff=0.12)
                         for h in range(self.n_heads)))
        self.play(FadeOut(shapes[1]), run_time=0.4)
        self.play(FadeIn(tints), FadeIn(heads), run_time=0.8)
        self.wait(2.8)
        self.stage = VGroup(x, dot, w, eq, names[0], names[1], shapes[0], tints, heads)
        self.q, self.q_name, self.q_shape = q, names[2], shapes[2]

    @beat
    def queries_keys_values(self):
        """W_K and W_V are wide too: three (B, T, d_out) tensors, Q/K/V in their colours."""
        self.say("W_K and W_V are wide in the same way: keys and values, each (B, T, d_out).",
                 narration="W_K and W_V are just as wide, so the keys and the values also come out with shape "
                           "batch, T, d_out.")
        self.play(FadeOut(self.stage), run_time=0.6)
        grids = {"Q": self.q}
        for role in ("K", "V"):
            grids[role] = self._matrix(role, palette.ROLE_COLORS[role])
        row = VGroup(self.q.copy(), grids["K"], grids["V"]).arrange(RIGHT, buff=0.7)
        row.move_to(RIGHT * 0.55 + UP * 0.1)  # room on the left for the token labels
        shift = row[0].get_center() - self.q.get_center()
        self.play(self.q.animate.shift(shift), self.q_name.animate.shift(shift), self.q_shape.animate.shift(shift),
                  run_time=1.0)
        self.q.add_row_labels(self.tokens, color=palette.ENGLISH)
        names, shapes = {"Q": self.q_name}, {"Q": self.q_shape}
        for role in ("K", "V"):
            names[role] = self._role_name(role).next_to(grids[role].body, UP, buff=0.3)
            shapes[role] = _shape_label("B, T, d_out", (self.batch, *self.src.shape(role)))
            shapes[role].next_to(grids[role].body, DOWN, buff=0.45)
        align_baselines([names["Q"], names["K"], names["V"]])
        self.play(FadeIn(self.q.row_labels), *(FadeIn(grids[r]) for r in ("K", "V")),
                  *(FadeIn(names[r]) for r in ("K", "V")), *(FadeIn(shapes[r]) for r in ("K", "V")), run_time=1.2)
        self.wait(3.0)
        self.grids, self.names, self.shapes = grids, names, shapes

    @beat
    def cut_width_into_heads(self):
        """The width d_out is cut into head slices, and the slices become a heads axis."""
        self.say(f"Cut the width into {self.n_heads} slices of head_dim = {self.head_dim}: "
                 "view gives (B, T, heads, head_dim).",
                 narration=f"Now cut the width into {self.n_heads} slices of head_dim = {self.head_dim}. A view "
                           "reshapes each tensor to batch, T, heads, head_dim.")
        roles = ("Q", "K", "V")
        cuts = VGroup()
        tints = {r: VGroup() for r in roles}
        for r in roles:
            grid = self.grids[r]
            for h in range(self.n_heads):
                tints[r].add(_tint_behind(self._head_columns(grid, h), HEAD_TINTS[h]))
            for h in range(1, self.n_heads):
                x = (self._head_columns(grid, h - 1).get_right()[0] + self._head_columns(grid, h).get_left()[0]) / 2
                top, bottom = [x, grid.body.get_top()[1], 0], [x, grid.body.get_bottom()[1], 0]
                cuts.add(DashedLine(top + UP * 0.15, bottom + DOWN * 0.15, color=palette.TEXT, stroke_width=2))
        heads = VGroup(*(self._head_name(h).scale(0.85).next_to(tints["Q"][h], UP, buff=0.1)
                         for h in range(self.n_heads)))
        self.play(Create(cuts), *(FadeIn(tints[r]) for r in roles), run_time=1.2)
        view = _shape_label("B, T, heads, head_dim", (self.batch, self.T, self.n_heads, self.head_dim),
                            color=palette.TEXT).to_edge(UP, buff=0.35)
        self.play(FadeIn(view), FadeOut(self.names["Q"]), FadeIn(heads), run_time=0.8)
        self.wait(2.0)
        self.say("Transpose puts the heads axis first, (B, heads, T, head_dim): each head now has its own Q, K, V.",
                 narration="A transpose moves the heads axis in front of T, giving batch, heads, T, head_dim: now "
                           "each head has its own Q, K and V.")
        moves, new_tints, new_grids = [], VGroup(), {}
        row_y = self._layout_head_rows()
        for r in roles:
            grid = self.grids[r]
            for h in range(self.n_heads):
                sub = self._matrix(f"{r}_heads.{h}", palette.ROLE_COLORS[r])
                sub.remove(sub.brackets)  # the head's tinted panel frames it
                sub.move_to([grid.body.get_center()[0], row_y[h], 0])
                new_grids[r, h] = sub
                old_cells = [grid.cell(i, c) for c in range(h * self.head_dim, (h + 1) * self.head_dim)
                             for i in range(self.T)]
                new_cells = [sub.cell(i, c) for c in range(self.head_dim) for i in range(self.T)]
                moves += [ReplacementTransform(o, n) for o, n in zip(old_cells, new_cells)]
                tint = _tint_behind(sub.body, HEAD_TINTS[h])
                moves.append(ReplacementTransform(tints[r][h], tint))
                new_tints.add(tint)
            moves.append(FadeOut(grid.brackets))
        transposed = _shape_label("B, heads, T, head_dim", (self.batch, *self.src.shape("Q_heads")),
                                  color=palette.TEXT).move_to(view)
        labels_out = [FadeOut(self.q.row_labels), FadeOut(cuts), FadeOut(heads), FadeOut(self.names["K"]),
                      FadeOut(self.names["V"]), *(FadeOut(self.shapes[r]) for r in roles)]
        self.play(*moves, *labels_out, ReplacementTransform(view, transposed), run_time=2.0)
        side = VGroup(*(self._head_name(h).next_to(new_grids["Q", h], LEFT, buff=0.4) for h in range(self.n_heads)))
        tops = VGroup(*(self._role_name(r).next_to(new_grids[r, 0], UP, buff=0.25) for r in roles))
        align_baselines(tops)
        self.play(FadeIn(side), FadeIn(tops), run_time=0.8)
        self.wait(3.0)

    def _layout_head_rows(self) -> tuple[float, ...]:
        """y of each head's row after the split (head 1 on top)."""
        return tuple(0.9 - 2.7 * h for h in range(self.n_heads))

    @beat
    def per_head_patterns(self):
        """Real per-head causal weights, side by side: different slices, different patterns."""
        self.say("Each head scores with its own slices of W_Q and W_K, so each has its own causal pattern.")
        self.clear_stage()
        eq = math("{{ op(\"head\")_h : head }} = op(\"CausalAttn\")({{ X W_Q^((h)) : q }}, {{ X W_K^((h)) : k }}, "
                  "{{ X W_V^((h)) : v }})", font_size=typography.BODY_SIZE)
        for key, role in (("q", "Q"), ("k", "K"), ("v", "V")):
            eq.select(key).set_color(palette.ROLE_COLORS[role])
        eq.to_edge(UP, buff=0.4)
        maps = VGroup()
        for h in range(self.n_heads):
            grid = heatmap(self.src, f"weights.{h}", cell_width=SIZE["map_w"], cell_size=SIZE["map_h"],
                           font_size=typography.SMALL_SIZE)
            grid.add_row_labels(self.tokens, color=palette.ENGLISH)
            align_baselines(grid.add_column_labels(self.tokens, color=palette.ENGLISH))
            mask = self.src.get("mask")
            for i in range(self.T):
                for j in range(self.T):
                    if bool(mask[i, j]):
                        grid.cell(i, j)[0].set_fill(palette.MASKED, opacity=1)
            maps.add(grid)
        maps.arrange(RIGHT, buff=0.9).move_to(DOWN * 0.55)
        frames = VGroup(*(_tint_behind(maps[h].body, HEAD_TINTS[h]).set_fill(opacity=0) for h in range(self.n_heads)))
        names = VGroup(*(self._head_name(h).next_to(maps[h].column_labels, UP, buff=0.3).match_x(maps[h].body)
                         for h in range(self.n_heads)))
        self.play(Write(eq), run_time=1.2)
        for h in range(self.n_heads):
            self.play(FadeIn(names[h]), FadeIn(maps[h].row_labels), FadeIn(maps[h].column_labels),
                      Create(frames[h]), LaggedStart(*(FadeIn(maps[h].row(i)) for i in range(self.T)), lag_ratio=0.3),
                      run_time=1.6)
        self.wait(1.0)
        last = self.T - 1
        # the head whose last row is most concentrated, and the word it concentrates on
        focused = max(range(self.n_heads), key=lambda h: max(self.src.value(f"weights.{h}", (last, j))
                                                             for j in range(self.T)))
        spread = next(h for h in range(self.n_heads) if h != focused)
        path = f"weights.{focused}"
        peak = max(range(self.T), key=lambda j: self.src.value(path, (last, j)))
        share_peak = format_value(self.src.value(path, (peak, peak)), 2)
        share_last = format_value(self.src.value(path, (last, peak)), 2)
        self.say(f"Head {focused + 1} sends {share_peak} of “{self.tokens[peak]}”'s weight and {share_last} of "
                 f"“{self.tokens[last]}”'s to “{self.tokens[peak]}”; head {spread + 1} spreads "
                 f"“{self.tokens[last]}” over all {self.T} words.",
                 narration=f"Head {focused + 1} pulls towards “{self.tokens[peak]}”: “{self.tokens[peak]}” gives "
                           f"itself {share_peak} of its weight, and “{self.tokens[last]}” gives it {share_last}. "
                           f"Head {spread + 1} spreads “{self.tokens[last]}”'s weight over all {self.T} words.")
        self.play(Indicate(maps[focused].cell(peak, peak), color=HEAD_TINTS[focused], scale_factor=1.15),
                  Indicate(maps[focused].cell(last, peak), color=HEAD_TINTS[focused], scale_factor=1.15),
                  Indicate(maps[spread].row(last), color=HEAD_TINTS[spread], scale_factor=1.05), run_time=1.8)
        self.wait(5.0)

    @beat
    def concatenate_heads(self):
        """Per-head outputs, side by side again: (B, heads, T, head_dim) back to (B, T, d_out)."""
        self.say("Each head's weights times its V give its output: (B, heads, T, head_dim).",
                 narration="Each head multiplies its weights by its own V, and the outputs have shape batch, heads, "
                           "T, head_dim.")
        self.clear_stage()
        outs = VGroup(*(self._matrix(f"head_outputs.{h}", palette.CONTEXT) for h in range(self.n_heads)))
        row_y = self._layout_head_rows()
        for h, out in enumerate(outs):
            out.remove(out.brackets)  # the head's tinted panel frames it
            out.move_to([0, row_y[h], 0])
        tints = VGroup(*(_tint_behind(outs[h].body, HEAD_TINTS[h]) for h in range(self.n_heads)))
        names = VGroup(*(self._head_name(h).next_to(outs[h], LEFT, buff=0.4) for h in range(self.n_heads)))
        shape = _shape_label("B, heads, T, head_dim", (self.batch, *self.src.shape("head_outputs")),
                             color=palette.TEXT).to_edge(UP, buff=0.35)
        z = math("Z_h = alpha^((h)) V^((h))", font_size=typography.BODY_SIZE)
        z.next_to(outs[0], RIGHT, buff=0.8)
        self.play(FadeIn(shape), FadeIn(z), *(FadeIn(m) for m in (*outs, *tints, *names)), run_time=1.2)
        self.wait(2.0)
        self.say("Transpose back and view the heads side by side: concat is (B, T, d_out) again.",
                 narration="Transpose back and view the heads side by side: the concatenation is batch, T, d_out "
                           "again.")
        concat = self._matrix("concat", palette.CONTEXT).move_to(DOWN * 0.4)
        concat.add_row_labels(self.tokens, color=palette.ENGLISH)
        new_tints = VGroup(*(_tint_behind(self._head_columns(concat, h), HEAD_TINTS[h])
                             for h in range(self.n_heads)))
        new_names = VGroup(*(self._head_name(h).scale(0.85).next_to(new_tints[h], DOWN, buff=0.12)
                             for h in range(self.n_heads)))
        moves = []
        for h in range(self.n_heads):
            for i in range(self.T):
                for c in range(self.head_dim):
                    moves.append(ReplacementTransform(outs[h].cell(i, c), concat.cell(i, h * self.head_dim + c)))
            moves += [ReplacementTransform(tints[h], new_tints[h]),
                      ReplacementTransform(names[h], new_names[h])]
        back = _shape_label("B, T, d_out", (self.batch, *self.src.shape("concat")), color=palette.TEXT).move_to(shape)
        self.play(*moves, FadeOut(z), FadeIn(concat.brackets), FadeIn(concat.row_labels),
                  ReplacementTransform(shape, back), run_time=2.0)
        self.wait(3.0)
        self.concat, self.concat_extras = concat, VGroup(new_tints, new_names, back)

    @beat
    def output_projection(self):
        """× W_O (plus b_o) mixes the heads into the block's output."""
        self.say("Finally × W_O, plus its bias b_o, mixes the heads: the output is (B, T, d_out).",
                 narration="Finally, multiplying by W_O and adding its bias b_o mixes the heads together. The "
                           "output is batch, T, d_out.")
        self.play(FadeOut(self.concat_extras[1]), FadeOut(self.concat.row_labels), run_time=0.4)
        self.concat.remove(self.concat.row_labels)
        w_o = self._matrix("W_o", palette.TEXT)
        out = self._matrix("output", palette.CONTEXT)
        dot = math("dot", font_size=typography.BODY_SIZE)
        rest = math("+ b_o =", font_size=typography.BODY_SIZE)
        row = VGroup(self.concat.copy(), dot, w_o, rest, out).arrange(RIGHT, buff=0.25).move_to(DOWN * 0.4)
        shift = row[0].get_center() - self.concat.get_center()
        self.play(self.concat.animate.shift(shift), self.concat_extras[0].animate.shift(shift), run_time=0.8)
        names = VGroup(math("op(\"concat\")", font_size=typography.BODY_SIZE).next_to(self.concat.body, UP, buff=0.3),
                       math("W_O", font_size=typography.BODY_SIZE).next_to(w_o.body, UP, buff=0.3),
                       math("op(\"output\")", font_size=typography.BODY_SIZE, color=palette.CONTEXT)
                       .next_to(out.body, UP, buff=0.3))
        align_baselines(names)
        self.play(FadeIn(dot), FadeIn(w_o), FadeIn(names[0]), FadeIn(names[1]), run_time=0.9)
        self.play(FadeIn(rest), LaggedStart(*(FadeIn(out.row(i), shift=RIGHT * 0.2) for i in range(self.T)),
                                            lag_ratio=0.3), FadeIn(out.brackets), FadeIn(names[2]), run_time=1.6)
        shape = _shape_label("B, T, d_out", (self.batch, *self.src.shape("output")), color=palette.TEXT)
        shape.move_to(self.concat_extras[2])
        self.play(ReplacementTransform(self.concat_extras[2], shape), run_time=0.6)
        self.wait(3.0)

    @beat
    def stacked_layout(self):
        """Approach 1: separate single-head modules, head h using the h-th column slice of each wide matrix."""
        self.say("The other layout stacks separate single-head modules; head h gets its own narrow W_Q^(h).",
                 narration="The other layout stacks separate single-head modules: each head gets its own narrow "
                           "W_Q, one slice of the wide matrix.")
        self.clear_stage()
        wide = self._matrix("W_q", palette.QUERY).move_to(UP * 1.7)
        tints = VGroup(*(_tint_behind(self._head_columns(wide, h), HEAD_TINTS[h]) for h in range(self.n_heads)))
        wide_name = math("W_Q", font_size=typography.BODY_SIZE + 2, color=palette.QUERY)
        wide_name.next_to(wide, LEFT, buff=0.3)
        narrow = VGroup(*(self._matrix(f"W_q_heads.{h}", palette.QUERY) for h in range(self.n_heads)))
        for grid in narrow:
            grid.remove(grid.brackets)  # the head's tinted panel frames it
        narrow.arrange(RIGHT, buff=5.3).move_to(DOWN * 0.8)
        narrow_tints = VGroup(*(_tint_behind(narrow[h].body, HEAD_TINTS[h]) for h in range(self.n_heads)))
        narrow_names = VGroup(*(math(f"W_Q^(({h + 1}))", font_size=typography.BODY_SIZE, color=palette.QUERY)
                                .next_to(narrow[h], LEFT, buff=0.3) for h in range(self.n_heads)))
        modules = VGroup(*(VGroup(self._head_name(h),
                                  label("CausalSelfAttention(d_in, head_dim)", font_size=typography.SMALL_SIZE,
                                        color=HEAD_TINTS[h], mono=True)).arrange(DOWN, buff=0.15)
                           .next_to(narrow[h], DOWN, buff=0.35) for h in range(self.n_heads)))
        arrows = VGroup(*(Arrow(tints[h].get_bottom(), narrow_tints[h].get_top(), buff=0.1, color=HEAD_TINTS[h],
                                stroke_width=3, max_tip_length_to_length_ratio=0.15) for h in range(self.n_heads)))
        self.play(FadeIn(wide), FadeIn(tints), FadeIn(wide_name), run_time=0.8)
        copies = []
        for h in range(self.n_heads):
            cells = [wide.cell(i, c).copy() for i in range(self.d_in)
                     for c in range(h * self.head_dim, (h + 1) * self.head_dim)]
            targets = [narrow[h].cell(i, c) for i in range(self.d_in) for c in range(self.head_dim)]
            copies += [ReplacementTransform(a, b) for a, b in zip(cells, targets)]
        self.play(Create(arrows), run_time=0.6)
        self.play(*copies, *(ReplacementTransform(tints[h].copy(), narrow_tints[h]) for h in range(self.n_heads)),
                  FadeIn(narrow_names), run_time=1.8)
        self.play(FadeIn(modules, shift=UP * 0.2), run_time=0.8)
        self.wait(1.0)
        self.say("Each module runs its own small matmuls; their outputs are concatenated and multiplied by W_O.",
                 narration="Each module runs its own small matrix multiplications; their outputs are concatenated "
                           "and multiplied by W_O.")
        self.wait(3.5)

    @beat
    def same_numbers(self):
        """Stacked vs split: the same output, to every digit."""
        diff = self.src.value("max_abs_diff")
        quoted = format_value(diff, decimals=3)
        self.say(f"Same weights, same math: the stacked output matches the split one, max |stacked − split| = "
                 f"{quoted}" + (" (exactly zero)." if diff == 0 else "."),
                 narration=f"Same weights, same math: the stacked output matches the split one. The largest "
                           f"difference between them is {quoted}" + (", exactly zero." if diff == 0 else "."))
        self.clear_stage()
        split = self._matrix("output", palette.CONTEXT)
        stacked = self._matrix("stacked_output", palette.CONTEXT)
        pair = VGroup(split, stacked).arrange(RIGHT, buff=1.6).move_to(DOWN * 0.2)
        split.add_row_labels(self.tokens, color=palette.ENGLISH)
        titles = VGroup(label("one wide matmul, then split", font_size=typography.LABEL_SIZE)
                        .next_to(split.body, UP, buff=0.4),
                        label("stacked single-head modules", font_size=typography.LABEL_SIZE)
                        .next_to(stacked.body, UP, buff=0.4))
        align_baselines(titles)
        equal = math("=", font_size=typography.TITLE_SIZE).move_to(pair)
        self.play(FadeIn(split), FadeIn(titles[0]), run_time=0.8)
        self.play(FadeIn(stacked), FadeIn(titles[1]), FadeIn(equal), run_time=0.8)
        gap = VGroup(math("max |\"stacked\" - \"split\"| =", font_size=typography.BODY_SIZE),
                     self.src.number("max_abs_diff", decimals=3, font_size=typography.BODY_SIZE,
                                     color=palette.RIGHT)).arrange(RIGHT, buff=0.2)
        gap.next_to(pair, DOWN, buff=0.6)
        self.play(FadeIn(gap, shift=UP * 0.2), run_time=0.8)
        self.play(Indicate(gap[1], color=palette.RIGHT, scale_factor=1.3), run_time=1.0)
        self.wait(4.0)
