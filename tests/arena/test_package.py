"""The arena package: its public names (the old module paths: tests/test_compat.py)."""

from __future__ import annotations

import boardgame_envs.arena as arena


def test_match_is_the_function_and_the_parts_live_in_the_package():
    assert callable(arena.match) and arena.match.__module__ == "boardgame_envs.arena.matches"
    assert arena.play_record.__module__ == "boardgame_envs.arena.referee"
