"""The shipped tables: one per ladder, rating exactly the ladder's levels, level 0 pinned, intervals around the Elo."""

from __future__ import annotations

import pytest

from boardgame_envs.ladder import LADDERS, levels
from boardgame_envs.policies import make_policy


@pytest.mark.parametrize("name", list(LADDERS))
def test_shipped_table_rates_the_ladder(name):
    rows = levels(name)
    assert [lv.spec for lv in rows] == list(LADDERS[name].specs)
    assert rows[0].elo == rows[0].low == rows[0].high == 0.0
    assert all(lv.low <= lv.elo <= lv.high and lv.games > 0 for lv in rows)
    top = make_policy(f"level:{name}/{len(rows) - 1}", seed=0)
    assert hasattr(top, "act")


def test_levels_by_game_rule_and_size():
    assert levels("gomoku", board_size=9)[1].name == "gomoku9/1"
    assert levels("gomoku")[1].name == "gomoku15/1"
    assert levels("gomoku", rule="renju")[1].name == levels("renju")[1].name == "renju/1"
