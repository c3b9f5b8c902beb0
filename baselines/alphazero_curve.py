"""Compute-to-strength curves: each snapshot of a training run rated on the game's ladder, against CPU-hours.

A run writes snapshots as it trains (``boardgame-envs train ... --snapshot-every K``: every K
iterations ``OUT/snapshots/iter-NNNN.pt``, holding the network and the CPU seconds of training
so far, self-play and learning, the warm start included, evaluation not). This script rates
each snapshot not rated yet with ``rate`` at a fixed number of simulations, keeps the ratings in
``OUT/curve.json`` (so a killed run of this script goes on where it stopped), and draws one or
more runs' curves as Elo (with 95% intervals) against CPU-hours:

    python baselines/alphazero_curve.py rate runs/g9-default --games 100 --simulations 100 [--max-points 5]
    python baselines/alphazero_curve.py plot runs/g9-default runs/g9-new --labels default,new \\
        --out docs/img/curve_gomoku9.png
    python baselines/alphazero_curve.py table runs/g9-default runs/g9-new   # markdown, for results/

The ladder is the one of the game the run trained on (``rate``'s own choice: ``gomoku9`` for
9x9 freestyle, ``renju`` for 15x15 renju); a snapshot that beats its top gets a one-sided bound,
drawn as a triangle.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

CURVE = "curve.json"
SEARCH_HELP = "the points rated with this search only, as the table shows it (e.g. '100 simulations, threats=false')"


def snapshots(run: Path) -> list[Path]:
    """The run's snapshots, oldest first."""
    return sorted((run / "snapshots").glob("iter-*.pt"))


def snapshot_iteration(path: Path) -> int:
    """The iteration in a snapshot's name (``iter-0024.pt``: 24)."""
    return int(path.stem.split("-")[1])


def chosen_snapshots(run: Path, iterations: list[int]) -> list[Path]:
    """The run's snapshots of these iterations, oldest first; ValueError names any it does not have."""
    of = {snapshot_iteration(path): path for path in snapshots(run)}
    if missing := sorted(set(iterations) - of.keys()):
        raise ValueError(f"{run} has no snapshot of iteration {', '.join(map(str, missing))} "
                         f"(it has {', '.join(map(str, sorted(of)))})")  # fmt: skip
    return [of[i] for i in sorted(set(iterations))]


def snapshot_facts(path: Path) -> dict[str, Any]:
    """The iteration, games and CPU seconds a snapshot records, and the game it was trained on."""
    import torch

    data = torch.load(path, map_location="cpu", weights_only=True)
    return {"iteration": int(data["iteration"]), "games": int(data.get("games_played", 0)),
            "cpu_s": float(data["cpu_s"]), "game": data["game"]}  # fmt: skip


def ladder_game(game: dict[str, Any]) -> tuple[str, int | None, str | None]:
    """``rate``'s game, board size and rule for a checkpoint's ``game`` entry."""
    if "name" in game:
        return game["name"], None, None
    if game["size"] == 3 and game["win_length"] == 3:
        return "tictactoe", None, None
    return "gomoku", game["size"], game["rule"]


def read_curve(run: Path) -> dict[str, Any]:
    path = run / CURVE
    return json.loads(path.read_text()) if path.exists() else {"points": []}


def write_curve(run: Path, curve: dict[str, Any]) -> None:
    tmp = run / (CURVE + ".tmp")
    tmp.write_text(json.dumps(curve, indent=1) + "\n")
    tmp.replace(run / CURVE)


def spread(cpu_s: list[float], count: int) -> list[int]:
    """Indices of at most ``count`` of these CPU times (ascending) spread evenly over their range, the first
    and the last among them: rating is the expensive part of a curve, so a long run's many snapshots are thinned."""
    if count < 1:
        raise ValueError(f"count must be at least 1, got {count}")
    if len(cpu_s) <= count:
        return list(range(len(cpu_s)))
    if count == 1:
        return [len(cpu_s) - 1]
    low, high = cpu_s[0], cpu_s[-1]
    chosen: list[int] = []
    for k in range(count):
        target = low + (high - low) * k / (count - 1)
        best = min((i for i in range(len(cpu_s)) if i not in chosen), key=lambda i: abs(cpu_s[i] - target))
        chosen.append(best)
    return sorted(chosen)


