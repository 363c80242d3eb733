"""A French run of a scene whose messages are marked (issue 43): no English sentence in its captions, its narration
or its words on screen, except the example's own tokens, code identifiers and math; and the word list that decides
it, held to the catalog's own English and French."""

from __future__ import annotations

import json
import re

import pytest
from manim import MathTypst, Typst

from conftest import per_scene
from scenes import frame
from scenes.kit.translation import LANGUAGE_ENV_VAR, catalog_path
from scenes.quality.headless import run_headless
from scenes.quality.inspection import example_spec, example_words, inspect_scene, inspect_scene_class
from scenes.quality.language_gate import english_words

#: The scenes whose every user-facing sentence is a message (in the order issue 43's work follows).
#: All twelve: the French run and the French gates cover every scene.
FRENCH_SCENES = ["summary", "teacher_forcing", "bottleneck", "coffee_cafe", "soft_formula", "weight_free", "dropout_weights",
                 "learned_alignment", "learned_heads", "qkv_scale", "head_split", "causal_triangle"]
#: On-screen texts of kit modules this work may not edit yet (the lead is changing them): each still English in a
#: French run, listed with where it is written; the test below fails once the file no longer writes it.
NOT_YET_MARKED: dict[str, str] = {}

_UNESCAPE = re.compile(r"\\(.)")


def _plain(typst_code: str) -> str:
    """A label's text from its Typst markup: escapes undone, the bold stars dropped."""
    code = typst_code.strip()
    if len(code) > 1 and code.startswith("*") and code.endswith("*"):
        code = code[1:-1]
    return _UNESCAPE.sub(r"\1", code)


#: A string inside Typst math (`op("output")`, `"stacked"`): words the formula writes as text; not the name of a
#: part (`{{ … : soft }}` compiles to `manimgrp("soft", …)`), which is never drawn.
_MATH_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_PART_NAME = re.compile(r'manimgrp\("(?:[^"\\]|\\.)*",')


def math_strings(typst_code: str) -> list[str]:
    """The text strings a Typst math formula draws (escapes undone), its parts' names left out."""
    return [_UNESCAPE.sub(r"\1", text) for text in _MATH_STRING.findall(_PART_NAME.sub("manimgrp(", typst_code))]


#: The words of the post's own math (\mathrm{softmax}, \mathrm{head}_h, s_{\mathrm{decoder}}): math stays as the post
#: writes it, in French too (the French post keeps them); any other word a scene writes inside math is its own text.
_POST_MATH_WORD = re.compile(r"\\(?:mathrm|text|operatorname)\{([^}]*)\}")


def post_math_words() -> set[str]:
    from rendering.site.post_text import FRENCH_POST_PATH

    return {word.lower() for word in _POST_MATH_WORD.findall(FRENCH_POST_PATH.read_text(encoding="utf-8"))}


def french_run(scene_id: str) -> tuple[list[tuple[str, str]], set[str], set[str]]:
    """The scene run headless in landscape (ATTENTION_LANGUAGE already fr): every (beat, caption or narration), the
    plain text of every label (not math) on the stage after any animation, and the text strings inside its math.
    The run is the inspection's (`inspect_scene`, cached per process): the landscape case of
    test_a_french_run_passes_the_layout_and_story_gates, in the same worker (`per_scene`), reads the same run, so the
    French run is made once for both; the inspection gathers every Typst code on the stage after every animation in
    a run in another language than English (SceneReport.stage_texts, stage_math)."""
    report = inspect_scene(scene_id, frame.LANDSCAPE)
    assert report.stage_texts is not None and report.stage_math is not None, "a French run gathers the stage's texts"
    said = [(record.name, text) for record in report.beat_log for text in record.captions + record.narration]
    shown = {_plain(code) for code in report.stage_texts}
    in_math = {text for code in report.stage_math for text in math_strings(code)}
    return said, shown, in_math


