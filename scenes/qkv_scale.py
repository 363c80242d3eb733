"""Trainable queries, keys and values, one query row worked step by step, and why the scores are divided by √dₖ.

X is projected by W_Q, W_K, W_V into Q (yellow), K (teal), V (pink); the example's query row is then projected,
scored, normalised and mixed while the terms of softmax(QKᵀ/√dₖ)V light up; finally random queries and keys of
growing width show the softmax saturating without the scale. Follows "Adding trainable weights: queries, keys,
values", "Scaled scores and context" and "Step-by-step for one query row".
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from manim import (
    DOWN, LEFT, PI, RIGHT, UP, Create, FadeIn, FadeOut, GrowFromEdge, Indicate, LaggedStart, MathTypst,
    ReplacementTransform, Transform, TransformFromCopy, VGroup, config,
)

from scenes.kit import (
    AttentionScene, DotProducts, SoftmaxBars, Source, TensorGrid, WeightedRows, add_rows, align_rows, beat,
    dot_every_row, flow_arrow, format_value, frame_box, group, label, math, matrix, palette, scale_every_row,
    subscript, typography, vector,
)
from scenes.kit import camera, framed, layout, motion
from scenes.kit import close_up, legible
from scenes.kit.legible import first_legible, first_worked, fit_legibly, fits_at_floor, reads_worked
from scenes.kit.score_bars import LYING_LENGTH, lie_beside, lying_bars, names_arrow, stand_labels_upright, upright_words
from scenes.kit.text import wrapped
from scenes.kit.attention_map import AttentionMap
from scenes.kit.claims import top_index
from scenes.kit.products import NUMBER, into_product, product_row, settle, shared_cell_width
from scenes.kit.spotlight import TermLight
from scenes.kit.spread_claims import no_longer_phrase, scaled_weights_stay_spread


@dataclass(frozen=True)
class QKVScaleLayout:
    """The sizes this scene chooses itself; every position follows from them and the content."""

    bar_width: float = 0.8  #: a softmax bar, wide enough for a two-decimal weight above it
    bar_height: float = 2.6  #: the height a weight of 1 would reach, before the body limits it
    chart_gap: float = 0.7  #: between the small saturation charts
    chart_height: float = 1.9  #: a saturation chart's bar for a weight of 1
    chart_bar_width: float = 0.3
    chart_bar_gap: float = 0.14
    #: a saturation chart's bar for a weight of 1 where one d_k is shown at a time (a frame too narrow for all),
    #: tallest first: the first whose pair of charts fits the room at the floor
    single_chart_heights: tuple = (1.9, 1.4, 1.0, 0.7)


L = QKVScaleLayout()


@dataclass(frozen=True)
class Scores:
    scaled: TensorGrid  # q·k_j / √d_k, a column
    name: VGroup


@dataclass(frozen=True)
class Charts:
    charts: list  # [unscaled row, scaled row], one chart per d_k
    headers: VGroup
    one_at_a_time: bool = False  # every d_k's pair in one place, each replacing the one before


@dataclass(frozen=True)
class Projections:
    """X and the three products with their weight matrices, placed side by side or one at a time."""

    X: TensorGrid
    x_name: VGroup
    weights: VGroup
    outs: VGroup
    w_names: VGroup
    o_names: VGroup
    signs: VGroup  # "·" and "=" when the products come one at a time

    @property
    def whole(self) -> VGroup:
        return VGroup(self.X, self.x_name, self.weights, self.outs, self.w_names, self.o_names, self.signs)


@dataclass(frozen=True)
class ProductRow:
    """A × V = Z, each a grid or (where the grids would not fit legibly) a symbol."""

    A: VGroup
    V: VGroup
    Z: TensorGrid
    signs: VGroup
    names: VGroup  # under the grids; Z's last

    @property
    def whole(self) -> VGroup:
        return VGroup(self.A, self.V, self.Z, self.signs, self.names)


def product_column(left, right, result) -> tuple[VGroup, VGroup]:
    """`left × right = result` stacked, for a frame too narrow for products.product_row: the grids one under
    another, their cells centred on one line; a factor written as a symbol shares a line with "×" and "=".
    Returns the "×" and "=" it made."""
    times, equals = math("times", color=palette.MUTED), math("=", color=palette.MUTED)
    if isinstance(right, MathTypst):
        steps = [left, VGroup(times, right, equals).arrange(RIGHT, buff=layout.NEAR), result]
    elif isinstance(left, MathTypst):
        steps = [VGroup(left, times).arrange(RIGHT, buff=layout.NEAR), right, equals, result]
    else:
        steps = [left, times, right, equals, result]
    VGroup(*steps).arrange(DOWN, buff=layout.GAP)

    def cells(step):  # a grid's or a map's cells, without its words; anything else whole
        return step.grid.body if isinstance(step, AttentionMap) else getattr(step, "body", step)

    axis = cells(result).get_center()[0]
    for step in steps:
        step.shift(RIGHT * (axis - cells(step).get_center()[0]))
    return times, equals


def cells_of(grid: TensorGrid) -> list:
    """A grid's cells, row by row: what `into_product` brought in one by one, to `settle` into the grid."""
    return [cell for row in grid.cells for cell in row]


ROLES = (("Q", palette.QUERY, "W_q", "Q"), ("K", palette.KEY, "W_k", "K"), ("V", palette.VALUE, "W_v", "V"))


