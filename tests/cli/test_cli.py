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


def _subcommands() -> list[str]:
    """The subcommands the parser has now, so a new one is covered without editing this test."""
    import argparse

    from boardgame_envs.cli import build_parser

    action = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sorted(action.choices)


def test_the_subcommands_are_found():
    assert {"demo", "play", "arena", "ladder", "rate", "replay", "train", "pbrain"} <= set(_subcommands())


@pytest.mark.parametrize("argv", [[], *([name] for name in _subcommands())], ids=lambda argv: " ".join(argv) or "main")
def test_help_of_every_command_prints_and_exits_0(argv, capsys):
    # A '%' in any help text used to crash the main --help (argparse reads help as a format string).
    assert main([*argv, "--help"]) == 0
    captured = capsys.readouterr()
    assert "usage:" in captured.out and "Traceback" not in captured.err


def test_no_arguments_prints_usage_and_exit_2(capsys):
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "boardgame-envs" in err and err.count("\n") == 1


def test_demo_help_explains_every_option(capsys):
    assert main(["demo", "--help"]) == 0
    out = capsys.readouterr().out
    assert "moves first" in out and "moves second" in out and "seeds both policies" in out


@pytest.mark.parametrize("command", ["ladder", "rate"])
def test_ladder_and_rate_say_the_gomoku_default_rule(command, capsys):
    assert main([command, "--help"]) == 0
    assert "default renju" in capsys.readouterr().out


def test_ladder_gomoku_defaults_to_renju_like_demo_and_freestyle_where_no_renju_ladder(capsys):
    assert main(["ladder", "gomoku"]) == 0
    assert "renju ladder (gomoku 15x15 renju)" in capsys.readouterr().out
    assert main(["ladder", "gomoku", "--board-size", "9"]) == 0
    assert "9x9 freestyle" in capsys.readouterr().out


def test_a_missing_engine_in_rate_is_one_line(capsys, tmp_path):
    assert main(["rate", f"pbrain:{tmp_path}/nonexistent/pbrain-x", "gomoku", "--games", "2"]) == 2
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if "boardgame-envs: " in line]
    assert "Traceback" not in err and len(lines) == 1 and "does not exist" in lines[0]


def test_an_os_error_is_one_line_in_words_and_a_bug_keeps_its_traceback(monkeypatch, capsys):
    import errno

    from boardgame_envs import cli

    def full(args):
        raise OSError(errno.ENOSPC, "No space left on device", "runs/x/latest.pt")

    monkeypatch.setattr(cli, "demo", full)
    assert main(["demo", "tictactoe"]) == 2
    assert capsys.readouterr().err == "boardgame-envs: error: runs/x/latest.pt: No space left on device\n"

    def bug(args):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(cli, "demo", bug)
    with pytest.raises(ZeroDivisionError):
        main(["demo", "tictactoe"])


def test_replay_summaries_of_a_record_and_a_move_list_have_one_form(tmp_path, capsys):
    from boardgame_envs.arena.records import GameRecord, to_sgf

    moves = "h8 a1 i8 a2 j8 a3 k8 a4 l8"  # black makes five in a row on the 9th move
    (tmp_path / "g.txt").write_text(moves)
    assert main(["replay", str(tmp_path / "g.txt"), "gomoku", "--rule", "freestyle"]) == 0
    listed = capsys.readouterr().out.strip().splitlines()[-1]
    from boardgame_envs.games.notation import parse_point

    record = GameRecord(15, "freestyle", "a", "b", [parse_point(m, 15) for m in moves.split()], winner=1)
    (tmp_path / "g.sgf").write_text(to_sgf(record))
    assert main(["replay", str(tmp_path / "g.sgf"), "--moves", "9"]) == 0
    recorded = capsys.readouterr().out
    assert listed.endswith("Black wins · 9 moves") and "Black wins · 9 moves" in recorded and "1-0" not in recorded


def test_replay_escapes_control_characters_from_the_file(tmp_path, capsys):
    # OSC 2 (retitle the terminal, its ']' escaped as SGF asks), BEL, a colour and a clear-screen CSI:
    sgf = "(;GM[4]FF[4]SZ[15]PB[\033\\]2;x\007\033[31mred]PW[w]RE[B+R]C[\033[2J];B[hh];W[aa])"
    (tmp_path / "evil.sgf").write_text(sgf)
    assert main(["replay", str(tmp_path / "evil.sgf"), "--moves", "2"]) == 0
    out = capsys.readouterr().out
    assert "\033" not in out and "\007" not in out
    assert "\\x1b]2;x\\x07\\x1b[31mred" in out and "\\x1b[2J" in out


def test_printable_escapes_c0_c1_and_del_but_keeps_tabs_newlines_and_letters():
    from boardgame_envs.ui.escape import printable

    assert printable("a\tb\nc") == "a\tb\nc"
    assert printable("\033[31m\x9b2J\x7f\x00é") == "\\x1b[31m\\x9b2J\\x7f\\x00é"


@pytest.mark.parametrize("command", ["replay-sgf", "replay-moves"])
def test_gif_into_a_missing_folder_is_one_line(command, tmp_path, capsys):
    from boardgame_envs.arena.records import GameRecord, to_sgf

    if command == "replay-sgf":
        source = tmp_path / "g.sgf"
        source.write_text(to_sgf(GameRecord(15, "renju", "a", "b", [112], winner=0, finished=False)))
    else:
        source = tmp_path / "g.txt"
        source.write_text("h8 h9")
    assert main(["replay", str(source), "--gif", str(tmp_path / "no" / "such" / "game.gif")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "there is no folder" in err
