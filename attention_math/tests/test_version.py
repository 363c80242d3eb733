"""The version is written once (attention_math.__version__) and moves with every change to the package.

source_hashes.txt records, per released version, a hash of the package's modules, data files and pyproject.toml.
A change to any of them without a new version fails here, with the line to add."""

from __future__ import annotations

import re
import tomllib

import attention_math
from package_files import PACKAGE_DIR, source_files, sources_hash

RECORD = PACKAGE_DIR / "tests" / "source_hashes.txt"
VERSION = re.compile(r"^(\d+)\.(\d+)\.(\d+)$")


def _recorded() -> list[tuple[str, str]]:
    rows = []
    for line in RECORD.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            version, digest = line.split()
            rows.append((version, digest))
    return rows


def _key(version: str) -> tuple[int, ...]:
    match = VERSION.match(version)
    assert match, f"{version!r} is not MAJOR.MINOR.PATCH"
    return tuple(int(part) for part in match.groups())


def test_the_version_is_written_once_and_pyproject_reads_it():
    project = tomllib.loads((PACKAGE_DIR / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"], "the version lives in attention_math/__init__.py only"
    assert project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "attention_math.__version__"}
    init = (PACKAGE_DIR / "__init__.py").read_text(encoding="utf-8")
    assert re.findall(r'^__version__ = "([^"]+)"$', init, flags=re.M) == [attention_math.__version__]
    _key(attention_math.__version__)


def test_the_hash_covers_every_module_and_the_shipped_data():
    names = {path.relative_to(PACKAGE_DIR).as_posix() for path in source_files()}
    assert {"__init__.py", "modules.py", "examples.py", "learned/translation.py", "py.typed", "data/post.toml",
            "learned/data/en_fr.tsv", "pyproject.toml"} <= names
    assert not any(name.startswith("tests/") for name in names)


def test_a_change_to_the_package_bumps_its_version():
    version, current = attention_math.__version__, sources_hash()
    recorded = dict(_recorded())
    line = f"{version} {current}"
    if version not in recorded:
        raise AssertionError(f"version {version} has no recorded source hash: add the line\n    {line}\nto {RECORD.name}")
    assert recorded[version] == current, (
        f"the package's sources changed since version {version} was recorded, but its version did not: bump "
        f"__version__ in attention_math/__init__.py, then add the line printed by this test for the new version to "
        f"tests/{RECORD.name} (now: {line})"
    )


def test_recorded_versions_only_go_up_and_end_at_the_current_one():
    versions = [version for version, _ in _recorded()]
    assert versions == sorted(versions, key=_key) and len(set(versions)) == len(versions), versions
    assert versions[-1] == attention_math.__version__
    digests = [digest for _, digest in _recorded()]
    assert len(set(digests)) == len(digests), "two versions recorded with the same sources"
