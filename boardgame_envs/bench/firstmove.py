"""The first move of a fresh process: what a user waits for after typing ``boardgame-envs play``.

Each repeat starts a new interpreter (the same one running this script, the
same environment) that imports the package, sets up a 15x15 renju game after
four moves, and times three firsts: ``AlphaBetaPolicy().act`` (default
settings), ``MCTSPolicy().act`` and ``forbidden_mask``. The reference, measured
in the same process right after, is the same call again from a new policy
object (so no table or tree is reused): what the move costs once its kernels
are in memory. The ratio first / again is the price of loading the kernels
from numba's cache; before the search kernels could be cached, the first
alpha-beta move of every process compiled them for 5-7 s.

The first child runs with the cache as it finds it and is not counted: it
fills numba's cache if needed. ``--cold`` also times one child with an empty
cache directory (``NUMBA_CACHE_DIR``), the one-time compilation a new install pays.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

CHILD = r"""
import json, sys, time
start = time.perf_counter()
import numpy as np
from boardgame_envs import gomoku_v0
from boardgame_envs.games.renju import forbidden_mask
from boardgame_envs.policies import AlphaBetaPolicy, MCTSPolicy
out = {"import": time.perf_counter() - start}
env = gomoku_v0.env(board_size=15, rule="renju")
env.reset(seed=0)
for a in (112, 113, 97, 128):  # h8 i8 h9 i7: black to move, a few stones near the centre
    env.step(a)
board = env.unwrapped.state()
for name, call in (
    ("alphabeta", lambda: AlphaBetaPolicy(seed=0).act(env)),
    ("mcts", lambda: MCTSPolicy(seed=0).act(env)),
    ("renju", lambda: forbidden_mask(board)),
):
    times = []
    for _ in range(2):
        t = time.perf_counter()
        call()
        times.append(time.perf_counter() - t)
    out[name] = times
print(json.dumps(out))
"""


def child(env: dict[str, str]) -> tuple[dict, float, str]:
    """One fresh interpreter's timings, its wall time, and what it printed on stderr."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, env=env, check=True)
    return json.loads(done.stdout), time.perf_counter() - start, done.stderr.strip()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, prog="python -m boardgame_envs.bench firstmove", description=__doc__)
    parser.add_argument("--repeat", type=int, default=5, help="fresh processes timed (after one that fills the cache)")
    parser.add_argument("--cold", action="store_true", help="also time one process with an empty numba cache")
    args = parser.parse_args(argv)
    env = dict(os.environ)
    if args.cold:
        with tempfile.TemporaryDirectory() as cache:
            timings, wall, said = child({**env, "NUMBA_CACHE_DIR": cache})
        print(f"empty numba cache: process {wall:.1f} s (import {timings['import']:.1f} s, first alpha-beta move "
              f"{timings['alphabeta'][0]:.1f} s, first MCTS move {timings['mcts'][0]:.1f} s)")  # fmt: skip
        for line in said.splitlines():
            print(f"  it said: {line}")
    child(env)  # fills the cache if it is empty; not counted
    runs = [child(env) for _ in range(args.repeat)]
    wall = statistics.median(w for _, w, _ in runs)
    imported = statistics.median(t["import"] for t, _, _ in runs)
    print(f"warm numba cache, median of {args.repeat} fresh processes (process wall time {wall:.2f} s, "
          f"import {imported:.2f} s):")  # fmt: skip
    for name, what in (("alphabeta", "alpha-beta move"), ("mcts", "MCTS move (2000 simulations)"),
                       ("renju", "forbidden_mask")):  # fmt: skip
        first = statistics.median(t[name][0] for t, _, _ in runs)
        again = statistics.median(t[name][1] for t, _, _ in runs)
        print(f"  first {what}: {first * 1e3:7.1f} ms; again in the same process {again * 1e3:7.1f} ms; "
              f"first / again {first / again:5.1f}x")  # fmt: skip
    noisy = [said for _, _, said in runs if said]
    if noisy:
        print(f"  a warm process printed on stderr: {noisy[0].splitlines()[0]}")
