"""The kit's highlights and signs: a word and its score framed together only where they share a line, and the
sign between factors read downwards large enough to see."""

from __future__ import annotations

from manim import DOWN, RIGHT, Square, VGroup

from scenes.kit import frame_pieces
from scenes.kit.text import product_sign


def test_pieces_on_one_line_share_one_box_and_stacked_pieces_get_one_each():
    word, score = Square(0.5), Square(0.5)
    VGroup(word, score).arrange(RIGHT, buff=2.0)
    boxes = frame_pieces(word, score)
    assert len(boxes) == 1 and boxes[0].width > 2.5

    between = Square(0.5)
    VGroup(word, between, score).arrange(DOWN, buff=1.0)
    boxes = frame_pieces(word, score)
    assert len(boxes) == 2
    for box in boxes:  # no box takes in what lies between the two
        assert not (box.get_bottom()[1] < between.get_center()[1] < box.get_top()[1])


def test_the_sign_between_factors_read_downwards_is_no_speck():
    in_line, downwards = product_sign(downwards=False), product_sign(downwards=True)
    assert downwards.height > 3 * in_line.height and downwards.width > 3 * in_line.width
