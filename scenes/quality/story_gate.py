"""The story gate: what a caption talks about is on screen, as numbers, while it is said.

The layout gate measures the texts that are on screen; it cannot see a number turned into a colour shade, a chart
that never came, or a quoted value that is nowhere. This gate starts from the other end, the cue (one `say`):

- its **subject** (`say(..., subject=...)`): every traced number in it must, at some settled moment of the cue
  (the end of one of its animations), be on screen as a number at or above the legibility floor, inside the frame
  (not cut at its edge) and not covered (by the top band's cover, or by another text). A subject piece without
  numbers (a chart, a row of words) must be drawn in the camera's view during the cue;
- every decimal number its caption or narration **quotes** must be one of the traced numbers on screen during the
  cue (equal as numbers, so "0.5" is "0.50").

A cue with no animation (a caption replaced at once) is never seen, and not held to anything.
Per beat it counts `subject_values`, `subject_shown_as_numbers` and `subject_cut` for the inspection's JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from manim import Mobject, config

from scenes.kit import camera_work, typography
from scenes.kit.compose import shows_shades
from scenes.kit.numbers import TracedNumber
from scenes.kit.on_screen import View, current_view, screen_box

#: On-screen font size a subject number must reach, as a share of the floor (the layout gate's own slack).
FONT_SIZE_TOLERANCE = 0.97
#: Units of slack at the frame's edge (anti-aliasing), and of overlap two texts may have.
EDGE_TOLERANCE = 0.02
OVERLAP_TOLERANCE = 0.04
#: A piece counts as drawn when some part of it has at least this opacity.
DRAWN_OPACITY = 0.05


def subject_numbers(subject: tuple[Mobject, ...]) -> list[TracedNumber]:
    """The traced numbers of a cue's subject, each once, in the order the subject lists them."""
    seen: dict[int, TracedNumber] = {}
    for piece in subject:
        for mob in piece.get_family():
            if isinstance(mob, TracedNumber):
                seen.setdefault(id(mob), mob)
    return list(seen.values())


@dataclass
class _Cue:
    beat: str
    caption: str
    narration: str
    numbers: list[TracedNumber]
    pieces: list[Mobject]  # subject pieces that hold no number (a chart, a row of words)
    animations: int = 0
    legible: set[int] = field(default_factory=set)  # ids of subject numbers seen legible, whole and uncovered
    cut: set[int] = field(default_factory=set)  # ids of subject numbers seen cut at the frame's edge
    drawn: set[int] = field(default_factory=set)  # ids of subject pieces seen drawn in the view
    shown: set[float] = field(default_factory=set)  # every traced number's value seen on screen, as shown


@dataclass
class BeatStory:
    """A beat's subject figures for the JSON (summed over its cues)."""

    subject_values: int = 0
    subject_shown_as_numbers: int = 0
    subject_cut: int = 0
    subject_pieces: int = 0  # named pieces without numbers (a chart, a stage's card)
    subject_pieces_shown: int = 0

    def as_json(self) -> dict:
        return {"subject_values": self.subject_values, "subject_shown_as_numbers": self.subject_shown_as_numbers,
                "subject_cut": self.subject_cut, "subject_pieces": self.subject_pieces,
                "subject_pieces_shown": self.subject_pieces_shown}


class StoryGate:
    """Watches one headless run: call `observe` after every animation and `finish` at the end."""

    def __init__(self, scene_id: str) -> None:
        self.scene_id = scene_id
        self.problems: list[str] = []
        self.beats: dict[str, BeatStory] = {}
        self._cue: _Cue | None = None
        self._key: tuple[str, int] | None = None

    def observe(self, scene, units: list[Mobject], boxes: dict[int, tuple[float, float, float, float]] | None = None
                ) -> None:
        """Look at the settled frame: `units` are the scene's visible text units (inspection.text_units), `boxes`
        their screen boxes by id in the current view (inspection.screen_boxes), when the caller has them already."""
        if scene.current_beat is None:
            self._close()
            return
        record = scene.beat_log[-1]
        key = (record.name, len(record.captions))
        if key != self._key:
            self._close()
            self._key = key
            self._cue = _open(scene, record)
        cue = self._cue
        cue.animations += 1
        view = current_view(scene)
        if boxes is None:
            boxes = {id(unit): screen_box(unit, view) for unit in units}
        cover = _cover_box(scene)
        for unit in units:
            if isinstance(unit, TracedNumber) and _inside(boxes[id(unit)]) != "out":
                cue.shown.add(_as_number(unit.shown_text))
        for number in cue.numbers:
            box = boxes.get(id(number))
            if box is None:
                continue  # hidden (faded to a shade, under the cover, or not yet in)
            where = _inside(box)
            if where == "cut":
                cue.cut.add(id(number))
            elif where == "in" and _large_enough(number, view) and not _covered(number, box, boxes, units, cover):
                cue.legible.add(id(number))
        if cue.pieces:
            on_stage = {id(m) for top in scene.mobjects for m in top.get_family()}
            for piece in cue.pieces:
                if _on_stage(piece, on_stage) and _drawn_in_view(piece, view):
                    cue.drawn.add(id(piece))

    def finish(self) -> None:
        self._close()

    def _close(self) -> None:
        cue, self._cue, self._key = self._cue, None, None
        if cue is None or cue.animations == 0:
            return
        story = self.beats.setdefault(cue.beat, BeatStory())
        story.subject_values += len(cue.numbers)
        story.subject_shown_as_numbers += sum(id(n) in cue.legible for n in cue.numbers)
        story.subject_cut += sum(id(n) in cue.cut and id(n) not in cue.legible for n in cue.numbers)
        story.subject_pieces += len(cue.pieces)
        story.subject_pieces_shown += sum(id(p) in cue.drawn for p in cue.pieces)
        where = f"{self.scene_id} / beat {cue.beat} / cue “{cue.caption[:60]}”"
        missing = [n for n in cue.numbers if id(n) not in cue.legible]
        if missing:
            listed = ", ".join(f"{n.shown_text} ({n.trace.path}{list(n.trace.index)})" for n in missing[:6])
            more = f" and {len(missing) - 6} more" if len(missing) > 6 else ""
            self.problems.append(f"{where}: subject value(s) never on screen as a legible, whole, uncovered number: "
                                 f"{listed}{more}")
        for piece in cue.pieces:
            if id(piece) not in cue.drawn:
                self.problems.append(f"{where}: the subject {type(piece).__name__} is not on screen during the cue")
            elif shows_shades(piece):
                self.problems.append(f"{where}: the subject {type(piece).__name__} is shown as shades, without its "
                                     "numbers")
        quoted = [q for text in (cue.caption, cue.narration) for q in _quoted(text)]
        for number in dict.fromkeys(quoted):
            if _as_number(number) not in cue.shown:
                self.problems.append(f"{where}: quotes {number}, which is not on screen during the cue")


