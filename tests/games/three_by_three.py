"""What the suite's 3x3 test games share: the board, its lines and symmetries, and a state's bookkeeping.

The test games (``misere_game.py``: three in a row loses; ``pass_game.py``: a player
may pass) differ in their rules, their cell names and their planes; the board under
them is the same, so it is written here once. Like the games, this knows the
Game/State protocol alone, never the package's m,n,k kernels, so a bug there cannot
hide in the games that test it. A flat board holds 0 (empty) or the player (1, 2)
at ``row * 3 + column``, row 0 at the top.
"""

from __future__ import annotations

import numpy as np

from boardgame_envs.games.protocol import FIRST, SECOND, cell_of, check_action, returns_of

SIZE = 3
ROWS_AND_COLUMNS = [(r * 3, r * 3 + 1, r * 3 + 2) for r in range(3)] + [(c, c + 3, c + 6) for c in range(3)]
LINES = ROWS_AND_COLUMNS + [(0, 4, 8), (2, 4, 6)]


def square_symmetries() -> list[np.ndarray]:
    """The square's 8 symmetries as cell permutations: ``perm[c]`` is where cell ``c`` goes."""
    grid = np.arange(SIZE * SIZE).reshape(SIZE, SIZE)
    images = [np.rot90(grid, turns) for turns in range(4)]
    images += [image.T for image in images]
    # The image's cell i holds a; argsort inverts that into "where a goes".
    return [np.argsort(image.reshape(-1)) for image in images]


def completes_line(board: np.ndarray, player: int, cell: int) -> bool:
    """Whether ``player``'s stone on ``cell`` stands in a full line of theirs (only lines through it can be new)."""
    return any(all(board[c] == player for c in line) for line in LINES if cell in line)


class BoardGame:
    """The face every 3x3 test game shows alike; a game adds its name, rules, action names and planes."""

    name = "three_by_three"
    shape = (SIZE, SIZE)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self)  # a variant (a subclass) is another game

    def __hash__(self) -> int:
        return hash(self.name)


class BoardState:
    """A 3x3 position's bookkeeping; a game's state adds ``legal_mask``, ``play`` and ``planes``."""

    def __init__(self, game: BoardGame) -> None:
        self.game = game
        self.board = np.zeros(SIZE * SIZE, dtype=np.int8)
        self.to_move = FIRST
        self.winner = 0
        self.terminal = False
        self.num_moves = 0
        self.last_move = -1  # the last stone's cell

    def clone(self) -> BoardState:
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.board = self.board.copy()
        return other

    def legal_actions(self) -> np.ndarray:
        return np.flatnonzero(self.legal_mask())

    def illegal_reason(self, action: object) -> str | None:
        reason = check_action(self.game, action)
        if reason is not None:
            return reason
        if self.terminal:
            return "the game is over"
        cell = cell_of(self.game, int(action))
        if cell is not None and self.board[cell]:
            return f"{self.game.action_name(int(action))} is taken"
        return None

    def stone_planes(self, viewer: int) -> list[np.ndarray]:
        """The viewer's stones and the opponent's, each ``(3, 3)``."""
        own = (self.board == viewer).reshape(SIZE, SIZE)
        other = (self.board == FIRST + SECOND - viewer).reshape(SIZE, SIZE)
        return [own, other]

    def returns(self) -> tuple[float, float]:
        return returns_of(self.winner)
