"""Renju's cost: ``forbidden_mask`` on shipped positions, and random games under renju against freestyle.

Every figure printed is measured in this run:

* ``forbidden_mask`` (the whole board judged from scratch) on the six
  15x15 positions of :mod:`boardgame_envs.bench.renju_positions`, and, when
  the PyPI package ``renju`` (a pure-Python port of the Piskvork judge; a dev
  dependency) is installed, the same boards judged point by point by it;
* random 15x15 games through ``gomoku_v0.env()``, renju and freestyle
  taking turns in short slices so that a change in the machine's speed falls
  on both alike, and the ratio of their rates. Under renju the env keeps
  black's forbidden points up to date move by move (``games/renju_mask.py``).

Times are CPU time of this process (``time.process_time``), so other jobs on
a shared machine do not count; on an idle machine they match wall time.
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def _positive(kind: type) -> callable:
    def parse(text: str):
        value = kind(text)
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be positive, got {text}")
        return value

    return parse


def time_masks(repeat: int) -> float:
    """Print ``forbidden_mask``'s time on each shipped position; return the mean in µs."""
    from boardgame_envs.bench.renju_positions import POSITIONS, boards
    from boardgame_envs.games import renju

    print(f"forbidden_mask, whole board, on the {len(POSITIONS)} positions of boardgame_envs/bench/renju_positions.py"
          f" ({repeat} calls each):")  # fmt: skip
    total = 0.0
    for name, board in boards().items():
        n = board.shape[0]
        flat = board.ravel().copy()
        out = np.zeros(flat.size, dtype=np.bool_)
        renju.forbidden_mask_flat(flat, n, out)
        start = time.process_time()
        for _ in range(repeat):
            renju.forbidden_mask_flat(flat, n, out)
        us = (time.process_time() - start) / repeat * 1e6
        total += us
        kinds = [renju.forbidden_kind(board, int(r), int(c)) for r, c in zip(*np.nonzero(out.reshape(n, n)))]
        print(f"  {name:<8} {int((board > 0).sum()):>3} stones {us:>8.1f} µs  forbidden: {', '.join(kinds) or '-'}")
    mean = total / len(POSITIONS)
    print(f"  mean {mean:.1f} µs a board")
    return mean


def time_reference(mean_us: float) -> None:
    """The PyPI package ``renju`` on the same boards, one ``get_foul_type`` call per empty point."""
    try:
        from renju.check_forbid import get_foul_type
    except ImportError:
        print("  (the PyPI package renju is not installed: no pure-Python reference in this run)")
        return
    from boardgame_envs.bench.renju_positions import boards

    start = time.process_time()
    grids = [board.tolist() for board in boards().values()]
    for grid in grids:
        for r, row in enumerate(grid):
            for c, value in enumerate(row):
                if value == 0:
                    get_foul_type(grid, r, c)
    us = (time.process_time() - start) / len(grids) * 1e6
    print(f"  the PyPI package renju (pure Python), same boards, measured now: {us:,.0f} µs a board, "
          f"{us / mean_us:,.0f} times ours")


def time_games(seconds: float, rounds: int) -> None:
    """Random renju and freestyle games through env(), interleaved; print both rates and the ratio."""
    from boardgame_envs import gomoku_v0
    from boardgame_envs.bench.env import play_random_games

    makers = {rule: (lambda rule=rule: gomoku_v0.env(board_size=15, rule=rule)) for rule in ("freestyle", "renju")}
    for make in makers.values():
        play_random_games(make, 0.2, clock=time.process_time)  # compile or load the kernels
    totals = {rule: [0, 0, 0.0] for rule in makers}
    for r in range(rounds):
        for rule, make in makers.items():
            for i, value in enumerate(play_random_games(make, seconds / rounds, r, clock=time.process_time)):
                totals[rule][i] += value
    print(f"random 15x15 games through gomoku_v0.env(), the two rules taking turns in {rounds} slices:")
    rates = {}
    for rule, (games, steps, elapsed) in totals.items():
        rates[rule] = games / elapsed
        print(f"  {rule:<10} {rates[rule]:>9,.0f} games/s {steps / elapsed:>12,.0f} steps/s")
    print(f"  renju / freestyle: {rates['renju'] / rates['freestyle']:.2f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, prog="python -m boardgame_envs.bench renju", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("--repeat", type=_positive(int), default=2000, help="calls per position (default 2000)")
    parser.add_argument("--seconds", type=_positive(float), default=6.0,
                        help="CPU seconds of games per rule (default 6)")  # fmt: skip
    parser.add_argument("--rounds", type=_positive(int), default=30, help="slices the games take turns in")
    args = parser.parse_args(argv)
    mean = time_masks(args.repeat)
    time_reference(mean)
    time_games(args.seconds, args.rounds)