def rate_run(run: Path, games: int, simulations: int, jobs: int = 1, seed: int = 0, progress: bool = True,
             extra: str = "", max_points: int | None = None,
             iterations: list[int] | None = None, cpu_offset_hours: float = 0.0) -> dict[str, Any]:  # fmt: skip
    """Rate every snapshot of ``run`` not rated yet at these settings (or ``max_points`` of them, spread
    evenly over the run's CPU-hours, or those of these ``iterations``); returns the curve (also written to disk).

    ``cpu_offset_hours`` is the training a run started from (``train --init-network``: the CPU-hours that made
    that network), added to each point's own so that the curve continues the parent's; each point keeps it."""
    if not math.isfinite(cpu_offset_hours) or cpu_offset_hours < 0:
        raise ValueError(f"cpu_offset_hours must be a non-negative number, got {cpu_offset_hours!r}")
    from boardgame_envs.ladder import rate

    curve = read_curve(run)
    done = {(p["snapshot"], p["simulations"], p["games_asked"], p.get("extra", "")) for p in curve["points"]}
    paths = snapshots(run) if iterations is None else chosen_snapshots(run, iterations)
    facts_of = {path: snapshot_facts(path) for path in paths}
    if max_points is not None:
        keep = spread([facts_of[path]["cpu_s"] for path in paths], max_points)
        paths = [paths[i] for i in keep]
    for path in paths:
        key = (path.name, simulations, games, extra)
        if key in done:
            continue
        facts = facts_of[path]
        name, board, rule = ladder_game(facts["game"])
        spec = f"checkpoint:{path}:simulations={simulations}" + (f",{extra}" if extra else "")
        rating = rate(spec, name, rule=rule, board_size=board, games=games, seed=seed, jobs=jobs, progress=progress)
        curve["points"].append({
            "snapshot": path.name, "iteration": facts["iteration"], "games_trained": facts["games"],
            "cpu_hours": facts["cpu_s"] / 3600 + cpu_offset_hours, "cpu_offset_hours": cpu_offset_hours, "simulations": simulations, "games_asked": games, "extra": extra,
            "ladder": rating.ladder, "elo": rating.elo, "low": rating.low, "high": rating.high,
            "games": rating.games, "rated": rating.describe(),
            "command": f"boardgame-envs rate {spec} {name}" + (f" --board-size {board}" if board else "")
                       + (f" --rule {rule}" if rule else "") + f" --games {games} --seed {seed}",
        })  # fmt: skip
        write_curve(run, curve)
        print(f"{run.name} {path.name}: {facts['cpu_s'] / 3600 + cpu_offset_hours:.2f} CPU-hours, {rating.describe()}", flush=True)
    return curve


def search_of(point: dict[str, Any]) -> str:
    """How a point's snapshot searched when it was rated, e.g. ``"100 simulations, threats=false"``."""
    extra = point.get("extra", "")
    return f"{point['simulations']} simulations" + (f", {extra}" if extra else "")


def points(run: Path, search: str | None = None) -> list[dict[str, Any]]:
    """The run's points by CPU-hours, one a snapshot, all rated with one search (``search_of``): a snapshot
    rated more than once (a longer rating of a curve's last point, say) is drawn with its rating over the
    most games, the newest of equals. A curve rated with several searches needs ``search`` to pick one
    (ValueError otherwise): points at different searches are not one curve."""
    rows = read_curve(run)["points"]
    searches = sorted({search_of(p) for p in rows})
    if search is None and len(searches) > 1:
        raise ValueError(f"{run} is rated with several searches ({'; '.join(searches)}): pick one with --search")
    if search is not None:
        if search not in searches:
            raise ValueError(f"{run} has no points rated with {search!r} (it has: {'; '.join(searches) or 'none'})")
        rows = [p for p in rows if search_of(p) == search]
    best: dict[str, dict[str, Any]] = {}
    for p in rows:
        if p["snapshot"] not in best or p["games"] >= best[p["snapshot"]]["games"]:
            best[p["snapshot"]] = p
    return sorted(best.values(), key=lambda p: p["cpu_hours"])


