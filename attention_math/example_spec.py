"""An example: the sentences, sizes and numbers every clip is computed from, read from a TOML file and checked.

The post's own example is ``data/post.toml`` in this package (the repository's ``examples/post.toml`` links to it);
a user's file has the same three tables. Every limit is checked here, up front, so a bad file fails with one line
naming the field and the valid range before anything is computed or written. The checked spec is frozen and
hashable: ``attention_math.examples`` caches records per spec.
"""

from __future__ import annotations

import difflib
import math
import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .seeding import seeded_matrix, width_scaled

Rows = tuple[tuple[float, ...], ...]

#: The post's example, the default: shipped with the package (the repository's examples/post.toml is a link to it).
POST_EXAMPLE = Path(__file__).resolve().parent / "data" / "post.toml"
#: The environment variable that selects the active example (a path to a TOML file); unset = the post's.
EXAMPLE_ENV_VAR = "ATTENTION_EXAMPLE"

# --- limits (what the clips can show legibly) -------------------------------------------------------------------
TOKENS = (2, 12)  # beyond 8, the clips frame the row being worked on (scenes.kit.camera)
WIDTH = (2, 6)
D_K = (1, 4)
HEADS = (1, 4)
D_OUT = (1, 8)
WORD_LENGTH = (1, 24)
FRENCH_SO_FAR = (1, 5)  # with the next word, up to 6: what the teacher-forcing tables fit legibly
#: Letters in the encoder–decoder English sentence, all words together: its words label the rows of the scoring
#: and context beats; "The animal didn't cross the street because it was too tired" has 49.
ENGLISH_LETTERS = 64
TRANSLATOR_WORDS = (2, 6)  # the corpus sentences have 3–5 words
MAX_ABS_VALUE = 10.0
NAME_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
#: Scales of seeded numbers (entries N(0, scale^2), 1 decimal). Embeddings about the post's own size (its are
#: about 0.3 RMS): with the Q/K/V projections width-scaled (examples.QKV_SCALE), the scaled scores then spread about
#: 6.75·0.5² ≈ 1.7 at any width; at N(0, 1) they spread 6.75, and rows went one-hot.
SEEDED_EMBEDDING_SCALE = 0.5
#: Encoder and decoder states; the seeded W_q is N(0, 1/width), as nn.Linear's init, so q keeps the states' size and
#: the unscaled dot-product scores spread about sqrt(width)·0.8² (1.6 at width 6; with N(0, 1) everywhere, 6).
SEEDED_STATE_SCALE = 0.8


class ExampleError(ValueError):
    """A bad example file: the message names the file, the field and the valid range, in one line."""


#: The languages of `[encoder_decoder]`'s sentences when the file names none: the post's, English → French.
DEFAULT_LANGUAGES = ("English", "French")


@dataclass(frozen=True)
class EncoderDecoderSpec:
    """Soft attention's sentence pair and numbers (teacher forcing, bottleneck, coffee/café, the formula)."""

    english: tuple[str, ...]
    french_so_far: tuple[str, ...]
    next_word: str
    wrong_first_word: str
    decoder_state: tuple[float, ...]  # s, (d,)
    W_q: Rows  # (d, d), q = W_q s
    encoder_states: Rows  # (T, d), one row per English word
    illustrative_weights: tuple[float, ...] | None  # the post's invented trained weights, or None
    # The languages the clips name: the sentence read (`english`) and the one written (`french_so_far`, next_word)
    source_language: str = DEFAULT_LANGUAGES[0]
    target_language: str = DEFAULT_LANGUAGES[1]

    @property
    def french_reference(self) -> tuple[str, ...]:
        return self.french_so_far + (self.next_word,)


@dataclass(frozen=True)
class SelfAttentionSpec:
    """The self-attention sentence, its embeddings and the sizes of the projections and heads."""

    tokens: tuple[str, ...]
    embeddings: Rows  # (T, d_in)
    query_index: int  # 0-based position of the worked query
    d_k: int
    projection_seed: int
    heads: int
    d_out: int
    head_seed: int
    dropout: float
    dropout_seed: int


@dataclass(frozen=True)
class TranslatorSpec:
    """The sentences the trained translator translates (words from its vocabulary)."""

    english: tuple[str, ...]
    second: tuple[str, ...]


