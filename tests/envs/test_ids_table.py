"""docs/single_agent.md's table of ids names every Gymnasium id the package registers, and each row's batched
path (``vector.make(game, n)``) makes that game's batched engine."""

from __future__ import annotations

import re
from pathlib import Path

import gymnasium

import boardgame_envs  # noqa: F401 (registers the ids)
from boardgame_envs import vector

PAGE = Path(__file__).resolve().parents[2] / "docs" / "single_agent.md"


def rows() -> dict[str, str]:
    """``id -> batched cell`` of the page's ids table."""
    section = PAGE.read_text().split("## Ids", 1)[1].split("\n## ", 1)[0]
    found = {}
    for line in section.splitlines():
        m = re.match(r"\| `(boardgame_envs/[\w-]+)` \|.*\| (.*) \|$", line)
        if m:
            found[m[1]] = m[2]
    return found


def test_the_ids_table_names_every_gymnasium_id():
    registered = {key for key, spec in gymnasium.registry.items()
                  if key.startswith("boardgame_envs/") and "single_agent" in str(spec.entry_point)}  # fmt: skip
    assert "boardgame_envs/ConnectFour-v0" in registered
    assert set(rows()) == registered


def test_each_rows_batched_path_makes_its_game():
    for env_id, cell in rows().items():
        game = re.fullmatch(r'`vector\.make\("(\w+)", n(?:, .*)?\)`', cell)
        assert game, (env_id, cell)
        expected = gymnasium.spec(env_id).kwargs["game"]
        assert game[1] == expected, (env_id, game[1], expected)
        vec = vector.make(game[1], 2, **({"board_size": 9} if game[1] == "gomoku" else {}))
        assert vec.reset(seed=0).shape[0] == 2
