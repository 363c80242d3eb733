"""The learned examples the scenes show ("learned_alignment", "learned_heads"): fresh builds equal the cached
load, and the trained models show what the clips say about them (first use trains and caches the models)."""

from __future__ import annotations

import pytest
import torch

from attention_math import examples

LEARNED = ("learned_alignment", "learned_heads")


@pytest.mark.parametrize("name", LEARNED)
def test_build_reproduces_load_exactly(name):
    a, b = examples.load(name), examples.build(name)
    assert a is not b
    for key, value in vars(a).items():
        other = getattr(b, key)
        if isinstance(value, torch.Tensor):
            assert torch.equal(value, other), key
        else:
            assert value == other, key


def test_alignment_rows_are_distributions_over_the_english_words():
    ex = examples.load("learned_alignment")
    assert ex.alignment.shape == (len(ex.french_tokens), len(ex.english_tokens))
    assert ex.snapshot_alignments.shape[1:] == (len(ex.reference_french), len(ex.english_tokens))
    for weights in (ex.alignment, ex.reorder_alignment, *ex.snapshot_alignments):
        assert torch.allclose(weights.sum(dim=-1), torch.ones(weights.shape[0]), atol=1e-5)


def test_cafe_looks_at_coffee_after_training_but_not_before():
    ex = examples.load("learned_alignment")
    assert ex.english_tokens == ("I", "love", "coffee")
    cafe_row = ex.french_tokens.index("café")
    coffee = ex.english_tokens.index("coffee")
    assert int(ex.alignment[cafe_row].argmax()) == coffee
    assert float(ex.alignment[cafe_row, coffee]) > 0.85  # at least as sharp as the post's illustration
    # the spotlighted row is the one with the largest single weight
    assert float(ex.alignment[ex.focus_row].max()) == float(ex.alignment.max())
    assert ex.focus_word == ex.french_tokens[ex.focus_row]
    assert ex.snapshot_english == ("I", "love", "coffee")
    untrained = ex.snapshot_alignments[0]
    assert float(untrained.max() - untrained.min()) < 0.1  # step 0: nearly uniform


def test_snapshots_run_forward_and_the_loss_falls():
    ex = examples.load("learned_alignment")
    steps = ex.snapshot_steps
    assert float(steps[0]) == 0 and bool((steps[1:] > steps[:-1]).all())
    assert float(ex.snapshot_losses[-1]) < float(ex.snapshot_losses[0]) / 10
    assert len(ex.snapshot_french) == steps.shape[0]


def test_reordered_pair_crosses():
    """'the cold water' → "l'eau froide": the noun's French word comes first, so the strongest links cross."""
    ex = examples.load("learned_alignment")
    noun, adjective = ex.reorder_english.index("water"), ex.reorder_english.index("cold")
    noun_row = int(ex.reorder_alignment[:, noun].argmax())
    adjective_row = int(ex.reorder_alignment[:, adjective].argmax())
    assert adjective < noun  # English: adjective before noun
    assert noun_row < adjective_row  # French: noun before adjective
    assert ex.reorder_french[noun_row] == "l'eau" and ex.reorder_french[adjective_row] == "froide"


def test_heads_specialise_on_the_two_offsets():
    ex = examples.load("learned_heads")
    assert ex.weights.shape == (ex.n_heads, ex.seq_len, ex.seq_len)
    assert torch.equal(ex.weights.triu(1), torch.zeros_like(ex.weights))  # causal
    assert ex.previous_token_head != ex.distant_head
    assert float(ex.previous_mass[ex.previous_token_head]) > 0.9
    assert float(ex.distant_mass[ex.distant_head]) > 0.9
    assert float(ex.previous_mass[ex.distant_head]) < 0.1
    assert float(ex.distant_mass[ex.previous_token_head]) < 0.1
    assert ex.tokens.shape == (ex.seq_len,)


def test_offset_table_holds_the_two_masses_per_head():
    ex = examples.load("learned_heads")
    assert torch.equal(ex.offset_masses[:, 0], ex.previous_mass)
    assert torch.equal(ex.offset_masses[:, 1], ex.distant_mass)
