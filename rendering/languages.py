"""The explainer's languages as render.py sees them, from scenes/kit/translation.py without importing manim.

`scenes.kit` imports manim on its first import, and render.py's up-to-date path must not (it answers in about a
second). translation.py itself needs only the standard library (and Babel, inside the functions that compile a
catalog), so it is loaded here from its file as a module of its own: one list of languages, one environment
variable, one compiler, for the command line, the planner and the workers alike.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from rendering import REPO_ROOT

_MODULE = "rendering._translation"


def _translation_file() -> Path:
    """scenes/kit/translation.py beside this rendering/, else in the importable `scenes` package (a cluster
    worker may run a copy of rendering/ alone, with the project installed), found without importing it."""
    local = REPO_ROOT / "scenes" / "kit" / "translation.py"
    if local.exists():
        return local
    spec = importlib.util.find_spec("scenes")
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations))) / "kit" / "translation.py"
    return local


TRANSLATION_FILE = _translation_file()


def _load():
    if _MODULE in sys.modules:
        return sys.modules[_MODULE]
    spec = importlib.util.spec_from_file_location(_MODULE, TRANSLATION_FILE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[_MODULE] = module
    spec.loader.exec_module(module)
    return module


translation = _load()
LANGUAGES: tuple[str, ...] = tuple(translation.LANGUAGES)
DEFAULT_LANGUAGE = LANGUAGES[0]  # English, the source language: its clips sit where clips always have
LANGUAGE_ENV_VAR: str = translation.LANGUAGE_ENV_VAR
#: What each language is called in itself, for the page's language switch.
NAMES = {"en": "English", "fr": "Français"}


#: Marks a message written here for extraction (`pybabel extract`, the language gate); rendering.site.interface's
#: `text` translates it, strictly (a message the catalog lacks is an error, never English in a French output).
N_ = translation.N_


def catalog(language: str, root: Path = REPO_ROOT) -> Path:
    """The language's message catalog (.po) under the project at `root` (scenes/locale/...)."""
    relative = translation.catalog_path(language).relative_to(TRANSLATION_FILE.parents[2])  # that project's root
    return root / relative


def compile_catalog(language: str) -> Path | None:
    """Compile the language's catalog so a worker finds its .mo (None for English, which has none);
    FileNotFoundError naming the catalog when it is missing."""
    if language == DEFAULT_LANGUAGE:
        return None
    return translation.compile_catalog(translation.check_language(language))
