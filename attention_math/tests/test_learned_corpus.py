"""The shipped English→French corpus: regenerable, grammatical, and not just word-for-word."""

from __future__ import annotations

import pytest

from attention_math.learned import corpus, make_corpus


def test_shipped_file_is_exactly_what_the_generator_writes():
    expected = make_corpus.render_tsv(make_corpus.corpus_pairs()).encode("utf-8")
    assert corpus.CORPUS_PATH.read_bytes() == expected


def test_a_few_hundred_distinct_pairs_including_the_posts_example():
    pairs = corpus.load_pairs()
    assert 200 <= len(pairs) <= 1000
    assert len(set(pairs)) == len(pairs)
    assert (("I", "love", "coffee"), ("J'aime", "le", "café")) in pairs


def test_english_sentences_are_unique_so_each_has_one_reference():
    english = [en for en, _ in make_corpus.all_pairs()]
    assert len(set(english)) == len(english)


# French checked by hand against the rules the templates implement (article, partitive, elision, agreement,
# adjective after the noun).
@pytest.mark.parametrize(
    "english, french",
    [
        ("I love coffee", "J'aime le café"),
        ("You love tea", "Tu aimes le thé"),
        ("I drink coffee", "Je bois du café"),
        ("I drink the coffee", "Je bois le café"),
        ("I love black coffee", "J'aime le café noir"),
        ("She drinks the cold water", "Elle boit l'eau froide"),
        ("He drinks cold lemonade", "Il boit de la limonade froide"),
        ("We want water", "Nous voulons de l'eau"),
        ("They prefer the white beer", "Ils préfèrent la bière blanche"),
        ("You want fresh milk", "Tu veux du lait frais"),
    ],
)
def test_templates_write_correct_french(english, french):
    assert dict(make_corpus.all_pairs())[english] == french


def test_many_pairs_put_the_adjective_after_the_noun():
    # "black coffee" -> "café noir": the alignment for these cannot be the diagonal.
    pairs = corpus.load_pairs()
    reordered = [(en, fr) for en, fr in pairs if en[-2] in make_corpus.ADJECTIVES and fr[-1] != en[-2]]
    assert len(reordered) >= 100


def test_malformed_line_is_reported_with_its_line_number(tmp_path):
    path = tmp_path / "bad.tsv"
    path.write_text("I love coffee\tJ'aime le café\nno tab here\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad.tsv:2: expected 'english<TAB>french'"):
        corpus.load_pairs(path)


def test_empty_corpus_is_an_error(tmp_path):
    path = tmp_path / "empty.tsv"
    path.write_text("", encoding="utf-8")
    with pytest.raises(ValueError, match="no sentence pairs"):
        corpus.load_pairs(path)


def test_vocab_ids_and_unknown_words():
    source, target = corpus.build_vocabs(corpus.load_pairs())
    assert source.words[0] == corpus.PAD and target.words[:3] == (corpus.PAD, corpus.START, corpus.END)
    ids = source.encode(("I", "love", "coffee"))
    assert source.decode(ids) == ["I", "love", "coffee"] and 0 not in ids
    with pytest.raises(ValueError, match=r"unknown word\(s\) \['espresso'\]"):
        source.encode(("I", "love", "espresso"))


def test_corpus_sample_size_is_checked():
    with pytest.raises(ValueError, match="size must be between"):
        make_corpus.corpus_pairs(size=10**6)
