"""The named examples: the post's toy numbers (hand-typed expectations), registry behaviour, and the
properties each example was chosen to show."""

from __future__ import annotations

import math

import pytest
import torch

from attention_math import examples, toy_data

ATOL = 1e-6


def close(t: torch.Tensor, expected, atol: float = ATOL) -> bool:
    return torch.allclose(t, torch.tensor(expected, dtype=t.dtype), atol=atol, rtol=0)


# --- registry ------------------------------------------------------------------------------------------------

REQUIRED = {"coffee", "rain", "qkv", "saturation", "causal", "dropout", "multihead", "teacher_forcing", "bottleneck"}


def test_registry_has_every_required_name():
    assert REQUIRED <= set(examples.names())
    assert set(examples.EXAMPLES) == set(examples.names())


@pytest.mark.parametrize("name", sorted(REQUIRED))
def test_load_is_cached_and_build_is_fresh(name):
    assert examples.load(name) is examples.load(name)
    fresh = examples.build(name)
    assert fresh is not examples.load(name)
    assert type(fresh) is type(examples.load(name))


@pytest.mark.parametrize("name", sorted(REQUIRED))
def test_records_are_frozen(name):
    record = examples.load(name)
    field = next(iter(vars(record)))
    with pytest.raises(Exception):
        setattr(record, field, None)


@pytest.mark.parametrize("name", sorted(REQUIRED - {"teacher_forcing"}))
def test_build_reproduces_load_exactly(name):
    """Seeds fix everything: a fresh build equals the cached one bit for bit."""
    a, b = examples.load(name), examples.build(name)
    for key, value in vars(a).items():
        other = getattr(b, key)
        if isinstance(value, torch.Tensor):
            assert torch.equal(value, other), key


@pytest.mark.parametrize("bad", ["Coffee", "", "nope", 3, None])
def test_unknown_name_lists_valid_names(bad):
    for fn in (examples.load, examples.build):
        with pytest.raises(ValueError) as err:
            fn(bad)
        for name in REQUIRED:
            assert name in str(err.value)


# --- coffee: the post's numbers, typed by hand -------------------------------------------------------------


def test_coffee_query_and_scores_match_the_post():
    ex = examples.load("coffee")
    assert ex.tokens == ("I", "love", "coffee")
    assert close(ex.s_decoder, [1.0, 0.0, 1.0])
    assert close(ex.q, [0.9, 0.1, 0.8])
    assert close(ex.scores, [0.73, 0.35, 1.35])
    assert close(ex.q_terms, [[0.9, 0.0, 0.0], [0.1, 0.0, 0.0], [0.0, 0.0, 0.8]])
    # e1 = 0.9*0.8 + 0.1*0.1 + 0.8*0.0 etc., as written in the post
    assert close(ex.score_terms, [[0.72, 0.01, 0.0], [0.18, 0.09, 0.08], [0.63, 0.0, 0.72]])


def test_coffee_softmax_of_scores():
    ex = examples.load("coffee")
    assert close(ex.weights, [0.2823, 0.1930, 0.5247], atol=5e-4)
    assert int(ex.weights.argmax()) == 2  # coffee
    assert close(ex.weighted_h.sum(0), ex.context.tolist())


def test_illustrative_weights_are_the_posts_and_not_the_softmax():
    ex = examples.load("coffee")
    assert close(ex.illustrative_weights, [0.05, 0.10, 0.85])
    assert not torch.allclose(ex.illustrative_weights, ex.weights, atol=0.05)
    # c = 0.05 h1 + 0.10 h2 + 0.85 h3 = (0.655, 0.095, 0.775)
    assert close(ex.illustrative_context, [0.655, 0.095, 0.775])


def test_coffee_additive_score_is_a_distribution_over_the_three_words():
    ex = examples.load("coffee")
    assert ex.additive_scores.shape == (3,)
    assert math.isclose(float(ex.additive_weights.sum()), 1.0, abs_tol=1e-6)
    assert not torch.allclose(ex.additive_scores, ex.scores)
    expected = (ex.additive_hidden @ ex.additive_w2)
    assert torch.allclose(ex.additive_scores, expected, atol=1e-6)


