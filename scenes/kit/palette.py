"""One colour per role, used by every scene (model: 3Blue1Brown's attention chapter).

Q, K and V each keep one colour everywhere; positive and negative values keep theirs; masked cells are dim.
V is pink rather than red so that it never reads as "negative".
"""

import functools

from manim import ManimColor, interpolate_color

BACKGROUND = ManimColor("#101318")
TEXT = ManimColor("#ECEFF4")
MUTED = ManimColor("#8A93A6")
ACCENT = ManimColor("#FFFFFF")
#: The largest weight singled out among its bars: no role's colour, so it never reads as "the query".
PEAK = ACCENT

QUERY = ManimColor("#F4D35E")  # Q: yellow
KEY = ManimColor("#3DD6C6")  # K: teal
VALUE = ManimColor("#DC5EB1")  # V: pink (deep enough to stay apart from K's teal under deuteranopia)
CONTEXT = ManimColor("#A3E635")  # context / output vectors z, c

POSITIVE = ManimColor("#4EA8F5")  # positive values: blue
NEGATIVE = ManimColor("#F2542D")  # negative values: red-orange
ZERO = ManimColor("#1C2230")  # a zero cell's fill
MASKED = ManimColor("#5F6675")  # cells hidden by the causal mask (3:1 against the background, WCAG 1.4.11)
DROPPED = ManimColor("#5A2A2A")  # weights zeroed by dropout
WEIGHT = ManimColor("#B48EF5")  # attention weights / probabilities: violet
ENGLISH = ManimColor("#E9C46A")
FRENCH = ManimColor("#8ECAE6")
WRONG = ManimColor("#FF5C5C")
RIGHT = ManimColor("#8AD897")  # light enough to stay apart from WRONG under deuteranopia

ROLE_COLORS = {"Q": QUERY, "K": KEY, "V": VALUE}

#: One tint per attention head (label colour, and a faint panel behind the head's slice of a matrix): sky blue,
#: amber, salmon, mint. Four, because an example has at most four heads; none is a Q/K/V or weight colour. Each pair
#: stays apart under simulated colour-vision deficiencies (tests/test_palette_access.py).
HEAD_TINTS = (ManimColor("#5DADE2"), ManimColor("#F5B041"), ManimColor("#EC7063"), ManimColor("#68E59C"))


@functools.lru_cache(maxsize=4096)
def value_color(value: float, scale: float) -> ManimColor:
    """Diverging shade: blue for positive, red-orange for negative, darker towards zero.

    `scale` is the magnitude that gets the full colour (usually the tensor's max |value|). Remembered per value and
    scale (a colour is a value nothing changes): a close-up re-shades every cell of a grid on every camera move.
    """
    if scale <= 0:
        return ZERO
    t = min(abs(value) / scale, 1.0)
    return interpolate_color(ZERO, POSITIVE if value >= 0 else NEGATIVE, t)


def weight_color(weight: float) -> ManimColor:
    """Sequential shade for probabilities in [0, 1]: dark at 0, full violet at 1."""
    return interpolate_color(ZERO, WEIGHT, max(0.0, min(1.0, weight)))
