"""Quality gates on what a scene puts on screen, checked at the end of every animation.

- layout: text or numbers outside the frame, two text mobjects overlapping, text below the 480p floor;
- numbers: every number shown is a TracedNumber whose value, at the precision shown, equals a fresh
  computation by attention_math (and no untraced DecimalNumber appears);
- narrated numbers: every decimal number a beat reads aloud is one of the numbers on screen during that beat
  (so the voice never says a number the picture does not show);
- typed claims: for an example other than the post's, no caption names a word of the post's sentences that the
  example does not have (a caption typed for the post's example, not computed from the data);
- frames: one frame per beat for pixel regression;
- legibility figures per beat (`BeatMetrics`): the smallest text and the smallest number as they come out on screen
  (through the camera), how much of the body the composition fills, and how often the camera moved; and the same
  sizes in CSS px on a phone held upright (scenes.kit.phone: minimum and median of texts and of numbers), which
  the portrait frame holds to phone.MIN_TEXT_CSS_PX and MIN_NUMBER_CSS_PX.

`python -m scenes.quality.inspection [--aspect portrait] [--example FILE.toml] [scene_id ...]` prints the problems found (exit 1 if any);
`--json` prints one JSON object per scene with every beat's figures instead.
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
import os
import re
import sys
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from manim import DecimalNumber, MathTypst, Mobject, Text, Typst, VGroup, VMobject, Wait, config
from manim.mobject.svg.svg_mobject import VMobjectFromSVGPath

from attention_math import example_spec, examples
from attention_math.learned import corpus
from scenes import frame, registry

from scenes.kit import camera_work, layout, phone, typography
from scenes.kit import shot_content
from scenes.kit.shot_content import typst_font_size
from scenes.kit.translation import active_language, decimal_sign, number_value
from scenes.quality import contrast_gate, label_gate, shade_gate
from scenes.kit.base import AttentionScene, BeatRecord
from scenes.quality.headless import add_aspect_option, aspect_is_valid, run_headless
from scenes.quality.spread_gate import descriptive_claim_problems
from scenes.quality.story_gate import BeatStory, StoryGate
from scenes.kit.numbers import TracedNumber, format_value, to_float
from scenes.kit.on_screen import View, boundary_box, camera_frame, current_view, points_box, screen_box

EDGE_TOLERANCE = 0.02  # units; anti-aliasing slack at the frame edge
OVERLAP_TOLERANCE = 0.04  # units; glyph boxes may touch, not overlap by more than this in both directions
FONT_SIZE_TOLERANCE = 0.97
# a decimal number in a narration, with its minus sign ("−0.45", "-0.45"); integers (counts, indices) do not match,
# nor does anything glued to a name or subscript (x_0.5); a minus after a letter (t-0.5) is an operator, not a sign
def decimal_pattern(sign: str) -> re.Pattern:
    """A decimal number written in a sentence with `sign` ("0.45", "−0,45"): not part of a word or a longer number."""
    mark = re.escape(sign)
    return re.compile(rf"(?<![\w.,])(?:[-−](?=\d))?\d+{mark}\d+(?![\d])")


NARRATED_DECIMAL = decimal_pattern(".")


@dataclass
class SceneReport:
    scene_id: str
    beat_frames: list[tuple[str, np.ndarray]] = field(default_factory=list)
    layout_problems: list[str] = field(default_factory=list)
    number_problems: list[str] = field(default_factory=list)
    narrated_number_problems: list[str] = field(default_factory=list)
    typed_claim_problems: list[str] = field(default_factory=list)
    story_problems: list[str] = field(default_factory=list)  # story_gate: a cue's subject or quoted number unseen
    contrast_problems: list[str] = field(default_factory=list)  # contrast_gate: text < 4.5:1, a graphic < 3:1
    min_text_contrast: dict[str, float | None] = field(default_factory=dict)  # beat → its lowest text contrast
    colour_only_problems: list[str] = field(default_factory=list)  # label_gate: a meaning told by colour alone
    shade_problems: list[str] = field(default_factory=list)  # shade_gate: a small grid's values shown as shades
    #: a small grid's values as shades in a picture on the engine's camera rung: allowed, listed (the post: none)
    filmed_shades: list[str] = field(default_factory=list)
    story: dict[str, Any] = field(default_factory=dict)  # beat → story_gate.BeatStory
    beat_log: list[BeatRecord] = field(default_factory=list)  # captions and narration of every beat
    shown_numbers: dict[str, set[str]] = field(default_factory=dict)  # beat → every TracedNumber.shown_text seen
    numbers_checked: int = 0
    animations_checked: int = 0
    metrics: list["BeatMetrics"] = field(default_factory=list)  # one per beat, in order
    duration: float = 0.0  # the clip's length: the headless clock is the storyboard's (plays and waits)
    subcaptions: list[str] = field(default_factory=list)  # every subcaption the clip's caption track would carry
    #: In a run in another language than English only (None in English): the Typst code of every text (`Typst`)
    #: and of every formula (`MathTypst`) on the stage after any animation, seen or not (tests/test_french_run.py
    #: holds them to no English word; gathered from this run, so the French run is not made twice).
    stage_texts: set[str] | None = None
    stage_math: set[str] | None = None

    def problems(self) -> list[str]:
        """Every gate's problems: layout, numbers on screen, narrated numbers, typed claims, contrast on screen, a
        meaning told by colour alone. (The story and shade gates are held apart: `arithmetic_problems`.)"""
        return (self.layout_problems + self.number_problems + self.narrated_number_problems
                + self.typed_claim_problems + self.contrast_problems + self.colour_only_problems)

    def arithmetic_problems(self) -> list[str]:
        """Whether the arithmetic is on screen: the story gate (a cue's subject and quoted numbers shown, legible,
        while it is said) and the shade gate (a small grid's values are numbers, never shades)."""
        return self.story_problems + self.shade_problems


@dataclass
class BeatMetrics:
    """How legible one beat is, as the viewer sees it (sizes in font points on the frame at rest, through the
    camera's zoom; `fill` is the composition's box over the body region in its binding dimension, 1.0 = edge to
    edge). `fill` is taken at the beat's last non-empty settled state (after its last animation that leaves
    something on screen)."""

    beat: str
    min_font_size: float | None = None
    number_font_size: float | None = None
    fill: float = 0.0
    camera_moves: int = 0
    shaded_values: int = 0  # the most values seen at once as shades, their numbers hidden (any grid)
    # CSS px on a phone held upright of every text unit (non-number) and number seen in the beat: its smallest
    text_css: dict[int, float] = field(default_factory=dict)
    number_css: dict[int, float] = field(default_factory=dict)

    def see_text(self, size: float, is_number: bool, unit_id: int | None = None) -> None:
        self.min_font_size = size if self.min_font_size is None else min(self.min_font_size, size)
        if is_number:
            self.number_font_size = size if self.number_font_size is None else min(self.number_font_size, size)
        if unit_id is not None:
            seen = self.number_css if is_number else self.text_css
            css = phone.css_px(size)
            seen[unit_id] = min(css, seen.get(unit_id, css))

    def css_figures(self) -> dict:
        """The beat's minimum and median CSS px of its texts and of its numbers (None where it shows none)."""
        figures = {}
        for kind, seen in (("text", self.text_css), ("number", self.number_css)):
            values = list(seen.values())
            figures[f"min_{kind}_css_px"] = round(min(values), 2) if values else None
            figures[f"median_{kind}_css_px"] = round(statistics.median(values), 2) if values else None
        return figures

    def as_json(self) -> dict:
        rounded = lambda v: None if v is None else round(v, 2)  # noqa: E731
        return {"beat": self.beat, "min_font_size": rounded(self.min_font_size),
                "number_font_size": rounded(self.number_font_size), "fill": round(self.fill, 3),
                "camera_moves": self.camera_moves, "shaded_values": self.shaded_values, **self.css_figures()}


class TornText(VGroup):
    """The visible glyphs of a Typst text that is no longer whole on the stage, gathered back into one unit.

    Lighting a term (`eq.select(key).animate…`) makes manim add the selected glyphs as a mobject of their own, and
    Scene.add then breaks the formula into its loose glyphs. A glyph copy that travelled and stayed is loose too.
    Without this, such glyphs are no text unit at all, and no overlap, edge or size gate sees them. Made by the
    inspection only; never added to a scene."""

    def __init__(self, glyphs: list[Mobject], owner: Mobject | None) -> None:
        super().__init__(*glyphs)
        self.owner = owner
        self.typst_code = getattr(owner, "typst_code", None) or "loose glyphs"
        self.torn_font_size = getattr(owner, "font_size", None) if owner is not None else None


_TEXT_TYPES = shot_content.TEXT_TYPES  # one definition of a text, the camera's and the gates'


def _is_glyph(mob: Mobject) -> bool:
    """A piece of a parsed Typst text (exactly manim's SVG path: a Brace is a subclass, and no text)."""
    return type(mob) is VMobjectFromSVGPath


def _only_glyphs_memo():
    """Whether a mobject's family has points and all of them are glyphs, answered from one walk of each family
    however many of its ancestors ask (text_units asks it of every group on its way down)."""
    memo: dict[int, tuple[bool, bool]] = {}

    def tally(mob: Mobject) -> tuple[bool, bool]:
        """(some member has points, every member with points is a glyph)."""
        known = memo.get(id(mob))
        if known is not None:
            return known
        memo[id(mob)] = (False, True)  # a mobject inside itself adds nothing (get_family skips it too)
        drawn = len(mob.points) > 0  # Mobject.get_num_points, no subclass overrides it
        glyphs = not drawn or type(mob) is VMobjectFromSVGPath  # _is_glyph
        for sub in mob.submobjects:
            sub_drawn, sub_glyphs = memo.get(id(sub)) or tally(sub)
            drawn, glyphs = drawn or sub_drawn, glyphs and sub_glyphs
        memo[id(mob)] = (drawn, glyphs)
        return drawn, glyphs

    def only_glyphs(mob: Mobject) -> bool:
        drawn, glyphs = tally(mob)
        return drawn and glyphs

    return only_glyphs


def text_units(scene: AttentionScene) -> list[Mobject]:
    """The outermost text-like mobjects on screen (see `measured_text_units`)."""
    return measured_text_units(scene)[0]


def measured_text_units(scene: AttentionScene
                        ) -> tuple[list[Mobject], dict[int, tuple[float | None, tuple[float, float, float, float]]]]:
    """The outermost text-like mobjects on screen, and each one's (effective_font_size, boundary_box) by id, measured
    together (shot_content's one gathering of their points: the same floats as measuring them one by one, a unit's
    box asked once an animation, not once for the band's cover and again for the screen): traced numbers, Typst/MathTypst, Pango Text, bare decimals, and
    loose glyphs as TornText: a torn formula's glyphs gathered by the text they came from (every Typst seen whole
    is remembered), and each outermost group of glyph copies as one unit. A text wholly under the band's cover is
    hidden, not on screen."""
    found: list[tuple[Mobject, int]] = []  # a unit, and the index of its top-level mobject (what is drawn over what)
    owners: dict[int, tuple[Mobject, Mobject]] = scene.__dict__.setdefault("_glyph_owners", {})
    remembered: set[int] = scene.__dict__.setdefault("_glyph_owners_seen", set())
    loose: dict[int, tuple[Mobject | None, list[Mobject], list[int]]] = {}
    only_glyphs = _only_glyphs_memo()

    def remember(text: Mobject) -> None:
        if isinstance(text, Typst) and id(text) not in remembered:
            remembered.add(id(text))
            for part in text.family_members_with_points():
                owners[id(part)] = (part, text)

    def glyph_root(path: list[Mobject]) -> Mobject:
        """The outermost of `path` (a loose glyph's ancestors, top first, and the glyph) whose family has points,
        all of them glyphs: asked only where a loose glyph is met, not of every group on the way down (a grid's
        every number's every glyph walked after every animation)."""
        return next(mob for mob in path if only_glyphs(mob))

    def visit(mob: Mobject, path: list[Mobject], layer: int) -> None:
        if isinstance(mob, _TEXT_TYPES):
            found.append((mob, layer))
            remember(mob)
            return
        path.append(mob)
        if type(mob) is VMobjectFromSVGPath and len(mob.points) > 0 and is_visible(mob):  # a glyph with points
            known = owners.get(id(mob))
            owner = known[1] if known is not None and known[0] is mob else None
            entry = loose.setdefault(id(owner) if owner is not None else id(glyph_root(path)), (owner, [], []))
            entry[1].append(mob)
            entry[2].append(layer)
        for sub in mob.submobjects:
            visit(sub, path, layer)
        path.pop()

    for layer, mob in enumerate(scene.mobjects + scene.foreground_mobjects):
        visit(mob, [], layer)
    found.extend((TornText(glyphs, owner), max(layers)) for owner, glyphs, layers in loose.values())
    found = [(unit, layer) for unit, layer in found if is_visible(unit)]
    measures = {id(unit): (unit.torn_font_size if isinstance(unit, TornText) else size, box)
                for (unit, _), (size, box) in zip(found, shot_content.measure_texts([u for u, _ in found]))}
    hidden = _hidden_under_the_band_cover(scene, measures)
    units = [unit for unit, layer in found if not hidden(unit, layer)]
    return units, {id(unit): measures[id(unit)] for unit in units}


def _hidden_under_the_band_cover(scene: AttentionScene, measures: dict | None = None):
    """A test of (unit, layer): the unit lies wholly under the opaque strip over the top band
    (camera_work.cover_top_band), drawn before it. A composition passing under the formula band is hidden there, not
    overlapping it. The cover's place and box are read once per call of text_units, not once per unit."""
    cover = camera_work.band_cover(scene)
    if cover is None:
        return lambda unit, layer: False
    cover_layer = scene.mobjects.index(cover)
    c_left, c_right, c_bottom, c_top = boundary_box(cover)

    def hidden(unit: Mobject, layer: int) -> bool:
        if layer >= cover_layer:
            return False
        left, right, bottom, top = boundary_box(unit) if measures is None else measures[id(unit)][1]
        return (left >= c_left - EDGE_TOLERANCE and right <= c_right + EDGE_TOLERANCE and
                bottom >= c_bottom - EDGE_TOLERANCE and top <= c_top + EDGE_TOLERANCE)

    return hidden


def is_visible(mob: Mobject) -> bool:
    """Some member with points is filled above 0.05: the family's members with points asked until the first that
    is, walked as they are stored, without first listing the whole family (the answer does not depend on the order)."""
    return shade_gate.any_member(mob, _filled)


def _filled(part: Mobject) -> bool:
    return (part.get_fill_opacity() if hasattr(part, "get_fill_opacity") else 1.0) > 0.05


def describe(mob: Mobject) -> str:
    if isinstance(mob, TracedNumber):
        t = mob.trace
        return f"number {mob.shown_text} ({t.example}.{t.path}{list(t.index)})"
    code = getattr(mob, "typst_code", None) or getattr(mob, "text", None) or type(mob).__name__
    return f"{type(mob).__name__} {str(code)[:40]!r}"


def effective_font_size(mob: Mobject) -> float | None:
    if isinstance(mob, TornText):
        return mob.torn_font_size
    sizes = [size for leaf in mob.get_family()
             if isinstance(leaf, Typst) and (size := typst_font_size(leaf)) is not None]
    return min(sizes) if sizes else None


def on_screen_font_size(unit: Mobject, view: View, measures: dict | None = None) -> float | None:
    """The unit's font size as the viewer sees it: its own size times the camera's zoom (`measures`: the units'
    measured_text_units figures, when the caller has them)."""
    size = effective_font_size(unit) if measures is None else measures[id(unit)][0]
    return None if size is None else size * view.zoom


def _inside(box, frame) -> str:
    """"in", "out" (entirely outside the view: not on screen) or "cut" (partly outside: cut off at the edge)."""
    left, right, bottom, top = box
    f_left, f_right, f_bottom, f_top = frame
    if right < f_left or left > f_right or top < f_bottom or bottom > f_top:
        return "out"
    if left < f_left - EDGE_TOLERANCE or right > f_right + EDGE_TOLERANCE or \
            bottom < f_bottom - EDGE_TOLERANCE or top > f_top + EDGE_TOLERANCE:
        return "cut"
    return "in"


def visible_text(scene: AttentionScene, units: list[Mobject] | None = None,
                 boxes: dict[int, tuple[float, float, float, float]] | None = None
                 ) -> list[tuple[Mobject, tuple[float, float, float, float]]]:
    """Text units in the camera's view, with their boxes in the coordinates of the frame at rest; units wholly
    outside the view (the camera framed something else) are off screen and not listed. `units`: the scene's
    text_units, when the caller has them already; `boxes`: their screen boxes by id (`screen_boxes`), likewise."""
    view = current_view(scene)
    half_w, half_h = config.frame_width / 2, config.frame_height / 2
    frame = (-half_w, half_w, -half_h, half_h)
    units = text_units(scene) if units is None else units
    boxes = screen_boxes(units, view) if boxes is None else boxes
    return [(unit, box) for unit in units if _inside(box := boxes[id(unit)], frame) != "out"]


def screen_boxes(units: list[Mobject], view: View, measures: dict | None = None
                 ) -> dict[int, tuple[float, float, float, float]]:
    """Each unit's box in the coordinates of the frame at rest, by the unit's id: measured once an animation and
    read by the layout gate and the story gate alike (`measures`: the units' measured_text_units figures, when
    the caller has them: screen_box's arithmetic on the same box)."""
    if measures is None:
        return {id(unit): screen_box(unit, view) for unit in units}
    return {id(unit): view.box_to_screen(measures[id(unit)][1]) for unit in units}


def layout_problems(scene: AttentionScene,
                    shown: list[tuple[Mobject, tuple[float, float, float, float]]] | None = None,
                    drawn: list[tuple[float, float, float, float]] | None = None,
                    measures: dict | None = None) -> list[str]:
    """`shown`: the scene's visible_text, `drawn`: its _drawn_boxes, `measures`: the units' measured_text_units
    figures, when the caller has them already."""
    problems: list[str] = []
    view = current_view(scene)
    half_w, half_h = config.frame_width / 2, config.frame_height / 2
    frame = (-half_w, half_w, -half_h, half_h)
    shown = visible_text(scene) if shown is None else shown
    for unit, box in shown:
        if _inside(box, frame) == "cut":
            problems.append(f"outside the frame: {describe(unit)}")
        size = on_screen_font_size(unit, view, measures)
        if size is not None and size < typography.MIN_FONT_SIZE * FONT_SIZE_TOLERANCE:
            problems.append(f"below the legibility floor (font size {size:.1f} < {typography.MIN_FONT_SIZE}): "
                            f"{describe(unit)}")
        problems.extend(phone_problems(unit, size))
    on_stage = _drawn_boxes(scene, view) if drawn is None else drawn
    if on_stage and all(_inside(box, frame) == "out" for box in on_stage):
        problems.append(f"nothing in the camera's view: {len(on_stage)} mobject(s) on the stage, all off screen")
    boxes = [box for _, box in shown]
    for i in range(len(shown)):
        for j in range(i + 1, len(shown)):
            a, b = boxes[i], boxes[j]
            overlap_x = min(a[1], b[1]) - max(a[0], b[0])
            overlap_y = min(a[3], b[3]) - max(a[2], b[2])
            if overlap_x > OVERLAP_TOLERANCE and overlap_y > OVERLAP_TOLERANCE:
                problems.append(f"overlapping: {describe(shown[i][0])} and {describe(shown[j][0])}")
    return problems


def phone_problems(unit: Mobject, size: float | None) -> list[str]:
    """In a portrait frame: a text under phone.MIN_TEXT_CSS_PX, or a number under MIN_NUMBER_CSS_PX, as a phone
    held upright shows it (390 CSS px wide)."""
    if size is None or not phone.held_upright():
        return []
    is_number = isinstance(unit, TracedNumber)
    floor = phone.MIN_NUMBER_CSS_PX if is_number else phone.MIN_TEXT_CSS_PX
    css = phone.css_px(size)
    if css >= floor:
        return []
    return [f"too small on a phone held upright ({css:.1f} CSS px < {floor:g} for "
            f"{'a number' if is_number else 'text'}): {describe(unit)}"]


def _drawn_boxes(scene: AttentionScene, view: View) -> list[tuple[float, float, float, float]]:
    """The on-screen box (frame-at-rest coordinates) of every top-level mobject that draws something."""
    frame_mob = camera_frame(scene)
    boxes = []
    for mob in scene.mobjects:
        if mob is frame_mob:
            continue
        parts = _drawn_points(mob)
        if parts:
            boxes.append(view.box_to_screen(points_box(np.concatenate(parts))))
    return boxes


def composition_fill(scene: AttentionScene, drawn: list[tuple[float, float, float, float]] | None = None) -> float:
    """The on-screen box of everything drawn below the top band, over the body region, in the binding dimension
    (the larger of width/body width and height/body height): 1.0 reaches the body's edges; 0 for an empty stage.

    The top band (a step's formula, a heading) is left out: the figure says how much of the room under it the
    picture uses; so is what the camera does not show. `drawn`: the scene's _drawn_boxes, when the caller has them
    already."""
    body = layout.body()
    half_w, half_h = config.frame_width / 2, config.frame_height / 2
    boxes = []
    for left, right, bottom, top in _drawn_boxes(scene, current_view(scene)) if drawn is None else drawn:
        if bottom >= body.top - EDGE_TOLERANCE:
            continue  # in the top band
        if _inside((left, right, bottom, top), (-half_w, half_w, -half_h, half_h)) == "out":
            continue  # off screen: the camera shows something else
        boxes.append((max(left, -half_w), min(right, half_w), max(bottom, -half_h), min(top, body.top)))
    if not boxes:
        return 0.0
    width = max(b[1] for b in boxes) - min(b[0] for b in boxes)
    height = max(b[3] for b in boxes) - min(b[2] for b in boxes)
    return min(1.0, max(width / body.width, height / body.height))


#: More members than any scene's family has: a walk that gets here has met a mobject inside itself.
_MEMBERS_GUARD = 200_000
#: Per class: whether its opacity and stroke width are VMobject's own methods (read from the arrays directly).
_STOCK_COLOURS: dict[type, bool] = {}


def _stock_colours(kind: type) -> bool:
    known = _STOCK_COLOURS.get(kind)
    if known is None:
        known = _STOCK_COLOURS[kind] = issubclass(kind, VMobject) and all(
            getattr(kind, name) is getattr(VMobject, name)
            for name in ("get_fill_opacity", "get_fill_opacities", "get_fill_rgbas", "get_stroke_opacity",
                         "get_stroke_opacities", "get_stroke_rgbas", "get_stroke_width"))
    return known


def _drawn_points(mob: Mobject) -> list[np.ndarray]:
    """The points of every member of `mob`'s family that has points and is `_drawn`: the same arrays as asking
    `family_members_with_points()` (a member met twice gives its points twice, which no box minds), by a walk
    without listing the family first, and with a stock VMobject's opacities read from its colour arrays as its
    methods read them."""
    found: list[np.ndarray] = []
    pending = [mob]
    take, push, walked = pending.pop, pending.extend, 0
    while pending:
        member = take()
        points = member.points
        if len(points) > 0:
            state = member.__dict__
            if _stock_colours(type(member)) and "fill_rgbas" in state and "stroke_rgbas" in state \
                    and "stroke_width" in state:
                width = state["stroke_width"]
                stroke_on = max(0.0, int(width) if isinstance(width, str) else width) > 0
                drawn = max(state["fill_rgbas"][:, 3][0], state["stroke_rgbas"][:, 3][0] * stroke_on) > 0.05
            else:
                drawn = _drawn(member)
            if drawn:
                found.append(points)
        if member.submobjects:
            push(member.submobjects)
            walked += len(member.submobjects)
            if walked > _MEMBERS_GUARD:  # a mobject inside itself: manim's family, which skips it
                return [p.points for p in mob.family_members_with_points() if _drawn(p)]
    return found


def _drawn(mob: Mobject) -> bool:
    fill = mob.get_fill_opacity() if hasattr(mob, "get_fill_opacity") else 1.0
    stroke = (mob.get_stroke_opacity() * (mob.get_stroke_width() > 0)) if hasattr(mob, "get_stroke_opacity") else 0
    return max(fill, stroke) > 0.05


def _view_key(scene: AttentionScene) -> tuple[float, ...]:
    view = current_view(scene)
    return tuple(round(v, 4) for v in (view.center_x, view.center_y, view.width))


def number_problems(scene: AttentionScene, fresh_records: dict[str, Any] | None = None,
                    units: list[Mobject] | None = None) -> tuple[list[str], int]:
    """Each visible number must equal a fresh attention_math computation at the precision shown.

    `fresh_records` caches one `examples.build(name)` per example for the run (built from scratch once, not
    read from the scenes' cache); `units`: the scene's text_units, when the caller has them already.
    """
    problems: list[str] = []
    checked = 0
    fresh_records = {} if fresh_records is None else fresh_records
    for unit in text_units(scene) if units is None else units:
        if isinstance(unit, TracedNumber):
            checked += 1
            trace = unit.trace
            if trace.example not in fresh_records:
                fresh_records[trace.example] = examples.build(trace.example)
            fresh = format_value(trace.fresh_value(fresh_records[trace.example]), trace.decimals)
            shown_value = unit.value if not isinstance(unit.glyph, DecimalNumber) else to_float(unit.glyph.number)
            shown = format_value(shown_value, trace.decimals)
            if shown != fresh:
                problems.append(f"number shows {shown} but {trace.example}.{trace.path}{list(trace.index)} "
                                f"recomputes to {fresh}")
        elif isinstance(unit, DecimalNumber):
            problems.append(f"untraced number on screen: {unit.number} (use Source.number)")
    return problems, checked


def shown_numbers(scene: AttentionScene, units: list[Mobject] | None = None) -> set[str]:
    """The text of every traced number visible now, as the reader sees it ("0.28", "-1.30", "-inf")."""
    return {unit.shown_text for unit in (text_units(scene) if units is None else units)
            if isinstance(unit, TracedNumber)}


def narrated_decimals(narration: str, language: str | None = None) -> list[str]:
    """The decimal numbers a narration reads aloud, in the active language's writing ("0,45" in French), as English
    writes them, minus signs kept and written "-" ("−0,45" → "-0.45")."""
    sign = decimal_sign(language)
    return [match.group(0).replace("−", "-").replace(sign, ".")
            for match in decimal_pattern(sign).finditer(narration)]


def narrated_number_problems(scene_id: str, beats: list[BeatRecord], shown: dict[str, set[str]]) -> list[str]:
    """Every decimal a beat reads aloud must equal a number shown on screen during that beat.

    Equal as numbers ("0.5" is "0.50"), so a narration may not round differently from the picture or say a value
    that is only in the caption.
    """
    problems: list[str] = []
    for record in beats:
        on_screen = shown.get(record.name, set())
        values = set()
        for text in on_screen:
            try:
                values.add(number_value(text))
            except ValueError:
                pass  # "-inf", "inf": no decimal to match
        for narration in record.narration:
            for number in narrated_decimals(narration):
                if float(number) not in values:
                    listed = ", ".join(sorted(on_screen)) or "none"
                    problems.append(f"{scene_id} / beat {record.name}: narration says {number}, which is not "
                                    f"on screen during the beat (shown: {listed})")
    return problems


#: Words of the post's sentences that a caption could only name by being typed for the post's example.
POST_CONTENT_WORDS = ("rain", "softens", "dry", "soil", "coffee", "café", "J'aime", "love")


def example_words(spec: example_spec.ExampleSpec) -> set[str]:
    """Every word the example's own sentences (and the translator's French for them) contain."""
    words = set(spec.encoder_decoder.english + spec.encoder_decoder.french_reference + spec.self_attention.tokens
                + spec.translator.english + spec.translator.second)
    learned = examples.load("learned_alignment")
    return words | set(learned.french_tokens) | set(learned.reorder_french)


#: (scene, beat) pairs that replay a recording made on one fixed training sentence, the same for every example.
REPLAYING_BEATS = {("learned_alignment", "sharpening_timelapse")}


def replayed_words(scene_id: str, beat_name: str) -> set[str]:
    """Words a beat may name whatever the example because it replays a fixed recording: learned_alignment's
    training time-lapse was saved on one training sentence, so its captions name that sentence (and what the model
    said at each snapshot)."""
    if (scene_id, beat_name) not in REPLAYING_BEATS:
        return set()
    learned = examples.load("learned_alignment")
    return set(learned.snapshot_english).union(*learned.snapshot_french)


#: Scenes that show the trained translator: they name its corpus's languages, whatever the example.
TRAINED_TRANSLATOR_SCENES = {"learned_alignment"}


def spoken_languages(scene_id: str, spec: example_spec.ExampleSpec) -> set[str]:
    """The languages a scene may name: the example's two, and the trained corpus's for a scene that shows it."""
    named = {spec.encoder_decoder.source_language, spec.encoder_decoder.target_language}
    trained = {corpus.SOURCE_LANGUAGE, corpus.TARGET_LANGUAGE}
    return named | (trained if scene_id in TRAINED_TRANSLATOR_SCENES else set())


def language_problems(scene_id: str, beats: list[BeatRecord], spec: example_spec.ExampleSpec,
                      post: example_spec.ExampleSpec) -> list[str]:
    """Captions naming one of the post's languages (the names a caption typed for it would use) where the example's
    sentences are in others: typed, not read from the example."""
    allowed = spoken_languages(scene_id, spec)
    typed = (post.encoder_decoder.source_language, post.encoder_decoder.target_language)
    foreign = [name for name in typed if name not in allowed]
    if not foreign:
        return []
    pattern = re.compile(r"(?<!\w)(" + "|".join(foreign) + r")(?!\w)")
    return [f"{scene_id} / beat {record.name}: the caption names {match.group(1)!r}, but the example's sentences "
            f"are {spec.encoder_decoder.source_language} and {spec.encoder_decoder.target_language}: {text[:80]!r}"
            for record in beats for text in record.captions + record.narration if (match := pattern.search(text))]


def typed_claim_problems(scene_id: str, beats: list[BeatRecord], spec: example_spec.ExampleSpec) -> list[str]:
    """Captions that name a post-only word or language while another example is active, or describe the weights
    ("spreads", "almost all") where the example's weights say otherwise: typed for the post, not computed."""
    post = example_spec.post()
    problems = descriptive_claim_problems(scene_id, beats, spec) + language_problems(scene_id, beats, spec, post)
    if spec == post:
        return problems
    for record in beats:
        allowed = example_words(spec) | replayed_words(scene_id, record.name)
        foreign = [w for w in POST_CONTENT_WORDS if w not in allowed]
        if not foreign:
            continue
        pattern = re.compile(r"(?<![\w'])(" + "|".join(re.escape(w) for w in foreign) + r")(?![\w'])")
        for text in record.captions + record.narration:
            match = pattern.search(text)
            if match:
                problems.append(f"{scene_id} / beat {record.name}: the caption names {match.group(1)!r}, a word of "
                                f"the post's example, not of {spec.name!r}: {text[:80]!r}")
    return problems


def animated_twice(animations: list) -> list[str]:
    """A mobject that two animations of one play both animate: in manim the second starts from where the first's
    start left it, so the end is not what either says (two FadeIns of one mobject leave it invisible)."""
    seen: dict[int, str] = {}
    problems = []
    for animation in _leaf_animations(animations):
        mobject = getattr(animation, "mobject", None)
        if mobject is None or isinstance(animation, Wait):
            continue
        if id(mobject) in seen:
            problems.append(f"{type(animation).__name__} and {seen[id(mobject)]} animate the same {mobject} "
                            "in one play")
        seen[id(mobject)] = type(animation).__name__
    return problems


def _leaf_animations(animations: list) -> list:
    leaves = []
    for animation in animations:
        inner = getattr(animation, "animations", None)
        leaves.extend(_leaf_animations(list(inner)) if inner is not None else [animation])
    return leaves


def inspect_scene(scene_id: str, aspect: str = frame.DEFAULT_ASPECT) -> SceneReport:
    """Run a registered scene once headless at 480p in `aspect`'s frame for the active example and language
    (cached per process, example, aspect and language, so each gate reuses one run)."""
    return _inspect_cached(scene_id, examples.active_spec(), frame.check_aspect(aspect), active_language())


@functools.cache
def _inspect_cached(scene_id: str, spec: example_spec.ExampleSpec, aspect: str, language: str) -> SceneReport:
    report = inspect_scene_class(scene_id, scene_id, aspect)
    report.typed_claim_problems = typed_claim_problems(scene_id, report.beat_log, spec)
    return report


def inspect_scene_class(scene: str | type[AttentionScene], scene_id: str,
                        aspect: str = frame.DEFAULT_ASPECT) -> SceneReport:
    """Run the scene headless at 480p in `aspect`'s frame and gather beat frames, layout and number problems."""
    report = SceneReport(scene_id)
    seen_layout: set[str] = set()
    seen_shades: set[tuple[str | None, str, bool]] = set()  # (beat, grid path, filmed): each said once a beat
    fresh_records: dict[str, Any] = {}

    last_view: list[tuple[float, ...]] = [(0.0, 0.0, round(config.frame_width, 4))]  # a scene starts at rest
    open_beat: list[BeatMetrics] = []  # the figures of the beat now running (closed at its end)

    def beat_metrics(scene: AttentionScene) -> BeatMetrics | None:
        if scene.current_beat is None:
            return None
        if not open_beat:
            open_beat.append(BeatMetrics(scene.current_beat))
        return open_beat[0]

    def measure(scene: AttentionScene, shown: list[tuple[Mobject, tuple[float, float, float, float]]],
                drawn: list[tuple[float, float, float, float]], measures: dict) -> None:
        metrics = beat_metrics(scene)
        if metrics is None:
            return
        view = current_view(scene)
        for unit, _ in shown:
            size = on_screen_font_size(unit, view, measures)
            if size is not None:
                metrics.see_text(size, isinstance(unit, TracedNumber), id(unit))
        fill = composition_fill(scene, drawn)
        if fill > 0:
            metrics.fill = fill
        key = _view_key(scene)
        if key != last_view[0]:
            metrics.camera_moves += 1
        last_view[:] = [key]

    def gather_stage_texts(scene: AttentionScene) -> None:
        for top in scene.mobjects:
            for mob in top.get_family():
                if isinstance(mob, MathTypst):
                    report.stage_math.add(mob.typst_code)
                elif isinstance(mob, Typst):
                    report.stage_texts.add(mob.typst_code)

    def after_animation(scene: AttentionScene) -> None:
        report.animations_checked += 1
        if report.stage_texts is not None:
            gather_stage_texts(scene)
        # once per animation: every check below reads the same texts, sizes and boxes
        units, measures = measured_text_units(scene)
        view = current_view(scene)
        boxes = screen_boxes(units, view, measures)
        shown = visible_text(scene, units, boxes)
        drawn = _drawn_boxes(scene, view)  # once: the fill and the layout gate read the same boxes
        measure(scene, shown, drawn, measures)
        where = f"{scene_id} / beat {scene.current_beat or '(between beats)'} / animation {report.animations_checked}"
        for problem in layout_problems(scene, shown, drawn, measures) + animated_twice(scene.animations or []):
            key = problem
            if key not in seen_layout:
                seen_layout.add(key)
                report.layout_problems.append(f"{where}: {problem}")
        problems, checked = number_problems(scene, fresh_records, units)
        report.numbers_checked += checked
        report.number_problems.extend(f"{where}: {p}" for p in problems)
        story.observe(scene, units, boxes)
        shaded = shade_gate.shaded_grids(scene.mobjects, view)
        if shaded and (metrics := beat_metrics(scene)) is not None:
            metrics.shaded_values = max(metrics.shaded_values, sum(grid.count for grid in shaded))
        for grid in (g for g in shaded if g.small):
            if (scene.current_beat, grid.path, grid.filmed) not in seen_shades:
                seen_shades.add((scene.current_beat, grid.path, grid.filmed))
                found = report.shade_problems if grid.judged else report.filmed_shades
                found.append(f"{where}: {grid.describe()} (a grid of at most {shade_gate.SHADE_FREE_SIDE} a side "
                             f"reads whole{'' if grid.judged else '; filmed by the camera, allowed'})")
        if scene.current_beat is not None:
            report.shown_numbers.setdefault(scene.current_beat, set()).update(shown_numbers(scene, units))

    def on_beat_end(scene: AttentionScene, record: BeatRecord, frame: np.ndarray) -> None:
        report.beat_frames.append((record.name, frame[..., :3].copy()))
        measured = contrast_gate.text_contrast(frame, visible_text(scene))
        report.contrast_problems.extend(f"{scene_id} / beat {record.name} / end: {problem}"
                                        for problem in contrast_gate.text_problems(measured, describe))
        report.min_text_contrast[record.name] = min((m[1] for m in measured), default=None)
        graphics = contrast_gate.graphic_contrast(frame, current_view(scene), contrast_gate.meaningful_graphics(
            [m for m in scene.mobjects if is_visible(m)]))
        report.contrast_problems.extend(f"{scene_id} / beat {record.name} / end: {problem}"
                                        for problem in contrast_gate.graphic_problems(graphics))
        report.colour_only_problems.extend(f"{scene_id} / beat {record.name} / end: {problem}" for problem in
                                           label_gate.colour_only(scene.mobjects, text_units(scene),
                                                                  current_view(scene)))
        report.metrics.append(open_beat.pop() if open_beat else BeatMetrics(record.name))

    if active_language() != "en":
        report.stage_texts, report.stage_math = set(), set()
    story = StoryGate(scene_id)
    finished = run_headless(scene, on_beat_end=on_beat_end, after_animation=after_animation, aspect=aspect)
    story.finish()
    report.story_problems, report.story = story.problems, story.beats
    report.beat_log = list(finished.beat_log)
    report.duration = float(finished.renderer.time)
    report.subcaptions = [subtitle.content for subtitle in finished.renderer.file_writer.subcaptions]
    report.narrated_number_problems = narrated_number_problems(scene_id, report.beat_log, report.shown_numbers)
    return report


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def metrics_json(report: SceneReport, example: str, problems: list[str], aspect: str = frame.DEFAULT_ASPECT) -> dict:
    """One scene's legibility figures (every beat, then the scene's median and minimum) and its problems."""
    beats = [{**m.as_json(), **report.story.get(m.beat, BeatStory()).as_json(),
              "min_text_contrast": _rounded(report.min_text_contrast.get(m.beat))} for m in report.metrics]
    fills = [m.fill for m in report.metrics]
    numbers = [m.number_font_size for m in report.metrics if m.number_font_size is not None]
    texts = [m.min_font_size for m in report.metrics if m.min_font_size is not None]
    css = {key: [b[key] for b in beats if b.get(key) is not None]
           for key in ("min_text_css_px", "median_text_css_px", "min_number_css_px", "median_number_css_px")}
    css_figures = {
        "min_text_css_px": min(css["min_text_css_px"], default=None),
        "median_text_css_px": round(statistics.median(css["median_text_css_px"]), 2) if css["median_text_css_px"] else None,
        "min_number_css_px": min(css["min_number_css_px"], default=None),
        "median_number_css_px": round(statistics.median(css["median_number_css_px"]), 2) if css["median_number_css_px"] else None,
    }
    return {"scene": report.scene_id, "example": example, "aspect": aspect, **css_figures, "beats": beats,
            "median_fill": round(statistics.median(fills), 3) if fills else None,
            "min_fill": round(min(fills), 3) if fills else None,
            "median_number_font_size": round(statistics.median(numbers), 2) if numbers else None,
            "min_font_size": round(min(texts), 2) if texts else None,
            "camera_moves": sum(m.camera_moves for m in report.metrics), "problems": problems}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Check layout and on-screen numbers of scenes (480p, headless).")
    parser.add_argument("scene_ids", nargs="*", help="default: every registered scene")
    parser.add_argument("--example", metavar="FILE.toml", help="compute the scenes from this example file "
                        "(default: $ATTENTION_EXAMPLE, or the post's)")
    add_aspect_option(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object per scene: every beat's "
                        "min_font_size, number_font_size, fill and camera_moves, and the problems found")
    parser.add_argument("--story", action="store_true", help="hold every scene to the story and shade gates too (a "
                        "cue's subject and quoted numbers on screen, legible, while it is said; a small grid's values "
                        "as numbers, never shades; see scenes.quality.story_gate and shade_gate)")
    args = parser.parse_args(argv)
    if not aspect_is_valid(args.aspect):
        return 2
    if args.example:
        try:
            example_spec.read(args.example)
        except example_spec.ExampleError as error:
            print(error, file=sys.stderr)
            return 2
        os.environ[example_spec.EXAMPLE_ENV_VAR] = args.example
    ids = args.scene_ids or registry.scene_ids()
    failed = False
    for scene_id in ids:
        report = inspect_scene(scene_id, args.aspect)
        problems = report.problems() + (report.arithmetic_problems() if args.story else [])
        failed |= bool(problems)
        if args.json:
            print(json.dumps(metrics_json(report, examples.active_spec().name, problems, args.aspect)))
            continue
        print(f"{scene_id}: {report.animations_checked} animations, {report.numbers_checked} numbers checked, "
              f"{len(problems)} problem(s)")
        for problem in problems:
            print("  " + problem)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