def test_the_inspection_gathers_the_texts_and_formulas_on_the_stage_of_a_french_run(monkeypatch):
    """What french_run reads: in a French run the inspection gathers the same Typst codes as a walk of the stage's
    families after every animation of a run of its own (texts apart from formulas); in English it gathers none."""
    from tests.fixtures.quality.flawed_scenes import TornFormulaScene

    monkeypatch.setenv(LANGUAGE_ENV_VAR, "fr")
    texts: set[str] = set()
    formulas: set[str] = set()

    def look(scene) -> None:
        for top in scene.mobjects:
            for mob in top.get_family():
                if isinstance(mob, MathTypst):
                    formulas.add(mob.typst_code)
                elif isinstance(mob, Typst):
                    texts.add(mob.typst_code)

    run_headless(TornFormulaScene, after_animation=look)
    report = inspect_scene_class(TornFormulaScene, "torn")
    assert len(texts) >= 2 and formulas  # "over it", "a word" (and the caption's texts, if any), the formula
    assert (report.stage_texts, report.stage_math) == (texts, formulas)
    monkeypatch.setenv(LANGUAGE_ENV_VAR, "en")
    english = inspect_scene_class(TornFormulaScene, "torn")
    assert (english.stage_texts, english.stage_math) == (None, None)


@pytest.mark.parametrize("scene_id", per_scene(FRENCH_SCENES))
def test_a_french_run_says_and_shows_no_english(scene_id, monkeypatch):
    monkeypatch.setenv(LANGUAGE_ENV_VAR, "fr")
    said, shown, in_math = french_run(scene_id)
    own = frozenset(example_words(example_spec.post()))
    assert said and shown
    problems = [f"{beat}: {words} in {text!r}" for beat, text in said if (words := english_words(text, own))]
    problems += [f"on screen: {words} in {text!r}" for text in sorted(shown)
                 if text not in NOT_YET_MARKED and (words := english_words(text, own))]
    post_math = post_math_words()
    problems += [f"in math: {words} in {text!r}" for text in sorted(in_math)
                 if (words := [w for w in english_words(text, own) if w.lower() not in post_math])]
    assert not problems, "\n".join(problems)
    assert not [text for _beat, text in said if text != text.replace(" :", "")], "a colon without its no-break space"


FRENCH_CASES = [(scene_id, aspect) for scene_id in FRENCH_SCENES for aspect in frame.ASPECTS]


@pytest.mark.parametrize("case", per_scene(FRENCH_CASES, scene_id=lambda case: case[0], name="-".join))
def test_a_french_run_passes_the_layout_and_story_gates(case, monkeypatch):
    """French runs 15–30 % longer than English: the layout engine takes it in every frame, every number legible,
    every caption's subject on screen (the post's example)."""
    monkeypatch.setenv(LANGUAGE_ENV_VAR, "fr")
    report = inspect_scene(*case)
    problems = report.problems() + report.arithmetic_problems()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("case", per_scene(FRENCH_CASES, scene_id=lambda case: case[0], name="-".join))
def test_a_french_clip_lasts_30_to_120_seconds_in_every_frame(case, monkeypatch):
    """A silent French clip is held to the English clips' 30–120 s (tests/test_scenes_render.py). A silent caption
    stays on screen until read at 20 characters a second (scenes.kit.narration.READING_CPS), so French, 15–30 %
    longer, lengthens every clip whose captions outlast their animations (qkv_scale ran 127 s before its longest
    French captions were tightened). Measured on the headless storyboard (the clock a render keeps), in each frame:
    a frame's shots, and so its animations, differ (teacher_forcing: 50.7 s landscape, 52.3 s portrait). The run is
    the one the layout and story gates above read (same case, same worker)."""
    from tests.test_scenes_render import MAX_SECONDS, MIN_SECONDS

    monkeypatch.setenv(LANGUAGE_ENV_VAR, "fr")
    report = inspect_scene(*case)
    assert report.stage_texts is not None, "the run is a French one"
    assert MIN_SECONDS <= report.duration <= MAX_SECONDS, f"{'/'.join(case)} lasts {report.duration:.1f} s in French"


