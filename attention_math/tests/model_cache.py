"""The model-cache fixture of the trained-model tests, imported by their modules.

Not a conftest.py: the suite runs these tests together with the project's tests/, whose modules import names from
their own (rootless) conftest, and a second conftest module would shadow it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh, empty model cache for one test module, so the trained-model tests really train."""
    from attention_math.learned import cache

    path = tmp_path_factory.mktemp("attention-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(cache.CACHE_ENV_VAR, str(path))
        yield path
