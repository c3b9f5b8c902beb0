"""Alpha-beta: time to solve tic-tac-toe from the empty board (empty table each time), and seconds per 15x15 move.

Reference: OpenSpiel's Python alpha-beta solves tic-tac-toe in about 56 ms on this machine class.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

REFERENCE_MS = 56.0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="boardgame-envs bench alphabeta", description=__doc__)
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--moves", type=int, default=10, help="15x15 renju moves to time")
    args = parser.parse_args(argv)

    from boardgame_envs import gomoku_v0, tictactoe_v0
    from boardgame_envs.policies import AlphaBetaPolicy

    env = tictactoe_v0.env()
    env.reset()
    policy = AlphaBetaPolicy(seed=0, time_limit=None)
    policy.act(env)  # compile
    times = []
    for _ in range(args.repeat):
        for _, table in policy._tables.values():
            table[:] = 0  # forget everything: a cold solve each time
        start = time.perf_counter()
        policy.act(env)
        times.append((time.perf_counter() - start) * 1e3)
    median = float(np.median(times))
    print(f"tic-tac-toe solve from the empty board: median {median:.2f} ms, min {min(times):.2f} ms "
          f"(OpenSpiel Python alpha-beta {REFERENCE_MS:.0f} ms quoted: {REFERENCE_MS / median:.0f}x)")  # fmt: skip

    env = gomoku_v0.env(board_size=15, rule="renju")
    env.reset()
    players = [AlphaBetaPolicy(seed=1), AlphaBetaPolicy(seed=2)]
    per_move = []
    for i in range(args.moves):
        start = time.perf_counter()
        action = players[i % 2].act(env)
        per_move.append(time.perf_counter() - start)
        env.step(action)
        if env.unwrapped.game_state.terminal:
            break
    print(f"15x15 renju, default settings: {np.mean(per_move):.2f} s per move on average, max {max(per_move):.2f} s")
