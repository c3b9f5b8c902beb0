"""A network in the first seat of a solved game, judged move by move by the exact solver.

    python baselines/studies/first_seat_vs_solver.py --checkpoint runs/g6/latest.pt

6x6 four in a row is a first-player win (``baselines/solve_mnk.py``). The
network plays first in every game, ``--games`` games against ``--opponent``
(default ``mcts:simulations=1000``), with its own seed each game. Then every
first-player move of those games is judged by :class:`~boardgame_envs.games.solver.Solver`:
does the position after it remain a first-player win? A move that completes
the row keeps the win by definition. Two counts come out:

* **kept won**: moves after which the first player still wins by force, out of
  all first-player moves (``--sample N`` judges a random N of them instead);
* **from won positions**: the same, counting only moves made from a position
  the first player was winning (after a move that threw the win away, the
  later moves start from a position that is no longer won, and "keeping" it
  means nothing).

The empty board's value is not searched again here (``solve_mnk.py`` proves
it, 3 minutes); every position after a move is. Positions that recur are
solved once, and the solver's table carries over from one to the next.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from pathlib import Path

import numpy as np

from boardgame_envs import gomoku_v0
from boardgame_envs.arena import GameTask, play_task
from boardgame_envs.arena.backends import run_tasks
from boardgame_envs.games.mnk import MNKGame
from boardgame_envs.games.notation import point_name
from boardgame_envs.games.solver import Solver
from boardgame_envs.policies.registry import check_spec, spec_name
from mcts_first_seat import _network  # the network as an arena policy, one torch thread a process
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # baselines/, for report.py (the recipes' too)
from report import command_line, publish  # noqa: E402


def first_seat_games(env_fn, spec_first, spec_second, games: int, seed: int, jobs: int) -> list:
    """``games`` game records with ``spec_first`` in the first seat every time, each with its own seed."""
    names = (spec_name(spec_first), spec_name(spec_second))
    seeds = np.random.SeedSequence(seed).generate_state(games, dtype=np.uint32)
    tasks = [GameTask(i, env_fn, spec_first, spec_second, names, int(seeds[i]), True, None) for i in range(games)]
    outcomes = run_tasks(play_task, tasks, jobs)
    try:
        return list(outcomes)
    finally:
        outcomes.close()


class Judge:
    """Whether the first player wins by force after a list of moves, each distinct position solved once."""

    def __init__(self, game: MNKGame) -> None:
        self.game = game
        self.solver = Solver(game)
        self.known: dict[tuple[frozenset[int], frozenset[int]], bool] = {}

    def first_player_wins(self, moves: list[int]) -> bool:
        key = (frozenset(moves[0::2]), frozenset(moves[1::2]))
        if key not in self.known:
            state = self.game.new_state()
            for action in moves:
                state.play(action)
            if len(moves) % 2:  # the first player has just moved (a finished game included)
                self.known[key] = self.solver.wins_by_force(state)
            else:  # the first player to move: does it win? (value >= 1 for it, a null window)
                self.known[key] = not state.terminal and self.solver.board_value(state.board, 0, 1) >= 1
        return self.known[key]


def judge_games(judge: Judge, records: list, sample: int | None, seed: int) -> dict:
    """Judge the first player's moves of ``records`` (all, or a random ``sample`` of them)."""
    moves = [(g, ply) for g, record in enumerate(records) for ply in range(0, len(record.moves), 2)]
    sampled = sample is not None and sample < len(moves)
    if sampled:
        picked = np.random.default_rng(seed).choice(len(moves), size=sample, replace=False)
        moves = [moves[i] for i in sorted(picked)]
    kept = from_won = kept_from_won = 0
    lapses = []
    for g, ply in moves:
        played = records[g].moves
        after = judge.first_player_wins(played[: ply + 1])
        before = ply == 0 or judge.first_player_wins(played[: ply - 1])  # the empty board: solve_mnk.py
        kept += after
        if before:
            from_won += 1
            kept_from_won += after
            if not after:
                lapses.append((g, ply))
    return dict(judged=len(moves), sampled=sampled, kept=kept, from_won=from_won, kept_from_won=kept_from_won,
                lapses=lapses)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--checkpoint", required=True, help="a trainer checkpoint (.pt) or a pretrained network's file")
    parser.add_argument("--board-size", type=int, default=6)
    parser.add_argument("--win-length", type=int, default=4)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--simulations", type=int, default=400, help="the network's PUCT simulations a move")
    parser.add_argument("--opponent", default="mcts:simulations=1000", help="the second seat's policy spec")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2, help="processes for the games")
    parser.add_argument("--sample", type=int, default=None, help="judge a random N of the first player's moves")
    parser.add_argument("--out", default=None, help="write the report (markdown) here")
    args = parser.parse_args(argv)
    try:
        check_spec(args.opponent)
        game = MNKGame(args.board_size, args.win_length)
        judge = Judge(game)
    except ValueError as exc:
        parser.error(str(exc))
    if args.games < 1 or (args.sample is not None and args.sample < 1):
        parser.error("--games and --sample must be at least 1")

    env_fn = functools.partial(gomoku_v0.env, board_size=args.board_size, win_length=args.win_length)
    network = functools.partial(_network, args.checkpoint, args.simulations)
    t0 = time.perf_counter()
    records = first_seat_games(env_fn, network, args.opponent, args.games, args.seed, args.jobs)
    play_s = time.perf_counter() - t0
    wins = sum(r.winner == 1 for r in records)
    draws = sum(r.winner == 0 for r in records)
    t0 = time.perf_counter()
    verdict = judge_games(judge, records, args.sample, args.seed)
    judge_s = time.perf_counter() - t0
    n = args.board_size
    distinct = len({tuple(r.moves) for r in records})

    def share(part: int, whole: int) -> str:
        return f"{part}/{whole} ({100 * part / whole:.1f}%)" if whole else "0/0"

    report = [
        f"# The network in the first seat of {n}x{n}, {args.win_length} in a row, judged by the solver",
        "",
        f"Command: `{command_line(argv)}`  ",
        f"The network (`{args.checkpoint}`, {args.simulations} PUCT simulations a move) plays first in every game "
        f"against `{args.opponent}`; {args.games} games, {play_s:.0f} s, {distinct} distinct games.",
        "",
        "| network (first seat) | wins | draws | losses |",
        "|---|---|---|---|",
        f"| {args.games} games | {wins} | {draws} | {args.games - wins - draws} |",
        "",
        f"Solver's verdict on {'a random sample of ' if verdict['sampled'] else ''}the first player's moves "
        f"({judge_s:.0f} s, {len(judge.known)} distinct positions solved):",
        "",
        f"- the position after the move is a first-player win: {share(verdict['kept'], verdict['judged'])}",
        f"- the same, counting moves from won positions only: "
        f"{share(verdict['kept_from_won'], verdict['from_won'])}",
    ]
    for g, ply in verdict["lapses"][:20]:
        played = records[g].moves
        line = " ".join(point_name(a, n) for a in played[:ply])
        report.append(f"- lost the win in game {g + 1} at ply {ply + 1}: after `{line}` it played "
                      f"`{point_name(played[ply], n)}`")  # fmt: skip
    publish(report + [""], args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
