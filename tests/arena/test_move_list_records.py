"""Records of games SGF cannot hold (connect four) are move lists that load reads back, and replay shows."""

from __future__ import annotations

import pytest

from boardgame_envs.arena.records import GameRecord, RecordError, from_move_list, is_record, load, save, to_move_list
from boardgame_envs.cli import main

# Red drops a, b, a, b, a, b, a: four in column a.
WON = GameRecord(board_size=0, rule="", black="mcts:simulations=50", white="pbrain:/opt/x", moves=[0, 1, 0, 1, 0, 1, 0],
                 winner=1, reason="red makes 4 in a row", game="connect_four")  # fmt: skip


def test_a_record_round_trips_through_its_file(tmp_path):
    path = save(WON, tmp_path / "game-0001.sgf")
    assert str(path).endswith(".txt") and is_record(path)
    assert open(path).read().splitlines()[0] == "game: connect_four"
    assert "moves: a b a b a b a" in open(path).read()
    assert load(path) == WON
    forfeit = GameRecord(board_size=0, rule="", black="a", white="b", moves=[3], winner=1, forfeit=True,
                         fault="illegal move", reason="yellow played a full column", game="connect_four",
                         opening="centre", opening_moves=1)  # fmt: skip
    assert from_move_list(to_move_list(forfeit)) == forfeit


@pytest.mark.parametrize(
    "text, says",
    [
        ("game: connect_four\nmoves: a\n", "needs a 'result' line"),
        ("first: a\ngame: connect_four\n", "not an SGF game"),  # a move-list record starts with its game
        ("game: chess\nresult: 1-0\nmoves: e4\n", "unknown game 'chess'"),
        ("game: connect_four\nresult: 2-0\nmoves: a\n", "result must be one of"),
        ("game: connect_four\nresult: 1-0\nmoves: a a a a a a a\n", "move 7: column a is full"),
        ("game: connect_four\nresult: 1-0\nmoves: a z\n", "move 2: cannot read 'z' as a column"),
        ("game: connect_four\nwho: me\n", "line 2: expected 'key: value'"),
        ("game: connect_four\ngame: connect_four\n", "line 2: 'game' given twice"),
        ("game: connect_four\nresult: 0-1\nopening moves: 9\nmoves: a\n", "opening moves must be a count"),
    ],
)
def test_a_bad_move_list_record_is_refused_in_one_line(tmp_path, text, says):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(RecordError, match="bad.txt: ") as info:
        load(path)
    assert says in str(info.value) and "\n" not in str(info.value)


def test_an_mnk_record_is_sgf_not_a_move_list():
    with pytest.raises(RecordError, match="written as SGF"):
        to_move_list(GameRecord(board_size=3, rule="freestyle", black="a", white="b", moves=[4], winner=0, win_length=3))


def test_replay_shows_the_record_draws_it_and_reads_a_bare_move_list(tmp_path, capsys):
    path = save(WON, tmp_path / "game.sgf")
    assert main(["replay", str(path), "--moves", "7"]) == 0
    out = capsys.readouterr().out
    assert "red mcts:simulations=50 - yellow pbrain:/opt/x: connect four, 6x7" in out
    assert "Red wins · 7 moves: red makes 4 in a row" in out and "move 7/7: red a" in out
    assert main(["replay", str(path), "--gif", str(tmp_path / "g.gif")]) == 0  # drawn as any game is (issue 49)
    assert "wrote" in capsys.readouterr().out and (tmp_path / "g.gif").stat().st_size > 0
    bare = tmp_path / "moves.txt"
    bare.write_text("d d c")
    assert not is_record(bare) and not is_record(tmp_path / "missing.txt")
    assert main(["replay", str(bare), "connect_four"]) == 0  # a bare move list, in the game's own names
    assert capsys.readouterr().out.splitlines()[-1] == "connect four, 6x7: Move 4 · Yellow to move"
