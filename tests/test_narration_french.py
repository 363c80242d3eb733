"""The French narration: the French pronunciation table (rendering/narration/pronounce_fr.py) and the French voice,
espeak-ng's fr voice run as a program (rendering/narration/espeak.py), through the sentence cache.

Expected strings are written by hand: how a French teacher reads the caption aloud. The voice tests run the real
espeak-ng (a Debian package the bootstrap installs): they are never skipped.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import wave
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from conftest import per_scene
from rendering.narration import espeak
from rendering.narration.espeak import SETTINGS, EspeakError, EspeakVoice, resolve_espeak
from rendering.narration.pronounce import sentences
from rendering.narration.pronounce_fr import spoken
from rendering.narration.speech import Narrator
from rendering.narration.voice import VoiceError
from rendering.narration.voices import resolve_language_voice
from tests.test_french_run import FRENCH_SCENES  # the scenes whose messages are French

NBSP, NNBSP = "\u00a0", "\u202f"

SPOKEN_FR = [
    # the formula of scaled dot-product attention, as the brief spells it
    ("QKᵀ/√d_k", "Q K transposée divisé par racine de d k"),
    ("ω = Q Kᵀ / √d_k", "oméga égale Q K transposée divisé par racine de d k"),
    ("softmax(QKᵀ/√d_k) V", "softmax de Q K transposée divisé par racine de d k, V"),
    ("Tous les produits scalaires forment une grille 4 × 4" + NBSP + ": X Xᵀ, une ligne par requête.",
     "Tous les produits scalaires forment une grille 4 par 4: X X transposée, une ligne par requête."),
    ("2 × q", "2 fois q"),
    # numbers keep their decimal comma (the voice reads "zéro virgule soixante-treize"); groups are joined
    ("Le score vaut 0,73.", "Le score vaut 0,73."),
    ("4" + NNBSP + "096 paramètres", "4096 paramètres"),
    ("1" + NNBSP + "234,5", "1234,5"),
    ("0.28", "0,28"),
    ("Donc q = (0,90" + NBSP + "; 0,10" + NBSP + "; 0,80).", "Donc q égale 0,90; 0,10; 0,80."),
    ("α ≈ 0,28 / 0,19 / 0,52", "alpha environ 0,28, 0,19, 0,52"),
    ("de -0,5 à −1,3", "de moins 0,5 à moins 1,3"),
    ("12,5 %", "12,5 pour cent"),
    # subscripts, Greek letters, identifiers
    ("x₃ et x_3 et h_1", "x 3 et x 3 et h 1"),
    ("Le softmax transforme les scores en poids α_i" + NBSP + ": tous positifs, de somme égale à un.",
     "Le softmax transforme les scores en poids alpha i: tous positifs, de somme égale à un."),
    ("Le vecteur de contexte est la somme pondérée c = Σ α_i h_i.",
     "Le vecteur de contexte est la somme pondérée c égale la somme de alpha i h i."),
    ("son poids α_(t,i)", "son poids alpha t i"),
    ("z₃ = Σ α₃ⱼ vⱼ", "z 3 égale la somme de alpha 3 j v j"),
    ("Étant donné les états h_1 … h_T", "Étant donné les états h 1 à h T"),
    ("q est la matrice W_q multipliée par s_decoder.", "q est la matrice W Q multipliée par s décodeur."),
    ("W_Q, W_K, W_V et d_model", "W Q, W K, W V et d modèle"),
    ("ω₃ = 0,41 et ω̃", "oméga 3 égale 0,41 et oméga tilde"),
    ("θ, β et λ", "têta, bêta et lambda"),
    # operators the voice is silent on or reads in English
    ("1 − p", "1 moins p"),
    ("Divisez par 1/(1 − p).", "Divisez par 1 divisé par 1 moins p."),
    ("exp(−∞) = 0", "exponentielle de moins l'infini égale 0"),
    ("j ≤ i, j > i, a ≠ b", "j inférieur ou égal à i, j supérieur à i, a différent de b"),
    ("x[t-1]", "x indice t moins 1"),
    ("score(q_t, h_i) = q_t · h_i", "score de q t, h i, égale q t scalaire h i"),
    ("x² et W_Q^(h)", "x au carré et W Q de la tête h"),
    ("I love coffee ⇒ résumé s", "aïe leuve coffee donne résumé s"),
    # words: the slash, letter ranges, CamelCase, quotes, abbreviations, ellipses
    ("Q/K/V entraînables", "Q, K, V entraînables"),
    ("clé/valeur", "clé-valeur"),
    ("Répétez les étapes A–C.", "Répétez les étapes A à C."),
    ("Étape 7, CausalSelfAttention" + NBSP + ": étapes 5 et 6.", "Étape 7, Causal Self Attention: étapes 5 et 6."),
    ("il prédit «" + NBSP + "Je" + NBSP + "»" + NBSP + ": un premier mot faux.", "il prédit Je: un premier mot faux."),
    ("le token <start>", "le token start"),
    ("Étape 2, Auto-attn sans poids", "Étape 2, Auto-attention sans poids"),
    ("…puis additionnez les vecteurs pondérés", "puis additionnez les vecteurs pondérés"),
    ("Multipliez chaque vecteur par son poids…", "Multipliez chaque vecteur par son poids."),
    ("plusieurs motifs (cet exemple a deux têtes).", "plusieurs motifs, cet exemple a deux têtes."),
    # ordinary French words that are also operators keep their pauses
    ("Que la phrase ait trois mots ou bien plus, s reste le même.",
     "Que la phrase ait trois mots ou bien plus, s reste le même."),
    ("Avec le produit scalaire, cet exemple obtient 0,73.", "Avec le produit scalaire, cet exemple obtient 0,73."),
    # the example's English tokens, respelt for the French voice
    ("Les poids valent 0,28 pour «" + NBSP + "I" + NBSP + "», 0,19 pour «" + NBSP + "love" + NBSP + "».",
     "Les poids valent 0,28 pour aïe, 0,19 pour leuve."),
    ("la requête «" + NBSP + "dry" + NBSP + "» (x₃)", "la requête draï, x 3"),
    # plain French passes through
    ("Le softmax transforme les scores en poids.", "Le softmax transforme les scores en poids."),
]


@pytest.mark.parametrize("caption, expected", SPOKEN_FR)
def test_the_french_table_reads_a_caption_as_a_french_teacher(caption, expected):
    assert spoken(caption) == expected


def test_a_french_caption_is_cut_into_sentences_at_its_stops():
    text = "Même modèle, même anglais. Seul l’historique français a changé. Étape 3" + NBSP + ": Q, K, V."
    assert sentences(text) == ["Même modèle, même anglais.", "Seul l’historique français a changé.",
                               "Étape 3" + NBSP + ": Q, K, V."]
    assert sentences("Le score vaut 0,73. À l’étape 1, rien.") == ["Le score vaut 0,73.", "À l’étape 1, rien."]


# --- the voice --------------------------------------------------------------------------------------------------
SENTENCE = "Le softmax transforme les scores en poids, tous positifs, de somme égale à un."  # 13 words


@pytest.fixture(scope="module")
def french() -> EspeakVoice:
    return resolve_espeak()


def _voiced(samples: np.ndarray, rate: int) -> np.ndarray:
    frame = rate // 50  # 20 ms
    frames = samples[: len(samples) // frame * frame].reshape(-1, frame)
    return np.sqrt((frames ** 2).mean(axis=1)) > 0.01  # above -40 dBFS


def test_the_french_voice_is_espeak_ngs_fr_voice_with_its_version(french):
    stdout = subprocess.run(["espeak-ng", "--version"], capture_output=True, text=True, check=True).stdout
    version = re.search(r"text-to-speech: (\S+)", stdout).group(1)
    assert french.version == version and french.engine == f"espeak-ng {version}"
    assert french.settings.voice == "fr" and french.language == "fr"
    engine, data, settings = french.identity()
    assert engine == f"espeak-ng {version}" and re.fullmatch(r"data=[0-9a-f]{64}", data)
    assert '"rate": 160' in settings and '"voice": "fr"' in settings


def test_a_french_sentence_is_speech_of_a_plausible_length(french):
    samples = french.synthesize(SENTENCE)
    assert samples.dtype == np.float32 and samples.ndim == 1 and french.sample_rate == 22050
    seconds = len(samples) / french.sample_rate
    assert 13 / 4.0 <= seconds <= 13 / 2.0, f"13 words in {seconds:.2f} s: not 2 to 4 words a second"
    voiced = _voiced(samples, french.sample_rate)
    assert voiced.mean() > 0.5, f"only {voiced.mean():.0%} of the sentence is louder than -40 dBFS"
    # no silence where speech should be: the longest quiet stretch inside the sentence is a pause, not a gap
    inside = voiced[np.flatnonzero(voiced)[0]:np.flatnonzero(voiced)[-1] + 1]
    quiet = max((len(run) for run in "".join("q" if not v else " " for v in inside).split()), default=0)
    assert quiet * 0.02 <= 0.5, f"{quiet * 0.02:.2f} s of silence inside the sentence"
    assert 0.1 < np.abs(samples).max() <= 1.0


def test_the_french_voice_is_deterministic_and_reads_a_leading_minus(french):
    first = french.synthesize("-0,28 et 1,35")  # on standard input: a leading "-" is no option of the program
    assert first.tobytes() == french.synthesize("-0,28 et 1,35").tobytes()
    assert len(first) / french.sample_rate > 1.5  # "moins zéro virgule vingt-huit et un virgule trente-cinq"
    with pytest.raises(ValueError, match="empty"):
        french.synthesize("  ")


def test_without_espeak_ng_the_french_voice_is_refused_in_one_line(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(EspeakError) as error:
        resolve_espeak()
    message = str(error.value)
    assert "\n" not in message and "apt-get install espeak-ng" in message and "not on PATH" in message


def test_the_language_picks_the_voice_and_voice_is_refused_for_french(french):
    assert resolve_language_voice("fr") == french
    assert resolve_language_voice("en").model.name == "en_US-joe-medium.onnx"
    with pytest.raises(VoiceError, match="--voice .* French is narrated by espeak-ng"):
        resolve_language_voice("fr", "voice.onnx")


# --- the French narrator and its cache --------------------------------------------------------------------------
def test_a_french_narrator_reads_through_the_french_table_and_caches(tmp_path, french):
    narrator = Narrator(french, tmp_path)
    assert narrator.language == "fr"
    caption = "Le softmax transforme les scores en poids α_i. Donc q = (0,90" + NBSP + "; 0,10)."
    speech = narrator.speak(caption)
    assert (narrator.synthesized, narrator.cache_hits) == (2, 0) and speech.rate == 22050
    # each cache entry is keyed by the French spoken words
    keys = {narrator.sentence_key(spoken(sentence)) for sentence in sentences(caption)}
    assert {path.stem for path in tmp_path.iterdir()} == keys
    again = Narrator(french, tmp_path)
    assert again.speak(caption).samples.tobytes() == speech.samples.tobytes()
    assert (again.synthesized, again.cache_hits) == (0, 2) and again._voice is None
    # the entry holds what the program says for those words, as 16-bit samples
    with wave.open(str(tmp_path / f"{narrator.sentence_key('Donc q égale 0,90; 0,10.')}.wav"), "rb") as entry:
        cached = np.frombuffer(entry.readframes(entry.getnframes()), dtype="<i2")
    direct = french.synthesize("Donc q égale 0,90; 0,10.")
    assert np.array_equal(cached, np.round(direct * 32767).astype("<i2"))


def test_the_french_key_follows_the_voice_its_settings_and_its_data(tmp_path, french):
    narrator = Narrator(french, tmp_path)
    english = Narrator(resolve_language_voice("en"), tmp_path)
    assert narrator.fingerprint != english.fingerprint
    assert narrator.sentence_key("Bonjour.") != english.sentence_key("Bonjour.")
    faster = Narrator(replace(french, settings=replace(SETTINGS, rate=175)), tmp_path)
    assert faster.sentence_key("Bonjour.") != narrator.sentence_key("Bonjour.")
    # another release's data (here: the French dictionary edited) is another voice
    data = tmp_path / "data"
    for name in espeak.DATA_FILES:
        (data / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(french.data_dir / name, data / name)
    copied = Narrator(replace(french, data_dir=data), tmp_path)
    assert copied.sentence_key("Bonjour.") == narrator.sentence_key("Bonjour.")
    with open(data / "fr_dict", "ab") as handle:
        handle.write(b"\0")
    edited = Narrator(replace(french, data_dir=data), tmp_path)
    assert edited.sentence_key("Bonjour.") != narrator.sentence_key("Bonjour.")


def test_the_french_voice_is_an_input_of_a_french_narrated_clip(french):
    from rendering.pipeline import inputs

    english = inputs.narration_digest(resolve_language_voice("en"))
    assert inputs.narration_digest(french) != english
    assert inputs.narration_digest(french) == inputs.narration_digest(resolve_espeak())
    assert inputs.narration_digest(replace(french, version="9.99")) != inputs.narration_digest(french)


# --- the French scenes, narrated ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def french_narrator(tmp_path_factory):
    from rendering.narration.soundtrack import make_narrator

    return make_narrator({"voice": None, "cache_dir": str(tmp_path_factory.mktemp("speech")), "language": "fr"})


@pytest.mark.slow
@pytest.mark.parametrize("scene_id", per_scene(FRENCH_SCENES))  # in the scene's worker: its headless run is warm
def test_a_french_scene_is_spoken_by_the_french_voice_inside_its_beats(scene_id, french_narrator, monkeypatch):
    """Headless (the storyboard's clock is a render's): every beat speaks, in French, inside its span, no sentence
    runs into the next, and the spoken words hold no symbol the voice would skip or read in another language."""
    from scenes.kit.narration import PAUSE_AFTER_SPEECH
    from scenes.kit.translation import LANGUAGE_ENV_VAR
    from scenes.quality.headless import run_headless
    from scenes.registry import SCENES

    monkeypatch.setenv(LANGUAGE_ENV_VAR, "fr")
    spec = next(s for s in SCENES if s.id == scene_id)
    scene_class = getattr(__import__(spec.module, fromlist=[spec.class_name]), spec.class_name)
    monkeypatch.setattr(scene_class, "narrator", french_narrator)
    scene = run_headless(scene_class)
    beats = {record.name: record for record in scene.beat_log}
    assert {sentence.beat for sentence in scene.spoken} == set(beats)
    for sentence in scene.spoken:
        assert beats[sentence.beat].start <= sentence.start
        assert sentence.end + PAUSE_AFTER_SPEECH <= beats[sentence.beat].end + 1e-6, sentence.text
        assert sentence.speech.rate == 22050 and _voiced(sentence.speech.samples, 22050).mean() > 0.4, sentence.text
        words = spoken(sentence.text)
        assert not re.search(r"[^\w\s,.;:!?'\-]|_", words), (sentence.text, words)
    for earlier, later in zip(scene.spoken, scene.spoken[1:]):
        assert earlier.end <= later.start, f"{earlier.text!r} overlaps {later.text!r}"


def test_a_french_caption_never_breaks_at_a_no_break_space():
    """A narrated cue is cut only at an ordinary space: head_split's French cue once began with "»." (0.1 s on
    screen) and summary's with "; ", where the splitter cut at the no-break space French sets before them."""
    from scenes.kit.narration import cue_chunks

    sentence = (f"Chaque tête pose sa propre question{NNBSP}; leurs sorties sont concaténées, puis la tête 2 met "
                f"presque tout du poids de «{NBSP}soil{NBSP}» sur le mot d'avant{NNBSP}: c'est appris.")
    chunks = cue_chunks(sentence, max_chars=40)
    assert len(chunks) > 2
    assert not [chunk for chunk in chunks if chunk[0] in ";:»!?" or chunk[-1] in "«"], chunks
    assert " ".join(chunks) == sentence  # every no-break space kept where it was
