"""A draw and no result are two outcomes (GameRecord.finished): a record of a game stopped before its end with no
winner has no result, never a draw.

Before, both were ``winner`` 0: a record stating a draw on an unfinished board read as a draw (``replay`` printed
"Draw · 3 moves", a score gave each side half a point), and an unfinished record was written back as a draw
(``RE[0]``, ``result: 1/2-1/2``). Now a draw is the rules' alone, an unfinished record round-trips as unfinished
(SGF: no ``RE``; a move list: ``result: *``), and scoring refuses it.
"""

from __future__ import annotations

import dataclasses

import pytest

from arena.record_texts import move_list, refused_file, sgf
from boardgame_envs.arena import a_points
from boardgame_envs.arena.records import (
    GameRecord, RecordError, from_move_list, from_sgf, load, save, to_move_list, to_sgf,
)  # fmt: skip
from boardgame_envs.cli import main
from boardgame_envs.ladder.games import Task, result_of
from boardgame_envs.ui.replay import header, summary

# 3x3, three in a row, three stones laid: nobody has won and the board has room.
#    a b c
# 3  X . .
# 2  O . .
# 1  . X .
THREE_MOVES = "B[aa];W[ab];B[bc]"
# Black (X) takes the top row at move 5 (a3 b3 c3).
BLACK_WINS = "B[aa];W[ab];B[ba];W[bb];B[ca]"
# A full board with no three in a row: the rules' draw at move 9.
#    a b c
# 3  X O X
# 2  X O O
# 1  O X X
FULL_DRAW = "B[aa];W[ba];B[ca];W[bb];B[bc];W[cb];B[ab];W[ac];B[cc]"
NOT_OVER = ("the result says the game was drawn, but the game is not over after {} moves: only the rules end a game "
            "in a draw, and a game stopped before its end has no result")  # fmt: skip


# ---------------------------------------------------------------- a draw stated on an unfinished board: refused
@pytest.mark.parametrize("result", ["RE[0]", "RE[Draw]", "RE[draw]"])
def test_an_sgf_stating_a_draw_on_an_unfinished_board_is_refused_in_one_line(result):
    with pytest.raises(RecordError) as info:
        from_sgf(sgf(result, THREE_MOVES))
    assert str(info.value) == NOT_OVER.format(3)


def test_a_move_list_stating_a_draw_on_an_unfinished_board_is_refused_in_one_line():
    with pytest.raises(RecordError) as info:
        from_move_list(move_list("1/2-1/2", "d d c"))
    assert str(info.value) == NOT_OVER.format(3)


def test_a_drawn_forfeit_is_refused_the_arena_never_writes_one():
    with pytest.raises(RecordError, match=r"^the result says the game was drawn by a forfeit, but the game is not"):
        from_move_list(move_list("1/2-1/2", "d d c", "fault: crash\n"))


def test_a_doctored_draw_file_is_one_line_naming_it_and_replay_exits_2(tmp_path, capsys):
    out, err = refused_file(tmp_path / "game-0001.sgf", sgf("RE[0]", THREE_MOVES),
                            r"^.*game-0001.sgf: the result says the game was drawn, but the game is not over after 3 "
                            r"moves", capsys)  # fmt: skip
    assert "Draw" not in out and err.count("\n") == 1 and "the game is not over after 3 moves" in err


# ---------------------------------------------------------------- no result: read, shown and written as such
@pytest.mark.parametrize("result", ["", "RE[?]", "RE[Void]", "RE[void]"])
def test_an_sgf_with_no_result_reads_as_unfinished_and_says_so(result):
    record = from_sgf(sgf(result, THREE_MOVES))
    assert (record.winner, record.finished, record.result) == (0, False, "*")
    assert summary(record) == "Unfinished, no result · 3 moves"
    assert header(record).endswith("\nUnfinished, no result · 3 moves")


def test_an_unfinished_sgf_record_round_trips_as_unfinished(tmp_path):
    record = from_sgf(sgf("RE[?]", THREE_MOVES))
    text = to_sgf(record)
    assert "RE[" not in text  # no result: no RE, as SGF writers leave a game in progress
    assert from_sgf(text) == record and not from_sgf(text).finished
    assert load(save(record, tmp_path / "g.sgf")) == record


