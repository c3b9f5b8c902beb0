"""``boardgame-envs train``: AlphaZero from the command line.

    boardgame-envs train tictactoe --minutes 5
    boardgame-envs train gomoku --board-size 9 --rule freestyle --minutes 60 --out runs/g9

This module imports no torch, so the command can describe itself (and say
what is missing) on an install without the ``train`` extra.
"""

from __future__ import annotations

import argparse
import functools

from boardgame_envs.alphazero.config import BACKENDS, AlphaZeroConfig

# Command-line flags that map one-to-one onto AlphaZeroConfig fields (None: keep the game's default).
TUNABLE = {
    "simulations": int, "parallel_games": int, "games_per_iteration": int, "blocks": int, "channels": int,
    "train_steps": int, "batch_size": int, "lr": float, "eval_every": int, "eval_games": int,
    "eval_simulations": int, "workers": int, "torch_threads": int,
}  # fmt: skip


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=("tictactoe", "gomoku"))
    parser.add_argument("--board-size", type=int, default=15)
    parser.add_argument("--win-length", type=int, default=5)
    parser.add_argument("--rule", default="freestyle", choices=("freestyle", "standard", "renju"))
    parser.add_argument("--minutes", type=float, default=None, help="wall-time budget of this run")
    parser.add_argument("--iterations", type=int, default=None, help="stop at this many iterations in all")
    parser.add_argument("--out", default=None, help="run directory: checkpoints, TensorBoard (default runs/GAME)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--device", default="auto", help="auto (CUDA when present), cpu, cuda, cuda:1, ...")
    parser.add_argument("--backend", default="local", choices=BACKENDS, help="where self-play runs")
    parser.add_argument("--eval-opponents", default=None, help="comma-separated built-in policies to evaluate against")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    for name, kind in TUNABLE.items():
        parser.add_argument("--" + name.replace("_", "-"), type=kind, default=None, help=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    from boardgame_envs import gomoku_v0, tictactoe_v0

    if args.minutes is None and args.iterations is None:
        raise ValueError("give --minutes or --iterations (or both): training has no end otherwise")
    if args.game == "tictactoe":
        env_fn = tictactoe_v0.env
        out = args.out or "runs/tictactoe"
    else:
        env_fn = functools.partial(gomoku_v0.env, board_size=args.board_size, win_length=args.win_length, rule=args.rule)
        env_fn()  # bad board arguments fail here, with the env's message
        out = args.out or f"runs/gomoku{args.board_size}_{args.rule}"
    overrides = {name: getattr(args, name) for name in TUNABLE if getattr(args, name) is not None}
    if args.eval_opponents is not None:
        overrides["eval_opponents"] = tuple(p for p in args.eval_opponents.split(",") if p)
    config = AlphaZeroConfig.for_game(
        args.game, args.board_size, minutes=args.minutes, iterations=args.iterations, out=out, seed=args.seed,
        device=args.device, backend=args.backend, progress=not args.no_progress, **overrides,
    )  # fmt: skip
    try:
        from boardgame_envs.alphazero.trainer import AlphaZeroTrainer
    except ImportError as exc:
        raise ValueError(f'train needs torch ({exc}); install it with: pip install "boardgame-envs[train]"') from None
    trainer = AlphaZeroTrainer(env_fn, config)
    start = trainer.iteration
    rows = trainer.train()
    print(f"{len(rows)} iterations (now {trainer.iteration}, resumed from {start}); {trainer.games_played} self-play games")
    for key, value in (rows[-1] if rows else {}).items():
        if key.startswith(("score_vs", "elo_vs", "loss")):
            print(f"  {key}: {value:.3f}")
    print(f"checkpoint: {out}/latest.pt   (boardgame-envs play {args.game} --opponent {out}/latest.pt)")
    return 0
