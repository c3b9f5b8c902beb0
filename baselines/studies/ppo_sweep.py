"""Short runs of baselines/ppo_selfplay.py side by side, one process (one thread) each, then one rating each.

Each variant is the recipe's defaults plus a few flags. Every run gets the same
CPU budget (``--cpu-minutes``), rates itself during the run (its curve.csv), and
its final network is then rated once more over ``--games`` games on the ladder
(``boardgame_envs.ladder.rate``, seed 1). The table (``sweep.csv`` and
``sweep.md`` in ``--out``) gives each variant's steps, its throughput and the
final Elo with its 95% interval, so the defaults are chosen on equal CPU.

    python baselines/studies/ppo_sweep.py --out runs/sweep --cpu-minutes 5 --jobs 14
"""

from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "ppo_selfplay.py"  # the recipe, in baselines/

VARIANTS = {  # name -> flags on top of the recipe's defaults
    "defaults": [],
    "seed1": ["--seed", "1"],
    "lr3e-4": ["--lr", "3e-4"],
    "lr1e-4": ["--lr", "1e-4"],
    "ent0.003": ["--ent-coef", "0.003"],
    "ent0.03": ["--ent-coef", "0.03"],
    "ch64": ["--channels", "64"],
    "layers3": ["--layers", "3"],
    "rollout64": ["--rollout", "64"],
    "epochs2": ["--epochs", "2"],
    "envs256": ["--num-envs", "256", "--minibatch", "2048"],
    "uniform-pool": ["--sampling", "uniform"],
    "latest-pool": ["--sampling", "latest"],
    "gamma0.97": ["--gamma", "0.97"],
}


def run_one(name: str, flags: list[str], args: argparse.Namespace) -> dict:
    out = Path(args.out) / name
    env = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "NUMBA_NUM_THREADS": "1"}
    cmd = [sys.executable, str(SCRIPT), "--out", str(out), "--game", args.game, "--cpu-hours", str(args.cpu_minutes / 60),
           "--rate-games", str(args.rate_games), "--rate-minutes", str(args.rate_minutes), "--rate-share", "0.25",
           *flags]  # fmt: skip
    t0 = time.monotonic()
    with open(Path(args.out) / f"{name}.log", "w") as log:
        rc = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, env=env).returncode
    row = {"variant": name, "flags": " ".join(flags), "rc": rc, "wall_s": round(time.monotonic() - t0)}
    if rc == 0 and args.games:
        code = ("import sys, torch; sys.path.insert(0, sys.argv[1]); torch.set_num_threads(1)\n"
                "import ppo_selfplay as P\n"
                "from boardgame_envs.ladder import rate\n"
                "r = rate(P.BoardNetPolicy(P.load_net(sys.argv[2])[0]), sys.argv[3], games=int(sys.argv[4]), seed=1, progress=False)\n"
                "print(r.elo, r.low, r.high, r.games)\n")  # fmt: skip
        res = subprocess.run([sys.executable, "-c", code, str(SCRIPT.parent), str(out / "final.pt"), args.game,
                              str(args.games)], capture_output=True, text=True, env=env)  # fmt: skip
        if res.returncode == 0:
            elo, low, high, games = res.stdout.split()[-4:]
            row.update(elo=round(float(elo), 0), low=round(float(low), 0), high=round(float(high), 0), games=int(games))
        else:
            row["error"] = res.stderr.strip().splitlines()[-1] if res.stderr.strip() else f"rc {res.returncode}"
    curve = out / "curve.csv"
    if curve.exists():
        rows = list(csv.DictReader(open(curve)))
        if rows:
            last = rows[-1]
            row.update(steps=int(last["steps"]), cpu_h=float(last["cpu_hours"]), curve_elo=last["elo"])
            cpu_train = float(last["cpu_hours"]) * 3600 - sum(float(r["rate_cpu_s"]) for r in rows)
            row["steps_per_cpu_s"] = round(int(last["steps"]) / max(cpu_train, 1e-9))
    print(row, flush=True)
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--game", default="gomoku9")
    parser.add_argument("--cpu-minutes", type=float, default=5.0, help="CPU budget of each run")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--games", type=int, default=100, help="games of the final rating (0: none)")
    parser.add_argument("--rate-games", type=int, default=40, help="games of each rating during a run")
    parser.add_argument("--rate-minutes", type=float, default=2.0)
    parser.add_argument("--only", default="", help="comma list of variants (default: all)")
    args = parser.parse_args(argv)
    names = [n for n in VARIANTS if not args.only or n in args.only.split(",")]
    unknown = set(args.only.split(",")) - set(VARIANTS) - {""}
    if unknown:
        parser.error(f"unknown variants {', '.join(sorted(unknown))}; known: {', '.join(VARIANTS)}")
    Path(args.out).mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(args.jobs) as ex:
        rows = list(ex.map(lambda n: run_one(n, VARIANTS[n], args), names))
    keys = ["variant", "flags", "rc", "wall_s", "steps", "cpu_h", "steps_per_cpu_s", "curve_elo", "elo", "low", "high",
            "games", "error"]  # fmt: skip
    with open(Path(args.out) / "sweep.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=keys)
        writer.writeheader()
        writer.writerows(rows)
    lines = ["| variant | flags | steps | steps/CPU-s | Elo (95%) |", "|---|---|---|---|---|"]
    for r in sorted(rows, key=lambda r: -r.get("elo", -1e9)):
        elo = f"{r['elo']:+.0f} ({r['low']:+.0f} .. {r['high']:+.0f})" if "elo" in r else r.get("error", f"rc {r['rc']}")
        lines.append(f"| {r['variant']} | {r['flags']} | {r.get('steps', '')} | {r.get('steps_per_cpu_s', '')} | {elo} |")
    (Path(args.out) / "sweep.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
