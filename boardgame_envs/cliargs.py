"""Argument pieces the subcommands of ``boardgame-envs`` share: the game and its size, policy specs.

Choices, defaults and help come from the game catalog and the policy registry, so a
new game or policy kind shows up in the subcommands that use them at once. ``ladder``
and ``rate`` write their own game argument (``ladder/cli.py``): it also takes a
ladder's name (``gomoku9``) and picks among the game's ladders.
"""

from __future__ import annotations

import argparse
import inspect
import re
import sys
from collections.abc import Callable
from typing import Any

from boardgame_envs.envs.factory import env_fn, make_env
from boardgame_envs.games.catalog import GAMES
from boardgame_envs.games.mnk import RULES
from boardgame_envs.games.opening_rules import valid_names
from boardgame_envs.games.parameters import assignments
from boardgame_envs.policies.registry import check_spec, parse_value

GOMOKU = GAMES["gomoku"]


def save_games_help(what: str = "every game") -> str:
    """``--save-games``'s help: which record each game gets (arena/records.py writes SGF for an m,n,k game, a
    move list for any other), the catalog's games named on each side."""
    mnk = [name for name, info in GAMES.items() if info.factory is None]
    others = [name for name, info in GAMES.items() if info.factory is not None]
    return (f"write {what} to DIR, one file a game: SGF for an m,n,k game ({', '.join(mnk)}), a move-list record "
            f"(.txt) for any other ({', '.join(others + ['...'])})")  # fmt: skip
# make_env's own keywords, which a --param could otherwise set behind the command's back
ENV_ARGUMENTS = tuple(name for name, p in inspect.signature(make_env).parameters.items() if p.kind is not p.VAR_KEYWORD)


MARKUP = re.compile(r"``(.+?)``")


class PlainHelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, showing the docstrings' ``literal`` markup as plain text: some help comes from
    docstrings (the trainer's options from its config's fields), and a terminal shows the backticks raw."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return super()._split_lines(MARKUP.sub(r"\1", text), width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return super()._fill_text(MARKUP.sub(r"\1", text), width, indent)


class OneLineParser(argparse.ArgumentParser):
    """Argument errors as one line on stderr and exit status 2 (``boardgame-envs rate: error: ...; see
    boardgame-envs rate -h``), not argparse's usage block; help without reST markup. Subparsers inherit
    the class (and so the formatter, and no abbreviations).

    Options are never abbreviated (``allow_abbrev=False``): argparse would read ``--game connect_four`` as
    ``--games connect_four`` ("invalid int value") and ``--game 2`` as ``--games 2`` (silently). An option this
    parser does not have is refused with what was likely meant: the option it begins, or the positional
    argument it names (``--game``: GAME is given without a flag)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", PlainHelpFormatter)
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}; see {self.prog} -h\n")

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> tuple[argparse.Namespace, list[str]]:
        # A subcommand's parser is called through parse_known_args and hands unknown options up to the top
        # parser, which knows neither the subcommand's options nor its positionals: the hint is made here.
        parsed, extras = super().parse_known_args(args, namespace)
        for word in extras:
            hint = self.unknown_option_hint(word)
            if hint:
                self.error(f"unrecognized argument {word}: {hint}")
        return parsed, extras

    def unknown_option_hint(self, word: str) -> str:
        """What an unknown ``--word`` likely meant here, "" when nothing: the positional it names, the options
        it begins (abbreviations are not read)."""
        if not word.startswith("--") or len(word) < 3:
            return ""
        name = word[2:].split("=", 1)[0].replace("-", "_").lower()
        positionals = [a for a in self._actions if not a.option_strings and not isinstance(a, argparse._SubParsersAction)]
        said = []
        for action in positionals:
            if name in (action.dest.lower(), str(action.metavar or "").lower()):
                usage = " ".join(str(a.metavar or a.dest.upper()) for a in positionals)
                said.append(f"{action.metavar or action.dest.upper()} is given without a flag ({self.prog} {usage})")
        longer = sorted(o for a in self._actions for o in a.option_strings if o.startswith(word.split("=", 1)[0]))
        if longer:
            said.append(f"did you mean {' or '.join(longer)}? (options are spelled out in full)")
        return "; ".join(said)


def unknown_game(word: str, order: str | None = None, names: tuple[str, ...] = tuple(GAMES)) -> str:
    """The message for a GAME argument that names no game: the games, and ``order`` (the command's
    positional arguments, e.g. ``rate POLICY GAME``) when given; a word that is a policy spec is said to be
    one, since ``rate`` takes the policy first and ``arena`` the game first, and the two are easily swapped."""
    try:
        check_spec(word)
        what = f"{word!r} is a policy, not a game"
    except ValueError:
        what = f"unknown game {word!r}"
    takes = f": {order}" if order else ""
    return f"{what}{takes}; games: {', '.join(names)}"


def game_arg(order: str | None = None) -> Callable[[str], str]:
    """argparse type of a positional GAME (a catalog name), refused with :func:`unknown_game`'s message."""

    def parse(text: str) -> str:
        if text not in GAMES:
            raise argparse.ArgumentTypeError(unknown_game(text, order))
        return text

    return parse


