"""Solve a small k-in-a-row game exactly: does the first player win, and with which openings?

    python baselines/solve_mnk.py --size 6 --k 4

An m,n,k-game (freestyle: any line of k or more wins) is a first-player win or a
draw (a second player's win is impossible by strategy stealing). This script
answers which, for each first move up to the board's symmetries, with an exact
alpha-beta search over the values -1, 0, +1. Nothing here is a heuristic cut:

* a side to move with k-1 stones in a window the opponent has not touched
  wins at once (its last cell is empty: the game would have ended otherwise);
* a side facing two such opponent windows with different empty cells loses,
  and facing one it must block there (any other move loses at once);
* an empty cell in no window that either side can still fill is never played:
  a stone there changes nothing, and by the extra-stone argument behind
  strategy stealing a stone in a live cell is never worse than that pass;
* a position where no window can be filled by either side is a draw.

Positions are cached by a 64-bit Zobrist key in a transposition table that
stores lower and upper bounds. ``--check`` first solves the small games whose
values are known (3,3,3 draw; 4,3,3 and 4,4,3 wins; 4,4,4 and 5,5,4 draws).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numpy as np
from numba import njit

from boardgame_envs.games.lines import DIRECTIONS
from boardgame_envs.games.mnk import GameState, MNKGame

TT_BITS = 24
KNOWN = {(3, 3, 3): 0, (4, 3, 3): 1, (4, 4, 3): 1, (4, 4, 4): 0, (5, 5, 4): 0}  # value for the first player


def windows(rows: int, cols: int, k: int) -> np.ndarray:
    """Every line of k cells on the board, as an array of cell indices (row * cols + col)."""
    out = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in DIRECTIONS.tolist():
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= end_r < rows and 0 <= end_c < cols:
                    out.append([(r + dr * i) * cols + (c + dc * i) for i in range(k)])
    return np.array(out, dtype=np.int64)


def cell_windows(win: np.ndarray, cells: int) -> np.ndarray:
    """For each cell, the windows through it, padded with -1."""
    lists = [[w for w in range(len(win)) if cell in win[w]] for cell in range(cells)]
    out = np.full((cells, max(map(len, lists))), -1, dtype=np.int64)
    for cell, ws in enumerate(lists):
        out[cell, : len(ws)] = ws
    return out


@njit(cache=True)
def _order_weight(own: int, other: int) -> int:
    # Prefer cells that extend our open windows (steeply by count) and block the opponent's.
    if other == 0:
        return 1 << (3 * own)
    if own == 0:
        return 1 << (3 * other - 1)
    return 0


@njit(cache=False)
def _negamax(side, alpha, beta, stones, board, count, win, cwin, k, zob, key, tt_key, tt_lo, tt_hi, tt_move, nodes):
    nodes[0] += 1
    cells = board.shape[0]
    other = 1 - side
    if stones == cells:
        return 0
    # Immediate win, then forced block (or two threats: lost), and whether any window is still live.
    live = False
    for w in range(win.shape[0]):
        if count[other, w] == 0:
            live = True
            if count[side, w] == k - 1:
                return 1
        elif count[side, w] == 0:
            live = True
    if not live:
        return 0
    block = -1
    for w in range(win.shape[0]):
        if count[side, w] == 0 and count[other, w] == k - 1:
            for i in range(k):
                cell = win[w, i]
                if board[cell] == 0:
                    if block >= 0 and block != cell:
                        return -1
                    block = cell
    slot = key[0] & (tt_key.shape[0] - 1)
    lo, hi = -1, 1
    best_move = -1
    if tt_key[slot] == key[0]:
        lo, hi, best_move = tt_lo[slot], tt_hi[slot], tt_move[slot]
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
    alpha0 = alpha
    # Candidate moves: the forced block, else every empty cell in a live window, best first.
    moves = np.empty(cells, dtype=np.int64)
    scores = np.empty(cells, dtype=np.int64)
    n = 0
    if block >= 0:
        moves[0] = block
        scores[0] = 0
        n = 1
    else:
        for cell in range(cells):
            if board[cell] != 0:
                continue
            s = 0
            for j in range(cwin.shape[1]):
                w = cwin[cell, j]
                if w < 0:
                    break
                s += _order_weight(count[side, w], count[other, w])
            if s > 0:
                if cell == best_move:
                    s = 1 << 60
                moves[n] = cell
                scores[n] = s
                n += 1
        if n == 0:
            return 0
        order = np.argsort(-scores[:n])
        moves[:n] = moves[:n][order]
    best = -2
    chosen = -1
    for i in range(n):
        cell = moves[i]
        board[cell] = side + 1
        key[0] ^= zob[side, cell]
        for j in range(cwin.shape[1]):
            w = cwin[cell, j]
            if w < 0:
                break
            count[side, w] += 1
        value = -_negamax(other, -beta, -alpha, stones + 1, board, count, win, cwin, k, zob, key,
                          tt_key, tt_lo, tt_hi, tt_move, nodes)
        for j in range(cwin.shape[1]):
            w = cwin[cell, j]
            if w < 0:
                break
            count[side, w] -= 1
        key[0] ^= zob[side, cell]
        board[cell] = 0
        if value > best:
            best, chosen = value, cell
        if best > alpha:
            alpha = best
        if alpha >= beta:
            break
    # Store what this search proved: an exact value, or a bound when the window cut it short.
    new_lo, new_hi = lo, hi
    if best >= beta:
        new_lo = max(lo, best)
    elif best <= alpha0:
        new_hi = min(hi, best)
    else:
        new_lo, new_hi = best, best
    tt_key[slot] = key[0]
    tt_lo[slot] = new_lo
    tt_hi[slot] = new_hi
    tt_move[slot] = chosen
    return best


class Solver:
    """Exact values of positions on one board, sharing a transposition table between calls."""

    def __init__(self, rows: int, cols: int, k: int, tt_bits: int = TT_BITS, seed: int = 0) -> None:
        if not (2 <= k <= max(rows, cols) and rows * cols <= 64):
            raise ValueError(f"need 2 <= k <= the longer side and at most 64 cells, got {rows}x{cols}, k={k}")
        self.rows, self.cols, self.k = rows, cols, k
        self.win = windows(rows, cols, k)
        self.cwin = cell_windows(self.win, rows * cols)
        rng = np.random.default_rng(seed)
        self.zob = rng.integers(1, 2**62, size=(2, rows * cols), dtype=np.int64)
        self.tt_key = np.full(1 << tt_bits, -1, dtype=np.int64)
        self.tt_lo = np.zeros(1 << tt_bits, dtype=np.int8)
        self.tt_hi = np.zeros(1 << tt_bits, dtype=np.int8)
        self.tt_move = np.zeros(1 << tt_bits, dtype=np.int8)
        self.nodes = np.zeros(1, dtype=np.int64)

    def value(self, moves: list[int], alpha: int = -1, beta: int = 1) -> int:
        """The value of the position after ``moves`` (alternating, first player first) for the side to move.

        With the default window the value is exact; with a narrower (alpha, beta) it is a bound
        beyond the window when it falls outside, as in any fail-soft alpha-beta.
        """
        board = np.zeros(self.rows * self.cols, dtype=np.int8)
        for ply, cell in enumerate(moves):
            if board[cell]:
                raise ValueError(f"cell {cell} is played twice in {moves}")
            board[cell] = ply % 2 + 1
        return self.board_value(board, alpha, beta)

    def board_value(self, board: np.ndarray, alpha: int = -1, beta: int = 1) -> int:
        """As :meth:`value`, for a flat board of 0 (empty), 1 (first player), 2 (second player).

        The side to move follows from the stone counts.
        """
        board = np.asarray(board, dtype=np.int8).reshape(-1).copy()
        if board.shape[0] != self.rows * self.cols or not np.isin(board, (0, 1, 2)).all():
            raise ValueError(f"expected {self.rows * self.cols} cells of 0, 1 or 2")
        stones = [np.flatnonzero(board == side + 1) for side in (0, 1)]
        if len(stones[0]) - len(stones[1]) not in (0, 1):
            raise ValueError("the first player has 0 or 1 stones more than the second in any position")
        count = np.zeros((2, len(self.win)), dtype=np.int64)
        key = np.zeros(1, dtype=np.int64)
        for side in (0, 1):
            for cell in stones[side]:
                key[0] ^= self.zob[side, cell]
                count[side, self.cwin[cell][self.cwin[cell] >= 0]] += 1
        if (count == self.k).any():
            raise ValueError("the game is already over in this position")
        moved = len(stones[0]) + len(stones[1])
        return int(_negamax(moved % 2, alpha, beta, moved, board, count, self.win, self.cwin, self.k,
                            self.zob, key, self.tt_key, self.tt_lo, self.tt_hi, self.tt_move, self.nodes))

    def wins_by_force(self, state: GameState) -> bool:
        """Whether the player who has just moved into ``state`` has won, or wins by force."""
        return bool(state.winner) or (not state.terminal and self.board_value(state.board, -1, 0) <= -1)

    def winning_move(self, state: GameState) -> int | None:
        """A move that wins for the side to move, centre first and immediate wins before forced ones; else None."""
        size = state.game.size
        centre = (size - 1) / 2

        def from_centre(action: int) -> float:
            return abs(action // size - centre) + abs(action % size - centre)

        children = []
        for action in sorted(state.legal_actions().tolist(), key=from_centre):
            child = state.clone()
            child.play(action)
            if child.winner:
                return action
            children.append((action, child))
        # A null window asks only "does the opponent lose?": cheaper than an exact value.
        return next((action for action, child in children if self.wins_by_force(child)), None)

    def first_player_value(self, moves: list[int]) -> int:
        """+1, 0 or -1 for the first player after ``moves``, by two null-window searches."""
        sign = 1 if len(moves) % 2 == 0 else -1
        # Does the first player win? For the side to move that is "value >= 1" or "value <= -1".
        if sign * self.value(moves, *((0, 1) if sign > 0 else (-1, 0))) >= 1:
            return 1
        return 0 if sign * self.value(moves, *((-1, 0) if sign > 0 else (0, 1))) >= 0 else -1

    def distinct_first_moves(self) -> list[int]:
        """One cell from each orbit of the board's symmetries."""
        grid = np.arange(self.rows * self.cols).reshape(self.rows, self.cols)
        images = [grid, grid[::-1], grid[:, ::-1], grid[::-1, ::-1]]
        if self.rows == self.cols:
            images += [g.T for g in images]
        seen, out = set(), []
        for cell in range(self.rows * self.cols):
            if cell not in seen:
                out.append(cell)
                seen.update(int(np.flatnonzero(g == cell)[0]) for g in images)
        return out

    def name(self, cell: int) -> str:
        """Renju-style name: column letter, then the row counted from the bottom."""
        row, col = divmod(cell, self.cols)
        return f"{'abcdefghijklmnopqrstuvwxyz'[col]}{self.rows - row}"


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

    def winning_child(state: GameState) -> GameState:
        action = solver.winning_move(state)
        if action is None:
            raise NotAWin(f"no winning move for the first player in\n{state}")
        child = state.clone()
        child.play(action)
        return child

    def first_to_move(state: GameState) -> None:
        key = state.board.tobytes()
        if key not in checked:
            child = winning_child(state)
            if not child.terminal:
                second_to_move(child)
            checked.add(key)
            if progress and len(checked) % 100_000 == 0:
                print(f"  {len(checked):,} positions checked", flush=True)

    def second_to_move(state: GameState) -> None:
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
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=6, help="board side (rows = columns)")
    parser.add_argument("--k", type=int, default=4, help="stones in a row to win")
    parser.add_argument("--check", action="store_true", help="first solve the small games of known value")
    parser.add_argument("--verify", action="store_true",
                        help="then replay the first player's win against every reply, through the package's rules")
    args = parser.parse_args(argv)
    if args.check:
        for (rows, cols, k), known in KNOWN.items():
            got = Solver(rows, cols, k, tt_bits=20).first_player_value([])
            print(f"{rows},{cols},{k}: {got:+d} (known {known:+d}){'' if got == known else '  MISMATCH'}")
            if got != known:
                raise SystemExit(1)
    try:
        game = MNKGame(args.size, args.k)
        solver = Solver(args.size, args.size, args.k)
    except ValueError as error:
        parser.error(str(error))
    total = time.perf_counter()
    print(f"{args.size}x{args.size}, {args.k} in a row: value for the first player after each distinct first move")
    values = {}
    for cell in solver.distinct_first_moves():
        start, before = time.perf_counter(), int(solver.nodes[0])
        values[cell] = solver.first_player_value([cell])
        print(f"  {solver.name(cell)}: {values[cell]:+d}  ({int(solver.nodes[0]) - before:,} nodes, "
              f"{time.perf_counter() - start:.1f} s)", flush=True)
    print(f"total {time.perf_counter() - total:.1f} s, {int(solver.nodes[0]):,} nodes")
    if args.verify and max(values.values()) < 1:
        print("the first player has no winning first move: no win to verify")
    elif args.verify:
        start = time.perf_counter()
        proof = verify_first_player_win(solver, game, progress=True)
        print(f"verified: the first player wins with {solver.name(proof.first_move)} against every reply; "
              f"{proof.positions:,} positions checked, {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
