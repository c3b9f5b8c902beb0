"""The search kernels come from numba's on-disk cache in a new process: no compilation before a first move."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from boardgame_envs import gomoku_v0
from boardgame_envs.policies import AlphaBetaPolicy, MCTSPolicy

FIRST_MOVES = """
from boardgame_envs import gomoku_v0
from boardgame_envs.policies import AlphaBetaPolicy, MCTSPolicy
env = gomoku_v0.env(board_size=9, rule="renju")
env.reset()
env.step(40)
print(AlphaBetaPolicy(seed=0).act(env), MCTSPolicy(simulations=50, seed=0).act(env))
from boardgame_envs.policies import alphabeta_kernels, mcts
for kernel in (alphabeta_kernels.negamax, alphabeta_kernels.vcf, alphabeta_kernels.root_scores, mcts._simulate):
    print(kernel.__name__, sum(kernel.stats.cache_hits.values()), sum(kernel.stats.cache_misses.values()))
"""


def test_a_new_process_loads_every_search_kernel_from_the_cache():
    env = gomoku_v0.env(board_size=9, rule="renju")
    env.reset()
    env.step(40)
    AlphaBetaPolicy(seed=0).act(env)  # this process compiles or loads, and so fills the cache
    MCTSPolicy(simulations=50, seed=0).act(env)
    root = str(Path(__file__).resolve().parents[2])
    pythonpath = os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, "-c", FIRST_MOVES], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": pythonpath})  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    moves, *kernels = done.stdout.splitlines()
    assert len(moves.split()) == 2
    for line in kernels:  # name, loads from the cache, compilations
        name, hits, misses = line.split()
        assert (int(hits), int(misses)) == (1, 0), line
    assert len(kernels) == 4
    assert "compiling" not in done.stderr, done.stderr
