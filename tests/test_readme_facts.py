"""What the README states about the package is true of it: every path its layout names exists, and its list of
Gymnasium ids is every id the package registers; the recipes' docs do not say connect four lacks a batched engine."""

from __future__ import annotations

import re
from pathlib import Path

import gymnasium

import boardgame_envs

ROOT = Path(boardgame_envs.__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def test_every_path_of_the_layout_exists():
    layout = README.split("## Layout", 1)[1].split("```")[1]
    paths = re.findall(r"^(\S+)", layout, re.M)
    assert "boardgame_envs/vector/" in paths and len(paths) >= 10
    assert [p for p in paths if not (ROOT / p).exists()] == []


def test_the_readme_names_registered_gymnasium_ids_and_points_to_the_whole_table():
    """The README names ids as examples and sends the reader to docs/single_agent.md's table, which
    docs/make_tables.py writes from the catalog (a hand list here would go stale with the next game)."""
    ids = {k.split("/", 1)[1] for k in gymnasium.registry if k.startswith("boardgame_envs/")}
    listed = re.search(r"Ids: (.*?)\. See `examples/`", README, re.S)
    assert listed is not None
    named = set(re.findall(r"`([A-Za-z]+-v\d+)`", listed[1]))
    assert {"TicTacToe-v0", "ConnectFour-v0"} <= named <= ids
    assert "one or more per catalog game" in listed[1] and "the table in docs/single_agent.md" in listed[1]


def test_no_page_says_connect_four_has_no_batched_engine():
    from boardgame_envs.games.catalog import GAMES

    assert GAMES["connect_four"].game().kernels() is not None  # it has one
    pages = [ROOT / "baselines" / "ppo_sb3_pool.py", ROOT / "docs" / "selfplay_recipes.md"]
    for page in pages:
        assert "no batched engine" not in page.read_text(), page
