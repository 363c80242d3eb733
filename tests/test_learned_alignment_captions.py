"""learned_alignment's captions read the weights: which rows cross, which row spreads, how the rows compare, what
the time-lapse says at its snapshots. The expected texts are worked by hand from small matrices here (and, for the
post's own trained model, recomputed from the example's tensors), not produced by the captions' code."""

from __future__ import annotations

import torch

from attention_math import examples
from scenes.learned_alignment import (
    against_the_corpus, compared_with_post, listed, order_claim, per_word, row_caption, spread_caption,
    start_caption, timelapse_captions,
)

ROWS, COLS = ["A", "B", "C"], ["x", "y", "z"]


class _Source:
    """A stand-in Source: tensors and token lists by path ("snapshot_french.2" indexes a list)."""

    def __init__(self, **data):
        self.data = data

    def get(self, path):
        name, _, index = path.partition(".")
        value = self.data[name]
        return value[int(index)] if index else value

    def value(self, path, index):
        return float(self.data[path][index])


def test_rows_whose_strongest_words_run_backwards_are_named_with_their_weights():
    # strongest: A → x, B → z, C → y; B (z, the third word) then C (y, the second): they cross at B, C
    weights = torch.tensor([[0.90, 0.10, 0.00], [0.10, 0.20, 0.70], [0.05, 0.80, 0.15]])
    caption, narration = order_claim(weights, ROWS, COLS, "strongest link")
    assert caption == ("The order changes: B looks at z (0.70), then C at y (0.80), a word that comes earlier in "
                       "the English.")
    assert "B looks at z, with 0.70, and then C looks back at y, with 0.80" in narration


def test_rows_in_order_are_said_to_keep_the_order():
    weights = torch.tensor([[0.90, 0.10, 0.00], [0.10, 0.80, 0.10], [0.00, 0.05, 0.95]])
    caption, narration = order_claim(weights, ROWS, COLS, "largest weight, boxed")
    assert caption == narration == ("Each French word's largest weight, boxed: they step through the English in "
                                    "order, so the two sentences keep the same order here.")


def test_the_least_concentrated_row_is_named_with_its_two_largest_weights():
    # row maxima 0.90, 0.55, 0.95: B is the least concentrated, 0.55 on y then 0.40 on z
    weights = torch.tensor([[0.90, 0.10, 0.00], [0.05, 0.55, 0.40], [0.00, 0.05, 0.95]])
    caption, narration = spread_caption(weights, ROWS, COLS)
    assert caption == "B spreads its weight: 0.55 on y, 0.40 on z."
    assert narration == "B has no single English word: it spreads its weight, 0.55 on y, 0.40 on z."


def test_when_even_the_least_concentrated_row_is_sharp_every_row_is_said_to_be():
    weights = torch.tensor([[0.92, 0.08, 0.00], [0.05, 0.91, 0.04], [0.00, 0.05, 0.95]])
    caption, _ = spread_caption(weights, ROWS, COLS)
    assert caption.startswith("Every row is sharp")


def test_a_row_is_quoted_as_shown_and_read_word_by_word():
    assert listed([0.05, 0.1, 0.85]) == "0.05 / 0.10 / 0.85"
    assert per_word([0.05, 0.1, 0.85], ["I", "love", "coffee"]) == "0.05 on I, 0.10 on love and 0.85 on coffee"


def test_ours_is_compared_with_the_posts_illustration_by_its_largest_weight():
    assert compared_with_post([0.0, 0.0, 1.0], [0.05, 0.10, 0.85]) == ": sharper than the post's illustration"
    assert compared_with_post([0.1, 0.2, 0.7], [0.05, 0.10, 0.85]) == ": less sharp than the post's illustration"
    assert compared_with_post([0.1, 0.05, 0.85], [0.05, 0.10, 0.85]) == ": as sharp as the post's illustration"
    assert compared_with_post([0.0, 0.0, 1.0], None) == ""


