"""The kit's computed claims: the top token, ties at the precision shown, and agreement between lists."""

from scenes.kit.claims import agreeing_top, top_token

TOKENS = ("I", "love", "coffee")


def test_top_token_is_the_highest_value():
    assert top_token(TOKENS, [0.282, 0.193, 0.525]) == "coffee"
    assert top_token(TOKENS, [0.6, 0.3, 0.1]) == "I"


def test_a_tie_at_the_precision_shown_backs_no_claim():
    assert top_token(TOKENS, [0.451, 0.449, 0.1]) is None  # both show as 0.45
    assert top_token(TOKENS, [0.451, 0.449, 0.1], decimals=3) == "I"


def test_agreeing_top_needs_every_list_to_agree():
    assert agreeing_top(TOKENS, [0.2, 0.3, 0.5], [0.05, 0.10, 0.85]) == "coffee"
    assert agreeing_top(TOKENS, [0.2, 0.3, 0.5], [0.5, 0.3, 0.2]) is None
    assert agreeing_top(TOKENS, [0.2, 0.3, 0.5], [0.4, 0.4, 0.2]) is None
