"""Descriptive claims ("spreads", "a blend … leaning", "mostly", "stay spread out") computed from the weights, and
the typed-claim gate catching such a claim where the example's weights contradict it.

Expected phrases are worked out by hand from the small matrices written here."""

from __future__ import annotations

import tomllib

import torch

from attention_math import example_spec, examples
from conftest import ROOT
from scenes.kit.base import BeatRecord
from scenes.quality.inspection import typed_claim_problems
from scenes.kit.spread_claims import blend_phrase, no_longer_phrase, past_rows_phrase, scaled_weights_stay_spread

POST = ROOT / "examples" / "post.toml"


def test_a_causal_map_spreads_only_when_no_row_with_a_choice_is_one_hot():
    spread = torch.tensor([[1.0, 0.0, 0.0], [0.6, 0.4, 0.0], [0.5, 0.3, 0.2]])  # row 0 has no choice
    one_hot = torch.tensor([[1.0, 0.0, 0.0], [0.99, 0.01, 0.0], [0.0, 0.02, 0.98]])
    mixed = torch.tensor([[1.0, 0.0, 0.0], [0.99, 0.01, 0.0], [0.5, 0.3, 0.2]])
    assert past_rows_phrase(spread) == "spreads its weight over the past only"
    assert past_rows_phrase(one_hot) == "puts nearly all its weight on one word of the past"
    assert past_rows_phrase(mixed) == "keeps its weight in the past only, some rows nearly all on one word"


def test_a_context_vector_is_a_leaning_blend_an_even_blend_or_one_words_vector():
    words = ("a", "b", "c")
    assert blend_phrase([0.5, 0.3, 0.2], words, "all three words") == \
        "a blend of all three words, leaning towards the ones with larger weights"
    assert blend_phrase([0.34, 0.33, 0.33], words, "all three words") == "a blend of all three words in nearly equal parts"
    assert blend_phrase([0.02, 0.97, 0.01], words, "all three words") == \
        "almost exactly the vector of “b”, which holds nearly all the weight"


def test_mostly_means_more_than_half():
    assert no_longer_phrase(0.31) == "most"  # the post's "dry" gave itself 0.31 before the projections
    assert no_longer_phrase(0.5) == "most"
    assert no_longer_phrase(0.51) == "mostly"


def test_scaled_weights_stay_spread_unless_one_is_one_hot():
    assert scaled_weights_stay_spread([0.34, 0.46, 0.38])
    assert not scaled_weights_stay_spread([0.34, 0.96])


def _post_with_embeddings(scale: float) -> example_spec.ExampleSpec:
    data = tomllib.loads(POST.read_text(encoding="utf-8"))
    data["self_attention"]["embeddings"] = [[scale * v for v in row] for row in data["self_attention"]["embeddings"]]
    return example_spec.from_dict(data, "scaled")


SPREADS = "Each row spreads its weight over the past only, and every row sums to one."


def test_the_gate_fails_spreads_over_one_hot_weights_and_passes_the_computed_phrase():
    loud = _post_with_embeddings(10.0)  # every score × 100: the post's ±1.78 become ±178, every row one-hot
    problems = typed_claim_problems("causal_triangle", [BeatRecord("softmax_rows", 0.0, 1.0, captions=[SPREADS],
                                                                   narration=[SPREADS])], loud)
    assert len(problems) == 2 and all("beat softmax_rows" in p and "'spreads'" in p for p in problems)
    # the post's own weights do spread, so the same caption passes for it
    assert typed_claim_problems("causal_triangle", [BeatRecord("softmax_rows", 0.0, 1.0, captions=[SPREADS],
                                                               narration=[SPREADS])], example_spec.post()) == []
    computed = f"Each row {past_rows_phrase(examples.build('causal', loud).weights)}, and every row sums to one."
    assert "spreads" not in computed
    assert typed_claim_problems("causal_triangle", [BeatRecord("softmax_rows", 0.0, 1.0, captions=[computed],
                                                               narration=[computed])], loud) == []


def test_the_gate_fails_almost_all_over_uniform_weights_and_an_unregistered_descriptive_scene():
    silent = _post_with_embeddings(0.0)  # every embedding zero: every score 0, every row exactly uniform
    claim = "Each row puts almost all its weight on one word."
    problems = typed_claim_problems("causal_triangle", [BeatRecord("rows", 0.0, 1.0, captions=[claim],
                                                                   narration=[""])], silent)
    assert len(problems) == 1 and "'almost all'" in problems[0] and "nearly uniform" in problems[0]
    unregistered = typed_claim_problems("demo", [BeatRecord("b", 0.0, 1.0, captions=[SPREADS], narration=[""])],
                                        example_spec.post())
    assert len(unregistered) == 1 and "SHOWN_WEIGHTS" in unregistered[0]


def test_the_posts_context_vector_is_still_a_leaning_blend():
    # the post's α for "dry": 0.19, 0.25, 0.31, 0.25; they span 0.12, more than nearly equal parts (0.1)
    rain = examples.build("rain", example_spec.post())
    assert blend_phrase(rain.alpha, rain.tokens, "all four words") == \
        "a blend of all four words, leaning towards the ones with larger weights"
