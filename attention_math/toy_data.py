"""The post's toy numbers, typed in once, exactly as the post prints them.

Stored as tuples (immutable) with small functions that hand out fresh float32 tensors, so no caller can
change the shared values in place. Everything else (seeded weights, dropout rates, sizes) is chosen in
``examples.py``; this module holds only what the post itself states.
"""

from __future__ import annotations

import torch

Rows = tuple[tuple[float, ...], ...]

# --- Soft attention: "I love coffee" -> "J'aime le café" -------------------------------------------------------

#: English source tokens, one encoder vector each.
COFFEE_TOKENS: tuple[str, ...] = ("I", "love", "coffee")
#: French produced so far when the decoder is about to predict "café".
COFFEE_FRENCH_SO_FAR: tuple[str, ...] = ("J'aime", "le")
#: The French word this decoder step should produce.
COFFEE_NEXT_WORD: str = "café"
#: Decoder hidden state s_decoder = (1.0, 0.0, 1.0).
S_DECODER: tuple[float, ...] = (1.0, 0.0, 1.0)
#: The post's "trained" query map W_q (3x3, applied as q = W_q s_decoder).
W_Q_COFFEE: Rows = (
    (0.9, 0.0, 0.0),
    (0.1, 0.5, 0.0),
    (0.0, 0.0, 0.8),
)
#: Encoder states h_1 (I), h_2 (love), h_3 (coffee), one per row.
H_COFFEE: Rows = (
    (0.8, 0.1, 0.0),
    (0.2, 0.9, 0.1),
    (0.7, 0.0, 0.9),
)
#: ILLUSTRATIVE weights from the post ("After training, a step that should produce café might look like").
#: They are an illustrative trained outcome, NOT the softmax of the toy dot-product scores (0.73, 0.35, 1.35),
#: which is about (0.282, 0.193, 0.525).
ILLUSTRATIVE_WEIGHTS: tuple[float, ...] = (0.05, 0.10, 0.85)

# --- Teacher forcing ---------------------------------------------------------------------------------------

#: The reference translation the decoder is trained towards, ending with the end token.
FRENCH_REFERENCE: tuple[str, ...] = ("J'aime", "le", "café", "<end>")
START_TOKEN: str = "<start>"
END_TOKEN: str = "<end>"
#: The decoder's wrong first prediction in the post.
WRONG_FIRST_WORD: str = "Je"
#: How the post's generating table shows a prediction it does not know ("predicts ???").
UNKNOWN_WORD: str = "???"
#: How the post's tables show "and so on" ("s + "Je" + …", "→ …").
ELLIPSIS: str = "…"

# --- Self-attention: "rain softens dry soil" ---------------------------------------------------------------

RAIN_TOKENS: tuple[str, ...] = ("rain", "softens", "dry", "soil")
#: Toy embeddings, T=4 tokens x d=3 dims, copied from the post's code.
RAIN_X: Rows = (
    (0.4, 0.1, -0.2),  # rain
    (0.3, 0.5, 0.1),  # softens
    (0.1, 0.2, 0.6),  # dry
    (0.2, 0.0, 0.3),  # soil
)
#: The post's worked query position: token 3 ("dry"), i.e. 0-based index 2.
RAIN_QUERY_INDEX: int = 2


def tensor(values: Rows | tuple[float, ...]) -> torch.Tensor:
    """A fresh float32 tensor from nested tuples."""
    return torch.tensor(values, dtype=torch.float32)


def s_decoder() -> torch.Tensor:
    """s_decoder, shape (3,)."""
    return tensor(S_DECODER)


def w_q_coffee() -> torch.Tensor:
    """W_q of the coffee example, shape (3, 3)."""
    return tensor(W_Q_COFFEE)


def h_coffee() -> torch.Tensor:
    """Encoder states for I/love/coffee as rows, shape (3, 3)."""
    return tensor(H_COFFEE)


def illustrative_weights() -> torch.Tensor:
    """The post's illustrative trained weights (0.05, 0.10, 0.85); not a softmax of the toy scores."""
    return tensor(ILLUSTRATIVE_WEIGHTS)


def rain_x() -> torch.Tensor:
    """X for "rain softens dry soil", shape (4, 3)."""
    return tensor(RAIN_X)
