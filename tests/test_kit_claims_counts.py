"""Counting and ranking claims (scenes.kit.claims): what a caption says about how many and which, from the data."""

from __future__ import annotations

from scenes.kit.claims import all_of, bottom_index, count_word, top_index


def test_top_and_bottom_index_follow_the_values():
    assert top_index([0.1, 0.7, 0.2]) == 1
    assert bottom_index([0.1, 0.7, 0.2]) == 0


def test_a_tie_at_the_precision_shown_backs_no_claim():
    assert top_index([0.701, 0.699, 0.2]) is None  # both show as 0.70
    assert top_index([0.701, 0.699, 0.2], decimals=3) == 0
    assert bottom_index([0.5, 0.104, 0.096]) is None  # both show as 0.10


def test_counts_read_as_words():
    assert count_word(4) == "four"
    assert count_word(8) == "eight"
    assert count_word(40) == "40"
    assert all_of(2, "words") == "both words"
    assert all_of(8, "words") == "all eight words"


def test_leader_names_the_top_token_or_the_tie():
    from scenes.kit.claims import leader

    assert leader(["I", "love", "coffee"], [0.73, 0.35, 1.35]) == (2, "coffee")
    assert leader(["I", "love", "coffee"], [0.5, 0.5, 0.1]) == (None, "I and love (tied at 0.50)")