def add_game_arguments(parser: argparse.ArgumentParser, default: str | None = None, order: str | None = None) -> None:
    """The positional game, ``--board-size / --win-length / --rule`` (gomoku only; defaults from the catalog) and
    ``--param KEY=VALUE`` (a game whose catalog entry declares parameters).

    ``order`` says how the command takes its positional arguments (``arena takes GAME, then two or more
    POLICY``), for the error of a word that is no game."""
    games = ", ".join(f"{name} ({info.summary})" for name, info in GAMES.items())
    if default is None:
        parser.add_argument("game", type=game_arg(order), metavar="GAME", help=games)
    else:
        parser.add_argument("game", nargs="?", default=default, type=game_arg(order), metavar="GAME",
                            help=f"{games}; default {default}")  # fmt: skip
    add_game_options(parser)


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """The game's options without the game: ``--board-size / --win-length / --rule`` (gomoku only) and ``--param
    KEY=VALUE``; for a command that takes its game otherwise (the training recipes' ``--game``)."""
    lo, hi = GOMOKU.sizes
    parser.add_argument("--board-size", type=int, default=None, help=f"gomoku: {lo}..{hi} (default {GOMOKU.default_size})")
    parser.add_argument("--win-length", type=int, default=None, help=f"gomoku: k in a row (default {GOMOKU.default_win_length})")
    parser.add_argument("--rule", default=None, choices=RULES, help=f"gomoku (default {GOMOKU.default_rule})")
    add_param_argument(parser)


def param_arg(text: str) -> str:
    """argparse type of ``--param KEY=VALUE``: the text, once it has that form (its value is read by
    :func:`parameters_of`, the game's entry checks both when the game is built)."""
    try:
        assignments([text])
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def add_param_argument(parser: argparse.ArgumentParser) -> None:
    """``--param KEY=VALUE`` (repeatable): a parameter the game's catalog entry declares (``rows=3``)."""
    parser.add_argument("--param", metavar="KEY=VALUE", type=param_arg, action="append", default=[],
                        help="a parameter the game's catalog entry declares (e.g. rows=3); repeat for more")  # fmt: skip


def parameters_of(options: list[str]) -> dict[str, Any]:
    """``--param`` options as the game's parameters, ``["rows=3"]`` -> ``{"rows": 3}`` (numbers and true/false read
    as policy arguments are); a key given twice, or one of the command's own (``board_size``, ``raw``), is a
    ValueError (one line on the command line)."""
    parameters = {key: parse_value(value) for key, value in assignments(options).items()}
    taken = [key for key in parameters if key in ENV_ARGUMENTS]  # make_env's own: never a game's parameter
    if taken:
        raise ValueError(f"--param {taken[0]}: {taken[0]} is no game parameter (the command's own options set it)")
    return parameters


def add_opening_rule_argument(parser: argparse.ArgumentParser) -> None:
    """``--opening-rule NAME``: play under a tournament opening rule (gomoku and renju; see docs/opening_rules.md)."""
    parser.add_argument("--opening-rule", metavar="NAME", default=None,
                        help=f"play under a tournament opening rule, which lays the opening and decides who plays "
                        f"black: {valid_names()}")  # fmt: skip


