"""--check warns when a weight map a clip shows is saturated (most rows one-hot), for typed numbers as for seeded
ones, and names the clip and what to change; the post's example and a seeded width-6 example do not warn."""

from __future__ import annotations

import tomllib

from attention_math import example_spec, examples
from conftest import ROOT
from rendering.pipeline.example_file import check_report, choose, saturation_warnings

POST = ROOT / "examples" / "post.toml"
SHOWN = ("coffee", "rain", "qkv", "causal", "multihead")

SEEDED_WIDTH_6 = """
name = "seeded6"
[encoder_decoder]
english = ["the", "old", "man", "gave", "his", "dog", "bones"]
french_so_far = ["le", "vieil"]
next_word = "homme"
width = 6
seed = 3
[self_attention]
tokens = ["we", "walk", "the", "dog", "every", "sunny", "morning"]
width = 6
seed = 5
query = 4
d_k = 3
heads = 3
d_out = 6
[translator]
english = ["I", "love", "coffee"]
second = ["She", "drinks", "the", "cold", "water"]
"""


def _warnings(data: dict, typed: set[str]) -> list[str]:
    spec = example_spec.from_dict(data, "test")
    return saturation_warnings({k: examples.build(k, spec) for k in SHOWN}, typed)


def test_typed_embeddings_ten_times_the_posts_warn_for_each_saturated_clip_and_say_what_to_change(tmp_path):
    data = tomllib.loads(POST.read_text(encoding="utf-8"))
    data["self_attention"]["embeddings"] = [[10 * v for v in row] for row in data["self_attention"]["embeddings"]]
    bad = tmp_path / "loud.toml"
    bad.write_text(POST.read_text(encoding="utf-8").replace("[0.4, 0.1, -0.2]", "[4.0, 1.0, -2.0]")
                   .replace("[0.3, 0.5, 0.1]", "[3.0, 5.0, 1.0]").replace("[0.1, 0.2, 0.6]", "[1.0, 2.0, 6.0]")
                   .replace("[0.2, 0.0, 0.3]", "[2.0, 0.0, 3.0]"), encoding="utf-8")
    report = check_report(choose(str(bad)))
    warned = [line for line in report.splitlines() if "saturated weights" in line]
    # X Xᵀ of these rows: each row's top score leads its next by 6 or more (row 1: 21 vs 15, row 4: 20 vs 13),
    # so e^-6 < 0.0025 and every row of A is one-hot
    assert any(line.startswith("  - weight_free:") for line in warned), report
    assert "  weight_free: A = softmax(X Xᵀ): 4 of 4 rows one-hot, largest weight 1.00" in report.splitlines()
    assert any(line.startswith("  - qkv_scale:") for line in warned), report
    assert all("smaller numbers in self_attention.embeddings" in line for line in warned)
    assert _warnings(data, {"encoder_decoder", "self_attention"}) == [w[4:] for w in warned]


def test_the_posts_example_and_a_seeded_width_6_example_do_not_warn():
    assert _warnings(tomllib.loads(POST.read_text(encoding="utf-8")), {"encoder_decoder", "self_attention"}) == []
    assert _warnings(tomllib.loads(SEEDED_WIDTH_6), set()) == []
