"""Check the connect-four solver against Pascal Pons's, and measure what it costs, by phase and on the empty board.

    nice -n 5 python baselines/connect_four_solver_check.py --pons .engines/connect4/c4solver --positions 300 \\
        --out baselines/results/connect_four_solver.md
    nice -n 5 python baselines/connect_four_solver_check.py --empty --minutes 30 --out runs/connect_four_empty_board.md

``--pons``: Pons's solver (github.com/PascalPons/connect4, AGPL; build it with
``make`` in a clone outside the package, e.g. under the git-ignored ``.engines/``)
run with ``-a`` gives every column's score of each position; this script compares
them with :meth:`ConnectFourSolver.move_scores` on ``--positions`` positions drawn
from uniformly random games (seed 0), spread evenly over ``--first`` (default 8) to 35 moves, and
reports every mismatch. Its own cost per phase (CPU seconds of one exact score
of the position, each from an empty table, and of every column's score) comes with it.

``--empty``: the empty board, from an empty table: the exact score of each first
move, the centre first, each under what is left of ``--minutes`` of CPU (a node
cap from the measured rate); what was proved and what ran out is written down.
The published facts: the first player wins, only with the centre column, and the
seven first moves score -2 -1 0 1 0 -1 -2 (columns 1..7).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

import numpy as np

from report import command_line, publish  # baselines/report.py, beside this script

from boardgame_envs.games.connect_four_solver import ConnectFourSolver, SolverBudgetError, state_of_moves

PHASES = ((8, 11), (12, 14), (15, 21), (22, 28), (29, 35))
PUBLISHED_FIRST_MOVES = (-2, -1, 0, 1, 0, -1, -2)


def load() -> str:
    return f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"


def random_positions(count: int, seed: int = 0, first: int = 8) -> list[str]:
    """``count`` live positions of uniformly random games, their lengths spread evenly over ``first``..35 moves."""
    rng = np.random.default_rng(seed)
    out: list[str] = []
    while len(out) < count:
        length = first + len(out) * (36 - first) // count
        state, moves = state_of_moves(""), ""
        for _ in range(length):
            column = int(rng.choice(state.legal_actions()))
            state.play(column)
            moves += str(column + 1)
            if state.terminal:
                break
        if not state.terminal:
            out.append(moves)
    return out


def compare(args: argparse.Namespace) -> list[str]:
    lines = random_positions(args.positions, first=args.first)
    start = time.time()
    out = subprocess.run([args.pons, "-a"], input="\n".join(lines) + "\n", capture_output=True, text=True,
                         timeout=3600).stdout.splitlines()  # fmt: skip
    pons_s = time.time() - start
    answers = {row.split()[0]: row.split()[1:] for row in out if row.strip()}
    solver = ConnectFourSolver()
    mismatches, cost = [], {p: ([], []) for p in PHASES}
    for moves in lines:
        phase = next(p for p in PHASES if p[0] <= len(moves) <= p[1])  # noqa
        solver.clear()
        t = time.process_time()
        solver.score(moves)
        cost[phase][0].append(time.process_time() - t)
        t = time.process_time()
        mine = solver.move_scores(moves)
        cost[phase][1].append(time.process_time() - t)
        theirs = {c: int(v) for c, v in enumerate(answers.get(moves, [])) if int(v) != -1000}
        if mine != theirs:
            mismatches.append(f"`{moves}`: ours {mine}, Pons's {theirs}")
    report = [f"## Against Pons's solver: {len(lines)} positions from random games, {args.first} to 35 moves", "",
              f"Columns compared: {sum(len(answers.get(m, [])) for m in lines)} entries of {len(lines)} positions; "
              f"mismatches: {len(mismatches)}. Pons's solver took {pons_s:.0f} s of wall time for all of them.", ""]
    report += [f"- {m}" for m in mismatches[:20]]
    report += ["", "Cost of the solver here (CPU seconds; the position's score from an empty table, then every "
               "column's score with the table so filled):", "",
               "| phase (moves) | positions | score: mean | score: max | all columns: mean | all columns: max |",
               "|---|---|---|---|---|---|"]  # fmt: skip
    for (lo, hi), (one, every) in cost.items():
        if one:
            report.append(f"| {lo}-{hi} | {len(one)} | {np.mean(one):.3f} | {max(one):.3f} | {np.mean(every):.3f} | "
                          f"{max(every):.3f} |")  # fmt: skip
    return report


def empty_board(args: argparse.Namespace) -> list[str]:
    solver = ConnectFourSolver(table_slots=1 << 24)
    solver.clear()
    t = time.process_time()
    solver.node_limit = 5_000_000
    try:
        solver.score("4444")
    except SolverBudgetError:
        pass
    rate = solver.nodes / max(time.process_time() - t, 1e-3)
    solver.clear()
    budget_s = args.minutes * 60
    spent = 0.0
    rows, proved = [], {}
    for column in (4, 3, 5, 2, 6, 1, 7):
        left = budget_s - spent
        if left <= 0:
            rows.append(f"| {column} | not tried: the {args.minutes}-minute cap was spent | | |")
            continue
        solver.node_limit = max(1, int(left * rate))
        t = time.process_time()
        try:
            value = -solver.score(str(column))
            cpu = time.process_time() - t
            proved[column] = value
            rows.append(f"| {column} | {value:+d} (published {PUBLISHED_FIRST_MOVES[column - 1]:+d}) | {cpu:.0f} | "
                        f"{solver.nodes:,} |")  # fmt: skip
        except SolverBudgetError:
            cpu = time.process_time() - t
            rows.append(f"| {column} | no answer within {solver.node_limit:,} nodes | {cpu:.0f} | {solver.nodes:,} |")
        spent += cpu
        print(rows[-1], flush=True)
    agree = all(proved[c] == PUBLISHED_FIRST_MOVES[c - 1] for c in proved)
    return [f"## The empty board (cap: {args.minutes} CPU minutes, {load()} at the start; {rate:,.0f} nodes/s)", "",
            "Each first move's exact score for the first player, from one table kept across the moves "
            "(the centre first):", "", "| first move | score | CPU s | nodes |", "|---|---|---|---|", *rows, "",
            f"Proved {len(proved)} of 7; {'all agree' if agree else 'DISAGREE'} with the published values. "
            f"CPU spent: {spent / 60:.1f} minutes."]  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n", 1)[0])
    parser.add_argument("--pons", help="Pons's c4solver binary: compare with it")
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--first", type=int, default=8, help="the fewest moves of a compared position (default 8)")
    parser.add_argument("--empty", action="store_true", help="measure the empty board")
    parser.add_argument("--minutes", type=float, default=30.0, help="--empty: CPU minutes at most")
    parser.add_argument("--out", help="the report's markdown file")
    args = parser.parse_args(argv)
    if not args.pons and not args.empty:
        parser.error("give --pons PATH, --empty, or both")
    lines = ["# The connect-four solver, checked and measured", "", f"Command: `{command_line(argv)}`",
             f"Machine: the 2-core development machine, {load()} at the start.", ""]  # fmt: skip
    if args.pons:
        lines += compare(args) + [""]
    if args.empty:
        lines += empty_board(args)
    publish(lines, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
