"""A long test game with passes and a ``size`` parameter: "keep apart", on a square board of 4 to 10 cells a side.

The board starts with four stones in its centre, as in othello: black (the first
player) on the centre's top-right and bottom-left cells, white on the other two.
A player lays a stone of theirs on an empty cell that has no opponent's stone
beside it (above, below, left or right; diagonals do not count). A player with
no such cell must pass, and may pass only then; two passes running end the game,
and the player with more stones wins (an equal count is a draw). On 8x8 a game
lasts 40 to 60 plies, passes included.

Cells are named as on a go board, column letter then row number counted from
the bottom (``a1`` bottom left); the action after the cells is ``"pass"``.
Only four of the square's eight symmetries keep the start (the others swap
the colours of the centre), so the game declares those four. Written against
the Game/State protocol alone, it holds the suite to games it had not met: no
numba kernels, games longer than the suite's short loops, a declared
parameter that happens to be named ``size``, and a pass that is forced in some
positions and illegal in others (tests/test_a_new_game.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from boardgame_envs.games.protocol import FIRST, SECOND, IllegalMoveError, check_action, returns_of

SIZES = (4, 6, 8, 10)
LETTERS = "abcdefghij"


def square_symmetries(size: int) -> list[np.ndarray]:
    """The square's 8 symmetries as cell permutations, the identity first: ``perm[c]`` is where cell ``c`` goes."""
    grid = np.arange(size * size).reshape(size, size)
    images = [np.rot90(grid, turns) for turns in range(4)]
    images += [image.T for image in images]
    return [np.argsort(image.reshape(-1)) for image in images]  # the image's cell i holds a: invert it


def start_board(size: int) -> np.ndarray:
    """The start: black on the centre's top-right and bottom-left cells, white on its top-left and bottom-right."""
    board = np.zeros((size, size), dtype=np.int8)
    m = size // 2
    board[m - 1, m], board[m, m - 1] = FIRST, FIRST
    board[m - 1, m - 1], board[m, m] = SECOND, SECOND
    return board.reshape(-1)


class KeepApartGame:
    """Keep apart on a ``size`` x ``size`` board; one object serves every state of that size."""

    family = "keep_apart"
    num_planes = 3  # the viewer's stones, the opponent's, a plane of ones when the last move was a pass
    marks = "stones"

    def __init__(self, size: int = 10, name: str = "keep_apart") -> None:
        if isinstance(size, bool) or size not in SIZES:
            raise ValueError(f"size must be one of {', '.join(map(str, SIZES))}, got {size!r}")
        self.size, self.name = int(size), name
        self.shape = (self.size, self.size)
        self.cells = self.size * self.size
        self.num_actions = self.cells + 1  # the cells, then the pass
        self.pass_action = self.cells

    def new_state(self) -> KeepApartState:
        return KeepApartState(self)

    def describe(self) -> str:
        return f"keep apart, {self.size}x{self.size} (no stone beside an opponent's; two passes end it)"

    def cell_of_action(self, action: int) -> int | None:
        return None if int(action) == self.pass_action else int(action)

    def action_name(self, action: int) -> str:
        reason = check_action(self, action)
        if reason is not None:
            raise ValueError(reason)
        if action == self.pass_action:
            return "pass"
        row, col = divmod(int(action), self.size)
        return f"{LETTERS[col]}{self.size - row}"

    def parse_action(self, text: str) -> int:
        word = str(text).strip().lower()
        if word == "pass":
            return self.pass_action
        letter, digits = word[:1], word[1:]
        if letter and letter in LETTERS[: self.size] and digits.isdigit() and 1 <= int(digits) <= self.size:
            return (self.size - int(digits)) * self.size + LETTERS.index(letter)
        last = f"{LETTERS[self.size - 1]}{self.size}"
        raise ValueError(f"cannot read {str(text).strip()[:40]!r} as a move: write a cell a1..{last}, or pass")

    def player_name(self, player: int) -> str:
        return "black" if player == FIRST else "white"

    def cell_symmetries(self) -> Sequence[np.ndarray]:
        """The square's symmetries that keep the start (the identity, the half turn and the two diagonals)."""
        start = start_board(self.size)
        return [perm for perm in square_symmetries(self.size) if (start[np.argsort(perm)] == start).all()]

    def symmetries(self) -> Sequence[np.ndarray]:
        return [np.append(perm, self.pass_action) for perm in self.cell_symmetries()]

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.size == self.size

    def __hash__(self) -> int:
        return hash((self.name, self.size))


