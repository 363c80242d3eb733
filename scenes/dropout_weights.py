"""Dropout on the attention weights: after the softmax, before × V; zero some α_ij and rescale the rest.

Follows the post's "Dropout on attention weights": the five-step order of operations, one seeded keep-mask,
the 1/(1 − p) rescale, train vs eval, and why mask and softmax may not be swapped.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from manim import (
    DOWN, LEFT, RIGHT, UL, UP, Arrow, Create, FadeIn, FadeOut, Indicate, LaggedStart, Mobject, MoveToTarget,
    ReplacementTransform, Restore, RoundedRectangle, Swap, VGroup, Write,
)

from scenes.kit import (
    AttentionMap, AttentionScene, Source, beat, format_value, term_box, label, layout, math, matrix, motion,
    palette, staging, typography,
)
from scenes.kit.attention_map import share_columns
from scenes.kit.claims import count_word
from scenes.kit.compose import Form, Plan, compose
from scenes.kit.contrast import readable_on
from scenes.kit.forms import flow_forms, map_style_forms
from scenes.kit.products import compact_row, into_product_by_row, settle
from scenes.kit.translation import N_, _, quoted

#: The constant "1" of the formulas 1 − p and 1/(1 − p): part of the notation, not data.
ONE = 1
FONT = typography.SMALL_SIZE  # every map of the clip: one size, so the weight maps swap cell for cell
NAME = typography.HEADING_SIZE

#: The post's five steps, in order; `STEP["dropout"]` is the index of that box in the pipeline.
STEP_NAMES = ("scores", "mask", "softmax", "dropout", "times_v")
STEP = {name: k for k, name in enumerate(STEP_NAMES)}



# --- captions ------------------------------------------------------------------------------------------------
def keep_caption(p: float) -> tuple[str, str]:
    """The keep-mask's caption and narration: each weight kept with probability 1 − p (p as shown)."""
    shown = format_value(p, 2)
    return (_("In training, dropout keeps each weight with probability {one} − p, here p = {p}: one random keep-mask "
              "m for this forward pass.").format(one=ONE, p=shown),
            _("In training, dropout keeps each weight with probability {one} − p, here p = {p}, and drops the rest: "
              "one random keep-mask, m, for this forward pass.").format(one=ONE, p=shown))


def dropped_caption(n: int, dropped: int) -> str:
    """What this pass's mask does to the causal weights of `n` tokens (their n(n + 1)/2 nonzero ones)."""
    past = n * (n + 1) // 2
    if dropped:
        return _("This mask happens to drop {dropped} of the {past} nonzero weights; zeros in the future stay "
                 "zero.").format(dropped=count_word(dropped), past=count_word(past))
    return _("This mask happens to keep all {past} nonzero weights: this pass drops nothing, and the future's zeros "
             "stay zero.").format(past=count_word(past))


def zeroing_caption(dropped: int) -> tuple[str, str]:
    """The caption and narration as the mask's zeros enter the weights."""
    if dropped:
        return (_("Dropped weights become zero (dark red); the kept ones are multiplied by the rescale factor."),
                _("The dropped weights become zero, shown in dark red; the kept ones are multiplied by a rescale "
                  "factor."))
    text = _("No weight was dropped this time; the kept ones, all of them, are multiplied by the rescale factor.")
    return text, text


def rescale_caption(p: float, rescale: float) -> tuple[str, str]:
    """The caption and narration of the 1/(1 − p) rescale, with p and the factor as shown."""
    shown_p, shown_r = format_value(p, 2), format_value(rescale, 2)
    if shown_p == format_value(0, 2):
        text = _("With p = {p} the factor {one}/({one} − p) is {factor}: dropout leaves every weight as it was.").format(
            p=shown_p, one=ONE, factor=shown_r)
        return text, text
    return (_("Kept weights × {one}/({one} − p) = {factor}: each weight keeps its expected value, though a row's sum "
              "now varies from pass to pass.").format(one=ONE, factor=shown_r),
            _("Dividing the kept weights by {one} − p, that is multiplying them by {factor}, keeps each weight's "
              "expected value, though a row's sum now varies from pass to pass.").format(one=ONE, factor=shown_r))


