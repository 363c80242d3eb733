"""Dropout on the attention weights: after the softmax, before × V; zero some α_ij and rescale the rest.

Follows the post's "Dropout on attention weights": the five-step order of operations, one seeded keep-mask,
the 1/(1 − p) rescale, train vs eval, and why mask and softmax may not be swapped.
"""

from __future__ import annotations

from dataclasses import dataclass

from manim import (
    DOWN, LEFT, RIGHT, UL, UP, Arrow, Create, FadeIn, FadeOut, Indicate, LaggedStart, MoveToTarget,
    ReplacementTransform, Restore, RoundedRectangle, Swap, VGroup, Write,
)

from scenes.kit import (
    AttentionMap, AttentionScene, Source, beat, format_value, frame_box, label, layout, math, matrix, motion,
    palette, typography,
)
from scenes.kit import camera, close_up, framed
from scenes.kit.attention_map import shaded_number_size, share_columns
from scenes.kit.claims import count_word
from scenes.kit.compose import Form, compose
from scenes.kit.forms import flow_forms
from scenes.kit.products import into_product, settle

#: The constant "1" of the formulas 1 − p and 1/(1 − p): part of the notation, not data.
ONE = 1
FONT = typography.SMALL_SIZE  # every map of the clip: one size, so the weight maps swap cell for cell
WORKED = typography.WORKED_NUMBER_SIZE
NAME = typography.HEADING_SIZE

#: The post's five steps, in order; `STEP["dropout"]` is the index of that box in the pipeline.
STEP_NAMES = ("scores", "mask", "softmax", "dropout", "times_v")
STEP = {name: k for k, name in enumerate(STEP_NAMES)}


def compact_row(font_size: float) -> float:
    """A dense map's row height: one line of text and a hairline each side (the kit's rows add a TIGHT pad more)."""
    return label("Ag", font_size=font_size).height + 2 * layout.HAIRLINE


@dataclass(frozen=True)
class DropStage:
    """The weights before and after dropout (one place) and the keep-mask, beside them or in their place."""

    alpha: AttentionMap
    keep: AttentionMap
    dropped: AttentionMap
    alpha_name: VGroup
    keep_name: VGroup
    prime_name: VGroup
    keep_in_place: bool  # True when the mask cannot sit beside the weights legibly: it takes their place a while


def named_beside(amap: AttentionMap, name) -> VGroup:
    """A map's symbol left of its query words, level with its cells: clear of the axis names above the map and of
    the top band, whatever the map's size. In a tall body (portrait), where the width binds, it sits in the map's
    empty corner instead: above the word "query", left of the key words."""
    if layout.is_tall():
        return name.next_to(amap.query_name, UP, buff=layout.GAP).align_to(amap.query_name, RIGHT)
    return name.next_to(amap, LEFT, buff=layout.GAP).match_y(amap.body)


def maps_region() -> layout.Region:
    """The body, less a gap under the top band: the maps' axis names stay clear of the pipeline's boxes."""
    body = layout.body()
    return layout.Region(body.left, body.right, body.bottom, body.top - layout.GAP)


def fits_worked(mob, region: layout.Region) -> bool:
    """Whether `mob`, shrunk into `region`, keeps the maps' numbers (set at FONT) at the worked size."""
    return FONT * layout.fit_factor(mob, region) >= typography.WORKED_NUMBER_SIZE


def step_numbers() -> list:
    return [label(f"{k + 1}", font_size=typography.LABEL_SIZE, color=palette.MUTED) for k in range(len(STEP))]


def step_boxes() -> VGroup:
    """One box per step, its content centred and its number in the corner, all the size of the largest."""
    contents = [
        math("(Q K^top) / sqrt(d_k)", font_size=typography.LABEL_SIZE),
        label("mask −∞", font_size=typography.LABEL_SIZE),
        label("softmax", font_size=typography.LABEL_SIZE, color=palette.WEIGHT),
        label("dropout", font_size=typography.LABEL_SIZE, color=palette.WRONG),
        math("times {{ V : v }}", font_size=typography.LABEL_SIZE + 2),
    ]
    contents[-1].select("v").set_color(palette.VALUE)
    numbers = step_numbers()
    corner = max(n.width for n in numbers) + layout.TIGHT * 2  # room for the step number each side
    width = max(c.width for c in contents) + 2 * corner
    height = max(c.height for c in contents) + 2 * layout.TIGHT + max(n.height for n in numbers)
    boxes = VGroup()
    for content, number in zip(contents, numbers):
        box = RoundedRectangle(corner_radius=layout.TIGHT, width=width, height=height,
                               stroke_color=palette.MUTED, stroke_width=2)
        content.move_to(box)
        number.align_to(box, UL).shift((RIGHT + DOWN) * layout.TIGHT)
        boxes.add(VGroup(box, content, number))
    return boxes


