"""A bounded keep of finished pieces: the kit makes a text, a number or a stand-in once and hands out copies.

A run makes the same pieces many times (every arrangement the layout engine weighs, every beat that shows the same
number), so the kit keeps the first one made and copies it. A process that runs many scenes (the test suite's
workers, a render of all the clips) would keep every piece of every scene for good: only the most recently used
`most` are kept, and one used again moves to the back of the line.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

T = TypeVar("T")


class Kept(Generic[T]):
    """The last `most` pieces made, by key; `get(key, make)` is the kept piece, made by `make()` on a miss."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._pieces: OrderedDict[Hashable, T] = OrderedDict()

    def get(self, key: Hashable, make: Callable[[], T]) -> T:
        piece = self._pieces.get(key)
        if piece is None:
            piece = self._pieces[key] = make()
            while len(self._pieces) > self.most:
                self._pieces.popitem(last=False)
        else:
            self._pieces.move_to_end(key)
        return piece

    def clear(self) -> None:
        self._pieces.clear()

    def __len__(self) -> int:
        return len(self._pieces)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._pieces


class KeptAcrossFrames(Kept[T]):
    """A keep whose pieces serve every frame, except those found to depend on it when made: `get_in(frame, key,
    make, depends_on_frame)` keeps such a piece (and every later one under the same key) per frame."""

    def __init__(self, most: int) -> None:
        super().__init__(most)
        self._framed: set[Hashable] = set()  # keys whose pieces were found to depend on the frame

    def get_in(self, frame: Hashable, key: Hashable, make: Callable[[], T],
               depends_on_frame: Callable[[T], bool]) -> T:
        if key in self._framed:
            return self.get((key, frame), make)
        made: list[T] = []
        piece = self.get(key, lambda: made.append(make()) or made[0])
        if made and depends_on_frame(piece):  # made for this frame: kept under this frame's key instead
            self._framed.add(key)
            self._pieces.pop(key)
            self.get((key, frame), lambda: piece)
        return piece


__all__ = ["Kept", "KeptAcrossFrames"]
