"""The installed fonts draw the scripts users type (the bootstrap installs Noto CJK and Noto core), and a word with a
character no font draws is found; fontconfig, asked one character at a time, is the independent answer."""

from __future__ import annotations

import subprocess

import pytest

from attention_math import example_spec
from conftest import ROOT
from rendering.pipeline import font_coverage

#: CJK, Hebrew, Arabic, Greek, Cyrillic, Latin with accents, an emoji-like symbol; and three no font covers
#: (an unassigned code point, a private-use one, one of plane 15's private-use area).
DRAWN = "雨猫日本語한국שלוםمرحباαβγкотéçñ☔"
NOT_DRAWN = "\u0378\ue000\U000f0000"


def fontconfig_covers(character: str) -> bool:
    listing = subprocess.run(["fc-list", f":charset={ord(character):x}", "file"], capture_output=True, text=True,
                             check=True).stdout
    return bool(listing.strip())


@pytest.mark.parametrize("character", list(DRAWN + NOT_DRAWN), ids=lambda c: f"U+{ord(c):04X}")
def test_coverage_agrees_with_fontconfig(character):
    assert font_coverage.is_covered(character) == fontconfig_covers(character)


def test_the_scripts_users_type_are_drawn_and_the_probes_are_not():
    assert all(fontconfig_covers(c) for c in DRAWN), [c for c in DRAWN if not fontconfig_covers(c)]
    assert not any(fontconfig_covers(c) for c in NOT_DRAWN)


def test_every_word_of_an_example_is_checked():
    spec = example_spec.read(ROOT / "examples" / "tiny.toml")
    words = dict(font_coverage.spec_words(spec))
    assert words["self_attention.tokens[1]"] == spec.self_attention.tokens[1]
    assert words["encoder_decoder.next_word"] == spec.encoder_decoder.next_word
    font_coverage.check_covered(spec, "tiny.toml")  # every word drawn: nothing refused


def test_the_scripts_example_passes_the_check():
    spec = example_spec.read(ROOT / "examples" / "scripts.toml")
    font_coverage.check_covered(spec, "scripts.toml")
    tokens = spec.self_attention.tokens
    assert any("\u4e00" <= c <= "\u9fff" for word in tokens for c in word)  # CJK
    assert any("\u0590" <= c <= "\u08ff" for word in tokens for c in word)  # right to left (Hebrew, Arabic)
