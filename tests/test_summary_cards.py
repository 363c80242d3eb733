"""The summary's stage cards hold their own text: in every frame and both languages, no card's number and name,
subtitle, motif or gain line reaches its card's frame (a name is one word that cannot wrap: "7 CausalSelfAttention"
once ran 6 px past its card in the landscape frame, in English and French alike)."""

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


def card_overruns(language: str, aspect: str, monkeypatch) -> tuple[int, list[str]]:
    """The number of cards the run lays out, and every part of a card closer than CLEAR_PX to its frame's outline
    (or past it), with by how much, in pixels."""
    monkeypatch.setenv(LANGUAGE_ENV_VAR, language)
    laid_out = []

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
            return cards

    run_headless(Measured, aspect=aspect)
    problems = [f"card {number} {part}: {side} {gap:+.1f} px from its frame"
                for number, part, rooms in laid_out for side, gap in rooms.items() if gap < CLEAR_PX]
    return len({number for number, _part, _rooms in laid_out}), problems


@pytest.mark.parametrize("case", per_scene(CASES, scene_id=lambda case: "summary", name="-".join))
def test_no_card_text_reaches_its_frame(case, monkeypatch):
    language, aspect = case
    cards, problems = card_overruns(language, aspect, monkeypatch)
    assert cards == len(STAGES)
    assert not problems, f"{language} {aspect}:\n" + "\n".join(problems)
