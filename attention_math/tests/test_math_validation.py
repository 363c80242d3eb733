"""Every bad-input path raises ValueError with a message naming the problem."""

from __future__ import annotations

import pytest
import torch

from attention_math import modules as m
from attention_math.attention_dropout import apply_attention_dropout, draw_keep_mask
from attention_math.bottleneck import bottleneck_steps, seeded_rnn_encoder
from attention_math.causal import causal_attention_steps, wrong_order_steps
from attention_math.multihead import (
    SplitWeights,
    merge_heads,
    multihead_stacked_steps,
    multihead_steps,
    split_heads,
    split_to_stacked,
)
from attention_math.qkv import project, qkv_attention_steps, query_row_steps
from attention_math.saturation import saturation_case, seeded_saturation_cases, softmax_jacobian_norm
from attention_math.scaled import attention_steps
from attention_math.self_attention import single_query_steps, weight_free_self_attention
from attention_math.soft import (
    dot_scores,
    project_query,
    seeded_additive_scorer,
    soft_attention_steps,
    weighted_sum,
)

z = torch.zeros
W3 = SplitWeights(z(3, 4), z(3, 4), z(3, 4))

CASES = [
    # --- module constructors ---
    ("SelfAttention d_in=0", lambda: m.SelfAttention(0, 2), "d_in"),
    ("SelfAttention d_out=-1", lambda: m.SelfAttention(3, -1), "d_out"),
    ("SelfAttention d_in float", lambda: m.SelfAttention(3.0, 2), "d_in"),
    ("Causal context_length=0", lambda: m.CausalSelfAttention(3, 2, 0), "context_length"),
    ("Causal dropout=1", lambda: m.CausalSelfAttention(3, 2, 4, dropout=1.0), r"dropout.*\[0, 1\)"),
    ("Causal dropout<0", lambda: m.CausalSelfAttention(3, 2, 4, dropout=-0.1), "dropout"),
    ("Causal dropout str", lambda: m.CausalSelfAttention(3, 2, 4, dropout="0.1"), "dropout"),
    ("Split not divisible", lambda: m.MultiHeadCausalAttention(3, 6, 4, n_heads=4), r"not divisible.*valid n_heads: \[1, 2, 3, 6\]"),
    ("Stacked not divisible", lambda: m.MultiHeadCausalAttentionStacked(3, 5, 4, n_heads=2), "not divisible"),
    ("Split n_heads=0", lambda: m.MultiHeadCausalAttention(3, 4, 4, n_heads=0), "n_heads"),
    ("Split dropout=1.5", lambda: m.MultiHeadCausalAttention(3, 4, 4, 2, dropout=1.5), "dropout"),
    ("Stacked dropout=1", lambda: m.MultiHeadCausalAttentionStacked(3, 4, 4, 2, dropout=1.0), "dropout"),
    # --- module inputs ---
    ("x rank 2", lambda: m.SelfAttention(3, 2)(z(4, 3)), r"rank 3.*\(4, 3\)"),
    ("x rank 4", lambda: m.CausalSelfAttention(3, 2, 4)(z(1, 1, 4, 3)), "rank 3"),
    ("x wrong width", lambda: m.SelfAttention(3, 2)(z(1, 4, 5)), r"size 5.*expected 3 \(d_in\)"),
    ("x not a tensor", lambda: m.SelfAttention(3, 2)([[0.0, 0.0, 0.0]]), "torch.Tensor"),
    ("x integer dtype", lambda: m.SelfAttention(3, 2)(torch.zeros(1, 2, 3, dtype=torch.long)),
     r"x has dtype torch\.int64, expected torch\.float32"),
    ("x empty sequence", lambda: m.SelfAttention(3, 2)(z(1, 0, 3)), "empty"),
    ("T > context causal", lambda: m.CausalSelfAttention(3, 2, 4)(z(1, 5, 3)), "T=5 exceeds context_length=4"),
    ("T > context split", lambda: m.MultiHeadCausalAttention(3, 4, 4, 2)(z(1, 5, 3)), "context_length"),
    ("T > context stacked", lambda: m.MultiHeadCausalAttentionStacked(3, 4, 4, 2)(z(1, 6, 3)), "context_length"),
    ("x width split", lambda: m.MultiHeadCausalAttention(3, 4, 4, 2)(z(1, 2, 4)), "d_in"),
    # --- functional scaled attention ---
    ("Q/K size mismatch", lambda: attention_steps(z(4, 2), z(4, 3), z(4, 3)), "query/key size mismatch"),
    ("K/V length mismatch", lambda: attention_steps(z(4, 2), z(4, 2), z(5, 2)), "key/value length mismatch"),
    ("batch dims differ", lambda: attention_steps(z(2, 4, 2), z(3, 4, 2), z(3, 4, 2)), "batch dims"),
    ("Q rank 1", lambda: attention_steps(z(2), z(4, 2), z(4, 2)), "Q must have at least 2 dims"),
    ("causal T_q != T_k", lambda: causal_attention_steps(z(3, 2), z(4, 2), z(4, 2)), "T_q=3 and T_k=4"),
    ("mask wrong shape", lambda: attention_steps(z(3, 2), z(3, 2), z(3, 2), mask=torch.zeros(4, 4, dtype=torch.bool)), "mask"),
    ("mask not bool", lambda: attention_steps(z(3, 2), z(3, 2), z(3, 2), mask=z(3, 3)), "bool"),
    ("dropout p=1", lambda: attention_steps(z(3, 2), z(3, 2), z(3, 2), p=1.0), "dropout"),
    ("keep_mask shape", lambda: apply_attention_dropout(z(3, 3), 0.5, True, keep_mask=torch.ones(2, 2, dtype=torch.bool)), "keep_mask"),
    ("keep_mask dtype", lambda: apply_attention_dropout(z(3, 3), 0.5, True, keep_mask=torch.ones(3, 3)), "keep_mask"),
    ("draw p=1", lambda: draw_keep_mask(z(3, 3), 1.0), "dropout"),
    ("weights not tensor", lambda: apply_attention_dropout([1.0], 0.1, True), "weights"),
    ("wrong order non-square", lambda: wrong_order_steps(z(3, 4)), "square"),
    ("wrong order rank 1", lambda: wrong_order_steps(z(3)), "at least 2"),
    # --- projections ---
    ("W rows != d_in", lambda: project(z(4, 3), z(2, 2), name="W_q"), r"W_q has shape \(2, 2\).*input width is 3"),
    ("W rank 1", lambda: project(z(4, 3), z(3)), "rank 2"),
    ("bias wrong size", lambda: project(z(4, 3), z(3, 2), z(3)), r"bias.*expected \(2,\)"),
    ("qkv W_k mismatch", lambda: qkv_attention_steps(z(4, 3), z(3, 2), z(3, 5), z(3, 2)), "query/key size mismatch"),
    ("query_row index", lambda: query_row_steps(z(4, 3), z(3, 2), z(4, 2), z(4, 2), 4), r"query_index.*\[0, 4\)"),
    ("query_row q/K", lambda: query_row_steps(z(4, 3), z(3, 2), z(4, 3), z(4, 2), 0), "query/key size mismatch"),
    ("query_row K/V", lambda: query_row_steps(z(4, 3), z(3, 2), z(4, 2), z(3, 2), 0), "key/value length mismatch"),
    # --- multi-head ---
    ("split_heads not divisible", lambda: split_heads(z(2, 5), 2), "not divisible"),
    ("merge_heads rank 2", lambda: merge_heads(z(2, 5)), "at least 3"),
    ("multihead W_o shape", lambda: multihead_steps(z(4, 3), W3, z(4, 3), n_heads=2), r"W_o has shape \(4, 3\)"),
    ("multihead W_v width", lambda: multihead_steps(z(4, 3), SplitWeights(z(3, 4), z(3, 4), z(3, 6)), z(4, 4), n_heads=2), "share the output width"),
    ("multihead heads", lambda: multihead_steps(z(4, 3), W3, z(4, 4), n_heads=3), "not divisible"),
    ("multihead b_o", lambda: multihead_steps(z(4, 3), W3, z(4, 4), z(3), n_heads=2), "b_o"),
    ("stacked no heads", lambda: multihead_stacked_steps(z(4, 3), [], z(4, 4)), "at least one head"),
    ("stacked W_o", lambda: multihead_stacked_steps(z(4, 3), split_to_stacked(W3, 2), z(3, 3)), "W_o"),
    ("split_to_stacked", lambda: split_to_stacked(W3, 3), "not divisible"),
    # --- soft attention ---
    ("q rank 2", lambda: soft_attention_steps(z(1, 3), z(3, 3)), "q must have rank 1"),
    ("H width", lambda: dot_scores(z(3), z(3, 2)), r"H has size 2.*expected 3"),
    ("W_q vs s", lambda: project_query(z(3, 3), z(2)), "W_q's column count"),
    ("project bias", lambda: project_query(z(3, 3), z(3), z(2)), "bias"),
    ("weighted_sum sizes", lambda: weighted_sum(z(2), z(3, 3)), "one weight per row"),
    ("additive width", lambda: soft_attention_steps(z(2), z(3, 3), seeded_additive_scorer(3, 3, 4, 0)), "W1's input width"),
    ("additive hidden=0", lambda: seeded_additive_scorer(3, 3, 0, 0), "hidden"),
    # --- weight-free ---
    ("weight-free rank 1", lambda: weight_free_self_attention(z(3)), "at least 2"),
    ("single query index", lambda: single_query_steps(z(4, 3), -1), "query_index"),
    ("single query bool index", lambda: single_query_steps(z(4, 3), True), "query_index"),
    # --- bottleneck / saturation ---
    ("rnn input width", lambda: bottleneck_steps(seeded_rnn_encoder(3, 4, 0, 0.9, 1.0), z(3, 2)), "input width"),
    ("rnn hidden=0", lambda: seeded_rnn_encoder(3, 0, 0, 0.9, 1.0), "hidden"),
    ("saturation mismatch", lambda: saturation_case(z(4), z(6, 5)), "query/key size mismatch"),
    ("saturation n_keys", lambda: seeded_saturation_cases((4,), 0, 0), "n_keys"),
    ("saturation d_k", lambda: seeded_saturation_cases((0,), 3, 0), "d_k"),
    ("jacobian rank", lambda: softmax_jacobian_norm(z(2, 2)), "rank 1"),
]


