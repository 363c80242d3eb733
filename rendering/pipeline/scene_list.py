"""Load the scene registry and turn the user's scene ids into SceneSpecs.

The registry is a module with a SCENES tuple (scenes.registry by default). Tests point render.py at a registry
of tiny fixture scenes instead, so the same code path renders them.
"""

from __future__ import annotations

import difflib
import importlib
import sys
from dataclasses import dataclass
from pathlib import Path

DEFAULT_REGISTRY = "scenes.registry"


@dataclass(frozen=True)
class Registry:
    """The scene list plus where it came from (its file is one of every clip's inputs)."""

    module: str
    path: Path
    scenes: tuple  # of SceneSpec


def load_registry(module_name: str, root: Path) -> Registry:
    """Import the registry module with `root` first on sys.path; ValueError if it has no SCENES."""
    root_str = str(root)
    if sys.path[:1] != [root_str]:
        sys.path.insert(0, root_str)
    try:
        module = importlib.import_module(module_name)
    except Exception as error:  # a registry that fails to import is a bad --registry, not a render failure
        raise ValueError(f"cannot import scene registry {module_name!r}: {error}") from error
    scenes = getattr(module, "SCENES", None)
    if not scenes:
        raise ValueError(f"scene registry {module_name!r} has no SCENES")
    ids = [spec.id for spec in scenes]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise ValueError(f"scene registry {module_name!r} repeats ids: {', '.join(duplicates)}")
    return Registry(module_name, Path(module.__file__).resolve(), tuple(sorted(scenes, key=lambda s: s.order)))


def select(registry: Registry, requested: list[str]) -> list:
    """Scene ids (or 'all', or nothing = all) → SceneSpecs in registry order.

    ValueError for an unknown id names the nearest valid id and all valid ids.
    """
    by_id = {spec.id: spec for spec in registry.scenes}
    if not requested or "all" in requested:
        return list(registry.scenes)
    for scene_id in requested:
        if scene_id not in by_id:
            nearest = difflib.get_close_matches(scene_id, list(by_id), n=1, cutoff=0.5)
            hint = f" (did you mean {nearest[0]!r}?)" if nearest else ""
            raise ValueError(f"unknown scene id {scene_id!r}{hint}; valid: all, {', '.join(by_id)}")
    wanted = set(requested)
    return [spec for spec in registry.scenes if spec.id in wanted]