@dataclass(frozen=True)
class ExampleSpec:
    name: str
    description: str
    encoder_decoder: EncoderDecoderSpec
    self_attention: SelfAttentionSpec
    translator: TranslatorSpec


# --- reading ---------------------------------------------------------------------------------------------------

_KEYS = {
    "": {"name", "description", "encoder_decoder", "self_attention", "translator"},
    "encoder_decoder": {"english", "french_so_far", "next_word", "wrong_first_word", "decoder_state", "W_q",
                        "encoder_states", "illustrative_weights", "width", "seed", "source_language",
                        "target_language"},
    "self_attention": {"tokens", "embeddings", "width", "seed", "query", "d_k", "projection_seed", "heads", "d_out",
                       "head_seed", "dropout", "dropout_seed"},
    "translator": {"english", "second"},
}
_REQUIRED = {
    "": ("name", "encoder_decoder", "self_attention", "translator"),
    "encoder_decoder": ("english", "french_so_far", "next_word"),
    "self_attention": ("tokens",),
    "translator": ("english",),
}


class _Fields:
    """Reads one table, naming every problem as `<file>: <table>.<key> ...`."""

    def __init__(self, origin: str, table: str, data: Any):
        self.origin, self.table = origin, table
        if not isinstance(data, dict):
            raise self.error(f"[{table}] must be a table" if table else "the file must be a TOML table")
        self.data = data
        allowed = _KEYS[table]
        for key in data:
            if key not in allowed:
                near = difflib.get_close_matches(key, sorted(allowed), n=1)
                hint = f"did you mean {near[0]!r}? " if near else ""
                raise self.error(f"unknown key {self.where(key)}; {hint}valid keys: {', '.join(sorted(allowed))}")
        for key in _REQUIRED[table]:
            if key not in data:
                raise self.error(f"missing {self.where(key)}")

    def where(self, key: str) -> str:
        return f"{self.table}.{key}" if self.table else key

    def error(self, message: str) -> ExampleError:
        return ExampleError(f"{self.origin}: {message}")

    def has(self, key: str) -> bool:
        return key in self.data

    def integer(self, key: str, bounds: tuple[int, int] | None = None, default: int | None = None) -> int:
        value = self.data.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.error(f"{self.where(key)} must be an integer, got {value!r}")
        if bounds and not bounds[0] <= value <= bounds[1]:
            raise self.error(f"{self.where(key)} = {value} is out of range; valid: {bounds[0]}–{bounds[1]}")
        return value

    def seed(self, key: str, default: int) -> int:
        return self.integer(key, (0, 2**31 - 1), default)

    def number(self, key: str, low: float, high: float, default: float) -> float:
        value = self.data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise self.error(f"{self.where(key)} must be a finite number, got {value!r}")
        if not low <= value < high:
            raise self.error(f"{self.where(key)} = {value} is out of range; valid: {low} ≤ value < {high}")
        return float(value)

    def word(self, key: str, value: Any = None) -> str:
        value = self.data.get(key) if value is None else value
        if not isinstance(value, str) or not value.strip() or value != value.strip() or " " in value:
            raise self.error(f"{self.where(key)} must be one non-empty word without spaces, got {value!r}")
        low, high = WORD_LENGTH
        if not low <= len(value) <= high:
            raise self.error(f"{self.where(key)}: {value!r} has {len(value)} characters; valid: {low}–{high}")
        return value

    def words(self, key: str, bounds: tuple[int, int]) -> tuple[str, ...]:
        value = self.data.get(key)
        if isinstance(value, str):
            value = value.split()
        if not isinstance(value, list) or not value:
            raise self.error(f"{self.where(key)} must be a non-empty sentence (a string or a list of words), "
                             f"got {value!r}; valid: {bounds[0]}–{bounds[1]} words")
        if not bounds[0] <= len(value) <= bounds[1]:
            raise self.error(f"{self.where(key)} has {len(value)} words; valid: {bounds[0]}–{bounds[1]}")
        return tuple(self.word(key, w) for w in value)

    def vector(self, key: str, length: int) -> tuple[float, ...]:
        value = self.data.get(key)
        if not isinstance(value, list) or len(value) != length:
            got = len(value) if isinstance(value, list) else type(value).__name__
            raise self.error(f"{self.where(key)} must be a list of {length} numbers, got {got}")
        return tuple(self._finite(key, v) for v in value)

    def rows(self, key: str, n_rows: int, width: int | None, what: str) -> Rows:
        value = self.data.get(key)
        if not isinstance(value, list) or len(value) != n_rows:
            got = f"{len(value)} rows" if isinstance(value, list) else type(value).__name__
            raise self.error(f"{self.where(key)} must have {n_rows} rows ({what}), got {got}")
        if not all(isinstance(r, list) for r in value):
            raise self.error(f"{self.where(key)} must be a list of rows (lists of numbers)")
        widths = {len(r) for r in value}
        if len(widths) != 1 or (width is not None and widths != {width}):
            expected = width if width is not None else "the same number of"
            raise self.error(f"{self.where(key)}: every row must have {expected} numbers, got row lengths "
                             f"{[len(r) for r in value]}")
        return tuple(tuple(self._finite(key, v) for v in r) for r in value)

    def _finite(self, key: str, v: Any) -> float:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise self.error(f"{self.where(key)} holds {v!r}; every entry must be a finite number")
        if abs(v) > MAX_ABS_VALUE:
            raise self.error(f"{self.where(key)} holds {v!r}; valid: -{MAX_ABS_VALUE:g} to {MAX_ABS_VALUE:g}")
        return float(v)


