"""What every clip reads aloud: every beat has something to say, and the pronunciation table covers all of it.

The narration per `say` comes from the scenes' beat logs, as recorded by the quality-gate inspection run
(`scenes.quality.inspection.inspect_scene`, cached per process: run together with tests/test_quality_gates.py, the
scenes run once for both). A symbol left after `spoken()` would reach the voice raw: it would skip "ᵀ", spell
"_", or read "0.28" like a date, so the test names the scene, beat, narration and what was left.
"""

from __future__ import annotations

import re
from typing import Callable

import pytest

from conftest import per_scene
from rendering.narration.pronounce import spoken
from scenes.kit.base import BeatRecord
from scenes.quality.inspection import inspect_scene
from scenes.registry import SCENES

# What must never reach the voice: formula notation, Greek letters, Unicode sub/superscripts and digits.
RAW_SYMBOLS = re.compile(
    r"[_^ᵀ√≤≥∞Σ∑×·−=<>|→⇒≈\u0303]"  # notation (and the combining tilde of ω̃)
    r"|[\u0370-\u03ff\u1f00-\u1fff]"  # Greek
    r"|[\u2070-\u209c\u1d62-\u1d6a\u2c7c\u00b2\u00b3\u00b9]"  # sub- and superscripts: x₃, αᵢ, ⱼ, x²
    r"|\d"  # digits: every number is read as words
)
ids = [spec.id for spec in SCENES]


def leftover_symbols(narration: str, pronounce: Callable[[str], str] = spoken) -> list[str]:
    """The raw symbols still in the spoken form of a narration (empty when the voice can read all of it)."""
    return RAW_SYMBOLS.findall(pronounce(narration))


def silent_beats(beats: list[BeatRecord]) -> list[str]:
    """Names of the beats none of whose `say` calls has anything to read aloud."""
    return [record.name for record in beats if not any(text.strip() for text in record.narration)]


# --- the checks can fail -----------------------------------------------------------------------------------


def test_leftover_symbols_flags_raw_notation():
    raw = "ω₃ⱼ = q_3 · kᵀ / √d_k ≤ −∞, α ≈ 0.28"
    left = leftover_symbols(raw, pronounce=lambda text: text)  # nothing pronounced: every symbol is left
    assert set(left) == set("ω₃ⱼ=_3·ᵀ√≤−∞α≈028"), left
    assert leftover_symbols(raw) == []  # the pronunciation table turns all of it into words
    assert leftover_symbols("softmax, then mask", pronounce=lambda text: text) == []


def test_silent_beats_names_a_beat_with_nothing_to_say():
    beats = [BeatRecord("spoken", 0.0, captions=["a"], narration=["a"]),
             BeatRecord("quiet", 1.0, captions=["b", "c"], narration=["", "  "])]
    assert silent_beats(beats) == ["quiet"]


# --- every scene -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("scene_id", per_scene(ids))
def test_every_beat_has_narration(scene_id):
    beats = inspect_scene(scene_id).beat_log
    assert beats, f"{scene_id} logged no beats"
    assert all(len(record.narration) == len(record.captions) for record in beats), "one narration per say()"
    assert not silent_beats(beats), f"{scene_id}: beats with nothing to read aloud: {silent_beats(beats)}"


@pytest.mark.parametrize("scene_id", per_scene(ids))
def test_narration_has_no_raw_symbol_after_pronunciation(scene_id):
    problems = []
    for record in inspect_scene(scene_id).beat_log:
        for narration in record.narration:
            left = leftover_symbols(narration)
            if left:
                problems.append(f"{scene_id} / beat {record.name}: {narration!r} → {spoken(narration)!r} "
                                f"leaves {''.join(dict.fromkeys(left))!r}")
    assert not problems, "extend rendering/narration/pronounce.py TABLE for:\n" + "\n".join(problems)
