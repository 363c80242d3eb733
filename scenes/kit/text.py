"""All words and formulas on screen go through Typst (no LaTeX): one sans font, escaped markup."""

from __future__ import annotations

from manim import MathTypst, Mobject, Typst, config

from . import palette, typography
from .kept import KeptAcrossFrames

SANS_PREAMBLE = f'#set text(font: "{typography.FONT}")'
MONO_PREAMBLE = f'#set text(font: "{typography.MONO_FONT}")'
_TYPST_SPECIAL = set("\\#$*_`<>@[]=-+/~\"'")


def escape_markup(text: str) -> str:
    """Escape Typst markup characters so a token such as "<end>" or "J'aime" prints literally."""
    return "".join("\\" + ch if ch in _TYPST_SPECIAL else ch for ch in text)


#: The typeset texts kept (the most recently used 4096: a few scenes' words and formulas).
_TYPESET: KeptAcrossFrames[Typst] = KeptAcrossFrames(4096)


def typeset(kind: type[Typst], code: str, *, font_size: float, color, preamble: str = "") -> Typst:
    """`kind(code, ...)` (Typst or MathTypst), copied from the first one made with the same code and style. The
    layout engine builds every arrangement it tries, and a word wrapped to measure is set again and again: the same
    words and formulas are made many times a run (weight_free, wide example: 1,236 texts, 149 different). A copy
    of the finished text is the same mobject, point for point, at a fraction of the cost of building its glyphs
    from the compiled SVG; the kept one is never handed out, so nothing done to a copy reaches the next. It is made
    from a fresh parse, never from manim's SVG cache, whose copies lose the text's stroke tracking (a few pixels
    differ): so every copy is what a fresh parse gives, whichever text came first, in this run or one before. A
    rule's stroke width (a fraction's bar, manim's tracked strokes) is set in pixels when the text is made (manim
    reads the frame's pixels per unit), so a text that holds one is kept per frame: a portrait run's formula is not
    a landscape run's. A text without one (every word) is the same in every frame, and one frame's copy serves the
    next (the edge gates run a scene's three frames one after another)."""
    def make() -> Typst:
        return kind(code, font_size=font_size, color=color, use_svg_cache=False, typst_preamble=preamble)

    style = (kind, code, preamble, float(font_size), str(color))
    return _TYPESET.get_in(config.pixel_width / config.frame_width, style, make, holds_a_rule).copy()


def holds_a_rule(mob: Mobject) -> bool:
    """Whether a member of `mob` is a text whose stroke widths manim set in the frame's pixels (a rule: a fraction's
    bar), which a copy made for another frame would draw at that frame's width."""
    return any(isinstance(m, Typst) and m._stroke_width_tracked_submobjects for m in mob.get_family())


def label(text: str, *, font_size: float = typography.LABEL_SIZE, color=palette.TEXT,
          bold: bool = False, mono: bool = False) -> Typst:
    """A line of plain text in the kit's font."""
    body = escape_markup(text)
    if bold:
        body = f"*{body}*"
    preamble = MONO_PREAMBLE if mono else SANS_PREAMBLE
    return typeset(Typst, body, preamble=preamble, font_size=font_size, color=color)


def wrapped(text: str, width: float, *, line_gap: float = 0.1, **style):
    """`label(text, **style)` when it is at most `width` wide (scene units); else its words broken greedily into
    lines that are, stacked and centred (a word wider than `width` keeps a line of its own). A portrait frame is
    4.5 units wide: a caption-like line that runs across a landscape frame comes out on two or three lines there,
    at its own size, instead of shrunk below the floor."""
    from manim import DOWN, VGroup

    whole = label(text, **style)
    if whole.width <= width:
        return whole
    lines, current = [], []
    for word in text.split(" "):  # a no-break space (French "mot :", « x ») keeps what it joins on one line
        if current and label(" ".join(current + [word]), **style).width > width:
            lines.append(" ".join(current))
            current = []
        current.append(word)
    lines.append(" ".join(current))
    return VGroup(*(label(line, **style) for line in lines)).arrange(DOWN, buff=line_gap)


def title(text: str) -> Typst:
    return label(text, font_size=typography.TITLE_SIZE, bold=True)


def heading(text: str, color=palette.TEXT) -> Typst:
    return label(text, font_size=typography.HEADING_SIZE, bold=True, color=color)


def math(expression: str, *, font_size: float = typography.BODY_SIZE + 6, color=palette.TEXT) -> MathTypst:
    """Typst math; label sub-expressions with `{{ ... : name }}` to light them up later (see `highlight`)."""
    return typeset(MathTypst, expression, font_size=font_size, color=color)


def product_sign(*, downwards: bool, font_size: float = typography.BODY_SIZE + 6, color=palette.TEXT) -> MathTypst:
    """The sign between two factors: "·" in a line, "×" where the factors are read downwards, one over the other
    (alone between two grids, a dot reads as a speck)."""
    return math("times" if downwards else "dot", font_size=font_size, color=color)


def baseline_y(word) -> float:
    """The y of a line of text's baseline: the median bottom of its glyphs (descenders such as y, g, p are
    the minority, so the median ignores them)."""
    bottoms = sorted(glyph.get_bottom()[1] for glyph in word.family_members_with_points())
    return float(bottoms[len(bottoms) // 2])


def align_baselines(words, y: float | None = None):
    """Shift each word vertically so that all baselines sit on one line (default: the first word's).

    Centring words on a line makes "dry" float above "rain"; sharing a baseline reads as one row of text.
    """
    words = list(words)
    if not words:
        return words
    target = baseline_y(words[0]) if y is None else y
    for word in words:
        word.shift([0, target - baseline_y(word), 0])
    return words


def group(content: str, key: str) -> str:
    """A labelled `{{ content : key }}` group for `math`, so the term can light up later (`eq.select(key)`)."""
    return "{{ " + content + " : " + key + " }}"


def subscript(n: int) -> str:
    """n in Unicode subscript digits, for captions and labels (x₃, α₃)."""
    return "".join(chr(ord("₀") + int(digit)) for digit in str(n))
