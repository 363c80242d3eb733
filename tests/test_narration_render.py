"""render.py --narrate and --film on fixture scenes, with the real voice (a PyPI package, so CI runs it).

One narrated render of the fixture scene is shared by the checks that only read its outputs; the cache, the film and
the bad-input cases make their own.
"""

from __future__ import annotations

import json
import os

import av
import pytest

from rendering.encode.captions import parse_webvtt
from rendering.narration.audio import TARGET_LUFS
from tests.fixtures.render.harness import Project, make_project

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def speech_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("speech-cache")


def _render(project: Project, cache, *args: str):
    env = {**os.environ, "NARRATION_CACHE_DIR": str(cache)}
    import subprocess

    return subprocess.run(project.args(*args), cwd=project.root, capture_output=True, text=True, timeout=300, env=env)


@pytest.fixture(scope="module")
def narrated(tmp_path_factory, speech_cache):
    project = make_project(tmp_path_factory.mktemp("narrated"))
    result = _render(project, speech_cache, "narrated", "--narrate", "-f", "mp4,webm,png")
    assert result.returncode == 0, result.stdout + result.stderr
    return project


def _entry(project: Project, narrated: bool) -> dict:
    matches = [c for c in project.manifest()["clips"] if c["id"] == "narrated" and c.get("narrated") == narrated]
    assert len(matches) == 1
    return matches[0]


def _streams(path):
    with av.open(str(path)) as container:
        video, = container.streams.video
        audio = list(container.streams.audio)
        frames = sum(1 for _ in container.decode(video=0))
        video_seconds = frames / float(video.average_rate)
    with av.open(str(path)) as container:
        stream = container.streams.audio[0] if audio else None
        samples = sum(frame.samples for frame in container.decode(audio=0)) if stream else 0
        rate = stream.rate if stream else None
    return video_seconds, audio, samples, rate


def test_narrated_clip_sits_beside_the_silent_one(narrated):
    silent, spoken = _entry(narrated, False), _entry(narrated, True)
    assert silent["files"]["mp4"]["path"] == "clips/low/narrated.mp4"
    assert spoken["files"]["mp4"]["path"] == "clips/low/narrated/narrated.mp4"
    assert set(spoken["files"]) == {"mp4", "webm", "png", "vtt"}
    assert spoken["duration"] > silent["duration"]  # the picture waited for the voice
    _, audio, _, _ = _streams(narrated.out / silent["files"]["mp4"]["path"])
    assert audio == []


@pytest.mark.parametrize("fmt, codec", [("mp4", "aac"), ("webm", "opus")])
def test_one_audio_stream_as_long_as_the_video(narrated, fmt, codec):
    entry = _entry(narrated, True)
    video_seconds, audio, samples, rate = _streams(narrated.out / entry["files"][fmt]["path"])
    assert len(audio) == 1 and audio[0].codec_context.name == codec and rate == 48000
    assert abs(samples / rate - video_seconds) <= 1 / entry["fps"]
    assert entry["audio"]["codecs"][fmt] == codec


def test_manifest_lists_the_audio_facts(narrated):
    audio = _entry(narrated, True)["audio"]
    assert audio["sample_rate"] == 48000 and audio["channels"] == 1
    assert audio["target_lufs"] == TARGET_LUFS
    assert abs(audio["loudness_lufs"] - TARGET_LUFS) <= 1.0 or audio["peak_dbfs"] >= -1.01
    assert audio["peak_dbfs"] <= -1.0 + 1e-6  # never clipped


def test_every_sentence_is_spoken_inside_its_beat(narrated):
    transcript = _entry(narrated, True)["transcript"]
    assert [beat["beat"] for beat in transcript] == ["draw_a_square", "say_more_than_is_shown"]
    assert transcript[0]["text"] == "Here is a square. It has four sides. And it goes."
    for beat in transcript:
        assert beat["speech"], beat["beat"]
        for sentence in beat["speech"]:
            assert beat["start"] <= sentence["start"] < sentence["end"] <= beat["end"], (beat["beat"], sentence)
    # the last beat's animation lasts 0.5 s; its sentence is far longer, so the beat waited for it
    last = transcript[-1]
    assert last["end"] - last["start"] > 3.0
    assert last["end"] >= last["speech"][-1]["end"] + 0.4 - 1e-6