def game_env_fn(args: argparse.Namespace, **kwargs: Any) -> Callable[[], Any]:
    """``() -> env`` for the parsed game arguments (``--param`` too, and ``--opening-rule``, where the subcommand
    has it); arguments that do not apply to the game raise ValueError."""
    if getattr(args, "opening_rule", None) is not None:
        kwargs.setdefault("opening_rule", args.opening_rule)
    return env_fn(args.game, args.board_size, args.win_length, args.rule, **kwargs, **parameters_of(args.param))


def policy_arg(text: str) -> str:
    """argparse type of a policy spec (``mcts:simulations=200``, a ``.pt`` checkpoint, ...), checked now."""
    try:
        check_spec(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def engine_arg(text: str) -> str:
    """argparse type of ``--engine NAME=PATH``: the binary of a named engine (``engine:NAME:...`` specs,
    external ladder levels), configured at once for this process and its workers; returns the name."""
    from boardgame_envs.gomocup.engines import configure_from

    try:
        return configure_from(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_engine_argument(parser: argparse.ArgumentParser) -> None:
    """``--engine NAME=PATH`` (repeatable): where a named engine's binary is (see :func:`engine_arg`)."""
    parser.add_argument("--engine", metavar="NAME=PATH", type=engine_arg, action="append", default=[],
                        help="the binary of a named engine for engine:NAME specs and external ladder levels, e.g. "
                        "rapfi=/opt/rapfi/pbrain-rapfi (or set BOARDGAME_ENVS_RAPFI)")  # fmt: skip


# Upper bounds of the counting options: far above any run this package makes (a million games is days of
# CPU), far below what numpy can allocate, so a slip of the keyboard is one argparse line, not numpy's
# "Maximum allowed dimension exceeded" from the arrays sized by it. Seeds stay within what every
# generator the package seeds accepts (numpy's legacy RandomState takes 0..2**32-1).
MAX_GAMES = 1_000_000
MAX_JOBS = 1024
MAX_SEED = 2**32 - 1


def bounded_int(lo: int, hi: int) -> Callable[[str], int]:
    """argparse type of an integer from ``lo`` to ``hi``; one out of range is one line naming the range."""

    def parse(text: str) -> int:
        value = int(text)  # a ValueError reads as argparse's own "invalid int value: 'abc'"
        if not lo <= value <= hi:
            shown = text if len(text) <= 30 else text[:27] + "..."
            raise argparse.ArgumentTypeError(f"{shown} is out of range: {lo}..{hi:,}")
        return value

    parse.__name__ = "int"  # argparse names the type in its own messages
    return parse


GAMES_ARG = bounded_int(1, MAX_GAMES)
JOBS_ARG = bounded_int(1, MAX_JOBS)
SEED_ARG = bounded_int(0, MAX_SEED)


def say_interrupted(what: str = "interrupted") -> None:
    """The one line of a Ctrl-C on stderr; on a terminal it replaces an unfinished progress bar's line."""
    start = "\r\033[K" if sys.stderr.isatty() else ""
    print(f"{start}boardgame-envs: {what}", file=sys.stderr)


class PolicyList(argparse.Action):
    """``nargs="+"`` policy specs for the arena: two or more; a round robin (three or more) names each once.

    Two equal specs are a match of a policy against itself (the first-move advantage).
    """

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:  # fmt: skip
        if len(values) < 2:
            raise argparse.ArgumentError(self, f"the arena needs two or more policies, got only {values[0]!r}")
        twice = sorted({v for v in values if values.count(v) > 1})
        if twice and len(values) > 2:
            named = ", ".join(map(repr, twice))
            raise argparse.ArgumentError(self, f"{named} named twice; a round robin names each once (two of one kind "
                                               "differ by their arguments, e.g. mcts:simulations=200 and "
                                               "mcts:simulations=800)")  # fmt: skip
        setattr(namespace, self.dest, values)
