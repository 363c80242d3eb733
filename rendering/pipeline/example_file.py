"""--example, --check and --vocabulary: which example the clips are computed from, and what they would show.

The file is checked before anything is written (a bad one is one line and exit 2, via ExampleError, a ValueError);
its text travels in every job, so each worker computes from exactly the file that was checked.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rendering import REPO_ROOT

EXAMPLES_SUBDIR = "examples"  # media/examples/<name>/ for an example given with --example
#: The post's example (attention_math.example_spec.POST_EXAMPLE), named here so that a plain run, which renders it,
#: does not import attention_math (and torch) on its up-to-date path.
POST_EXAMPLE = REPO_ROOT / "examples" / "post.toml"
DECIMALS = 2  # the precision the clips show numbers at: a tie at this precision is a tie on screen


@dataclass(frozen=True)
class ChosenExample:
    spec: object | None  # attention_math.example_spec.ExampleSpec; None for the post's (read when needed)
    path: Path
    text: str | None  # the file's text; None for the post's default example


def choose(path: str | None) -> ChosenExample:
    """The example named on the command line, checked; the post's when none is named."""
    if path is None:
        return ChosenExample(None, POST_EXAMPLE, None)
    from attention_math import example_spec

    from rendering.pipeline.font_coverage import check_covered

    spec = example_spec.read(path)
    check_covered(spec, str(path))  # a character no font draws would be an empty box in every clip
    return ChosenExample(spec, Path(path), Path(path).read_text(encoding="utf-8"))


def default_out(media: Path, example: ChosenExample) -> Path:
    """media/ for the post's example, media/examples/<name>/ for one given with --example."""
    return media if example.text is None else media / EXAMPLES_SUBDIR / example.spec.name


def vocabulary_text() -> str:
    from attention_math.learned import corpus

    words = sorted(set(corpus.build_vocabs(corpus.load_pairs())[0].index) - {corpus.PAD}, key=str.lower)
    return f"The translator knows {len(words)} English words:\n" + " ".join(words)


def _rounded(value: float) -> str:
    return f"{value:.{DECIMALS}f}"


def _top(tokens, values) -> tuple[str | None, str]:
    """(the token with the highest value, its value as shown), or (None, ...) when the top two tie on screen."""
    values = [float(v) for v in values]
    order = sorted(range(len(values)), key=lambda i: -values[i])
    shown = _rounded(values[order[0]])
    if len(order) > 1 and _rounded(values[order[1]]) == shown:
        return None, shown
    return tokens[order[0]], shown


def _spread(weights, n: int) -> bool:
    """True when a weight row is close to uniform: no key gets half again its even share."""
    return float(max(weights)) < 1.5 / n


def check_report(example: ChosenExample) -> str:
    """What the clips would show for the example, and warnings where a beat's usual story does not hold."""
    from attention_math import example_spec, examples

    spec = example.spec if example.spec is not None else example_spec.read(example.path)
    records = examples.build_all(spec)
    lines: list[str] = [f"example {spec.name!r} ({example.path})" + (f": {spec.description}" if spec.description else "")]
    warnings: list[str] = []

    coffee = records["coffee"]
    ed = spec.encoder_decoder
    lines += ["", "encoder–decoder (teacher_forcing, bottleneck, coffee_cafe, soft_formula)",
              f"  English {' '.join(ed.english)!r} → French so far {' '.join(ed.french_so_far)!r}, next {ed.next_word!r}",
              f"  {len(ed.english)} encoder vectors of width {len(ed.decoder_state)}; wrong first guess {ed.wrong_first_word!r}"]
    for what, scores, weights in (("dot-product", coffee.scores, coffee.weights),
                                  ("additive", coffee.additive_scores, coffee.additive_weights)):
        top, shown = _top(coffee.tokens, weights)
        if top is None:
            warnings.append(f"coffee_cafe: the {what} weights tie for the highest at {shown}; the caption says so")
        lines.append(f"  {what} score: highest weight on {top or 'a tie'!s} ({shown}); "
                     f"weights {', '.join(_rounded(w) for w in weights.tolist())}")
    if coffee.illustrative_weights is None:
        lines.append("  no illustrative trained weights: coffee_cafe skips the comparison with them")

    rain, multihead, dropout = records["rain"], records["multihead"], records["dropout"]
    sa = spec.self_attention
    lines += ["", "self-attention (weight_free, qkv_scale, causal_triangle, dropout_weights, head_split, summary)",
              f"  {len(sa.tokens)} tokens {' '.join(sa.tokens)!r}, width {len(sa.embeddings[0])}, "
              f"query {sa.tokens[sa.query_index]!r} (position {sa.query_index + 1})",
              f"  d_k {sa.d_k}; {sa.heads} head(s) of width {sa.d_out // sa.heads} (d_out {sa.d_out}); "
              f"dropout {sa.dropout:g}"]
    top, shown = _top(rain.tokens, rain.alpha)
    lines.append(f"  weight-free: {sa.tokens[sa.query_index]!r} attends most to {top or 'a tie'!s} ({shown})")
    if top is None:
        warnings.append(f"weight_free: the query's top two weights tie at {shown}")
    lines.append(f"  dropout zeroes {len(dropout.dropped_positions)} of the visible weights "
                 f"(seed {dropout.seed}, p = {dropout.p:g})")
    if not dropout.dropped_positions:
        warnings.append("dropout_weights: the seeded mask drops no visible weight; the caption says so")
    n = len(sa.tokens)
    for h in range(multihead.n_heads):
        last = multihead.weights[h, n - 1]
        key, shown = _top(sa.tokens, last)
        spread = _spread(last, n)
        lines.append(f"  head {h + 1}: the last token attends most to {key or 'a tie'!s} ({shown})"
                     + (" — spread almost evenly" if spread else ""))
        if spread:
            warnings.append(f"head_split: head {h + 1} attends nowhere in particular from the last token")

    learned = records["learned_alignment"]
    lines += ["", "translator (learned_alignment)",
              f"  {' '.join(learned.english_tokens)!r} → {' '.join(learned.french_tokens)!r}"
              + ("" if learned.reference_french is None else f" (corpus: {' '.join(learned.reference_french)!r})"),
              f"  {' '.join(learned.reorder_english)!r} → {' '.join(learned.reorder_french)!r}"]
    for r, word in enumerate(learned.french_tokens):
        source, shown = _top(learned.english_tokens, learned.alignment[r])
        lines.append(f"    {word!r} looks most at {source or 'a tie'!s} ({shown})")

    lines += ["", "how spread the shown weights are (a row is one-hot above 0.95)"] + spread_lines(records)
    warnings += saturation_warnings(records, _typed_numbers(example.path))
    lines += ["", "warnings: none" if not warnings else "warnings:"] + [f"  - {w}" for w in warnings]
    return "\n".join(lines)