def train_eval_verdict(train, evaluation) -> str:
    """Training against eval, as the outputs are shown (two decimals): the same here, or not."""
    same = all(format_value(float(a), 2) == format_value(float(b), 2)
               for a, b in zip(train.flatten().tolist(), evaluation.flatten().tolist()))
    if same:
        return _("Same V, and here the same output: this pass dropped nothing and rescaled by one; in general training "
                 "adds noise as regularisation.")
    return _("Same V, different mixing: eval always gives the same output; training adds noise as regularisation.")


# --- the maps ------------------------------------------------------------------------------------------------
def clip_map(src: Source, tokens, path: str, style: dict, **extra) -> AttentionMap:
    """A map of the clip, in one of the kit's map arrangements (`style`)."""
    names = {"query_label": _("query"), "key_label": _("key")}  # the kit's names, in the language of the run
    return AttentionMap(src, path, tokens, causal=True, font_size=FONT, **{**names, **style, **extra})


def mark_dropped(amap: AttentionMap, dropped_at) -> AttentionMap:
    for i, j in dropped_at:
        amap.cell(i, j)[0].set_fill(palette.DROPPED, opacity=1)
    return amap


def keep_map(src: Source, tokens, style: dict) -> AttentionMap:
    """The keep-mask m_ij ∈ {0, 1}: traced zeros and ones; dropped cells dark red, the future dimmed."""
    amap = clip_map(src, tokens, "keep_mask", style, decimals=0)
    keep = src.get("keep_mask")
    for i in range(len(tokens)):
        for j in range(i + 1):
            kept = bool(keep[i, j])
            amap.cell(i, j)[0].set_fill(palette.ZERO if kept else palette.DROPPED, opacity=1)
            amap.cell(i, j)[1].set_color(palette.RIGHT if kept else readable_on(palette.DROPPED,
                                                                                 (palette.WRONG, palette.TEXT)))
    return amap


def in_corner(amap: AttentionMap, name: Mobject) -> Mobject:
    """A map's symbol in its empty corner: above the word "query", left of the key words."""
    return name.next_to(amap.query_name, UP, buff=layout.GAP).align_to(amap.query_name, RIGHT)


@dataclass(frozen=True)
class DropStage:
    """The weights before and after dropout (one place) and the keep-mask, beside them or in their place."""

    alpha: AttentionMap
    keep: AttentionMap
    dropped: AttentionMap
    alpha_name: Mobject
    keep_name: VGroup  # "m" over "p = …" (p traced)
    prime_name: Mobject
    keep_in_place: bool  # the mask takes the weights' place a while (it does not sit beside them)

    @property
    def p(self) -> Mobject:
        return self.keep_name[1]

    @property
    def whole(self) -> VGroup:
        return VGroup(self.alpha, self.alpha_name, self.keep, self.keep_name, self.dropped, self.prime_name)


def drop_stage(src: Source, tokens, dropped_at, style: dict, in_place: bool) -> DropStage:
    """α, α' and m built alike (their columns shared), α' on α's place; m beside them, or on their place too."""
    alpha, dropped, keep = share_columns(clip_map(src, tokens, "weights", style),
                                         mark_dropped(clip_map(src, tokens, "dropped_weights", style), dropped_at),
                                         keep_map(src, tokens, style))
    alpha_name = in_corner(alpha, math("alpha", font_size=NAME, color=palette.WEIGHT))
    p_line = VGroup(math("p {{ = : eq }}", font_size=typography.LABEL_SIZE),
                    src.number("p", decimals=2, font_size=typography.LABEL_SIZE)).arrange(RIGHT, buff=layout.TIGHT)
    p_line[1].match_y(p_line[0].select("eq"))  # the number on the sign's axis, not on the p's descender
    keep_name = in_corner(keep, VGroup(math("m", font_size=NAME, color=palette.WRONG), p_line).arrange(
        DOWN, buff=layout.TIGHT, aligned_edge=RIGHT))
    left, right = VGroup(alpha, alpha_name), VGroup(keep, keep_name)
    if in_place:
        right.shift(alpha.body.get_center() - keep.body.get_center())
    else:
        layout.flow(left, right, gap=layout.FAR)
    prime_name = in_corner(dropped.shift(alpha.body.get_center() - dropped.body.get_center()),
                           math("alpha'", font_size=NAME, color=palette.WEIGHT))
    return DropStage(alpha, keep, dropped, alpha_name, keep_name, prime_name, in_place)


