"""Claims a caption makes about the data ("coffee scores highest"), computed from it rather than typed.

Where the data cannot back a claim (two values tie at the precision shown), the helpers return None and the caption
says what the data does show instead.
"""

from __future__ import annotations

from collections.abc import Sequence

from .numbers import format_value


def top_token(tokens: Sequence[str], values, decimals: int = 2) -> str | None:
    """The token whose value is highest as the screen shows it; None when the two highest tie at that precision."""
    values = [float(v) for v in values]
    order = sorted(range(len(values)), key=lambda i: values[i], reverse=True)
    if len(order) > 1 and format_value(values[order[0]], decimals) == format_value(values[order[1]], decimals):
        return None
    return tokens[order[0]]


def agreeing_top(tokens: Sequence[str], *value_lists, decimals: int = 2) -> str | None:
    """The token every list puts first, or None if they disagree (or one of them ties)."""
    tops = {top_token(tokens, values, decimals) for values in value_lists}
    return tops.pop() if len(tops) == 1 and None not in tops else None
