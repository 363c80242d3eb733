"""attention_math.weight_spread: which rows are one-hot on screen, and when a whole map is saturated or uniform.

Expected values are worked out by hand from the small matrices written here."""

from __future__ import annotations

import pytest
import torch

from attention_math.weight_spread import is_nearly_uniform, is_saturated, saturated_rows, visible_row_maxima


def test_a_causal_first_row_sees_one_key_and_is_not_counted():
    w = torch.tensor([[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.97, 0.02, 0.01]])
    assert visible_row_maxima(w, causal=True) == pytest.approx([0.5, 0.97])
    assert saturated_rows(w, causal=True) == (1, 2)
    assert saturated_rows(w, causal=False) == (2, 3)  # row 0's 1.0 counts when all three keys are visible


def test_most_rows_one_hot_is_saturated_half_is_not():
    three_of_four = torch.tensor([[0.99, 0.01], [0.02, 0.98], [0.96, 0.04], [0.6, 0.4]])
    two_of_four = torch.tensor([[0.99, 0.01], [0.02, 0.98], [0.5, 0.5], [0.6, 0.4]])
    assert is_saturated(three_of_four) and not is_saturated(two_of_four)
    assert is_saturated(torch.tensor([0.96, 0.03, 0.01])) and not is_saturated(torch.tensor([0.94, 0.05, 0.01]))


def test_heads_stack_counts_each_heads_causal_rows():
    # two heads of 2 × 2 causal maps: only row 1 of each counts; head 0's is one-hot, head 1's is not
    w = torch.tensor([[[1.0, 0.0], [0.99, 0.01]], [[1.0, 0.0], [0.3, 0.7]]])
    assert saturated_rows(w, causal=True) == (1, 2)
    assert not is_saturated(w, causal=True)


def test_nearly_uniform_means_no_key_gets_half_again_its_share():
    # three keys: even share 1/3, half again is 0.5
    assert is_nearly_uniform(torch.tensor([[0.4, 0.3, 0.3], [0.34, 0.33, 0.33]]))
    assert not is_nearly_uniform(torch.tensor([[0.4, 0.3, 0.3], [0.5, 0.25, 0.25]]))
    # causal: row 1 sees two keys (share 0.5, half again 0.75); 0.7 is under it, row 0 is not counted
    assert is_nearly_uniform(torch.tensor([[1.0, 0.0], [0.7, 0.3]]), causal=True)
    assert not is_nearly_uniform(torch.tensor([[1.0, 0.0], [0.8, 0.2]]), causal=True)
