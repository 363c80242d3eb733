"""Audio description: what a caption's subject shows, said in words, from the texts and traced numbers drawn.

A listener who cannot see the frame hears the narration but not the numbers on screen. For each caption the
subject it names (`say(..., subject=...)`) is read the way a sighted viewer reads it: its texts line by line, top
to bottom and left to right, each number as it is shown ("0.73", a masked score "−∞"), a ✓/✗ mark as drawn.
Several pieces are placed by where they are ("Left: …; right: …"), so which head is which is said by its place.
Nothing here is typed: every word comes from a text or a traced number in the picture.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
from manim import MathTypst, Mobject, Text, Typst, VGroup

from .shot_content import text_units
from .numbers import TracedNumber
from .translation import N_, _, capitalized, n_, numbers_listed

#: Lines of numbers read per piece, and texts per line: a listener keeps about this much; past it, what is left
#: is counted.
MAX_LINES = 3
MAX_ITEMS = 5
#: A text counts as drawn from this fill opacity (the gates' own threshold for "visible").
DRAWN_OPACITY = 0.05

_MARKUP = re.compile(r"\\(.)")


def unit_text(unit: Mobject) -> str:
    """What one text of the picture says: a traced number as shown (−∞ for a masked score), a label's words."""
    if isinstance(unit, TracedNumber):
        shown = unit.shown_text
        return {"-inf": "−∞", "inf": "∞"}.get(shown, shown.replace("-", "−"))
    if isinstance(unit, Text):
        return unit.text
    code = getattr(unit, "typst_code", "") if isinstance(unit, Typst) else ""
    if isinstance(unit, MathTypst):
        return math_text(code)
    code = _MARKUP.sub(r"\1", code.replace("*", "").replace('"', ""))
    return " ".join(code.split())


#: Typst math words and the signs a reader sees for them.
_MATH_WORDS = {"dot": "·", "times": "×", "sqrt": "√", "infinity": "∞", "arrow.r": "→", "minus": "−", "in": "∈"}
#: Typst math functions that only style their argument: the reader sees the argument.
_STYLING = ("manimgrp", "op", "upright", "bold", "italic", "text", "sans", "serif", "mono")


def math_text(code: str) -> str:
    """A Typst math formula as a reader sees it: `$ op(softmax)(x) dot W_Q^((1)) $` → "softmax(x) · W_Q^(1)"; the
    kit's named parts (`{{ … : name }}`, compiled to manimgrp(name, …)) read as what they show."""
    text = code.strip().strip("$").strip()
    text = _unwrap(text)
    text = re.sub(r"\^\(\(([^()]*)\)\)", r"^(\1)", text)
    text = text.replace('"', "")
    text = re.sub(r"[A-Za-z.]+", lambda m: _MATH_WORDS.get(m.group(0), m.group(0)), text)
    return " ".join(text.split())


def _unwrap(text: str) -> str:
    """Drop the styling functions (_STYLING), keeping their argument; manimgrp's first argument is a name."""
    pattern = re.compile(r"\b(" + "|".join(_STYLING) + r")\(")
    while (match := pattern.search(text)) is not None:
        depth, end = 1, match.end()
        while end < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            end += 1
        inner = text[match.end():end - 1]
        if match.group(1) == "manimgrp":
            inner = inner.split(",", 1)[1] if "," in inner else inner
        text = text[:match.start()] + inner.strip() + text[end:]
    return text


def _drawn(unit: Mobject) -> bool:
    return any(part.get_fill_opacity() > DRAWN_OPACITY for part in unit.family_members_with_points()
               if hasattr(part, "get_fill_opacity"))


def lines_of(piece: Mobject, hidden: set[int] = frozenset()) -> list[list[str]]:
    """The piece's drawn texts (but those `hidden` under others) as lines, top to bottom, each left to right: a unit
    joins a line when its centre lies within half a text's height of the line's first unit."""
    units = [u for u in text_units(piece) if _drawn(u) and id(u) not in hidden and unit_text(u)]
    units.sort(key=lambda u: -u.get_center()[1])
    lines: list[list[Mobject]] = []
    for unit in units:
        if lines and abs(lines[-1][0].get_center()[1] - unit.get_center()[1]) < 0.5 * max(
                lines[-1][0].height, unit.height):
            lines[-1].append(unit)
        else:
            lines.append([unit])
    return [[unit_text(u) for u in sorted(line, key=lambda u: u.get_center()[0])] for line in lines]


def read_piece(piece: Mobject, said: set[str], hidden: set[int] = frozenset(), spoken: str = "") -> str:
    """One piece read aloud: its lines joined by "; " (a row's word, then its numbers, by ", "), its lines of words
    (a heading, the column words) all, its lines of numbers up to MAX_LINES, then how many more there are. A line
    the clip has described (`said`) is left out when it can be told from another (a row with its word, a heading);
    a lone number is always read, as often as it is shown. A line the narration (`spoken`) says
    word for word is left out too. Each line read is added to `said`."""
    lines = [(_line(words), any(_is_number(w) for w in words), len(words) > 1 or not _is_number(words[0]))
             for words in lines_of(piece, hidden)]
    new = [(line, numbers) for line, numbers, telling in lines
           if not (telling and line in said) and not (spoken and line in spoken)]
    read, rows, left = [], 0, 0
    for line, numbers in new:
        rows += numbers
        if numbers and rows > MAX_LINES:
            left += 1
            continue
        read.append(line)
    said.update(read)
    if left:
        read.append(n_("{count} more row", "{count} more rows", left).format(count=left))
    return _("; ").join(read)


