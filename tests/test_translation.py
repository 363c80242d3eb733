"""Messages and their catalogs (the issue "The explainer in French"): a marked message reads in the active
language, a language without a catalog or a catalog missing a message fails, and numbers, quotes and lists take
the locale's own forms."""

from __future__ import annotations

import pytest

from scenes.kit import translation
from scenes.kit.translation import LANGUAGE_ENV_VAR, _, listed, localized_number, n_, quoted
from scenes.quality import language_gate


def test_every_marked_message_is_translated_in_every_catalog():
    messages = language_gate.source_messages()
    assert "Checklist." in messages  # the summary's checklist heading is marked
    assert language_gate.all_problems() == []


def test_a_message_reads_in_the_active_language(monkeypatch):
    assert _("Checklist.") == "Checklist."
    monkeypatch.setenv(LANGUAGE_ENV_VAR, "fr")
    assert _("Checklist.") == "Aide-mémoire."
    assert _("a sentence no catalog has") == "a sentence no catalog has"  # gettext's own rule: the gate catches it


def test_an_unknown_language_names_the_valid_ones(monkeypatch):
    monkeypatch.setenv(LANGUAGE_ENV_VAR, "de")
    with pytest.raises(ValueError, match="unknown language 'de': choose one of en, fr"):
        _("Checklist.")


def test_plural_forms_follow_the_languages_rules(monkeypatch, tmp_path):
    """French (CLDR, as Babel writes its Plural-Forms) takes the first form for 0 and 1, a third for other counts
    and a second for whole millions ("un million de têtes"); English the first for 1 only: on a catalog made here."""
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    catalog = Catalog(locale="fr", domain=translation.DOMAIN)
    catalog.add(("one head", "{n} heads"), ("une tête", "{n} de têtes", "{n} têtes"))
    path = tmp_path / "fr.mo"
    with path.open("wb") as handle:
        write_mo(handle, catalog)
    import gettext

    with path.open("rb") as handle:
        french = gettext.GNUTranslations(handle)
    assert [french.ngettext("one head", "{n} heads", n) for n in (0, 1, 2, 10**6)] == [
        "une tête", "une tête", "{n} têtes", "{n} de têtes"]
    assert [n_("one head", "{n} heads", n) for n in (0, 1, 2)] == ["{n} heads", "one head", "{n} heads"]


