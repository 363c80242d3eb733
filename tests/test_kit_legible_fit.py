"""Fitting never sets text below the legibility floor: the first legible arrangement wins, and a composition too
large for its region is scaled to the floor, not below it."""

from __future__ import annotations

import pytest
from manim import VGroup

from scenes.kit import label, layout, typography
from scenes.kit.legible_fit import first_legible, first_worked, fit_legibly, fits_at_floor, reads_worked, smallest_text


def words(n: int, font_size: float = typography.LABEL_SIZE) -> VGroup:
    return VGroup(*(label("word", font_size=font_size) for _ in range(n))).arrange(buff=layout.GAP)


def test_smallest_text_is_the_smallest_font_size():
    group = VGroup(label("big", font_size=typography.HEADING_SIZE), label("small", font_size=typography.MIN_FONT_SIZE))
    assert smallest_text(group) == pytest.approx(typography.MIN_FONT_SIZE)


def test_a_small_composition_fills_its_region():
    row = words(2)
    assert fits_at_floor(row, layout.body())
    assert fit_legibly(row, layout.body())
    assert row.width == pytest.approx(min(layout.body().width, row.width), rel=1e-6)
    assert smallest_text(row) > typography.LABEL_SIZE  # it grew to fill the body


def test_a_composition_too_wide_stops_at_the_floor():
    row = words(40)
    assert not fits_at_floor(row, layout.body())
    assert not fit_legibly(row, layout.body())
    assert smallest_text(row) == pytest.approx(typography.MIN_FONT_SIZE, rel=1e-3)
    assert row.width > layout.body().width
    assert row.get_center() == pytest.approx(layout.body().center)


def test_first_legible_takes_the_first_arrangement_that_fits():
    built = []

    def arrangement(n):
        def build():
            built.append(n)
            return words(n)
        return build

    chosen = first_legible([arrangement(40), arrangement(3), arrangement(2)], layout.body())
    assert len(chosen) == 3 and built == [40, 3]
    # none fits: the one that comes out largest, the first of equals
    assert len(first_legible([arrangement(50), arrangement(40)], layout.body())) == 40
    assert len(first_legible([arrangement(40), arrangement(50)], layout.body())) == 40
    with pytest.raises(ValueError):
        first_legible([], layout.body())


def test_first_worked_prefers_an_arrangement_whose_numbers_read_at_the_worked_size():
    # thirteen words fit above the floor but below the worked size, twelve reach it
    assert fits_at_floor(words(13), layout.body()) and not reads_worked(words(13), layout.body(), typography.LABEL_SIZE)
    assert reads_worked(words(12), layout.body(), typography.LABEL_SIZE)
    chosen = first_worked([lambda: words(13), lambda: words(12)], layout.body(), number_size=typography.LABEL_SIZE)
    assert len(chosen) == 12
    # none reads at the worked size: first_legible's choice (the first above the floor)
    chosen = first_worked([lambda: words(40), lambda: words(14), lambda: words(13)], layout.body(),
                          number_size=typography.LABEL_SIZE)
    assert len(chosen) == 14