def _line(words: list[str]) -> str:
    """A row's word (a text that is not a number) stands before a colon, the numbers after it by commas, at most
    MAX_ITEMS of them."""
    named = len(words) > 1 and not _is_number(words[0]) and all(_is_number(w) for w in words[1:])
    items = words[1:] if named else words
    shown = (numbers_listed if all(_is_number(w) for w in items[:MAX_ITEMS]) else ", ".join)(items[:MAX_ITEMS])
    if len(items) > MAX_ITEMS:
        shown = _("{items} and {count} more").format(items=shown, count=len(items) - MAX_ITEMS)
    return _("{name}: {items}").format(name=words[0], items=shown) if named else shown


def _is_number(word: str) -> bool:
    """A shown number or a ✓/✗ mark: what fills a row, never its name."""
    return word in ("✓", "✗") or bool(re.fullmatch(r"[−+]?(\d+([.,]\d+)?|∞)", word))  # a French decimal comma too


def placed_in_order(pieces: Sequence[Mobject]) -> list[tuple[str, Mobject]]:
    """Two or three pieces in reading order, each with where it is against the others: left/middle/right when they
    are spread more across than down, else top/middle/bottom."""
    xs = [p.get_center()[0] for p in pieces]
    ys = [p.get_center()[1] for p in pieces]
    across = max(xs) - min(xs) >= max(ys) - min(ys)
    keys, first, last = (xs, N_("left"), N_("right")) if across else ([-y for y in ys], N_("top"), N_("bottom"))
    order = sorted(range(len(pieces)), key=lambda k: keys[k])
    return [(first if rank == 0 else last if rank == len(order) - 1 else N_("middle"), pieces[k])
            for rank, k in enumerate(order)]


def drawn_texts(mobjects: Sequence[Mobject]) -> list[Mobject]:
    """The texts of `mobjects` (a scene's stage) that are drawn now."""
    return [unit for mob in mobjects for unit in text_units(mob) if _drawn(unit) and unit_text(unit)]


def what_appeared(mobjects: Sequence[Mobject], before: set[int]) -> tuple[Mobject, ...]:
    """For a caption that names no subject: the texts drawn now that were not drawn when it began (`before`:
    their ids), as one piece, the picture's news during the caption."""
    new = [unit for unit in drawn_texts(mobjects) if id(unit) not in before]
    return (VGroup(*new),) if new else ()


def unseen(stage: Sequence[Mobject], subject: Sequence[Mobject]) -> set[int]:
    """The ids of the subject's texts the viewer does not see: off the stage (replaced by a transform), or
    covered by a text drawn after them (its box holds their centre: a number replaced in place)."""
    on_stage = {id(m) for top in stage for m in top.get_family()}
    hidden = {id(u) for piece in subject for u in text_units(piece) if id(u) not in on_stage} if stage else set()
    units = drawn_texts(stage)
    if len(units) < 2:
        return hidden
    centres = np.array([u.get_center()[:2] for u in units])
    boxes = np.array([[u.get_left()[0], u.get_right()[0], u.get_bottom()[1], u.get_top()[1]] for u in units])
    for i, unit in enumerate(units):
        later = boxes[i + 1:]
        x, y = centres[i]
        if np.any((later[:, 0] <= x) & (x <= later[:, 1]) & (later[:, 2] <= y) & (y <= later[:, 3])):
            hidden.add(id(unit))
    return hidden


def describe(subject: Sequence[Mobject], said: set[str] | None = None, stage: Sequence[Mobject] = (),
             narration: str = "") -> str:
    """What the caption's subject shows that the clip has not described yet (`said`: the lines described so far,
    updated), as one description; "" when there is nothing new to read. Up to three pieces are placed by where
    they are; more (a grid's cells, a row's parts) are read together as one picture. `stage`: the scene's
    mobjects, whose later texts may cover the subject's. A line the caption's `narration` says word for word (a
    title) is not said again."""
    said = set() if said is None else said
    hidden = unseen(stage, subject)
    pieces = [piece for piece in subject if lines_of(piece, hidden)]
    if len(pieces) > 3:
        pieces = [VGroup(*pieces)]
    if not pieces:
        return ""
    if len(pieces) == 1:
        read = read_piece(pieces[0], said, hidden, narration)
        return _("On screen: {read}.").format(read=read) if read else ""
    parts = [(where, read_piece(piece, said, hidden, narration)) for where, piece in placed_in_order(pieces)]
    parts = [_("{where}: {read}").format(where=capitalized(_(where)), read=read) for where, read in parts if read]
    return _("On screen. {parts}.").format(parts=". ".join(parts)) if parts else ""


__all__ = ["describe", "read_piece", "lines_of", "unit_text", "placed_in_order", "drawn_texts", "what_appeared", "unseen", "MAX_LINES", "MAX_ITEMS", "math_text"]
