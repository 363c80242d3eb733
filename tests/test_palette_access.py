"""The palette against WCAG 2.2 contrast and colour-vision deficiencies (issue: accessible to every learner).

Contrast: WCAG's formula (scenes.kit.contrast), checked against values known from the standard. Colour vision:
each pair of colours that tells meanings apart (Q/K/V, positive/negative, right/wrong, English/French, the heads)
is simulated under protanopia, deuteranopia and tritanopia (Machado, Oliveira & Fernandes 2009, severity 1, the
model colour-science implements) and compared in CIEDE2000. The minimum, ΔE00 ≥ 10: about five just-noticeable
differences (a JND is ΔE00 ≈ 2), the margin Szafir (2017, "Modelling color difference for visualization design")
found small marks need over large patches — our colours mark thin text and narrow cells, not big areas.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

from scenes.kit import contrast, palette

with warnings.catch_warnings():  # colour-science notes that matplotlib (its plotting) is absent: not needed here
    warnings.simplefilter("ignore")
    import colour

#: The smallest CIEDE2000 difference two meaning-carrying colours keep, with normal vision and under each CVD.
MIN_DELTA_E = 10.0
DEFICIENCIES = ("Protanomaly", "Deuteranomaly", "Tritanomaly")

#: Colours that tell meanings apart, by the meaning they separate.
MEANINGS = {
    "Q/K/V": (palette.QUERY, palette.KEY, palette.VALUE),
    "positive/negative": (palette.POSITIVE, palette.NEGATIVE),
    "right/wrong": (palette.RIGHT, palette.WRONG),
    "English/French": (palette.ENGLISH, palette.FRENCH),
    "heads": palette.HEAD_TINTS,
}
#: Colours text is set in on the background.
TEXT_COLOURS = {"TEXT": palette.TEXT, "MUTED": palette.MUTED, "QUERY": palette.QUERY, "KEY": palette.KEY,
                "VALUE": palette.VALUE, "CONTEXT": palette.CONTEXT, "WEIGHT": palette.WEIGHT,
                "ENGLISH": palette.ENGLISH, "FRENCH": palette.FRENCH, "WRONG": palette.WRONG, "RIGHT": palette.RIGHT,
                "NEGATIVE": palette.NEGATIVE, **{f"head {i + 1}": c for i, c in enumerate(palette.HEAD_TINTS)}}


def test_the_contrast_formula_gives_wcags_known_values():
    assert contrast.ratio("#FFFFFF", "#000000") == pytest.approx(21.0)
    assert contrast.ratio("#777777", "#777777") == pytest.approx(1.0)
    assert contrast.ratio("#777777", "#FFFFFF") == pytest.approx(4.48, abs=0.01)  # the classic near-miss grey
    assert contrast.luminance(contrast.blend("#FFFFFF", 0.5, "#000000")) == pytest.approx(0.2158, abs=0.003)


@pytest.mark.parametrize("name", sorted(TEXT_COLOURS))
def test_every_text_colour_reads_on_the_background(name):
    assert contrast.ratio(TEXT_COLOURS[name], palette.BACKGROUND) >= contrast.TEXT_MINIMUM


def test_a_masked_cell_stands_out_from_the_background():
    assert contrast.ratio(palette.MASKED, palette.BACKGROUND) >= contrast.GRAPHIC_MINIMUM


@pytest.mark.parametrize("shade", ["weights", "diverging"])
def test_a_cells_digits_read_on_every_shade_it_can_take(shade):
    values = np.linspace(0, 1, 41) if shade == "weights" else np.linspace(-1, 1, 81)
    for value in values:
        fill = palette.weight_color(value) if shade == "weights" else palette.value_color(value, 1.0)
        digits = contrast.readable_on(fill, (palette.TEXT, palette.BACKGROUND))
        assert contrast.ratio(digits, fill) >= contrast.TEXT_MINIMUM, (shade, value, fill.to_hex())
    masked = contrast.readable_on(palette.MASKED, (palette.MUTED, palette.TEXT))
    assert contrast.ratio(masked, palette.MASKED) >= contrast.TEXT_MINIMUM


def _lab(colour_, deficiency: str | None) -> np.ndarray:
    rgb = np.array(colour_.to_rgb()[:3])
    linear = colour.cctf_decoding(rgb, function="sRGB")
    if deficiency is not None:
        linear = np.clip(colour.blindness.matrix_cvd_Machado2009(deficiency, 1.0) @ linear, 0, 1)
    xyz = colour.RGB_to_XYZ(linear, colour.RGB_COLOURSPACES["sRGB"], apply_cctf_decoding=False)
    return colour.XYZ_to_Lab(xyz, colour.CCS_ILLUMINANTS["CIE 1931 2 Degree Standard Observer"]["D65"])


def test_ciede2000_reproduces_sharma_wu_dalal_test_data():
    assert colour.delta_E(np.array([50, 2.6772, -79.7751]), np.array([50, 0, -82.7485]),
                          method="CIE 2000") == pytest.approx(2.0425, abs=1e-4)


@pytest.mark.parametrize("deficiency", [None, *DEFICIENCIES])
@pytest.mark.parametrize("meaning", sorted(MEANINGS))
def test_colours_that_carry_meaning_stay_apart_under_colour_vision_deficiencies(meaning, deficiency):
    for a, b in itertools.combinations(MEANINGS[meaning], 2):
        difference = colour.delta_E(_lab(a, deficiency), _lab(b, deficiency), method="CIE 2000")
        assert difference >= MIN_DELTA_E, f"{meaning}: {a.to_hex()} and {b.to_hex()} under {deficiency}: " \
                                          f"ΔE00 {difference:.1f}"


def test_the_check_fails_for_the_palette_it_replaced():
    """The old V pink and K teal were 4.3 apart under deuteranopia: the check would have caught them."""
    old_value = palette.ManimColor("#F28FD0")
    difference = colour.delta_E(_lab(palette.KEY, "Deuteranomaly"), _lab(old_value, "Deuteranomaly"),
                                method="CIE 2000")
    assert difference < MIN_DELTA_E
