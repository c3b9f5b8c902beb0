"""``boardgame-envs solve connect_four MOVES``: a position's exact value and every legal column's, in words or JSON.

MOVES are columns ``1..7`` from the empty board, the first player first (the
notation of the published connect-four test sets); the values are the
solver's scores (:mod:`boardgame_envs.games.connect_four_search`): positive a win
for the player to move, 0 a draw, negative a loss. The search stops after
``--nodes`` nodes (one budget for the whole command) and then says so in one
line instead of answering.
"""

from __future__ import annotations

import argparse
import json
import sys

from boardgame_envs.games.connect_four_solver import (
    DEFAULT_NODE_LIMIT, ConnectFourSolver, SolverBudgetError, describe, state_of_moves,
)  # fmt: skip

SOLVABLE = ("connect_four",)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=SOLVABLE, help="the game (connect_four)")
    parser.add_argument("moves", metavar="MOVES", help="columns 1..7 from the empty board, e.g. 4453; '' for the empty board")
    parser.add_argument("--json", action="store_true", help='print {"value": V, "moves": {"1": V1, ...}} (full columns absent)')
    parser.add_argument("--nodes", type=int, default=DEFAULT_NODE_LIMIT, metavar="N",
                        help=f"give up after N nodes searched (default {DEFAULT_NODE_LIMIT:,}: about 7 minutes "
                        "on one core of the development machine; positions after 12 moves take well under a second)")  # fmt: skip


def signed(score: int) -> str:
    return f"{score:+d}" if score else "0"


def run(args: argparse.Namespace) -> int:
    state = state_of_moves(args.moves)  # a bad move: ValueError naming it, before any search
    if state.terminal:
        raise ValueError(f"the game is over after {args.moves!r}: there is nothing to solve")
    if args.nodes < 1:
        raise ValueError(f"--nodes must be at least 1, not {args.nodes}")
    solver = ConnectFourSolver(node_limit=args.nodes)
    try:
        scores = solver.move_scores(state)
    except SolverBudgetError as exc:
        print(f"boardgame-envs: {exc} (raise --nodes to search longer)", file=sys.stderr)
        return 1
    value = max(scores.values())
    if args.json:
        print(json.dumps({"value": value, "moves": {str(c + 1): v for c, v in scores.items()}}))
        return 0
    player = state.game.player_name(state.to_move)
    print(f"after {args.moves.strip() or 'no moves'} ({state.num_moves} moves), {player} to move: "
          f"{describe(value, state.num_moves)} (score {signed(value)})")  # fmt: skip
    for column, score in scores.items():
        print(f"  column {column + 1}: {describe(score, state.num_moves)} (score {signed(score)})")
    return 0