class KeepApartState:
    """A position of :class:`KeepApartGame`; change it only through :meth:`play` (``last_move`` is -1 after a pass)."""

    def __init__(self, game: KeepApartGame) -> None:
        self.game = game
        self.board = start_board(game.size)
        self.to_move, self.winner, self.terminal = FIRST, 0, False
        self.num_moves, self.last_move, self.last_action = 0, -1, -1
        self.passes = 0  # passes running

    def clone(self) -> KeepApartState:
        other = type(self).__new__(type(self))  # a subclass's clone is of the subclass
        other.__dict__.update(self.__dict__)
        other.board = self.board.copy()
        return other

    def open_cells(self, player: int) -> np.ndarray:
        """Where ``player`` may lay a stone: the empty cells with no opponent's stone beside them."""
        n = self.game.size
        theirs = (self.board == FIRST + SECOND - player).reshape(n, n)
        near = np.zeros_like(theirs)
        near[1:, :] |= theirs[:-1, :]
        near[:-1, :] |= theirs[1:, :]
        near[:, 1:] |= theirs[:, :-1]
        near[:, :-1] |= theirs[:, 1:]
        return (self.board == 0) & ~near.reshape(-1)

    def legal_mask(self) -> np.ndarray:
        mask = np.zeros(self.game.num_actions, dtype=np.bool_)
        if not self.terminal:
            mask[: self.game.cells] = self.open_cells(self.to_move)
            mask[self.game.pass_action] = not mask.any()  # the pass: when, and only when, no cell is open
        return mask

    def legal_actions(self) -> np.ndarray:
        return np.flatnonzero(self.legal_mask())

    def illegal_reason(self, action: object) -> str | None:
        reason = check_action(self.game, action)
        if reason is not None:
            return reason
        if self.terminal:
            return "the game is over"
        action = int(action)
        if action == self.game.pass_action:
            return None if not self.open_cells(self.to_move).any() else "pass only when no cell is open to you"
        name = self.game.action_name(action)
        if self.board[action]:
            return f"{name} is taken"
        if not self.open_cells(self.to_move)[action]:
            return f"{name} is beside a stone of {self.game.player_name(FIRST + SECOND - self.to_move)}"
        return None

    def play(self, action: int) -> None:
        reason = self.illegal_reason(action)
        if reason is not None:
            raise IllegalMoveError(reason)
        me, action = self.to_move, int(action)
        self.num_moves += 1
        self.last_action = action
        self.to_move = FIRST + SECOND - me
        if action == self.game.pass_action:
            self.last_move = -1
            self.passes += 1
            if self.passes == 2:
                self.finish()
            return
        self.passes = 0
        self.board[action] = me
        self.last_move = action

    def finish(self) -> None:
        black, white = int((self.board == FIRST).sum()), int((self.board == SECOND).sum())
        self.terminal = True
        self.winner = FIRST if black > white else SECOND if white > black else 0

    def search_key(self) -> bytes:
        """The board and the player to move do not tell a pass apart: the count of passes joins them."""
        return self.board.tobytes() + bytes((self.to_move, self.passes))

    def planes(self, viewer: int) -> np.ndarray:
        n = self.game.size
        own = (self.board == viewer).reshape(n, n)
        other = (self.board == FIRST + SECOND - viewer).reshape(n, n)
        passed = np.full((n, n), self.passes > 0)
        return np.stack([own, other, passed], axis=-1).astype(np.int8)

    def returns(self) -> tuple[float, float]:
        return returns_of(self.winner)
