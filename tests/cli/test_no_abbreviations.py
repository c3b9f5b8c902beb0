"""No parser of the command line reads an abbreviated option: ``--game`` is never ``--games``. Every parser is
walked (the top, each subcommand, ``ladder build``, the benchmarks); an unknown option that begins a real one, or
names a positional argument, is one line saying what was likely meant."""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

import pytest

import boardgame_envs
from boardgame_envs.cli import build_parser, main


def _parsers(parser: argparse.ArgumentParser, name: str = "boardgame-envs"):
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub in action.choices.items():
                yield from _parsers(sub, f"{name} {sub_name}")


def _every_parser():
    yield from _parsers(build_parser())
    from boardgame_envs.ladder import cli as ladder_cli
    from boardgame_envs.cliargs import OneLineParser

    build = OneLineParser(prog="boardgame-envs ladder build")
    ladder_cli.add_build_arguments(build)
    yield "boardgame-envs ladder build", build


def test_every_subcommand_is_walked():
    names = {name for name, _ in _parsers(build_parser())}
    assert {"boardgame-envs rate", "boardgame-envs arena", "boardgame-envs train", "boardgame-envs demo"} <= names


@pytest.mark.parametrize("name, parser", list(_every_parser()), ids=lambda x: x if isinstance(x, str) else "")
def test_no_parser_reads_an_abbreviated_option(name, parser):
    assert parser.allow_abbrev is False, name
    # and in deed: each long option cut by one letter (unless that is an option too) is not read as it
    options = {o for a in parser._actions for o in a.option_strings}
    for option in sorted(o for o in options if o.startswith("--") and len(o) > 4):
        cut = option[:-1]
        if cut in options:
            continue
        found = parser._parse_optional(cut)  # (action, option, value) when argparse would read it as an option
        assert found is None or found[0] is None, (name, cut)


def test_every_argument_parser_in_the_package_and_baselines_refuses_abbreviations():
    """The parsers not reached from the command line's (the benchmarks', the scripts' in baselines/): each
    ``argparse.ArgumentParser(...)`` call says ``allow_abbrev=False``; the package's own parser classes set it."""
    root = Path(boardgame_envs.__file__).parent
    calls = []
    for path in sorted([*root.rglob("*.py"), *(root.parent / "baselines").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "ArgumentParser":
                keywords = {k.arg: k.value for k in node.keywords}
                ok = isinstance(keywords.get("allow_abbrev"), ast.Constant) and keywords["allow_abbrev"].value is False
                calls.append((path.name, node.lineno, ok))
    assert len(calls) >= 20  # the benchmarks and the baselines' scripts
    assert [c for c in calls if not c[2]] == []


def test_rate_game_flag_names_the_positional_and_games(capsys):
    assert main(["rate", "--game", "connect_four", "random"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "invalid int value" not in err
    assert "unrecognized argument --game: GAME is given without a flag (boardgame-envs rate POLICY GAME)" in err
    assert "did you mean --games?" in err


def test_arena_game_flag_never_plays_games(capsys):
    assert main(["arena", "tictactoe", "random", "greedy", "--game", "2"]) == 2  # played 2 games before
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "did you mean --games?" in err and "GAME is given without a flag" in err
    assert "games," not in capsys.readouterr().out


def test_an_unknown_option_with_no_likely_meaning_is_argparses_line(capsys):
    assert main(["rate", "random", "tictactoe", "--gmes", "3"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unrecognized arguments: --gmes 3" in err
