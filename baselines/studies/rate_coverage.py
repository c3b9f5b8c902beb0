"""How often ``rate``'s 95% interval holds the truth, by budget, simulated on a ladder's published table.

A simulated agent of known Elo (each level's published Elo, each midpoint between
neighbours, and one step beyond either end of the ladder) plays ``rate``'s own walk
(:class:`boardgame_envs.ladder.rating.Walk`: the middle level first, then the level
nearest the running estimate, one colour-swapped pair a batch as with ``--jobs 1``)
with each game's result drawn from the Elo model of the table: the agent scores
``p = 1 / (1 + 10 ** ((level - agent) / 400))`` in expectation. Draws come at the
ladder's own rate: a game is drawn with probability ``nu * 2 * min(p, 1 - p)``,
won or lost otherwise so that the expected score stays ``p``; ``nu`` is fitted to
the draws in the ladder's game log unless ``--draws`` sets it. No real game is
played, so thousands of ratings take a minute.

The walk does not depend on the budget (a budget only stops it), so one run of the
largest budget gives the rating ``rate`` would print at every smaller one.

Prints, per budget: the share of ratings whose interval (two-sided, or the
one-sided bound) holds the truth, over all true ratings together and for the worst
one; how often the rating was one-sided; the median width of the two-sided ones.

    python baselines/studies/rate_coverage.py gomoku15 --seeds 400
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import dataclass

import numpy as np

from boardgame_envs.ladder import ladder_for, levels
from boardgame_envs.ladder.ladders import Level
from boardgame_envs.ladder.rating import Walk

BUDGETS = (4, 10, 20, 40, 100)


def expected_score(agent: float, level: float) -> float:
    return 1.0 / (1.0 + 10.0 ** ((level - agent) / 400.0))


def draw_share(ladder: str) -> float:
    """``nu`` fitted to the ladder's log: its draws over the draws ``nu = 1`` would give at the published Elo."""
    table = {lv.spec: lv.elo for lv in levels(ladder)}
    draws = room = 0.0
    with ladder_for(ladder).log_path.open() as fh:
        for line in fh:
            game = json.loads(line)
            if game["a"] in table and game["b"] in table:
                p = expected_score(table[game["a"]], table[game["b"]])
                draws += game["score"] == 0.5
                room += 2 * min(p, 1 - p)
    return min(1.0, draws / room) if room else 0.0


def simulate_score(rng: np.random.Generator, p: float, nu: float) -> float:
    """One game's score with expectation ``p``: a draw with probability ``nu * 2 * min(p, 1 - p)``."""
    draw = nu * 2 * min(p, 1 - p)
    u = rng.random()
    return 1.0 if u < p - draw / 2 else 0.5 if u < p + draw / 2 else 0.0


@dataclass
class Outcome:
    covered: bool
    one_sided: bool
    width: float


def run(table: list[Level], truth: float, budgets: tuple[int, ...], nu: float, rng: np.random.Generator) -> dict[int, Outcome]:
    """One simulated ``rate`` of an agent rated ``truth``: the outcome at each budget (whole pairs, as ``rate`` plays)."""
    walk, out = Walk(table), {}
    while walk.games < max(budgets):
        p = expected_score(truth, walk.opponent.elo)
        for _ in range(2):
            walk.record(simulate_score(rng, p, nu))
        est = walk.advance()
        if walk.games in budgets:
            out[walk.games] = Outcome(est.low <= truth <= est.high, not est.bounded, est.high - est.low)
    return out


def truths_of(table: list[Level]) -> list[float]:
    """Every level's Elo, every midpoint, and one step beyond each end (the neighbouring step's size)."""
    elos = [lv.elo for lv in table]
    mids = [(a + b) / 2 for a, b in zip(elos, elos[1:])]
    return sorted([elos[0] - (elos[1] - elos[0]), *elos, *mids, elos[-1] + (elos[-1] - elos[-2])])


def coverage(ladder: str, seeds: int, budgets: tuple[int, ...] = BUDGETS, nu: float | None = None, seed: int = 0) -> dict:
    """Per budget: coverage over all truths, the worst truth's coverage and which it is, the one-sided share, widths."""
    table = levels(ladder)
    nu = draw_share(ladder) if nu is None else nu
    budgets = tuple(sorted({2 * math.ceil(b / 2) for b in budgets}))
    rng = np.random.default_rng(seed)
    by = {b: {} for b in budgets}  # budget -> truth -> outcomes
    for truth in truths_of(table):
        for _ in range(seeds):
            for b, o in run(table, truth, budgets, nu, rng).items():
                by[b].setdefault(truth, []).append(o)
    rows = {}
    for b in budgets:
        per_truth = {t: np.mean([o.covered for o in os]) for t, os in by[b].items()}
        every = [o for os in by[b].values() for o in os]
        worst = min(per_truth, key=per_truth.get)
        widths = [o.width for o in every if not o.one_sided]
        rows[b] = {"coverage": float(np.mean([o.covered for o in every])), "worst": float(per_truth[worst]),
                   "worst_truth": worst, "one_sided": float(np.mean([o.one_sided for o in every])),
                   "width": float(np.median(widths)) if widths else math.inf}  # fmt: skip
    return {"ladder": ladder, "nu": nu, "truths": len(truths_of(table)), "seeds": seeds, "rows": rows}


def markdown(result: dict) -> str:
    head = (f"`{result['ladder']}`: {result['truths']} true ratings x {result['seeds']} seeds per budget, "
            f"draw share nu = {result['nu']:.2f}")  # fmt: skip
    lines = [head, "", "| games | coverage (all) | worst true rating | one-sided | median width (two-sided) |", "|---|---|---|---|---|"]
    for b, r in result["rows"].items():
        lines.append(f"| {b} | {r['coverage']:.3f} | {r['worst']:.3f} at {r['worst_truth']:+.0f} | "
                     f"{r['one_sided']:.3f} | {r['width']:.0f} |")  # fmt: skip
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n\n")[0])
    parser.add_argument("ladders", nargs="+", metavar="LADDER")
    parser.add_argument("--seeds", type=int, default=400, help="simulated ratings per true rating (default 400)")
    parser.add_argument("--budgets", type=int, nargs="+", default=list(BUDGETS))
    parser.add_argument("--draws", type=float, default=None, metavar="NU", help="draw share (default: fitted to the ladder's log)")
    args = parser.parse_args()
    for ladder in args.ladders:
        print(markdown(coverage(ladder, args.seeds, tuple(args.budgets), args.draws)), end="\n\n", flush=True)


if __name__ == "__main__":
    main()
