"""External levels: an engine named by spec, rated by the same build, played by ``rate`` only where configured."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

from boardgame_envs.gomocup.engines import EngineNotConfigured
from boardgame_envs.ladder.build import build, plan_round, rate_linked
from boardgame_envs.ladder.games import GameResult, read_log
from boardgame_envs.ladder.ladders import LADDERS, Ladder, LadderError, engine_of, levels, load_table
from boardgame_envs.ladder.rating import Rating, playable_levels
from boardgame_envs.ladder.report import format_table

sys.path.insert(0, str(Path(__file__).parents[1] / "gomocup"))
from gomocup_helpers import launcher  # noqa: E402  (the fake engines of the Gomocup tests)

FAKE_LEVEL = "engine:fake:nodes=1000,threads=1"
EXT9 = Ladder("ext9", "gomoku", 9, "freestyle", ("random", "greedy:epsilon=0.5", FAKE_LEVEL))


@pytest.fixture
def ext9(data_dir, monkeypatch):
    monkeypatch.setitem(LADDERS, "ext9", EXT9)
    monkeypatch.delenv("BOARDGAME_ENVS_FAKE", raising=False)
    return EXT9


def test_an_external_level_names_its_engine():
    assert engine_of("engine:rapfi:nodes=4000,threads=1") == "rapfi"
    assert engine_of("alphabeta:nodes=4000") is None and engine_of("pbrain:/x/engine:nodes=3") is None
    assert EXT9.engines == ("fake",) and LADDERS["gomoku8"].engines == () and LADDERS["connect_four"].engines == ()
    for name, first in (("renju", 15), ("gomoku15", 15), ("gomoku9", 13)):
        assert LADDERS[name].engines == ("rapfi",)
        top = [engine_of(s) for s in LADDERS[name].specs]
        assert top[-1] == "rapfi" and top.index("rapfi") == first  # above every built-in level
        assert all(e is None for e in top[:first]) and all(e == "rapfi" for e in top[first:])
    assert LADDERS["gomoku9"].specs[13:] == ("engine:rapfi:nodes=2000,threads=1", "engine:rapfi:nodes=256000,threads=1")


def test_a_build_needing_an_engine_not_configured_stops_before_any_game(ext9):
    with pytest.raises(EngineNotConfigured, match="BOARDGAME_ENVS_FAKE"):
        build(ext9, chunk=2, max_rounds=1, plot=False)
    assert read_log(ext9.log_path) == []


def test_a_build_rates_the_external_level_and_records_the_engine(ext9, tmp_path, monkeypatch):
    monkeypatch.setenv("BOARDGAME_ENVS_FAKE", launcher(tmp_path, "good"))
    build(ext9, chunk=2, max_rounds=1, plot=False)
    table = json.loads(ext9.table_path.read_text())
    assert [lv["spec"] for lv in table["levels"]] == list(ext9.specs)
    assert table["engines"]["fake"]["about"]["name"] == "fake"  # what the binary said of itself
    rated = levels("ext9")
    assert [lv.external for lv in rated] == [False, False, True] and rated[-1].engine == "fake"
    games = read_log(ext9.log_path)
    assert any(FAKE_LEVEL in (r.a, r.b) for r in games)


def _table(ladder: Ladder, specs: list[str]) -> dict:
    rows = [{"spec": s, "elo": 100.0 * i, "low": 100.0 * i - (i > 0) * 30, "high": 100.0 * i + (i > 0) * 30,
             "games": 10} for i, s in enumerate(specs)]  # fmt: skip
    steps = [{"from": a, "to": b, "diff": 100.0, "half_width": 40.0, "games": 10, "more_games_for_target": 0}
             for a, b in zip(specs, specs[1:])]  # fmt: skip
    return {"ladder": ladder.name, "games": 20, "command": "by hand", "machine": "none", "updated": "now",
            "levels": rows, "adjacent": steps}  # fmt: skip


def test_a_table_may_leave_out_external_levels_not_rated_yet_but_no_built_in_one(ext9):
    ext9.table_path.write_text(json.dumps(_table(ext9, list(ext9.specs[:2]))))
    assert [lv["spec"] for lv in load_table(ext9)["levels"]] == list(ext9.specs[:2])
    ext9.table_path.write_text(json.dumps(_table(ext9, list(ext9.specs[:1]))))
    with pytest.raises(LadderError, match="rates other levels"):
        load_table(ext9)


def test_a_level_added_on_top_gets_games_and_the_rated_pairs_below_do_not(ext9):
    a, b, c = ext9.specs
    log = [GameResult(a, b, i, i % 2 == 0, float(i % 4 != 0), 20) for i in range(400)]  # b scores 1/4 of 400
    plan = plan_round(ext9, log, rate_linked(ext9, log), chunk=20, target=50.0)
    assert [(x, y) for x, y, _ in plan] == [(b, c), (a, c)]  # the new pair, and its link two levels down
    assert plan[0][2] == 20 and plan[1][2] == 6


def test_rate_plays_external_levels_only_where_their_engine_is_configured(ext9, tmp_path, monkeypatch):
    ext9.table_path.write_text(json.dumps(_table(ext9, list(ext9.specs))))
    table = levels("ext9")
    playable, note = playable_levels(table)
    assert [lv.spec for lv in playable] == list(ext9.specs[:2])
    assert "ext9/2 .. ext9/2" in note and "--engine fake=PATH" in note and "BOARDGAME_ENVS_FAKE" in note
    above = Rating("greedy", "ext9", math.inf, 180.0, math.inf, 4, {"ext9/1": [4, 0, 0]}, top=playable[-1],
                   bottom=playable[0], above=note)  # fmt: skip
    assert "above the top of the ladder" in above.describe() and "note: the ladder goes on above" in str(above)
    below = Rating("random", "ext9", 50.0, -20.0, 120.0, 4, {"ext9/1": [1, 0, 3]}, top=playable[-1],
                   bottom=playable[0], above=note)  # fmt: skip
    assert "note" not in str(below)  # a player the built-in levels bound needs no engine
    monkeypatch.setenv("BOARDGAME_ENVS_FAKE", launcher(tmp_path, "good"))
    playable, note = playable_levels(table)
    assert [lv.spec for lv in playable] == list(ext9.specs) and note == ""


def test_the_shipped_gomoku9_ladder_climbs_into_rapfi_only_where_it_is_configured(monkeypatch):
    """gomoku9's table rates its Rapfi levels above the built-in top; without Rapfi, rate stops there and says so."""
    monkeypatch.delenv("BOARDGAME_ENVS_RAPFI", raising=False)
    table = levels("gomoku9")
    assert [(lv.name, lv.engine) for lv in table[12:]] == [("gomoku9/12", None), ("gomoku9/13", "rapfi"),
                                                         ("gomoku9/14", "rapfi")]  # fmt: skip
    playable, note = playable_levels(table)
    assert playable == table[:13]
    assert "gomoku9/13 .. gomoku9/14" in note and "--engine rapfi=PATH" in note and "BOARDGAME_ENVS_RAPFI" in note


