"""Suite-wide rules.

A skipped test is not a passed test: any skip (for example manim's frames_comparison skipping on cairo < 1.18)
fails the whole run. manim's graphical-test options are registered here because manim defines them only in
its own test suite.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


#: The scenes laid out by the layout engine (scenes.kit.compose), held to the story gate in every frame and example.
STORY_GATED = ("coffee_cafe", "soft_formula", "summary", "teacher_forcing", "qkv_scale", "weight_free",
               "causal_triangle", "head_split", "dropout_weights", "learned_alignment", "bottleneck",
               "learned_heads")


def per_scene(values, scene_id=lambda value: value, name=None) -> list:
    """Parameters of one scene each, grouped by scene: under pytest-xdist (`--dist loadgroup`) every test of one scene
    runs in the worker that already holds that scene's cached headless run (`inspect_scene`), and the scenes spread
    over the workers. `name` gives a parameter's test id (default: its scene id)."""
    name = name or scene_id
    return [pytest.param(value, id=name(value), marks=pytest.mark.xdist_group(f"scene-{scene_id(value)}"))
            for value in values]


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    """A fresh, empty model cache for one test module, so the trained-model tests really train."""
    from attention_math.learned import cache

    path = tmp_path_factory.mktemp("attention-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(cache.CACHE_ENV_VAR, str(path))
        yield path


def pytest_configure(config):
    """Each pytest-xdist worker gives manim its own media folder. Manim caches a compiled Typst text as
    media/Tex/<hash>.svg and writes it in place, so a second process that finds the file half-written reads an
    empty SVG (ParseError); the workers share no cache file that way."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        from manim import config as manim_config

        manim_config.media_dir = tempfile.mkdtemp(prefix=f"attention-tests-{worker}-")


#: The modules that run longest (minutes of headless inspection per edge example): started before the other slow ones.
LONGEST_MODULES = ("test_quality_gates_examples.py",)


def _uses_a_module_fixture(item: pytest.Item) -> bool:
    info = getattr(item, "_fixtureinfo", None)
    return info is not None and any(defs[-1].scope in ("module", "package")
                                    for defs in info.name2fixturedefs.values() if defs)


#: The quick inner loop (`./dev.sh test -m quick`): the math package, the command line, the layout engine, and one
#: scene (coffee_cafe) through every gate in each frame. Slow tests are never quick.
QUICK_MODULES = ("test_render_args.py", "test_example_spec.py", "test_kit_compose.py", "test_story_gate.py",
                 "test_math_distribution.py")
QUICK_FOLDER = ROOT / "attention_math" / "tests"
QUICK_SCENE = "coffee_cafe"


def _quick(item: pytest.Item) -> bool:
    if item.get_closest_marker("slow"):
        return False
    if QUICK_FOLDER in item.path.parents:
        return True
    if item.path.name not in QUICK_MODULES:
        return False
    scene = _scene_of(item)
    return scene is None or scene == QUICK_SCENE


def _scene_of(item: pytest.Item) -> str | None:
    """The scene a test is parametrized by: its `scene_id`, or the scene group `per_scene` put it in."""
    params = getattr(item, "callspec", None)
    if params is not None and isinstance(params.params.get("scene_id"), str):
        return params.params["scene_id"]
    group = item.get_closest_marker("xdist_group")
    name = (group.args[0] if group.args else group.kwargs.get("name", "")) if group else ""
    return name.removeprefix("scene-") if name.startswith("scene-") else None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """How the tests spread over the pytest-xdist workers (`--dist loadgroup`).

    - The tests of a module that share a module-scoped fixture (a rendered deck, a trained model, a fresh cache) run
      in one worker, so the fixture is made once, not once per worker.
    - A test parametrized by a registered scene's id (`scene_id`) that names no group joins its scene's group, as
      `per_scene` puts it: its headless run of the post's scene (`inspect_scene`, cached per process) is then the
      one the scene's other tests made in that worker, not made again in the other (test_story_gate's post cases
      in every frame ran apart from their scenes' runs).
    - The slow tests start first (longest first packs the two workers best: the short tests fill in at the end).
    """
    from scenes.registry import scene_ids

    registered = set(scene_ids())
    for item in items:
        if _quick(item):
            item.add_marker(pytest.mark.quick)
        if item.get_closest_marker("xdist_group"):
            continue
        scene = _scene_of(item)
        if scene in registered:
            item.add_marker(pytest.mark.xdist_group(f"scene-{scene}"))
        elif _uses_a_module_fixture(item):
            item.add_marker(pytest.mark.xdist_group(f"module-{item.module.__name__}"))
    items.sort(key=lambda item: (not item.get_closest_marker("slow"), item.path.name not in LONGEST_MODULES))


@pytest.hookimpl(specname="pytest_collection_modifyitems", trylast=True)
def pytest_keep_load_groups_whole(config, items):
    """Keep `--dist loadgroup`'s groups whole on pytest 9.

    pytest-xdist 3.8 names a test's group by appending "@<group>" to `item._nodeid`, but pytest 9 reads a node's
    id from `item._id`, so the suffix never reached the scheduler: the tests of one scene spread over both
    workers and each ran the scene's headless inspection again. The suffix is added here, the way xdist means to,
    where xdist's own attempt did not take."""
    if not getattr(config.option, "loadgroup", False):  # set in the workers of a `--dist loadgroup` run
        return
    from _pytest.nodeid import coerce_node_id

    for item in items:
        names = sorted({str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                        for mark in item.iter_markers("xdist_group")})
        if names and "@" not in item.nodeid.rpartition("]")[2]:
            item._id = coerce_node_id(f"{item.nodeid}@{'_'.join(names)}")


def pytest_addoption(parser):
    parser.addoption("--set_test", action="store_true", default=False,
                     help="regenerate the pixel-regression control data instead of comparing")
    parser.addoption("--show_diff", action="store_true", default=False,
                     help="show a diff image when a frame comparison fails")


def pytest_sessionfinish(session, exitstatus):
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter else []
    if skipped and exitstatus == 0:
        names = ", ".join(report.nodeid for report in skipped[:10])
        sys.stderr.write(f"\nFAILING THE RUN: {len(skipped)} test(s) skipped ({names}); a skip is not a pass.\n")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
