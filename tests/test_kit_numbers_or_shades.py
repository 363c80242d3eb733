"""layout.numbers_or_shades: numbers when they fit legibly, else shaded cells shrunk until the labels do."""

from __future__ import annotations

from manim import RIGHT, Rectangle, VGroup

from scenes.kit import layout, typography

REGION = layout.Region(0.0, 4.0, 0.0, 2.0)
FONT = typography.SMALL_SIZE
FLOOR_SCALE = typography.MIN_FONT_SIZE / FONT  # 22 / 24: the least shrinking the labels survive


def row_of_cells(count: int, side: float, label_width: float) -> VGroup:
    """`count` square cells and a fixed-size label: only the cells follow `side`."""
    cells = VGroup(*(Rectangle(width=side, height=side) for _ in range(count))).arrange(RIGHT, buff=0)
    return VGroup(Rectangle(width=label_width, height=0.3), cells).arrange(RIGHT, buff=0)


def test_numbers_stay_when_they_fit_legibly():
    asked = []

    def build(side):
        asked.append(side)
        return row_of_cells(4, 0.9 if side is None else side, 0.4)  # 4.0 wide: fits as it is

    result = layout.numbers_or_shades(build, REGION, font_size=FONT, shaded_cell=0.4)
    assert asked == [None]
    assert result.width <= REGION.width + 1e-6


def test_shaded_cells_shrink_until_the_labels_stay_legible():
    asked = []

    def build(side):
        asked.append(side)
        return row_of_cells(10, 0.9 if side is None else side, 1.0)  # numbers: 10 wide, factor 0.4 < 22/24

    mob = layout.numbers_or_shades(build, REGION, font_size=FONT, shaded_cell=0.4)
    assert asked[0] is None and asked[1] == 0.4  # 10 × 0.4 + 1 = 5 wide: still too wide (factor 0.8)
    assert len(asked) >= 3 and asked[2] < asked[1]
    assert layout.fits_legibly(build(asked[-1]), REGION, FONT)
    assert mob.width <= REGION.width + 1e-6
