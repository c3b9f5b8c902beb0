"""A record of a game with catalog parameters names them and reads back as that game: the dots-and-boxes test game
at rows 1 and 3 through the referee, the move-list format and the record files; a record naming a parameter its
game does not declare, or a value off its choices, is one RecordError line naming the file."""

from __future__ import annotations

import pytest

from boardgame_envs.arena import play_record
from boardgame_envs.arena.records import (
    GameRecord, RecordError, from_move_list, game_parameters, load, save, save_new, to_move_list, to_sgf,
)  # fmt: skip
from boardgame_envs.envs.factory import env_fn
from boardgame_envs.policies import make_policy
from conformance.cases import in_catalog


@pytest.fixture(autouse=True)
def dots():
    with in_catalog("dots_and_boxes"):
        yield


def played(rows: int, columns: int = 2) -> GameRecord:
    return play_record(env_fn("dots_and_boxes", rows=rows, columns=columns), make_policy("random", seed=rows),
                       make_policy("greedy", seed=0), ("random", "greedy"))  # fmt: skip


@pytest.mark.parametrize("rows", [1, 3])
def test_a_played_record_keeps_its_parameters_and_reads_back_as_that_game(rows, tmp_path):
    record = played(rows)
    assert record.game == "dots_and_boxes" and record.parameters == {"rows": rows, "columns": 2}
    text = to_move_list(record)
    assert text.splitlines()[:2] == ["game: dots_and_boxes", f"parameters: rows={rows} columns=2"]
    assert from_move_list(text) == record
    path = save(record, tmp_path / "game-0001.sgf")
    back = load(path)
    assert back == record and back.parameters == {"rows": rows, "columns": 2}
    game = back.game_object()
    assert (game.rows, game.columns) == (rows, 2)
    assert back.state().terminal and len(back.moves) == rows * 3 + 2 * (rows + 1)  # every line, on that board
    assert load(save_new(record, tmp_path / "game-0001.sgf")) == record  # the new-file writer too


def test_the_defaults_are_written_too_and_a_record_without_the_line_reads_at_the_defaults():
    record = played(2)
    assert "parameters: rows=2 columns=2\n" in to_move_list(record)  # a changed default cannot change the record
    old = "game: dots_and_boxes\nfirst: a\nsecond: b\nresult: 0-1\nfault: timeout\nmoves: a2\n"  # as written before parameters
    assert from_move_list(old).parameters == {"rows": 2, "columns": 2}


def test_game_parameters_reads_every_declared_one_from_the_game():
    from conformance.cases import TEST_ENTRIES

    assert game_parameters(TEST_ENTRIES["dots_and_boxes"].entry.game(columns=3)) == {"rows": 2, "columns": 3}


@pytest.mark.parametrize("line, says", [
    ("parameters: rows=9", "dots_and_boxes: rows must be one of 1, 2, 3, got 9"),
    ("parameters: rows=1 depth=4", "dots_and_boxes takes no depth; its parameters: rows (1, 2, 3; default 2), "
                                   "columns (1, 2, 3; default 2)"),
    ("parameters: rows", "parameters: takes KEY=VALUE (e.g. rows=3), got 'rows'"),
    ("parameters: rows=1 rows=3", "parameters: rows given twice"),
])  # fmt: skip
def test_a_bad_parameters_line_is_one_record_error_naming_the_file(line, says, tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(f"game: dots_and_boxes\n{line}\nresult: 1-0\nmoves: \n")
    with pytest.raises(RecordError) as caught:
        load(path)
    assert str(caught.value) == f"{path}: {says}"


def test_parameters_for_a_game_that_has_none_are_refused(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("game: connect_four\nparameters: rows=3\nresult: 1-0\nmoves: d\n")
    with pytest.raises(RecordError, match="connect_four takes no rows; it takes no parameters"):
        load(path)


def test_a_value_that_would_not_read_back_is_refused_when_written():
    record = played(1)
    for value in ("two words", "3", ""):  # a space splits it; the text "3" reads back as the number 3
        record.parameters = {"rows": value}
        with pytest.raises(RecordError, match=f"parameter rows={value!r} cannot be written in a move list"):
            to_move_list(record)


def test_sgf_keeps_no_parameters_so_it_refuses_them():
    record = GameRecord(board_size=3, rule="freestyle", black="a", white="b", moves=[4], winner=0, win_length=3,
                        parameters={"rows": 3})  # fmt: skip
    with pytest.raises(RecordError, match=r"an m,n,k record takes board_size, win_length and rule, not parameters"):
        to_sgf(record)
