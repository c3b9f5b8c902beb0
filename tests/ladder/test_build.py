"""Building a ladder: rounds planned from the log, resumable, the same games whatever the interruption."""

from __future__ import annotations

import json

import pytest
from lock_holders import held_elsewhere, left_by_a_killed_holder

from boardgame_envs.ladder.build import build, games_needed, main, plan_round
from boardgame_envs.ladder.games import read_log
from boardgame_envs.ladder.ladders import LADDERS, levels

from .conftest import TINY


def _games(path):
    return sorted((r.a, r.b, r.index, r.score, r.moves) for r in read_log(path))


def test_a_killed_build_resumes_and_plays_the_same_games(data_dir):
    build(TINY, chunk=6, max_rounds=1, plot=False)
    full = _games(TINY.log_path)
    assert len(full) == 2 * 6 + 2  # neighbours 6 games each; the pair two apart 2
    # Kill it half-way: keep some games, and a line cut short by the kill.
    lines = TINY.log_path.read_text().splitlines()
    TINY.log_path.write_text("\n".join(lines[:5]) + "\n" + lines[5][:17])
    assert len(read_log(TINY.log_path)) == 5
    build(TINY, chunk=6, max_rounds=1, plot=False)
    assert _games(TINY.log_path) == full


def test_the_table_is_published_and_read_back(data_dir):
    build(TINY, chunk=4, max_rounds=1, plot=False, command="cmd")
    table = json.loads(TINY.table_path.read_text())
    assert table["command"] == "cmd" and table["games"] == 10 and len(table["adjacent"]) == 2
    rows = levels("tiny")
    assert [lv.name for lv in rows] == ["tiny/0", "tiny/1", "tiny/2"]
    assert rows[0].elo == 0 and rows[0].low == rows[0].high == 0
    assert all(lv.low <= lv.elo <= lv.high for lv in rows)


def test_rounds_go_only_to_pairs_still_too_wide(data_dir):
    build(TINY, chunk=4, max_rounds=1, plot=False)
    from boardgame_envs.ladder.build import rate_ladder

    log = read_log(TINY.log_path)
    ratings = rate_ladder(TINY, log)
    wide = plan_round(TINY, log, ratings, chunk=4, target=50)
    assert {(a, b) for a, b, _ in wide} >= {("random", "greedy:epsilon=0.5"), ("greedy:epsilon=0.5", "perfect")}
    assert plan_round(TINY, log, ratings, chunk=4, target=10_000) == []


def test_games_needed_scales_with_the_square_of_the_width():
    assert games_needed(100, 50, 50) == 0
    assert games_needed(100, 100, 50) == 300  # four times the games for half the width
    assert games_needed(10, 51, 50) >= 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [(["tiny-nope"], "unknown ladder 'tiny-nope'; ladders: tictactoe, gomoku8, gomoku9"), ([], "required: LADDER"),
     (["tictactoe", "--jobs", "999"], "--jobs must be 1.."), (["tictactoe", "--jobs", "0"], "--jobs must be 1.."),
     (["tictactoe", "--jobs", "two"], "invalid int value: 'two'"), (["tictactoe", "--chunk", "3"], "even number"),
     (["tictactoe", "--backend", "x"], "unknown backend 'x'; expected one of local, ray"),
     (["tictactoe", "--backend", "ray", "--jobs", "0"], "--jobs must be at least 1"),
     (["tictactoe", "--rounds", "0"], "--rounds must be at least 1"), (["tictactoe", "--minutes", "0"], "--minutes"),
     (["tictactoe", "--target", "-5"], "--target"), (["tictactoe", "--frobnicate"], "unrecognized arguments")],
)  # fmt: skip
def test_cli_refuses_bad_arguments_in_one_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("python -m boardgame_envs.ladder.build: error: ") and message in err


