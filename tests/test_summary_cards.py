"""The summary's stage cards hold their own text: in every frame and both languages, no card's number and name,
subtitle, motif or gain line reaches its card's frame (a name is one word that cannot wrap: "7 CausalSelfAttention"
once ran 6 px past its card in the landscape frame, in English and French alike); and card 3's motif is a picture,
not its names (in French its Q, K, V cells were 4 px under their names)."""

from __future__ import annotations

import pytest
from manim import config

from conftest import per_scene
from scenes import frame
from scenes.kit.translation import LANGUAGE_ENV_VAR
from scenes.quality.headless import run_headless
from scenes.summary import STAGES, SummaryScene

#: How far inside its card's frame (its outline, at 480p) every part of the card stays at least.
CLEAR_PX = 2.0
PARTS = ("head", "subtitle", "motif", "gain")
CASES = [(language, aspect) for language in ("en", "fr") for aspect in frame.ASPECTS]


#: One run per language and frame, shared by the tests below: (cards laid out, parts too near their frame, card 3's
#: cells' share of its picture band).
_RUNS: dict[tuple[str, str], tuple[int, list[str], float]] = {}


def card_overruns(language: str, aspect: str, monkeypatch) -> tuple[int, list[str], float]:
    """The number of cards the run lays out, every part of a card closer than CLEAR_PX to its frame's outline (or
    past it), with by how much, in pixels; and how much of card 3's picture band (between its subtitle and its gain)
    the Q, K, V blocks' cells take in height."""
    if (language, aspect) in _RUNS:
        return _RUNS[language, aspect]
    monkeypatch.setenv(LANGUAGE_ENV_VAR, language)
    laid_out = []
    shares = []

    class Measured(SummaryScene):
        def _pipeline(self):
            cards = super()._pipeline()
            px = config.pixel_width / config.frame_width  # measured while the run's frame is the config's
            for number, card in enumerate(cards, start=1):
                outline = card.frame
                for part in PARTS:
                    mob = getattr(card, part)
                    room = {  # pixels from the part to the frame's outline on each side, positive when inside
                        "left": mob.get_left()[0] - outline.get_left()[0],
                        "right": outline.get_right()[0] - mob.get_right()[0],
                        "top": outline.get_top()[1] - mob.get_top()[1],
                        "bottom": mob.get_bottom()[1] - outline.get_bottom()[1],
                    }
                    laid_out.append((number, part, {side: gap * px for side, gap in room.items()}))
            card = cards[2]  # Trainable Q, K, V
            band = card.subtitle.get_bottom()[1] - card.gain.get_top()[1]
            shares.append(min(block.grid.body.height for block in card.motif) / band)
            return cards

    run_headless(Measured, aspect=aspect)
    problems = [f"card {number} {part}: {side} {gap:+.1f} px from its frame"
                for number, part, rooms in laid_out for side, gap in rooms.items() if gap < CLEAR_PX]
    _RUNS[language, aspect] = len({number for number, _part, _rooms in laid_out}), problems, shares[0]
    return _RUNS[language, aspect]


@pytest.mark.parametrize("case", per_scene(CASES, scene_id=lambda case: "summary", name="-".join))
def test_no_card_text_reaches_its_frame(case, monkeypatch):
    language, aspect = case
    cards, problems, _share = card_overruns(language, aspect, monkeypatch)
    assert cards == len(STAGES)
    assert not problems, f"{language} {aspect}:\n" + "\n".join(problems)


#: The least share of card 3's picture band its Q, K, V cells take in height: the picture, not the names over it.
#: In French the card's name takes two lines and the gains four; with the names over the blocks the cells took 0.20
#: of the landscape band (4 px cells; 0.39 in portrait and square; English 0.50–0.51); named beside them, 0.61–0.71.
MIN_CELL_SHARE = 0.5


@pytest.mark.parametrize("case", per_scene(CASES, scene_id=lambda case: "summary", name="-".join))
def test_card_3s_cells_take_most_of_its_picture_band(case, monkeypatch):
    language, aspect = case
    _cards, _problems, share = card_overruns(language, aspect, monkeypatch)
    assert share >= MIN_CELL_SHARE, f"{language} {aspect}: Q, K, V cells take {share:.2f} of card 3's picture band"
