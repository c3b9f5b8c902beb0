"""Alpha-beta: time to solve tic-tac-toe from the empty board (empty table each time), and seconds per 15x15 move.

Beside ours, in the same run when ``open_spiel`` is installed: OpenSpiel's
Python ``minimax.alpha_beta_search`` solving tic-tac-toe from the empty board
(no table, full depth), median over the same number of repeats, the two taking
turns solve by solve. ``open_spiel``
is optional (``pip install open_spiel``); without it only our figures are
printed. The 15x15 renju figure has no reference.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from boardgame_envs.bench._openspiel import INSTALL_HINT, import_pyspiel, load_game, speedup


def openspiel_solve_ms(game: Any, repeat: int) -> list[float]:
    """Milliseconds for each of ``repeat`` OpenSpiel alpha-beta solves of ``game`` from its initial state."""
    from open_spiel.python.algorithms import minimax

    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        minimax.alpha_beta_search(
            game, state=game.new_initial_state(), maximum_depth=game.max_game_length(), maximizing_player_id=0
        )
        times.append((time.perf_counter() - start) * 1e3)
    return times


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, prog="boardgame-envs bench alphabeta", description=__doc__)
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--moves", type=int, default=10, help="15x15 renju moves to time")
    args = parser.parse_args(argv)

    from boardgame_envs import gomoku_v0, tictactoe_v0
    from boardgame_envs.policies import AlphaBetaPolicy

    env = tictactoe_v0.env()
    env.reset()
    policy = AlphaBetaPolicy(seed=0, time_limit=None)
    policy.act(env)  # compile
    pyspiel = import_pyspiel()
    game, about = load_game(pyspiel, "tictactoe") if pyspiel is not None else (None, INSTALL_HINT)
    # Ours and OpenSpiel's take turns, one solve each, so that a change of the machine's speed falls on both.
    times, theirs = [], []
    for _ in range(args.repeat):
        for _, table in policy._tables.values():
            table[:] = 0  # forget everything: a cold solve each time
        start = time.perf_counter()
        policy.act(env)
        times.append((time.perf_counter() - start) * 1e3)
        if game is not None:
            theirs += openspiel_solve_ms(game, 1)
    median = float(np.median(times))
    print(f"tic-tac-toe solve from the empty board: median {median:.2f} ms, min {min(times):.2f} ms")
    if game is None:
        print(about)
    else:
        ref = float(np.median(theirs))
        print(f"OpenSpiel Python alpha-beta, same run: median {ref:.2f} ms, min {min(theirs):.2f} ms; "
              f"speed ratio ours / OpenSpiel {speedup(median, ref, times=True)}")  # fmt: skip

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
