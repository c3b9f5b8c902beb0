"""AlphaZero on a small gomoku board (default: 6x6 four in a row), then a match against MCTS.

    python baselines/alphazero_gomoku.py --minutes 15 --seed 0 --out baselines/results/alphazero_6x6_k4.md

Trains with ``AlphaZeroConfig.for_game("gomoku", board_size)`` for
``--minutes`` of wall time (everything included), then plays the trained
``NetworkPolicy`` (``--simulations`` PUCT simulations a move) against
``MCTSPolicy(simulations=--mcts-sims)``, ``--games`` games with seats
alternated, through the arena.
"""

from __future__ import annotations

import argparse
import ast
import functools
import sys
import tempfile
import time

from boardgame_envs import gomoku_v0
from boardgame_envs.alphazero import AlphaZeroConfig, AlphaZeroTrainer, NetworkPolicy
from boardgame_envs.arena import match
from report import command_line, publish  # baselines/report.py, beside this script


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--board-size", type=int, default=6)
    parser.add_argument("--win-length", type=int, default=4)
    parser.add_argument("--rule", default="freestyle")
    parser.add_argument("--minutes", type=float, default=15.0, help="training wall time")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", type=int, default=200, help="games against MCTS, seats alternated")
    parser.add_argument("--simulations", type=int, default=400, help="the network's PUCT simulations a move")
    parser.add_argument("--mcts-sims", type=int, default=1000, help="the MCTS opponent's simulations a move")
    parser.add_argument("--jobs", type=int, default=2, help="processes for the match")
    parser.add_argument("--run-dir", default=None, help="keep checkpoints here (default: a temporary directory)")
    parser.add_argument("--out", default=None, help="write the report (markdown) here")
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                        help="override an AlphaZeroConfig field, e.g. --set simulations=200")  # fmt: skip
    args = parser.parse_args(argv)
    overrides = {k: ast.literal_eval(v) for k, v in (item.split("=", 1) for item in args.set)}

    env_fn = functools.partial(gomoku_v0.env, board_size=args.board_size, win_length=args.win_length, rule=args.rule)
    run_dir = args.run_dir or tempfile.mkdtemp(prefix="az_gomoku_")
    config = AlphaZeroConfig.for_game("gomoku", args.board_size, minutes=args.minutes, seed=args.seed, out=run_dir,
                                      eval_every=0, progress=False, **overrides)  # fmt: skip
    started = time.perf_counter()
    trainer = AlphaZeroTrainer(env_fn, config)
    rows = trainer.train()
    train_s = time.perf_counter() - started
    last = rows[-1]
    checkpoint = f"{run_dir}/latest.pt"

    t0 = time.perf_counter()
    result = match(
        env_fn,
        functools.partial(_network, checkpoint, args.simulations),
        ("mcts", {"simulations": args.mcts_sims}),
        games=args.games, seed=args.seed + 1, jobs=args.jobs, progress=False,
    )  # fmt: skip
    eval_s = time.perf_counter() - t0
    score, lo, hi = result.score()
    report = [
        f"# AlphaZero on {args.board_size}x{args.board_size}, {args.win_length} in a row ({args.rule}), from scratch",
        "",
        f"Command: `{command_line(argv)}`  ",
        f"Seed {args.seed}; `AlphaZeroConfig.for_game('gomoku', {args.board_size})` defaults: {config.blocks} residual "
        f"blocks x {config.channels} channels, {config.simulations} simulations a move in self-play, "
        f"{config.parallel_games} games in lockstep, torch on {config.torch_threads} thread(s)"
        + (f"; overrides {overrides}" if overrides else "") + ".  ",
        f"Training wall time {train_s:.0f} s (everything, JIT warm-up included): {trainer.iteration} iterations, "
        f"{trainer.games_played} self-play games; last losses: policy {last['policy_loss']:.3f}, "
        f"value {last['value_loss']:.3f}; first-player win rate in the last self-play batch "
        f"{last['first_player_win_rate']:.2f}.",
        "",
        f"Match: the trained network with {args.simulations} PUCT simulations a move against "
        f"`MCTSPolicy(simulations={args.mcts_sims})`, {args.games} games, seats alternated, {eval_s:.0f} s.",
        "",
        "| network's seat | wins | draws | losses |",
        "|---|---|---|---|",
        *(f"| {seat} | {w} | {d} | {l} |" for seat, (w, d, l) in result.by_seat.items()),
        f"| total | {result.wins} | {result.draws} | {result.losses} |",
        "",
        f"Score {score:.3f} (95% {lo:.3f}..{hi:.3f}); wins {100 * result.wins / result.games:.1f}% of games.",
        "",
    ]
    publish(report, args.out)
    return 0


def _network(checkpoint: str, simulations: int, seed: int) -> NetworkPolicy:
    """The trained network as an arena policy (a module-level function, so worker processes can build it)."""
    return NetworkPolicy.from_checkpoint(checkpoint, simulations=simulations, seed=seed)


if __name__ == "__main__":
    sys.exit(main())
