"""The project's cache outside the repository: one folder per kind of thing kept between runs (speech, the page's
formulas), under `$ATTENTION_CACHE_DIR`, else `~/.cache/attention-animated`. The math package's trained models use
the same root by the same rule (attention_math.learned.cache keeps its own copy: it needs nothing from rendering).
"""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV_VAR = "ATTENTION_CACHE_DIR"
DEFAULT_CACHE_ROOT = Path("~/.cache/attention-animated")


def cache_folder(kind: str) -> Path:
    """`$ATTENTION_CACHE_DIR/<kind>`, else `~/.cache/attention-animated/<kind>`."""
    configured = os.environ.get(CACHE_ENV_VAR)
    return (Path(configured).expanduser() if configured else DEFAULT_CACHE_ROOT.expanduser()) / kind