class QKVScaleScene(AttentionScene):
    scene_id = "qkv_scale"

    def construct(self):
        self.src = Source("qkv")
        self.rain = Source("rain")  # the weight-free weights, to say what the projections changed
        self.sat = Source("saturation")
        self.tokens = list(self.src.get("tokens"))
        self.qi = self.src.get("query_index")
        self.qn = self.qi + 1  # 1-based, as in the post's x₃
        self.show_title()
        light = TermLight()
        self.three_projections(light)
        eq = self.project_the_query(light)
        scores = self.score_against_every_key(eq, light)
        bars = self.softmax_over_keys(scores, eq, light)
        self.weighted_sum_of_values(bars, eq, light)
        self.every_row_at_once(eq, light)
        charts = self.saturation_setup()
        self.saturation_grows_with_d_k(charts)
        self.scale_keeps_it_spread(charts)

    # --- helpers -------------------------------------------------------------------------------------------
    def grid(self, path, color=palette.TEXT, *, width_of=("X", "W_q", "Q", "K", "V"), cell: float = typography.CELL):
        width = shared_cell_width(self.src, width_of, font_size=NUMBER)
        return matrix(self.src, path, color=color, font_size=NUMBER, cell_width=width, cell_size=cell)


    @staticmethod
    def off_the_frame(mob, eq=None) -> bool:
        """Whether `mob` (fitted at the floor, larger than the body) runs off the frame or up into the formula `eq`."""
        half_w, half_h = config.frame_width / 2, config.frame_height / 2
        return (mob.width > 2 * half_w or mob.get_bottom()[1] < -half_h
                or mob.get_top()[1] > (half_h if eq is None else eq.get_bottom()[1]))

    @staticmethod
    def pieces(mob) -> list:
        """The units a shot shows whole or not at all: grids and maps (with their words), texts, and the lines
        and signs of the rest."""
        if isinstance(mob, (TensorGrid, AttentionMap)) or close_up.text_units(mob) == [mob] or not mob.submobjects:
            return [mob]
        return [p for sub in mob.submobjects for p in QKVScaleScene.pieces(sub)]

    def cut_by(self, shot: camera.Shot, whole, keep=()) -> list:
        """The pieces of `whole` on screen that `shot` would cut (partly in its view under the top band, partly
        out), except those of `keep`: the camera framing a result fades them, so no bracket or grid is left cut at
        the frame's edge."""
        kept = {id(part) for k in keep for part in k.get_family()}
        on_screen = set(map(id, self.get_mobject_family_members()))
        cut = []
        for piece in self.pieces(whole):
            if id(piece) in kept or id(piece) not in on_screen or piece.get_num_points() + len(piece.submobjects) == 0:
                continue
            part, every = framed.shown_by(piece, shot, layout.body().top)
            if part and not every:
                cut.append(piece)
        return cut

    def end_on(self, part, whole, pinned, *, keep=()) -> None:
        """The camera in on `part` (a step's result, its numbers legible), the pieces the shot would cut faded."""
        shot = camera.shot_on(part)
        gone = self.cut_by(shot, whole, keep=[part, *keep])
        if gone:  # first, on their own: the move shades or shows texts, and one play must not also fade them
            self.play(*(FadeOut(m) for m in gone), run_time=0.4)
        framed.frame_part(self, part, whole, pinned)

    def back_to_rest(self, pinned) -> None:
        """The camera back at rest (a step before ended in close-up), `pinned` (the formula) still on screen."""
        if not camera.at_rest(self):
            self.play(*camera.move_camera(self, camera.rest_shot(), pinned=[m for m in pinned if m is not None]),
                      run_time=0.6)

    def clear_picture(self, keep, light: TermLight) -> None:
        """Fade everything except `keep` (the equation and what the next step reuses)."""
        kept = {id(part) for k in keep if k is not None for part in k.get_family()}
        # a group that animated equation terms shares their parts: it stays if any part is kept
        gone = [m for m in self.mobjects if not any(id(part) in kept for part in m.get_family())]
        if gone:
            self.play(*(FadeOut(m) for m in gone), run_time=0.6)
        if light.box is not None and id(light.box) not in kept:
            light.forget()

    def attention_equation(self):
        """softmax(QKᵀ/√dₖ)V, each part a named group so it can light up as the picture computes it."""
        eq = math(group('op("softmax")', "sm") + " lr(( (" + group("Q", "q") + " " + group("K^top", "k")
                  + ") / " + group("sqrt(d_k)", "scale") + " )) " + group("V", "v"),
                  font_size=typography.HEADING_SIZE)
        return layout.fit_into(eq, layout.top_band())

    def bars_for(self, path: str, room: float) -> SoftmaxBars:
        """Bars as tall as `room` allows, each as wide as the widest word under it; words that laid flat would make
        the bars wider than the body stand upright under them (as in ScoreBars)."""
        upright = upright_words(self.tokens, L.bar_width)
        widest = max(label(t, font_size=typography.SMALL_SIZE).width for t in self.tokens)
        width = L.bar_width if upright else max(L.bar_width, widest - layout.GAP + layout.TIGHT)

        def build(height: float) -> SoftmaxBars:
            bars = SoftmaxBars(self.src, path, self.tokens, max_height=height, bar_width=width,
                               buff=layout.NEAR if upright else layout.GAP)
            return stand_labels_upright(bars, self.tokens) if upright else bars

        probe = build(L.bar_height)
        labels = probe.height - max(b.height for b in probe.bars)
        tallest = float(self.src.get(path).max())  # softmax: tallest > 0
        return build(min(L.bar_height, (room - labels) / tallest))

    # --- beats ---------------------------------------------------------------------------------------------
    @beat
    def three_projections(self, light: TermLight) -> None:
        """X times three learned matrices gives Q, K and V: the roles can now differ."""
        eq = self.projections_equation()
        parts = self.projections_side_by_side()
        together = fits_at_floor(parts.whole, layout.body()) and reads_worked(parts.whole, layout.body(), NUMBER)
        if not together:  # three panels would read below the worked size: one product at a time, in one place,
            #               X · W = Q on a line, or (where that does not fit: a portrait frame) X over W over Q
            parts = first_worked([lambda c=c, s=s: self.projections_one_at_a_time(c, stacked=s)
                                  for s in (False, True) for c in legible.row_heights()],
                                 layout.body(), number_size=NUMBER, whole=lambda p: p.whole)
        # larger than the body at the floor, off the frame or under the formula: the camera follows the work
        big = not fit_legibly(parts.whole, layout.body()) and self.off_the_frame(parts.whole, eq)
        self.say("The weight-free version used X for every role. Real self-attention learns three linear maps.")
        if big:
            self.play(FadeIn(eq), run_time=0.5)
            self.shoot_projections(parts, eq, light, FadeIn(parts.X), FadeIn(parts.x_name), whole=True)
        else:
            self.play(FadeIn(eq), FadeIn(parts.X), FadeIn(parts.x_name), run_time=1.0)
        self.wait(2.0)
        captions = ("Queries Q = X W_Q: the vectors that do the scoring.",
                    "Keys K = X W_K: the vectors that get scored.",
                    "Values V = X W_V: the vectors that enter the weighted sum.")
        for i, ((r, color, _, _), caption) in enumerate(zip(ROLES, captions)):
            W, out, w_name, o_name = parts.weights[i], parts.outs[i], parts.w_names[i], parts.o_names[i]
            self.say(caption)
            if i and not together:
                self.play(FadeOut(VGroup(parts.weights[i - 1], parts.outs[i - 1], parts.w_names[i - 1],
                                         parts.o_names[i - 1])), run_time=0.4)
            entering = [FadeIn(W), FadeIn(w_name), FadeIn(parts.signs if not together and i == 0 else VGroup())]
            if big:  # W enters on the whole, shaded; the product arrives there, then the camera moves in on it
                self.shoot_projections(parts, eq, light, *entering, whole=True)
                self.play(*light.on(eq, [r.lower(), "w" + r.lower()], color), run_time=0.5)
            else:
                self.play(*entering, *light.on(eq, [r.lower(), "w" + r.lower()], color), run_time=0.7)
            entries = into_product(parts.X, W, out)
            self.play(motion.lagged(entries), FadeIn(out.brackets), FadeIn(o_name), run_time=1.5)
            settle(self, [out], cells_of(out))
            if big:
                self.shoot_projections(parts, eq, light, on=VGroup(out, o_name))
            self.wait(0.6)
        Q, K, V = (self.src.get(p) for p in ("Q", "K", "V"))
        differ = not (torch.equal(Q, K) or torch.equal(K, V) or torch.equal(Q, V))
        self.say(f"Each word now has a query, a key and a value of width d_k = {self.src.get('d_k')}"
                 + (", and they differ." if differ else "; here two of them happen to coincide."))
        self.play(*light.off(), run_time=0.4)
        self.wait(2.4)

    def shoot_projections(self, parts: "Projections", eq: VGroup, light: TermLight, *animations,
                          whole: bool = False, on=None) -> None:
        """The camera on all of an oversized composition (`whole`: its numbers shaded) or in on the part `on` (its
        numbers legible), the formula and its highlight still in the top band; `animations` play along."""
        shot = camera.shot_on_all(parts.whole) if whole else camera.shot_on(on)
        framed.cover_top_band(self)
        framed.move_to_shot(self, shot, parts.whole, [m for m in (eq, light.box) if m is not None], *animations,
                            run_time=1.0)

    @staticmethod
    def projections_equation() -> MathTypst:
        """Q = X W_Q, K = X W_K, V = X W_V fitted into the top band: on one line, or broken into two or three lines
        where that reads larger (a portrait frame); the first of equals, so a wide frame keeps the one line."""
        terms = [group(r, r.lower()) + " = X " + group(f"W_{r}", "w" + r.lower()) for r, *_ in ROLES]
        lines = [", quad ".join(terms), ", quad ".join(terms[:-1]) + ", \\ " + terms[-1], ", \\ ".join(terms)]
        candidates = [math(text, font_size=typography.HEADING_SIZE) for text in lines]
        eq = max(candidates, key=lambda c: legible.fill_factor(c, layout.top_band()))
        return layout.fit_into(eq, layout.top_band())

    def projections_side_by_side(self) -> "Projections":
        """X on the left; each W above its product Q, K, V, the three products side by side on X's rows."""
        X = self.grid("X")
        X.add_row_labels(self.tokens, color=palette.ENGLISH)
        outs = VGroup(*(self.grid(path, color=color) for _, color, _, path in ROLES)).arrange(RIGHT,
                                                                                              buff=layout.FAR)
        X.next_to(outs, LEFT, buff=layout.FAR)
        align_rows(X, outs[0])
        weights = VGroup(*(self.grid(path, color=color).next_to(out, UP, buff=layout.GAP)
                           for (_, color, path, _), out in zip(ROLES, outs)))
        w_names = VGroup(*(math(f"W_{r}", color=c).next_to(w, LEFT, buff=layout.TIGHT)
                           for (r, c, *_), w in zip(ROLES, weights)))
        o_names = VGroup(*(math(r, color=c, font_size=typography.HEADING_SIZE).next_to(o, DOWN, buff=layout.NEAR)
                           for (r, c, *_), o in zip(ROLES, outs)))
        x_name = math("X", font_size=typography.HEADING_SIZE).next_to(X.body, DOWN, buff=layout.NEAR)
        return Projections(X, x_name, weights, outs, w_names, o_names, VGroup())

    def projections_one_at_a_time(self, cell: float = typography.CELL, *, stacked: bool = False) -> "Projections":
        """X · W = Q on one line, or `stacked`: X over "·" over W over "=" over Q, each name on its grid's right
        (X's words are on its left); K and V take the same places in turn. `cell`: the rows' height."""
        X = self.grid("X", cell=cell)
        X.add_row_labels(self.tokens, color=palette.ENGLISH, font_size=typography.LABEL_SIZE)
        dot, equals = math("dot", color=palette.MUTED), math("=", color=palette.MUTED)
        weights = VGroup(*(self.grid(path, color=color, cell=cell) for _, color, path, _ in ROLES))
        outs = VGroup(*(self.grid(path, color=color, cell=cell) for _, color, _, path in ROLES))
        if stacked:
            VGroup(X, dot, weights[0], equals, outs[0]).arrange(DOWN, buff=layout.NEAR)
            for part in (dot, weights[0], equals, outs[0]):
                part.match_x(X.body)
        else:
            VGroup(X, dot, weights[0], equals, outs[0]).arrange(RIGHT, buff=layout.NEAR)
            align_rows(outs[0], X)
            for sign in (dot, equals):
                sign.match_y(X.body)
        for w, o in zip(weights[1:], outs[1:]):
            w.move_to(weights[0])
            o.move_to(outs[0])
        side = RIGHT if stacked else UP
        w_names = VGroup(*(math(f"W_{r}", color=c).next_to(w, side, buff=layout.NEAR)
                           for (r, c, *_), w in zip(ROLES, weights)))
        o_names = VGroup(*(math(r, color=c, font_size=typography.HEADING_SIZE).next_to(o, side, buff=layout.NEAR)
                           for (r, c, *_), o in zip(ROLES, outs)))
        x_name = math("X", font_size=typography.HEADING_SIZE).next_to(X.body, side, buff=layout.NEAR)
        return Projections(X, x_name, weights, outs, w_names, o_names, VGroup(dot, equals))

    @beat
    def project_the_query(self, light: TermLight) -> VGroup:
        """Step 1 of the query row: q = x W_Q, each entry of x scaling one row of W_Q."""
        qn, word = self.qn, self.tokens[self.qi]
        self.say(f"One query row, step by step. Step one, project: q{subscript(qn)} = x{subscript(qn)} W_Q "
                 f"for “{word}”.",
                 narration=f"Now one query row, step by step, for “{word}”. Step one, project: "
                           f"q{subscript(qn)} is x{subscript(qn)} times W_Q.")
        self.clear_stage()
        light.forget()
        eq = self.attention_equation()

        def projection(cell, under, stacked=None):
            comp = WeightedRows(self.src, weights="query_row.x", matrix="W_q", products="query_row.q_terms",
                                result="query_row.q", shade_weights=False, matrix_color=palette.QUERY,
                                result_color=palette.QUERY, cell_size=cell, stacked=stacked)
            x_name = math(f"x_{qn}").next_to(comp.weights, UP, buff=layout.NEAR)
            x_word = label(f"“{word}”", font_size=typography.SMALL_SIZE, color=palette.ENGLISH)
            x_word.next_to(comp.weights, LEFT, buff=layout.NEAR)
            W_name = math("W_Q", color=palette.QUERY).next_to(comp.matrix, UP, buff=layout.NEAR)
            q_name = math(f"q_{qn} = x_{qn} W_Q", color=palette.QUERY)
            if under:  # no room on the sum's right (stacked, or a square frame): its name goes under it
                q_name.next_to(comp.result, DOWN, buff=layout.NEAR)
            else:
                q_name.next_to(comp.result, RIGHT, buff=layout.GAP)
            return VGroup(comp, x_name, x_word, W_name, q_name)

        # square rows where they fit at the floor, else compact ones; q's name beside the sum, else under it
        # and where even that does not fit a wide frame (a square one, a wide example), the stacked form
        whole = first_legible([lambda c=c, u=u: projection(c, u) for u in (layout.is_tall(), True)
                               for c in legible.row_heights()]
                              + [lambda c=c: projection(c, True, True) for c in legible.row_heights()],
                              layout.body())
        comp, x_name, x_word, W_name, q_name = whole
        big = not fit_legibly(whole, layout.body()) and self.off_the_frame(whole, eq)  # the camera follows
        entering = (FadeIn(comp.weights), FadeIn(x_name), FadeIn(x_word), FadeIn(comp.matrix), FadeIn(W_name))
        if big:  # the whole shaded, the first row worked in close-up (kit.framed), ending on q
            self.play(FadeIn(eq), run_time=0.5)
            framed.cover_top_band(self)
            framed.move_to_shot(self, camera.shot_on_all(whole), whole, [eq], *entering, run_time=1.0)
            self.play(FadeIn(comp.scaffold()), run_time=0.4)
            shown = framed.scale_every_row(self, comp, whole, [eq], color=palette.QUERY, run_time=0.5)
        else:
            self.play(FadeIn(eq), *entering, run_time=1.0)
            self.play(FadeIn(comp.scaffold()), run_time=0.4)
            shown = scale_every_row(self, comp, color=palette.QUERY, run_time=0.5)
        self.say(f"Each entry of x{subscript(qn)} scales one row of W_Q; adding the rows gives the query.")
        self.play(FadeOut(shown[-1].box), run_time=0.3)
        add_rows(self, comp, with_sum=[FadeIn(q_name), *light.on(eq, ["q"], palette.QUERY)])
        if big:  # the beat ends on q, legible (the next step's camera comes back to rest)
            self.end_on(VGroup(comp.result, q_name), whole, [eq, light.box])
        self.wait(1.2)
        self.say("The keys k_j = x_j W_K and values v_j = x_j W_V are the rows of K and V we already have.",
                 narration="Keys and values are made the same way, k_j from x_j times W_K and v_j from x_j times "
                           "W_V: they are the rows of K and V we already have.")
        self.wait(3.0)
        return eq

    @beat
    def score_against_every_key(self, eq: VGroup, light: TermLight) -> Scores:
        """Step 2: q · k_j for every key, then divided by √dₖ."""
        qn = self.qn
        self.say("Step two, score: dot the query with every key, k_j being the rows of K.")
        self.clear_picture([eq, light.box], light)
        self.back_to_rest([eq, light.box])
        comp = first_legible([lambda c=c: self.scoring(c) for c in legible.row_heights()], layout.body())
        cell = comp.matrix.cell(0, 0)[0].height
        parts = self.score_layout(comp, cell)
        # the scaled scores too need room: lower rows, then (a portrait frame) K's rows without their words
        retries = ([(True, c, None) for c in legible.row_heights() if c < cell]
                   + [(False, c, None) for c in legible.row_heights()]
                   + [(named, c, True) for named in (True, False) for c in legible.row_heights()])  # stacked
        for named, lower, stacked in retries:
            if fits_at_floor(VGroup(*parts[:-1]), layout.body()):
                break
            parts = self.score_layout(self.scoring(lower, named=named, stacked=stacked), lower)
        comp, names, scale, scaled, scaled_name, side_by_side = parts
        q_name, k_name, raw_name = names
        whole = VGroup(comp, names, scale, scaled, scaled_name)
        fits = fit_legibly(whole, layout.body())
        # larger than the frame at the floor (eight keys of width six in portrait): the camera shows the whole
        # shaded, works the first key in close-up (kit.framed), and ends on the scaled scores
        big = not fits and self.off_the_frame(whole, eq)
        div_arrow = flow_arrow(comp.result, scaled) if side_by_side else VGroup()
        if side_by_side:
            scale.next_to(div_arrow, UP, buff=layout.TIGHT)
        entering = (FadeIn(comp.matrix), FadeIn(k_name), FadeIn(comp.vector), FadeIn(q_name),
                    FadeIn(comp.scaffold()), FadeIn(raw_name))
        if big:
            self.play(*light.on(eq, ["q", "k"], palette.KEY, paint=["k"]), run_time=0.5)
            framed.show_whole(self, VGroup(whole, div_arrow), [eq, light.box], *entering, run_time=0.9)
            labels = list(comp.matrix.row_labels) if hasattr(comp.matrix, "row_labels") else []
            shown = framed.dot_every_row(self, comp, VGroup(whole, div_arrow), [eq, light.box], labels=labels,
                                         color=palette.KEY, run_time=0.8)
            self.play(FadeOut(shown[-1].box), run_time=0.3)
            self.end_on(VGroup(scale, scaled, scaled_name), VGroup(whole, div_arrow), [eq, light.box],
                        keep=[comp.result, raw_name])  # the raw scores turn into the scaled ones there
        else:
            self.play(*entering, *light.on(eq, ["q", "k"], palette.KEY, paint=["k"]), run_time=0.9)
            shown = dot_every_row(self, comp, color=palette.KEY, run_time=0.8)
            self.play(FadeOut(shown[-1].box), run_time=0.3)
        self.say(f"Then divide by √d_k = {format_value(self.src.value('query_row.scale'), 2)}: "
                 f"these are the scaled scores ω{subscript(qn)}ⱼ.")
        cells = [scaled.cell(j) for j in range(scaled.rows)]
        move = TransformFromCopy if side_by_side else ReplacementTransform
        self.play(FadeIn(div_arrow), FadeIn(scale), FadeIn(scaled.brackets),
                  FadeIn(scaled_name) if side_by_side else ReplacementTransform(raw_name, scaled_name),
                  *(() if side_by_side else (FadeOut(comp.result.brackets),)),
                  *light.on(eq, ["q", "k", "scale"], paint=[]),
                  LaggedStart(*(move(comp.result.cell(j), cells[j]) for j in range(scaled.rows)),
                              lag_ratio=0.2), run_time=1.4)
        settle(self, [scaled], cells)
        self.wait(1.6)
        return Scores(scaled, scaled_name)

    def score_layout(self, comp: DotProducts, cell: float) -> tuple:
        """The scores, their names, "÷ √d_k" and the scaled scores: in a second column where that fits at the floor,
        else in place of the raw scores, "÷ √d_k" on their right, or over their name (a narrow frame). Returns
        (comp, names, scale, scaled, scaled_name, side_by_side)."""
        qn = self.qn
        scaled, scaled_name = self.scaled_column(cell)
        # two lines, so the label over the arrow takes little of the row's width (eight keys of width four)
        scale = VGroup(math("div sqrt(d_k)"), VGroup(math("="), self.src.number("query_row.scale", decimals=2,
                                                                                  font_size=NUMBER)))
        scale[1].arrange(RIGHT, buff=layout.TIGHT)
        scale.arrange(DOWN, buff=layout.TIGHT)
        q_name = math(f"q_{qn}", color=palette.QUERY).next_to(comp.vector, LEFT, buff=layout.NEAR)
        k_name = math("K", font_size=typography.HEADING_SIZE, color=palette.KEY)
        k_name.next_to(comp.matrix.body, UP, buff=layout.NEAR)
        raw_name = math(f"q_{qn} dot k_j").next_to(comp.result, UP, buff=layout.NEAR)
        names = VGroup(q_name, k_name, raw_name)
        VGroup(VGroup(comp, names), scale, VGroup(scaled, scaled_name)).arrange(RIGHT, buff=layout.GAP)
        align_rows(scaled, comp.matrix)
        scaled_name.next_to(scaled, UP, buff=layout.NEAR)
        side_by_side = fits_at_floor(VGroup(comp, names, scale, scaled, scaled_name), layout.body())
        if not side_by_side:  # no room for a second column: the scaled scores replace the raw ones in place
            scaled.move_to(comp.result)
            scaled_name.move_to(raw_name)
            scale.next_to(comp.result, RIGHT, buff=layout.GAP)
            if not fits_at_floor(VGroup(comp, names, scale, scaled, scaled_name), layout.body()):
                scale.next_to(raw_name, UP, buff=layout.NEAR)
        return comp, names, scale, scaled, scaled_name, side_by_side

    def scoring(self, cell: float, *, named: bool = True, stacked: bool | None = None) -> DotProducts:
        """q dotted with every key, the rows `cell` tall, each named by its word (unless not `named`); `stacked`
        as in DotProducts (None: by the body's shape)."""
        return DotProducts(self.src, matrix="K", vector="query_row.q", products="query_row.score_terms",
                           result="query_row.raw_scores", row_labels=self.tokens if named else None,
                           matrix_color=palette.KEY,
                           cell_size=cell, label_size=typography.LABEL_SIZE, stacked=stacked)

    def scaled_column(self, cell: float = typography.CELL) -> VGroup:
        """The scaled scores ω as a column with their name above."""
        width = shared_cell_width(self.src, ("query_row.scaled_scores",), font_size=NUMBER)
        scaled = vector(self.src, "query_row.scaled_scores", orientation="column", font_size=NUMBER,
                        cell_width=width, cell_size=cell)
        return VGroup(scaled, math(f"omega_({self.qn} j)").next_to(scaled, UP, buff=layout.NEAR))

    def scaled_row(self, cell: float = typography.CELL) -> VGroup:
        """The scaled scores ω as a row with their name on its left (the scores over the bars, in a narrow frame)."""
        width = shared_cell_width(self.src, ("query_row.scaled_scores",), font_size=NUMBER)
        scaled = vector(self.src, "query_row.scaled_scores", orientation="row", font_size=NUMBER,
                        cell_width=width, cell_size=cell)
        return VGroup(scaled, math(f"omega_({self.qn} j)").next_to(scaled, LEFT, buff=layout.NEAR))

    @beat
    def softmax_over_keys(self, scores: Scores, eq: VGroup, light: TermLight) -> SoftmaxBars:
        """Step 3: softmax along the row, over the keys j."""
        self.say("Step three, normalise: softmax along the row, over the keys j, gives weights that sum to one.")
        column = VGroup(scores.scaled, scores.name)
        self.clear_picture([eq, light.box, column], light)
        def softmax_row(cell):
            target = self.scaled_column(cell)  # at full size: the column may have shrunk to fit the step before
            bars = self.bars_for("query_row.weights", layout.body().height)
            tag = label("softmax over j", font_size=typography.SMALL_SIZE, color=palette.WEIGHT)
            many = upright_words(self.tokens, L.bar_width)  # a long sentence: the row packs closer
            return VGroup(target, tag, bars).arrange(RIGHT, buff=layout.GAP if many else layout.FAR)

        def softmax_column(cell):
            """A frame too narrow for that row: the scores turn into a row over the bars, the arrow pointing down."""
            target = self.scaled_row(cell)
            tag = label("softmax over j", font_size=typography.SMALL_SIZE, color=palette.WEIGHT)
            bars = self.bars_for("query_row.weights", layout.body().height - target.height - layout.FAR)
            return VGroup(target, tag, bars).arrange(DOWN, buff=layout.FAR)

        def softmax_across(cell, length=LYING_LENGTH, gap=layout.FAR):
            """A frame where even the row of scores is too wide: the scores as a column beside their words, each
            weight a bar lying along its key's row (`length` long, `gap` from the scores)."""
            target = self.scaled_column(cell)
            target[0].add_row_labels(self.tokens, color=palette.ENGLISH, font_size=typography.SMALL_SIZE)
            target[1].next_to(target[0].body, UP, buff=layout.NEAR)
            bars = lying_bars(self.src, "query_row.weights", self.tokens, cell, length)
            tag = label("softmax over j", font_size=typography.SMALL_SIZE, color=palette.WEIGHT)
            words = max(label(w, font_size=typography.SMALL_SIZE).width for w in "softmax over j".split())
            if words <= bars.width and not fits_at_floor(lie_beside(target, bars, tag, gap), layout.body()):
                tag = wrapped("softmax over j", bars.width, font_size=typography.SMALL_SIZE, color=palette.WEIGHT)
            row = lie_beside(target, bars, tag, gap)
            row.arrow_on_names = gap != layout.FAR  # no room for the arrow between the rows: on the names' line
            if row.arrow_on_names:
                tag.match_y(target[1])
            return row

        def softmax_close(cell):
            """The same, the bars closer to the scores (the arrow on the names' line) and as long as the body's width
            leaves at the floor (eleven words in portrait)."""
            close = softmax_across(cell, gap=layout.GAP)
            room = layout.body().width * legible.smallest_text(close) / typography.MIN_FONT_SIZE
            return softmax_across(cell, LYING_LENGTH + min(0, room - close.width), layout.GAP)

        stacked = [lambda c=c: softmax_column(c) for c in legible.row_heights()]
        across = [lambda c=c: softmax_across(c) for c in legible.row_heights()]
        row = first_legible([lambda c=c: softmax_row(c) for c in legible.row_heights()] + stacked + across,
                            layout.body())
        if not fit_legibly(row, layout.body()) and self.off_the_frame(row, eq):  # eleven words in portrait: closer
            close = first_legible([lambda c=c: softmax_close(c) for c in legible.row_heights()], layout.body())
            if fits_at_floor(close, layout.body()):  # else the roomier form, which at least keeps the arrow between
                row = close
            fit_legibly(row, layout.body())
        target, tag, bars = row
        lying = getattr(bars, "lying", False)
        down = target.get_bottom()[1] > bars.get_top()[1]
        arrow = flow_arrow(target, bars, down=down)
        if getattr(row, "arrow_on_names", False):  # built close: from ω to the tag over the bars
            arrow = names_arrow(target, tag)
        elif lying:  # the tag over the bars
            arrow.match_y(target[0].body)
        elif down:  # the tag between the scores and the bars, the arrow beside it
            arrow.next_to(tag, LEFT, buff=layout.NEAR)
        else:
            arrow.match_y(target[0].body)
            tag.next_to(arrow, UP, buff=layout.TIGHT)
        if camera.at_rest(self):
            self.play(Transform(column, target), run_time=0.6)
        else:  # the step before ended in close-up: the camera comes back to rest as the scores move into place
            self.play(*camera.move_camera(self, camera.rest_shot(), pinned=[eq, light.box]),
                      Transform(column, target), run_time=0.8)
        self.play(Create(arrow), FadeIn(tag), *light.on(eq, ["sm", "q", "k", "scale"], palette.WEIGHT,
                                                         paint=["sm"]), run_time=0.8)
        self.play(Create(bars.baseline), FadeIn(bars.labels),
                  LaggedStart(*(GrowFromEdge(b, LEFT if lying else DOWN) for b in bars.bars), lag_ratio=0.15),
                  motion.lagged(motion.scores_to_weights([scores.scaled.cell(j) for j in range(len(self.tokens))],
                                                         list(bars.values))), run_time=1.6)
        self.wait(0.6)
        weights = self.src.get("query_row.weights")
        best = top_index(weights)
        before = top_index(self.rain.get("alpha"))
        word = self.tokens[self.qi]
        if best is None:
            self.say(f"With these projections “{word}” spreads its weight: the largest weights tie at "
                     f"{format_value(float(weights.max()), 2)}.")
            self.wait(2.6)
            return bars
        mostly = "" if before is None else no_longer_phrase(self.rain.value("alpha", before))
        change = ("" if before is None or before == best
                  else (f", no longer {mostly} to itself" if before == self.qi
                        else f", no longer {mostly} to “{self.tokens[before]}”"))
        self.say(f"With these projections “{word}” attends most to “{self.tokens[best]}” "
                 f"({format_value(self.src.value('query_row.weights', best), 2)}){change}.")
        self.play(bars.bars[best].animate.set_fill(palette.QUERY), run_time=0.5)
        self.wait(2.6)
        return bars

    @beat
    def weighted_sum_of_values(self, bars: SoftmaxBars, eq: VGroup, light: TermLight) -> None:
        """Step 4: z = Σ α_j v_j."""
        qn = self.qn

        def mixing(cell, stacked=None):
            comp = WeightedRows(self.src, weights="query_row.weights", matrix="V", products="query_row.weighted_v",
                                result="query_row.z", row_labels=self.tokens, weights_side=RIGHT,
                                matrix_color=palette.VALUE, cell_size=cell, label_size=typography.LABEL_SIZE,
                                stacked=stacked)
            v_name = math("V", font_size=typography.HEADING_SIZE, color=palette.VALUE)
            v_name.next_to(comp.matrix.body, UP, buff=layout.NEAR)
            a_name = math(f"alpha_({qn} j)", color=palette.WEIGHT).next_to(comp.weights, UP, buff=layout.NEAR)
            w_name = math(f"alpha_({qn} j) v_j", color=palette.MUTED)  # above the products, or (stacked, the
            #                                                         arrow above them) on their left
            down = layout.is_tall() if stacked is None else stacked
            w_name.next_to(comp.products, LEFT if down else UP, buff=layout.NEAR)
            z_name = math(f"z_{qn}", color=palette.CONTEXT).next_to(comp.result, RIGHT, buff=layout.NEAR)
            return VGroup(comp, v_name, a_name, w_name, z_name)

        whole = first_legible([lambda c=c: mixing(c) for c in legible.row_heights()]  # then stacked (a wide example)
                              + [lambda c=c: mixing(c, True) for c in legible.row_heights()], layout.body())
        comp, v_name, a_name, w_name, z_name = whole
        fits = fit_legibly(whole, layout.body())
        # larger than the frame at the floor (eight values of width six in portrait): the camera shows the whole
        # shaded, works the first value in close-up (kit.framed) and ends on z
        big = not fits and self.off_the_frame(whole, eq)
        self.say("Step four, mix: scale each value v_j by its weight…")
        self.clear_picture([eq, light.box, bars], light)
        entering = [*(ReplacementTransform(bars.values[j], comp.weights.cell(j)) for j in range(comp.weights.rows)),
                    FadeOut(VGroup(bars.bars, bars.baseline, bars.labels)), FadeIn(a_name),
                    FadeIn(comp.matrix), FadeIn(v_name)]
        if big:
            self.play(*light.on(eq, ["v"], palette.VALUE), run_time=0.5)
            framed.cover_top_band(self)
            framed.move_to_shot(self, camera.shot_on_all(whole), whole, [eq, light.box], *entering, run_time=1.2)
            self.play(FadeIn(comp.scaffold()), FadeIn(w_name), run_time=0.5)
            labels = list(comp.matrix.row_labels) if hasattr(comp.matrix, "row_labels") else []
            shown = framed.scale_every_row(self, comp, whole, [eq, light.box], labels=labels, color=palette.VALUE,
                                           run_time=0.45)
        else:
            self.play(*entering, *light.on(eq, ["v"], palette.VALUE), run_time=1.2)
            self.play(FadeIn(comp.scaffold()), FadeIn(w_name), run_time=0.5)
            shown = scale_every_row(self, comp, color=palette.VALUE, run_time=0.45)
        self.say(f"…and add: z{subscript(qn)} = Σ α{subscript(qn)}ⱼ vⱼ. Same four steps as soft attention; "
                 "new are the projections and the scale.",
                 narration=f"…and add them up: z{subscript(qn)} is the sum of every vⱼ times its weight. These are "
                           "the same four steps as soft attention; what is new is the projections and the scale.")
        self.play(FadeOut(shown[-1].box), run_time=0.3)
        if big:
            add_rows(self, comp, with_sum=[FadeIn(z_name)])
            self.play(*light.on(eq, ["sm", "q", "k", "scale", "v"], palette.CONTEXT, paint=[]), run_time=0.5)
            self.end_on(VGroup(comp.result, z_name), whole, [eq, light.box])  # the next step comes back to rest
            self.wait(3.0)
        else:
            add_rows(self, comp, with_sum=[FadeIn(z_name), *light.on(eq, ["sm", "q", "k", "scale", "v"],
                                                                     palette.CONTEXT, paint=[])])
            self.wait(3.0)

    def product_row(self, style: dict, *, a_grid: bool = True, v_grid: bool = True,
                    stacked: bool = False) -> ProductRow:
        """A × V = Z with the rows of every grid on one line; A or V written as a symbol where it is not a grid.
        `style` arranges the map (row height, upright key words); the grids' rows are as tall as its."""
        width = shared_cell_width(self.src, ("V", "output"), font_size=NUMBER)
        cell = style["cell_size"]
        A = (AttentionMap(self.src, "weights", self.tokens, font_size=NUMBER, **style) if a_grid
             else math('op("softmax")((Q K^top) / sqrt(d_k))', color=palette.WEIGHT))
        V = (matrix(self.src, "V", color=palette.VALUE, font_size=NUMBER, cell_width=width, cell_size=cell)
             if v_grid else math("V", font_size=typography.HEADING_SIZE, color=palette.VALUE))
        if v_grid and not a_grid:
            V.add_row_labels(self.tokens, color=palette.ENGLISH, font_size=typography.LABEL_SIZE)
        Z = matrix(self.src, "output", color=palette.CONTEXT, font_size=NUMBER, cell_width=width, cell_size=cell)
        if stacked:
            times, equals = product_column(A, V, Z)
        else:
            times, equals = product_row(A, V, Z)
        names = VGroup()
        for text, color, g in (('op("softmax")((Q K^top) / sqrt(d_k))', palette.WEIGHT, A), ("V", palette.VALUE, V),
                               ("Z", palette.CONTEXT, Z)):
            if not isinstance(g, MathTypst):  # under the grid, or stacked: over the map, beside V and Z
                side = (UP if g is A else RIGHT) if stacked else DOWN
                names.add(math(text, color=color).next_to(g, side, buff=layout.GAP))
        return ProductRow(A, V, Z, VGroup(times, equals), names)

    @beat
    def every_row_at_once(self, eq: VGroup, light: TermLight) -> None:
        """All query rows together: the weights and Z = softmax(QKᵀ/√dₖ)V, the worked row among them."""
        qi = self.qi
        self.say("Every query row at once: the weight matrix times V gives one output row per word.")
        self.clear_picture([eq, light.box], light)
        self.back_to_rest([eq, light.box])
        # the map and both grids, roomiest arrangement first; else V, then the map, written as a symbol
        candidates = ([(style, dict()) for style in legible.map_styles()]
                      + [(style, dict(v_grid=False)) for style in legible.map_styles()]
                      + [(dict(cell_size=cell), dict(a_grid=False)) for cell in legible.row_heights()])
        # a frame too narrow for any row (portrait): the map over V over Z, else over "× V =", as in a row
        candidates += [(s, dict(c, stacked=True)) for s, c in candidates]
        row = first_legible([lambda s=s, c=c: self.product_row(s, **c) for s, c in candidates], layout.body(),
                            whole=lambda r: r.whole)
        big = not fit_legibly(row.whole, layout.body()) and self.off_the_frame(row.whole, eq)  # camera follows
        A, V, Z = row.A, row.V, row.Z
        pinned = [eq, light.box] if light.box is not None else [eq]
        if big:  # the whole from afar, its numbers shaded
            framed.cover_top_band(self)
            framed.move_to_shot(self, camera.shot_on_all(row.whole), row.whole, pinned, run_time=0.6)
        if isinstance(A, AttentionMap):
            a_rows = [A.row(i) for i in range(Z.rows)]
            self.play(LaggedStart(*(FadeIn(r, shift=RIGHT * layout.NUDGE) for r in a_rows), lag_ratio=0.15),
                      FadeIn(A.axes), FadeIn(row.signs), FadeIn(V), FadeIn(row.names[:-1]), run_time=1.4)
            settle(self, [A], a_rows)
        else:
            self.play(FadeIn(A), FadeIn(row.signs), FadeIn(V), FadeIn(row.names[:-1]), run_time=1.4)
        self.play(motion.lagged(into_product(A, V, Z)), FadeIn(Z.brackets),
                  FadeIn(row.names[-1]), run_time=1.6)
        settle(self, [Z], cells_of(Z))
        self.say(f"Row {self.qn} is the “{self.tokens[qi]}” row we just worked through.")
        if big:  # Z's numbers legible again
            self.end_on(VGroup(Z, row.names[-1]), row.whole, pinned)
        boxes = [frame_box(Z.row(qi), color=palette.QUERY)]
        if isinstance(A, AttentionMap) and A in self.get_mobject_family_members():  # not faded by the close-up
            boxes.append(frame_box(A.row(qi), color=palette.QUERY))
        self.play(*(Create(b) for b in boxes), run_time=0.6)
        self.wait(1.6)

    # --- why the scale -------------------------------------------------------------------------------------
    @beat
    def saturation_setup(self) -> Charts:
        """Random unit-variance queries and keys of growing width: unscaled vs scaled softmax, side by side."""
        self.say(f"Why the √d_k? Take one random query and {self.sat.get('n_keys')} random keys "
                 "with unit-variance entries.")
        self.clear_stage()
        n = len(self.sat.get("d_ks"))
        head = wrapped("Why divide by √dₖ?", layout.frame().width, font_size=typography.HEADING_SIZE, bold=True)
        head.to_edge(UP, buff=layout.MARGIN)
        below_head = layout.Region(layout.frame().left, layout.frame().right, layout.body().bottom,
                                   head.get_bottom()[1] - layout.APART)
        row_names = VGroup(math('op("softmax")(q dot k)', font_size=typography.LABEL_SIZE + 4),
                           math('op("softmax")((q dot k) / sqrt(d_k))', font_size=typography.LABEL_SIZE + 4))
        charts = [[self._layout_chart(i, scaled) for i in range(n)] for scaled in (False, True)]
        grid = VGroup(*(VGroup(*row).arrange(RIGHT, buff=L.chart_gap, aligned_edge=DOWN) for row in charts))
        grid.arrange(DOWN, buff=layout.APART)
        for name, row in zip(row_names, grid):
            name.next_to(row, LEFT, buff=layout.APART)
        headers = VGroup(*(self._d_k_header(i) for i in range(n)))
        for header, chart in zip(headers, charts[0]):
            header.next_to(grid[0], UP, buff=layout.GAP).match_x(chart)
        whole = VGroup(grid, row_names, headers)
        one_at_a_time = not fits_at_floor(whole, below_head)
        if one_at_a_time:  # too narrow for every d_k at once: one d_k's pair at a time, unscaled over scaled
            charts, headers, whole = self._single_charts(n, row_names, below_head)
        layout.fit_into(whole, below_head)
        shown_headers = headers[:1] if one_at_a_time else headers
        self.play(FadeIn(head), FadeIn(row_names), FadeIn(shown_headers), run_time=1.0)
        self.wait(1.5)
        self.say("Top row: softmax of the raw dot products. Bottom row: divided by √d_k first."
                 if not one_at_a_time else
                 "Top chart: softmax of the raw dot products. Bottom chart: divided by √d_k first.")
        self.wait(3.0)
        return Charts(charts, headers, one_at_a_time)

    def _d_k_header(self, i: int) -> VGroup:
        d = self.sat.number(f"cases.{i}.d_k", decimals=0, font_size=typography.BODY_SIZE)
        return VGroup(math("d_k =", font_size=typography.BODY_SIZE + 4), d).arrange(RIGHT, buff=layout.TIGHT)

    def _single_charts(self, n: int, row_names: VGroup, room: layout.Region):
        """Each d_k's header over its unscaled chart over its scaled one, each chart under its row's name, all the
        d_k in one place; the bars as tall as lets the pair fit `room` at the floor."""
        for height in L.single_chart_heights:
            charts = [[self._layout_chart(i, scaled, height) for i in range(n)] for scaled in (False, True)]
            headers = VGroup(*(self._d_k_header(i) for i in range(n)))
            # each row's tallest chart holds the place of all of them, its name above it; the others stand on
            # the same baseline (a weight of 1 reaches higher than a spread one)
            tallest = [max(row, key=lambda chart: chart.height) for row in charts]
            names = [name.copy() for name in row_names]
            VGroup(headers[0], names[0], tallest[0], names[1], tallest[1]).arrange(DOWN, buff=layout.GAP)
            for name, chart in zip(names, tallest):
                name.next_to(chart, UP, buff=layout.NEAR)
            for row, place in zip(charts, tallest):
                for chart in row:
                    chart.move_to(place, aligned_edge=DOWN)
            for header in headers[1:]:
                header.move_to(headers[0])
            for name, copy in zip(row_names, names):
                name.move_to(copy)
            whole = VGroup(headers, *charts[0], *charts[1], row_names)
            if fits_at_floor(whole, room):
                break
        return charts, headers, whole

    def _layout_chart(self, i: int, scaled: bool, height: float = L.chart_height) -> VGroup:
        """One small bar chart (no numbers on the bars, a weight of 1 `height` tall) plus its traced max weight
        underneath."""
        kind = "scaled" if scaled else "unscaled"
        keys = self.sat.get("n_keys")
        bars = SoftmaxBars(self.sat, f"cases.{i}.{kind}_weights", [f"k{subscript(j + 1)}" for j in range(keys)],
                           max_height=height, bar_width=L.chart_bar_width, buff=L.chart_bar_gap,
                           label_color=palette.KEY)
        bars.remove(bars.values)
        top = max(bars.bars, key=lambda b: b.height)
        top.set_fill(palette.QUERY)
        peak = VGroup(label("max", font_size=typography.SMALL_SIZE, color=palette.MUTED),
                      self.sat.number(f"cases.{i}.{kind}_max", decimals=2, font_size=typography.SMALL_SIZE))
        peak.arrange(RIGHT, buff=layout.TIGHT).next_to(bars.labels, DOWN, buff=layout.TIGHT)
        chart = VGroup(bars, peak)
        chart.bars_only = bars
        chart.peak = peak
        return chart

    @beat
    def saturation_grows_with_d_k(self, charts: Charts) -> None:
        """Column by column: raw dot products grow like √dₖ, so the unscaled softmax turns one-hot."""
        n = len(self.sat.get("d_ks"))
        previous = None  # the raw scores of the column before
        for i in range(n):
            d = self.sat.get("d_ks")[i]
            raw = format_value(self.sat.value(f"cases.{i}.unscaled_max"), 2)
            scaled = format_value(self.sat.value(f"cases.{i}.scaled_max"), 2)
            scores = self.sat.get(f"cases.{i}.unscaled_scores")
            low, high = format_value(float(scores.min()), 2), format_value(float(scores.max()), 2)
            # the raw range is in the caption only (no bar shows it), so the narration says how it changed
            spread = float(scores.max() - scores.min())
            wider = previous is not None and spread > float(previous.max() - previous.min())
            self.say(f"d_k = {d}: raw dot products from {low} to {high}; the largest weight is {raw} "
                     f"without the scale, {scaled} with it.",
                     narration=f"At d_k = {d}{', the raw dot products spread wider, and' if wider else ','} the "
                               f"largest weight is {raw} without the scale, {scaled} with it.")
            previous = scores
            top, bottom = charts.charts[0][i], charts.charts[1][i]
            if charts.one_at_a_time and i:  # the d_k before leaves its place to this one
                gone = [charts.headers[i - 1], charts.charts[0][i - 1], charts.charts[1][i - 1]]
                self.play(*(FadeOut(m) for m in gone), FadeIn(charts.headers[i]), run_time=0.6)
            self.play(Indicate(charts.headers[i], color=palette.QUERY, scale_factor=1.1),
                      *(FadeIn(VGroup(c.bars_only.baseline, c.bars_only.labels)) for c in (top, bottom)),
                      *(GrowFromEdge(b, DOWN) for c in (top, bottom) for b in c.bars_only.bars), run_time=1.2)
            self.play(FadeIn(top.peak), FadeIn(bottom.peak), run_time=0.5)
            self.wait(2.8)

    @beat
    def scale_keeps_it_spread(self, charts: Charts) -> None:
        """The takeaway: near one-hot weights mean vanishing gradients; √dₖ keeps the softmax spread out."""
        last = len(self.sat.get("d_ks")) - 1
        boxes = VGroup(frame_box(charts.charts[0][last], color=palette.WRONG),
                       frame_box(charts.charts[1][last], color=palette.RIGHT))
        case = f"cases.{last}"
        self.say(f"Nearly one-hot weights leave almost no gradient: at d_k = {self.sat.get(case + '.d_k')} the "
                 f"softmax Jacobian norm is {format_value(self.sat.value(case + '.unscaled_grad_norm'), decimals=5)} "
                 f"unscaled, {format_value(self.sat.value(case + '.scaled_grad_norm'), 2)} scaled.",
                 narration=f"Nearly one-hot weights leave almost no gradient. At d_k = {self.sat.get(case + '.d_k')}, "
                           "the softmax's gradient all but vanishes without the scale, and survives with it.")
        self.play(Create(boxes[0]), run_time=0.7)
        self.wait(3.5)
        self.say("Dividing by √d_k keeps the scores in a sensible range, so the weights stay spread out "
                 "and trainable." if scaled_weights_stay_spread(self.sat.get("scaled_max")) else
                 "Dividing by √d_k keeps the scores in a far smaller range, so the weights are far less one-hot "
                 "and more trainable.")
        self.play(Create(boxes[1]), run_time=0.7)
        self.wait(2.6)
