"""How many games ``rate`` needs for a 95% interval of ±60 Elo, by simulation on a ladder's published table.

The agent's games are drawn from the Elo model itself (no draws, the worst case for
the interval) at a true rating between level 2 and the top; ``rate``'s own adaptive
loop picks the opponents and fits the estimate. Prints, per true rating, the median
and 90th percentile of the games played when the half-width first reached ±60, and
how often the final 400-game interval held the true rating.

    python baselines/studies/ladder_rate_games.py gomoku15 --trials 20
"""

from __future__ import annotations

import argparse

import numpy as np

from boardgame_envs.ladder import levels, rate, rating
from boardgame_envs.ladder.games import GameResult


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n\n")[0])
    parser.add_argument("ladder")
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--games", type=int, default=400)
    args = parser.parse_args()
    table = levels(args.ladder)
    elo_of = {lv.spec: lv.elo for lv in table}
    rng = np.random.default_rng(0)
    truth = {"x": 0.0}

    def simulated_play(workers, env_fn, tasks, players=None):  # the games, drawn from the model instead of played
        for t in tasks:
            p = 1 / (1 + 10 ** ((elo_of[t.b] - truth["x"]) / 400))
            yield GameResult(t.names[0], t.names[1], t.index, t.a_first, float(rng.random() < p), 0), None

    rating.play = simulated_play
    print(f"{args.ladder}: games to ±60 (median, 90th percentile); final {args.games}-game interval holds the truth")
    for x in np.linspace(table[2].elo, table[-1].elo, 6):
        truth["x"] = float(x)
        reached, held = [], 0
        for trial in range(args.trials):
            first = []
            r = rate("random", args.ladder, games=args.games, seed=trial, progress=False,
                     on_batch=lambda r: first.append(r.games) if r.half_width <= 60 and not first else None)  # fmt: skip
            reached.append(first[0] if first else np.inf)
            held += r.low <= x <= r.high
        print(f"  true Elo {x:+6.0f}: {np.median(reached):5.0f} {np.percentile(reached, 90):5.0f}   held {held}/{args.trials}")


if __name__ == "__main__":
    main()