def chain(boxes: VGroup, direction) -> VGroup:
    """The boxes one after the other in `direction` (RIGHT or DOWN), an arrow from each to the next."""
    boxes.arrange(direction, buff=layout.APART if direction is RIGHT else layout.GAP)
    ends = (VGroup.get_right, VGroup.get_left) if direction is RIGHT else (VGroup.get_bottom, VGroup.get_top)
    arrows = VGroup(*(Arrow(ends[0](boxes[k]), ends[1](boxes[k + 1]), buff=layout.HAIRLINE,
                            color=palette.MUTED, stroke_width=3, max_tip_length_to_length_ratio=0.35)
                      for k in range(len(boxes) - 1)))
    pipeline = VGroup(boxes, arrows)
    pipeline.boxes, pipeline.arrows = boxes, arrows
    return pipeline


def chips() -> VGroup:
    """The spine of a narrow frame: the five steps by number only, in a row (the captions name steps by number;
    the first beat shows what each one is, at full size)."""
    numbers = step_numbers()
    side = max(max(n.width, n.height) for n in numbers) + 2 * layout.TIGHT
    boxes = VGroup()
    for number in numbers:
        box = RoundedRectangle(corner_radius=layout.TIGHT, width=side, height=side,
                               stroke_color=palette.MUTED, stroke_width=2)
        boxes.add(VGroup(box, number.move_to(box)))
    return chain(boxes, RIGHT)


#: The spine's forms: the boxes in a row across the top band, else the numbered chips.
BOXES, CHIPS = "boxes", "chips"


def pipeline_forms() -> list[Form]:
    """The five steps as boxes in a row in the top band; where they would not read there, the numbered chips."""
    return [Form(BOXES, lambda: chain(step_boxes(), RIGHT), region=layout.top_band()),
            Form(CHIPS, chips, region=layout.top_band(), grow=False)]


def pipeline_stage() -> layout.Region:
    """The frame above the bottom band: the first beat's place (nothing else is on screen yet)."""
    whole, body = layout.frame(), layout.body()
    return layout.Region(whole.left, whole.right, body.bottom, whole.top)


def staged_pipeline_forms() -> list[Form]:
    """The five boxes at full size for the first beat of a narrow frame, in a row or a column (the frame's own flow
    first), in pipeline_stage()."""
    return flow_forms(lambda stacked: chain(step_boxes(), DOWN if stacked else RIGHT), pipeline_stage())