def _seeded_rows(n_rows: int, width: int, seed: int, scale: float) -> Rows:
    return tuple(tuple(round(v, 6) for v in row) for row in seeded_matrix((n_rows, width), seed, scale=scale).tolist())


def _width(fields: _Fields, explicit_key: str) -> int:
    if fields.has(explicit_key):
        value = fields.data[explicit_key]
        if fields.has("width"):
            raise fields.error(f"give either {fields.where(explicit_key)} or {fields.where('width')} "
                               f"(with a seed), not both")
        first = value[0] if isinstance(value, list) and value else None
        width = len(first) if isinstance(first, list) else (len(value) if isinstance(value, list) else 0)
    else:
        if not fields.has("width"):
            raise fields.error(f"give {fields.where(explicit_key)} or {fields.where('width')} "
                               f"(valid: {WIDTH[0]}–{WIDTH[1]}) with a seed")
        width = fields.integer("width", WIDTH)
    if not WIDTH[0] <= width <= WIDTH[1]:
        raise fields.error(f"{fields.where(explicit_key)} rows have width {width}; valid: {WIDTH[0]}–{WIDTH[1]}")
    return width


def _encoder_decoder(origin: str, data: Any) -> EncoderDecoderSpec:
    f = _Fields(origin, "encoder_decoder", data)
    english = f.words("english", TOKENS)
    letters = sum(len(w) for w in english)
    if letters > ENGLISH_LETTERS:
        raise f.error(f"encoder_decoder.english has {letters} letters in all; valid: at most {ENGLISH_LETTERS} "
                      "(what the scoring beats show legibly)")
    french = f.words("french_so_far", FRENCH_SO_FAR)
    next_word = f.word("next_word")
    wrong = f.word("wrong_first_word") if f.has("wrong_first_word") else None
    width = _width(f, "encoder_states")
    seed = f.seed("seed", 0)
    explicit = [k for k in ("decoder_state", "W_q", "encoder_states") if f.has(k)]
    if explicit and len(explicit) != 3:
        missing = sorted({"decoder_state", "W_q", "encoder_states"} - set(explicit))
        raise f.error(f"explicit numbers need all of decoder_state, W_q and encoder_states; missing "
                      f"{', '.join('encoder_decoder.' + m for m in missing)}")
    if explicit:
        states = f.rows("encoder_states", len(english), width, "one per English word")
        decoder_state = f.vector("decoder_state", width)
        W_q = f.rows("W_q", width, width, f"{width} × {width}, q = W_q s")
    else:
        states = _seeded_rows(len(english), width, seed, SEEDED_STATE_SCALE)
        decoder_state = _seeded_rows(1, width, seed + 1, SEEDED_STATE_SCALE)[0]
        W_q = _seeded_rows(width, width, seed + 2, width_scaled(1.0, width, 1))
    weights = None
    if f.has("illustrative_weights"):
        weights = f.vector("illustrative_weights", len(english))
        if min(weights) < 0 or abs(sum(weights) - 1.0) > 0.01:
            raise f.error(f"encoder_decoder.illustrative_weights must be ≥ 0 and sum to 1, got {list(weights)}")
    if wrong is None:
        wrong = _a_wrong_guess(english, french)
    if wrong == french[0]:
        raise f.error(f"encoder_decoder.wrong_first_word {wrong!r} equals the first French word; "
                      "it must be a different word")
    source, target = (f.word(key) if f.has(key) else default
                      for key, default in zip(("source_language", "target_language"), DEFAULT_LANGUAGES))
    if source == target:
        raise f.error(f"encoder_decoder.source_language and target_language are both {source!r}; "
                      "name the two languages the sentences are in")
    return EncoderDecoderSpec(english, french, next_word, wrong, decoder_state, W_q, states, weights, source, target)


