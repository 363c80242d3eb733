"""What a caption may say about how weights spread ("spreads", "a blend … leaning", "mostly", "stay spread out"),
computed from the weights rather than typed for the post's example, where they spread.

Each helper returns the phrase the data backs: a map whose rows are one-hot on screen does not "spread", a query that
gave itself 0.31 did not attend "mostly" to itself. Thresholds come from attention_math.weight_spread (one-hot above
0.95) and alignment_claims.MOST (more than half).
"""

from __future__ import annotations

from collections.abc import Sequence

from attention_math.weight_spread import SATURATED, saturated_rows

from .alignment_claims import MOST, nearly_uniform
from .translation import _, quoted


def past_rows_phrase(weights) -> str:
    """How each row of a causal map holds its weight: "spreads its weight over the past only" only when no row with a
    choice is one-hot; "puts nearly all its weight on one word of the past" when every such row is; else both kinds."""
    hot, counted = saturated_rows(weights, causal=True)
    if hot == 0:
        return _("spreads its weight over the past only")
    if hot == counted:
        return _("puts nearly all its weight on one word of the past")
    return _("keeps its weight in the past only, some rows nearly all on one word")


def blend_phrase(alpha, tokens: Sequence[str], every_word: str) -> str:
    """What z = Σ αᵢ xᵢ is: "a blend of all four words, leaning towards the ones with larger weights" when the weights
    lean; "in nearly equal parts" when they lie within 0.1 of each other (alignment_claims); one word's vector when a
    weight is one-hot on screen."""
    values = [float(v) for v in alpha]
    top = max(range(len(values)), key=values.__getitem__)
    if values[top] > SATURATED:
        return _("almost exactly the vector of {word}, which holds nearly all the weight").format(
            word=quoted(tokens[top]))
    if nearly_uniform([values]):
        return _("a blend of {every_word} in nearly equal parts").format(every_word=every_word)
    return _("a blend of {every_word}, leaning towards the ones with larger weights").format(every_word=every_word)


def held_most(before_weight: float) -> bool:
    """Whether a query's former favourite held more than half its weight (it had it "mostly", not just "most")."""
    return before_weight > MOST


def no_longer_phrase(before_weight: float) -> str:
    """How a query's former favourite is named: "mostly" only when it held more than half the weight."""
    return _("mostly") if held_most(before_weight) else _("most")


def scaled_weights_stay_spread(scaled_maxima: Sequence[float]) -> bool:
    """True when no scaled softmax of the saturation demo is one-hot on screen: "the weights stay spread out"."""
    return all(float(m) <= SATURATED for m in scaled_maxima)

