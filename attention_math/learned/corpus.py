"""Load the shipped English→French pairs and turn words into ids (whitespace tokens, case kept)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

CORPUS_PATH = Path(__file__).with_name("data") / "en_fr.tsv"
PAD, START, END = "<pad>", "<start>", "<end>"
#: The languages of the shipped corpus's two columns: what the trained translator reads and writes.
SOURCE_LANGUAGE, TARGET_LANGUAGE = "English", "French"


def corpus_bytes(path: Path = CORPUS_PATH) -> bytes:
    """The raw file, which is what the weight cache key hashes."""
    return Path(path).read_bytes()


def load_pairs(path: Path = CORPUS_PATH) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """(English tokens, French tokens) per line; a malformed line is an error, not silently skipped."""
    pairs = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        fields = line.split("\t")
        if len(fields) != 2 or not all(f.strip() for f in fields):
            raise ValueError(f"{path}:{number}: expected 'english<TAB>french', got {line!r}")
        pairs.append((tuple(fields[0].split()), tuple(fields[1].split())))
    if not pairs:
        raise ValueError(f"{path} holds no sentence pairs")
    return pairs


@dataclass(frozen=True)
class Vocab:
    """Word ↔ id; id 0 is padding, and the target side also has <start>/<end>."""

    words: tuple[str, ...]

    @classmethod
    def build(cls, sentences: Iterable[Sequence[str]], specials: tuple[str, ...]) -> "Vocab":
        seen = dict.fromkeys(specials)
        for sentence in sentences:
            seen.update(dict.fromkeys(sentence))
        return cls(tuple(seen))

    @property
    def index(self) -> dict[str, int]:
        return {w: i for i, w in enumerate(self.words)}

    def encode(self, tokens: Sequence[str]) -> list[int]:
        index = self.index
        unknown = [t for t in tokens if t not in index]
        if unknown:
            known = ", ".join(w for w in self.words if not w.startswith("<"))
            raise ValueError(f"unknown word(s) {unknown}; this model knows only: {known}")
        return [index[t] for t in tokens]

    def decode(self, ids: Iterable[int]) -> list[str]:
        return [self.words[i] for i in ids]

    def __len__(self) -> int:
        return len(self.words)


def build_vocabs(pairs: Sequence[tuple[Sequence[str], Sequence[str]]]) -> tuple[Vocab, Vocab]:
    """Source vocab (pad only) and target vocab (pad, start, end), in first-seen order so ids are stable."""
    source = Vocab.build((en for en, _ in pairs), (PAD,))
    target = Vocab.build((fr for _, fr in pairs), (PAD, START, END))
    return source, target
