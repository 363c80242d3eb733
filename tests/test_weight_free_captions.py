"""Step B's caption of weight_free reads the weights: the most and the least weighted word, or the tie."""

from __future__ import annotations

import torch

from attention_math import examples
from scenes.weight_free import distribution_caption


class _Weights:
    """A stand-in Source holding only `alpha` (the caption reads nothing else)."""

    def __init__(self, alpha):
        self.alpha = torch.tensor(alpha)

    def get(self, path):
        return self.alpha

    def value(self, path, index):
        return float(self.alpha[index])


def test_the_post_caption_names_the_largest_and_smallest_softmax_weight():
    rain = examples.build("rain")
    scores = rain.X[rain.query_index] @ rain.X.T  # the post's weight-free scores, recomputed here
    alpha = torch.softmax(scores, dim=0)
    hi, lo = int(alpha.argmax()), int(alpha.argmin())
    caption = distribution_caption(_Weights(alpha.tolist()), list(rain.tokens), 3)
    assert f"most on “{rain.tokens[hi]}” ({alpha[hi]:.2f})" in caption
    assert f"least on “{rain.tokens[lo]}” ({alpha[lo]:.2f})" in caption and "position 3" in caption


def test_tied_weights_are_said_to_tie_rather_than_one_word_named():
    caption = distribution_caption(_Weights([0.4, 0.4, 0.2]), ["a", "b", "c"], 1)
    assert "the largest weights tie at 0.40" in caption and "least on “c” (0.20)" in caption


class _Scores(_Weights):
    def get(self, path):
        return self.alpha


def test_the_top_score_is_named_against_the_query_or_the_tie_said():
    from scenes.weight_free import top_score_caption

    rain = examples.build("rain")
    omega = rain.X[rain.query_index] @ rain.X.T  # recomputed here: x_q · x_j
    best = int(omega.argmax())
    caption = top_score_caption(_Scores(omega.tolist()), list(rain.tokens), rain.query_index)
    assert caption.startswith(f"“{rain.tokens[best]}” scores highest") and f"{omega[best]:.2f}" in caption
    assert ("against itself" in caption) == (best == rain.query_index)
    assert top_score_caption(_Scores([0.5, 0.5, 0.1]), ["a", "b", "c"], 2).startswith("Two words tie")


class _Bars:
    """A stand-in for Step B's bars: one bar and one written value per word."""

    def __init__(self, n):
        from manim import Dot, VGroup

        self.bars = VGroup(*(Dot() for _ in range(n)))
        self.values = VGroup(*(Dot() for _ in range(n)))


def test_the_reading_of_the_bars_is_about_the_most_and_the_least_weighted_bar():
    from scenes.weight_free import distribution_subject

    rain = examples.build("rain")
    alpha = torch.softmax(rain.X[rain.query_index] @ rain.X.T, dim=0)  # recomputed here
    hi, lo = int(alpha.argmax()), int(alpha.argmin())
    bars = _Bars(len(rain.tokens))
    subject = distribution_subject(bars, alpha)
    assert [list(piece) for piece in subject] == [[bars.bars[hi], bars.values[hi]], [bars.bars[lo], bars.values[lo]]]
    tied = _Bars(3)
    assert list(distribution_subject(tied, torch.tensor([0.4, 0.4, 0.2]))) == [tied.bars, tied.values]
