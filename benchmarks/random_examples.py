"""Random valid example files, drawn from a seed: the benchmark prices a user's own example, not only the kept ones.

The kept edge examples (examples/*.toml) were each written to reach one limit; a user's example is whatever they
type. These are drawn inside every limit attention_math.example_spec checks (tokens, letters, widths, heads, the
French sentence's length), from a few English and French words, one long word among them, and each is read back
through `example_spec.read` before it is used, so a drawn file is always one render.py accepts. The same seed gives
the same files, so two benchmark runs price the same examples.
"""

from __future__ import annotations

import random
from pathlib import Path

from attention_math import example_spec

WORDS = ("the", "cat", "sat", "on", "a", "warm", "mat", "internationalization", "and", "slept", "very", "soundly",
         "all", "day")
FRENCH = ("le", "chat", "dort", "sur", "un", "tapis", "l'internationalisation", "chaud")
WRONG_FIRST = "faux"  # never one of FRENCH: always a wrong first guess
TRANSLATOR = ("I", "love", "tea")  # words of the translator's corpus


def _words(rng: random.Random, pool: tuple[str, ...], low: int, high: int) -> list[str]:
    return [rng.choice(pool) for _ in range(rng.randint(low, high))]


def _toml_list(words: list[str]) -> str:
    return "[" + ", ".join(f'"{word}"' for word in words) + "]"


def draw(rng: random.Random, name: str) -> str:
    """One example file's text: every size drawn inside its limit."""
    tokens = _words(rng, WORDS, *example_spec.TOKENS)
    english = _words(rng, WORDS, 2, example_spec.TOKENS[1])
    while sum(map(len, english)) > example_spec.ENGLISH_LETTERS:
        english.pop()
    french = _words(rng, FRENCH, example_spec.FRENCH_SO_FAR[0] + 1, example_spec.FRENCH_SO_FAR[1] + 1)
    heads = rng.randint(*example_spec.HEADS)
    head_dim = rng.randint(1, example_spec.D_OUT[1] // heads)
    return f"""name = "{name}"
description = "drawn at random inside every limit"

[encoder_decoder]
english = {_toml_list(english)}
french_so_far = {_toml_list(french[:-1])}
next_word = "{french[-1]}"
wrong_first_word = "{WRONG_FIRST}"
width = {rng.randint(*example_spec.WIDTH)}
seed = {rng.randint(0, 10_000)}

[self_attention]
tokens = {_toml_list(tokens)}
width = {rng.randint(*example_spec.WIDTH)}
seed = {rng.randint(0, 10_000)}
query = {rng.randint(1, len(tokens))}
d_k = {rng.randint(*example_spec.D_K)}
heads = {heads}
d_out = {heads * head_dim}
dropout = {rng.choice((0.0, 0.1, 0.5, 0.9))}

[translator]
english = {_toml_list(list(TRANSLATOR))}
"""


def write(folder: Path, count: int, seed: int) -> list[Path]:
    """`count` drawn example files in `folder` (random-<seed>-<n>.toml), each read back by example_spec."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    files = []
    for index in range(1, count + 1):
        name = f"random-{seed}-{index}"
        path = folder / f"{name}.toml"
        path.write_text(draw(rng, name), encoding="utf-8")
        example_spec.read(path)  # raises on anything render.py would refuse
        files.append(path)
    return files