def _a_wrong_guess(english: tuple[str, ...], french: tuple[str, ...]) -> str:
    """A plausible wrong first prediction when the file names none: the second French word said too early."""
    return french[1] if len(french) > 1 and french[1] != french[0] else english[0]


def _self_attention(origin: str, data: Any) -> SelfAttentionSpec:
    f = _Fields(origin, "self_attention", data)
    tokens = f.words("tokens", TOKENS)
    width = _width(f, "embeddings")
    if f.has("embeddings"):
        embeddings = f.rows("embeddings", len(tokens), width, "one per token")
    else:
        embeddings = _seeded_rows(len(tokens), width, f.seed("seed", 0), SEEDED_EMBEDDING_SCALE)
    query = f.integer("query", (1, len(tokens)), default=max(1, len(tokens) - 1))
    d_k = f.integer("d_k", D_K, default=2)
    heads = f.integer("heads", HEADS, default=2 if d_k * 2 <= D_OUT[1] else 1)
    d_out = f.integer("d_out", D_OUT, default=heads * d_k)
    if d_out % heads:
        divisors = [h for h in range(HEADS[0], HEADS[1] + 1) if d_out % h == 0]
        raise f.error(f"self_attention.heads = {heads} does not divide d_out = {d_out}; valid heads for this "
                      f"d_out: {', '.join(map(str, divisors))}")
    dropout = f.number("dropout", 0.0, 1.0, 0.25)
    return SelfAttentionSpec(tokens, embeddings, query - 1, d_k, f.seed("projection_seed", 7700), heads, d_out,
                             f.seed("head_seed", 1480), dropout, f.seed("dropout_seed", 3))


def _translator(origin: str, data: Any) -> TranslatorSpec:
    f = _Fields(origin, "translator", data)
    english = f.words("english", TRANSLATOR_WORDS)
    second = f.words("second", TRANSLATOR_WORDS) if f.has("second") else english
    from .learned import corpus

    known = set(corpus.build_vocabs(corpus.load_pairs())[0].index) - {corpus.PAD}
    for key, sentence in (("english", english), ("second", second)):
        unknown = [w for w in sentence if w not in known]
        if unknown:
            raise f.error(f"translator.{key}: {', '.join(repr(w) for w in unknown)} not in the translator's "
                          f"vocabulary ({len(known)} words); list it with `python render.py --vocabulary`")
    return TranslatorSpec(english, second)


def from_dict(data: Any, origin: str = "example") -> ExampleSpec:
    """Check a parsed example (a dict as TOML gives it) and return the frozen spec; ExampleError otherwise."""
    top = _Fields(origin, "", data)
    name = data["name"]
    if not isinstance(name, str) or not NAME_PATTERN.match(name):
        raise top.error(f"name {name!r} must be 1–40 characters of a-z, 0-9, '-' or '_', starting with a letter "
                        "or digit (it names the output folder)")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise top.error("description must be a string")
    return ExampleSpec(name, description, _encoder_decoder(origin, data["encoder_decoder"]),
                       _self_attention(origin, data["self_attention"]), _translator(origin, data["translator"]))


def read(path: str | os.PathLike[str]) -> ExampleSpec:
    """Read and check an example file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ExampleError(f"{path}: no such example file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ExampleError(f"{path}: cannot read it ({error})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ExampleError(f"{path}: not valid TOML ({error})") from None
    return from_dict(data, str(path))


def active_path() -> Path:
    """The example file the clips are computed from now: $ATTENTION_EXAMPLE, or the post's."""
    chosen = os.environ.get(EXAMPLE_ENV_VAR)
    return Path(chosen) if chosen else POST_EXAMPLE


def post() -> ExampleSpec:
    return read(POST_EXAMPLE)
