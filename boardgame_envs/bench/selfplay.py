"""AlphaZero self-play positions per second per core, beside AlphaZero_Gomoku's; then one worker against several.

Both parts play gomoku (default 8x8, five in a row, freestyle) with freshly
initialised networks (the speed of a search does not depend on what the network
has learnt, only on how long the games last). A position is one move searched
and played. Every setup plays a warm-up first (numba and torch start-up).

**Against an anchor.** Our self-play (``SelfPlay``: ``--parallel-games`` games
searched in lockstep, their leaves in one network call) in this process, one
torch thread, at each of ``--simulations``, with each of ``--nets``: the
default network of ``AlphaZeroConfig.for_game`` and ``5x32``, the ResNet of
this family whose multiply-accumulates per position are closest to
AlphaZero_Gomoku's network (3x3 convolutions of 32, 64 and 128 channels and
their two heads). Beside it, in the same run, AlphaZero_Gomoku's own PyTorch
self-play at the same board, five in a row and simulations, one process, one
torch thread, its own search constants (``c_puct=5``, temperature 1), run from
a temporary copy of a checkout named by ``--anchor PATH`` or the environment
variable BOARDGAME_ENVS_ALPHAZERO_GOMOKU (``git clone
https://github.com/junxiaosong/AlphaZero_Gomoku``); without one, a line says it
was not measured. Positions per core = positions / CPU seconds of the process
that played them. Each setup runs until ``--seconds`` of CPU time are spent and
a game has ended (ours: one of the games in lockstep; the anchor plays whole
games), so a setup at many simulations may take several times ``--seconds``.

**Workers.** One worker, self-play in the learner's own process
(``backend="local"``), against ``--workers`` Ray actors on this machine
(``backend="ray"``, one CPU each), each with its own envs and copy of the
network (``AlphaZeroConfig.for_game``'s), at the first of ``--simulations``:
a warm-up round (and Ray's actors) first, then ``--parallel-games`` games per
worker, timed. Needs Ray (the ``distributed`` extra); ``--workers 0`` skips it.

Needs the ``train`` extra (torch).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import os
import re
import time
from collections.abc import Callable
from typing import Any

from boardgame_envs.bench._alphazero_gomoku import (
    ANCHOR_ENV,
    ANCHOR_URL,
    Measured,
    anchor_path,
    count_macs,
    run_anchor,
)


def rate(selfplay: Any, net: Any, games: int) -> tuple[float, float, int]:
    """Positions per second of wall time and per CPU second of the players, over one ``play`` call
    of ``games`` games after a warm-up call; and the positions."""
    selfplay.play(net, 1)
    start = time.perf_counter()
    _, stats = selfplay.play(net, games)
    return stats.moves / (time.perf_counter() - start), stats.moves / stats.cpu_s, stats.moves


def measure_ours(env_fn: Callable[[], Any], config: Any, net: Any, seconds: float, seed: int = 0) -> Measured:
    """Our self-play in this process for about ``seconds`` of its CPU time (at least one ``play`` call),
    after a warm-up at 2 simulations with the same games in lockstep (kernels compiled, torch at this batch)."""
    from boardgame_envs.alphazero.selfplay import SelfPlay

    SelfPlay(env_fn, dataclasses.replace(config, simulations=2), seed).play(net, 1)
    selfplay = SelfPlay(env_fn, config, seed)
    done = Measured(0, 0.0, 0.0)
    start = time.perf_counter()
    while done.positions == 0 or done.cpu_s < seconds:
        _, stats = selfplay.play(net, 1)  # the games play on from call to call: no position is played twice
        done.positions += stats.moves
        done.cpu_s += stats.cpu_s
    done.wall_s = time.perf_counter() - start
    return done


def parse_net(text: str, default: tuple[int, int]) -> tuple[int, int]:
    """``"default"`` or ``"BxC"`` (residual blocks x channels) as ``(blocks, channels)``."""
    if text == "default":
        return default
    m = re.fullmatch(r"([1-9]\d*)x([1-9]\d*)", text)
    if m is None:
        raise ValueError(f"a network is 'default' or BLOCKSxCHANNELS such as 5x32, got {text!r}")
    return int(m.group(1)), int(m.group(2))


def row(simulations: object, player: str, positions: object, cpu_s: str, per_core: str, ratio: str) -> None:
    """One line of the side-by-side table, columns right-aligned but the player's."""
    print(f"  {simulations:>11}  {player:<48}{positions:>10}{cpu_s:>8}{per_core:>18}{ratio:>13}".rstrip())


