"""The weight cache: location, key, atomic writes. (Cache hits of real models are tested in the slow files.)"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from attention_math.learned import cache, heads, translation
from attention_math.learned.heads_task import HeadsTask


def test_cache_dir_follows_the_env_var(monkeypatch, tmp_path):
    monkeypatch.setenv(cache.CACHE_ENV_VAR, str(tmp_path))
    assert cache.cache_dir() == tmp_path
    monkeypatch.delenv(cache.CACHE_ENV_VAR)
    assert cache.cache_dir() == Path.home() / ".cache" / "attention-animated"


def test_translator_key_is_stable_and_changes_with_every_hyper_parameter():
    base = translation.TranslatorConfig()
    assert translation.config_key(base) == translation.config_key(translation.TranslatorConfig())
    changed = [
        translation.TranslatorConfig(epochs=base.epochs + 1),
        translation.TranslatorConfig(hidden_dim=base.hidden_dim * 2),
        translation.TranslatorConfig(learning_rate=base.learning_rate / 2),
        translation.TranslatorConfig(seed=base.seed + 1),
        translation.TranslatorConfig(snapshots=base.snapshots + 1),
    ]
    keys = {translation.config_key(c) for c in changed}
    assert len(keys) == len(changed) and translation.config_key(base) not in keys


def test_heads_key_changes_with_hyper_parameters_and_task():
    base = heads.HeadsConfig()
    keys = {
        heads.config_key(base),
        heads.config_key(heads.HeadsConfig(steps=base.steps + 1)),
        heads.config_key(heads.HeadsConfig(n_heads=4)),
        heads.config_key(heads.HeadsConfig(task=HeadsTask(distant_offset=4))),
    }
    assert len(keys) == 4


def test_key_depends_on_data_and_torch_version(monkeypatch):
    key = cache.cache_key("k", b"corpus", {"a": 1})
    assert cache.cache_key("k", b"corpus!", {"a": 1}) != key
    assert cache.cache_key("k", b"corpus", {"a": 2}) != key
    assert cache.cache_key("other", b"corpus", {"a": 1}) != key
    monkeypatch.setattr(torch, "__version__", "0.0.0")
    assert cache.cache_key("k", b"corpus", {"a": 1}) != key


def test_save_then_load_round_trips_and_leaves_no_temp_file(tmp_path):
    path = tmp_path / "sub" / "model.pt"
    cache.save(path, {"w": torch.arange(3.0), "steps": [1, 2]})
    loaded = cache.load(path)
    assert torch.equal(loaded["w"], torch.arange(3.0)) and loaded["steps"] == [1, 2]
    assert sorted(p.name for p in path.parent.iterdir()) == ["model.pt"]


def test_missing_or_corrupt_file_is_a_miss(tmp_path):
    assert cache.load(tmp_path / "absent.pt") is None
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"not a torch file")
    assert cache.load(bad) is None


def test_a_failed_write_keeps_the_old_file_and_cleans_up(tmp_path, monkeypatch):
    path = tmp_path / "model.pt"
    cache.save(path, {"version": 1})

    def broken_save(obj, handle):
        handle.write(b"half a file")
        raise OSError("disk full")

    monkeypatch.setattr(cache.torch, "save", broken_save)
    with pytest.raises(OSError, match="disk full"):
        cache.save(path, {"version": 2})
    monkeypatch.undo()
    assert cache.load(path) == {"version": 1}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.pt"]
