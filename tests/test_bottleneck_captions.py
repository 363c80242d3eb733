"""bottleneck's captions name the French steps and the first English word of the post's example (read here from the
example's records, the steps without the end token)."""

from __future__ import annotations

from manim import Square

from attention_math import examples
from scenes.bottleneck import decoder_caption, kept_caption, links_from_s, through_s_caption


def test_the_decoder_caption_lists_the_french_steps_without_the_end_token():
    record = examples.build("teacher_forcing")
    steps = [w for w in record.reference if w != record.end_token]
    assert steps == ["J'aime", "le", "café"]
    caption, narration = decoder_caption(steps, "English")
    assert caption == "The decoder writes J'aime, le, café one word at a time. Each step sees only s."
    assert narration == ("The decoder then writes J'aime, le, café, one word at a time, and every one of those steps "
                         "sees only s, never the English words again.")


def test_the_through_s_caption_names_the_first_english_word():
    first = examples.build("bottleneck").tokens[0]
    assert first == "I"
    caption, _ = through_s_caption(first)
    assert caption == "Whatever it writes, the decoder sees “I” only through s, mixed with every word after it."


def test_the_links_from_s_run_across_to_a_column_and_down_to_a_row():
    frame = Square(1.0)  # s's frame, centred at the origin
    column = [Square(0.4).move_to([3.0, y, 0]) for y in (1.0, 0.0, -1.0)]
    row = [Square(0.4).move_to([x, -2.0, 0]) for x in (-1.0, 0.0, 1.0)]
    across = links_from_s(frame, column)
    assert all(abs(a.get_start()[0] - 0.5) < 0.2 and a.get_end()[0] < 3.0 for a in across)
    down = links_from_s(frame, row)
    assert all(abs(a.get_start()[1] + 0.5) < 0.2 and a.get_end()[1] > -2.0 for a in down)


def test_the_kept_caption_quotes_the_first_words_final_share_of_s():
    record = examples.build("bottleneck")
    first, final = record.tokens[0], float(record.first_token_share[-1])
    assert first == "I"
    share = f"{final:.2f}"
    assert share == "0.13"  # 0.1298 to two places
    caption, narration = kept_caption(first, share)
    assert caption == (f"Nothing squeezed: “I”, a {share} share of s, is all there in h_1, and every step can look "
                       "straight at it.")
    assert "0." not in narration  # the narration speaks of a small share, no number to show