def anchor_section(args: argparse.Namespace, anchor: Any) -> None:
    """Ours beside AlphaZero_Gomoku's at each simulation count (theirs when ``anchor`` is a checkout)."""
    import torch

    from boardgame_envs import gomoku_v0
    from boardgame_envs.alphazero import AlphaZeroConfig, PolicyValueNet

    n = args.board_size
    env_fn = functools.partial(gomoku_v0.env, board_size=n, rule="freestyle")
    base = AlphaZeroConfig.for_game("gomoku", n, parallel_games=args.parallel_games, torch_threads=1)
    torch.set_num_threads(1)
    planes = env_fn().observation_space("black_0")["observation"].shape[-1]
    nets = {}
    for text in args.nets:
        blocks, channels = parse_net(text, (base.blocks, base.channels))
        torch.manual_seed(0)
        net = PolicyValueNet(planes, n, blocks, channels).eval()
        label = f"ours {blocks}x{channels}" + (" (our default)" if (blocks, channels) == (base.blocks, base.channels)
                                               else "")  # fmt: skip
        nets[label] = net
    print(f"Self-play against an anchor: gomoku {n}x{n}, five in a row (freestyle), one process and one torch "
          f"thread a side; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the start")  # fmt: skip
    for label, net in nets.items():
        params = sum(p.numel() for p in net.parameters())
        macs = count_macs(net, (1, planes, n, n))
        print(f"  {label:<28} ResNet + batch norm    {params:>9,} parameters {macs / 1e6:>7.2f} M multiply-adds "
              "a position")
    theirs = None
    if anchor is None:
        print(f"  AlphaZero_Gomoku: not measured: name a checkout with --anchor PATH or {ANCHOR_ENV}=PATH "
              f"(git clone {ANCHOR_URL})")  # fmt: skip
    else:
        theirs = run_anchor(anchor, n, args.simulations, args.seconds)
        print(f"  {'AlphaZero_Gomoku':<28} conv 32/64/128 + heads {theirs.params:>9,} parameters "
              f"{theirs.macs / 1e6:>7.2f} M multiply-adds a position (torch {theirs.torch_version}; "
              f"shim: {'; '.join(theirs.shims)})")  # fmt: skip
    row("simulations", "player", "positions", "CPU s", "positions/s/core", "ours/theirs")
    factors: dict[int, dict[str, float]] = {}
    for i, simulations in enumerate(args.simulations):
        config = dataclasses.replace(base, simulations=simulations)
        run = theirs.runs[i] if theirs is not None else None
        for label, net in nets.items():
            ours = measure_ours(env_fn, config, net, args.seconds)
            ratio = ""
            if run is not None:
                factors.setdefault(simulations, {})[label] = ours.per_core / run.per_core
                ratio = f"{ours.per_core / run.per_core:.1f}x"
            player = f"{label}, {args.parallel_games} games in lockstep"
            row(simulations, player, ours.positions, f"{ours.cpu_s:.1f}", f"{ours.per_core:.1f}", ratio)
        if run is not None:
            player = f"AlphaZero_Gomoku, {run.games} game(s), one at a time"
            row(simulations, player, run.positions, f"{run.cpu_s:.1f}", f"{run.per_core:.1f}", "1.0x")
    for simulations, by_net in factors.items():
        said = ", ".join(f"{label} {factor:.1f}x" for label, factor in by_net.items())
        print(f"  factor at {simulations} simulations (ours / AlphaZero_Gomoku, positions per core): {said}")
    print(f"  load average {os.getloadavg()[0]:.1f} at the end")


def workers_section(args: argparse.Namespace) -> None:
    """One worker in this process against ``args.workers`` Ray actors, the same run."""
    try:
        import ray
    except ImportError:
        print('Workers: not measured: Ray is not installed (pip install "boardgame-envs[distributed]"); '
              "--workers 0 skips this part")  # fmt: skip
        return
    import torch

    from boardgame_envs import gomoku_v0
    from boardgame_envs.alphazero import AlphaZeroConfig, PolicyValueNet
    from boardgame_envs.alphazero.distributed import RaySelfPlay
    from boardgame_envs.alphazero.selfplay import SelfPlay

    simulations = args.simulations[0]
    env_fn = functools.partial(gomoku_v0.env, board_size=args.board_size, rule="freestyle")
    config = AlphaZeroConfig.for_game("gomoku", args.board_size, simulations=simulations,
                                      parallel_games=args.parallel_games, workers=args.workers)  # fmt: skip
    torch.set_num_threads(config.torch_threads or 1)
    torch.manual_seed(0)
    planes = env_fn().observation_space("black_0")["observation"].shape[-1]
    net = PolicyValueNet(planes, args.board_size, config.blocks, config.channels).eval()
    games = args.parallel_games
    print(f"gomoku {args.board_size}x{args.board_size}, network {config.blocks}x{config.channels}, "
          f"{simulations} simulations a move, {games} games in lockstep per worker, "
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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, prog="python -m boardgame_envs.bench selfplay", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("--board-size", type=int, default=8)
    parser.add_argument("--simulations", type=int, nargs="+", default=[400, 100],
                        help="PUCT simulations a move; the workers part uses the first")  # fmt: skip
    parser.add_argument("--parallel-games", type=int, default=16, help="games searched in lockstep, per worker")
    parser.add_argument("--nets", nargs="+", default=["default", "5x32"],
                        help="our networks beside the anchor: default, or BLOCKSxCHANNELS")  # fmt: skip
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="CPU seconds each anchor-part setup runs at least, and on until a game ends")  # fmt: skip
    parser.add_argument("--anchor", default=None,
                        help=f"a checkout of AlphaZero_Gomoku (default: ${ANCHOR_ENV}); only read, run from a copy")
    parser.add_argument("--workers", type=int, default=2, help="Ray workers against one; 0 skips that part")
    args = parser.parse_args(argv)
    if args.board_size < 5:
        parser.error(f"--board-size must be at least 5 (five in a row), got {args.board_size}")
    if min(args.simulations) < 1 or args.parallel_games < 1:
        parser.error(f"--simulations and --parallel-games must be positive, got {args.simulations} and "
                     f"{args.parallel_games}")  # fmt: skip
    if args.seconds < 0 or args.workers < 0:
        parser.error(f"--seconds and --workers must be 0 or more, got {args.seconds} and {args.workers}")
    try:
        anchor = anchor_path(args.anchor)
        for text in args.nets:
            parse_net(text, (1, 1))
    except ValueError as exc:
        parser.error(str(exc))
    anchor_section(args, anchor)
    if args.workers:
        print()
        workers_section(args)
