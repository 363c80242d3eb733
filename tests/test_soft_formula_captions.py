"""soft_formula's computed claims on the post's example, against the post's own numbers (typed here from the post,
not produced by the scene's code): scores 0.73 / 0.35 / 1.35, weights ≈ 0.28 / 0.19 / 0.52."""

from __future__ import annotations

import torch

from scenes.kit.numbers import Source
from scenes.soft_formula import mlp_is_random, score_functions_verdict, score_verdict, weights_verdict

SAID = ["“I”", "“love”", "“coffee”"]


class Values:
    """A stand-in Source: named tensors."""

    def __init__(self, **paths):
        self.paths = {name: torch.tensor(values) for name, values in paths.items()}

    def get(self, path):
        return self.paths[path]


def test_the_score_verdict_lists_the_posts_scores_and_names_coffee():
    caption, narration = score_verdict(Source("coffee"), SAID, listed=True)
    assert caption == "With the dot product, this example gives e = 0.73 / 0.35 / 1.35: “coffee” highest."
    assert narration == "With the dot product, this example scores 0.73, 0.35 and 1.35: “coffee” highest."
    assert score_verdict(Source("coffee"), SAID, listed=False) == ("With the dot product as the score: “coffee” "
                                                                   "highest.", None)


def test_the_weights_verdict_counts_weights_that_round_to_zero():
    caption, _ = weights_verdict(Source("coffee"), SAID, listed=True)
    assert caption == "α ≈ 0.28 / 0.19 / 0.52: every word keeps some weight; “coffee” gets the most."
    caption, _ = weights_verdict(Values(weights=[0.996, 0.003, 0.001]), SAID, listed=False)
    assert caption == "Every weight is above zero, though two round to 0.00 here; “I” gets the most."


def test_the_score_functions_agree_or_are_both_named():
    assert score_functions_verdict(Source("coffee"), SAID) == "both put “coffee” first."
    split = Values(weights=[0.2, 0.7, 0.1], additive_weights=[0.5, 0.2, 0.3])
    assert score_functions_verdict(split, SAID) == "the dot product puts “love” first, the MLP “I”."


def test_the_random_mlp_is_called_flatter_only_when_its_weights_spread_less():
    assert "flatter than the dot product's" in mlp_is_random(Source("coffee"))  # 0.27–0.38 against 0.19–0.52
    peaked = Values(weights=[0.3, 0.3, 0.4], additive_weights=[0.05, 0.05, 0.9])
    assert "mean nothing yet, however peaked" in mlp_is_random(peaked)
