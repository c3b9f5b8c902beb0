"""rate() under an opening rule: every game under it, the levels' published Elo said to come from games without one."""

from __future__ import annotations

import json

import pytest

from boardgame_envs.arena.records import from_sgf


@pytest.fixture
def swap2_ladder(tmp_path, monkeypatch):
    """A two-level 9x9 freestyle ladder (random at 0, greedy at +300) whose table lives in ``tmp_path``."""
    from boardgame_envs.ladder import ladders as ladders_module
    from boardgame_envs.ladder.ladders import LADDERS, Ladder

    ladder = Ladder("tinyswap", "gomoku", 9, "freestyle", ("random", "greedy"))
    monkeypatch.setattr(ladders_module, "DATA", tmp_path)
    monkeypatch.setitem(LADDERS, "tinyswap", ladder)
    rows = [{"spec": s, "elo": e, "low": e - 40.0, "high": e + 40.0, "games": 100} for s, e in (("random", 0.0),
                                                                                               ("greedy", 300.0))]
    table = {"ladder": "tinyswap", "game": "gomoku", "board_size": 9, "rule": "freestyle", "games": 100,
             "command": "by hand", "machine": "none", "updated": "now", "levels": rows,
             "adjacent": [{"from": "random", "to": "greedy", "diff": 300.0, "half_width": 50.0, "games": 50,
                           "more_games_for_target": 0}]}  # fmt: skip
    ladder.table_path.write_text(json.dumps(table))
    return ladder


def test_rate_under_an_opening_rule_plays_it_and_says_the_levels_were_rated_without(swap2_ladder, tmp_path):
    from boardgame_envs.ladder import rate

    rating = rate("greedy", "tinyswap", games=4, progress=False, opening_rule="swap2", save_games=tmp_path / "g")
    assert rating.games == 4 and rating.opening_rule == "swap2"
    assert "played under the swap2 opening rule" in str(rating) and "games without one" in str(rating)
    records = [from_sgf(p.read_text()) for p in sorted((tmp_path / "g").glob("*.sgf"))]
    assert len(records) == 4 and all(r.opening_rule == "swap2" and r.opening_moves >= 4 for r in records)
    with pytest.raises(ValueError, match="under freestyle use swap2"):
        rate("greedy", "tinyswap", games=2, progress=False, opening_rule="taraguchi10")


def test_rate_leaves_out_engine_levels_under_rules_engines_cannot_play():
    from boardgame_envs.ladder.ladders import Level
    from boardgame_envs.ladder.rating import playable_levels

    table = [Level("x/0", 0, "random", 0.0, 0.0, 0.0, 0),
             Level("x/1", 1, "engine:rapfi:nodes=2000", 900.0, 880.0, 920.0, 0, "rapfi")]
    playable, note = playable_levels(table, "soosorv8")
    assert [lv.name for lv in playable] == ["x/0"] and "take part in no opening rule but swap2" in note
