"""Play a built-in policy against the perfect tic-tac-toe player, seats alternated, and count.

    python baselines/tictactoe_vs_perfect.py --policy mcts --games 1000 --seed 0

The perfect player picks uniformly among value-optimal moves (seeded), so the
games cover many perfect lines, not one.
"""

from __future__ import annotations

import argparse
import time

from boardgame_envs import tictactoe_v0
from boardgame_envs.policies.registry import make_policy
from boardgame_envs.policies.perfect import PerfectPolicy


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--policy", default="mcts")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    tally = {"first": [0, 0, 0], "second": [0, 0, 0]}  # wins, draws, losses of the tested policy
    start = time.perf_counter()
    for game in range(args.games):
        env = tictactoe_v0.env()
        env.reset(seed=args.seed + game)
        seat = "first" if game % 2 == 0 else "second"
        tested = make_policy(args.policy, seed=args.seed * 100_003 + game)
        perfect = PerfectPolicy(seed=args.seed * 100_003 + game + 50_000)
        players = dict(zip(env.possible_agents, (tested, perfect) if seat == "first" else (perfect, tested)))
        for agent in env.agent_iter():
            _, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else players[agent].act(env))
        winner = env.unwrapped.game_state.winner
        mine = 1 if seat == "first" else 2
        tally[seat][0 if winner == mine else 1 if winner == 0 else 2] += 1
    elapsed = time.perf_counter() - start
    print(f"{args.policy} vs perfect, {args.games} games, seed {args.seed}, {elapsed:.1f} s")
    for seat, (w, d, l) in tally.items():
        print(f"  {args.policy} {seat:<6}  wins {w:>4}  draws {d:>4}  losses {l:>4}")


if __name__ == "__main__":
    main()
