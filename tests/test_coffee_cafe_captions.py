"""coffee_cafe's computed claims, against values worked out by hand from the post, not by the scene's code."""

from __future__ import annotations

import torch

from scenes.coffee_cafe import comparison_verdict
from scenes.kit.numbers import Source


class Weights:
    """A stand-in Source holding two sets of weights (what comparison_verdict reads)."""

    def __init__(self, weights, illustrative):
        self.paths = {"weights": torch.tensor(weights), "illustrative_weights": torch.tensor(illustrative)}

    def get(self, path):
        return self.paths[path]


SAID = ["“I”", "“love”", "“coffee”"]


def test_the_posts_weights_agree_on_coffee_and_training_sharpens():
    # the post: softmax(0.73, 0.35, 1.35) ≈ 0.282 / 0.193 / 0.525; its illustrative trained outcome 0.05 / 0.10 / 0.85
    assert comparison_verdict(Source("coffee"), SAID) == "Either way “coffee” leads; training sharpens the scores."


def test_leaders_that_differ_are_both_named_and_flatter_weights_are_not_called_sharper():
    verdict = comparison_verdict(Weights([0.6, 0.3, 0.1], [0.2, 0.5, 0.3]), SAID)
    assert verdict.startswith("The toy scores put “I” first, the illustrative weights “love”")
    assert verdict.endswith(".") and "sharpens" not in verdict
