"""The arena package: its public names, and the old module paths kept as deprecated shims."""

from __future__ import annotations

import importlib
import sys

import pytest

import boardgame_envs.arena as arena


def test_match_is_the_function_and_the_parts_live_in_the_package():
    assert callable(arena.match) and arena.match.__module__ == "boardgame_envs.arena.matches"
    assert arena.play_record.__module__ == "boardgame_envs.arena.referee"


@pytest.mark.parametrize(
    ("old", "new", "name"),
    [
        ("boardgame_envs.records", "boardgame_envs.arena.records", "GameRecord"),
        ("boardgame_envs.sprt", "boardgame_envs.arena.sprt", "SPRT"),
        ("boardgame_envs.arena_backends", "boardgame_envs.arena.backends", "Workers"),
    ],
)
def test_old_paths_warn_and_give_the_same_objects(old, new, name, monkeypatch):
    monkeypatch.delitem(sys.modules, old, raising=False)  # the warning fires on the first import only
    with pytest.warns(DeprecationWarning, match=f"{old} is deprecated: import {new} instead"):
        shim = importlib.import_module(old)
    assert getattr(shim, name) is getattr(importlib.import_module(new), name)
