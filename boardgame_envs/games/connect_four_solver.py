"""Exact values of connect-four positions: win, draw or loss for the player to move, and how soon.

:class:`ConnectFourSolver` puts the parts together: the position on bitboards
(:mod:`connect_four_bitboard`), the search (:mod:`connect_four_search`, where the
score convention is defined), the move order (:mod:`connect_four_sorter`) and the
transposition table (:mod:`connect_four_table`), which one solver keeps between
calls, so the positions of one game get cheaper as it goes. A score is for the
player to move: positive a win, 0 a draw, negative a loss; :func:`moves_to_end`
turns it into "wins (or loses) with its k-th next piece".

Every call has a node budget (``node_limit``, nodes searched in that call): past
it the call raises :class:`SolverBudgetError` and answers nothing, so no caller
waits forever and none is handed a guess. Positions are read as the published
test sets write them, a string of columns ``1..7`` from the empty board
(:func:`state_of_moves`), or taken as a :class:`ConnectFourState`.
"""

from __future__ import annotations

import numpy as np

from boardgame_envs.games.compile_notice import compile_notice
from boardgame_envs.games.connect_four import COLUMNS, ConnectFourGame, ConnectFourState
from boardgame_envs.games.connect_four_bitboard import CELLS, position_of_state
from boardgame_envs.games.connect_four_table import DEFAULT_SLOTS, TranspositionTable
from boardgame_envs.games.protocol import IllegalMoveError

COMPILE_S = 6  # measured on the development machine
DEFAULT_NODE_LIMIT = 2_000_000_000  # about half an hour on the development machine: a cap, not a budget
MAX_SCORE = (CELLS + 1) // 2  # a win with the first piece of the game would score 21


class SolverBudgetError(RuntimeError):
    """A solve needed more nodes than its budget allowed; nothing was answered."""


_search = None


def search_kernels():
    """The search module, imported on first use (compiling once, with a notice, when its cache is cold)."""
    global _search
    if _search is None:
        with compile_notice("the connect-four solver", COMPILE_S):
            from boardgame_envs.games import connect_four_search as module

        _search = module
    return _search


def state_of_moves(moves: str) -> ConnectFourState:
    """The position after ``moves``, columns ``1..7`` (1 the leftmost) from the empty board, the first player first.

    Raises ``ValueError`` naming the first bad move: a character that is no
    column, a full column, or a move after the game has ended.
    """
    text = str(moves).strip()
    state = ConnectFourGame().new_state()
    for i, ch in enumerate(text):
        if ch not in "1234567":
            raise ValueError(f"move {i + 1} of {text[:60]!r} is {ch!r}: write columns as digits 1..7")
        try:
            state.play(int(ch) - 1)
        except IllegalMoveError as exc:
            raise ValueError(f"move {i + 1} ({ch}) of {text[:60]!r}: {exc}") from None
    return state


def moves_to_end(score: int, num_moves: int) -> int:
    """With ``score`` for the player to move after ``num_moves`` moves (not 0): the number of pieces the winner
    still plays, its last one making four; for a loss, the opponent's pieces to its win."""
    if score == 0:
        raise ValueError("a draw has no winner")
    on_board = num_moves // 2 if score > 0 else (num_moves + 1) // 2  # the winner's pieces now
    return MAX_SCORE + 1 - abs(score) - on_board


def describe(score: int, num_moves: int) -> str:
    """The score in words: ``"win with the 3rd piece"`` style text for the player to move."""
    if score == 0:
        return "draw"
    k = moves_to_end(score, num_moves)
    return f"{'win' if score > 0 else 'loss'} in {k} move{'s' if k > 1 else ''}"


class ConnectFourSolver:
    """Exact scores of connect-four positions, sharing a transposition table between calls.

    ``node_limit``: the nodes one call may search before it gives up with
    :class:`SolverBudgetError`. ``table_slots``: the table's size (10 bytes a slot).
    """

    def __init__(self, node_limit: int = DEFAULT_NODE_LIMIT, table_slots: int = DEFAULT_SLOTS) -> None:
        if node_limit < 1:
            raise ValueError(f"node_limit must be at least 1, not {node_limit}")
        self.node_limit = int(node_limit)
        self.kernels = search_kernels()
        self.table = TranspositionTable(table_slots)
        self.order = np.zeros((CELLS + 1, COLUMNS), dtype=np.uint64)
        self.stats = np.zeros(3, dtype=np.int64)
        self.nodes = 0  # nodes searched by the last call

    def _position(self, position: ConnectFourState | str) -> ConnectFourState:
        state = state_of_moves(position) if isinstance(position, str) else position
        if not isinstance(state, ConnectFourState):
            raise ValueError(f"expected a connect-four position or a string of columns 1..7, not {type(position).__name__}")
        if state.terminal:
            raise ValueError("the game is over in this position: there is nothing to solve")
        return state

    def _begin(self) -> None:
        self.stats[:] = (0, self.node_limit, 0)

    def _solve(self, state: ConnectFourState, lo: int, hi: int) -> int:
        current, mask, moves = position_of_state(state)
        value = self.kernels.solve(np.uint64(current), np.uint64(mask), moves, lo, hi, *self.table.arrays(),
                                   self.order, self.stats)  # fmt: skip
        self.nodes = int(self.stats[0])
        if self.stats[2]:
            raise SolverBudgetError(f"no answer within {self.node_limit:,} nodes after {state.num_moves} moves")
        return int(value)

    def score(self, position: ConnectFourState | str, lo: int = -MAX_SCORE, hi: int = MAX_SCORE) -> int:
        """The exact score of a live position for its player to move (the convention of :mod:`connect_four_search`),
        clamped to ``lo .. hi``: a narrower window asks less (``lo`` means "``lo`` or below") and costs less."""
        state = self._position(position)
        if lo > hi:
            raise ValueError(f"the window {lo}..{hi} is empty")
        self._begin()
        return self._solve(state, int(lo), int(hi))

    def outcome(self, position: ConnectFourState | str) -> int:
        """+1, 0 or -1: whether the player to move wins, draws or loses; cheaper than the exact score."""
        state = self._position(position)
        self._begin()
        return self._solve(state, -1, 1)

    def move_scores(self, position: ConnectFourState | str, exact: bool = True) -> dict[int, int]:
        """The score, for the player to move, of each legal column (0..6) played now; signs only (+1, 0, -1)
        with ``exact=False``. One budget covers every column."""
        state = self._position(position)
        self._begin()
        out = {}
        for column in map(int, state.legal_actions()):
            child = state.clone()
            child.play(column)
            if child.terminal:  # a win with this piece, or the board's last cell
                value = (CELLS + 1 - state.num_moves) // 2 if child.winner else 0
            else:
                value = -self._solve(child, -MAX_SCORE, MAX_SCORE) if exact else -self._solve(child, -1, 1)
            out[column] = int(np.sign(value)) if not exact else value
            self.stats[2] = 0
        self.nodes = int(self.stats[0])
        return out

    def clear(self) -> None:
        """Forget what the table knows (for measuring a solve's cost from cold)."""
        self.table.clear()


_shared: ConnectFourSolver | None = None
SHARED_SLOTS = 1 << 22  # the shared solver's table: about 4.2M slots, 42 MB


def shared_solver() -> ConnectFourSolver:
    """One solver per process for players that solve move after move (its table carries over between moves);
    callers set its ``node_limit`` before each call."""
    global _shared
    if _shared is None:
        _shared = ConnectFourSolver(table_slots=SHARED_SLOTS)
    return _shared
