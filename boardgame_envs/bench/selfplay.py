"""AlphaZero self-play positions per second: one worker against several, in the same run.

One worker is the trainer's default, self-play in the learner's own process
(``backend="local"``). Beside it, ``--workers`` Ray actors on this machine
(``backend="ray"``, one CPU each), each with its own envs and copy of the
network. Both play gomoku (default 8x8, five in a row, freestyle) with the
network of ``AlphaZeroConfig.for_game`` at ``--simulations`` PUCT simulations
a move, freshly initialised (the speed of a search does not depend on what the
network has learnt, only on how long the games last). A position is one move
searched and played. Each setup plays a warm-up round first (numba and torch
start-up, Ray's actors), then ``--games`` games per worker, timed.

Needs the ``train`` and ``distributed`` extras (torch, ray).
"""

from __future__ import annotations

import argparse
import functools
import os
import time
from typing import Any


def rate(selfplay: Any, net: Any, games: int) -> tuple[float, float, int]:
    """Positions per second of wall time and per CPU second of the players, over one ``play`` call
    of ``games`` games after a warm-up call; and the positions."""
    selfplay.play(net, 1)
    start = time.perf_counter()
    _, stats = selfplay.play(net, games)
    return stats.moves / (time.perf_counter() - start), stats.moves / stats.cpu_s, stats.moves


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m boardgame_envs.bench selfplay", description=__doc__)
    parser.add_argument("--board-size", type=int, default=8)
    parser.add_argument("--simulations", type=int, default=400)
    parser.add_argument("--parallel-games", type=int, default=16, help="games searched in lockstep, per worker")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)

    import ray
    import torch

    from boardgame_envs import gomoku_v0
    from boardgame_envs.alphazero import AlphaZeroConfig, PolicyValueNet
    from boardgame_envs.alphazero.distributed import RaySelfPlay
    from boardgame_envs.alphazero.selfplay import SelfPlay

    env_fn = functools.partial(gomoku_v0.env, board_size=args.board_size, rule="freestyle")
    config = AlphaZeroConfig.for_game("gomoku", args.board_size, simulations=args.simulations,
                                      parallel_games=args.parallel_games, workers=args.workers)  # fmt: skip
    torch.set_num_threads(config.torch_threads or 1)
    torch.manual_seed(0)
    planes = env_fn().observation_space("black_0")["observation"].shape[-1]
    net = PolicyValueNet(planes, args.board_size, config.blocks, config.channels).eval()
    games = args.parallel_games
    print(f"gomoku {args.board_size}x{args.board_size}, network {config.blocks}x{config.channels}, "
          f"{args.simulations} simulations a move, {games} games in lockstep per worker, "
          f"torch {config.torch_threads} thread(s) per worker; {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.1f} at the start")  # fmt: skip
    one, one_cpu, moves = rate(SelfPlay(env_fn, config, seed=0), net, games)
    print(f"1 worker  (in process)   {one:8.1f} positions/s   {one_cpu:6.1f} per CPU second   ({moves} positions)")
    ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False)
    try:
        many, many_cpu, moves = rate(RaySelfPlay(env_fn, config, seed=0), net, games * args.workers)
    finally:
        ray.shutdown()
    print(f"{args.workers} workers (Ray actors)  {many:8.1f} positions/s   {many_cpu:6.1f} per CPU second   "
          f"({moves} positions)")
    print(f"ratio {many / one:.2f}x in positions/s; per CPU second {many_cpu / one_cpu:.2f}x (what each worker "
          f"does with a core: {args.workers} idle cores give about {args.workers * many_cpu / one_cpu:.2f}x); "
          f"load average {os.getloadavg()[0]:.1f} at the end")
