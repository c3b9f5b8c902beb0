"""MCTS simulations per second on the empty board, 1000 simulations a move, one core.

Ours is ``MCTSPolicy`` (UCT, random rollouts, MCTS-Solver). Beside it, in the
same run when ``open_spiel`` is installed, OpenSpiel's C++ ``MCTSBot`` with the
same settings: the same exploration constant, one random rollout per leaf,
solver on, the same simulation count and repeats, ``bot.step`` on the initial
state. OpenSpiel has tic-tac-toe and freestyle gomoku (``gomoku(size=15,
connect=5)``: five or more wins), no renju. On 15x15 the two trees differ: ours
expands only points within 2 of a stone (the centre on the empty board),
OpenSpiel all 225; rollouts are uniform over the whole board in both.

``open_spiel`` is optional (``pip install open_spiel``); without it only our
figures are printed, with a line saying how to get the reference.
"""

from __future__ import annotations

import argparse
import time
from types import ModuleType
from typing import Any

from boardgame_envs.bench._openspiel import INSTALL_HINT, import_pyspiel, load_game, speedup


def openspiel_rate(pyspiel: ModuleType, game: Any, simulations: int, repeat: int, c: float, seed: int = 0) -> float:
    """OpenSpiel ``MCTSBot`` simulations per second from ``game``'s initial state."""
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.MCTSBot(game, evaluator, c, simulations, 1000, True, seed, False)  # 1000 MB, solve, quiet
    state = game.new_initial_state()
    done = bot.mcts_search(state).explore_count  # warm-up; the solver may stop a search early
    start = time.perf_counter()
    for _ in range(repeat):
        bot.step(state)
    return done * repeat / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, prog="boardgame-envs bench mcts", description=__doc__)
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args(argv)

    from boardgame_envs import gomoku_v0, tictactoe_v0
    from boardgame_envs.policies.mcts import MCTSPolicy

    pyspiel = import_pyspiel()
    cases = {
        "tictactoe": tictactoe_v0.env,
        "gomoku 15x15 freestyle": lambda: gomoku_v0.env(board_size=15, rule="freestyle"),
        "gomoku 15x15 renju": lambda: gomoku_v0.env(board_size=15, rule="renju"),
    }
    print(f"simulations/s, {args.simulations} a move, {args.repeat} moves; ratio = ours / OpenSpiel MCTSBot")
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
        line = f"{name:<24} {rate:>10,.0f} sims/s"
        if pyspiel is not None:
            game, about = load_game(pyspiel, name)
            if game is None:
                line += f"   {about}"
            else:
                theirs = openspiel_rate(pyspiel, game, args.simulations, args.repeat, policy.c)
                line += f"   OpenSpiel {theirs:>10,.0f} sims/s   ratio {speedup(rate, theirs):>6}   (same run, {about})"
        print(line)
    if pyspiel is None:
        print(INSTALL_HINT)
