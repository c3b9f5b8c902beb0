"""The command line: the demo game, benchmarks dispatch, one-line errors."""

from __future__ import annotations

import pytest

from boardgame_envs.cli import main


def test_demo_prints_a_finished_game(capsys):
    assert main(["demo", "tictactoe", "--first", "perfect", "--second", "perfect"]) == 0
    out = capsys.readouterr().out
    assert "9 moves: draw" in out and "a b c" in out


def test_demo_default_is_renju_on_15x15(capsys):
    assert main(["demo", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "forbidden for black" in out and "moves:" in out and "m n o\n" in out  # columns a..o: 15x15


def test_bad_input_is_one_line_exit_2(capsys):
    assert main(["demo", "gomoku", "--board-size", "4"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "5..19" in err
    assert main(["demo", "chess"]) == 2  # argparse's own errors are exit codes too, not SystemExit


def test_bench_unknown_name_is_one_line(capsys):
    assert main(["bench", "nope"]) == 2
    assert "unknown benchmark 'nope'" in capsys.readouterr().err


def test_train_without_torch_is_one_line_exit_2(capsys, monkeypatch):
    import sys

    # As on an install without the train extra: the trainer's import of torch fails.
    monkeypatch.setitem(sys.modules, "torch", None)
    monkeypatch.delitem(sys.modules, "boardgame_envs.alphazero.trainer", raising=False)
    assert main(["train", "tictactoe", "--iterations", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "boardgame-envs[train]" in err


def test_train_needs_an_end_and_a_valid_board(capsys):
    assert main(["train", "tictactoe"]) == 2
    assert "--minutes or --iterations" in capsys.readouterr().err
    assert main(["train", "gomoku", "--board-size", "30", "--iterations", "1"]) == 2
    assert "5..19" in capsys.readouterr().err


def test_unknown_flag_is_exit_2():
    assert main(["arena", "tictactoe", "random", "random", "--bogus"]) == 2


def test_one_game_table_gives_every_subcommand_the_same_default(capsys):
    """gomoku means 15x15 renju in demo, play, arena and train alike, read from the catalog."""
    from boardgame_envs.cli import build_parser
    from boardgame_envs.envs.factory import make_env

    parser = build_parser()
    for argv in (["demo"], ["play", "gomoku"], ["arena", "gomoku", "random", "mcts"], ["train", "gomoku"]):
        args = parser.parse_args(argv)
        game = make_env(args.game, args.board_size, args.win_length, args.rule).unwrapped.game
        assert (game.size, game.win_length, game.rule) == (15, 5, "renju"), argv
    assert make_env("gomoku", win_length=4).unwrapped.game.rule == "freestyle"  # renju is five in a row only


@pytest.mark.parametrize(
    "argv",
    [
        ["demo", "tictactoe", "--rule", "renju"],
        ["demo", "tictactoe", "--board-size", "9"],
        ["arena", "renju", "random", "random", "--board-size", "9"],
        ["arena", "renju", "random", "random", "--rule", "freestyle"],
    ],
)
def test_arguments_that_do_not_apply_are_one_line_errors(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "does not apply" in err
