"""``boardgame-envs solve connect_four MOVES``: values in words and JSON, one-line refusals, the node cap."""

from __future__ import annotations

import json

import pytest

from boardgame_envs.cli import main
from boardgame_envs.games.connect_four_solver import ConnectFourSolver

MOVES = "4444433322"  # after 10 moves; the solver answers in a fraction of a second


def test_json_gives_the_value_and_every_legal_columns_value(capsys):
    assert main(["solve", "connect_four", MOVES, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    expected = ConnectFourSolver(table_slots=1 << 20).move_scores(MOVES)
    assert out == {"value": max(expected.values()), "moves": {str(c + 1): v for c, v in expected.items()}}


def test_a_full_column_is_absent_and_words_name_each_column(capsys):
    assert main(["solve", "connect_four", "4444443322"]) == 0  # column 4 is full
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("after 4444443322 (10 moves), red to move: ")
    assert [line.split(":")[0].strip() for line in lines[1:]] == [f"column {c}" for c in (1, 2, 3, 5, 6, 7)]
    assert all(any(word in line for word in ("win in", "loss in", "draw")) for line in lines)


@pytest.mark.parametrize("moves, says", [
    ("448", "move 3 of '448' is '8': write columns as digits 1..7"),
    ("1111111", "column a is full"),
    ("12121212", "the game is over"),
    ("1212121", "the game is over after '1212121'"),
    ("4x", "is 'x'"),
])  # fmt: skip
def test_bad_moves_are_one_line_and_exit_2(moves, says, capsys):
    assert main(["solve", "connect_four", moves]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err


def test_only_connect_four_is_solved(capsys):
    assert main(["solve", "renju", "4"]) == 2
    assert "invalid choice: 'renju'" in capsys.readouterr().err


def test_the_node_cap_stops_the_search_with_one_line(capsys):
    assert main(["solve", "connect_four", "4453", "--nodes", "1000"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no answer within 1,000 nodes" in err and "--nodes" in err
