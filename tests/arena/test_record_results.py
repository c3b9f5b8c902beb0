"""A record's stated result is held to its moves when it is read (game_record.check_result).

Doctored records (a winner flipped, a win claimed on an unfinished board, a win claimed on a drawn board, a move
after the end) are refused in one line saying what the record says and what the moves give; they all read without
complaint before. Every record the package writes still reads back: each catalog game and test game, each opening
rule, forfeits of every kind, arena matches saved to a folder. SGF from other programs stays readable where honest
(``B+R``, ``W+T``, no result on an unfinished board; a draw there is refused: tests/arena/test_record_no_result.py).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from arena.record_texts import move_list, refused_file, sgf
from boardgame_envs.arena import match, play_record
from boardgame_envs.arena.game_record import TURN_FAULTS
from boardgame_envs.arena.records import (
    GameRecord, RecordError, from_move_list, from_sgf, load, save, to_move_list, to_sgf,
)  # fmt: skip
from boardgame_envs.policies import make_policy
from boardgame_envs.policies.base import Forfeit
from conformance.cases import ALL, OPENINGS, case_fixture

# 3x3, three in a row. Black (X) takes the top row at move 5:
#    a b c
# 3  X X X
# 2  O O .
# 1  . . .
BLACK_WINS = "B[aa];W[ab];B[ba];W[bb];B[ca]"
# A full board, no three in a row: a draw at move 9.
#    a b c
# 3  X O X
# 2  X O O
# 1  O X X
FULL_DRAW = "B[aa];W[ba];B[ca];W[bb];B[bc];W[cb];B[ab];W[ac];B[cc]"
# Connect four, red (the first player) drops four in column a at move 7.
RED_WINS = "a b a b a b a"
# Connect four to a full board with no four anywhere (seeded random play): a draw at move 42.
#  a b c d e f g
#  O X O X O X O
#  X O O X O X O
#  X O X O X X X
#  O O X X X O X
#  X X O X O X O
#  X O O X O O O      X red (first), O yellow
FULL_COLUMNS = "d f a e d g a a d e a g e d a c e e f f f a g b d e b b d b g c f b b g c g c c f c"


# ---------------------------------------------------------------- doctored records: refused, saying why
@pytest.mark.parametrize(("text", "says"), [
    (sgf("RE[W+]", BLACK_WINS), "the result says O won, but the moves end in a win for X at move 5"),
    (sgf("RE[0]", BLACK_WINS), "the result says the game was drawn, but the moves end in a win for X at move 5"),
    (sgf("RE[B+]", FULL_DRAW), "the result says X won, but the moves end in a draw at move 9"),
    (sgf("RE[B+]", "B[aa];W[ab];B[ba]"), "the result says X won, but the game is not over after 3 moves and the "
                                         "record gives no forfeit, resignation or loss on time that ended it"),
    (sgf("RE[W+F]FK[timeout]", BLACK_WINS), "the result says O won by forfeit (timeout), but the moves end in a win "
                                            "for X at move 5"),
    (sgf("RE[B+]", BLACK_WINS + ";W[cc]"), "move 6 (c1) comes after the end of the game: a win for X at move 5"),
    (sgf("RE[B+]", "B[aa];W[aa]"), "move 2: a3 is occupied (by X)"),
    # O to move after three moves: only O can have played an illegal move (which a record leaves out of its moves).
    (sgf("RE[W+F]FK[illegal move]", "B[aa];W[ab];B[ba]"), "the result says O won by forfeit (illegal move), but after "
                                                          "3 moves it was O's turn, and only the side to act can lose "
                                                          "by a fault of kind 'illegal move'"),
])  # fmt: skip
def test_a_doctored_sgf_record_is_refused_saying_what_it_says_and_what_the_moves_give(text, says):
    with pytest.raises(RecordError) as info:
        from_sgf(text)
    assert str(info.value) == says


@pytest.mark.parametrize(("text", "says"), [
    (move_list("0-1", RED_WINS), "the result says yellow won, but the moves end in a win for red at move 7"),
    (move_list("1/2-1/2", RED_WINS), "the result says the game was drawn, but the moves end in a win for red at "
                                     "move 7"),
    (move_list("1-0", FULL_COLUMNS), "the result says red won, but the moves end in a draw at move 42"),
    (move_list("1-0", "a b a b a b"), "the result says red won, but the game is not over after 6 moves and the "
                                      "record gives no forfeit, resignation or loss on time that ended it"),
    (move_list("0-1", RED_WINS, "fault: crash\n"), "the result says yellow won by forfeit (crash), but the moves end "
                                                   "in a win for red at move 7"),
    (move_list("0-1", "a b a", "fault: bad answer\n"), "the result says yellow won by forfeit (bad answer), but after "
                                                       "3 moves it was yellow's turn, and only the side to act can "
                                                       "lose by a fault of kind 'bad answer'"),
])  # fmt: skip
def test_a_doctored_move_list_record_is_refused_saying_what_it_says_and_what_the_moves_give(text, says):
    with pytest.raises(RecordError) as info:
        from_move_list(text)
    assert str(info.value) == says


def test_a_move_after_the_end_of_a_move_list_game_is_named():
    with pytest.raises(RecordError, match=r"^move 8 \(b\) comes after the end of the game: a win for red at move 7$"):
        from_move_list(move_list("1-0", RED_WINS + " b"))


def test_a_doctored_file_is_one_line_naming_it_and_replay_exits_2(tmp_path, capsys):
    err = refused_file(tmp_path / "game-0001.txt", move_list("0-1", RED_WINS),
                       r"^.*game-0001.txt: the result says yellow won, but the moves end in a win for red at move 7$",
                       capsys, "--moves", "7").err.strip()  # fmt: skip
    assert "game-0001.txt: the result says yellow won" in err and "\n" not in err


# ---------------------------------------------------------------- honest records: read as they say
def test_the_honest_records_read():
    assert from_sgf(sgf("RE[B+]", BLACK_WINS)).winner == 1
    assert from_sgf(sgf("RE[0]", FULL_DRAW)).winner == 0
    assert from_move_list(move_list("1-0", RED_WINS)).winner == 1
    assert from_move_list(move_list("1/2-1/2", FULL_COLUMNS)).winner == 0
    stopped = from_move_list(move_list("0-1", "a b a", "reason: red timed out\nfault: timeout\n"))
    assert (stopped.winner, stopped.forfeit, stopped.fault) == (2, True, "timeout")
    # An illegal move is the side to act's (yellow's, after three moves); a loss on time or a resignation may be
    # either side's (a move made after the flag fell is recorded), so those are not held to the turn.
    assert from_move_list(move_list("1-0", "a b a", "fault: illegal move\n")).winner == 1
    assert from_sgf(sgf("RE[W+R]", "B[aa];W[ab];B[ba]")).winner == 2


@pytest.mark.parametrize(("result", "winner", "fault"), [
    ("RE[B+R]", 1, "resignation"), ("RE[W+Resign]", 2, "resignation"), ("RE[W+T]", 2, "timeout"),
    ("RE[B+Time]", 1, "timeout"), ("RE[B+F]", 1, ""), ("RE[W+F]FK[crash]", 2, "crash"),
])  # fmt: skip
def test_sgf_of_a_game_that_stopped_early_reads_with_how_it_stopped(result, winner, fault):
    record = from_sgf(sgf(result, "B[aa];W[ab];B[ba]"))
    assert (record.winner, record.forfeit, record.fault) == (winner, True, fault)
    assert from_sgf(to_sgf(record)) == record
    if fault == "resignation":
        assert f"RE[{'BW'[winner - 1]}+R]" in to_sgf(record)  # other viewers read a resignation as one


@pytest.mark.parametrize("result", ["", "RE[?]", "RE[Void]"])
def test_an_unfinished_game_with_no_winner_reads_as_such(result):
    record = from_sgf(sgf(result, "B[aa];W[ab];B[ba]"))
    assert record.winner == 0 and not record.forfeit and not record.finished and not record.state().terminal


def test_a_rule_the_package_does_not_play_is_refused_as_unchecked():
    with pytest.raises(RecordError, match=r"^RU\[pente\]: unknown rule 'pente'"):
        from_sgf("(;GM[4]SZ[15]RU[pente]RE[B+];B[hh];W[hg];B[ig])")


# ---------------------------------------------------------------- every record the package writes reads back
@pytest.fixture(params=ALL + OPENINGS, ids=lambda case: case.id)
def case(request):
    yield from case_fixture(request)


class Forfeiting:
    """Plays the first legal action, then forfeits at its ``at``-th turn: raising a fault of ``kind`` (an engine's
    crash or timeout), or with ``kind`` "illegal move" by answering an action the rules refuse."""

    name = "forfeiting"

    def __init__(self, kind: str, at: int = 2) -> None:
        self.kind, self.at, self.turns = kind, at, 0

    def act(self, state):
        self.turns += 1
        legal = np.flatnonzero(state.legal_mask())
        if self.turns < self.at:
            return int(legal[0])
        if self.kind == "illegal move":
            return -1  # no game has an action -1
        fault = Forfeit(f"the engine's {self.kind}")
        fault.kind = self.kind
        raise fault


def round_trip(record: GameRecord, tmp_path) -> GameRecord:
    back = load(save(record, tmp_path / "game-0001.sgf"))
    assert back == record
    return back


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_game_played_reads_back(case, seed, tmp_path):
    record = play_record(case.env_fn(), make_policy("random", seed=seed), make_policy("random", seed=seed + 10),
                         ("random", "random2"))  # fmt: skip
    back = round_trip(record, tmp_path)
    assert back.state().terminal and not back.forfeit
    # The same game, doctored: the other side said to have won, or a drawn game said to be won.
    other = dataclasses.replace(record, winner=3 - record.winner if record.winner else 1)
    ends = "a win for " if record.winner else "a draw at move"
    with pytest.raises(RecordError, match=f"the result says .* won, but the moves end in {ends}"):
        load(save(other, tmp_path / "doctored.sgf"))
    cut = dataclasses.replace(record, moves=record.moves[:-1], winner=record.winner or 1)  # a win, before the end
    with pytest.raises(RecordError, match="but the game is not over after"):
        load(save(cut, tmp_path / "cut.sgf"))


@pytest.mark.parametrize("kind", ["illegal move", "timeout", "crash", "bad answer"])
def test_every_game_forfeited_reads_back(case, kind, tmp_path):
    faulty = Forfeiting(kind)
    first = play_record(case.env_fn(), faulty, make_policy("random", seed=3), ("faulty", "random"))
    second = play_record(case.env_fn(), make_policy("random", seed=4), Forfeiting(kind), ("random", "faulty"))
    for record in (first, second):
        assert record.forfeit and record.fault == kind and record.winner
        back = round_trip(record, tmp_path)
        assert not back.state().terminal
        if kind in TURN_FAULTS:  # the other side said to have lost by it: refused
            flipped = dataclasses.replace(record, winner=3 - record.winner)
            with pytest.raises(RecordError, match="only the side to act can lose by a fault of kind"):
                load(save(flipped, tmp_path / "flipped.sgf"))


@pytest.mark.parametrize("game, openings", [("tictactoe", None), ("connect_four", "connect_four_2ply")])
def test_an_arena_match_saved_to_a_folder_reads_back(game, openings, tmp_path):
    from boardgame_envs.envs.factory import env_fn

    result = match(env_fn(game), "random", "greedy", games=4, progress=False, openings=openings,
                   save_games=tmp_path)  # fmt: skip
    files = sorted(tmp_path.iterdir())
    assert len(files) == 4 and not result.not_saved
    records = [load(path) for path in files]
    assert sum(record.winner == 0 for record in records) + sum(bool(record.winner) for record in records) == 4
    if game == "connect_four":
        assert all(record.opening_moves == 2 for record in records)
        assert to_move_list(records[0]).startswith("game: connect_four\n")
