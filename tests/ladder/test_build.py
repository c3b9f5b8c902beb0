"""Building a ladder: rounds planned from the log, resumable, the same games whatever the interruption."""

from __future__ import annotations

import json

from boardgame_envs.ladder.build import build, games_needed, main, plan_round
from boardgame_envs.ladder.games import read_log
from boardgame_envs.ladder.ladders import levels

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


def test_cli_refuses_bad_arguments(capsys):
    for argv in (["tiny-nope"], ["tictactoe", "--jobs", "999"], ["tictactoe", "--chunk", "3"]):
        try:
            main(argv)
        except SystemExit as exc:
            assert exc.code == 2
        else:
            raise AssertionError(f"{argv} was accepted")


def test_gomoku_pairs_share_a_random_rif_shaped_opening():
    from boardgame_envs.ladder.games import ladder_task, random_opening

    openings = {random_opening(15, seed) for seed in range(300)}
    assert len(openings) > 100  # variety: 8 x 23 such openings exist
    for centre, white, black in openings:
        assert centre == 7 * 15 + 7
        assert max(abs(white // 15 - 7), abs(white % 15 - 7)) == 1
        assert max(abs(black // 15 - 7), abs(black % 15 - 7)) <= 2 and black not in (centre, white)
    first, second = ladder_task("a", "b", 4, 15), ladder_task("a", "b", 5, 15)
    assert first.opening == second.opening and first.seed == second.seed and first.a_first and not second.a_first
    assert ladder_task("a", "b", 6, 15).opening != first.opening or ladder_task("a", "b", 6, 15).seed != first.seed
    assert ladder_task("a", "b", 0, 3).opening == ()  # tic-tac-toe starts from the empty board
