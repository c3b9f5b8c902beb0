"""A real engine: Rapfi (build it yourself, docs/engines.md), named by BOARDGAME_ENVS_RAPFI; skipped without it."""

from __future__ import annotations

import functools
import os

import pytest

from boardgame_envs import gomoku_v0
from boardgame_envs.arena import play_game
from boardgame_envs.gomocup import GomocupEngine
from boardgame_envs.policies import GreedyPolicy, RandomPolicy, make_policy

RAPFI = os.environ.get("BOARDGAME_ENVS_RAPFI")
pytestmark = pytest.mark.skipif(not RAPFI, reason="set BOARDGAME_ENVS_RAPFI to a Rapfi binary (docs/engines.md)")


def rapfi(**options) -> GomocupEngine:
    spec = ",".join(f"{k}={v}" for k, v in {"nodes": 1000, "threads": 1, "turn_ms": 5000, **options}.items())
    return make_policy(f"pbrain:{RAPFI}:{spec}")


def test_full_games_against_a_fast_opponent_without_forfeits():
    engine = rapfi()
    env_fn = functools.partial(gomoku_v0.env, board_size=15, rule="renju")
    for seed in range(4):
        opponent = GreedyPolicy(seed=seed) if seed < 2 else RandomPolicy(seed=seed)
        players = (engine, opponent) if seed % 2 == 0 else (opponent, engine)
        winner, moves = play_game(env_fn, *players)
        assert winner == (1 if seed % 2 == 0 else 2), moves  # Rapfi wins every game, none by a forfeit
    engine.close()


def test_a_node_budget_on_one_thread_plays_the_same_moves_twice():
    games = []
    for _ in range(2):
        engine = rapfi()
        env_fn = functools.partial(gomoku_v0.env, board_size=15, rule="renju")
        games.append(play_game(env_fn, engine, GreedyPolicy(seed=0))[1])
        engine.close()
    assert games[0] == games[1]


def test_the_named_engine_is_the_published_external_level(monkeypatch):
    """``engine:rapfi`` finds the binary by name, passes the node-budget check, and is the build the tables name."""
    from boardgame_envs.gomocup.engines import KNOWN, check_node_budget

    monkeypatch.setenv("BOARDGAME_ENVS_RAPFI", RAPFI)
    check = check_node_budget("engine:rapfi:nodes=2000,threads=1")
    assert check.seconds < 2.0 and check.about["name"] == "Rapfi" and KNOWN["rapfi"].commit


def test_rate_climbs_into_the_gomoku9_rapfi_levels_where_rapfi_is_configured(monkeypatch):
    """With the engine named, every gomoku9 level is playable (the node-budget check passed) and no note is left."""
    from boardgame_envs.ladder import levels
    from boardgame_envs.ladder.rating import playable_levels

    monkeypatch.setenv("BOARDGAME_ENVS_RAPFI", RAPFI)
    table = levels("gomoku9")
    playable, note = playable_levels(table)
    assert playable == table and note == "" and [lv.engine for lv in table[13:]] == ["rapfi", "rapfi"]
    from boardgame_envs.arena import match
    from boardgame_envs.ladder import LADDERS

    result = match(LADDERS["gomoku9"].env_fn(), "level:gomoku9/13", "greedy", games=2, progress=False)
    # 9x9 games played to their end (from the empty board Rapfi and greedy may well fill the board), no forfeit
    reasons = [r.reason for r in result.records]
    assert not result.faults() and all(r.finished for r in result.records) and result.losses == 0, reasons


@pytest.mark.parametrize("rule", ["freestyle", "standard"])
def test_a_match_under_swap2_goes_end_to_end(rule):
    """SWAP2BOARD as Rapfi answers it (its three stones, SWAP or its 4th stone or two more, SWAP or its 6th), then
    normal play: a pair of games against greedy, no game lost by a fault, the records under swap2."""
    from boardgame_envs.arena import match
    from boardgame_envs.envs.factory import make_env

    env_fn = functools.partial(make_env, "gomoku", 15, 5, rule, opening_rule="swap2")
    result = match(env_fn, f"pbrain:{RAPFI}:nodes=1000,threads=1,turn_ms=5000", "greedy", games=2, progress=False)
    assert not result.faults() and result.wins >= 1, [r.reason for r in result.records]
    assert all(r.opening_rule == "swap2" and r.opening_moves >= 4 for r in result.records)