def table(runs: list[Path], search: str | None = None) -> str:
    """The runs' points as one markdown table."""
    lines = ["| run | snapshot | CPU-hours | games trained | ladder | Elo (95%) | games rated | command |",
             "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for run in runs:
        for p in points(run, search):
            lines.append(f"| {run.name} | {p['snapshot']} | {p['cpu_hours']:.2f} | {p['games_trained']} | {p['ladder']} "
                         f"| {p['rated']} | {p['games']} | `{p['command']}` |")  # fmt: skip
    return "\n".join(lines)


def plot(runs: list[Path], out: Path, labels: list[str] | None = None, title: str | None = None,
         search: str | None = None) -> Path:
    """Elo against CPU-hours, one line per run, 95% intervals as bars (one-sided bounds as triangles)."""
    # Each run's points read once, and a ValueError (several searches) raised before a figure is opened.
    curves = [points(run, search) for run in runs]
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=100)
    for k, (run, pts) in enumerate(zip(runs, curves)):
        label = labels[k] if labels else run.name
        finite = [p for p in pts if math.isfinite(p["elo"])]
        xs = [p["cpu_hours"] for p in finite]
        ys = [p["elo"] for p in finite]
        err = [[p["elo"] - p["low"] for p in finite], [p["high"] - p["elo"] for p in finite]]
        line = ax.errorbar(xs, ys, yerr=err, fmt="o-", capsize=3, label=label)
        above = [p for p in pts if p["elo"] == math.inf]
        if above:
            ax.scatter([p["cpu_hours"] for p in above], [p["low"] for p in above], marker="^",
                       color=line[0].get_color(), label=f"{label}: at least (won every game)")  # fmt: skip
    ax.set_xlabel("CPU-hours of training (self-play and learning)")
    ax.set_ylabel("Elo on the ladder, 95% interval")
    ladders = sorted({p["ladder"] for pts in curves for p in pts})
    ax.set_title(title or f"Compute to strength ({', '.join(ladders)} ladder)")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("rate", help="rate the snapshots not rated yet")
    r.add_argument("run", type=Path)
    r.add_argument("--games", type=int, default=100)
    r.add_argument("--simulations", type=int, default=100)
    r.add_argument("--jobs", type=int, default=1)
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--extra", default="", help="more NetworkPolicy options for the spec, e.g. threats=true,vcf_nodes=50")
    r.add_argument("--max-points", type=int, default=None,
                   help="rate at most this many snapshots, spread evenly over the CPU-hours (first and last among them)")
    r.add_argument("--iterations", default=None, metavar="I,J,...",
                   help="rate the snapshots of these iterations only (e.g. 0,24,48: two runs' points at the same ones)")
    r.add_argument("--cpu-offset", type=float, default=0.0, metavar="HOURS",
                   help="CPU-hours of the training the run started from (train --init-network), added to every point")
    p = sub.add_parser("plot", help="draw the runs' curves")
    p.add_argument("runs", type=Path, nargs="+")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--labels", default=None, help="comma-separated, one per run")
    p.add_argument("--title", default=None)
    p.add_argument("--search", default=None, help=SEARCH_HELP)
    t = sub.add_parser("table", help="print the runs' points as markdown")
    t.add_argument("runs", type=Path, nargs="+")
    t.add_argument("--search", default=None, help=SEARCH_HELP)
    args = parser.parse_args(argv)
    if args.command == "rate":
        if not snapshots(args.run):
            print(f"{args.run} has no snapshots (train with --snapshot-every K)", file=sys.stderr)
            return 2
        if args.max_points is not None and args.max_points < 1:
            print(f"--max-points must be at least 1, got {args.max_points}", file=sys.stderr)
            return 2
        iterations = None
        if args.iterations is not None:
            try:
                iterations = [int(i) for i in args.iterations.split(",")]
            except ValueError:
                print(f"--iterations takes comma-separated iteration numbers, got {args.iterations!r}", file=sys.stderr)
                return 2
            try:
                chosen_snapshots(args.run, iterations)
            except ValueError as exc:
                print(exc, file=sys.stderr)
                return 2
        if not math.isfinite(args.cpu_offset) or args.cpu_offset < 0:
            print(f"--cpu-offset must be a non-negative number of CPU-hours, got {args.cpu_offset}", file=sys.stderr)
            return 2
        rate_run(args.run, args.games, args.simulations, args.jobs, args.seed, extra=args.extra,
                 max_points=args.max_points, iterations=iterations, cpu_offset_hours=args.cpu_offset)
    elif args.command == "plot":
        labels = args.labels.split(",") if args.labels else None
        if labels and len(labels) != len(args.runs):
            print(f"--labels gives {len(labels)} names for {len(args.runs)} runs", file=sys.stderr)
            return 2
        try:
            print(plot(args.runs, args.out, labels, args.title, args.search))
        except ValueError as exc:
            print(exc, file=sys.stderr)
            return 2
    else:
        try:
            print(table(args.runs, args.search))
        except ValueError as exc:
            print(exc, file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
