"""Make the solved connect-four positions that ``boardgame-envs accuracy`` plays on, from the ladder's games.

    nice -n 5 python baselines/connect_four_positions.py --games 320 --per-phase 300        # resumable
    python baselines/connect_four_positions.py --write --out baselines/results/connect_four_positions.md

The games: the connect four ladder logs each game's two levels, number, colours
and result (``boardgame_envs/ladder/data/connect_four.games.jsonl``), and each
game's seed and two-move opening follow from them, so a game is replayed exactly
as the ladder played it (:func:`boardgame_envs.ladder.games.ladder_task`). The
script replays ``--games`` games drawn at random (seed 0) from those that last
beyond 8 moves, and says how many reproduce the logged result and length (a level
whose search has changed since the log was written plays a new game from the same
seed; it is still a game between the ladder's levels).

The positions: each game gives at most two positions per phase (after 8-14,
15-21, 22-28 and 29-35 moves from the empty board, the two opening moves
included), its plies drawn uniformly without replacement among the phase's
plies the game reached while it was still being played, each phase keeping at
most ``--per-phase`` of them (drawn at random); then every other position of the
games after 15 to 35 moves (milliseconds each to solve). Repeated positions are
kept once. Every legal column of every position is solved exactly
(:class:`~boardgame_envs.games.connect_four_solver.ConnectFourSolver`, the score
convention of :mod:`boardgame_envs.games.connect_four_search`), in a shuffled
order within each of those two stages. The shipped set keeps the informative
positions only (some legal column loses the value; where every column keeps it,
every player does), at most ``--per-phase`` of them per phase, drawn at random. Work goes to ``--work`` (replayed games and solved
positions, one JSON line each, appended as they finish); a rerun carries on from
there. ``--write`` turns the solved positions into the package's data file
(``boardgame_envs/ladder/data/connect_four.positions.json``) and the report.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from report import command_line, publish  # baselines/report.py, beside this script

from boardgame_envs.games.connect_four_solver import ConnectFourSolver, SolverBudgetError, state_of_moves
from boardgame_envs.ladder.games import ladder_task, play_one, read_log, result_of
from boardgame_envs.ladder.ladders import find_ladder
from boardgame_envs.ladder.accuracy import PHASES, POSITIONS_PATH
from boardgame_envs.safeio.atomic import atomic_write_text

ROOT = Path(__file__).resolve().parents[1]
PER_GAME = 2  # positions a game gives each phase at most (distinct plies)


def shown(path: Path) -> str:
    """``path`` relative to the repository when inside it (a report names no one's home folder)."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def append(path: Path, row: dict) -> None:
    with path.open("a") as f:
        f.write(json.dumps(row) + "\n")
        f.flush()


def read_rows(path: Path) -> list[dict]:
    rows = []
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                continue  # a line cut short by a kill: that item is done again
    return rows


def replay(args: argparse.Namespace, work: Path) -> list[dict]:
    """Replay the chosen ladder games (those not yet in ``games.jsonl``); return every replayed game."""
    ladder = find_ladder("connect_four")
    log = [r for r in read_log(ladder.log_path) if len(r.opening) + r.moves > PHASES[0][0]]
    rng = np.random.default_rng(0)
    chosen = rng.permutation(len(log))[: args.games].tolist()  # a prefix of one order: more games add to fewer
    path = work / "games.jsonl"
    done = {row["pick"] for row in read_rows(path)}
    for n, pick in enumerate(chosen):
        if pick in done:
            continue
        r = log[pick]
        task = ladder_task(r.a, r.b, r.index, ladder)
        record = play_one(ladder.env_fn(), task)
        again = result_of(task, record)
        append(path, {"pick": pick, "a": r.a, "b": r.b, "index": r.index, "moves": "".join(str(m + 1) for m in record.moves),
                      "same": again.score == r.score and again.moves == r.moves})  # fmt: skip
        print(f"game {n + 1}/{len(chosen)}: {r.a} v {r.b} #{r.index}, {len(record.moves)} moves", flush=True)
    return [row for row in read_rows(path) if row["pick"] in set(chosen)]


def candidates(games: list[dict], per_phase: int) -> list[dict]:
    """At most ``PER_GAME`` positions per phase from each game, ``per_phase`` at most per phase, shuffled."""
    rng = np.random.default_rng(1)
    by_phase: list[list[dict]] = [[] for _ in PHASES]
    seen = set()
    for game in sorted(games, key=lambda g: g["pick"]):
        total = len(game["moves"])
        for p, (lo, hi) in enumerate(PHASES):
            top = min(hi, total - 1)  # the position after the game's last move is over
            if top < lo:
                continue
            plies = rng.choice(np.arange(lo, top + 1), size=min(PER_GAME, top + 1 - lo), replace=False)
            for ply in sorted(plies.tolist()):
                moves = game["moves"][:ply]
                if moves not in seen:
                    seen.add(moves)
                    by_phase[p].append({"moves": moves, "game": f"{game['a']} v {game['b']} #{game['index']}"})
    out = []
    for rows in by_phase:
        keep = rng.permutation(len(rows))[:per_phase]
        out += [rows[i] for i in sorted(keep)]
    first = [out[i] for i in rng.permutation(len(out))]
    # Then every other ply of the later phases, which cost milliseconds to solve: enough informative
    # positions there whatever share of them the filter in write() drops.
    more = []
    for game in sorted(games, key=lambda g: g["pick"]):
        for ply in range(PHASES[1][0], min(PHASES[-1][1], len(game["moves"]) - 1) + 1):
            moves = game["moves"][:ply]
            if moves not in seen:
                seen.add(moves)
                more.append({"moves": moves, "game": f"{game['a']} v {game['b']} #{game['index']}"})
    return first + [more[i] for i in rng.permutation(len(more))]


def informative(scores: dict[str, int]) -> bool:
    """Whether some legal column loses the position's value: where every column keeps it, every player does."""
    signs = {(v > 0) - (v < 0) for v in scores.values()}
    return len(signs) > 1


def solve(args: argparse.Namespace, work: Path, todo: list[dict]) -> None:
    path = work / "solved.jsonl"
    done = {row["moves"] for row in read_rows(path)}
    solver = ConnectFourSolver(node_limit=args.node_limit)
    for n, item in enumerate(todo):
        if item["moves"] in done:
            continue
        if args.deadline and time.time() > args.deadline:
            print(f"deadline reached with {len(done)} of {len(todo)} positions solved", flush=True)
            return
        start = time.process_time()
        try:
            scores = solver.move_scores(state_of_moves(item["moves"]))
        except SolverBudgetError:
            append(path, {**item, "skipped": f"over {args.node_limit} nodes"})
            continue
        cpu = time.process_time() - start
        row = {**item, "scores": {str(c + 1): v for c, v in scores.items()}, "nodes": solver.nodes, "cpu_s": round(cpu, 3)}
        append(path, row)
        done.add(item["moves"])
        print(f"{n + 1}/{len(todo)} after {len(item['moves'])}: {cpu:.2f} s, {solver.nodes} nodes", flush=True)


def write(args: argparse.Namespace, work: Path, todo: list[dict], games: list[dict]) -> None:
    rows = [r for r in read_rows(work / "solved.jsonl") if "scores" in r]
    skipped = [r for r in read_rows(work / "solved.jsonl") if "skipped" in r]
    wanted = {t["moves"] for t in todo}
    solved = [r for r in rows if r["moves"] in wanted]
    rng = np.random.default_rng(2)
    rows = []
    for lo, hi in PHASES:
        useful = [r for r in solved if lo <= len(r["moves"]) <= hi and informative(r["scores"])]
        rows += [useful[i] for i in sorted(rng.permutation(len(useful))[: args.per_phase])]
    rows.sort(key=lambda r: (len(r["moves"]), r["moves"]))
    data = {
        "about": "connect-four positions from the ladder's games, every legal column's exact score for the player "
                 "to move (positive: a win, 22 - its pieces at the win; 0: a draw; negative: a loss); columns 1..7",
        "command": command_line(None),
        "positions": [{"moves": r["moves"], "scores": r["scores"]} for r in rows],
    }  # fmt: skip
    atomic_write_text(ROOT / POSITIONS_PATH, json.dumps(data, separators=(",", ":")) + "\n")
    lines = ["# Solved connect-four positions for `boardgame-envs accuracy`", "",
             f"Made by `{' '.join(sys.argv)}` from the work of `python baselines/connect_four_positions.py "
             f"--games {args.games} --per-phase {args.per_phase}` (its work in `{shown(work)}`), "
             f"on the 2-core development machine, shared (load average about 9-11 while it ran).", "",
             f"Games replayed: {len(games)}; reproducing the logged result and length: "
             f"{sum(g['same'] for g in games)}.", "",
             "| phase (moves) | candidates | solved | informative | shipped | CPU s (mean) | CPU s (max) | nodes (mean) |",
             "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for lo, hi in PHASES:
        wanted_p = [t for t in todo if lo <= len(t["moves"]) <= hi]
        done_p = [r for r in solved if lo <= len(r["moves"]) <= hi]
        useful = sum(informative(r["scores"]) for r in done_p)
        got = [r for r in rows if lo <= len(r["moves"]) <= hi]
        cpu = [r["cpu_s"] for r in done_p] or [0.0]
        nodes = [r["nodes"] for r in done_p] or [0]
        lines.append(f"| {lo}-{hi} | {len(wanted_p)} | {len(done_p)} | {useful} | {len(got)} | {np.mean(cpu):.3f} | "
                     f"{max(cpu):.2f} | {np.mean(nodes):,.0f} |")  # fmt: skip
    lines += ["", "CPU is for every legal column's exact score of a position, one solver keeping its table from "
              "one position to the next (positions of one phase share openings, so later ones are cheaper than "
              "from an empty table: `baselines/results/connect_four_solver.md` has those costs).", "",
              f"Positions over the node limit (left out): {len(skipped)}. Total CPU of the solving: "
              f"{sum(r['cpu_s'] for r in solved) / 60:.1f} minutes. At that load the run took 20 minutes of wall "
              "time to replay the games, 32 to solve the first stage's positions and 2 the second's.", "",
              f"Shipped: {len(rows)} positions in `{POSITIONS_PATH}`."]  # fmt: skip
    publish(lines, args.out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=320, help="ladder games to replay (default 320)")
    parser.add_argument("--per-phase", type=int, default=300, help="positions per phase at most (default 300)")
    parser.add_argument("--node-limit", type=int, default=2_000_000_000, help="nodes per position before it is left out")
    parser.add_argument("--work", default=str(ROOT / "build" / "connect_four_positions"))
    parser.add_argument("--deadline", type=float, default=0.0, help="stop solving after this Unix time (0: never)")
    parser.add_argument("--write", action="store_true", help="write the package's data file and the report")
    parser.add_argument("--out", help="with --write: the report's markdown file")
    args = parser.parse_args(argv)
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    games = replay(args, work)
    todo = candidates(games, args.per_phase)
    if args.write:
        write(args, work, todo, games)
        return 0
    solve(args, work, todo)
    return 0


if __name__ == "__main__":
    sys.exit(main())
