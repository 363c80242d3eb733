"""The trained multi-head causal model: one head on the previous token, another on the token k back."""

from __future__ import annotations

import pytest
import torch

from attention_math.learned import heads
from attention_math.learned.heads_task import IGNORE, HeadsTask
from model_cache import cache_dir  # noqa: F401  (a fixture)

# --- fast: the task and the measurement, on hand-made inputs ------------------------------------------------


def test_targets_are_the_previous_digit_and_the_digit_k_back():
    task = HeadsTask(vocab_size=10, seq_len=8, distant_offset=3)
    tokens = torch.tensor([3, 1, 4, 1, 5, 9, 2, 6])
    # t = 3..7: (x[t-1], x[t-3]) = (4,3), (1,1), (5,4), (9,1), (2,5)
    expected = [[IGNORE, IGNORE]] * 3 + [[4, 3], [1, 1], [5, 4], [9, 1], [2, 5]]
    assert task.targets(tokens).tolist() == expected


def test_head_metrics_on_hand_made_patterns():
    T, k = 6, 3
    previous = torch.zeros(T, T)
    previous[0, 0] = 1.0
    for t in range(1, T):
        previous[t, t - 1] = 1.0
    half = torch.zeros(T, T)  # half on the token k back, half on itself (itself where t < k)
    for t in range(T):
        half[t, t] = 1.0 if t < k else 0.5
        if t >= k:
            half[t, t - k] = 0.5
    metrics = heads.head_metrics(torch.stack([previous, half]).unsqueeze(0), k)
    assert [(m.head, m.previous_token_mass, m.distant_offset_mass) for m in metrics] == [(0, 1.0, 0.0), (1, 0.0, 0.5)]
    assert metrics[1].other_mass == 0.5


def test_head_metrics_rejects_bad_input():
    with pytest.raises(ValueError, match=r"\(\.\.\., n_heads, T, T\)"):
        heads.head_metrics(torch.zeros(2, 4, 5), 2)
    with pytest.raises(ValueError, match=r"distant_offset must be in \[2, T=4\)"):
        heads.head_metrics(torch.zeros(2, 4, 4), 4)


def test_bad_task_and_config_are_rejected():
    with pytest.raises(ValueError, match="distant_offset must be in"):
        HeadsTask(distant_offset=1)
    with pytest.raises(ValueError, match="n_heads must be 2, 3 or 4"):
        heads.HeadsConfig(n_heads=5)
    with pytest.raises(ValueError, match="divisible by n_heads"):
        heads.HeadsConfig(d_model=30, n_heads=4)
    with pytest.raises(ValueError, match="steps must be a positive int"):
        heads.HeadsConfig(steps=0)


# --- slow: the trained model ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def learned(cache_dir):
    return heads.learned_heads()


@pytest.mark.slow
def test_first_call_trains_and_writes_the_cache(learned, cache_dir):
    assert not learned.from_cache
    assert [p.name for p in cache_dir.iterdir()] == [f"heads-{heads.config_key(heads.HeadsConfig())}.pt"]


@pytest.mark.slow
def test_heads_specialise_previous_token_vs_distant_offset(learned):
    prev, far = learned.previous_token_head, learned.distant_head
    assert prev != far
    for metrics in (learned.eval_head_metrics, learned.head_metrics):
        assert metrics[prev].previous_token_mass > 0.8 and metrics[prev].distant_offset_mass < 0.1
        assert metrics[far].distant_offset_mass > 0.8 and metrics[far].previous_token_mass < 0.1


@pytest.mark.slow
def test_it_solves_the_task(learned):
    assert learned.accuracy > 0.99
    assert learned.final_loss < 0.05


@pytest.mark.slow
def test_example_weights_are_causal_distributions(learned):
    T = HeadsTask().seq_len
    assert tuple(learned.weights.shape) == (2, T, T)
    assert torch.all(learned.weights.triu(diagonal=1) == 0)
    assert torch.allclose(learned.weights.sum(dim=-1), torch.ones(2, T), atol=1e-5)


@pytest.mark.slow
def test_example_sequence_and_targets_agree(learned):
    k = learned.distant_offset
    assert len(learned.tokens) == len(learned.targets) == HeadsTask().seq_len
    for t, target in enumerate(learned.targets):
        assert target == (None if t < k else (learned.tokens[t - 1], learned.tokens[t - k]))


@pytest.mark.slow
def test_second_call_loads_from_cache_without_training(learned, monkeypatch):
    def no_training(*args, **kwargs):
        raise AssertionError("retrained although the cache holds these weights")

    monkeypatch.setattr(heads, "train", no_training)
    again = heads.learned_heads()
    assert again.from_cache
    assert torch.equal(again.weights, learned.weights)


@pytest.mark.slow
def test_training_is_deterministic_and_seed_dependent():
    short = heads.HeadsConfig(steps=5)
    first, second = heads.train(short), heads.train(short)
    other = heads.train(heads.HeadsConfig(steps=5, seed=1))
    for name, tensor in first["state_dict"].items():
        assert torch.equal(tensor, second["state_dict"][name]), name
    assert any(not torch.equal(t, other["state_dict"][n]) for n, t in first["state_dict"].items())


@pytest.mark.slow
def test_four_heads_give_one_pattern_and_one_metric_per_head(cache_dir):
    trained = heads.load_heads_model(heads.HeadsConfig(n_heads=4, steps=3), use_cache=False)
    logits, weights = trained.model(HeadsTask().sample(2))
    assert tuple(weights.shape) == (2, 4, 12, 12) and tuple(logits.shape) == (2, 12, 2, 10)
    assert len(heads.head_metrics(weights, 5)) == 4