class DropoutWeightsScene(AttentionScene):
    scene_id = "dropout_weights"

    def construct(self):
        self.src = Source("dropout")
        self.tokens = list(self.src.get("tokens"))
        self.n = len(self.tokens)
        self.dropped_at = [tuple(pair) for pair in self.src.get("dropped_positions")]
        self.show_title()
        pipe = self.order_of_operations()
        stage = self.causal_weights(pipe)
        self.keep_mask(pipe, stage)
        self.drop_and_rescale(pipe, stage)
        self.train_versus_eval(pipe)
        self.why_mask_before_softmax(pipe)

    def _focus(self, pipe: VGroup, step: int, color=palette.ACCENT) -> list:
        """Animations that highlight box `step` (0-based) and dim the others."""
        anims = []
        for k, group in enumerate(pipe.boxes):
            box = group[0]
            if k == step:
                anims.append(box.animate.set_stroke(color, 5).set_fill(color, opacity=0.12))
            else:
                anims.append(box.animate.set_stroke(palette.MUTED, 2).set_fill(palette.BACKGROUND, opacity=0))
        return anims

    def _clear_all_but(self, keep) -> None:
        """Fade out everything except `keep` (the pipeline stays as the clip's spine), and bring the camera back to
        rest with it (it stays still on screen)."""
        kept = set(keep.get_family())
        others = [m for m in self.mobjects if m not in kept and m is not self.camera.frame]
        if others:
            self.play(*(FadeOut(m) for m in others), run_time=0.6)
        if not camera.at_rest(self):
            self.play(*camera.move_camera(self, camera.rest_shot(), pinned=[keep]), run_time=0.6)

    # --- maps -------------------------------------------------------------------------------------------------
    def _map(self, path: str, *, dense: bool = False, shaded: bool = False, **style) -> AttentionMap:
        """A map of the clip; `dense` stands the key words upright and packs the rows to one line each, for an
        example whose map would not stay legible laid out flat; `shaded` sets the cells' numbers only as large as
        the key words' columns hold (see _shaded_number_size): their shades stand in for them."""
        if shaded:
            style = {"number_size": self._shaded_number_size(), "label_pad": layout.HAIRLINE, **style}
        return AttentionMap(self.src, path, self.tokens, causal=True, font_size=FONT, upright_keys=dense,
                            cell_size=compact_row(FONT) if dense else None, **style)

    def _shaded_number_size(self) -> float:
        """Where even the densest map cannot show its numbers legibly (eight words in a narrow frame), the cells'
        numbers are set as large as lets the upright key words, not the numbers, set the columns' width: the map
        then fits with its words at a legible size, and its cells' shades stand in for the numbers (hidden by
        close_up where they read below the floor)."""
        if getattr(self, "_number_size", None) is None:
            probes = [self._map(path, dense=True) for path in ("weights", "dropped_weights")]
            probes.append(self._keep_map(dense=True))
            self._number_size = shaded_number_size(probes, FONT, layout.HAIRLINE)
        return self._number_size

    def _mark_dropped(self, amap: AttentionMap) -> AttentionMap:
        for i, j in self.dropped_at:
            amap.cell(i, j)[0].set_fill(palette.DROPPED, opacity=1)
        return amap

    def _keep_map(self, dense: bool, shaded: bool = False) -> AttentionMap:
        """The keep-mask m_ij ∈ {0, 1}: traced zeros and ones; dropped cells dark red, the future dimmed."""
        amap = self._map("keep_mask", decimals=0, dense=dense, shaded=shaded)
        keep = self.src.get("keep_mask")
        for i in range(self.n):
            for j in range(i + 1):
                square, number = amap.cell(i, j)[0], amap.cell(i, j)[1]
                kept = bool(keep[i, j])
                square.set_fill(palette.ZERO if kept else palette.DROPPED, opacity=1)
                number.set_color(palette.RIGHT if kept else palette.WRONG)
        return amap

    def _drop_stage(self, dense: bool = False, shaded: bool = False) -> DropStage:
        """α, α' and m built alike; m beside α when both stay legible, else m takes α's place for one beat; maps
        that would not stay legible even alone are built dense, and where even that leaves the numbers below the
        floor, shaded (their cells' shades standing in for them)."""
        alpha, dropped, keep = share_columns(self._map("weights", dense=dense, shaded=shaded),
                                             self._mark_dropped(self._map("dropped_weights", dense=dense,
                                                                          shaded=shaded)),
                                             self._keep_map(dense, shaded))
        alpha_name = named_beside(alpha, math("alpha", font_size=NAME, color=palette.WEIGHT))
        prime_name = named_beside(dropped, math("alpha'", font_size=NAME, color=palette.WEIGHT))
        keep_name = named_beside(keep, math("m", font_size=NAME, color=palette.WRONG))
        region = maps_region()
        left = VGroup(alpha, alpha_name)
        if not dense and not layout.fits_legibly(left, region, FONT):
            return self._drop_stage(dense=True)
        if dense and not shaded and not layout.fits_legibly(left, region, FONT):
            return self._drop_stage(dense=True, shaded=True)
        beside = layout.flow(left, VGroup(keep, keep_name), gap=layout.FAR)
        in_place = not fits_worked(beside, region)  # side by side only while the numbers read large
        plan = left if in_place else beside
        layout.fit_into(plan, region)
        for amap, name in ((dropped, prime_name), (keep, keep_name)):
            if in_place or amap is dropped:
                VGroup(amap, name).scale(alpha.body.width / amap.body.width)
                VGroup(amap, name).shift(alpha.body.get_center() - amap.body.get_center())
        stage = DropStage(alpha, keep, dropped, VGroup(alpha_name), VGroup(keep_name), VGroup(prime_name), in_place)
        if shaded:  # they enter with their numbers hidden where those read below the floor
            close_up.apply_shot_state(camera.rest_shot(), VGroup(alpha, keep, dropped), region)
        return stage

    # --- beats ------------------------------------------------------------------------------------------------
    @beat
    def order_of_operations(self) -> VGroup:
        """The pipeline that every later picture points into."""
        pipe, plan = compose(pipeline_forms())
        compact = plan.form == CHIPS
        shown = compose(staged_pipeline_forms(), pipeline_stage())[0] if compact else pipe
        self.say("The order of operations: scaled scores, causal mask, softmax, dropout, then multiply by V.",
                 subject=shown)
        if not compact:  # a narrow frame shows the boxes at full size now, the numbered chips in the top band after
            pipe.generate_target()  # where it stays for the rest of the clip: the top band
            layout.fit_into(pipe, layout.body())  # meanwhile, as large as the body allows
        self.play(LaggedStart(*(FadeIn(b, shift=RIGHT * layout.NUDGE) for b in shown.boxes), lag_ratio=0.3),
                  LaggedStart(*(Create(a) for a in shown.arrows), lag_ratio=0.3), run_time=2.5)
        for k in range(len(shown.boxes)):
            self.play(*self._focus(shown, k), run_time=0.5)
        self.wait(0.5)
        self.say("Dropout acts on the weight matrix: after the softmax, before the multiplication by V.",
                 subject=shown.boxes[STEP["dropout"]])
        self.play(*self._focus(shown, STEP["dropout"], palette.WRONG), run_time=0.6)
        self.wait(2.0)
        if not compact:
            self.play(MoveToTarget(pipe), run_time=0.8)
            return pipe
        for full, chip in zip(shown.boxes, pipe.boxes):  # each box becomes its chip, keeping its highlight
            chip[0].match_style(full[0])
        self.play(*(ReplacementTransform(full[0], chip[0]) for full, chip in zip(shown.boxes, pipe.boxes)),
                  *(ReplacementTransform(full[2], chip[1]) for full, chip in zip(shown.boxes, pipe.boxes)),
                  *(FadeOut(full[1], target_position=chip) for full, chip in zip(shown.boxes, pipe.boxes)),
                  ReplacementTransform(shown.arrows, pipe.arrows), run_time=0.8)
        self.remove(*shown.boxes)
        self.add(pipe)  # the chips as one spine, as the wide frame's pipeline is
        return pipe

    @beat
    def causal_weights(self, pipe: VGroup) -> DropStage:
        """Steps 1–3 give the causal weights: zeros above the diagonal, rows summing to one."""
        self.say("Steps one to three give the causal weights α: the future is masked, each row sums to one.")
        self.play(*self._focus(pipe, STEP["softmax"], palette.WEIGHT), run_time=0.6)
        stage = self._drop_stage()
        alpha = stage.alpha
        if not stage.keep_in_place:  # alone for now: as large as the body allows, until m comes beside it
            alpha.save_state()
            stage.alpha_name.save_state()
            layout.fit_into(VGroup(alpha, stage.alpha_name), maps_region())
        self.play(FadeIn(alpha.axes), Write(stage.alpha_name), run_time=0.8)
        self.play(LaggedStart(*(FadeIn(alpha.row(i)) for i in range(self.n)), lag_ratio=0.4), run_time=2.0)
        self.wait(3.0)
        return stage

    @beat
    def keep_mask(self, pipe: VGroup, stage: DropStage) -> None:
        """One random keep-mask: each entry kept with probability 1 − p."""
        p = format_value(self.src.value("p"), 2)
        self.say(f"In training, dropout keeps each weight with probability {ONE} − p, here p = {p}: "
                 "one random keep-mask m for this forward pass.",
                 narration=f"In training, dropout keeps each weight with probability {ONE} − p and drops the rest: "
                           "here is one random keep-mask, m, for this forward pass.")
        self.play(*self._focus(pipe, STEP["dropout"], palette.WRONG), run_time=0.6)
        keep, alpha_shown = stage.keep, VGroup(stage.alpha, stage.alpha_name)
        if stage.keep_in_place:  # too big to sit side by side: the mask takes the weights' place for a while
            self.play(FadeOut(alpha_shown), run_time=0.5)
            self.play(FadeIn(keep.axes), run_time=0.4)
        else:
            self.play(Restore(stage.alpha), Restore(stage.alpha_name), run_time=0.8)
            self.play(FadeIn(keep.column_labels), FadeIn(keep.key_name), run_time=0.4)
        self.play(Write(stage.keep_name), run_time=0.6)
        self.play(LaggedStart(*(FadeIn(keep.row(i)) for i in range(self.n)), lag_ratio=0.3), run_time=2.0)
        self.wait(2.0)
        dropped = self.dropped_at
        past = self.n * (self.n + 1) // 2
        if dropped:
            self.say(f"This mask happens to drop {count_word(len(dropped))} of the {count_word(past)} nonzero "
                     "weights; zeros in the future stay zero.")
            self.play(*(Indicate(keep.cell(i, j), color=palette.WRONG, scale_factor=1.15) for i, j in dropped),
                      run_time=1.5)
        else:
            self.say(f"This mask happens to keep all {count_word(past)} nonzero weights: this pass drops nothing, "
                     "and the future's zeros stay zero.")
            self.play(Indicate(keep.body, color=palette.RIGHT, scale_factor=1.05), run_time=1.5)
        self.wait(3.0)
        if stage.keep_in_place:
            self.play(FadeOut(VGroup(keep, stage.keep_name)), run_time=0.5)
            self.play(FadeIn(alpha_shown), run_time=0.5)

    @beat
    def drop_and_rescale(self, pipe: VGroup, stage: DropStage) -> None:
        """Dropped weights become zero; the kept ones are divided by 1 − p. The step's formula takes the pipeline's
        place in the top band meanwhile (the maps keep the whole body)."""
        dropped = self.dropped_at
        if dropped:
            self.say("Dropped weights become zero (dark red); the kept ones are multiplied by the rescale factor.",
                     narration="The dropped weights become zero, shown in dark red; the kept ones are multiplied by "
                               "a rescale factor.")
        else:
            self.say("No weight was dropped this time; the kept ones, all of them, are multiplied by the rescale "
                     "factor.")
        formula = math(f"{{{{ alpha'_(i j) : out }}}} = {{{{ alpha_(i j) : a }}}} dot {{{{ m_(i j) : m }}}} dot "
                       f"{{{{ frac({ONE}, {ONE} - p) : r }}}}", font_size=typography.BODY_SIZE + 2)
        factor = VGroup(math("=", font_size=typography.BODY_SIZE + 2),
                        self.src.number("rescale", decimals=2, font_size=typography.BODY_SIZE + 2))
        factor.arrange(RIGHT, buff=layout.NEAR)
        line = VGroup(formula, factor).arrange(RIGHT, buff=layout.NEAR)
        band = layout.top_band()
        if not layout.fits_legibly(line, band, typography.BODY_SIZE + 2):  # narrow: the factor under the formula,
            line.arrange(DOWN, buff=layout.GAP)  # both over the maps, which leave the body's top free there
            shown = VGroup(stage.alpha, stage.alpha_name)
            band = layout.Region(band.left, band.right, shown.get_top()[1] + layout.GAP, band.top)
        layout.fit_into(line, band, grow=False)
        self.play(FadeOut(pipe), run_time=0.4)
        self.play(Write(formula), run_time=1.2)
        m_box = frame_box(formula.select("m"), color=palette.WRONG)
        self.play(Create(m_box), run_time=0.5)
        alpha, after = stage.alpha, stage.dropped
        if dropped:  # the mask's zero enters each dropped cell
            self.play(motion.lagged([motion.travel(VGroup(alpha.cell(i, j), formula.select("m")), after.cell(i, j))
                                     for i, j in dropped]),
                      *(FadeOut(alpha.cell(i, j)) for i, j in dropped), run_time=1.5)
        self.wait(0.8)
        rescale = format_value(self.src.value("rescale"), 2)
        p = format_value(self.src.value("p"), 2)
        if p == format_value(0, 2):
            self.say(f"With p = {p} the factor {ONE}/({ONE} − p) is {rescale}: dropout leaves every weight as it was.")
        else:
            self.say(f"Kept weights × {ONE}/({ONE} − p) = {rescale}: each weight keeps its expected value, "
                     "though a row's sum now varies from pass to pass.",
                     narration=f"Dividing the kept weights by {ONE} − p, that is multiplying them by {rescale}, "
                               "keeps each weight's expected value, though a row's sum now varies from pass to pass.")
        r_box = frame_box(formula.select("r"), color=palette.WEIGHT)
        self.play(ReplacementTransform(m_box, r_box), FadeIn(factor, shift=LEFT * layout.NUDGE), run_time=0.8)
        kept = [(i, j) for i in range(self.n) for j in range(i + 1) if (i, j) not in dropped]
        if kept:  # each kept weight and the factor travel together into α'
            self.play(motion.lagged([motion.travel(VGroup(alpha.cell(i, j), factor[1]), after.cell(i, j))
                                     for i, j in kept]),
                      *(FadeOut(alpha.cell(i, j)) for i, j in kept), run_time=1.5)
        self.play(ReplacementTransform(stage.alpha_name, stage.prime_name), run_time=0.5)
        self.wait(3.4)
        self.play(FadeOut(r_box), FadeOut(VGroup(formula, factor)), run_time=0.3)
        self.play(FadeIn(pipe), run_time=0.4)

    @beat
    def train_versus_eval(self, pipe: VGroup) -> None:
        """Training mixes V with the dropped weights; eval uses the causal weights intact. Rows too large to read
        whole at the worked size are visited by the camera one at a time, then seen together as shades."""
        self.say("Then × V. In training the dropped weights mix the values; "
                 "in eval mode dropout does nothing and the weights stay intact.",
                 narration="Then multiply by V. In training, the weights after dropout mix the values; in eval "
                           "mode dropout does nothing, and the weights stay intact.")
        self._clear_all_but(pipe)
        self.play(*self._focus(pipe, STEP["times_v"], palette.VALUE), run_time=0.6)
        rows, visited = self._mix_rows()
        if visited:
            framed.cover_top_band(self)
        for row in rows:
            if visited:
                framed.move_to_shot(self, camera.shot_on(row, maps_region()), rows, [pipe],
                                    number_floor=self.mix_floor, region=maps_region())
            self.play(FadeIn(row.mode), FadeIn(row.weights), run_time=0.8)
            if row.times_values.submobjects:
                self.play(FadeIn(row.times_values), run_time=0.6)
            self.play(FadeIn(row.equals), *self._mixing(row), run_time=1.2)
            settle(self, [row.out], [cell for cells in row.out.cells for cell in cells])
            if visited:
                framed.keep_in_front(self, [pipe])
        if visited:  # both rows together: their numbers as shades
            framed.move_to_shot(self, camera.shot_on_all(rows, maps_region()), rows, [pipe],
                                number_floor=self.mix_floor, region=maps_region())
        self.wait(1.0)
        self.say(self._train_eval_verdict())
        self.play(Indicate(rows[0].out, color=palette.WRONG, scale_factor=1.05),
                  Indicate(rows[1].out, color=palette.RIGHT, scale_factor=1.05), run_time=1.5)
        self.wait(2.5)

    def _mixing(self, row: VGroup) -> list:
        """The output arrives from what makes it: entry by entry from the weights' rows and V's columns where both
        are drawn (products.into_product), else the named product collapses into it."""
        if not row.times_values.submobjects:
            return motion.collapse(row.weights, row.out)
        return [FadeIn(row.out.brackets), motion.lagged(into_product(row.weights, row.times_values[-1], row.out))]

    def _train_eval_verdict(self) -> str:
        train, evaluation = self.src.get("output_train"), self.src.get("output_eval")
        same = all(format_value(float(a), 2) == format_value(float(b), 2)
                   for a, b in zip(train.flatten().tolist(), evaluation.flatten().tolist()))
        if same:
            return ("Same V, and here the same output: this pass dropped nothing and rescaled by one; in general "
                    "training adds noise as regularisation.")
        return "Same V, different mixing: eval always gives the same output; training adds noise as regularisation."

    def _mix_rows(self) -> tuple[VGroup, bool]:
        """[mode] [weights] · [V] = [output], training over eval, fitted when its numbers read at the worked size;
        else built at that size, larger than the body, for the camera to visit row by row (True), when each row
        fits the body alone; else fitted if legible, else "[mode] α' V = [output]" side by side: the weights were
        just shown, and V is the same for both."""
        region = layout.body()
        self.mix_floor = WORKED  # the size the camera shows the rows' numbers at (shaded below it)
        rows = self._full_rows()
        if fits_worked(rows, region):
            return layout.fit_into(rows, region), False
        rows.scale(WORKED * close_up.BUILD_MARGIN / FONT).move_to(region.center)
        room = (region.width - 2 * camera.FRAMING_MARGIN, region.height - 2 * camera.FRAMING_MARGIN)
        if all(row.width <= room[0] and row.height <= room[1] for row in rows):
            return rows, True
        rows = self._full_rows()
        if not layout.fits_legibly(rows, region, FONT):
            rows = layout.flow(self._short_row("training", "output_train", True),
                               self._short_row("eval", "output_eval", False), gap=layout.FAR)
            if not layout.fits_legibly(rows, region, FONT):  # the outputs too tall to read both: the camera's turn
                for size in (WORKED, typography.MIN_FONT_SIZE):  # the worked size, else the floor
                    close = layout.flow(self._short_row("training", "output_train", True, over=True),
                                        self._short_row("eval", "output_eval", False, over=True), gap=layout.FAR)
                    close.scale(size * close_up.BUILD_MARGIN / FONT).move_to(region.center)
                    if all(row.width <= region.width and row.height <= room[1] for row in close):
                        self.mix_floor = size
                        return close, True
        return layout.fit_into(rows, region), False

    def _full_rows(self) -> VGroup:
        rows = VGroup(self._mix_row("training", "dropped_weights", "output_train", True),
                      self._mix_row("eval", "weights", "output_eval", False))
        rows.arrange(DOWN, buff=layout.APART)
        rows[1].shift(RIGHT * (rows[0].weights.get_left()[0] - rows[1].weights.get_left()[0]))
        return rows

    def _mix_row(self, mode: str, weights_path: str, output_path: str, dropped: bool) -> VGroup:
        """One row of the train / eval comparison, the weights drawn as a map."""
        weights = self._map(weights_path, key_label=None, query_label=None)
        if dropped:
            self._mark_dropped(weights)
        values = matrix(self.src, "V", color=palette.VALUE, font_size=FONT)
        row = self._row(mode, weights, VGroup(math("dot", font_size=typography.BODY_SIZE), values), output_path,
                        dropped, mode_size=NAME, gap=layout.NEAR)  # close-packed: a row alone fits the body
        rest = VGroup(*row.submobjects[1:])
        row.mode.next_to(rest, UP, buff=layout.NEAR).align_to(rest, LEFT)  # above: the row stays narrow
        return row

    def _short_row(self, mode: str, output_path: str, dropped: bool, over: bool = False) -> VGroup:
        """One row of the comparison with the weights and V named, not drawn; the mode's name above it."""
        product = math("alpha' V" if dropped else "alpha V", font_size=NAME, color=palette.WEIGHT)
        row = self._row(mode, product, VGroup(), output_path, dropped, cell_size=compact_row(FONT),
                        mode_size=NAME if over else typography.LABEL_SIZE)  # over: read from afar too
        if over:  # "mode α' V =" over the output, so the row is only as wide as the output (a close-up of each)
            head = VGroup(row.mode, row.weights, row.equals).arrange(RIGHT, buff=layout.NEAR)
            head.next_to(row.out, UP, buff=layout.GAP).match_x(row.out)
            return row
        rest = VGroup(*row.submobjects[1:])
        row.mode.next_to(rest, UP, buff=layout.GAP).match_x(rest)
        return row

    def _row(self, mode: str, weights, times_values: VGroup, output_path: str, dropped: bool,
             cell_size: float = typography.CELL, mode_size: float = typography.LABEL_SIZE,
             gap: float = layout.GAP) -> VGroup:
        name = label(mode, font_size=mode_size, bold=True,
                     color=palette.WRONG if dropped else palette.RIGHT)
        equals = math("=", font_size=typography.BODY_SIZE)
        out = matrix(self.src, output_path, color=palette.CONTEXT, font_size=FONT, cell_size=cell_size)
        row = VGroup(name, weights, *times_values, equals, out).arrange(RIGHT, buff=gap)
        row.mode, row.weights, row.times_values, row.equals, row.out = name, weights, times_values, equals, out
        return row

    @beat
    def why_mask_before_softmax(self, pipe: VGroup) -> None:
        """Brief reminder of the causal clip: swapping steps 2 and 3 breaks the distribution."""
        self._clear_all_but(pipe)
        self.play(*self._focus(pipe, -1), run_time=0.3)
        causal = Source("causal")
        sums = [causal.value("wrong_order_row_sums", i) for i in range(self.n)]
        least = min(range(self.n), key=lambda i: sums[i])
        table, _ = compose(order_sums_forms(causal, self.n))
        self.say(swap_caption(self.tokens, sums), subject=table.wrong.numbers)
        mask_box, soft_box = pipe.boxes[STEP["mask"]], pipe.boxes[STEP["softmax"]]
        self.play(Swap(mask_box, soft_box), run_time=1.2)
        self.play(mask_box[0].animate.set_stroke(palette.WRONG, 5),
                  soft_box[0].animate.set_stroke(palette.WRONG, 5), run_time=0.4)
        self.play(FadeIn(table.header), FadeIn(table.wrong, shift=UP * layout.NUDGE), run_time=0.8)
        self.play(Indicate(table.wrong.numbers[least], color=palette.WRONG, scale_factor=1.2), run_time=0.8)
        self.wait(2.7)
        self.say("So: mask, softmax, dropout, × V, in that order; the causal clip shows the swap in full.",
                 narration="So: mask, softmax, dropout, then multiply by V, in that order. The causal clip shows the "
                           "swap in full.", subject=table.right.numbers)
        self.play(Swap(mask_box, soft_box), run_time=1.0)
        self.play(*self._focus(pipe, STEP["dropout"], palette.RIGHT), run_time=0.6)  # it dims the swapped two
        self.play(FadeIn(table.right, shift=UP * layout.NUDGE), run_time=0.8)
        self.wait(2.5)