@pytest.mark.parametrize("call, pattern", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_raises_value_error(call, pattern):
    with pytest.raises(ValueError, match=pattern):
        call()


# --- module input dtype: x must have exactly the dtype of the module's weights ------------------------------

FOUR_MODULES = {
    "SelfAttention": lambda: m.SelfAttention(3, 4),
    "CausalSelfAttention": lambda: m.CausalSelfAttention(3, 4, 5),
    "MultiHeadCausalAttentionStacked": lambda: m.MultiHeadCausalAttentionStacked(3, 4, 5, 2),
    "MultiHeadCausalAttention": lambda: m.MultiHeadCausalAttention(3, 4, 5, 2),
}
WEIGHTS = "the dtype of the module's weights"


@pytest.mark.parametrize("module", FOUR_MODULES.values(), ids=FOUR_MODULES.keys())
@pytest.mark.parametrize("dtype", [torch.float64, torch.float16, torch.int64, torch.bool])
def test_an_input_of_another_dtype_than_the_weights_raises_value_error_naming_both(module, dtype):
    x = torch.zeros(1, 2, 3, dtype=dtype)
    expected = f"x has dtype {dtype}, expected torch.float32 ({WEIGHTS}); convert it with x.to(torch.float32)"
    with pytest.raises(ValueError) as raised:
        module()(x)
    assert str(raised.value) == expected


@pytest.mark.parametrize("module", FOUR_MODULES.values(), ids=FOUR_MODULES.keys())
def test_a_non_tensor_input_raises_value_error_naming_the_dtype_wanted(module):
    with pytest.raises(ValueError) as raised:
        module()([[[0.0, 0.0, 0.0]]])
    assert str(raised.value) == f"x must be a torch.Tensor of dtype torch.float32 ({WEIGHTS}), got list"


@pytest.mark.parametrize("module", FOUR_MODULES.values(), ids=FOUR_MODULES.keys())
def test_the_expected_dtype_follows_the_weights_when_the_module_is_converted(module):
    double = module().double().eval()
    out = double(torch.ones(1, 2, 3, dtype=torch.float64))
    assert out.dtype == torch.float64 and out.shape == (1, 2, 4)
    with pytest.raises(ValueError, match=r"x has dtype torch\.float32, expected torch\.float64"):
        double(torch.ones(1, 2, 3))