def _shown_weight_maps(records) -> list[tuple[str, str, object, bool, str]]:
    """(clip, matrix, weights, causal, section) for every softmax weight map a clip shows computed from the example."""
    coffee, rain, qkv, causal, multihead = (records[k] for k in ("coffee", "rain", "qkv", "causal", "multihead"))
    return [("coffee_cafe, soft_formula", "the dot-product weights", coffee.weights, False, "encoder_decoder"),
            ("weight_free", "A = softmax(X Xᵀ)", rain.weights, False, "embeddings"),
            ("qkv_scale", "softmax(QKᵀ/√dₖ)", qkv.weights, False, "projections"),
            ("causal_triangle, dropout_weights", "the causal weights", causal.weights, True, "projections"),
            ("head_split", "the heads' causal weights", multihead.weights, True, "heads")]


def _typed_numbers(path: Path) -> set[str]:
    """Which sections of the file give their numbers explicitly ("encoder_decoder", "self_attention") rather than
    seeded: what a warning tells the user to change differs."""
    import tomllib

    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return ({"encoder_decoder"} if "encoder_states" in data.get("encoder_decoder", {}) else set()) | (
        {"self_attention"} if "embeddings" in data.get("self_attention", {}) else set())


def _what_to_change(section: str, typed: set[str]) -> str:
    """The fields that set a saturated map's scores, as the user can change them."""
    if section == "encoder_decoder":
        return ("smaller numbers in encoder_decoder.encoder_states, decoder_state or W_q"
                if "encoder_decoder" in typed else "another encoder_decoder.seed")
    embeddings = ("smaller numbers in self_attention.embeddings (the post's are within ±0.6)"
                  if "self_attention" in typed else "another self_attention.seed")
    if section == "embeddings":
        return embeddings
    seed = "self_attention.projection_seed" if section == "projections" else "self_attention.head_seed"
    return f"{embeddings}, or another {seed}"


def spread_lines(records) -> list[str]:
    """One line per shown weight map: how many of its rows are one-hot on screen, and its largest weight."""
    from attention_math.weight_spread import saturated_rows, visible_row_maxima

    lines = []
    for clips, matrix, weights, causal, _ in _shown_weight_maps(records):
        hot, counted = saturated_rows(weights, causal)
        largest = max(visible_row_maxima(weights, causal), default=float(weights.max()))
        lines.append(f"  {clips}: {matrix}: {hot} of {counted} rows one-hot, largest weight {_rounded(largest)}")
    return lines


def saturation_warnings(records, typed: set[str]) -> list[str]:
    """One warning per shown weight map whose rows are mostly one-hot (largest weight above 0.95): its clip would
    show zeros and ones, and its captions would have nothing to say about how attention weighs the words."""
    from attention_math.weight_spread import SATURATED, is_saturated, saturated_rows

    warnings = []
    for clips, matrix, weights, causal, section in _shown_weight_maps(records):
        if is_saturated(weights, causal):
            hot, counted = saturated_rows(weights, causal)
            warnings.append(f"{clips}: saturated weights in {matrix} ({hot} of {counted} rows put more than "
                            f"{SATURATED:g} on one word, so the clip shows only zeros and ones); try "
                            f"{_what_to_change(section, typed)}")
    return warnings
