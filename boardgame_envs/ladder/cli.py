"""The ``ladder``, ``ladder build`` and ``rate`` subcommands of ``boardgame-envs`` (wired in by :mod:`boardgame_envs.cli`).

``boardgame-envs ladder build GAME`` builds a ladder for any catalog game from built-in levels
(:data:`~boardgame_envs.ladder.ladders.GENERIC_LEVELS`, or ``--level`` specs), says what a round
will cost before it plays, shows a progress bar while it plays (resumable: Ctrl-C, then the same
command), and keeps the table in the user's ladder folder, where ``rate`` and ``ladder`` find it.

Bad input (an unknown game or level, a number of games below 2, ``--jobs`` above the
cores, an unknown ``--backend``, a ``--save-games`` or ``--plot`` path that cannot be
written) raises ``ValueError`` here, which the command line prints as one line and
exits with status 2, as argparse's own errors are (``--games abc``; see
:class:`boardgame_envs.cliargs.OneLineParser`).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from boardgame_envs.cliargs import (
    GAMES_ARG, JOBS_ARG, SEED_ARG, add_engine_argument, add_opening_rule_argument, add_param_argument, parameters_of,
    save_games_help,
)  # fmt: skip
from boardgame_envs.ladder.ladders import LADDERS_VARIABLE


def _game_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", metavar="GAME", help="tictactoe, gomoku (15x15, or --board-size 8 or 9), renju or connect_four; or a ladder name: gomoku8, gomoku9, gomoku15, or one built by 'boardgame-envs ladder build GAME'")
    parser.add_argument("--board-size", type=int, default=None, help="gomoku: 8, 9 or 15 (default 15)")
    parser.add_argument("--rule", default=None, help="gomoku: renju or freestyle; default renju (the game's default) "
                        "where a renju ladder exists (15x15), else freestyle (8x8, 9x9)")  # fmt: skip
    add_param_argument(parser)


def add_ladder_arguments(parser: argparse.ArgumentParser) -> None:
    _game_arguments(parser)
    parser.add_argument("--plot", metavar="PNG", default=None, help="also write the plot (Elo against level, 95%% bars)")
    parser.add_argument("--markdown", action="store_true", help="print the table as markdown")


def run_ladder(args: argparse.Namespace) -> int:
    from boardgame_envs.ladder.ladders import ladder_for
    from boardgame_envs.ladder.report import format_table, write_plot

    ladder = ladder_for(args.game, args.rule, args.board_size, parameters_of(args.param))
    plot = write_plot(ladder, args.plot) if args.plot else None  # first: a path it cannot write is the only output
    print(format_table(ladder, markdown=args.markdown))
    if plot is not None:
        print(f"plot: {plot}")
    return 0


def add_rate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("policy", metavar="POLICY", help="a policy spec (mcts:simulations=200, level:renju/5, a .pt checkpoint, pbrain:PATH)")
    _game_arguments(parser)
    parser.add_argument("--games", type=GAMES_ARG, default=400,
                        help="games to play: an even number (colour-swapped pairs; an odd one is refused); "
                        "fewer only when --precision is reached first (default 400)")  # fmt: skip
    parser.add_argument("--jobs", type=JOBS_ARG, default=1, help="games at a time; local: at most the cores (default 1)")
    parser.add_argument("--backend", default="local", help="where the games run: local (processes) or ray (default local)")
    parser.add_argument("--seed", type=SEED_ARG, default=0)
    parser.add_argument("--precision", type=float, default=None, metavar="ELO",
                        help="stop early once the 95%% interval is at most ±ELO")  # fmt: skip
    parser.add_argument("--save-games", metavar="DIR", default=None, help=save_games_help())
    add_opening_rule_argument(parser)
    add_engine_argument(parser)


def run_rate(args: argparse.Namespace) -> int:
    from boardgame_envs.ladder.ladders import ladder_for
    from boardgame_envs.ladder.rating import rate

    game, rule, board_size, parameters = args.game, args.rule, args.board_size, parameters_of(args.param)
    if parameters:  # the built ladder of the game with these parameters, by its name
        game, rule, board_size = ladder_for(game, rule, board_size, parameters).name, None, None
    try:
        rating = rate(args.policy, game, rule=rule, board_size=board_size, games=args.games,
                      seed=args.seed, jobs=args.jobs, precision=args.precision, backend=args.backend,
                      save_games=args.save_games, opening_rule=args.opening_rule)  # fmt: skip
    except KeyboardInterrupt:
        print("interrupted before a game finished: no estimate", file=sys.stderr)
        return 130
    print(rating)
    if rating.interrupted:
        print("interrupted: the estimate above is from the games finished so far", file=sys.stderr)
        return 130
    return 0


def add_build_arguments(parser: argparse.ArgumentParser) -> None:
    from boardgame_envs.ladder.build import TARGET
    from boardgame_envs.ladder.ladders import GENERIC_LEVELS

    parser.add_argument("game", metavar="GAME", help="a catalog game (any: its ladder is built from built-in levels)")
    parser.add_argument("--board-size", type=int, default=None, help="an m,n,k game's board side (gomoku: 5..19)")
    parser.add_argument("--rule", default=None, help="an m,n,k game's rule (freestyle, standard, renju)")
    add_param_argument(parser)
    parser.add_argument("--level", metavar="SPEC", action="append", default=None,
                        help=f"a level, weakest first, random the first (repeat; default: {' '.join(GENERIC_LEVELS)})")
    parser.add_argument("--games-per-pair", type=GAMES_ARG, default=20,
                        help="games each neighbour pair plays a round (even; default 20)")
    parser.add_argument("--target", type=float, default=TARGET,
                        help=f"play rounds until every step's 95%% interval is within ±ELO (default {TARGET:g})")
    parser.add_argument("--rounds", type=int, default=None, help="stop after this many rounds")
    parser.add_argument("--minutes", type=float, default=None, help="stop after the game in play once this much time has passed")
    parser.add_argument("--jobs", type=JOBS_ARG, default=1, help="games at a time; local: at most the cores (default 1)")
    parser.add_argument("--backend", default="local", help="where the games run: local (processes) or ray (default local)")
    parser.add_argument("--name", default=None, help="the ladder's name (default: the game's, with its size, rule and parameters)")
    parser.add_argument("--plot", action="store_true", help="also draw the plot next to the table (needs matplotlib)")


def run_build(args: argparse.Namespace) -> int:
    """Build (or go on building) a ladder for any catalog game; see the module docstring."""
    from boardgame_envs.ladder.build import build, plan_round, rate_linked
    from boardgame_envs.ladder.games import missing, read_log
    from boardgame_envs.ladder.report import format_table

    ladder = build_target(args)
    log = read_log(ladder.log_path)
    plan = plan_round(ladder, log, rate_linked(ladder, log), args.games_per_pair, args.target)
    round_games = sum(len(missing(log, a, b, total)) for a, b, total in plan)
    if round_games:
        print(cost_statement(ladder, round_games, args.jobs), file=sys.stderr)
    else:
        print(f"ladder {ladder.name}: every step is within ±{args.target:g} Elo already; nothing to play", file=sys.stderr)
    command = f"boardgame-envs ladder build {' '.join(build_argv(args))}"
    try:
        build(ladder, args.jobs, args.games_per_pair, args.target, args.minutes, args.rounds, command=command,
              plot=args.plot, backend=args.backend)  # fmt: skip
    except KeyboardInterrupt:
        print("interrupted: the games played so far are in the log; run the same command to go on", file=sys.stderr)
        return 130
    print(format_table(ladder))
    print(f"kept in {ladder.table_path.parent} (${LADDERS_VARIABLE} to move it); rate a policy on it: "
          f"boardgame-envs rate POLICY {ladder.name}")  # fmt: skip
    return 0


def build_target(args: argparse.Namespace) -> Any:
    """The ladder ``ladder build`` plays: its game checked, its levels built-in searches, its name free."""
    from boardgame_envs.games.catalog import game_info
    from boardgame_envs.ladder.ladders import (
        GENERIC_LEVELS, LADDERS, NAME_PATTERN, Ladder, LadderError, built_name, check_level, ladder_for, user_dir,
    )  # fmt: skip
    from boardgame_envs.policies.registry import make_policy

    parameters = parameters_of(args.param)
    info = game_info(args.game)
    game = info.game(args.board_size, None, args.rule, **parameters)  # arguments that do not apply fail here
    if args.name is None:
        try:
            shipped = ladder_for(args.game, args.rule, args.board_size)
        except LadderError:
            shipped = None
        if shipped is not None and shipped.folder is None and not parameters:
            raise LadderError(f"{shipped.describe()} has the shipped ladder {shipped.name!r}; give --name to build "
                              "another")  # fmt: skip
    name = args.name or built_name(args.game, args.board_size, args.rule, parameters)
    if not NAME_PATTERN.fullmatch(name) or name in LADDERS or (args.name is not None and name in _catalog()):
        raise LadderError(f"--name must be letters, digits, '_', '.' or '-' (64 at most), neither a shipped ladder "
                          f"nor a catalog game, got {name!r}")  # fmt: skip
    specs = tuple(args.level or GENERIC_LEVELS)
    for spec in specs:
        make_policy(check_level(spec), seed=0)  # a bad spec fails before any game
    if specs[0] != "random" or len(set(specs)) != len(specs) or len(specs) < 2:
        raise LadderError(f"a ladder's levels are two or more different specs, 'random' the first, got {list(specs)}")
    if args.games_per_pair % 2:
        raise ValueError(f"--games-per-pair must be even (colour-swapped pairs), got {args.games_per_pair}")
    if args.rounds is not None and args.rounds < 1:
        raise ValueError(f"--rounds must be at least 1, got {args.rounds}")
    if args.minutes is not None and not args.minutes > 0:
        raise ValueError(f"--minutes must be positive, got {args.minutes}")
    if not args.target > 0:
        raise ValueError(f"--target must be a positive number of Elo, got {args.target}")
    size = args.board_size if info.factory is None else None
    rule = args.rule if info.factory is None else None
    ladder = Ladder(name, args.game, size, rule, specs, tuple(parameters.items()), user_dir())
    if ladder.game_object() != game:
        raise LadderError(f"the ladder's game ({ladder.describe()}) is not the one asked for ({game.describe()})")
    return ladder


def _catalog() -> Any:
    from boardgame_envs.games.catalog import GAMES

    return GAMES


def cost_statement(ladder: Any, round_games: int, jobs: int) -> str:
    """What a round will cost, measured on one game of the top pair (the dearest, as a rule) played here now."""
    import time

    from boardgame_envs.ladder.games import ladder_task, play_one

    top = ladder_task(ladder.specs[-2], ladder.specs[-1], 0, ladder)
    started = time.process_time()
    record = play_one(ladder.env_fn(), top)
    spent = time.process_time() - started
    total = spent * round_games / jobs
    return (f"ladder {ladder.name} ({ladder.describe()}): {len(ladder.specs)} levels; this round plays {round_games} "
            f"games; one game of the top pair ({ladder.specs[-2]} against {ladder.specs[-1]}) took {spent:.2f} s of "
            f"CPU here ({len(record.moves)} moves), so the round takes about {_duration(total)} or less on {jobs} "
            f"job{'s' if jobs > 1 else ''}; rounds go on until every step is within the target (--rounds, --minutes "
            f"stop sooner; Ctrl-C stops and the same command goes on)")  # fmt: skip


def _duration(seconds: float) -> str:
    if seconds < 1:
        return "a second"
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.0f} min" if seconds < 7200 else f"{seconds / 3600:.1f} h"


def build_argv(args: argparse.Namespace) -> list[str]:
    """The build's own command line, to store in the table (what regenerates it)."""
    out = [args.game]
    out += [f"--board-size {args.board_size}"] if args.board_size else []
    out += [f"--rule {args.rule}"] if args.rule else []
    out += [f"--param {p}" for p in args.param] + [f"--level {s}" for s in args.level or ()]
    out += [f"--games-per-pair {args.games_per_pair}"] + ([f"--name {args.name}"] if args.name else [])
    return out


def build_main(argv: list[str], prog: str = "boardgame-envs ladder build") -> int:
    """``boardgame-envs ladder build ...``: a mistake is one line and exit status 2."""
    from boardgame_envs.arena.backends import ArenaError
    from boardgame_envs.cliargs import OneLineParser

    parser = OneLineParser(prog=prog, description="build a ladder for any catalog game from built-in levels; "
                           f"it is kept in ${LADDERS_VARIABLE} (default ~/.cache/boardgame_envs/ladders), where rate "
                           "finds it")  # fmt: skip
    add_build_arguments(parser)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    try:
        return run_build(args)
    except (ValueError, OSError) as exc:
        print(f"{prog}: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    except ArenaError as exc:  # a level's policy failed, or its worker died twice: the log keeps the games so far
        print(f"{prog}: {exc}", file=sys.stderr)
        return 1
