"""Solve a small k-in-a-row game exactly: does the first player win, and with which openings?

    python baselines/solve_mnk.py --size 6 --k 4

An m,n,k-game (freestyle: any line of k or more wins) is a first-player win or a
draw (a second player's win is impossible by strategy stealing). This script
answers which, for each first move up to the board's symmetries, with the
package's exact solver (:mod:`boardgame_envs.games.solver`, where its cuts are
argued). ``--check`` first solves the small square games whose values are known
(3,3,3 draw; 4,4,3 win; 4,4,4 and 5,5,4 draws); ``--verify`` then replays the
first player's win against every reply through the package's own rules.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numpy as np

from boardgame_envs.games.mnk import MNKState, MNKGame
from boardgame_envs.games.notation import point_name
from boardgame_envs.games.solver import Solver

KNOWN = {(3, 3): 0, (4, 3): 1, (4, 4): 0, (5, 4): 0}  # (size, k) -> value for the first player


class NotAWin(Exception):
    """The first player's strategy met a reply it does not win against."""


@dataclass
class Proof:
    """What :func:`verify_first_player_win` checked: positions and the first player's first move."""

    positions: int
    first_move: int


def verify_first_player_win(solver: Solver, game: MNKGame, progress: bool = False) -> Proof:
    """Check that the first player wins, replaying the solver's strategy through the package's rules.

    The first player plays a move that the solver says wins; the second player
    tries *every* legal reply of ``game`` (none of the search's cuts), and
    every game must end in the first player's win by ``game``'s own win check.
    Raises :class:`NotAWin` where it does not. Transpositions are checked once.
    """
    checked: set[bytes] = set()

    def winning_child(state: MNKState) -> MNKState:
        action = solver.winning_move(state)
        if action is None:
            raise NotAWin(f"no winning move for the first player in\n{state}")
        child = state.clone()
        child.play(action)
        return child

    def first_to_move(state: MNKState) -> None:
        key = state.board.tobytes()
        if key not in checked:
            child = winning_child(state)
            if not child.terminal:
                second_to_move(child)
            checked.add(key)
            if progress and len(checked) % 100_000 == 0:
                print(f"  {len(checked):,} positions checked", flush=True)

    def second_to_move(state: MNKState) -> None:
        key = state.board.tobytes()
        if key not in checked:
            for action in state.legal_actions():
                child = state.clone()
                child.play(int(action))
                if child.terminal:
                    raise NotAWin(f"the second player's reply ends the game without a first-player win:\n{child}")
                first_to_move(child)
            checked.add(key)

    root = game.new_state()
    first_to_move(root)
    return Proof(positions=len(checked), first_move=int(np.flatnonzero(winning_child(root).board)[0]))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=6, help="board side (rows = columns)")
    parser.add_argument("--k", type=int, default=4, help="stones in a row to win")
    parser.add_argument("--check", action="store_true", help="first solve the small games of known value")
    parser.add_argument("--verify", action="store_true",
                        help="then replay the first player's win against every reply, through the package's rules")
    args = parser.parse_args(argv)
    if args.check:
        for (size, k), known in KNOWN.items():
            got = Solver(MNKGame(size, k), tt_bits=20).first_player_value([])
            print(f"{size},{size},{k}: {got:+d} (known {known:+d}){'' if got == known else '  MISMATCH'}")
            if got != known:
                raise SystemExit(1)
    try:
        game = MNKGame(args.size, args.k)
        solver = Solver(game)
    except ValueError as error:
        parser.error(str(error))
    total = time.perf_counter()
    print(f"{args.size}x{args.size}, {args.k} in a row: value for the first player after each distinct first move")
    values = {}
    for cell in solver.distinct_first_moves():
        start, before = time.perf_counter(), int(solver.nodes[0])
        values[cell] = solver.first_player_value([cell])
        print(f"  {point_name(cell, args.size)}: {values[cell]:+d}  ({int(solver.nodes[0]) - before:,} nodes, "
              f"{time.perf_counter() - start:.1f} s)", flush=True)
    print(f"total {time.perf_counter() - total:.1f} s, {int(solver.nodes[0]):,} nodes")
    if args.verify and max(values.values()) < 1:
        print("the first player has no winning first move: no win to verify")
    elif args.verify:
        start = time.perf_counter()
        proof = verify_first_player_win(solver, game, progress=True)
        print(f"verified: the first player wins with {point_name(proof.first_move, args.size)} against every reply; "
              f"{proof.positions:,} positions checked, {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
