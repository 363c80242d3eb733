"""Where learned weights live between runs: a content-addressed file outside the repo.

The file name is a sha256 over everything that decides the result (corpus/task bytes, hyper-parameters,
torch version and the training code itself), so a change to any of them trains afresh instead of
silently reusing stale weights. Writes are atomic (temp file + os.replace) so a killed run never leaves
a half-written file that a later run would trust.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import torch

CACHE_ENV_VAR = "ATTENTION_CACHE_DIR"
DEFAULT_CACHE_DIR = Path("~/.cache/attention-animated")


def cache_dir() -> Path:
    """``$ATTENTION_CACHE_DIR`` if set, else ``~/.cache/attention-animated``."""
    configured = os.environ.get(CACHE_ENV_VAR)
    return Path(configured).expanduser() if configured else DEFAULT_CACHE_DIR.expanduser()


def cache_key(kind: str, data: bytes, hparams: dict[str, Any], code: tuple[Path, ...] = ()) -> str:
    """sha256 of the model kind, training data, hyper-parameters, torch version and training source files."""
    digest = hashlib.sha256()
    for part in (
        kind.encode(),
        data,
        json.dumps(hparams, sort_keys=True).encode(),
        torch.__version__.encode(),
        *(Path(p).read_bytes() for p in code),
    ):
        digest.update(len(part).to_bytes(8, "little"))
        digest.update(part)
    return digest.hexdigest()


def cache_path(kind: str, key: str) -> Path:
    return cache_dir() / f"{kind}-{key}.pt"


def load(path: Path) -> dict[str, Any] | None:
    """The stored payload, or None when absent or unreadable (then the caller retrains and overwrites it)."""
    if not path.is_file():
        return None
    try:
        payload = torch.load(path, map_location="cpu", weights_only=True)
    except Exception:  # a corrupt or foreign file is a cache miss, never a crash
        return None
    return payload if isinstance(payload, dict) else None  # a file holding something else is a miss too


def save(path: Path, payload: dict[str, Any]) -> None:
    """Write atomically: readers see either the old file or the complete new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            torch.save(payload, handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