def test_an_unfinished_move_list_round_trips_as_unfinished(tmp_path):
    record = from_move_list(move_list("*", "d d c"))
    assert (record.winner, record.finished) == (0, False)
    assert "result: *\n" in to_move_list(record)
    back = load(save(record, tmp_path / "g.txt"))
    assert back == record and not back.finished and summary(back) == "Unfinished, no result · 3 moves"


def test_replay_prints_no_draw_for_an_unfinished_record(tmp_path, capsys):
    path = tmp_path / "g.txt"
    path.write_text(move_list("*", "d d c"))
    assert main(["replay", str(path), "--moves", "3"]) == 0
    out = capsys.readouterr().out
    assert "Unfinished, no result · 3 moves" in out and "Draw" not in out


def test_a_draw_the_rules_reached_still_reads_as_a_draw():
    record = from_sgf(sgf("RE[0]", FULL_DRAW))
    assert (record.winner, record.finished, record.result) == (0, True, "1/2-1/2")
    assert summary(record) == "Draw · 9 moves"
    assert from_sgf(to_sgf(record)) == record


@pytest.mark.parametrize(("text", "says"), [
    (sgf("", BLACK_WINS), "the result says there is no result, but the moves end in a win for X at move 5"),
    (sgf("RE[?]", FULL_DRAW), "the result says there is no result, but the moves end in a draw at move 9"),
    (move_list("*", "a b a b a b a"), "the result says there is no result, but the moves end in a win for red at "
                                      "move 7"),
    (move_list("*", "d d c", "fault: crash\n"), "the result says there is no result, but the record also names a "
                                                "winner or a forfeit"),
    (sgf("RE[Jigo]", THREE_MOVES), "RE[Jigo] is not a result: B+..., W+..., 0 or Draw, ? or Void for none"),
])  # fmt: skip
def test_no_result_where_the_moves_give_one_or_with_a_forfeit_is_refused(text, says):
    with pytest.raises(RecordError) as info:
        (from_move_list if text.startswith("game:") else from_sgf)(text)
    assert str(info.value) == says


def test_a_writer_refuses_a_winner_on_a_record_with_no_result():
    record = from_sgf(sgf("", THREE_MOVES))
    won = dataclasses.replace(record, winner=1)
    with pytest.raises(RecordError, match="names winner 1 but says the game has no result"):
        to_sgf(won)
    listed = from_move_list(move_list("*", "d d c"))
    with pytest.raises(RecordError, match="names winner 2 but says the game has no result"):
        to_move_list(dataclasses.replace(listed, winner=2))


# ---------------------------------------------------------------- scores never count a game with no result
def test_points_of_a_game_with_no_result_are_refused_not_a_draw():
    drawn = from_sgf(sgf("RE[0]", FULL_DRAW))
    won = from_sgf(sgf("RE[B+]", BLACK_WINS))
    unfinished = from_sgf(sgf("", THREE_MOVES))
    assert (drawn.points(1), drawn.points(2), won.points(1), won.points(2)) == (0.5, 0.5, 1.0, 0.0)
    assert (a_points(won, True), a_points(won, False), a_points(drawn, False)) == (1.0, 0.0, 0.5)
    with pytest.raises(RecordError, match=r"^the game has no result \(stopped after 3 moves\): it cannot be scored$"):
        unfinished.points(1)
    with pytest.raises(RecordError, match="no result"):
        a_points(unfinished, True)


def test_the_ladder_refuses_to_score_a_game_with_no_result():
    task = Task(a="random", b="greedy", a_first=True, seed=0, names=("random", "greedy"), opening=(), index=0)
    won = from_sgf(sgf("RE[B+]", BLACK_WINS))
    assert result_of(task, won).score == 1.0
    with pytest.raises(RecordError, match="no result"):
        result_of(task, dataclasses.replace(won, moves=won.moves[:3], winner=0, finished=False))
