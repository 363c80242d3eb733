"""Which characters the installed fonts can draw: a token holding a character no font covers would come out as an
empty box in every clip ("tofu"), so an example file with one is refused before anything renders.

The fonts are the machine's, as fontconfig lists them: the same font folders Typst searches for its fallback (the
bootstrap installs Noto CJK and Noto core from Debian for the scripts users type). One `fc-list` call gives every
font's character set as ranges of code points.
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import shutil
import subprocess
from typing import Any, Iterator


class UncoveredCharacter(ValueError):
    """A token holds a character that no installed font can draw."""


@functools.cache
def covered_ranges() -> tuple[tuple[int, int], ...]:
    """Every installed font's code points, merged into sorted, disjoint (first, last) ranges."""
    if shutil.which("fc-list") is None:
        raise RuntimeError("fc-list (fontconfig) is not installed; the bootstrap installs it with libpango")
    listing = subprocess.run(["fc-list", "--format", "%{charset}\n"], capture_output=True, text=True,
                             check=True).stdout
    ranges = sorted(_parse_range(part) for part in listing.split())
    merged: list[list[int]] = []
    for first, last in ranges:
        if merged and first <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], last)
        else:
            merged.append([first, last])
    return tuple((first, last) for first, last in merged)


def _parse_range(part: str) -> tuple[int, int]:
    first, _, last = part.partition("-")
    return int(first, 16), int(last or first, 16)


def is_covered(character: str) -> bool:
    ranges = covered_ranges()
    point = ord(character)
    at = bisect.bisect_right(ranges, (point, float("inf"))) - 1
    return at >= 0 and ranges[at][0] <= point <= ranges[at][1]


def spec_words(spec: Any, where: str = "") -> Iterator[tuple[str, str]]:
    """(field path, text) of every string an example spec holds: its tokens and words, wherever they sit."""
    if isinstance(spec, str):
        yield where, spec
    elif isinstance(spec, (tuple, list)):
        for index, item in enumerate(spec):
            yield from spec_words(item, f"{where}[{index}]")
    elif dataclasses.is_dataclass(spec):
        for field in dataclasses.fields(spec):
            yield from spec_words(getattr(spec, field.name), f"{where}.{field.name}" if where else field.name)


def check_covered(spec: Any, origin: str) -> None:
    """Refuse (UncoveredCharacter, one line) the first word holding a character no installed font draws."""
    for where, text in spec_words(spec):
        for character in text:
            if not is_covered(character):
                raise UncoveredCharacter(
                    f"{origin}: {where} = {text!r} holds {character!r} (U+{ord(character):04X}), which no installed "
                    f"font can draw; valid: characters the installed fonts cover (see `fc-list ':charset="
                    f"{ord(character):x}'`), e.g. Latin, Greek, Cyrillic, CJK, Hebrew, Arabic")
