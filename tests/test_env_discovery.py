"""A new game's env module needs no line in the package's __init__: every root module named <game>_v<N> is imported."""

from __future__ import annotations

import sys

import boardgame_envs
from boardgame_envs import _env_module_names
from boardgame_envs.games.catalog import ENVS


def test_env_modules_are_found_by_their_names(tmp_path):
    for name in ("strip_v0.py", "connect_six_v12.py", "notes.py", "v0.py", "Strip_v0.py", "strip_v0x.py"):
        (tmp_path / name).write_text("")
    assert _env_module_names([str(tmp_path)]) == ["connect_six_v12", "strip_v0"]


def test_every_env_module_at_the_root_is_imported_and_registered():
    found = _env_module_names(boardgame_envs.__path__)
    assert found and all(f"boardgame_envs.{name}" in sys.modules for name in found)
    assert {entry.module for entry in ENVS.values()} == {f"boardgame_envs.{name}" for name in found}