def write_po(path, entries: str) -> None:
    path.write_text('msgid ""\nmsgstr ""\n"Language: fr\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                    + entries, encoding="utf-8")


def test_the_gate_fails_a_missing_a_fuzzy_an_untranslated_and_a_stale_entry(tmp_path):
    po = tmp_path / "explainer.po"
    write_po(po, '#, fuzzy\nmsgid "Fuzzy."\nmsgstr "Flou."\n\nmsgid "Empty."\nmsgstr ""\n\n'
                 'msgid "Gone."\nmsgstr "Parti."\n')
    messages = {"Missing.": "a.py:1", "Fuzzy.": "a.py:2", "Empty.": "a.py:3"}
    problems = language_gate.catalog_problems("fr", messages, po)
    assert problems == ["fr: a.py:1: not in the catalog: 'Missing.'", "fr: a.py:2: fuzzy: 'Fuzzy.'",
                        "fr: a.py:3: not translated: 'Empty.'",
                        "fr: stale entry (no longer in the source): 'Gone.'"]


def test_the_gate_fails_a_placeholder_lost_or_invented(tmp_path):
    po = tmp_path / "explainer.po"
    write_po(po, 'msgid "{word} scores highest."\nmsgstr "Le score le plus haut."\n\n'
                 'msgid "Row {row}."\nmsgstr "Ligne {ligne}."\n')
    problems = language_gate.catalog_problems("fr", {"{word} scores highest.": "a.py:1", "Row {row}.": "a.py:2"},
                                              po)
    assert problems == ["fr: a.py:1: placeholder(s) ['word'] missing from 'Le score le plus haut.'",
                        "fr: a.py:2: placeholder(s) ['ligne'] not in the English: 'Row {row}.'",
                        "fr: a.py:2: placeholder(s) ['row'] missing from 'Ligne {ligne}.'"]


def test_the_catalog_compiles_whole_and_only_when_its_source_changed(tmp_path, monkeypatch):
    monkeypatch.setattr(translation, "LOCALE_DIR", tmp_path)
    source = translation.catalog_path("fr")
    source.parent.mkdir(parents=True)
    write_po(source, 'msgid "Checklist."\nmsgstr "Aide-mémoire."\n')
    compiled = translation.compile_catalog("fr")
    assert compiled.name == "explainer.mo" and not list(tmp_path.rglob("*.part"))
    stamp = compiled.stat().st_mtime_ns
    assert translation.compile_catalog("fr").stat().st_mtime_ns == stamp
    with pytest.raises(FileNotFoundError, match="no catalog for 'xx'"):
        translation.compile_catalog("xx")


def test_two_compiles_at_once_each_write_a_file_of_their_own(tmp_path, monkeypatch):
    """Two render workers may compile the catalog at the same moment: the second starts while the first is writing.
    Each writes its own partial file, so neither renames the other's away and the .mo comes out whole."""
    import gettext

    from babel.messages import mofile

    monkeypatch.setattr(translation, "LOCALE_DIR", tmp_path)
    source = translation.catalog_path("fr")
    source.parent.mkdir(parents=True)
    write_po(source, 'msgid "Checklist."\nmsgstr "Aide-mémoire."\n')
    real_write, written_to = mofile.write_mo, []

    def second_compile_midway(handle, catalog, **options):
        written_to.append(handle.name)
        if len(written_to) == 1:
            translation.compile_catalog("fr")  # the other worker, while this one has its file open
        real_write(handle, catalog, **options)

    monkeypatch.setattr(mofile, "write_mo", second_compile_midway)
    compiled = translation.compile_catalog("fr")
    assert len(set(written_to)) == 2 and not list(tmp_path.rglob("*.part"))
    with compiled.open("rb") as handle:
        assert gettext.GNUTranslations(handle).gettext("Checklist.") == "Aide-mémoire."


def test_numbers_quotes_and_lists_take_the_locales_forms():
    assert localized_number("-0.73", "en") == "-0.73"
    assert localized_number("-0.73", "fr") == "-0,73"
    assert localized_number("12", "fr") == "12"
    assert quoted("I", "en") == "“I”"
    assert quoted("I", "fr") == "«\u00a0I\u00a0»"
    assert listed(["I", "love", "coffee"], "en") == "I, love, and coffee"
    assert listed(["I", "love", "coffee"], "fr") == "I, love et coffee"


def test_numbers_are_written_with_the_active_languages_decimal_sign(monkeypatch):
    """format_value, a traced number's shown text and its typeset glyphs: "-0.73" in English, "-0,73" in French."""
    from scenes.kit.numbers import LocalizedDecimal, NumberTrace, TracedNumber, format_value

    trace = NumberTrace("coffee", "scores", (0,), 2)
    assert format_value(-0.7312, 2) == "-0.73" and format_value(-0.001, 2) == "0.00" and format_value(3, 0) == "3"
    assert TracedNumber(0.7312, trace).shown_text == "0.73"
    assert LocalizedDecimal(0.7312, num_decimal_places=2)._get_num_string(-0.7312) == "-0.73"
    monkeypatch.setenv(LANGUAGE_ENV_VAR, "fr")
    assert format_value(-0.7312, 2) == "-0,73" and format_value(-0.001, 2) == "0,00" and format_value(3, 0) == "3"
    assert format_value(float("-inf"), 2) == "-inf"
    number = TracedNumber(0.7312, trace)
    assert number.shown_text == "0,73"
    assert number.glyph._get_num_string(number.glyph.number) == "0,73" and len(number.glyph.submobjects) == 4


def test_the_gates_read_a_french_decimal_as_the_number_it_is():
    """The number, story and narration checks read "0,13" in a French sentence (they skipped it, reading only
    "0.13"), and English as before."""
    from scenes.kit.translation import number_value
    from scenes.quality.inspection import narrated_decimals

    assert narrated_decimals("la part de 0,13 ; puis −0,45 et 2,5.", "fr") == ["0.13", "-0.45", "2.5"]
    assert narrated_decimals("shares 0.13, then −0.45.", "en") == ["0.13", "-0.45"]
    assert narrated_decimals("shares 0.13", "fr") == []
    assert number_value("−0,73", "fr") == -0.73 and number_value("-0.73", "en") == -0.73
    with pytest.raises(ValueError):
        number_value("zéro", "fr")