# --- the last beat's table -------------------------------------------------------------------------------------
def swap_caption(tokens, sums) -> str:
    """What swapping steps two and three does to the rows' sums, as shown: the row that keeps least, or (where
    every row still shows one) why."""
    least = min(range(len(tokens)), key=lambda i: sums[i])
    kept = format_value(sums[least], 2)
    if kept != format_value(ONE, 2):
        return (f"Swap steps two and three (softmax, then mask) and the rows no longer sum to one: "
                f"the row of “{tokens[least]}” keeps only {kept}.")
    return (f"Swap steps two and three (softmax, then mask): here every row still shows {kept}, because "
            "the future held almost no weight; in general the rows stop summing to one.")


@dataclass(frozen=True)
class OrderSums:
    """The row sums of both orders under one header: a line per order, or a column per order."""

    header: VGroup
    wrong: VGroup  # the line's group, with `.numbers`
    right: VGroup

    @property
    def whole(self) -> VGroup:
        return VGroup(self.header, self.wrong, self.right)


def sums_line(causal: Source, n: int, path: str, text: str, color, column: bool, gap: float) -> VGroup:
    """"<order>: s_1 … s_T" — the traced row sums of one order of operations; `column` sets them in a column under
    the order's name, broken over two lines, `gap` apart."""
    numbers = VGroup(*(causal.number(path, i, decimals=2, font_size=typography.NUMBER_SIZE, color=color)
                       for i in range(n)))
    if column:
        numbers.arrange(DOWN, buff=gap)
        name = VGroup(*(label(part, font_size=typography.LABEL_SIZE, color=color)
                        for part in text.split(" ", 1))).arrange(DOWN, buff=layout.TIGHT)
        line = VGroup(name, numbers).arrange(DOWN, buff=layout.GAP)
    else:
        numbers.arrange(RIGHT, buff=layout.APART)
        line = VGroup(label(text, font_size=typography.LABEL_SIZE, color=color), numbers).arrange(RIGHT,
                                                                                                  buff=layout.GAP)
    line.numbers = numbers
    return line


