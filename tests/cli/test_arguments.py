"""The command line's arguments as a reader meets them: help without markup and with defaults,
the argument order named when a game and a policy are swapped, --gui refused where no window shows."""

from __future__ import annotations

import re

import pytest

from boardgame_envs.cli import build_parser, main
from boardgame_envs.games.catalog import GAMES


def _help(*command: str) -> str:
    parser = build_parser()
    if command:
        parser = next(a for a in parser._subparsers._group_actions if a.dest == "command").choices[command[0]]
    return parser.format_help()


def _error_line(capsys) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1, err
    return err


@pytest.mark.parametrize("command", ["", "demo", "play", "arena", "rate", "ladder", "replay", "pbrain", "train"])
def test_help_shows_no_rest_markup(command):
    text = _help(*([command] if command else []))
    assert "``" not in text


def test_the_formatter_strips_literal_markup_and_keeps_the_words():
    from boardgame_envs.cliargs import OneLineParser

    parser = OneLineParser(prog="x", description="run ``boardgame-envs -h`` first")
    parser.add_argument("--n", help="moves searched with ``simulations``")
    text = parser.format_help()
    assert "run boardgame-envs -h first" in text and "moves searched with simulations" in text


@pytest.mark.parametrize(("command", "option", "default"), [
    ("play", "--opponent", "alphabeta"), ("play", "--color", "black"), ("play", "--seed", "0"),
    ("arena", "--games", "50"), ("arena", "--jobs", "1"), ("arena", "--seed", "0"),
])  # fmt: skip
def test_play_and_arena_options_say_what_they_do_and_their_default(command, option, default):
    text = " ".join(_help(command).split())  # argparse wraps lines
    m = re.search(rf"{option} \S+ (.*?)\(default {default}\)", text)
    assert m is not None and len(m[1].split()) >= 3, f"{option}: no help with its default in {text!r}"
    action = next(a for a in build_parser()._subparsers._group_actions[0].choices[command]._actions
                  if option in a.option_strings)  # fmt: skip
    assert str(action.default) == default  # the help says the default the parser uses


@pytest.mark.parametrize(("argv", "said"), [
    (["rate", "tictactoe", "mcts"], "'mcts' is a policy, not a game: rate takes POLICY, then GAME"),
    (["rate", "mcts", "chess"], "unknown game 'chess': rate takes POLICY, then GAME"),
    (["arena", "mcts", "tictactoe", "random"], "'mcts' is a policy, not a game: arena takes GAME, then two or more POLICY"),
    (["arena", "chess", "mcts", "random"], "unknown game 'chess': arena takes GAME, then two or more POLICY"),
])  # fmt: skip
def test_a_swapped_game_and_policy_names_the_order(argv, said, capsys):
    assert main(argv) == 2
    line = _error_line(capsys)
    assert said in line and f"games: {', '.join(GAMES)}" in line  # the catalog's, whatever it holds


@pytest.mark.parametrize("game", ["gomoku9", "renju", "tictactoe"])
def test_rate_passes_games_and_ladder_names_on(game, monkeypatch):
    """The order check lets every game and ladder name through (gomoku9 is a ladder, no catalog game)."""
    seen = []
    monkeypatch.setattr("boardgame_envs.ladder.cli.run_rate", lambda args: seen.append((args.policy, args.game)) or 0)
    assert main(["rate", "mcts", game]) == 0
    assert seen == [("mcts", game)]


def test_play_gui_without_a_display_is_one_line_exit_2(capsys, monkeypatch):
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    assert main(["play", "tictactoe", "--gui"]) == 2
    assert "no display to open a window on" in _error_line(capsys)


@pytest.mark.parametrize("argv, said", [
    (["arena", "gomoku", "random", "random", "--games", "99999999999999999999"], "--games: 99999999999999999999 is out of range: 1..1,000,000"),
    (["arena", "gomoku", "random", "random", "--games", "0"], "--games: 0 is out of range"),
    (["arena", "gomoku", "random", "random", "--jobs", "99999999999"], "--jobs: 99999999999 is out of range: 1..1,024"),
    (["demo", "--seed", "-1"], "--seed: -1 is out of range: 0..4,294,967,295"),
    (["rate", "random", "tictactoe", "--games", "99999999999999999999"], "--games: 99999999999999999999 is out of range"),
    (["rate", "random", "tictactoe", "--seed", "99999999999999999999"], "--seed: 99999999999999999999 is out of range"),
])  # fmt: skip
def test_counts_beyond_their_bound_are_one_line_exit_2(argv, said, capsys):
    assert main(argv) == 2
    assert said in _error_line(capsys)
