"""Exact values of small freestyle k-in-a-row games: the package's one solver.

:class:`Solver` answers, for a position of an :class:`~boardgame_envs.games.mnk.MNKGame`
under the freestyle rule (tic-tac-toe, 6x6 four in a row, ...), its value under
perfect play from the point of view of the player to move: +1 win, 0 draw, -1 loss.
It is the yardstick of :class:`~boardgame_envs.policies.PerfectPolicy`, of the tests
and of ``baselines/solve_mnk.py``. The search is a numba alpha-beta over k-windows
(:mod:`boardgame_envs.games.solver_kernels`, where its cuts are argued); a table of
bounds is shared by every call on one solver, so a game's positions get cheaper as
it goes. Tic-tac-toe solves in milliseconds, 6x6 four in a row in minutes.

The tests check it against a plain memoised negamax over the package's own rules
and against the known values of small games.
"""

from __future__ import annotations

from functools import lru_cache
from types import ModuleType

import numpy as np

from boardgame_envs.games.compile_notice import compile_notice
from boardgame_envs.games.lines import DIRECTIONS
from boardgame_envs.games.mnk import MNKGame, MNKState
from boardgame_envs.games.protocol import outcome_for

MAX_CELLS = 64  # the bounds table keeps moves as int8
TT_BITS = 22  # table entries 2**TT_BITS (11 bytes each) on boards of more than 16 cells
COMPILE_S = 8  # measured on the development machine
_kernels: ModuleType | None = None


def solver_kernels() -> ModuleType:
    """The kernel module, imported on first use (compiling once, with a notice, when its cache is cold)."""
    global _kernels
    if _kernels is None:
        with compile_notice("the exact solver", COMPILE_S):
            from boardgame_envs.games import solver_kernels as module

        _kernels = module
    return _kernels


def windows(size: int, k: int) -> np.ndarray:
    """Every line of k cells on a ``size`` x ``size`` board, as cell indices (row * size + col)."""
    out = []
    for r in range(size):
        for c in range(size):
            for dr, dc in DIRECTIONS.tolist():
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= end_r < size and 0 <= end_c < size:
                    out.append([(r + dr * i) * size + (c + dc * i) for i in range(k)])
    return np.array(out, dtype=np.int64).reshape(-1, k)


def cell_windows(win: np.ndarray, cells: int) -> np.ndarray:
    """For each cell, the windows through it, padded with -1."""
    lists = [[w for w in range(len(win)) if cell in win[w]] for cell in range(cells)]
    out = np.full((cells, max(1, max(map(len, lists)))), -1, dtype=np.int64)
    for cell, ws in enumerate(lists):
        out[cell, : len(ws)] = ws
    return out


