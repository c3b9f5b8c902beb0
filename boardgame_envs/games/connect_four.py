"""Connect four: 6 rows, 7 columns, gravity, four in a row; a game of the Game/State protocol.

The rules (as in PettingZoo's ``connect_four_v3`` and the classic game): the
first player (red) and the second (yellow) take turns dropping a piece into one
of the 7 columns that is not full; it falls to the lowest empty cell. Four of a
player's pieces in a row, column or diagonal win; a full board is a draw.

Action ``c`` (0..6) is the column ``"abcdefg"[c]``, counted from the left.
Cells are kept as a flat ``int8`` board of ``6 * 7`` with row 0 at the top, so
the observation planes line up with PettingZoo's (row 5 is the bottom).
Invariant: ``board``, ``heights``, ``to_move``, ``winner`` and ``terminal``
always describe a position reachable by legal play, because :meth:`play`
validates before it mutates.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from boardgame_envs.games.kernel_cache import cached_kernel
from boardgame_envs.games.protocol import FIRST, SECOND, EnvNamesExplained, IllegalMoveError, check_action, returns_of

ROWS, COLUMNS, WIN_LENGTH = 6, 7, 4
COLUMN_NAMES = "abcdefg"


@cached_kernel()
def wins_at(board, cell, rows, cols, k):
    """Whether the piece at flat ``cell`` makes ``k`` in a row with its owner's pieces."""
    color = board[cell]
    r0, c0 = cell // cols, cell % cols
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        count = 1
        r, c = r0 + dr, c0 + dc
        while 0 <= r < rows and 0 <= c < cols and board[r * cols + c] == color:
            count += 1
            r += dr
            c += dc
        r, c = r0 - dr, c0 - dc
        while 0 <= r < rows and 0 <= c < cols and board[r * cols + c] == color:
            count += 1
            r -= dr
            c -= dc
        if count >= k:
            return True
    return False


@cached_kernel()
def drop(board, heights, column, color, rows, cols):
    """Drop ``color``'s piece into ``column`` (not full); return the flat cell it lands on."""
    cell = (rows - 1 - heights[column]) * cols + column
    board[cell] = color
    heights[column] += 1
    return cell


@cached_kernel()
def random_playout(board, heights, to_move, num_moves, rows, cols, k, seed):
    """Play uniformly random moves from a live position to the end, in place; return the winner (0: draw).

    ``seed`` seeds numba's generator for the playout, so a searcher's own
    generator decides every playout.
    """
    np.random.seed(seed)
    free = np.empty(cols, dtype=np.int64)
    color = to_move
    while num_moves < rows * cols:
        n = 0
        for c in range(cols):
            if heights[c] < rows:
                free[n] = c
                n += 1
        column = free[np.random.randint(n)]
        cell = drop(board, heights, column, color, rows, cols)
        num_moves += 1
        if wins_at(board, cell, rows, cols, k):
            return color
        color = 3 - color
    return 0


WINDOW_WEIGHTS = np.array([0, 1, 4, 16, 0], dtype=np.int64)  # a window holding 0..4 pieces of one player only


@cached_kernel()
def window_score(board, color, rows, cols, k):
    """Sum over the lines of ``k`` cells of ``WINDOW_WEIGHTS[pieces]``, for ``color``'s windows minus the other's.

    A window with pieces of both players counts for nobody: it can no longer
    become a line. The classic hand-made evaluation of connect four.
    """
    total = 0
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                er, ec = r + (k - 1) * dr, c + (k - 1) * dc
                if not (0 <= er < rows and 0 <= ec < cols):
                    continue
                mine = theirs = 0
                for i in range(k):
                    v = board[(r + i * dr) * cols + c + i * dc]
                    if v == color:
                        mine += 1
                    elif v != 0:
                        theirs += 1
                if theirs == 0:
                    total += WINDOW_WEIGHTS[mine]
                elif mine == 0:
                    total -= WINDOW_WEIGHTS[theirs]
    return total