def test_gomoku_pairs_share_a_random_rif_shaped_opening():
    from boardgame_envs.ladder.games import ladder_task, random_opening

    openings = {random_opening(15, seed) for seed in range(300)}
    assert len(openings) > 100  # variety: 8 x 23 such openings exist
    for centre, white, black in openings:
        assert centre == 7 * 15 + 7
        assert max(abs(white // 15 - 7), abs(white % 15 - 7)) == 1
        assert max(abs(black // 15 - 7), abs(black % 15 - 7)) <= 2 and black not in (centre, white)
    renju, tictactoe = LADDERS["renju"], LADDERS["tictactoe"]
    first, second = ladder_task("a", "b", 4, renju), ladder_task("a", "b", 5, renju)
    assert first.opening == second.opening and first.seed == second.seed and first.a_first and not second.a_first
    assert ladder_task("a", "b", 6, renju).opening != first.opening or ladder_task("a", "b", 6, renju).seed != first.seed
    assert ladder_task("a", "b", 0, tictactoe).opening == ()  # tic-tac-toe starts from the empty board


def test_which_games_a_ladder_plays_is_pinned():
    """The shipped logs name games by (a, b, index): seeds, openings, colours and round totals must never change."""
    from boardgame_envs.ladder.games import GameResult, game_seed, ladder_task

    pinned = [  # (a, b, index, board size) -> seed, opening, a plays black
        ("random", "greedy:epsilon=0.9", 0, 9, 2929338843, (40, 30, 20), True),
        ("greedy", "alphabeta:nodes=1000", 7, 9, 825152535, (40, 32, 57), False),
        ("alphabeta:nodes=4000", "alphabeta:nodes=16000,depth=12", 12, 15, 3632388377, (112, 97, 140), True),
        ("random", "perfect", 3, 3, 3052478413, (), False),
    ]
    for a, b, index, size, seed, opening, a_first in pinned:
        assert game_seed(a, b, index) == seed
        ladder = {3: LADDERS["tictactoe"], 9: LADDERS["gomoku9"], 15: LADDERS["renju"]}[size]
        assert ladder_task(a, b, index, ladder) == (a, b, a_first, seed, (a, b), opening, index)

    class Widths:  # the step above random still too wide, the step to perfect done
        def difference(self, b, a):
            return 0.0, 40.0 if b == "perfect" else 120.0

    x, y, z = TINY.specs
    log = [GameResult(x, y, i, i % 2 == 0, 1.0, 5) for i in range(27)]
    log += [GameResult(y, z, i, i % 2 == 0, 0.5, 9) for i in range(20)] + [GameResult(x, z, i, i % 2 == 0, 0.0, 7) for i in range(4)]
    assert plan_round(TINY, [], None, 20, 50) == [(x, y, 20), (y, z, 20), (x, z, 6)]
    assert plan_round(TINY, log, Widths(), 20, 50) == [(x, y, 40), (x, z, 10)]
    # A pair two levels apart gets a quarter of the games of the fewer-played pair it spans (18 + 6 -> 6).
    assert plan_round(TINY, log, None, 6, 50) == [(x, y, 30), (y, z, 24), (x, z, 6)]


def test_a_second_build_on_the_same_log_is_refused_naming_the_first(data_dir, capsys):
    # Two builds appending to one log each played the games the log lacked: every game twice.
    import os
    import subprocess
    import sys

    lock = TINY.log_path.with_name(TINY.log_path.name + ".lock")
    with held_elsewhere(lock) as other:  # a live process holds the log, as another build would
        with pytest.raises(ValueError, match=f"in use by another ladder build \\(pid {other.pid}\\)"):
            build(TINY, chunk=4, max_rounds=1, plot=False)
        assert not TINY.log_path.exists()  # refused before a game
        assert main(["tiny", "--chunk", "4", "--rounds", "1", "--no-plot"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"pid {other.pid}" in err and str(TINY.log_path) in err
    # A build that was killed left its lock: the next one takes it over, says so, and lets it go at the end.
    dead = left_by_a_killed_holder(lock)
    build(TINY, chunk=4, max_rounds=1, plot=False)
    err = capsys.readouterr().err
    assert f"taking over the lock of {TINY.log_path} (pid {dead}, no longer running)" in err
    assert len(read_log(TINY.log_path)) == 10
    assert not lock.exists()