class Solver:
    """Exact values of positions of one freestyle game, sharing a table of bounds between calls."""

    def __init__(self, game: MNKGame, tt_bits: int | None = None, seed: int = 0) -> None:
        if game.rule != "freestyle":
            raise ValueError(f"the exact solver decides freestyle games (k or more in a row wins), not {game.rule!r}")
        if game.num_actions > MAX_CELLS:
            raise ValueError(f"a {game.size}x{game.size} board is too large to solve exactly (at most {MAX_CELLS} cells)")
        self.game = game
        self.kernels = solver_kernels()
        cells = game.num_actions
        tt_bits = tt_bits or (16 if cells <= 16 else TT_BITS)  # tic-tac-toe needs a few thousand entries
        self.win = windows(game.size, game.win_length)
        self.cwin = cell_windows(self.win, cells)
        self.zob = np.random.default_rng(seed).integers(1, 2**62, size=(2, cells), dtype=np.int64)
        self.tt_key = np.full(1 << tt_bits, -1, dtype=np.int64)
        self.tt_lo = np.zeros(1 << tt_bits, dtype=np.int8)
        self.tt_hi = np.zeros(1 << tt_bits, dtype=np.int8)
        self.tt_move = np.zeros(1 << tt_bits, dtype=np.int8)
        self.nodes = np.zeros(1, dtype=np.int64)

    # ------------------------------------------------------------ positions
    def board_value(self, board: np.ndarray, alpha: int = -1, beta: int = 1) -> int:
        """Value for the side to move of a flat board of 0 (empty), 1 (first player), 2 (second player).

        The side to move follows from the stone counts. With the default window the
        value is exact; with a narrower ``(alpha, beta)`` a value outside it is only
        a bound, as in any fail-soft alpha-beta (a null window asks a yes/no question).
        """
        board = np.asarray(board, dtype=np.int8).reshape(-1).copy()
        if board.shape[0] != self.game.num_actions or not np.isin(board, (0, 1, 2)).all():
            raise ValueError(f"expected {self.game.num_actions} cells of 0, 1 or 2")
        stones = [np.flatnonzero(board == side + 1) for side in (0, 1)]
        if len(stones[0]) - len(stones[1]) not in (0, 1):
            raise ValueError("the first player has 0 or 1 stones more than the second in any position")
        count = np.zeros((2, len(self.win)), dtype=np.int64)
        key = np.zeros(1, dtype=np.int64)
        for side in (0, 1):
            for cell in stones[side]:
                key[0] ^= self.zob[side, cell]
                count[side, self.cwin[cell][self.cwin[cell] >= 0]] += 1
        if (count == self.game.win_length).any():
            raise ValueError("the game is already over in this position")
        moved = len(stones[0]) + len(stones[1])
        return int(self.kernels.negamax(moved % 2, alpha, beta, moved, board, count, self.win, self.cwin,
                                        self.game.win_length, self.zob, key, self.tt_key, self.tt_lo, self.tt_hi,
                                        self.tt_move, self.nodes))  # fmt: skip

    def value(self, state: MNKState) -> int:
        """Value of ``state`` for its player to move (+1, 0, -1); a finished game's, by its returns, for the
        player who did not make the last move."""
        self._check(state)
        if state.terminal:
            return int(outcome_for(state, 3 - int(state.board[state.last_move])))
        return self.board_value(state.board)

    def action_values(self, state: MNKState) -> np.ndarray:
        """Value of each legal action for the player to move; ``nan`` where illegal."""
        self._check(state)
        values = np.full(self.game.num_actions, np.nan)
        for action in state.legal_actions():
            child = state.clone()
            child.play(int(action))
            values[action] = -self.value(child)
        return values

    def optimal_actions(self, state: MNKState) -> np.ndarray:
        """The legal actions that keep the game-theoretic value."""
        values = self.action_values(state)
        return np.flatnonzero(values == np.nanmax(values))

    def wins_by_force(self, state: MNKState) -> bool:
        """Whether the player who has just moved into ``state`` has won, or wins by force."""
        if state.terminal:
            return outcome_for(state, int(state.board[state.last_move])) > 0
        return self.board_value(state.board, -1, 0) <= -1

    def winning_move(self, state: MNKState) -> int | None:
        """A move that wins for the side to move, centre first and immediate wins before forced ones; else None."""
        size = state.game.size
        centre = (size - 1) / 2

        def from_centre(action: int) -> float:
            return abs(action // size - centre) + abs(action % size - centre)

        children = []
        for action in sorted(state.legal_actions().tolist(), key=from_centre):
            child = state.clone()
            child.play(action)
            if child.terminal and outcome_for(child, state.to_move) > 0:
                return action
            children.append((action, child))
        # A null window asks only "does the opponent lose?": cheaper than an exact value.
        return next((action for action, child in children if self.wins_by_force(child)), None)

    # ------------------------------------------------------------ games from move lists
    def moves_value(self, moves: list[int], alpha: int = -1, beta: int = 1) -> int:
        """:meth:`board_value` of the position after ``moves`` (alternating, first player first)."""
        board = np.zeros(self.game.num_actions, dtype=np.int8)
        for ply, cell in enumerate(moves):
            if board[cell]:
                raise ValueError(f"cell {cell} is played twice in {moves}")
            board[cell] = ply % 2 + 1
        return self.board_value(board, alpha, beta)

    def first_player_value(self, moves: list[int]) -> int:
        """+1, 0 or -1 for the first player after ``moves``, by two null-window searches."""
        sign = 1 if len(moves) % 2 == 0 else -1
        # Does the first player win? For the side to move that is "value >= 1" or "value <= -1".
        if sign * self.moves_value(moves, *((0, 1) if sign > 0 else (-1, 0))) >= 1:
            return 1
        return 0 if sign * self.moves_value(moves, *((-1, 0) if sign > 0 else (0, 1))) >= 0 else -1

    def distinct_first_moves(self) -> list[int]:
        """One cell from each orbit of the board's 8 symmetries."""
        n = self.game.size
        grid = np.arange(n * n).reshape(n, n)
        images = [grid, grid[::-1], grid[:, ::-1], grid[::-1, ::-1]]
        images += [g.T for g in images]
        seen, out = set(), []
        for cell in range(n * n):
            if cell not in seen:
                out.append(cell)
                seen.update(int(np.flatnonzero(g == cell)[0]) for g in images)
        return out

    def _check(self, state: MNKState) -> None:
        if state.game != self.game:
            raise ValueError(f"this solver is for {self.game}, not {state.game}")


@lru_cache(maxsize=4)
def solver_for(game: MNKGame) -> Solver:
    """A shared solver per game, so its table is built once per process."""
    return Solver(game)
