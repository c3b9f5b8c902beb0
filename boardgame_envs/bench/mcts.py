"""MCTS simulations per second on the empty board, 1000 simulations a move, one core.

Reference figures beside ours are OpenSpiel's C++ MCTSBot with random
rollouts, measured on this machine class: about 515,000 sims/s on
tic-tac-toe and 7,800 on 15x15 gomoku (``open_spiel`` is not a dependency).
"""

from __future__ import annotations

import argparse
import time

REFERENCE = {"tictactoe": 515_000.0, "gomoku 15x15 freestyle": 7_800.0}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="boardgame-envs bench mcts", description=__doc__)
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args(argv)

    from boardgame_envs import gomoku_v0, tictactoe_v0
    from boardgame_envs.policies.mcts import MCTSPolicy

    cases = {
        "tictactoe": tictactoe_v0.env,
        "gomoku 15x15 freestyle": lambda: gomoku_v0.env(board_size=15, rule="freestyle"),
        "gomoku 15x15 renju": lambda: gomoku_v0.env(board_size=15, rule="renju"),
    }
    for name, make in cases.items():
        env = make()
        env.reset()
        policy = MCTSPolicy(simulations=args.simulations, seed=0)
        policy.act(env)  # compile / load the numba cache
        start = time.perf_counter()
        for _ in range(args.repeat):
            policy.act(env)
        elapsed = time.perf_counter() - start
        rate = policy.last_simulations * args.repeat / elapsed
        ref = REFERENCE.get(name)
        extra = f"   OpenSpiel MCTSBot {ref:,.0f} sims/s (quoted): {rate / ref:.1f}x" if ref else ""
        print(f"{name:<24} {rate:>10,.0f} sims/s{extra}")
