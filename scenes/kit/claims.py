"""Claims a caption makes about the data ("coffee scores highest"), computed from it rather than typed.

Where the data cannot back a claim (two values tie at the precision shown), the helpers return None and the caption
says what the data does show instead.
"""

from __future__ import annotations

from collections.abc import Sequence

from .numbers import format_value
from .translation import N_, _


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


def top_index(values, decimals: int = 2) -> int | None:
    """The position of the highest value as the screen shows it; None when the two highest tie at that precision.

    An index rather than a token, because a sentence may repeat a word ("the … the").
    """
    values = [float(v) for v in values]
    order = sorted(range(len(values)), key=lambda i: values[i], reverse=True)
    if len(order) > 1 and format_value(values[order[0]], decimals) == format_value(values[order[1]], decimals):
        return None
    return order[0]


def bottom_index(values, decimals: int = 2) -> int | None:
    """The position of the lowest value as shown; None when the two lowest tie at that precision."""
    values = [float(v) for v in values]
    order = sorted(range(len(values)), key=lambda i: values[i])
    if len(order) > 1 and format_value(values[order[0]], decimals) == format_value(values[order[1]], decimals):
        return None
    return order[0]


COUNT_WORDS = (N_("zero"), N_("one"), N_("two"), N_("three"), N_("four"), N_("five"), N_("six"), N_("seven"),
               N_("eight"), N_("nine"), N_("ten"), N_("eleven"), N_("twelve"))


def count_word(n: int) -> str:
    """A count as a caption writes it ("four tokens"), so "Four tokens, four vectors" follows the example; in the
    active language (a count of one takes the singular form of its `n_` message, where French gives the noun its
    gender: "une tête")."""
    return _(COUNT_WORDS[n]) if 0 <= n < len(COUNT_WORDS) else str(n)


def all_of(n: int, noun: str) -> str:
    """ "both words" for two, "all four words" otherwise: how a caption says "every one of them"."""
    return _("both {noun}").format(noun=noun) if n == 2 else _("all {count} {noun}").format(count=count_word(n),
                                                                                           noun=noun)


def tied_at_top(values, decimals: int = 2) -> list[int]:
    """Every position whose value, as the screen shows it, equals the highest: one index, or all that tie.

    So a caption can say "I and love tie at 0.50" where `top_index` has no single winner to name.
    """
    shown = [format_value(float(v), decimals) for v in values]
    best = max(range(len(shown)), key=lambda i: float(values[i]))
    return [i for i, text in enumerate(shown) if text == shown[best]]


def words_list(words) -> str:
    """ "I", "I and love", "I, love and coffee": words joined as a caption lists them."""
    words = list(words)
    if len(words) == 1:
        return words[0]
    return _("{words} and {last}").format(words=", ".join(words[:-1]), last=words[-1])


def leader(tokens: Sequence[str], values, decimals: int = 2) -> tuple[int | None, str]:
    """The position that leads `values` as shown (None on a tie) and a phrase naming it: "coffee", or
    "I and love (tied at 0.50)"."""
    values = [float(v) for v in values]
    best = top_index(values, decimals)
    if best is not None:
        return best, tokens[best]
    tied = tied_at_top(values, decimals)
    return None, _("{words} (tied at {value})").format(words=words_list(tokens[i] for i in tied),
                                                       value=format_value(values[tied[0]], decimals))


def value_list(source, path: str, decimals: int = 2) -> str:
    """"0.73 / 0.35 / 1.35": the traced values at `path`, formatted as shown, for a caption."""
    from .numbers import format_value

    return " / ".join(format_value(v, decimals) for v in source.get(path).tolist())


def spoken_values(source, path: str, decimals: int = 2) -> str:
    """"0.73, 0.35 and 1.35": the same numbers as `value_list`, as a narrator lists them."""
    from .numbers import format_value

    from .translation import numbers_listed

    shown = [format_value(v, decimals) for v in source.get(path).tolist()]
    if len(shown) == 1:
        return shown[0]
    return _("{words} and {last}").format(words=numbers_listed(shown[:-1]), last=shown[-1])


def leader_of(source, path: str, said: Sequence[str]) -> tuple[int | None, str]:
    """`leader` over the traced values at `path`, the words as a caption quotes them."""
    return leader(said, source.get(path).tolist())
