"""The ``ladder`` and ``rate`` subcommands of ``boardgame-envs`` (wired in by :mod:`boardgame_envs.cli`).

Bad input (an unknown game or level, a number of games below 2, ``--jobs`` above the
cores, an unknown ``--backend``, a ``--save-games`` or ``--plot`` path that cannot be
written) raises ``ValueError`` here, which the command line prints as one line and
exits with status 2, as argparse's own errors are (``--games abc``; see
:class:`boardgame_envs.cliargs.OneLineParser`).
"""

from __future__ import annotations

import argparse
import sys

from boardgame_envs.cliargs import GAMES_ARG, JOBS_ARG, SEED_ARG, add_engine_argument, add_opening_rule_argument


def _game_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", metavar="GAME", help="tictactoe, gomoku (15x15, or --board-size 8 or 9), renju or connect_four; or a ladder name: gomoku8, gomoku9, gomoku15")
    parser.add_argument("--board-size", type=int, default=None, help="gomoku: 8, 9 or 15 (default 15)")
    parser.add_argument("--rule", default=None, help="gomoku: renju or freestyle; default renju (the game's default) "
                        "where a renju ladder exists (15x15), else freestyle (8x8, 9x9)")  # fmt: skip


def add_ladder_arguments(parser: argparse.ArgumentParser) -> None:
    _game_arguments(parser)
    parser.add_argument("--plot", metavar="PNG", default=None, help="also write the plot (Elo against level, 95%% bars)")
    parser.add_argument("--markdown", action="store_true", help="print the table as markdown")


def run_ladder(args: argparse.Namespace) -> int:
    from boardgame_envs.ladder.ladders import ladder_for
    from boardgame_envs.ladder.report import format_table, write_plot

    ladder = ladder_for(args.game, args.rule, args.board_size)
    plot = write_plot(ladder, args.plot) if args.plot else None  # first: a path it cannot write is the only output
    print(format_table(ladder, markdown=args.markdown))
    if plot is not None:
        print(f"plot: {plot}")
    return 0


def add_rate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("policy", metavar="POLICY", help="a policy spec (mcts:simulations=200, level:renju/5, a .pt checkpoint, pbrain:PATH)")
    _game_arguments(parser)
    parser.add_argument("--games", type=GAMES_ARG, default=400, help="games to play at most (whole colour-swapped pairs; default 400)")
    parser.add_argument("--jobs", type=JOBS_ARG, default=1, help="games at a time; local: at most the cores (default 1)")
    parser.add_argument("--backend", default="local", help="where the games run: local (processes) or ray (default local)")
    parser.add_argument("--seed", type=SEED_ARG, default=0)
    parser.add_argument("--precision", type=float, default=None, metavar="ELO",
                        help="stop early once the 95%% interval is at most ±ELO")  # fmt: skip
    parser.add_argument("--save-games", metavar="DIR", default=None, help="write every game to DIR as SGF")
    add_opening_rule_argument(parser)
    add_engine_argument(parser)


def run_rate(args: argparse.Namespace) -> int:
    from boardgame_envs.ladder.rating import rate

    try:
        rating = rate(args.policy, args.game, rule=args.rule, board_size=args.board_size, games=args.games,
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
