"""scenes.kit.kept: the kit's keeps of texts, numbers and stand-ins are bounded, and keep what was used last."""

from __future__ import annotations

from scenes.kit import numbers, sketch, text
from scenes.kit.kept import Kept


def test_a_piece_is_made_once_and_then_kept():
    made = []
    keep = Kept(3)
    first = keep.get("a", lambda: made.append("a") or ["a"])
    assert keep.get("a", lambda: made.append("again") or ["other"]) is first
    assert made == ["a"] and len(keep) == 1


def test_only_the_most_recently_used_are_kept():
    made = []

    def maker(key):
        return lambda: made.append(key) or key

    keep = Kept(2)
    keep.get("a", maker("a"))
    keep.get("b", maker("b"))
    keep.get("a", maker("a"))  # used again: "b" is now the oldest
    keep.get("c", maker("c"))  # one too many: "b" goes
    assert len(keep) == 2 and "a" in keep and "c" in keep and "b" not in keep
    keep.get("b", maker("b"))  # made again
    assert made == ["a", "b", "c", "b"]


def test_the_kits_keeps_are_bounded():
    for keep in (text._TYPESET, numbers._TYPESET, sketch._STAND_INS):
        assert isinstance(keep, Kept) and 0 < keep.most <= 4096
