"""AlphaZero on a small gomoku board (default: 6x6 four in a row), then a match against a search policy.

    python baselines/alphazero_gomoku.py --minutes 15 --seed 0 --out baselines/results/alphazero_6x6_k4.md
    python baselines/alphazero_gomoku.py --board-size 8 --win-length 5 --minutes 30 --opponent uct:playouts=5000

Trains with ``AlphaZeroConfig.for_game("gomoku", board_size)`` for
``--minutes`` of wall time (everything included), then plays the trained
``NetworkPolicy`` (``--simulations`` PUCT simulations a move) against
``--opponent`` (a policy spec; default ``MCTSPolicy(simulations=--mcts-sims)``),
``--games`` games with seats alternated, through the arena. A run directory
that holds a checkpoint is resumed; ``--minutes 0`` only plays the match.
"""

from __future__ import annotations

import argparse
import ast
import functools
import os
import sys
import tempfile
import time

from boardgame_envs import gomoku_v0
from boardgame_envs.alphazero import AlphaZeroConfig, AlphaZeroTrainer, NetworkPolicy
from boardgame_envs.alphazero.config import BACKENDS
from boardgame_envs.arena import match
from boardgame_envs.policies.registry import check_spec
from report import command_line, publish  # baselines/report.py, beside this script


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--board-size", type=int, default=6)
    parser.add_argument("--win-length", type=int, default=4)
    parser.add_argument("--rule", default="freestyle")
    parser.add_argument("--minutes", type=float, default=15.0, help="training wall time")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", type=int, default=200, help="games against MCTS, seats alternated")
    parser.add_argument("--simulations", type=int, default=400, help="the network's PUCT simulations a move")
    parser.add_argument("--mcts-sims", type=int, default=1000, help="the MCTS opponent's simulations a move")
    parser.add_argument("--opponent", default=None, help="the opponent's policy spec (default mcts:simulations=MCTS_SIMS)")
    parser.add_argument("--jobs", type=int, default=2, help="processes for the match")
    parser.add_argument("--backend", default="local", choices=BACKENDS, help="where self-play runs (ray: on --workers actors)")
    parser.add_argument("--workers", type=int, default=2, help="self-play workers with --backend ray")
    parser.add_argument("--progress", action="store_true", help="a progress bar for the training (on stderr)")
    parser.add_argument("--run-dir", default=None, help="keep checkpoints here (default: a temporary directory)")
    parser.add_argument("--out", default=None, help="write the report (markdown) here")
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                        help="override an AlphaZeroConfig field, e.g. --set simulations=200")  # fmt: skip
    args = parser.parse_args(argv)
    overrides = {k: ast.literal_eval(v) for k, v in (item.split("=", 1) for item in args.set)}

    env_fn = functools.partial(gomoku_v0.env, board_size=args.board_size, win_length=args.win_length, rule=args.rule)
    run_dir = args.run_dir or tempfile.mkdtemp(prefix="az_gomoku_")
    opponent = args.opponent or f"mcts:simulations={args.mcts_sims}"
    check_spec(opponent)
    config = AlphaZeroConfig.for_game("gomoku", args.board_size, minutes=args.minutes or None, seed=args.seed,
                                      out=run_dir, eval_every=0, progress=args.progress,
                                      **{"backend": args.backend, "workers": args.workers, **overrides})  # fmt: skip
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    trainer = AlphaZeroTrainer(env_fn, config)
    resumed_from = trainer.iteration
    rows = trainer.train() if args.minutes else []
    train_s = time.perf_counter() - started
    load_after = os.getloadavg()[0]
    last = rows[-1] if rows else {}
    checkpoint = f"{run_dir}/latest.pt"

    t0 = time.perf_counter()
    result = match(
        env_fn,
        functools.partial(_network, checkpoint, args.simulations),
        opponent,
        games=args.games, seed=args.seed + 1, jobs=args.jobs, progress=False,
        openings=None,  # from the empty board, seats alternated: what the results files measured
    )  # fmt: skip
    eval_s = time.perf_counter() - t0
    score, lo, hi = result.score()
    report = [
        f"# AlphaZero on {args.board_size}x{args.board_size}, {args.win_length} in a row ({args.rule}), from scratch",
        "",
        f"Command: `{command_line(argv)}`  ",
        f"Seed {args.seed}; `AlphaZeroConfig.for_game('gomoku', {args.board_size})` defaults: {config.blocks} residual "
        f"blocks x {config.channels} channels, {config.simulations} simulations a move in self-play, "
        f"{config.parallel_games} games in lockstep"
        + (f" on each of {config.workers} Ray workers" if config.backend == "ray" else "")
        + f", torch on {config.torch_threads} thread(s)"
        + (f"; overrides {overrides}" if overrides else "") + ".  ",
        (f"Training wall time {train_s:.0f} s (everything, JIT warm-up included), from iteration {resumed_from} to "
         f"{trainer.iteration}; {trainer.games_played} self-play games in all; last losses: policy "
         f"{last['policy_loss']:.3f}, value {last['value_loss']:.3f}; first-player win rate in the last self-play "
         f"batch {last['first_player_win_rate']:.2f}. Load average (1 min) {load_before:.1f} at the start, "
         f"{load_after:.1f} at the end, on {os.cpu_count()} CPUs." if rows else
         f"No training in this run: the checkpoint of iteration {trainer.iteration} ({trainer.games_played} "
         f"self-play games)."),
        "",
        f"Match: the trained network with {args.simulations} PUCT simulations a move against "
        f"`{opponent}`, {args.games} games, seats alternated, {eval_s:.0f} s.",
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