# --- rain ------------------------------------------------------------------------------------------------------


def test_rain_matches_the_posts_code():
    ex = examples.load("rain")
    X = torch.tensor([[0.4, 0.1, -0.2], [0.3, 0.5, 0.1], [0.1, 0.2, 0.6], [0.2, 0.0, 0.3]])
    assert torch.equal(ex.X, X)
    scores = X @ X.T
    weights = torch.softmax(scores, dim=-1)
    assert torch.allclose(ex.scores, scores)
    assert torch.allclose(ex.weights, weights)
    assert torch.allclose(ex.Z, weights @ X)


def test_rain_single_query_dry():
    ex = examples.load("rain")
    assert ex.query_index == 2 and ex.query_token == "dry"
    # omega_i = x3 . x_i, by hand: (0.04+0.02-0.12, 0.03+0.10+0.06, 0.01+0.04+0.36, 0.02+0+0.18)
    assert close(ex.omega, [-0.06, 0.19, 0.41, 0.20])
    assert torch.allclose(ex.omega_terms.sum(1), ex.omega)
    assert torch.allclose(ex.alpha, ex.weights[2])
    assert torch.allclose(ex.z, ex.Z[2])
    assert torch.allclose(ex.weighted_x.sum(0), ex.z)


# --- qkv -------------------------------------------------------------------------------------------------------


def test_qkv_example_is_consistent():
    ex = examples.load("qkv")
    assert (ex.d_in, ex.d_k, ex.d_v) == (3, 2, 2)
    assert torch.allclose(ex.Q, ex.X @ ex.W_q)
    assert torch.allclose(ex.K, ex.X @ ex.W_k)
    assert torch.allclose(ex.V, ex.X @ ex.W_v)
    assert ex.scale == pytest.approx(math.sqrt(2))
    assert torch.allclose(ex.scaled_scores, ex.Q @ ex.K.T / math.sqrt(2))
    assert torch.allclose(ex.output, torch.softmax(ex.scaled_scores, -1) @ ex.V, atol=1e-6)
    row = ex.query_row
    assert row.query_index == ex.query_index
    assert torch.allclose(row.q_terms.sum(0), ex.Q[ex.query_index], atol=1e-6)
    assert torch.allclose(row.score_terms.sum(1), ex.raw_scores[ex.query_index], atol=1e-6)
    assert torch.allclose(row.weights, ex.weights[ex.query_index], atol=1e-6)
    assert torch.allclose(row.z, ex.output[ex.query_index], atol=1e-6)


def test_qkv_weights_are_visibly_uneven():
    ex = examples.load("qkv")
    assert float(ex.weights.max()) > 0.5  # not the near-uniform 0.25s of the weight-free example


def test_seeded_weights_are_printable_as_one_decimal():
    for W in (examples.load("qkv").W_q, examples.load("multihead").W_o):
        assert torch.allclose(W * 10, (W * 10).round(), atol=1e-5)
        assert not torch.any(torch.signbit(W) & (W == 0))  # no negative zero on screen


# --- saturation ------------------------------------------------------------------------------------------------


def test_saturation_unscaled_goes_one_hot_scaled_does_not():
    ex = examples.load("saturation")
    assert ex.d_ks == (4, 64, 512) and ex.n_keys == 6
    assert list(ex.unscaled_max) == sorted(ex.unscaled_max)
    assert ex.unscaled_max[-1] > 0.99
    assert max(ex.scaled_max) < 0.7
    for case in ex.cases:
        assert case.keys.shape == (6, case.d_k)
        assert torch.allclose(case.scaled_scores * math.sqrt(case.d_k), case.unscaled_scores, atol=1e-4)
    assert ex.cases[-1].unscaled_grad_norm < 1e-3 < ex.cases[-1].scaled_grad_norm


# --- causal and dropout ------------------------------------------------------------------------------------


