"""``--param KEY=VALUE`` on the commands that build a game (demo, play, arena, replay, rate, ladder), one parser with
``ladder build``'s: the dots-and-boxes test game (in the catalog while each test runs) at rows 1 and 3, and every
mistake as one line with exit status 2."""

from __future__ import annotations

import pytest

from boardgame_envs.cli import main
from conformance.cases import in_catalog


@pytest.fixture(autouse=True)
def dots(monkeypatch, tmp_path):
    monkeypatch.setenv("BOARDGAME_ENVS_LADDERS", str(tmp_path / "ladders"))
    with in_catalog("dots_and_boxes"):
        yield


def lines(rows: int, columns: int = 2) -> int:
    return rows * (columns + 1) + columns * (rows + 1)


@pytest.mark.parametrize("rows", [1, 3])
def test_demo_plays_the_size_asked(rows, capsys):
    assert main(["demo", "dots_and_boxes", "--param", f"rows={rows}", "--first", "random"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1].startswith(f"{lines(rows)} moves: ")  # random play draws every line
    board = [line for line in out.splitlines() if line[:1].isdigit() and line.split()[0] == line.split()[-1]]
    assert [line.split()[0] for line in board] == [str(i) for i in range(1, 2 * rows + 2)]  # 2 * rows + 1 rows


@pytest.mark.parametrize("rows", [1, 3])
def test_play_builds_the_size_asked(rows, monkeypatch):
    seen = {}

    def terminal(env_fn, opponent, human_first):
        seen["game"] = env_fn().unwrapped.game

    monkeypatch.setattr("boardgame_envs.ui.terminal.play_terminal", terminal)
    assert main(["play", "dots_and_boxes", "--param", f"rows={rows}", "--param", "columns=3", "--opponent", "random"]) == 0
    assert (seen["game"].rows, seen["game"].columns) == (rows, 3)


@pytest.mark.parametrize("rows", [1, 3])
def test_arena_plays_and_saves_the_size_asked(rows, tmp_path, capsys):
    from boardgame_envs.arena.records import load

    out = tmp_path / "games"
    assert main(["arena", "dots_and_boxes", "random", "greedy", "--param", f"rows={rows}", "--games", "2",
                 "--save-games", str(out)]) == 0  # fmt: skip
    assert "2 games" in capsys.readouterr().out
    records = [load(path) for path in sorted(out.iterdir())]
    assert len(records) == 2
    for record in records:
        assert record.parameters == {"rows": rows, "columns": 2}
        assert record.game_object().rows == rows and record.state().terminal  # every move replays on that board


@pytest.mark.parametrize("rows", [1, 3])
def test_replay_of_a_move_list_takes_the_size(rows, tmp_path, capsys):
    from conformance.cases import TEST_ENTRIES

    game = TEST_ENTRIES["dots_and_boxes"].game_class(rows=rows)
    state, names = game.new_state(), []
    while not state.terminal:
        action = int(state.legal_mask().nonzero()[0][-1])
        names.append(game.action_name(action))
        state.play(action)
    path = tmp_path / "moves.txt"
    path.write_text(" ".join(names))
    assert main(["replay", str(path), "dots_and_boxes", "--param", f"rows={rows}"]) == 0
    assert f"after {lines(rows)} moves" in capsys.readouterr().out


def test_rate_and_ladder_find_the_ladder_built_with_those_parameters(capsys):
    build = ["ladder", "build", "dots_and_boxes", "--param", "rows=1", "--level", "random", "--level", "greedy",
             "--games-per-pair", "2", "--rounds", "1"]  # fmt: skip
    assert main(build) == 0
    capsys.readouterr()
    # the defaults spelt out, in another order: the same game, so the same ladder
    assert main(["rate", "greedy", "dots_and_boxes", "--param", "columns=2", "--param", "rows=1", "--games", "2"]) == 0
    assert "on the dots_and_boxes-rows1 ladder" in capsys.readouterr().out
    assert main(["ladder", "dots_and_boxes", "--param", "rows=1"]) == 0
    assert "dots_and_boxes-rows1 ladder (dots_and_boxes rows=1)" in capsys.readouterr().out
    assert main(["rate", "greedy", "dots_and_boxes", "--param", "rows=3", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no ladder for dots_and_boxes rows=3; build one with `boardgame-envs ladder " \
                                     "build dots_and_boxes --param rows=3`" in err  # fmt: skip


def test_a_ladder_built_with_the_defaults_spelt_out_is_the_plain_games(capsys):
    """``ladder build dots_and_boxes --param rows=2`` is stored as dots_and_boxes-rows2, but it is the game's default
    size: plain ``rate X dots_and_boxes`` finds it (it used to say there was no ladder for dots_and_boxes)."""
    build = ["ladder", "build", "dots_and_boxes", "--param", "rows=2", "--level", "random", "--level", "greedy",
             "--games-per-pair", "2", "--rounds", "1"]  # fmt: skip
    assert main(build) == 0
    capsys.readouterr()
    assert main(["rate", "greedy", "dots_and_boxes", "--games", "2"]) == 0
    assert "on the dots_and_boxes-rows2 ladder" in capsys.readouterr().out


@pytest.mark.parametrize("argv, says", [
    (["demo", "dots_and_boxes", "--param", "rows=7"], "dots_and_boxes: rows must be one of 1, 2, 3, got 7"),
    (["arena", "dots_and_boxes", "random", "greedy", "--param", "depth=2"],
     "dots_and_boxes takes no depth; its parameters: rows (1, 2, 3; default 2), columns (1, 2, 3; default 2)"),
    (["play", "dots_and_boxes", "--param", "rows=1", "--param", "rows=2"], "--param rows given twice"),
    (["demo", "dots_and_boxes", "--param", "raw=true"], "--param raw: raw is no game parameter"),
    (["demo", "dots_and_boxes", "--param", "board_size=3"], "--param board_size: board_size is no game parameter"),
    (["demo", "tictactoe", "--param", "rows=3"], "tictactoe takes board_size, win_length and rule; rows does not apply"),
    (["arena", "connect_four", "random", "greedy", "--param", "rows=3"], "connect_four takes no rows; it takes no parameters"),
    (["replay", "moves.txt", "dots_and_boxes", "--param", "rows=0"], "dots_and_boxes: rows must be one of 1, 2, 3, got 0"),
    (["rate", "greedy", "dots_and_boxes", "--param", "rows=9"], "dots_and_boxes: rows must be one of 1, 2, 3, got 9"),
    (["ladder", "gomoku", "--param", "rows=3"], "gomoku takes board_size, win_length and rule; rows does not apply"),
    (["ladder", "build", "dots_and_boxes", "--param", "rows=3", "--param", "rows=2"], "--param rows given twice"),
])  # fmt: skip
def test_a_bad_param_is_one_line_exit_2(argv, says, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "moves.txt").write_text("a1")
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err and "Traceback" not in err


@pytest.mark.parametrize("command", ["demo dots_and_boxes", "play dots_and_boxes", "arena dots_and_boxes random greedy",
                                     "replay moves.txt dots_and_boxes", "rate greedy dots_and_boxes",
                                     "ladder dots_and_boxes", "ladder build dots_and_boxes"])  # fmt: skip
def test_param_without_an_equals_sign_is_argparse_one_line(command, capsys):
    assert main([*command.split(), "--param", "rows"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "argument --param: --param takes KEY=VALUE (e.g. rows=3), got 'rows'" in err


def test_a_record_names_its_own_parameters_so_replay_refuses_param(tmp_path, capsys):
    path = tmp_path / "game.txt"
    path.write_text("game: dots_and_boxes\nparameters: rows=1 columns=1\nresult: 0-1\nmoves: a2 b1 b3 c2\n")
    assert main(["replay", str(path), "--moves", "4"]) == 0
    out = capsys.readouterr().out
    assert "dots and boxes, 1x1 boxes" in out and "result: B wins after 4 moves" in out  # its size, not 2x2
    assert main(["replay", str(path), "--param", "rows=2"]) == 2
    assert "is a record, which names its game and parameters: leave out --param" in capsys.readouterr().err