#: Two kept edge examples in French (issue 43): the longest words and rows, where French, 15–30 % longer, overflows
#: first. learned_heads is left out (a fixed trained model, the same for every example: its French run is above).
FRENCH_EDGE_EXAMPLES = ("wide", "long-word")
#: The frames run for them: portrait only, the tightest frame (two of the three French edge failures found: coffee_cafe
#: wide, its q row past the phone's edge; teacher_forcing long-word, its tables shrunk below the floor; the third,
#: bottleneck long-word landscape, is not covered here): all three frames cost about 13 min of CPU (776 s measured
#: through the inspection), portrait alone 5.3 min (315 s user in pytest).
FRENCH_EDGE_ASPECTS = (frame.PORTRAIT,)
#: Known to fail, with why (strict: the mark goes once the case passes). None today.
FRENCH_EDGE_FAILING: dict[tuple[str, str, str], str] = {}
FRENCH_EDGE_CASES = [pytest.param((scene_id, name, aspect), id=f"{scene_id}-{name}-{aspect}",
                                  marks=[pytest.mark.xfail(reason=FRENCH_EDGE_FAILING[scene_id, name, aspect],
                                                           strict=True)]
                                  if (scene_id, name, aspect) in FRENCH_EDGE_FAILING else [])
                     for scene_id in FRENCH_SCENES if scene_id != "learned_heads"
                     for name in FRENCH_EDGE_EXAMPLES for aspect in FRENCH_EDGE_ASPECTS]


@pytest.mark.slow
@pytest.mark.parametrize("case", FRENCH_EDGE_CASES)
def test_a_french_run_of_an_edge_example_passes_the_layout_story_and_shade_gates(case, monkeypatch):
    """French for the edge examples with the longest words and rows: every layout gate, the story gate and the shade
    gate, as in English (tests/test_quality_gates_examples.py). Each case is its own headless run, shared with no
    other test."""
    from attention_math import example_spec, examples
    from conftest import ROOT

    scene_id, name, aspect = case
    monkeypatch.setenv(LANGUAGE_ENV_VAR, "fr")
    monkeypatch.setenv(example_spec.EXAMPLE_ENV_VAR, str(ROOT / "examples" / f"{name}.toml"))
    assert examples.active_spec().name == name
    report = inspect_scene(scene_id, aspect)
    problems = report.problems() + report.arithmetic_problems()
    assert not problems, "\n".join(problems)


def test_the_texts_not_yet_marked_are_still_written_where_listed():
    from conftest import ROOT

    assert [text for text, path in NOT_YET_MARKED.items() if f'"{text}"' not in (ROOT / path).read_text()] == []


def _catalog():
    from babel.messages.pofile import read_po

    with catalog_path("fr").open("rb") as handle:
        return [entry for entry in read_po(handle, locale="fr") if entry.id]


def test_the_word_list_finds_the_english_of_every_sentence_in_the_catalog():
    """Every English message of four words or more (a sentence, not a name) has a word the list knows: the list
    would catch that message left untranslated in a French run."""
    sentences = [entry.id[-1] if isinstance(entry.id, tuple) else entry.id for entry in _catalog()]
    sentences = [s for s in sentences if len(re.findall(r"[A-Za-z]+", re.sub(r"\{\w+\}", "", s))) >= 4]
    assert len(sentences) >= 10
    assert [s for s in sentences if not english_words(s)] == []


def test_the_word_list_finds_nothing_in_the_catalogs_french():
    forms = [re.sub(r"\{\w+\}", "", form) for entry in _catalog()  # the placeholders are filled in a run
             for form in (entry.string if isinstance(entry.string, (tuple, list)) else [entry.string])]
    assert forms and {form: english_words(form) for form in forms if english_words(form)} == {}


def test_the_strings_a_formula_draws_are_read_and_its_parts_names_are_not():
    assert math_strings('$ manimgrp("soft", alpha = op("softmax")(x)) + "sor\\"tie" $') == ["softmax", 'sor"tie']


