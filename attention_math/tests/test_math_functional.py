"""The functional forms against formulas written out independently here."""

from __future__ import annotations

import math

import pytest
import torch

from attention_math.bottleneck import bottleneck_steps, seeded_rnn_encoder
from attention_math.saturation import saturation_case, softmax_jacobian_norm
from attention_math.self_attention import single_query_steps, weight_free_self_attention
from attention_math.soft import AdditiveScorer, project_query, seeded_additive_scorer, soft_attention_steps
from attention_math.teacher_forcing import generating_steps, training_steps


def test_project_query_terms_and_bias():
    W = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    s = torch.tensor([10.0, 100.0])
    p = project_query(W, s, bias=torch.tensor([0.5, 0.5, 0.5]))
    assert torch.equal(p.terms, torch.tensor([[10.0, 200.0], [30.0, 400.0], [50.0, 600.0]]))
    assert torch.equal(p.q, torch.tensor([210.5, 430.5, 650.5]))


def test_soft_attention_dot_by_hand():
    q = torch.tensor([1.0, 0.0])
    H = torch.tensor([[2.0, 5.0], [0.0, 1.0]])
    s = soft_attention_steps(q, H)
    assert torch.equal(s.scores, torch.tensor([2.0, 0.0]))
    e2 = math.exp(2.0)
    expected = torch.tensor([e2 / (e2 + 1), 1 / (e2 + 1)])
    assert torch.allclose(s.weights, expected)
    assert torch.allclose(s.context, expected[0] * H[0] + expected[1] * H[1])


def test_additive_score_by_hand():
    scorer = AdditiveScorer(
        W1=torch.tensor([[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]]),
        b1=torch.tensor([0.0, 0.5]),
        w2=torch.tensor([2.0, -1.0]),
    )
    q = torch.tensor([0.3, 0.7])
    H = torch.tensor([[1.0, 2.0], [3.0, -4.0]])
    # e_i = 2 tanh(q0) - tanh(h_i[1] + 0.5)
    expected = torch.tensor([2 * math.tanh(0.3) - math.tanh(2.5), 2 * math.tanh(0.3) - math.tanh(-3.5)])
    assert torch.allclose(scorer(q, H), expected, atol=1e-6)
    assert scorer.hidden_size == 2


def test_seeded_additive_scorer_is_reproducible():
    a, b = seeded_additive_scorer(3, 3, 4, seed=9), seeded_additive_scorer(3, 3, 4, seed=9)
    assert torch.equal(a.W1, b.W1) and torch.equal(a.w2, b.w2)
    assert not torch.equal(a.W1, seeded_additive_scorer(3, 3, 4, seed=10).W1)


def test_weight_free_single_query_agrees_with_all_positions():
    X = torch.randn(5, 3, generator=torch.Generator().manual_seed(0))
    full = weight_free_self_attention(X)
    for i in range(5):
        one = single_query_steps(X, i)
        assert torch.allclose(one.alpha, full.weights[i], atol=1e-6)
        assert torch.allclose(one.z, full.Z[i], atol=1e-6)
    assert weight_free_self_attention(X.unsqueeze(0).repeat(2, 1, 1)).Z.shape == (2, 5, 3)


def test_softmax_jacobian_norm_by_hand():
    # uniform over 2: J = [[0.25, -0.25], [-0.25, 0.25]], norm = 0.5
    assert softmax_jacobian_norm(torch.tensor([0.5, 0.5])) == pytest.approx(0.5)
    assert softmax_jacobian_norm(torch.tensor([1.0, 0.0])) == pytest.approx(0.0)


def test_saturation_case_by_hand():
    case = saturation_case(torch.tensor([2.0, 2.0, 2.0, 2.0]), torch.tensor([[1.0, 1.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0]]))
    assert case.scale == 2.0
    assert torch.equal(case.unscaled_scores, torch.tensor([8.0, 0.0]))
    assert torch.equal(case.scaled_scores, torch.tensor([4.0, 0.0]))
    assert case.unscaled_max == pytest.approx(1 / (1 + math.exp(-8)))
    assert case.scaled_max == pytest.approx(1 / (1 + math.exp(-4)))


def test_bottleneck_jacobian_norms_match_finite_differences():
    enc = seeded_rnn_encoder(3, 4, seed=2, recurrent_scale=0.9, input_scale=1.5)
    X = torch.randn(3, 3, generator=torch.Generator().manual_seed(1), dtype=torch.float64).float()
    steps = bottleneck_steps(enc, X)
    eps = 1e-3
    for t in range(3):
        for i in range(3):
            cols = []
            for k in range(3):
                Xp, Xm = X.clone(), X.clone()
                Xp[i, k] += eps
                Xm[i, k] -= eps
                cols.append((enc.run(Xp)[t] - enc.run(Xm)[t]) / (2 * eps))
            fd = float(torch.stack(cols).norm())
            expected = fd if i <= t else 0.0
            assert steps.jacobian_norms[t, i].item() == pytest.approx(expected, abs=2e-3)


def test_bottleneck_recurrence_by_hand():
    enc = seeded_rnn_encoder(2, 3, seed=0, recurrent_scale=0.5, input_scale=1.0)
    X = torch.tensor([[1.0, 0.0], [0.0, 1.0]])
    h1 = torch.tanh(enc.W_x @ X[0] + enc.b)
    h2 = torch.tanh(enc.W_x @ X[1] + enc.W_h @ h1 + enc.b)
    assert torch.allclose(enc.run(X), torch.stack([h1, h2]), atol=1e-6)


def test_teacher_forcing_generic_reference():
    ref = ("a", "b", "<end>")
    train = training_steps(ref, "x", "<s>")
    assert [s.fed_forward for s in train] == ["a", "b", None]
    assert [s.wrong for s in train] == [True, False, False]
    gen = generating_steps(ref, "a", "<s>")
    assert gen[0].wrong is False  # a right first guess is not marked wrong
    assert gen[1].history == ("<s>", "a")