def _open(scene, record) -> _Cue:
    subject = tuple(getattr(scene, "cue_subject", ()) or ())
    numbers = subject_numbers(subject)
    pieces = [piece for piece in subject if not any(isinstance(m, TracedNumber) for m in piece.get_family())]
    if not record.captions:  # animations before the beat's first caption: no cue to hold them to
        return _Cue(record.name, "", "", [], [])
    return _Cue(record.name, record.captions[-1], record.narration[-1], numbers, pieces)


def _quoted(text: str) -> list[str]:
    from scenes.quality.inspection import narrated_decimals  # the one pattern for a decimal read or written in a sentence

    return narrated_decimals(text)


def _as_number(text: str) -> float:
    """A shown number's text ("0,73" in French) as a float; NaN for one with no value ("-inf")."""
    from scenes.kit.translation import number_value

    try:
        return number_value(text)
    except ValueError:
        return float("nan")


def _inside(box: tuple[float, float, float, float]) -> str:
    """"in", "out" (wholly off screen) or "cut" (partly past the frame's edge), in frame-at-rest coordinates."""
    left, right, bottom, top = box
    half_w, half_h = config.frame_width / 2, config.frame_height / 2
    if right < -half_w or left > half_w or top < -half_h or bottom > half_h:
        return "out"
    e = EDGE_TOLERANCE
    if left < -half_w - e or right > half_w + e or bottom < -half_h - e or top > half_h + e:
        return "cut"
    return "in"


def _large_enough(number: TracedNumber, view: View) -> bool:
    from scenes.quality.inspection import on_screen_font_size

    size = on_screen_font_size(number, view)
    return size is not None and size >= typography.MIN_FONT_SIZE * FONT_SIZE_TOLERANCE


def _overlap(a, b, slack: float = OVERLAP_TOLERANCE) -> bool:
    return min(a[1], b[1]) - max(a[0], b[0]) > slack and min(a[3], b[3]) - max(a[2], b[2]) > slack


def _covered(number: TracedNumber, box, boxes: dict, units: list[Mobject], cover) -> bool:
    """Partly under the top band's cover, or overlapping another visible text."""
    if cover is not None and _overlap(box, cover[1], 0.0) and _layer(number, cover[2]) < cover[0]:
        return True
    return any(unit is not number and _overlap(box, boxes[id(unit)]) for unit in units)


def _cover_box(scene):
    """(its layer, its box in frame-at-rest coordinates, the stage) of the band's cover (camera_work.cover_top_band,
    which travels with the camera), if it is on the stage."""
    cover = camera_work.band_cover(scene)
    if cover is None:
        return None
    return scene.mobjects.index(cover), screen_box(cover, current_view(scene)), scene.mobjects


def _layer(number: Mobject, stage: list[Mobject]) -> int:
    """The index of the top-level mobject that draws `number` (what is drawn over what)."""
    for index, mob in enumerate(stage):
        if any(part is number for part in mob.get_family()):
            return index
    return len(stage)


def _on_stage(piece: Mobject, on_stage: set[int]) -> bool:
    """The piece, or something it draws, is on the stage (a VGroup made to name parts need not be added itself)."""
    return id(piece) in on_stage or any(id(part) in on_stage for part in piece.family_members_with_points())


def _drawn_in_view(piece: Mobject, view: View) -> bool:
    parts = [p for p in piece.family_members_with_points() if _opacity(p) > DRAWN_OPACITY]
    if not parts:
        return False
    return any(_inside(screen_box(p, view)) != "out" for p in parts)


def _opacity(mob: Mobject) -> float:
    fill = mob.get_fill_opacity() if hasattr(mob, "get_fill_opacity") else 1.0
    stroke = (mob.get_stroke_opacity() * (mob.get_stroke_width() > 0)) if hasattr(mob, "get_stroke_opacity") else 0
    return max(fill, stroke)


__all__ = ["StoryGate", "BeatStory", "subject_numbers"]