class ConnectFourGame:
    """Connect four on the standard 6x7 board; one object serves every state."""

    name = "connect_four"
    family = "connect_four"
    rows, columns, win_length = ROWS, COLUMNS, WIN_LENGTH
    shape = (ROWS, COLUMNS)
    num_actions = COLUMNS
    num_planes = 2  # own pieces, opponent's (PettingZoo's connect_four_v3 layout)
    marks = "discs"

    def new_state(self) -> ConnectFourState:
        """The empty board, the first player to move."""
        return ConnectFourState(self)

    def describe(self) -> str:
        return "connect four, 6x7"

    def action_name(self, action: int) -> str:
        reason = check_action(self, action)
        if reason is not None:
            raise ValueError(reason)
        return COLUMN_NAMES[int(action)]

    def parse_action(self, text: str) -> int:
        """A column as a letter ``a``..``g`` (as :meth:`action_name` writes it) or its number 0..6."""
        word = str(text).strip().lower()
        if len(word) == 1 and word in COLUMN_NAMES:
            return COLUMN_NAMES.index(word)
        if word.isdigit() and len(word) == 1 and int(word) < COLUMNS:
            return int(word)
        raise ValueError(f"cannot read {str(text).strip()[:40]!r} as a column: write a..g (or 0..6)")

    def player_name(self, player: int) -> str:
        return "red" if player == FIRST else "yellow"

    def action_of_cell(self, cell: int) -> int:
        """The action that a click on ``cell`` means: its column."""
        return int(cell) % COLUMNS

    def cell_of_action(self, action: int) -> int:
        """A cell that stands for ``action``: the top of its column."""
        return int(action)

    def kernels(self) -> str:
        """The batched kernels (the protocol's optional hook), named as ``"module:attribute"``: bitboards
        stepped in numba (:class:`~boardgame_envs.games.connect_four_kernels.ConnectFourBatch`), which
        ``boardgame_envs.vector.make("connect_four", ...)`` drives. A name, not an import: that module
        builds on this one."""
        return "boardgame_envs.games.connect_four_kernels:ConnectFourBatch"

    def symmetries(self) -> Sequence[np.ndarray]:
        """The identity and the left-right mirror, as column permutations."""
        return [np.arange(COLUMNS), np.arange(COLUMNS)[::-1].copy()]

    def cell_symmetries(self) -> Sequence[np.ndarray]:
        """The same two symmetries as permutations of the ``6 * 7`` cells (how the planes move)."""
        cells = np.arange(ROWS * COLUMNS).reshape(ROWS, COLUMNS)
        return [cells.reshape(-1), cells[:, ::-1].reshape(-1).copy()]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ConnectFourGame)

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return "ConnectFourGame()"


