"""Regenerate the shipped English→French corpus (``data/en_fr.tsv``) from small templates.

Why a generator: the corpus must be small, offline and grammatical, and a reader should be able to see
exactly where every pair comes from. Sentences are ``Subject verb [the] [adjective] noun``; the French
follows the real rules that make the alignment interesting:

* French always has an article where English may have none ("I love coffee" → "J'aime le café");
* verbs of taste (love, prefer) take the definite article, drink/want take the partitive
  ("I drink coffee" → "Je bois du café") unless English says "the";
* adjectives follow the noun and agree in gender ("the cold water" → "l'eau froide"), so the
  alignment is not the diagonal;
* "je" elides before a vowel ("J'aime") and so do "le"/"la" ("l'eau").

Run ``python -m attention_math.learned.make_corpus`` to rewrite the file; the output is deterministic and a
test checks that the shipped file matches this generator byte for byte.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

CORPUS_PATH = Path(__file__).with_name("data") / "en_fr.tsv"
CORPUS_SIZE = 500
SAMPLE_SEED = 2024
# Pairs that must be in the training set whatever the sample draws (the post's example first).
REQUIRED_ENGLISH = (
    "I love coffee",
    "You love tea",
    "I drink coffee",
    "I love black coffee",
    "She drinks the cold water",
)

#: English subject, French subject, person index into the conjugation tuples below.
Subject = tuple[str, str, int]
#: English base form, English 3rd-person singular, French forms for (je, tu, il/elle, nous, ils), article kind.
Verb = tuple[str, str, tuple[str, str, str, str, str], str]
#: English noun, French noun, gender, adjectives that make sense with it.
Noun = tuple[str, str, str, tuple[str, ...]]

# English subject, French subject, person index into the conjugation tuples below.
SUBJECTS: tuple[Subject, ...] = (
    ("I", "je", 0),
    ("You", "tu", 1),
    ("He", "il", 2),
    ("She", "elle", 2),
    ("We", "nous", 3),
    ("They", "ils", 4),
)

# English base form, English 3rd-person singular, French forms for (je, tu, il/elle, nous, ils), article kind.
VERBS: tuple[Verb, ...] = (
    ("love", "loves", ("aime", "aimes", "aime", "aimons", "aiment"), "definite"),
    ("prefer", "prefers", ("préfère", "préfères", "préfère", "préférons", "préfèrent"), "definite"),
    ("drink", "drinks", ("bois", "bois", "boit", "buvons", "boivent"), "partitive"),
    ("want", "wants", ("veux", "veux", "veut", "voulons", "veulent"), "partitive"),
)

# English noun, French noun, gender, adjectives that make sense with it.
NOUNS: tuple[Noun, ...] = (
    ("coffee", "café", "m", ("black", "hot", "cold", "strong", "sweet")),
    ("tea", "thé", "m", ("black", "green", "hot", "cold", "sweet")),
    ("water", "eau", "f", ("cold", "hot", "fresh")),
    ("milk", "lait", "m", ("cold", "hot", "fresh")),
    ("juice", "jus", "m", ("fresh", "cold", "sweet")),
    ("wine", "vin", "m", ("red", "white", "sweet")),
    ("beer", "bière", "f", ("cold", "strong", "white")),
    ("lemonade", "limonade", "f", ("cold", "fresh", "sweet")),
)

# English adjective → (masculine, feminine) French form; all of these follow the noun in French.
ADJECTIVES = {
    "black": ("noir", "noire"),
    "green": ("vert", "verte"),
    "hot": ("chaud", "chaude"),
    "cold": ("froid", "froide"),
    "strong": ("fort", "forte"),
    "sweet": ("sucré", "sucrée"),
    "fresh": ("frais", "fraîche"),
    "red": ("rouge", "rouge"),
    "white": ("blanc", "blanche"),
}

VOWELS = tuple("aeiouéèê")


def _noun_phrase(noun_fr: str, gender: str, article_kind: str) -> list[str]:
    """French article + noun, with elision ("l'eau") and partitive forms ("du", "de la", "de l'")."""
    if noun_fr.startswith(VOWELS):
        elided = ["l'" + noun_fr]
        return elided if article_kind == "definite" else ["de", *elided]
    if article_kind == "definite":
        return ["le" if gender == "m" else "la", noun_fr]
    return ["du", noun_fr] if gender == "m" else ["de", "la", noun_fr]


def _subject_verb(subject_fr: str, verb_fr: str) -> list[str]:
    """French subject + verb; "je" elides before a vowel into one word ("j'aime")."""
    if subject_fr == "je" and verb_fr.startswith(VOWELS):
        return ["j'" + verb_fr]
    return [subject_fr, verb_fr]


def translate_template(subject: Subject, verb: Verb, noun: Noun, with_the: bool, adjective: str | None
                       ) -> tuple[str, str]:
    """One (English, French) pair built from the templates; the French is sentence-cased like the English."""
    subject_en, subject_fr, person = subject
    verb_en, verb_en_3s, verb_forms, verb_article = verb
    noun_en, noun_fr, gender, _ = noun
    english = [subject_en, verb_en_3s if person == 2 else verb_en]
    if with_the:
        english.append("the")
    if adjective is not None:
        english.append(adjective)
    english.append(noun_en)
    article_kind = "definite" if with_the else verb_article
    french = _subject_verb(subject_fr, verb_forms[person]) + _noun_phrase(noun_fr, gender, article_kind)
    if adjective is not None:
        french.append(ADJECTIVES[adjective][0 if gender == "m" else 1])
    french[0] = french[0][0].upper() + french[0][1:]
    return " ".join(english), " ".join(french)


def all_pairs() -> list[tuple[str, str]]:
    """Every sentence the templates can make, in a fixed order."""
    pairs = []
    for subject, verb, noun, with_the in itertools.product(SUBJECTS, VERBS, NOUNS, (False, True)):
        for adjective in (None, *noun[3]):
            pairs.append(translate_template(subject, verb, noun, with_the, adjective))
    return pairs


def corpus_pairs(size: int = CORPUS_SIZE, seed: int = SAMPLE_SEED) -> list[tuple[str, str]]:
    """The shipped sample: the required pairs plus a seeded random draw, kept in template order."""
    pairs = all_pairs()
    by_english = {en: i for i, (en, _) in enumerate(pairs)}
    missing = [en for en in REQUIRED_ENGLISH if en not in by_english]
    if missing:
        raise ValueError(f"required sentences not producible by the templates: {missing}")
    if not len(REQUIRED_ENGLISH) <= size <= len(pairs):
        raise ValueError(f"size must be between {len(REQUIRED_ENGLISH)} and {len(pairs)}, got {size}")
    chosen = {by_english[en] for en in REQUIRED_ENGLISH}
    rest = [i for i in range(len(pairs)) if i not in chosen]
    chosen.update(random.Random(seed).sample(rest, size - len(chosen)))
    return [pairs[i] for i in sorted(chosen)]


def render_tsv(pairs: list[tuple[str, str]]) -> str:
    return "".join(f"{en}\t{fr}\n" for en, fr in pairs)


def main() -> None:
    CORPUS_PATH.parent.mkdir(parents=True, exist_ok=True)
    CORPUS_PATH.write_text(render_tsv(corpus_pairs()), encoding="utf-8")
    print(f"wrote {CORPUS_SIZE} pairs to {CORPUS_PATH}")


if __name__ == "__main__":
    main()