def test_caption_cues_follow_the_speech_in_short_cues(narrated):
    entry = _entry(narrated, True)
    cues = parse_webvtt((narrated.out / entry["files"]["vtt"]["path"]).read_text(encoding="utf-8"))
    spoken = [s for beat in entry["transcript"] for s in beat["speech"]]
    assert " ".join(cue.text.replace("\n", " ") for cue in cues) == " ".join(s["text"] for s in spoken)
    assert all(len(cue.text) <= 84 for cue in cues)
    long_sentence = spoken[-1]
    inside = [cue for cue in cues if long_sentence["start"] - 0.001 <= cue.start < long_sentence["end"]]
    assert len(inside) >= 2  # split, not one long cue
    assert abs(inside[0].start - long_sentence["start"]) < 0.002 and abs(inside[-1].end - long_sentence["end"]) < 0.002


def test_a_second_render_synthesises_nothing(tmp_path, speech_cache, narrated):
    cached = {p.name: p.stat().st_mtime_ns for p in speech_cache.rglob("*") if p.is_file()}
    assert cached  # the first render filled the cache
    project = make_project(tmp_path)
    result = _render(project, speech_cache, "narrated", "--narrate", "-f", "mp4")
    assert result.returncode == 0, result.stdout + result.stderr
    after = {p.name: p.stat().st_mtime_ns for p in speech_cache.rglob("*") if p.is_file()}
    assert after == cached
    first = (narrated.out / _entry(narrated, True)["files"]["mp4"]["path"])
    again = project.out / _entry(project, True)["files"]["mp4"]["path"]
    assert _streams(again)[2] == _streams(first)[2]  # same speech, same length


def test_a_beat_with_nothing_to_say_is_refused(tmp_path, speech_cache):
    project = make_project(tmp_path)
    result = _render(project, speech_cache, "unnarrated", "--narrate", "-f", "mp4")
    assert result.returncode == 2, result.stdout + result.stderr
    errors = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(errors) == 1 and "quiet_beat" in errors[0] and "narration" in errors[0], result.stderr
    assert not (project.out / "clips" / "low" / "narrated").exists()


@pytest.mark.parametrize("make_voice, problem", [
    (lambda d: d / "nope.onnx", "nope.onnx"),
    (lambda d: (d / "voice.txt").write_text("x") and d / "voice.txt", "voice.txt"),
    (lambda d: (d / "fake.onnx").write_bytes(b"\0") and d / "fake.onnx", "fake.onnx"),
])
def test_a_voice_that_is_not_a_piper_voice_is_refused(tmp_path, speech_cache, make_voice, problem):
    project = make_project(tmp_path / "p")
    voices = tmp_path / "voices"
    voices.mkdir()
    voice = make_voice(voices)
    result = _render(project, speech_cache, "narrated", "--narrate", "--voice", str(voice))
    assert result.returncode == 2
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and problem in lines[0], result.stderr
    assert not project.out.exists() or not any(project.out.rglob("*.mp4"))


def test_voice_without_narrate_is_refused(tmp_path, speech_cache):
    project = make_project(tmp_path)
    result = _render(project, speech_cache, "narrated", "--voice", "x.onnx")
    assert result.returncode == 2 and "--narrate" in result.stderr
    assert not project.out.exists()


@pytest.mark.parametrize("languages", ["fr", "en,fr"])
def test_voice_with_french_is_refused_in_one_line(tmp_path, speech_cache, languages):
    project = make_project(tmp_path)
    result = _render(project, speech_cache, "narrated", "--narrate", "--language", languages, "--voice", "x.onnx")
    assert result.returncode == 2
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "--voice" in lines[0] and "espeak-ng" in lines[0], result.stderr
    assert not project.out.exists()


@pytest.fixture(scope="module")
def french(tmp_path_factory, speech_cache):
    project = make_project(tmp_path_factory.mktemp("french"))
    # a title the catalog translates: a French clip whose title it lacks fails (never the English title in its place)
    with (project.package / "registry.py").open("a", encoding="utf-8") as registry:
        registry.write('\nimport dataclasses\nSCENES = tuple(dataclasses.replace(spec, title="The bottleneck") '
                       'if spec.id == "narrated" else spec for spec in SCENES)\n')
    result = _render(project, speech_cache, "narrated", "--narrate", "--language", "fr", "-f", "mp4")
    assert result.returncode == 0, result.stdout + result.stderr
    return project