def order_sums(causal: Source, n: int, column: bool, gap: float = layout.GAP) -> OrderSums:
    """The header over both orders' sums: a line each, the right order's numbers under the wrong order's; or a
    column each, side by side, the sums of one row level."""
    header = label("row sums of the weights", font_size=typography.LABEL_SIZE, color=palette.MUTED)
    wrong = sums_line(causal, n, "wrong_order_row_sums", "softmax, then mask:", palette.WRONG, column, gap)
    right = sums_line(causal, n, "right_order_row_sums", "mask, then softmax:", palette.RIGHT, column, gap)
    if column:
        columns = VGroup(wrong, right).arrange(RIGHT, buff=layout.APART, aligned_edge=UP)
        for new, old in zip(right.numbers, wrong.numbers):
            new.match_y(old)
        VGroup(header, columns).arrange(DOWN, buff=layout.APART)
    else:
        VGroup(header, wrong, right).arrange(DOWN, buff=layout.APART)
        right.align_to(wrong, LEFT)
        for new, old in zip(right.numbers, wrong.numbers):
            new.match_x(old)
    return OrderSums(header, wrong, right)


def order_sums_forms(causal: Source, n: int) -> list[Form]:
    """A line per order and a column per order (the body's own flow first), then the columns close-packed."""
    whole = lambda table: table.whole  # noqa: E731
    return [*flow_forms(lambda column: order_sums(causal, n, column), whole=whole),
            Form("stacked, close", lambda: order_sums(causal, n, True, layout.TIGHT), whole)]