def drop_stage_forms(src: Source, tokens, dropped_at) -> list[Form]:
    """In each map arrangement (roomiest first): the mask beside the weights, then in their place."""
    whole = lambda stage: stage.whole  # noqa: E731
    beside, in_place = (map_style_forms(lambda style, p=p: drop_stage(src, tokens, dropped_at, style, p),
                                        whole=whole, name="mask in place, " if p else "")
                        for p in (False, True))
    return [form for pair in zip(beside, in_place) for form in pair]


def overview_forms(src: Source, tokens, dropped_at) -> list[Form]:
    """α' as shades with its name, in each map arrangement, else its cells alone: what the stage turns into once
    every row was read."""
    def build(style: dict) -> VGroup:
        amap = mark_dropped(clip_map(src, tokens, "dropped_weights", {**style, "show_values": False}), dropped_at)
        return VGroup(amap, in_corner(amap, math("alpha'", font_size=NAME, color=palette.WEIGHT)))

    forms = map_style_forms(build)
    return [*forms, Form("cells only", lambda: forms[-1].build()[0].body)]  # where even the words would not read


def map_rows(amap: AttentionMap) -> list[list]:
    """A map's parts for staging.end_over: its axis names and key words, then each row's word and cells."""
    return [[amap.query_name, *amap.column_labels], *([amap.row_labels[i], *amap.row(i)] for i in range(amap.rows))]


def cell_rows(cells, animations_of) -> list:
    """The cells (i, j), a row of them at a time, for staging.work_rows: each with what lands on it."""
    rows = sorted({i for i, _ in cells})
    return [[[(target, anims) for target, anims in (animations_of(i, j) for i, j in cells if i == r)]]
            for r in rows]


# --- the rescale formula -------------------------------------------------------------------------------------
def formula_place(lines: int) -> layout.Region:
    """The formula's place: the top band, as tall again for each line beyond the first."""
    band = layout.top_band()
    return layout.Region(band.left, band.right, band.bottom - (lines - 1) * band.height, band.top)


def maps_region(place: layout.Region) -> layout.Region:
    """The body under the formula's place, less a gap: the maps' words stay clear of the band's boxes."""
    body = layout.body()
    return layout.Region(body.left, body.right, body.bottom, min(body.top, place.bottom) - layout.GAP)


def rescale_line(src: Source, lines: int) -> VGroup:
    """α'_ij = α_ij · m_ij · 1/(1 − p) and "= factor" (traced): on one line, or the factor under the formula."""
    size = typography.BODY_SIZE + 2
    formula = math(f"{{{{ alpha'_(i j) : out }}}} = {{{{ alpha_(i j) : a }}}} dot {{{{ m_(i j) : m }}}} dot "
                   f"{{{{ frac({ONE}, {ONE} - p) : r }}}}", font_size=size)
    factor = VGroup(math("=", font_size=size), src.number("rescale", decimals=2, font_size=size))
    factor.arrange(RIGHT, buff=layout.NEAR)
    line = VGroup(formula, factor).arrange(RIGHT if lines == 1 else DOWN, buff=layout.NEAR if lines == 1
                                           else layout.GAP)
    line.formula, line.factor = formula, factor
    return line


