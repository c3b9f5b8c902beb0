"""Alpha-beta's continuous-four (VCF) kernel against an earlier version of it: the same games, CPU time.

    git show 20490f4:boardgame_envs/policies/alphabeta_kernels.py > /tmp/old_abk.py
    python baselines/vcf_kernel_compare.py /tmp/old_abk.py

Plays ``--games`` games of ``AlphaBetaPolicy(nodes=1000)`` against itself on
15x15 renju from random three-stone openings, once with the given file's
``vcf`` and once with the package's, checks that the games are move for move
the same, and prints the CPU time of each and their ratio. (20490f4 is the
last commit whose VCF search scans every candidate point after each trial
stone.)
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import sys
import time
from types import ModuleType

from boardgame_envs import gomoku_v0
from boardgame_envs.arena import play_record
from boardgame_envs.ladder.games import random_opening
from boardgame_envs.policies import alphabeta_kernels
from boardgame_envs.policies.alphabeta import AlphaBetaPolicy


def load_kernels(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location("old_alphabeta_kernels", path)
    if spec is None or spec.loader is None:
        raise ValueError(f"{path} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # numba resolves the recursive kernel's call through the module
    spec.loader.exec_module(module)
    return module


def play(vcf, games: int) -> tuple[float, list[tuple[int, ...]]]:
    """CPU seconds and the move lists of ``games`` games with ``vcf`` as alpha-beta's VCF kernel."""
    env_fn = functools.partial(gomoku_v0.env, board_size=15, rule="renju")
    saved, alphabeta_kernels.vcf = alphabeta_kernels.vcf, vcf
    try:
        start = time.process_time()
        moves = []
        for g in range(games):
            black, white = AlphaBetaPolicy(nodes=1000, seed=g), AlphaBetaPolicy(nodes=1000, seed=g + 100)
            moves.append(tuple(play_record(env_fn, black, white, opening=list(random_opening(15, g))).moves))
        return time.process_time() - start, moves
    finally:
        alphabeta_kernels.vcf = saved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old", help="an earlier alphabeta_kernels.py (git show REV:boardgame_envs/policies/...)")
    parser.add_argument("--games", type=int, default=12)
    args = parser.parse_args(argv)
    try:
        old = load_kernels(args.old)
    except (OSError, ValueError) as exc:
        parser.error(str(exc))
    play(alphabeta_kernels.vcf, 1), play(old.vcf, 1)  # compile or load both first
    t_old, old_games = play(old.vcf, args.games)
    t_new, new_games = play(alphabeta_kernels.vcf, args.games)
    if old_games != new_games:
        print("the two kernels played different games", file=sys.stderr)
        return 1
    moves = sum(len(m) for m in old_games)
    print(f"{args.games} renju games, {moves} moves, the same with both: earlier VCF {t_old:.1f} CPU s, "
          f"this one {t_new:.1f} CPU s, ratio {t_old / t_new:.2f}x")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
