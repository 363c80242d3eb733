"""What the voice is asked to say for a caption: rendering/narration/pronounce.py.

Expected strings are written by hand: how a teacher reads the formula aloud."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from rendering.narration.pronounce import number_words, sentences, spoken

ROOT = Path(__file__).resolve().parents[1]

SPOKEN = [
    # transposes and products of matrices
    ("QKᵀ", "Q K transpose"),
    ("Q Kᵀ", "Q K transpose"),
    ("Q K^T", "Q K transpose"),
    ("All the dot products form one 4 × 4 grid: X Xᵀ, one row per query.",
     "All the dot products form one four by four grid: X X transpose, one row per query."),
    # division only inside formulas, roots
    ("Start from the scaled scores ω = Q Kᵀ / √d_k for the short sentence: query rows, key columns.",
     "Start from the scaled scores omega equals Q K transpose divided by the square root of d k for the short "
     "sentence: query rows, key columns."),
    ("QKᵀ/√dₖ", "Q K transpose divided by the square root of d k"),
    ("sqrt(d_k)", "the square root of d k"),
    ("Queries, keys, values and the √dₖ scale", "Queries, keys, values and the square root of d k scale"),
    ("Why the √d_k?", "Why the square root of d k?"),
    ("Kept weights × 1/(1 − p) = 1.33", "Kept weights times one divided by one minus p, equals one point three three"),
    # " / " between numbers is a list, not a division
    ("These scores give α ≈ 0.28 / 0.19 / 0.52: coffee gets the most weight.",
     "These scores give alpha about zero point two eight, zero point one nine, zero point five two: "
     "coffee gets the most weight."),
    ("from -1.3 / −0.5 / 2", "from minus one point three, minus zero point five, two"),
    ("They play the key/value role.", "They play the key-value role."),
    ("Trainable Q/K/V (and scaling)", "Trainable Q, K, V, and scaling"),
    # weight matrices and subscripts
    ("A learned linear map turns the state into a query: q = W_q s_decoder.",
     "A learned linear map turns the state into a query: q equals W Q s decoder."),
    ("W_Q, W_K, W_V", "W Q, W K, W V"),
    ("d_k = 64", "d k equals sixty-four"),
    ("d_k = 512", "d k equals five hundred twelve"),
    ("x₃ and x_3 and h_1", "x three and x three and h one"),
    ("Soft attention keeps every encoder state h_1 … h_3 instead of just s.",
     "Soft attention keeps every encoder state h one to h three instead of just s."),
    ("Given encoder states h_1 … h_T", "Given encoder states h one to h T"),
    ("Mask: keep ω_ij where j ≤ i, and fill every future cell (j > i) with −∞.",
     "Mask: keep omega i j where j less than or equal to i, and fill every future cell, j greater than i, "
     "with minus infinity."),
    ("…and add: z₃ = Σ α₃ⱼ vⱼ.", "and add: z three equals the sum of alpha three j v j."),
    ("scale each encoder vector h_i by its weight α_(t,i), then add them up.",
     "scale each encoder vector h i by its weight alpha t i, then add them up."),
    ("W_Q has d_out = 4 columns: room for 2 heads of head_dim = 2 each.",
     "W Q has d out equals four columns: room for two heads of head dim equals two each."),
    ("head h gets its own narrow W_Q^(h).", "head h gets its own narrow W Q for head h."),
    # Greek letters and operators
    ("The past and the diagonal keep their scores: that is the first case of ω̃.",
     "The past and the diagonal keep their scores: that is the first case of omega tilde."),
    ("Softmax turns the scores into weights α_i", "Softmax turns the scores into weights alpha i"),
    ("β, γ, λ, σ, θ", "beta, gamma, lambda, sigma, theta"),
    ("The context vector is the weighted sum c = Σ α_i h_i.",
     "The context vector is the weighted sum c equals the sum of alpha i h i."),
    ("Score each English position with a dot product: e_i = q · h_i.",
     "Score each English position with a dot product: e i equals q dot h i."),
    ("p ≠ 0", "p not equal to zero"),
    ("t ≥ 5", "t greater than or equal to five"),
    ("score → normalise → weighted sum", "score to normalise to weighted sum"),
    ("Then softmax each row: exp(−∞) is zero.", "Then softmax each row: e to the minus infinity is zero."),
    ("fill with -inf", "fill with minus infinity"),
    ("max |stacked − split| = 0.000 (exactly zero).",
     "the largest absolute value of stacked minus split equals zero point zero zero zero, exactly zero."),
    # numbers
    ("0.28", "zero point two eight"),
    ("-1.3 and −1.3", "minus one point three and minus one point three"),
    ("Loss falls from 3.97 to 0.006", "Loss falls from three point nine seven to zero point zero zero six"),
    ("trained on 1,000 pairs", "trained on one thousand pairs"),
    ("Random digits 0–9, length 12.", "Random digits zero to nine, length twelve."),
    ("the previous one, x[t-1]", "the previous one, x at t minus one"),
    ("So q = (0.9, 0.1, 0.8).", "So q equals zero point nine, zero point one, zero point eight."),
    # words, quotes, abbreviations
    ("the state is all “I”: its share is 1.00.", "the state is all I: its share is one point zero zero."),
    ("Scale each word’s vector by its weight…", "Scale each word's vector by its weight."),
    ("e.g. softmax", "for example softmax"),
    ("Training vs generating", "Training versus generating"),
    ("a small MLP over [q; h_i].", "a small MLP over q and h i."),
    ("Steps A–C; Z = A X; the matrix A.", "Steps eh to C; Z equals eh X; the matrix eh."),
    ("A real, trained model", "A real, trained model"),
    ("7. CausalSelfAttention: Stages 5 and 6", "seven. Causal Self Attention: Stages five and six"),
    ("the reference is J'aime le café", "the reference is zhem le café"),
    ("given s + <start>, the model predicts “Je”", "given s plus start, the model predicts zhuh"),
    ("W_K and W_V are wide: keys and values, each (B, T, d_out).",
     "W K and W V are wide: keys and values, each, B, T, d out."),
    ("its output: (B, heads, T, head_dim).", "its output: B, heads, T, head dim."),
]


@pytest.mark.parametrize(("caption", "expected"), SPOKEN, ids=[caption[:40] for caption, _ in SPOKEN])
def test_spoken(caption, expected):
    assert spoken(caption) == expected


@pytest.mark.parametrize(("n", "words"), [
    (0, "zero"), (7, "seven"), (13, "thirteen"), (20, "twenty"), (64, "sixty-four"), (100, "one hundred"),
    (512, "five hundred twelve"), (1000, "one thousand"), (1024, "one thousand twenty-four"),
    (2_000_005, "two million five"), (-3, "minus three"),
])
def test_number_words(n, words):
    assert number_words(n) == words


SENTENCES = [
    ("Same model, same English. Only the French history changed.",
     ["Same model, same English.", "Only the French history changed."]),
    # decimals and abbreviations stay inside their sentence
    ("Loss falls from 3.97 to 0.006; the alignment is now sharp.",
     ["Loss falls from 3.97 to 0.006; the alignment is now sharp."]),
    ("Pick a score, e.g. A dot product. Or an MLP.", ["Pick a score, e.g. A dot product.", "Or an MLP."]),
    ("Training vs. Generating is the question.", ["Training vs. Generating is the question."]),
    # a leading list number is not a sentence
    ("1. Soft attention: Weighted sum over a set of vectors.", ["1. Soft attention: Weighted sum over a set of vectors."]),
    ("Why the √d_k? Take one random query and 6 random keys.", ["Why the √d_k?", "Take one random query and 6 random keys."]),
    ("Training: the reference is J'aime le café. Step 1 still predicts “Je”.",
     ["Training: the reference is J'aime le café.", "Step 1 still predicts “Je”."]),
    ("It says “Hello.” Then it stops!", ["It says “Hello.”", "Then it stops!"]),
    ("no stop at the end", ["no stop at the end"]),
    ("   ", []),
]


@pytest.mark.parametrize(("text", "expected"), SENTENCES, ids=[text[:30] for text, _ in SENTENCES])
def test_sentences(text, expected):
    assert sentences(text) == expected
    for piece in expected:  # the worker splits a caption, then speak() splits each piece again
        assert sentences(piece) == [piece]


def _text_of(node: ast.expr) -> str:
    """The caption an expression builds, with every computed value shown as a typical number."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(_text_of(value) for value in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _text_of(node.left) + _text_of(node.right)
    if isinstance(node, ast.IfExp):
        return _text_of(node.body)
    return "0.25"


def _caption_samples() -> list[str]:
    """Every `self.say(...)` caption in scenes/*.py (read from the source, no manim import, so a new caption is
    checked as soon as it is written)."""
    samples = []
    for path in sorted((ROOT / "scenes").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "say":
                samples += [_text_of(arg) for arg in node.args[:1]]
                samples += [_text_of(kw.value) for kw in node.keywords if kw.arg == "narration"]
    return samples


def test_every_caption_becomes_plain_words():
    """No symbol, digit or Greek letter reaches the voice (espeak would skip or spell it)."""
    samples = _caption_samples()
    assert len(samples) > 100, "the scenes' captions were not found"
    leftovers = {}
    for caption in samples:
        said = spoken(caption)
        odd = re.findall(r"[^A-Za-zÀ-ÖØ-öø-ÿ ,.;:!?'\-]", said)
        if odd or not said:
            leftovers[caption] = said
    assert not leftovers, f"captions not turned into plain words: {leftovers}"