def rescale_line_forms(src: Source) -> list[Form]:
    """The formula and its factor on one line in the top band, else one over the other in a taller place."""
    return [Form(f"in {lines} line(s)", lambda lines=lines: rescale_line(src, lines), region=formula_place(lines),
                 grow=False) for lines in (1, 2)]


# --- training against eval -----------------------------------------------------------------------------------
def mix_row(src: Source, mode: str, weights, times_values: VGroup, output_path: str, dropped: bool,
            cell_size: float = typography.CELL, mode_size: float = typography.LABEL_SIZE,
            gap: float = layout.GAP) -> VGroup:
    """[weights] (· V) = [output], the mode's name kept beside until the caller places it."""
    name = label(_(mode), font_size=mode_size, bold=True, color=palette.WRONG if dropped else palette.RIGHT)
    equals = math("=", font_size=typography.BODY_SIZE)
    out = matrix(src, output_path, color=palette.CONTEXT, font_size=FONT, cell_size=cell_size)
    row = VGroup(name, weights, *times_values, equals, out).arrange(RIGHT, buff=gap)
    row.mode, row.weights, row.times_values, row.equals, row.out = name, weights, times_values, equals, out
    return row


def drawn_row(src: Source, tokens, dropped_at, mode: str, weights_path: str, output_path: str) -> VGroup:
    """One row of the comparison, the weights drawn as a map and V as a matrix; the mode's name above."""
    weights = clip_map(src, tokens, weights_path, {}, key_label=None, query_label=None)
    dropped = weights_path == "dropped_weights"
    if dropped:
        mark_dropped(weights, dropped_at)
    values = matrix(src, "V", color=palette.VALUE, font_size=FONT)
    row = mix_row(src, mode, weights, VGroup(math("dot", font_size=typography.BODY_SIZE), values), output_path,
                  dropped, mode_size=NAME, gap=layout.NEAR)
    rest = VGroup(*row.submobjects[1:])
    row.mode.next_to(rest, UP, buff=layout.NEAR).align_to(rest, LEFT)
    return row


def drawn_rows(src: Source, tokens, dropped_at) -> VGroup:
    """Training over eval, the weights and V drawn, the maps' left edges aligned."""
    rows = VGroup(drawn_row(src, tokens, dropped_at, N_("training"), "dropped_weights", "output_train"),
                  drawn_row(src, tokens, dropped_at, N_("eval"), "weights", "output_eval")).arrange(DOWN,
                                                                                                    buff=layout.APART)
    rows[1].shift(RIGHT * (rows[0].weights.get_left()[0] - rows[1].weights.get_left()[0]))
    return rows


def named_row(src: Source, mode: str, output_path: str, dropped: bool, over: bool) -> VGroup:
    """One row of the comparison with the weights and V named, not drawn (they were just shown; V is the same for
    both): the mode above the row, or `over`: "mode α' V =" over the output (a row as narrow as the output)."""
    product = math("alpha' V" if dropped else "alpha V", font_size=NAME, color=palette.WEIGHT)
    row = mix_row(src, mode, product, VGroup(), output_path, dropped,
                  cell_size=compact_row(FONT, pad=layout.HAIRLINE),
                  mode_size=NAME if over else typography.LABEL_SIZE)
    if over:
        head = VGroup(row.mode, row.weights, row.equals).arrange(RIGHT, buff=layout.NEAR)
        head.next_to(row.out, UP, buff=layout.GAP).match_x(row.out)
        return row
    rest = VGroup(*row.submobjects[1:])
    row.mode.next_to(rest, UP, buff=layout.GAP).match_x(rest)
    return row


def mix_forms(src: Source, tokens, dropped_at) -> list[Form]:
    """The weights and V drawn, training over eval; else both named, side by side or stacked; else (for the
    camera) each named over its output."""
    def named(over: bool, stacked: bool | None = None) -> VGroup:
        rows = (named_row(src, N_("training"), "output_train", True, over),
                named_row(src, N_("eval"), "output_eval", False, over))
        return layout.flow(*rows, gap=layout.FAR) if stacked is None else VGroup(*rows).arrange(
            DOWN if stacked else RIGHT, buff=layout.FAR)

    return [Form("drawn", lambda: drawn_rows(src, tokens, dropped_at)),
            *flow_forms(lambda stacked: named(False, stacked), suffix=", named"),
            Form("named over the outputs", lambda: named(True), close_up=True)]