def test_rate_refuses_an_engine_that_ignores_its_node_budget(ext9, tmp_path, monkeypatch):
    ext9.table_path.write_text(json.dumps(_table(ext9, list(ext9.specs))))
    monkeypatch.setenv("BOARDGAME_ENVS_FAKE", launcher(tmp_path, "random"))
    with pytest.raises(ValueError, match="different moves in two runs"):
        playable_levels(levels("ext9"))


def test_an_external_level_without_its_engine_is_one_line_on_the_command_line(ext9, capsys):
    from boardgame_envs.cli import main

    assert main(["arena", "gomoku", "--board-size", "9", "--rule", "freestyle", "level:ext9/2", "random",
                 "--games", "2"]) == 2  # fmt: skip
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "engine 'fake' is not configured" in err
    assert main(["rate", "random", "gomoku", "--engine", "fake=/no/such/file"]) == 2
    assert "no file at /no/such/file" in capsys.readouterr().err


def test_a_game_lost_by_a_fault_is_logged_as_such(ext9, tmp_path, monkeypatch):
    monkeypatch.setenv("BOARDGAME_ENVS_FAKE", launcher(tmp_path, "fixed", "0,0"))  # plays 0,0 again: illegal
    monkeypatch.setattr("boardgame_envs.ladder.build.prepare_engines", lambda ladder, plan: {})
    build(ext9, chunk=2, max_rounds=1, plot=False)
    faults = [r.fault for r in read_log(ext9.log_path) if FAKE_LEVEL in (r.a, r.b)]
    assert faults and all(f == "illegal move" for f in faults)  # its second move is on its first: every game
    assert json.loads(ext9.table_path.read_text())["forfeits"] == sum(1 for f in faults if f)
    assert f"{len(faults)} game(s) lost by an illegal move, not played out" in format_table(ext9)  # the arena's words
