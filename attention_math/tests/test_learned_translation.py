"""The trained English→French model: it translates the post's example and its café step looks at coffee."""

from __future__ import annotations

import math

import pytest
import torch

from attention_math import soft
from attention_math.learned import corpus, make_corpus, translation
from model_cache import cache_dir  # noqa: F401  (a fixture)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def learned(cache_dir):
    return translation.learned_alignment()


def test_first_call_trains_and_writes_the_cache(learned, cache_dir):
    assert not learned.from_cache
    key = translation.config_key(translation.TranslatorConfig())
    assert [p.name for p in cache_dir.iterdir()] == [f"translator-{key}.pt"]


def test_translates_i_love_coffee(learned):
    assert learned.english_tokens == ("I", "love", "coffee")
    assert learned.french_tokens == ("J'aime", "le", "café")
    assert learned.reference_french == ("J'aime", "le", "café")


def test_when_emitting_cafe_most_attention_is_on_coffee(learned):
    row = learned.alignment[learned.french_tokens.index("café")]
    coffee = learned.english_tokens.index("coffee")
    assert row[coffee] > 0.5
    others = [row[i] for i in range(len(row)) if i != coffee]
    assert all(row[coffee] > w for w in others)


def test_alignment_rows_are_distributions(learned):
    assert tuple(learned.alignment.shape) == (3, 3)
    assert (learned.alignment >= 0).all()
    assert torch.allclose(learned.alignment.sum(dim=1), torch.ones(3), atol=1e-5)


def test_alignment_is_the_posts_soft_attention_formula(cache_dir):
    # Recompute the café row by hand with the package's step-by-step soft attention:
    # q = W_q s_decoder, scores e_i = (q / sqrt(d)) . h_i, softmax, weighted sum.
    tr = translation.load_translator()
    model = tr.model
    source = torch.tensor([tr.source_vocab.encode(("I", "love", "coffee"))])
    target_in = torch.tensor([tr.target_vocab.encode((corpus.START, "J'aime", "le"))])
    with torch.no_grad():
        H, summary = model.encode(source)
        states, _ = model.decoder(model.target_embedding(target_in), summary)
        q = model.W_q(states[0, -1])  # the decoder state after "J'aime le", about to emit café
        steps = soft.soft_attention_steps(q / math.sqrt(q.shape[0]), H[0])
    _, alignment = translation.translate(tr, "I love coffee")
    assert torch.allclose(steps.weights, alignment[2], atol=1e-5)


def test_snapshots_show_the_alignment_being_learned(learned):
    snaps = learned.snapshots
    assert len(snaps) == translation.TranslatorConfig().snapshots
    steps = [s.step for s in snaps]
    assert steps[0] == 0 and steps == sorted(set(steps))
    coffee = learned.english_tokens.index("coffee")
    cafe_row = 2  # rows follow the reference French: J'aime, le, café
    assert snaps[0].alignment[cafe_row, coffee] < 0.5  # untrained: close to uniform
    assert snaps[-1].alignment[cafe_row, coffee] > 0.5
    assert snaps[-1].loss < snaps[0].loss / 10
    assert snaps[-1].loss == learned.final_loss
    assert snaps[0].greedy_french != learned.french_tokens
    assert snaps[-1].greedy_french == learned.french_tokens
    for s in snaps:
        assert tuple(s.alignment.shape) == (3, 3)
        assert torch.allclose(s.alignment.sum(dim=1), torch.ones(3), atol=1e-5)
    # The greedy output equals the reference, so the last teacher-forced frame equals the learned alignment.
    assert torch.allclose(snaps[-1].alignment, learned.alignment, atol=1e-6)


def test_it_generalises_to_sentences_it_never_saw(cache_dir):
    tr = translation.load_translator()
    seen = set(corpus.load_pairs())
    unseen = [(tuple(en.split()), tuple(fr.split())) for en, fr in make_corpus.all_pairs()]
    unseen = [pair for pair in unseen if pair not in seen]
    assert len(unseen) > 500
    correct = sum(translation.translate(tr, en)[0] == fr for en, fr in unseen)
    assert correct / len(unseen) > 0.9


def test_second_call_loads_from_cache_without_training(learned, monkeypatch):
    def no_training(*args, **kwargs):
        raise AssertionError("retrained although the cache holds these weights")

    monkeypatch.setattr(translation, "train", no_training)
    again = translation.learned_alignment()
    assert again.from_cache
    assert torch.equal(again.alignment, learned.alignment)
    assert again.train_seconds == learned.train_seconds


def test_training_is_deterministic_and_leaves_global_state_alone():
    short = translation.TranslatorConfig(epochs=1, snapshots=2)
    threads = torch.get_num_threads()
    torch.manual_seed(123)
    expected_draw = torch.rand(3)
    torch.manual_seed(123)
    first = translation.train(short)
    assert torch.equal(torch.rand(3), expected_draw)
    assert torch.get_num_threads() == threads
    second = translation.train(short)
    other_seed = translation.train(translation.TranslatorConfig(epochs=1, snapshots=2, seed=1))
    for name, tensor in first["state_dict"].items():
        assert torch.equal(tensor, second["state_dict"][name]), name
    assert any(not torch.equal(t, other_seed["state_dict"][n]) for n, t in first["state_dict"].items())


def test_unknown_words_and_bad_configs_are_rejected(cache_dir):
    tr = translation.load_translator()
    with pytest.raises(ValueError, match="unknown word"):
        translation.translate(tr, "I love espresso")
    with pytest.raises(ValueError, match="at least one word"):
        translation.translate(tr, "   ")
    with pytest.raises(ValueError, match="epochs must be a positive int"):
        translation.TranslatorConfig(epochs=0)
    with pytest.raises(ValueError, match="snapshots must be >= 2"):
        translation.TranslatorConfig(snapshots=1)
