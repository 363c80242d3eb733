"""render.py --language: French clips beside the English ones, each its own clip to the manifest and the
up-to-date check, the language carried to the worker, and the page's language switch.

Nothing here renders a clip: the worker's part is checked on the job it is handed and the environment it sets.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from rendering.outdir import clip_file, film_dir
from rendering.pipeline.manifest import Manifest, language_of
from rendering.pipeline.plan import plan
from rendering.pipeline.scene_list import load_registry, select
from rendering.qualities import QUALITIES, framed, parse_languages, spoken
from rendering.records import ClipEntry, WorkerJob
from rendering.site.slides import deck_dir
from tests.fixtures.render.harness import make_project, one_line_error

LOW = QUALITIES["low"]


# ---------------------------------------------------------------- the command line


def test_languages_are_parsed_in_order_english_first_and_default_to_english():
    assert parse_languages(None) == ["en"]
    assert parse_languages(["fr"]) == ["fr"]
    assert parse_languages(["fr,en"]) == ["en", "fr"]
    assert parse_languages(["fr", "en", "FR"]) == ["en", "fr"]


@pytest.mark.parametrize("values, message", [
    (["de"], "unknown language 'de'; valid: en, fr"),
    (["en,english"], "unknown language 'english'; valid: en, fr"),
    ([""], "empty language in --language ''; valid: en, fr"),
    (["fr,"], "empty language in --language 'fr,'; valid: en, fr"),
])
def test_a_bad_language_is_refused_with_the_valid_choices(values, message):
    with pytest.raises(ValueError) as error:
        parse_languages(values)
    assert str(error.value) == message


@pytest.mark.parametrize("args, expected", [
    (["square", "--language", "de"], "unknown language 'de'; valid: en, fr"),
    (["square", "--language", "en,xx"], "unknown language 'xx'; valid: en, fr"),
    (["square", "--language", ","], "empty language in --language ','; valid: en, fr"),
])
def test_bad_language_exits_2_with_one_line_and_writes_nothing(tmp_path, args, expected):
    project = make_project(tmp_path / "project")
    result = project.render(*args)
    assert result.returncode == 2, result.stdout + result.stderr
    assert expected in one_line_error(result)
    assert not project.out.exists()


def test_help_names_the_option_and_its_languages(tmp_path):
    result = make_project(tmp_path / "project").render("--help")
    assert result.returncode == 0
    assert "--language" in result.stdout and "en, fr" in result.stdout and "clips/<quality>/fr/" in result.stdout


# ---------------------------------------------------------------- where the files go


def test_french_files_sit_in_a_language_folder_inside_the_aspect_folder(tmp_path):
    out = tmp_path
    assert clip_file(out, "low", "x", "mp4", language="fr") == out / "clips/low/fr/x.mp4"
    assert clip_file(out, "low", "x", "mp4", True, "portrait", language="fr") == out / "clips/low/portrait/fr/narrated/x.mp4"
    assert clip_file(out, "high", "x", "descriptions_vtt", True, "square", True, "fr") == (
        out / "clips/high/square/fr/described/x.descriptions.vtt")
    assert film_dir(out, "low", False, language="fr") == out / "film/low/fr"
    assert film_dir(out, "low", True, "portrait", "fr") == out / "film/low/portrait/fr/narrated"
    assert deck_dir(out, "low", True, language="fr") == out / "slides/low/fr/narrated"
    assert deck_dir(out, "low", False, "square", language="fr") == out / "slides/low/square/fr"


def test_english_files_stay_where_they_were(tmp_path):
    out = tmp_path
    assert clip_file(out, "low", "x", "mp4") == clip_file(out, "low", "x", "mp4", language="en") == out / "clips/low/x.mp4"
    assert clip_file(out, "low", "x", "mp4", True, "portrait", language="en") == out / "clips/low/portrait/narrated/x.mp4"
    assert film_dir(out, "low", True, language="en") == out / "film/low/narrated"
    assert deck_dir(out, "low", False, "portrait", language="en") == out / "slides/low/portrait"


def test_a_qualitys_folder_and_tag_carry_the_language():
    assert spoken(LOW, "fr").folder == "low/fr"
    assert spoken(framed(LOW, "portrait"), "fr").folder == "low/portrait/fr"
    assert spoken(LOW, "en").folder == "low" and spoken(LOW, "en") == LOW


# ---------------------------------------------------------------- the manifest and the up-to-date check


def test_the_manifest_entry_records_the_language():
    entry = ClipEntry("x", "t", "s", 1, "low", (854, 480), 15, 2.0, 30, "h", {}, language="fr").to_dict()
    assert entry["language"] == "fr"
    assert ClipEntry("x", "t", "s", 1, "low", (854, 480), 15, 2.0, 30, "h", {}).to_dict()["language"] == "en"
    assert language_of({"id": "x"}) == "en"  # an entry from before there were languages


def test_an_english_and_a_french_entry_are_two_entries(tmp_path):
    manifest = Manifest(tmp_path)
    english = {"id": "x", "quality": "low", "files": {}, "narrated": False}
    french = {**english, "language": "fr"}
    manifest.put(english)
    manifest.put(french)
    assert len(manifest.entries()) == 2
    assert manifest.get("x", "low") is english
    assert manifest.get("x", "low", language="fr") is french
    assert manifest.drop("x", "low", language="fr") is french and manifest.get("x", "low") is english
    reread = Manifest(tmp_path, [english, french])
    assert [language_of(e) for e in reread.entries()] == ["en", "fr"]


def _installed(out: Path, job, language: str) -> dict:
    """A manifest entry for `job` as if it had been rendered: its one file on disk with the recorded size."""
    path = clip_file(out, "low", job.spec.id, "mp4", language=language)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"video " + language.encode())
    return {"id": job.spec.id, "quality": "low", "narrated": False, "input_hash": job.input_hash, "beats": [],
            **({} if language == "en" else {"language": language}),
            "files": {"mp4": {"path": path.relative_to(out).as_posix(), "bytes": path.stat().st_size}}}


def test_the_up_to_date_check_never_takes_a_clip_in_one_language_for_the_other(tmp_path):
    project = make_project(tmp_path / "project")
    registry = load_registry("rfx.registry", project.root)
    specs = select(registry, ["square"])
    out = project.out
    manifest = Manifest(out)

    def planned(*languages):
        qualities = [spoken(LOW, language) for language in languages]
        return plan(specs, qualities, ["mp4"], root=project.root, registry_path=registry.path, manifest=manifest,
                    out_dir=out, force=False)

    (english_job,), known = planned("en")
    assert known == [] and english_job.quality.language == "en"
    manifest.put(_installed(out, english_job, "en"))
    jobs, known = planned("en")
    assert jobs == [] and [(o.status, o.language) for o in known] == [("up to date", "en")]
    (french_job,), known = planned("fr")  # the English clip is there and up to date: French still renders
    assert known == [] and french_job.quality.language == "fr"
    assert french_job.input_hash != english_job.input_hash
    manifest.put(_installed(out, french_job, "fr"))
    jobs, known = planned("en", "fr")
    assert jobs == [] and sorted(o.language for o in known) == ["en", "fr"]
    clip_file(out, "low", "square", "mp4").unlink()  # the English file gone: English renders again, not French
    manifest.prune({"square"})
    jobs, known = planned("en", "fr")
    assert [job.quality.language for job in jobs] == ["en"] and [o.language for o in known] == ["fr"]


def test_a_french_clip_hashes_its_catalog_and_an_english_one_does_not(tmp_path):
    from rendering.pipeline import inputs
    from rendering.languages import catalog

    project = make_project(tmp_path / "project")
    registry = load_registry("rfx.registry", project.root)
    spec = select(registry, ["square"])[0]
    shared = inputs.shared_digest(project.root, registry.path)

    def hashes():
        return {language: inputs.clip_input_hash(shared, project.root, spec, spoken(LOW, language))
                for language in ("en", "fr")}

    before = hashes()
    assert before["en"] == inputs.clip_input_hash(shared, project.root, spec, LOW)  # as before there were languages
    po = catalog("fr", project.root)
    po.parent.mkdir(parents=True)
    po.write_text('msgid "Keys"\nmsgstr "Clés"\n', encoding="utf-8")
    with_catalog = hashes()
    po.write_text('msgid "Keys"\nmsgstr "Les clés"\n', encoding="utf-8")
    edited = hashes()
    assert before["en"] == with_catalog["en"] == edited["en"]
    assert len({before["fr"], with_catalog["fr"], edited["fr"]}) == 3


# ---------------------------------------------------------------- the worker


def test_the_worker_job_carries_the_language_across_json():
    french = spoken(framed(LOW, "portrait"), "fr")
    job = WorkerJob("x", "m", "C", french, ("mp4",), "/tmp/w")
    assert job.to_dict()["quality"]["language"] == "fr"
    assert WorkerJob.from_dict(json.loads(json.dumps(job.to_dict()))).quality == french
    english = WorkerJob("x", "m", "C", LOW, ("mp4",), "/tmp/w")
    assert "language" not in english.to_dict()["quality"]
    assert WorkerJob.from_dict(json.loads(json.dumps(english.to_dict()))).quality.language == "en"


def test_a_chunk_task_hands_the_worker_the_language():
    from rendering.encode.frame_window import Window
    from rendering.pipeline.jobs import Job
    from rendering.pipeline.tasks import CHUNK, Task
    from types import SimpleNamespace

    spec = SimpleNamespace(id="x", module="m", class_name="C")
    job = Job(spec, spoken(LOW, "fr"), ["mp4"], "h")
    worker_job = Task(job, CHUNK, 1.0, Window(0, 10), 0, 2).worker_job(Path("/tmp/w"), False)
    assert WorkerJob.from_dict(json.loads(json.dumps(worker_job.to_dict()))).quality.language == "fr"
    assert job.name == "x-low-fr" and job.key == "x@low/fr"


def test_the_worker_sets_attention_language_and_finds_the_compiled_catalog(monkeypatch):
    from rendering.encode.worker import use_language
    from scenes.kit import translation

    monkeypatch.setenv("ATTENTION_LANGUAGE", "en")
    use_language(WorkerJob("x", "m", "C", spoken(LOW, "fr"), ("mp4",), "/tmp/w"))
    assert os.environ["ATTENTION_LANGUAGE"] == "fr"
    mo = translation.catalog_path("fr", ".mo")
    assert mo.is_file() and mo.stat().st_mtime >= translation.catalog_path("fr").stat().st_mtime
    assert translation.active_language() == "fr"
    # English is set too: a language in the parent's environment never reaches an English clip.
    use_language(WorkerJob("x", "m", "C", LOW, ("mp4",), "/tmp/w"))
    assert os.environ["ATTENTION_LANGUAGE"] == "en"


def test_a_cluster_worker_hashes_a_french_task_as_the_client_does():
    from dataclasses import replace

    from rendering import REPO_ROOT
    from rendering.pipeline import inputs
    from rendering.pipeline.remote import refusal
    from rendering.records import ProjectCheck
    from scenes import registry

    spec = registry.get("summary")
    shared = inputs.shared_digest(REPO_ROOT, REPO_ROOT / "scenes" / "registry.py")
    french = inputs.clip_input_hash(shared, REPO_ROOT, spec, spoken(LOW, "fr"))
    assert french != inputs.clip_input_hash(shared, REPO_ROOT, spec, LOW)
    job = WorkerJob(spec.id, spec.module, spec.class_name, spoken(LOW, "fr"), ("mp4",), "/tmp/w",
                    project=ProjectCheck(french, "scenes.registry", "low"))
    assert refusal(REPO_ROOT, job, None) is None
    assert "refused" in refusal(REPO_ROOT, replace(job, quality=LOW), None)


# ---------------------------------------------------------------- the page


def _page_manifest(*languages: str) -> dict:
    """Two clips of the registry at low quality in each of `languages`, with their beats."""
    from scenes.registry import SCENES

    clips = []
    for spec in SCENES[:2]:
        for language in languages:
            folder = "clips/low" if language == "en" else f"clips/low/{language}"
            files = {fmt: {"path": f"{folder}/{spec.id}.{fmt}", "bytes": 10, "sha256": "0" * 64}
                     for fmt in ("mp4", "png", "vtt")}
            clips.append({"id": spec.id, "title": spec.title, "section": spec.section, "order": spec.order,
                          "quality": "low", "resolution": [854, 480], "fps": 15, "duration": 4.0, "frames": 60,
                          "input_hash": language, "files": files, "language": language,
                          "beats": [{"beat": "a", "caption": f"{language} a", "start": 0.0, "end": 1.5},
                                    {"beat": "b", "caption": f"{language} b", "start": 1.5, "end": 4.0}]})
    return {"version": 1, "clips": clips}


def _tags(document: str, tag: str) -> list[dict]:
    from html.parser import HTMLParser

    found: list[dict] = []

    class Collect(HTMLParser):
        def handle_starttag(self, name, attrs):
            if name == tag:
                found.append(dict(attrs))

    Collect().feed(document)
    return found


def test_with_both_languages_each_page_has_a_switch_to_the_other(tmp_path):
    from rendering.site.page import write_page
    from rendering.site.post_text import load_post_in

    write_page(_page_manifest("en", "fr"), tmp_path)
    english = (tmp_path / "index.html").read_text(encoding="utf-8")
    french = (tmp_path / "index.fr.html").read_text(encoding="utf-8")
    assert _tags(english, "html")[0]["lang"] == "en" and _tags(french, "html")[0]["lang"] == "fr"
    switches = {name: [a for a in _tags(page, "a") if "data-language-switch" in a]
                for name, page in (("en", english), ("fr", french))}
    assert [(a["href"], a["hreflang"]) for a in switches["en"]] == [("index.fr.html", "fr")]
    assert [(a["href"], a["hreflang"]) for a in switches["fr"]] == [("index.html", "en")]
    assert ">Français</a>" in english and ">English</a>" in french
    # Each page plays its own language's clips, captions marked in that language, under its own post's text.
    assert {s["src"].rsplit("/", 1)[0] for s in _tags(english, "source")} == {"clips/low"}
    assert {s["src"].rsplit("/", 1)[0] for s in _tags(french, "source")} == {"clips/low/fr"}
    assert {t["srclang"] for t in _tags(french, "track")} == {"fr"}
    assert {t["srclang"] for t in _tags(english, "track")} == {"en"}
    french_post, english_post = load_post_in("fr"), load_post_in("en")
    assert french_post.title != english_post.title
    assert f"<h1>{french_post.title}</h1>" in french and f"<h1>{english_post.title}</h1>" in english
    # The script that keeps the place across the switch is on the page (allowed by its hash).
    assert "data-language-switch" in english and "#at=" in english


def test_a_french_clip_sits_under_its_sections_heading_in_the_french_post(tmp_path):
    from rendering.site.page import write_page
    from rendering.site.post_text import load_post_in
    from scenes.registry import SCENES

    write_page(_page_manifest("en", "fr"), tmp_path)
    french = (tmp_path / "index.fr.html").read_text(encoding="utf-8")
    english_headings = [h.text for h in load_post_in("en").headings()]
    french_headings = load_post_in("fr").headings()
    place = english_headings.index(SCENES[0].section)
    heading_at = french.index(f">{french_headings[place].text}<")
    clip_at = french.index(f'id="clip-{SCENES[0].id}"')
    next_at = french.index(f">{french_headings[place + 1].text}<", heading_at + 1)
    assert heading_at < clip_at < next_at


def test_english_only_has_no_switch_and_no_french_page(tmp_path):
    from rendering.site.page import write_page

    write_page(_page_manifest("en", "fr"), tmp_path)
    assert (tmp_path / "index.fr.html").exists()
    write_page(_page_manifest("en"), tmp_path)  # the French clips gone: so are their page and the switch
    english = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert not (tmp_path / "index.fr.html").exists()
    assert not [a for a in _tags(english, "a") if "data-language-switch" in a]
    assert 'class="languages"' not in english


def _black_mp4(path: Path, seconds: float = 4.0, fps: int = 15) -> None:
    """A small silent H.264 clip to seek in (no manim: the page is what is tested)."""
    import av
    import numpy as np

    path.parent.mkdir(parents=True, exist_ok=True)
    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=fps)
        stream.width, stream.height, stream.pix_fmt = 64, 64, "yuv420p"
        for _ in range(round(seconds * fps)):
            frame = av.VideoFrame.from_ndarray(np.zeros((64, 64, 3), dtype=np.uint8), format="rgb24")
            container.mux(stream.encode(frame))
        container.mux(stream.encode())


@pytest.mark.browser
def test_the_switch_opens_the_other_language_at_the_same_beat_and_share_of_it(tmp_path):
    from rendering.site.page import write_page
    from tests.test_page_browser import WAIT_MS, page_with_errors, served_browser

    manifest = _page_manifest("en", "fr")
    for clip in manifest["clips"]:
        clip["files"] = {"mp4": clip["files"]["mp4"]}
        if clip["language"] == "fr":  # French beats run another length: [0, 1) and [1, 4)
            clip["beats"][0]["end"] = clip["beats"][1]["start"] = 1.0
        _black_mp4(tmp_path / clip["files"]["mp4"]["path"])
    write_page(manifest, tmp_path)
    clip_id = manifest["clips"][0]["id"]
    video = f"document.querySelector('#clip-{clip_id} video')"
    with served_browser(tmp_path) as (server, context):
        page, errors = page_with_errors(context)
        page.goto(server.url + "index.html", wait_until="load")
        page.wait_for_function(f"() => {video}.readyState >= 1", timeout=WAIT_MS)
        # 2.0 s in English is 0.2 of the way through beat 2 ([1.5, 4.0)).
        page.evaluate(f"""async () => {{ const v = {video}; v.currentTime = 2.0;
            await new Promise(r => v.addEventListener('seeked', r, {{once: true}})); }}""")
        page.click("a[data-language-switch]")
        page.wait_for_url("**/index.fr.html#at=*", timeout=WAIT_MS)
        assert page.url.endswith(f"index.fr.html#at=clip-{clip_id}:1:0.2000:0")
        # In French beat 2 is [1.0, 4.0): 0.2 of it is 1.6 s.
        page.wait_for_function(f"() => Math.abs({video}.currentTime - 1.6) < 0.01", timeout=WAIT_MS)
        assert page.evaluate(f"() => {video}.paused")
        assert page.evaluate("() => document.documentElement.lang") == "fr"
        page.click("a[data-language-switch]")  # and back: the French place is the English 2.0 s again
        page.wait_for_url("**/index.html#at=*", timeout=WAIT_MS)
        page.wait_for_function(f"() => Math.abs({video}.currentTime - 2.0) < 0.01", timeout=WAIT_MS)
        assert errors == []


def test_a_french_deck_says_its_language_and_an_english_one_stays_english(tmp_path):
    from rendering.site.deck_html import render_deck_html

    files = {"mp4": {"path": "slides/low/fr/deck/c/01-b.mp4"}}
    slide = {"clip": "c", "clip_title": "C", "beat": "b", "number_in_clip": 1, "beats_in_clip": 1, "caption": "x",
             "narration": "x", "frames": 15, "duration": 1.0, "files": files}
    folder = tmp_path / "slides" / "low" / "fr"
    french = render_deck_html([slide], tmp_path, folder, quality="low", narrated=False, language="fr")
    english = render_deck_html([slide], tmp_path, folder, quality="low", narrated=False)
    assert _tags(french, "html")[0]["lang"] == "fr" and _tags(english, "html")[0]["lang"] == "en"


# ---------------------------------------------------------------- end to end, on a tiny fixture

_SPOKEN_SCENE = '''"""0.4 s: a square, captioned with a message of the catalog."""

from manim import Create, Scene, Square

from scenes.kit.translation import _


class SpokenScene(Scene):
    def construct(self):
        self.play(Create(Square()), run_time=0.4, subcaption=_("Checklist"))
'''


def test_render_py_language_en_fr_renders_each_language_from_its_catalog(tmp_path):
    from tests.fixtures.render.harness import status_lines

    project = make_project(tmp_path / "project")
    (project.package / "spoken.py").write_text(_SPOKEN_SCENE, encoding="utf-8")
    with (project.package / "registry.py").open("a", encoding="utf-8") as registry:
        # a title the catalog translates: a French clip's title must be (never the English one in its place)
        registry.write('\nSCENES = SCENES + (_spec("spoken", "The bottleneck", "Why attention exists", "spoken", '
                       '"SpokenScene", 16),)\n')
    result = project.render("spoken", "-f", "mp4", "--language", "en,fr", "--jobs", "1")
    assert result.returncode == 0, result.stdout + result.stderr
    assert status_lines(result.stdout) == {"spoken@low": "rendered", "spoken@low/fr": "rendered"}
    entries = {entry["language"]: entry for entry in project.manifest()["clips"]}
    assert sorted(entries) == ["en", "fr"]
    assert entries["en"]["files"]["vtt"]["path"] == "clips/low/spoken.vtt"
    assert entries["fr"]["files"]["vtt"]["path"] == "clips/low/fr/spoken.vtt"
    assert entries["en"]["input_hash"] != entries["fr"]["input_hash"]
    assert (entries["en"]["title"], entries["fr"]["title"]) == ("The bottleneck", "Le goulot d’étranglement")
    # The worker ran each storyboard in its language: the catalog's French, the source's English.
    english_vtt = (project.out / "clips/low/spoken.vtt").read_text(encoding="utf-8")
    french_vtt = (project.out / "clips/low/fr/spoken.vtt").read_text(encoding="utf-8")
    assert "Checklist" in english_vtt and "Aide-mémoire" not in english_vtt
    assert "Aide-mémoire" in french_vtt and "Checklist" not in french_vtt
    assert (project.out / "index.html").is_file() and (project.out / "index.fr.html").is_file()
    again = project.render("spoken", "-f", "mp4", "--language", "fr,en")
    assert again.returncode == 0 and status_lines(again.stdout) == {}
    assert "0 rendered, 2 up to date" in again.stdout


def test_a_french_film_or_deck_is_made_from_french_clips_only(tmp_path):
    from types import SimpleNamespace

    from rendering.pipeline.film_install import make_films
    from rendering.site.slides import make_decks

    manifest = Manifest(tmp_path)
    manifest.put({"id": "x", "quality": "low", "narrated": False, "files": {}})  # an English clip only
    specs = [SimpleNamespace(id="x")]
    for make in (make_films, make_decks):
        (outcome,) = make(manifest, tmp_path, specs, [spoken(LOW, "fr")], ["mp4"], narrated=False,
                          work_root=tmp_path / "work", force=False)
        assert outcome.status == "failed" and outcome.language == "fr"
        assert outcome.error.startswith("no clip of x at low in fr "), outcome.error