def mix_work(row: VGroup) -> list:
    """A row's work for staging.work_rows: its parts coming in, then each output row filled from what makes it
    (entry by entry from the weights' row and V's columns where both are drawn, else the named product)."""
    intro = [(row.mode, [FadeIn(row.mode)]), (row.weights, [FadeIn(row.weights)]),
             *((part, [FadeIn(part)]) for part in row.times_values),
             (row.equals, [FadeIn(row.equals), FadeIn(row.out.brackets)])]
    if row.times_values.submobjects:
        arrivals = into_product_by_row(row.weights, row.times_values[-1], row.out)
    else:
        arrivals = [[motion.travel(row.weights, cell) for cell in row.out.row(i)] for i in range(row.out.rows)]
    return [intro, *([(row.out.row(i), anims)] for i, anims in enumerate(arrivals))]


def output_rows(rows: VGroup) -> list[list]:
    """Both outputs' cells, a row at a time, for staging.end_over."""
    return [list(row.out.row(i)) for row in rows for i in range(row.out.rows)]


def step_numbers() -> list:
    return [label(f"{k + 1}", font_size=typography.LABEL_SIZE, color=palette.MUTED) for k in range(len(STEP))]


def step_boxes() -> VGroup:
    """One box per step, its content centred and its number in the corner, all the size of the largest."""
    contents = [
        math("(Q K^top) / sqrt(d_k)", font_size=typography.LABEL_SIZE),
        label(_("mask −∞"), font_size=typography.LABEL_SIZE),
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
    pipeline = chain(boxes, RIGHT)
    pipeline.names = VGroup(*(chip_name(title, box, pipeline) for title, box in zip(STEP_TITLES, boxes)))
    pipeline.add(pipeline.names.set_opacity(0))
    return pipeline


#: Each step's name, shown under its chip while that step is the one highlighted (its colour then means something).
STEP_TITLES = (N_("scores"), N_("mask"), "softmax", "dropout", "× V")  # messages, translated where shown


def chip_name(title: str, box: VGroup, pipeline: VGroup) -> VGroup:
    """`title` under its chip, moved in where it would stick out past the chain's ends."""
    name = label(_(title), font_size=typography.LABEL_SIZE).next_to(box, DOWN, buff=layout.TIGHT)
    name.shift(RIGHT * max(0.0, pipeline.get_left()[0] - name.get_left()[0]))
    return name.shift(LEFT * max(0.0, name.get_right()[0] - pipeline.get_right()[0]))


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
        line, line_plan = compose(rescale_line_forms(self.src))
        stage, plan = self.causal_weights(pipe, line_plan)
        self.keep_mask(pipe, stage, plan)
        self.drop_and_rescale(pipe, stage, plan, line)
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
        for k, name in enumerate(getattr(pipe, "names", ())):  # the chips name the highlighted step
            anims.append(name.animate.set_opacity(1.0 if k == step else 0.0).set_color(color))
        return anims

    def _clear_all_but(self, keep) -> None:
        """Fade out everything except `keep` (the pipeline stays as the clip's spine), the camera back at rest with
        it (it stays still on screen)."""
        kept = set(keep.get_family())
        others = [m for m in self.mobjects if m not in kept and m is not self.camera.frame]
        if others:
            self.play(*(FadeOut(m) for m in others), run_time=0.6)
        staging.come_to_rest(self, [keep], run_time=0.6)

    # --- beats ------------------------------------------------------------------------------------------------
    @beat
    def order_of_operations(self) -> VGroup:
        """The pipeline that every later picture points into."""
        pipe, plan = compose(pipeline_forms())
        compact = plan.form == CHIPS
        shown = compose(staged_pipeline_forms(), pipeline_stage())[0] if compact else pipe
        self.say(_("The order of operations: scaled scores, causal mask, softmax, dropout, then multiply by V."),
                 subject=shown)
        if not compact:  # a narrow frame shows the boxes at full size now, the numbered chips in the top band after
            pipe.generate_target()  # where it stays for the rest of the clip: the top band
            layout.fit_into(pipe, layout.body())  # meanwhile, as large as the body allows
        self.play(LaggedStart(*(FadeIn(b, shift=RIGHT * layout.NUDGE) for b in shown.boxes), lag_ratio=0.3),
                  LaggedStart(*(Create(a) for a in shown.arrows), lag_ratio=0.3), run_time=2.5)
        for k in range(len(shown.boxes)):
            self.play(*self._focus(shown, k), run_time=0.5)
        self.wait(0.5)
        self.say(_("Dropout acts on the weight matrix: after the softmax, before the multiplication by V."),
                 subject=shown.boxes[STEP["dropout"]])
        self.play(*self._focus(shown, STEP["dropout"], palette.WRONG), run_time=0.6)
        self.wait(2.0)
        if not compact:
            self.play(MoveToTarget(pipe), run_time=0.8)
            return pipe
        for full, chip in zip(shown.boxes, pipe.boxes):  # each box becomes its chip, keeping its highlight
            chip[0].match_style(full[0])
        dropout, name = shown.boxes[STEP["dropout"]], pipe.names[STEP["dropout"]]
        name.set_opacity(1.0).set_color(palette.WRONG)  # and the highlighted step's name goes under its chip
        self.play(*(ReplacementTransform(full[0], chip[0]) for full, chip in zip(shown.boxes, pipe.boxes)),
                  *(ReplacementTransform(full[2], chip[1]) for full, chip in zip(shown.boxes, pipe.boxes)),
                  *(FadeOut(full[1], target_position=chip) for full, chip in zip(shown.boxes, pipe.boxes)
                    if full is not dropout), ReplacementTransform(dropout[1], name),
                  ReplacementTransform(shown.arrows, pipe.arrows), run_time=0.8)
        self.remove(*shown.boxes)
        self.add(pipe)  # the chips as one spine, as the wide frame's pipeline is
        return pipe


    @beat
    def causal_weights(self, pipe: VGroup, line_plan: Plan) -> tuple[DropStage, Plan]:
        """Steps 1–3 give the causal weights: zeros above the diagonal, rows summing to one."""
        stage, plan = compose(drop_stage_forms(self.src, self.tokens, self.dropped_at),
                              maps_region(line_plan.region), pinned=[pipe])
        alpha, alone = stage.alpha, VGroup(stage.alpha, stage.alpha_name)
        self.say(_("Steps one to three give the causal weights α: the future is masked, each row sums to one."),
                 subject=alpha)
        self.play(*self._focus(pipe, STEP["softmax"], palette.WEIGHT), run_time=0.6)
        if not stage.keep_in_place and not plan.camera:  # alone for now: as large as the region allows
            for part in alone:
                part.save_state()
            layout.fit_into(alone, plan.region)
        staging.enter(self, plan, FadeIn(alpha.axes), Write(stage.alpha_name), run_time=0.8)
        self.play(LaggedStart(*(FadeIn(alpha.row(i)) for i in range(self.n)), lag_ratio=0.4), run_time=2.0)
        staging.end_over(self, plan, map_rows(alpha))
        self.wait(3.0)
        return stage, plan

    @beat
    def keep_mask(self, pipe: VGroup, stage: DropStage, plan: Plan) -> None:
        """One random keep-mask: each entry kept with probability 1 − p."""
        keep, alone = stage.keep, VGroup(stage.alpha, stage.alpha_name)
        caption, narration = keep_caption(self.src.value("p"))
        self.say(caption, narration=narration, subject=VGroup(keep, stage.p))
        self.play(*self._focus(pipe, STEP["dropout"], palette.WRONG), run_time=0.6)
        if stage.keep_in_place:  # the mask takes the weights' place for a while
            self.play(FadeOut(alone), run_time=0.5)
        elif not plan.camera:
            self.play(*(Restore(part) for part in alone), run_time=0.8)
        staging.enter(self, plan, FadeIn(keep.axes), Write(stage.keep_name), run_time=0.8)
        self.play(LaggedStart(*(FadeIn(keep.row(i)) for i in range(self.n)), lag_ratio=0.3), run_time=2.0)
        staging.end_over(self, plan, [[stage.keep_name], *map_rows(keep)])
        self.wait(2.0)
        dropped = [keep.cell(i, j) for i, j in self.dropped_at]
        self.say(dropped_caption(self.n, len(dropped)), subject=VGroup(*dropped) if dropped else keep.body)
        if dropped:
            staging.end_over(self, plan, [[keep.cell(i, j) for i, j in self.dropped_at]])
            self.play(*(Indicate(cell, color=palette.WRONG, scale_factor=1.15) for cell in dropped), run_time=1.5)
        else:
            staging.end_over(self, plan, map_rows(keep))
            self.play(Indicate(keep.body, color=palette.RIGHT, scale_factor=1.05), run_time=1.5)
        self.wait(3.0)
        if stage.keep_in_place:
            self.play(FadeOut(VGroup(keep, stage.keep_name)), run_time=0.5)
            staging.enter(self, plan, FadeIn(alone), run_time=0.5)

    @beat
    def drop_and_rescale(self, pipe: VGroup, stage: DropStage, plan: Plan, line: VGroup) -> None:
        """Dropped weights become zero; the kept ones are divided by 1 − p. The step's formula takes the pipeline's
        place in the top band meanwhile (the maps keep the region under it)."""
        formula, factor, alpha, after = line.formula, line.factor, stage.alpha, stage.dropped
        caption, narration = zeroing_caption(len(self.dropped_at))
        self.say(caption, narration=narration, subject=VGroup(*(after.cell(i, j) for i, j in self.dropped_at)))
        staging.come_to_rest(self, [pipe], staying=[stage.whole], region=plan.region)
        self.play(FadeOut(pipe), Write(formula), run_time=1.2)
        m_box = term_box(formula, ["m"], palette.WRONG)
        self.play(Create(m_box), run_time=0.5)
        staging.work_rows(self, replace(plan, pinned=(formula, m_box)), cell_rows(self.dropped_at, lambda i, j: (
            after.cell(i, j), [motion.travel(VGroup(alpha.cell(i, j), formula.select("m")), after.cell(i, j)),
                               FadeOut(alpha.cell(i, j))])), run_time=0.8, lag=motion.LAG)
        self.wait(0.8)
        kept = [(i, j) for i in range(self.n) for j in range(i + 1) if (i, j) not in self.dropped_at]
        caption, narration = rescale_caption(self.src.value("p"), self.src.value("rescale"))
        self.say(caption, narration=narration, subject=VGroup(factor, *(after.cell(i, j) for i, j in kept)))
        staging.come_to_rest(self, [formula, m_box], staying=[stage.whole], region=plan.region)
        r_box = term_box(formula, ["r"], palette.WEIGHT)
        self.play(ReplacementTransform(m_box, r_box), FadeIn(factor, shift=LEFT * layout.NUDGE), run_time=0.8)
        staging.work_rows(self, replace(plan, pinned=(formula, factor, r_box)), cell_rows(kept, lambda i, j: (
            after.cell(i, j), [motion.travel(VGroup(alpha.cell(i, j), factor[1]), after.cell(i, j)),
                               FadeOut(alpha.cell(i, j))])), run_time=0.6, lag=motion.LAG)
        self.play(ReplacementTransform(stage.alpha_name, stage.prime_name), run_time=0.5)
        self.wait(3.4)
        staging.rest_as(self, replace(plan, pinned=()), overview_forms(self.src, self.tokens, self.dropped_at),
                        FadeOut(r_box), FadeOut(line), run_time=0.5)
        self.play(FadeIn(pipe), run_time=0.4)

    @beat
    def train_versus_eval(self, pipe: VGroup) -> None:
        """Training mixes V with the dropped weights; eval uses the causal weights intact: row by row, then the
        two outputs side by side."""
        rows, plan = compose(mix_forms(self.src, self.tokens, self.dropped_at), pinned=[pipe])
        self.say(_("Then × V. In training the dropped weights mix the values; in eval mode dropout does nothing and the "
                   "weights stay intact."),
                 narration=_("Then multiply by V. In training, the weights after dropout mix the values; in eval mode "
                             "dropout does nothing, and the weights stay intact."),
                 subject=VGroup(*(row.out for row in rows)))
        self._clear_all_but(pipe)
        self.play(*self._focus(pipe, STEP["times_v"], palette.VALUE), run_time=0.6)
        staging.enter(self, plan, run_time=0.6, with_the_move=True)  # the rows come in worked, one at a time
        staging.work_rows(self, plan, [mix_work(row) for row in rows], run_time=0.8, lag=motion.LAG)
        settle(self, [row.out for row in rows], [cell for row in rows for cells in row.out.cells for cell in cells])
        self.wait(1.0)
        self.say(train_eval_verdict(self.src.get("output_train"), self.src.get("output_eval")),
                 subject=VGroup(*(row.out for row in rows)))
        staging.end_over(self, plan, output_rows(rows))
        self.play(Indicate(rows[0].out, color=palette.WRONG, scale_factor=1.05),
                  Indicate(rows[1].out, color=palette.RIGHT, scale_factor=1.05), run_time=1.5)
        self.wait(2.5)

    @beat
    def why_mask_before_softmax(self, pipe: VGroup) -> None:
        """Brief reminder of the causal clip: swapping steps 2 and 3 breaks the distribution."""
        self._clear_all_but(pipe)
        self.play(*self._focus(pipe, -1), run_time=0.3)
        causal = Source("causal")
        sums = [causal.value("wrong_order_row_sums", i) for i in range(self.n)]
        least = min(range(self.n), key=lambda i: sums[i])
        table, _plan = compose(order_sums_forms(causal, self.n))
        self.say(swap_caption(self.tokens, sums), subject=table.wrong.numbers)
        mask_box, soft_box = pipe.boxes[STEP["mask"]], pipe.boxes[STEP["softmax"]]
        self.play(Swap(mask_box, soft_box), run_time=1.2)
        self.play(mask_box[0].animate.set_stroke(palette.WRONG, 5),
                  soft_box[0].animate.set_stroke(palette.WRONG, 5), run_time=0.4)
        self.play(FadeIn(table.header), FadeIn(table.wrong, shift=UP * layout.NUDGE), run_time=0.8)
        self.play(Indicate(table.wrong.numbers[least], color=palette.WRONG, scale_factor=1.2), run_time=0.8)
        self.wait(2.7)
        self.say(_("So: mask, softmax, dropout, × V, in that order; the causal clip shows the swap in full."),
                 narration=_("So: mask, softmax, dropout, then multiply by V, in that order. The causal clip shows the "
                             "swap in full."), subject=table.right.numbers)
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
        return _("Swap steps two and three (softmax, then mask) and the rows no longer sum to one: the row of {word} "
                 "keeps only {kept}.").format(word=quoted(tokens[least]), kept=kept)
    return _("Swap steps two and three (softmax, then mask): here every row still shows {kept}, because the future "
             "held almost no weight; in general the rows stop summing to one.").format(kept=kept)


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
    header = label(_("row sums of the weights"), font_size=typography.LABEL_SIZE, color=palette.MUTED)
    wrong = sums_line(causal, n, "wrong_order_row_sums", _("softmax, then mask:"), palette.WRONG, column, gap)
    right = sums_line(causal, n, "right_order_row_sums", _("mask, then softmax:"), palette.RIGHT, column, gap)
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