def test_causal_example_rows_and_zeros():
    ex = examples.load("causal")
    T = len(ex.tokens)
    upper = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    assert torch.equal(ex.mask, upper)
    assert torch.all(ex.weights[upper] == 0)
    assert torch.all(torch.isinf(ex.masked_scores[upper]))
    assert torch.allclose(ex.right_order_row_sums, torch.ones(T), atol=1e-6)
    assert torch.all(ex.wrong_order_row_sums[:-1] < 0.999)
    assert math.isclose(float(ex.wrong_order_row_sums[-1]), 1.0, abs_tol=1e-6)


def test_dropout_example_drops_at_least_two_nonzero_weights():
    ex = examples.load("dropout")
    lower = ~ex.mask
    dropped = ~ex.keep_mask & lower & (ex.weights != 0)
    assert int(dropped.sum()) >= 2
    assert len(ex.dropped_positions) == int(dropped.sum())
    assert torch.all(ex.dropped_weights[dropped] == 0)
    kept = ex.keep_mask & lower
    assert torch.allclose(ex.dropped_weights[kept], ex.weights[kept] / (1 - ex.p))
    assert ex.rescale == pytest.approx(1 / (1 - ex.p))
    assert torch.allclose(ex.output_eval, examples.load("causal").output)
    assert torch.allclose(ex.output_train, ex.dropped_weights @ ex.V)


# --- multihead -------------------------------------------------------------------------------------------------


def test_multihead_shapes_and_layouts_agree():
    ex = examples.load("multihead")
    assert ex.X.shape == (1, 4, 3)
    assert (ex.d_out, ex.n_heads, ex.head_dim) == (4, 2, 2)
    assert ex.Q.shape == (4, 4) and ex.Q_heads.shape == (2, 4, 2) and ex.weights.shape == (2, 4, 4)
    assert torch.equal(ex.Q_heads[1], ex.Q[:, 2:4])
    assert torch.equal(ex.concat[:, :2], ex.head_outputs[0])
    assert ex.max_abs_diff < 1e-6
    assert torch.allclose(ex.output, ex.concat @ ex.W_o + ex.b_o, atol=1e-6)


def test_multihead_heads_attend_differently():
    ex = examples.load("multihead")
    assert float((ex.weights[0] - ex.weights[1]).abs().max()) > 0.3


# --- teacher forcing and bottleneck -------------------------------------------------------------------------


def test_teacher_forcing_tables_match_the_post():
    ex = examples.load("teacher_forcing")
    assert ex.english == ("I", "love", "coffee")
    assert ex.reference == ("J'aime", "le", "café", "<end>")
    gen = [(s.given, s.predicted, s.wrong) for s in ex.generating]
    assert gen == [
        (("<start>",), "Je", True),
        (("Je",), "???", None),
        (("Je", "…"), "…", None),
    ]
    train = [(s.given, s.predicted, s.target, s.wrong) for s in ex.training]
    assert train == [
        (("<start>",), "Je", "J'aime", True),
        (("J'aime",), "le", "le", False),
        (("J'aime", "le"), "café", "café", False),
        (("J'aime", "le", "café"), "<end>", "<end>", False),
    ]
    assert ex.divergence_step == 2
    assert ex.generating[1].history[-1] == "Je" and ex.training[1].history[-1] == "J'aime"


def test_bottleneck_first_word_fades():
    ex = examples.load("bottleneck")
    assert ex.tokens == ("I", "love", "coffee")
    share = ex.first_token_share.tolist()
    assert share[0] == pytest.approx(1.0)
    assert share[0] > share[1] > share[2]
    assert torch.allclose(ex.influence.sum(1), torch.ones(3), atol=1e-6)
    assert torch.all(ex.influence[torch.triu(torch.ones(3, 3, dtype=torch.bool), 1)] == 0)
    assert torch.equal(ex.summary, ex.hidden_states[-1])
    assert ex.summary.shape == (ex.hidden_size,)


def test_toy_data_tensors_are_fresh_copies():
    a = toy_data.rain_x()
    a[0, 0] = 99.0
    assert toy_data.rain_x()[0, 0] == pytest.approx(0.4)
