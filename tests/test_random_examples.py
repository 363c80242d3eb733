"""benchmarks/random_examples.py: the benchmark's random examples are files render.py accepts, the same for a seed,
and spread over the limits (a user's example is whatever they type, not only the kept edge examples)."""

from __future__ import annotations

from attention_math import example_spec
from benchmarks import random_examples


def test_a_seed_draws_the_same_valid_files_and_another_seed_others(tmp_path):
    first = random_examples.write(tmp_path / "a", 4, seed=3)
    again = random_examples.write(tmp_path / "b", 4, seed=3)
    other = random_examples.write(tmp_path / "c", 4, seed=4)
    texts = [path.read_text() for path in first]
    assert texts == [path.read_text() for path in again]
    assert texts != [path.read_text() for path in other]
    assert len(set(texts)) == 4 and all(example_spec.read(path) for path in first)


def test_the_drawn_examples_reach_both_ends_of_the_token_and_head_limits(tmp_path):
    specs = [example_spec.read(path) for path in random_examples.write(tmp_path, 60, seed=1)]
    tokens = {len(spec.self_attention.tokens) for spec in specs}
    heads = {spec.self_attention.heads for spec in specs}
    assert min(tokens) <= example_spec.TOKENS[0] + 1 and max(tokens) >= example_spec.TOKENS[1] - 1
    assert heads == set(range(example_spec.HEADS[0], example_spec.HEADS[1] + 1))
