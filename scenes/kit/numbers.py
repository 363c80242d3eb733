"""The one number formatter: every number on screen is a `TracedNumber` read from an attention_math example.

Each number remembers where it came from (example name, field path, index) so a test can recompute it
from scratch and compare at the precision shown. Scenes never pass a bare float.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from manim import DecimalNumber, MathTypst, Mobject, VGroup

from attention_math import examples

from . import palette, sketch, typography
from .kept import Kept
from .translation import localized_number


@dataclass(frozen=True)
class NumberTrace:
    """Where a displayed number comes from: `examples.build(example)` → field path → index."""

    example: str
    path: str
    index: tuple[int, ...]
    decimals: int

    def fresh_value(self, record: Any = None) -> float:
        """Recompute the value from scratch (uncached), for tests; `record` may be a freshly built example."""
        raw = resolve(record if record is not None else examples.build(self.example), self.path)
        return to_float(raw[self.index] if self.index else raw)


def resolve(record: Any, path: str) -> Any:
    """Follow a dotted field path ("steps.scores", "weights.1") through dataclasses, dicts, sequences and tensors."""
    value = record
    for part in path.split("."):
        if isinstance(value, dict):
            value = value[part]
        elif part.isdigit() and (isinstance(value, (list, tuple)) or hasattr(value, "shape")):
            value = value[int(part)]  # "weights.0": head 0 of a stacked (heads, T, T) tensor
        else:
            value = getattr(value, part)
    return value


def to_float(value: Any) -> float:
    return float(value.item() if hasattr(value, "item") else value)


class TracedNumber(VGroup):
    """A number typeset with MathTypst (via DecimalNumber), or ∓∞ for masked scores, with its trace."""

    def __init__(self, value: float, trace: NumberTrace, *, font_size: float = typography.NUMBER_SIZE,
                 color=palette.TEXT, include_sign: bool = False):
        super().__init__()
        self.trace = trace
        self.value = value
        if sketch.active():  # compose weighing a form it may not show: the number's box and size only
            glyph = sketch.stand_in(_shown_key(value, trace.decimals, font_size, color, include_sign),
                                    lambda: _glyph(value, trace.decimals, font_size, color, include_sign))
        else:
            glyph = _glyph(value, trace.decimals, font_size, color, include_sign)
        self.glyph = glyph
        self.add(glyph)

    @property
    def shown_text(self) -> str:
        """The string a reader sees, e.g. "0.73" (French "0,73") or "-inf"."""
        return format_value(self.value, self.trace.decimals)


def _glyph(value: float, decimals: int, font_size: float, color, include_sign: bool) -> Mobject:
    """A number's typeset glyphs: ∓∞ for a masked score, else its decimal."""
    if math.isinf(value):
        return MathTypst("-infinity" if value < 0 else "infinity", font_size=font_size, color=color)
    return typeset_decimal(value, decimals, font_size, color, include_sign)


class LocalizedDecimal(DecimalNumber):
    """A DecimalNumber written with the active language's symbols (a decimal comma in French), as `format_value`
    writes it; in English exactly manim's own string."""

    def _get_num_string(self, number):
        return localized_number(super()._get_num_string(number))


#: One typeset DecimalNumber per shown string and style: a matrix of a wide example shows thousands of numbers
#: over a few dozen strings, and building each anew (a copy per glyph, then arranging and aligning them) cost a
#: third of a scene's headless run. A copy of the finished number is the same mobject at a fraction of the cost.
#: The most recently used 4096 are kept: a few scenes' numbers.
_TYPESET: Kept[DecimalNumber] = Kept(4096)


def _shown_key(value: float, decimals: int, font_size: float, color, include_sign: bool) -> tuple:
    """What tells two typeset numbers apart: the text shown and its style."""
    shown = f"{value:+.{decimals}f}" if include_sign else f"{value:.{decimals}f}"
    return localized_number(shown), decimals, float(font_size), str(color), include_sign


def typeset_decimal(value: float, decimals: int, font_size: float, color, include_sign: bool) -> DecimalNumber:
    """A DecimalNumber showing `value` to `decimals` places, copied from the first one built with the same text
    and style (its `number` is `value` itself)."""
    key = _shown_key(value, decimals, font_size, color, include_sign)
    number = _TYPESET.get(key, lambda: LocalizedDecimal(value, num_decimal_places=decimals, mob_class=MathTypst,
                                                        font_size=font_size, color=color,
                                                        include_sign=include_sign)).copy()
    number.number = value
    return number


def format_value(value: float, decimals: int, language: str | None = None) -> str:
    """`value` as the screen and the captions show it, rounded to `decimals`, in the active language's symbols
    ("0.73"; French "0,73"), or `language`'s: the one place a number is written for a viewer. Code that reads a
    shown number back as a float asks for English ("en")."""
    if math.isinf(value):
        return "-inf" if value < 0 else "inf"
    text = f"{value:.{decimals}f}"
    return localized_number("0." + "0" * decimals if text == "-0." + "0" * decimals else text, language)


class Source:
    """A named example from attention_math, and the factory for numbers read from it."""

    def __init__(self, name: str):
        self.name = name
        self.data = examples.load(name)

    def __deepcopy__(self, memo: dict) -> "Source":
        """Shared, read-only data: copying a widget (as every Transform does) must not copy the tensors."""
        return self

    def __copy__(self) -> "Source":
        return self

    def get(self, path: str) -> Any:
        """The raw field (tensor, list or string) — for layout decisions such as sizes and labels."""
        return resolve(self.data, path)

    def value(self, path: str, index: tuple[int, ...] | int = ()) -> float:
        index = index if isinstance(index, tuple) else (index,)
        return to_float(resolve(self.data, path)[index]) if index else to_float(resolve(self.data, path))

    def number(self, path: str, index: tuple[int, ...] | int = (), *, decimals: int = 2, **style) -> TracedNumber:
        index = index if isinstance(index, tuple) else (index,)
        return TracedNumber(self.value(path, index), NumberTrace(self.name, path, index, decimals), **style)

    def shape(self, path: str) -> tuple[int, ...]:
        return tuple(resolve(self.data, path).shape)
