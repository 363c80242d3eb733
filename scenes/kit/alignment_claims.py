"""What a caption may say about an alignment matrix (rows: target words, columns: source words), computed from it.

Which source word each target word looks at most, whether those looks keep the sentence order or cross, how
concentrated a row is, and when during training a row settled on its final word. Ties at the precision shown give
None, so the caption can say what the data shows instead of naming a winner it does not have.
"""

from __future__ import annotations

from collections.abc import Sequence

from .claims import count_word, top_index
from .numbers import format_value
from .translation import _

#: A row puts "almost all" its weight on one word from this weight on ("most" means more than half).
ALMOST_ALL = 0.9
MOST = 0.5
#: Up to this many words a caption names them all; beyond, it counts them.
MAX_LISTED = 4
#: Weights this close together (largest minus smallest) read as "nearly uniform".
NEARLY_UNIFORM_RANGE = 0.1


def listing(words: Sequence[str]) -> str:
    """"I, love and coffee": words as a sentence lists them."""
    words = list(words)
    return words[0] if len(words) == 1 else _("{words} and {last}").format(words=", ".join(words[:-1]), last=words[-1])


def listing_or_count(words: Sequence[str], noun: str) -> str:
    """"I, love and coffee", or "the six English words" when naming them all would swamp the caption."""
    return listing(words) if len(words) <= MAX_LISTED else _("the {count} {noun}").format(count=count_word(len(words)),
                                                                                          noun=noun)


def rows_of(matrix) -> list[list[float]]:
    return [[float(v) for v in row] for row in matrix]


def strongest_links(matrix, decimals: int = 2) -> list[int | None]:
    """For each row, the column it weights most (None where two columns tie as shown)."""
    return [top_index(row, decimals) for row in rows_of(matrix)]


def first_crossing(matrix, decimals: int = 2) -> tuple[int, int] | None:
    """The first pair of rows r1 < r2 whose strongest columns run backwards (c1 > c2): their links cross.

    None when every row's strongest column is at or after the previous rows' (the two orders agree).
    """
    tops = strongest_links(matrix, decimals)
    for r2, c2 in enumerate(tops):
        for r1 in range(r2):
            c1 = tops[r1]
            if c1 is not None and c2 is not None and c1 > c2:
                return r1, r2
    return None


def concentration(row) -> float:
    """A row's largest weight: 1 when it looks at one word only, 1/n when it spreads evenly."""
    return max(float(v) for v in row)


def least_concentrated_row(matrix) -> int:
    rows = rows_of(matrix)
    return min(range(len(rows)), key=lambda r: concentration(rows[r]))


def is_sharp(row) -> bool:
    return concentration(row) >= ALMOST_ALL


def weight_phrase(row, words: Sequence[str], decimals: int = 2) -> str:
    """How one row's weight sits: "almost all the weight sits on coffee: 1.00" (or "most of", or spread)."""
    values = [float(v) for v in row]
    top = top_index(values, decimals)
    order = sorted(range(len(values)), key=lambda i: values[i], reverse=True)
    if top is None:
        shown = format_value(values[order[0]], decimals)
        return _("the weight is split between {first} and {second}: {value} each").format(
            first=words[order[0]], second=words[order[1]], value=shown)
    shown = format_value(values[top], decimals)
    if values[top] >= ALMOST_ALL:
        return _("almost all the weight sits on {word}: {value}").format(word=words[top], value=shown)
    if values[top] > MOST:
        return _("most of the weight sits on {word}: {value}").format(word=words[top], value=shown)
    return _("the weight spreads; the most, {value}, sits on {word}").format(word=words[top], value=shown)


def top_two(row, words: Sequence[str], decimals: int = 2) -> str:
    """"0.59 on coffee, 0.33 on love": a spread row's two largest weights."""
    values = [float(v) for v in row]
    order = sorted(range(len(values)), key=lambda i: values[i], reverse=True)[:2]
    return ", ".join(_("{value} on {word}").format(value=format_value(values[i], decimals), word=words[i])
                     for i in order)


def nearly_uniform(matrix) -> bool:
    values = [v for row in rows_of(matrix) for v in row]
    return max(values) - min(values) < NEARLY_UNIFORM_RANGE


def settled_at(snapshots, row: int, decimals: int = 2) -> int | None:
    """The first snapshot from which `row`'s strongest column stays the one it ends on (None: it ends in a tie)."""
    tops = [top_index([float(v) for v in snapshot[row]], decimals) for snapshot in snapshots]
    final = tops[-1]
    if final is None:
        return None
    s = len(tops) - 1
    while s > 0 and tops[s - 1] == final:
        s -= 1
    return s