class ConnectFourState(EnvNamesExplained):
    """A connect-four position; mutate only through :meth:`play`."""

    __slots__ = ("game", "board", "heights", "to_move", "num_moves", "last_move", "winner", "terminal", "_planes")

    def __init__(self, game: ConnectFourGame) -> None:
        self.game = game
        self.board = np.zeros(ROWS * COLUMNS, dtype=np.int8)
        self.heights = np.zeros(COLUMNS, dtype=np.int64)  # pieces in each column
        self.to_move = FIRST
        self.num_moves = 0
        self.last_move = -1  # the flat cell of the last piece
        self.winner = 0
        self.terminal = False
        # The observation planes as the first player sees them, kept up to date move by move.
        self._planes = np.zeros((ROWS, COLUMNS, 2), dtype=np.int8)

    @classmethod
    def from_position(cls, game: ConnectFourGame, board: np.ndarray, to_move: int, last_move: int = -1) -> ConnectFourState:
        """The position of ``board`` (flat, row 0 at the top; copied), ``to_move`` to move, ``last_move`` its last cell.

        For code that keeps bare boards (the batched engine). The caller vouches
        that the position is reachable by legal play; whether it is over is read
        from it (a line of four through ``last_move``, or a full board).
        """
        state = cls(game)
        state.board[:] = board
        cells = state.board.reshape(ROWS, COLUMNS)
        state.heights[:] = np.count_nonzero(cells, axis=0)
        state._planes[:, :, 0] = cells == FIRST
        state._planes[:, :, 1] = cells == SECOND
        state.to_move = int(to_move)
        state.num_moves = int(state.heights.sum())
        state.last_move = int(last_move)
        if last_move >= 0 and wins_at(state.board, last_move, ROWS, COLUMNS, WIN_LENGTH):
            state.winner = int(state.board[last_move])
        state.terminal = state.winner != 0 or state.num_moves == ROWS * COLUMNS
        return state

    def clone(self) -> ConnectFourState:
        other = ConnectFourState.__new__(ConnectFourState)
        other.game = self.game
        other.board = self.board.copy()
        other.heights = self.heights.copy()
        other.to_move = self.to_move
        other.num_moves = self.num_moves
        other.last_move = self.last_move
        other.winner = self.winner
        other.terminal = self.terminal
        other._planes = self._planes.copy()
        return other

    def legal_mask(self) -> np.ndarray:
        if self.terminal:
            return np.zeros(COLUMNS, dtype=np.bool_)
        return self.heights < ROWS

    def legal_actions(self) -> np.ndarray:
        return np.flatnonzero(self.legal_mask())

    def illegal_reason(self, action: object) -> str | None:
        if type(action) is int and 0 <= action < COLUMNS and not self.terminal and self.heights[action] < ROWS:
            return None
        reason = check_action(self.game, action)
        if reason is not None:
            return reason
        name = COLUMN_NAMES[int(action)]
        if self.terminal:
            return f"column {name} cannot be played: the game is over"
        if self.heights[action] >= ROWS:
            return f"column {name} is full"
        return None

    def play(self, action: int) -> None:
        """Drop the mover's piece into column ``action``; raise :class:`IllegalMoveError` if illegal."""
        reason = self.illegal_reason(action)
        if reason is not None:
            raise IllegalMoveError(reason)
        self._place(int(action))

    def _place(self, column: int) -> None:
        """:meth:`play` without validation, for callers that already know it is legal."""
        color = self.to_move
        height = int(self.heights[column])  # drop()'s work, without a kernel call's cost per move
        row = ROWS - 1 - height
        cell = row * COLUMNS + column
        self.board[cell] = color
        self.heights[column] = height + 1
        self._planes[row, column, color - 1] = 1
        self.num_moves += 1
        self.last_move = cell
        self.to_move = FIRST + SECOND - color
        if self.num_moves >= 2 * WIN_LENGTH - 1 and wins_at(self.board, cell, ROWS, COLUMNS, WIN_LENGTH):
            self.winner = color
            self.terminal = True
        elif self.num_moves == ROWS * COLUMNS:
            self.terminal = True

    def rollout(self, seed: int) -> int:
        """The winner (0: a draw) of a uniformly random playout from here, seeded by ``seed``; leaves the state."""
        if self.terminal:
            return self.winner
        return int(random_playout(self.board.copy(), self.heights.copy(), self.to_move, self.num_moves,
                                  ROWS, COLUMNS, WIN_LENGTH, seed))  # fmt: skip

    def evaluate(self) -> float:
        """A heuristic value in (-1, 1) for the player to move: open windows of four, weighted by their pieces."""
        return float(np.tanh(window_score(self.board, self.to_move, ROWS, COLUMNS, WIN_LENGTH) / 40.0))

    def planes(self, viewer: int) -> np.ndarray:
        """``(6, 7, 2)`` int8: ``viewer``'s pieces, then the opponent's (row 0 at the top)."""
        return self._planes.copy() if viewer == FIRST else self._planes[:, :, ::-1].copy()

    def returns(self) -> tuple[float, float]:
        return returns_of(self.winner)

    def __repr__(self) -> str:
        status = "over" if self.terminal else f"{self.game.player_name(self.to_move)} to move"
        return f"<ConnectFourState {self.num_moves} moves, {status}>"
