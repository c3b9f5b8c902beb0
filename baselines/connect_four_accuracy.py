"""Measure the accuracy against perfect play of connect four's ladder levels and shipped networks, beside their Elo.

    nice -n 5 python baselines/connect_four_accuracy.py --out baselines/results/connect_four_accuracy.md

Each policy plays once on every position of the shipped solved set
(:func:`boardgame_envs.ladder.accuracy.accuracy`, the policy made with seed 0), as
``boardgame-envs accuracy POLICY connect_four`` does; the table gives its share
of value-keeping moves with the 95% Wilson interval, by phase, the CPU its moves took
(in all, and per move by phase),
and its Elo on the connect four ladder (the published table for the levels, the
network's published rating for a network). ``--limit N`` plays N positions
spread evenly over the set instead (a quick look).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from report import command_line, publish  # baselines/report.py, beside this script

from boardgame_envs.alphazero.pretrained import PRETRAINED
from boardgame_envs.ladder.accuracy import PHASES, accuracy, positions, random_expectation
from boardgame_envs.ladder.ladders import find_ladder, load_table
from boardgame_envs.policies.registry import make_policy

NETWORKS = ("connect-four", "ppo-connect-four", "sb3-connect-four")


class Timed:
    """A policy whose moves are timed (CPU seconds), by phase."""

    def __init__(self, spec: str) -> None:
        self.inner = make_policy(spec, seed=0)  # as accuracy() makes it from a spec
        self.name = spec
        self.cpu = [0.0 for _ in PHASES]
        self.check_game = getattr(self.inner, "check_game", lambda game: None)

    def act(self, state) -> int:
        start = time.process_time()
        move = self.inner.act(state)
        phase = next(i for i, (lo, hi) in enumerate(PHASES) if lo <= state.num_moves <= hi)
        self.cpu[phase] += time.process_time() - start
        return move


def elo_of(spec: str, table: dict) -> str:
    for level in table["levels"]:
        if level["spec"] == spec:
            return f"{level['elo']:+.0f} ({level['low']:+.0f}..{level['high']:+.0f})"
    name = spec.removeprefix("pretrained:")
    rating = PRETRAINED[name].ladder_rating if name in PRETRAINED else None
    return f"{rating.elo:+.0f} ({rating.low:+.0f}..{rating.high:+.0f})" if rating else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n", 1)[0])
    parser.add_argument("--limit", type=int, help="N positions spread over the set (default: all)")
    parser.add_argument("--policies", nargs="*", help="specs (default: perfect, the ladder's levels, the networks)")
    parser.add_argument("--out")
    args = parser.parse_args(argv)
    table = load_table(find_ladder("connect_four"))
    specs = args.policies or ["perfect", *(lv["spec"] for lv in table["levels"]),
                              *(f"pretrained:{n}" for n in NETWORKS)]  # fmt: skip
    load = f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the start"
    lines = ["# Accuracy against perfect play on connect four", "",
             f"Command: `{command_line(argv)}`; machine: the 2-core development machine, {load}.", "",
             f"The set: {len(positions())} positions; a uniformly random player keeps the value on "
             f"{100 * random_expectation():.1f}% of them in expectation.", "",
             "| policy | Elo (connect four ladder) | accuracy (95%) | " + " | ".join(f"{lo}-{hi}" for lo, hi in PHASES)
             + " | CPU s | ms a move by phase | command |", "|---" * (6 + len(PHASES)) + "|"]  # fmt: skip
    notes: list[str] = []
    for spec in specs:
        player = Timed(spec)
        result = accuracy(player, limit=args.limit)
        cpu = sum(player.cpu)
        per_move = ", ".join(f"{1000 * c / n:.0f}" for c, (_, n) in zip(player.cpu, result.phases) if n)
        low, high = result.interval
        phases = " | ".join(f"{100 * k / n:.0f}%" if n else "" for k, n in result.phases)
        limit = f" --limit {args.limit}" if args.limit else ""
        lines.append(f"| `{spec}` | {elo_of(spec, table)} | {100 * result.share:.1f}% ({100 * low:.1f}..{100 * high:.1f}) "
                     f"| {phases} | {cpu:.0f} | {per_move} | `boardgame-envs accuracy {spec} connect_four{limit}` |")  # fmt: skip
        if hasattr(player.inner, "fallbacks"):  # perfect: the moves its fallback search played
            notes.append(f"`{spec}`: {player.inner.fallbacks} of {result.total} moves played by its fallback search.")
        print(lines[-1], flush=True)
    publish(lines + ([""] + notes if notes else []), args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