def _espeak_seconds(text: str, folder) -> float:
    """How long espeak-ng's fr voice, run here by hand at the rate the French narration uses, speaks `text`."""
    import subprocess
    import wave

    path = folder / "said.wav"
    subprocess.run(["espeak-ng", "-v", "fr", "-s", "160", "-b", "1", "-w", str(path)], input=text.encode(),
                   check=True)
    with wave.open(str(path), "rb") as said:
        return said.getnframes() / said.getframerate()


def test_a_french_narrated_clip_speaks_with_the_french_voice(french, narrated, tmp_path):
    from rendering.narration.pronounce_fr import spoken

    entry, = [c for c in french.manifest()["clips"] if c["narrated"]]
    assert entry["language"] == "fr" and entry["files"]["mp4"]["path"] == "clips/low/fr/narrated/narrated.mp4"
    video_seconds, audio, samples, rate = _streams(french.out / entry["files"]["mp4"]["path"])
    assert len(audio) == 1 and rate == 48000 and abs(samples / rate - video_seconds) <= 1 / entry["fps"]
    assert abs(entry["audio"]["loudness_lufs"] - TARGET_LUFS) <= 1.0 and entry["audio"]["peak_dbfs"] <= -1.0 + 1e-6
    said = [s for beat in entry["transcript"] for s in beat["speech"]]
    english = [s for beat in _entry(narrated, True)["transcript"] for s in beat["speech"]]
    assert [s["text"] for s in said] == [s["text"] for s in english]  # the fixture's captions are not translated
    for sentence in said:  # each sentence lasts what espeak-ng's fr voice takes to say it
        assert sentence["end"] - sentence["start"] == pytest.approx(_espeak_seconds(spoken(sentence["text"]),
                                                                                    tmp_path), abs=1e-5)
    assert [round(s["end"] - s["start"], 3) for s in said] != [round(s["end"] - s["start"], 3) for s in english]
    for beat in entry["transcript"]:
        for sentence in beat["speech"]:
            assert beat["start"] <= sentence["start"] < sentence["end"] <= beat["end"], (beat["beat"], sentence)


def test_film_joins_the_clips_with_a_chapter_each(tmp_path, speech_cache):
    project = make_project(tmp_path)
    result = _render(project, speech_cache, "square", "narrated", "--narrate", "--film", "-f", "mp4,webm")
    assert result.returncode == 0, result.stdout + result.stderr
    manifest = project.manifest()
    film, = [f for f in manifest["films"] if f["narrated"]]
    clips = {c["id"]: c for c in manifest["clips"] if c["narrated"]}
    assert [c["id"] for c in film["chapters"]] == ["square", "narrated"]  # the post's (registry) order
    square_seconds = clips["square"]["frames"] / clips["square"]["fps"]
    assert film["chapters"][0]["start"] == 0 and abs(film["chapters"][1]["start"] - square_seconds) < 1e-6
    assert film["frames"] == clips["square"]["frames"] + clips["narrated"]["frames"]
    mp4 = project.out / film["files"]["mp4"]["path"]
    assert mp4 == project.out / "film" / "low" / "narrated" / "film.mp4"
    with av.open(str(mp4)) as container:
        starts = [float(chapter["start"] * chapter["time_base"]) for chapter in container.chapters()]
        assert len(container.streams.audio) == 1
    assert starts == pytest.approx([0.0, square_seconds], abs=1e-3)
    text = (project.out / film["files"]["chapters_txt"]["path"]).read_text(encoding="utf-8").splitlines()
    assert text[0] == "00:00 A square" and text[1].endswith(" A square and a circle")
    chapters = parse_webvtt((project.out / film["files"]["chapters_vtt"]["path"]).read_text(encoding="utf-8"))
    assert [cue.text for cue in chapters] == ["A square", "A square and a circle"]
    again = _render(project, speech_cache, "square", "narrated", "--narrate", "--film", "-f", "mp4,webm")
    assert again.returncode == 0 and "film" in again.stdout and "up to date" in again.stdout
    assert json.loads((project.out / "manifest.json").read_text())["films"] == manifest["films"]