def test_quoted_tokens_identifiers_and_a_lone_token_are_not_english_words():
    assert english_words("« the » reçoit le plus de poids") == []
    assert english_words("n_heads têtes, d_k = 4") == []
    assert english_words("the", frozenset({"the"})) == []
    assert english_words("the weights of each head") == ["the", "weights", "of", "each", "head"]
    assert english_words("view donne (B, T, heads, head_dim) et batch, heads, T, head_dim") == []
    assert english_words("des poids one-hot") == [] and english_words("weight-free heads") == ["weight", "heads"]


def test_learned_heads_writes_the_records_task_sentence_from_its_numbers():
    """The task sentence is a message built from the record's numbers: in English it is the record's own text."""
    from attention_math import examples
    from scenes.kit.numbers import Source
    from scenes.learned_heads import task_description

    assert task_description(Source("learned_heads")) == examples.build("learned_heads").description


def test_a_french_clip_entry_and_the_french_deck_carry_french_titles(tmp_path):
    """The manifest entry of a French clip is titled in French (the page, the film's chapters and the decks read it),
    its section stays the English post's heading (the page's key); an English one is as before."""
    from rendering.pipeline.install import Installer
    from rendering.pipeline.jobs import Job
    from rendering.pipeline.manifest import Manifest
    from rendering.qualities import QUALITIES, spoken
    from rendering.site.deck_html import render_deck_html
    from scenes import registry
    from tests.test_render_units import _result

    spec = registry.get("bottleneck")
    for language, title in (("en", "The bottleneck"), ("fr", "Le goulot d’étranglement")):
        out = tmp_path / language / "media"
        job = Job(spec, spoken(QUALITIES["low"], language), ["mp4"], "h")
        Installer(out, Manifest(out), None)(job, _result(tmp_path / language / "w", exts=("mp4",)))
        [entry] = json.loads((out / "manifest.json").read_text())["clips"]
        assert (entry["title"], entry["section"], entry["language"]) == (title, spec.section, language)
    deck = render_deck_html([], tmp_path, tmp_path, quality="low", narrated=False, language="fr")
    assert "L’attention de zéro\u00a0: les clips, temps par temps" in deck
    assert "Attention from Scratch: the clips, beat by beat" in render_deck_html([], tmp_path, tmp_path, quality="low",
                                                                               narrated=False)


def test_a_clip_title_the_catalog_lacks_fails_the_french_install_and_never_falls_back_to_english(tmp_path):
    """A French clip whose title has no translation is not installed with its English title (the page, the film's
    chapters and the decks read the manifest's title): the install fails naming the message; in English the title
    is its own text."""
    import dataclasses

    from rendering.pipeline.install import Installer
    from rendering.pipeline.jobs import Job
    from rendering.pipeline.manifest import Manifest
    from rendering.qualities import QUALITIES, spoken
    from rendering.site.interface import MissingMessage
    from scenes import registry
    from tests.test_render_units import _result

    spec = dataclasses.replace(registry.get("bottleneck"), title="A title no catalog has")
    english = tmp_path / "en" / "media"
    Installer(english, Manifest(english), None)(Job(spec, spoken(QUALITIES["low"], "en"), ["mp4"], "h"),
                                                _result(tmp_path / "en" / "w", exts=("mp4",)))
    assert [entry["title"] for entry in json.loads((english / "manifest.json").read_text())["clips"]] == [spec.title]
    french = tmp_path / "fr" / "media"
    with pytest.raises(MissingMessage, match="A title no catalog has"):
        Installer(french, Manifest(french), None)(Job(spec, spoken(QUALITIES["low"], "fr"), ["mp4"], "h"),
                                                  _result(tmp_path / "fr" / "w", exts=("mp4",)))
    assert not (french / "manifest.json").exists() or "A title no catalog has" not in (
        french / "manifest.json").read_text()
