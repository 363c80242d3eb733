"""What captions say about an alignment (scenes.kit.alignment_claims), checked on small matrices worked by hand."""

from __future__ import annotations

import torch

from scenes.kit import alignment_claims as claims

IN_ORDER = torch.tensor([[0.01, 0.99, 0.00],   # J'aime → love
                         [0.08, 0.33, 0.59],   # le → coffee (spread)
                         [0.00, 0.00, 1.00]])  # café → coffee
CROSSED = torch.tensor([[0.99, 0.01, 0.00, 0.00],
                        [0.00, 0.05, 0.00, 0.95],   # l'eau → water (column 3)
                        [0.00, 0.02, 0.88, 0.10]])  # froide → cold (column 2): earlier than water


def test_strongest_links_name_each_rows_largest_column_and_none_for_a_tie():
    assert claims.strongest_links(IN_ORDER) == [1, 2, 2]
    assert claims.strongest_links(torch.tensor([[0.5, 0.5], [0.2, 0.8]])) == [None, 1]


def test_links_in_sentence_order_do_not_cross():
    assert claims.first_crossing(IN_ORDER) is None


def test_a_later_row_looking_further_left_is_the_crossing():
    assert claims.first_crossing(CROSSED) == (1, 2)


def test_a_tied_row_neither_makes_nor_hides_a_crossing():
    tied = torch.tensor([[0.0, 0.0, 1.0], [0.5, 0.5, 0.0], [0.0, 1.0, 0.0]])
    assert claims.first_crossing(tied) == (0, 2)


def test_weight_phrase_says_how_concentrated_a_row_is():
    words = ("I", "love", "coffee")
    assert claims.weight_phrase([0.0, 0.0, 1.0], words) == "almost all the weight sits on coffee: 1.00"
    assert claims.weight_phrase([0.08, 0.33, 0.59], words) == "most of the weight sits on coffee: 0.59"
    assert claims.weight_phrase([0.3, 0.45, 0.25], words) == "the weight spreads; the most, 0.45, sits on love"
    assert claims.weight_phrase([0.5, 0.5, 0.0], words) == "the weight is split between I and love: 0.50 each"


def test_the_least_concentrated_row_and_its_two_largest_weights():
    assert claims.least_concentrated_row(IN_ORDER) == 1
    assert claims.top_two(IN_ORDER[1], ("I", "love", "coffee")) == "0.59 on coffee, 0.33 on love"
    assert not claims.is_sharp(IN_ORDER[1]) and claims.is_sharp(IN_ORDER[2])


def test_nearly_uniform_only_when_every_weight_is_close():
    assert claims.nearly_uniform(torch.tensor([[0.33, 0.32, 0.35], [0.34, 0.33, 0.33]]))
    assert not claims.nearly_uniform(IN_ORDER)


def test_a_row_settles_when_its_largest_column_stops_changing():
    snapshots = torch.tensor([
        [[0.4, 0.3, 0.3], [0.3, 0.3, 0.4]],
        [[0.9, 0.1, 0.0], [0.1, 0.1, 0.8]],
        [[0.4, 0.6, 0.0], [0.0, 0.1, 0.9]],
        [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
    ])
    assert claims.settled_at(snapshots, 0) == 2  # I, I, love, love
    assert claims.settled_at(snapshots, 1) == 0  # coffee from the start
    ends_tied = torch.tensor([[[1.0, 0.0]], [[0.5, 0.5]]])
    assert claims.settled_at(ends_tied, 0) is None


def test_listing_names_few_words_and_counts_many():
    assert claims.listing(["I"]) == "I"
    assert claims.listing(["I", "love", "coffee"]) == "I, love and coffee"
    assert claims.listing_or_count(["a", "b", "c", "d"], "words") == "a, b, c and d"
    assert claims.listing_or_count(list("abcdef"), "English words") == "the six English words"