def test_the_narration_benchmark_reports_every_figure(narrated):
    import subprocess
    import sys

    from conftest import ROOT

    result = subprocess.run([sys.executable, "benchmarks/bench_narration.py", "--from-media", str(narrated.out)],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    header, row, total = result.stdout.splitlines()[1:4]
    assert "synth s" in header and "RTF" in header and "narr. MB" in header
    assert row.split()[0] == "narrated" and total.startswith("all clips")
    assert float(row.split()[-3]) > 0  # a real-time factor was measured (its size is a figure, not a test)


@pytest.fixture(scope="module")
def described(tmp_path_factory, speech_cache):
    project = make_project(tmp_path_factory.mktemp("described"))
    result = _render(project, speech_cache, "described", "--narrate", "--describe", "-f", "mp4")
    assert result.returncode == 0, result.stdout + result.stderr
    return project


def test_a_described_clip_sits_beside_the_narrated_one_with_its_descriptions_track(described):
    from attention_math import examples

    clips = {(c.get("narrated"), c.get("described", False)): c for c in described.manifest()["clips"]}
    silent, narrated, said = clips[(False, False)], clips[(True, False)], clips[(True, True)]
    assert said["files"]["mp4"]["path"] == "clips/low/described/described.mp4"
    assert said["files"]["descriptions_vtt"]["path"] == "clips/low/described/described.descriptions.vtt"
    assert said["duration"] > narrated["duration"] >= silent["duration"], "the picture waited for the description"
    scores = [f"{v:.2f}".replace("-", "−") for v in examples.load("coffee").scores.tolist()]
    cues = parse_webvtt((described.out / said["files"]["descriptions_vtt"]["path"]).read_text(encoding="utf-8"))
    said_text = " ".join(cue.text.replace("\n", " ") for cue in cues)
    assert said_text == "On screen: " + ", ".join(scores) + "."
    captions = parse_webvtt((described.out / said["files"]["vtt"]["path"]).read_text(encoding="utf-8"))
    assert all("On screen" not in cue.text for cue in captions), "descriptions are not captions"
    beat, = said["transcript"]
    assert beat["descriptions"] == [said_text]
    kinds = [sentence.get("kind", "narration") for sentence in beat["speech"]]
    assert kinds == ["narration", "description"]
    assert "descriptions_vtt" not in narrated["files"] and "descriptions" not in narrated["transcript"][0]


def test_the_page_offers_the_described_version_with_its_track_and_transcript(described):
    html = (described.out / "index.html").read_text(encoding="utf-8")
    assert "· audio described</option>" in html
    assert 'data-descriptions="data:text/vtt' in html
    assert "[Description] On screen: " in html


def test_describe_without_narrate_is_refused_in_one_line(tmp_path):
    project = make_project(tmp_path)
    result = _render(project, tmp_path / "cache", "described", "--describe")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines()[-1].endswith("--describe needs --narrate: the descriptions are spoken "
                                                           "by the narration's voice")
    assert not (project.out / "clips").exists()


def test_the_decks_offer_the_described_version_too(described, speech_cache):
    result = _render(described, speech_cache, "described", "--narrate", "--describe", "-f", "mp4", "--slides")
    assert result.returncode == 0, result.stdout + result.stderr
    decks = {(d.get("narrated"), d.get("described", False)): d for d in described.manifest()["decks"]}
    assert set(decks) == {(True, False), (True, True)}
    said = decks[(True, True)]
    assert said["files"]["html"]["path"] == "slides/low/described/deck.html"
    segment, = said["clips"][0]["segments"]
    narrated_segment, = decks[(True, False)]["clips"][0]["segments"]
    assert segment["files"]["mp4"]["path"].startswith("slides/low/described/")
    assert segment["files"]["mp4"]["sha256"] != narrated_segment["files"]["mp4"]["sha256"]


SWITCH_TO_DESCRIBED = """() => {
    const select = document.querySelector("select.quality");
    const option = Array.from(select.options).find(o => o.textContent.includes("audio described"));
    select.value = option.value; select.selectedIndex = option.index;
    select.dispatchEvent(new Event("change"));
    const track = document.querySelector("video track[kind=descriptions]");
    const transcript = document.querySelector("details.transcript");
    return {track: track ? track.getAttribute("src").slice(0, 22) : null, label: track && track.label,
            transcriptShown: !transcript.hidden, source: document.querySelector("video source").getAttribute("src")};
}"""


@pytest.mark.browser
def test_in_a_browser_the_described_version_plays_with_its_descriptions_track_and_passes_axe(described):
    from tests.test_page_accessibility import axe_violations, open_page

    assert open_page(described.out, "index.html", axe_violations) == []
    switched = open_page(described.out, "index.html", lambda page: page.evaluate(SWITCH_TO_DESCRIBED))
    assert switched == {"track": "data:text/vtt;charset=", "label": "Audio descriptions", "transcriptShown": True,
                        "source": "clips/low/described/described.mp4"}