def test_each_row_of_the_comparison_quotes_its_own_numbers():
    post, _ = row_caption("Post", [0.05, 0.1, 0.85], ["I", "love", "coffee"], [0.05, 0.1, 0.85])
    assert post == "The post's 0.05 / 0.10 / 0.85 is illustrative: an example typed into the post, not computed."
    toy, narration = row_caption("Toy", [0.28, 0.19, 0.52], ["I", "love", "coffee"], None)
    assert toy.startswith("The toy 0.28 / 0.19 / 0.52 is the softmax")
    assert "0.28 on I, 0.19 on love and 0.52 on coffee" in narration
    ours, _ = row_caption("Ours", [0.0, 0.0, 1.0], ["I", "love", "coffee"], [0.05, 0.1, 0.85])
    assert ours == ("Ours, 0.00 / 0.00 / 1.00, was learned by training: sharper than the post's illustration, and "
                    "nobody typed it.")


def test_the_models_french_is_set_against_the_corpus():
    assert against_the_corpus(None, ["J'aime", "le", "café"]) == ". The sentence is not in its training corpus."
    assert against_the_corpus(["J'aime", "le", "café"], ["J'aime", "le", "café"]) == ": the corpus's own translation."
    assert against_the_corpus(["J'adore", "le", "café"], ["J'aime", "le", "café"]) == \
        "; the corpus says “J'adore le café”."


def _timelapse_source():
    """Four snapshots of a 2 × 2 alignment: uniform, then row 0 settles on x at snapshot 1, row 1 moves from x to
    y at snapshot 2, and at the end row 0 is sharp (0.95) while row 1 still spreads (0.60)."""
    snapshots = torch.tensor([[[0.50, 0.50], [0.52, 0.48]],
                              [[0.70, 0.30], [0.60, 0.40]],
                              [[0.90, 0.10], [0.45, 0.55]],
                              [[0.95, 0.05], [0.40, 0.60]]])
    return _Source(snapshot_alignments=snapshots, snapshot_steps=torch.tensor([0.0, 10.0, 20.0, 30.0]),
                   snapshot_losses=torch.tensor([2.5, 1.25, 0.5, 0.125]),
                   snapshot_french=[("u", "u"), ("P", "u"), ("P", "Q"), ("P", "Q")],
                   english_tokens=("x", "y"))


def test_the_timelapse_speaks_where_a_row_settles_and_at_the_end():
    captions = timelapse_captions(_timelapse_source(), ("P", "Q"), ("x", "y"))
    assert set(captions) == {1, 2, 3}
    assert captions[1][0] == "By step 10 P already looks at x, while the model still says “P u”."
    assert captions[2][0] == "By step 20 Q has moved from x to y, and the model says “P Q”."
    assert captions[3][0] == "The loss fell from 2.500 to 0.125; P is now sharp, Q still spreads its weight."


def test_the_timelapse_starts_with_what_it_replays():
    text = start_caption(_timelapse_source(), ("P", "Q"), ("x", "y"))
    assert text == ("Training, replayed from snapshots of “x y”. At step 0 the weights are nearly uniform, and the "
                    "model says “u u”.")


def test_the_posts_last_caption_quotes_the_first_and_last_losses_and_the_sharp_rows():
    """For the post's trained model, recomputed from the example's tensors: losses to three places, a row sharp
    where its largest final weight is at least 0.9."""
    ex = examples.build("learned_alignment")
    rows = tuple(ex.snapshot_reference_french)
    final = ex.snapshot_alignments[-1]
    sharp = [w for w, row in zip(rows, final.tolist()) if max(row) >= 0.9]
    caption = timelapse_captions(_Source(snapshot_alignments=ex.snapshot_alignments,
                                         snapshot_steps=ex.snapshot_steps, snapshot_losses=ex.snapshot_losses,
                                         snapshot_french=list(ex.snapshot_french),
                                         english_tokens=ex.english_tokens),
                                 rows, ex.snapshot_english)[len(ex.snapshot_losses) - 1][0]
    assert caption.startswith(f"The loss fell from {float(ex.snapshot_losses[0]):.3f} to "
                              f"{float(ex.snapshot_losses[-1]):.3f}; ")
    for word in sharp:
        assert word in caption.split(";")[1].split("now sharp")[0]
