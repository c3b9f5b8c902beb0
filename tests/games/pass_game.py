"""A test game with an action that is no cell: "place or pass", tic-tac-toe where a player may pass.

Black and white take turns laying a stone on an empty cell of a 3x3 board, or
passing; three of one's stones in a row, column or diagonal win; a full board,
or two passes running, is a draw. Cells are named as on a go board, column
letter then row number counted from the bottom (``a1`` bottom left, ``b2`` the
centre); action 9 is ``"pass"``. Written against the Game/State protocol alone
(not in the catalog), it holds the text board, the terminal, the window, the
pictures and the conformance kit to the protocol's rule for actions that are
not cells (:func:`boardgame_envs.games.protocol.cell_of`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from boardgame_envs.games.protocol import FIRST, SECOND, IllegalMoveError, check_action, returns_of

SIZE = 3
PASS = SIZE * SIZE  # the one action that is no cell
ROWS_AND_COLUMNS = [(r * 3, r * 3 + 1, r * 3 + 2) for r in range(3)] + [(c, c + 3, c + 6) for c in range(3)]
LINES = ROWS_AND_COLUMNS + [(0, 4, 8), (2, 4, 6)]


class PassGame:
    """Tic-tac-toe with a pass; one object serves every state."""

    name = "place_or_pass"
    family = "place_or_pass"
    shape = (SIZE, SIZE)
    num_actions = SIZE * SIZE + 1  # the cells, then the pass
    num_planes = 3  # own stones, the opponent's, a plane of ones if the last move was a pass
    marks = "stones"

    def new_state(self) -> PassState:
        return PassState(self)

    def describe(self) -> str:
        return "place or pass, 3x3 (three in a row wins, two passes draw)"

    def cell_of_action(self, action: int) -> int | None:
        """The cell of a stone; None for the pass."""
        return None if int(action) == PASS else int(action)

    def action_name(self, action: int) -> str:
        reason = check_action(self, action)
        if reason is not None:
            raise ValueError(reason)
        if action == PASS:
            return "pass"
        row, col = divmod(int(action), SIZE)
        return "abc"[col] + str(SIZE - row)

    def parse_action(self, text: str) -> int:
        word = str(text).strip().lower()
        if word == "pass":
            return PASS
        if len(word) == 2 and word[0] in "abc" and word[1] in "123":
            return (SIZE - int(word[1])) * SIZE + "abc".index(word[0])
        raise ValueError(f"cannot read {str(text).strip()[:40]!r} as a move: write a cell a1..c3, or pass")

    def player_name(self, player: int) -> str:
        return "black" if player == FIRST else "white"

    def cell_symmetries(self) -> Sequence[np.ndarray]:
        grid = np.arange(SIZE * SIZE).reshape(SIZE, SIZE)
        images = [grid, np.rot90(grid, 1), np.rot90(grid, 2), np.rot90(grid, 3)]
        images += [g.T for g in images]
        return [np.argsort(g.reshape(-1)) for g in images]  # perm[c] is where cell c goes

    def symmetries(self) -> Sequence[np.ndarray]:
        """The cells' symmetries, the pass staying the pass."""
        return [np.append(perm, PASS) for perm in self.cell_symmetries()]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PassGame)

    def __hash__(self) -> int:
        return hash(self.name)


class PassState:
    """A position of :class:`PassGame`; change it only through :meth:`play`."""

    def __init__(self, game: PassGame) -> None:
        self.game = game
        self.board = np.zeros(SIZE * SIZE, dtype=np.int8)
        self.to_move = FIRST
        self.winner = 0
        self.terminal = False
        self.num_moves = 0
        self.last_move = -1  # the last stone's cell; -1 after a pass
        self.last_action = -1  # the last action, the pass included
        self.passes = 0  # passes in a row

    def clone(self) -> PassState:
        other = PassState.__new__(PassState)
        other.__dict__.update(self.__dict__)
        other.board = self.board.copy()
        return other

    def legal_mask(self) -> np.ndarray:
        if self.terminal:
            return np.zeros(self.game.num_actions, dtype=np.bool_)
        return np.append(self.board == 0, True)

    def legal_actions(self) -> np.ndarray:
        return np.flatnonzero(self.legal_mask())

    def illegal_reason(self, action: object) -> str | None:
        reason = check_action(self.game, action)
        if reason is not None:
            return reason
        if self.terminal:
            return "the game is over"
        if action != PASS and self.board[int(action)]:
            return f"{self.game.action_name(int(action))} is taken"
        return None

    def play(self, action: int) -> None:
        reason = self.illegal_reason(action)
        if reason is not None:
            raise IllegalMoveError(reason)
        me, action = self.to_move, int(action)
        self.num_moves += 1
        self.last_action = action
        self.to_move = FIRST + SECOND - me
        if action == PASS:
            self.last_move = -1
            self.passes += 1
            self.terminal = self.passes == 2
            return
        self.passes = 0
        self.board[action] = me
        self.last_move = action
        if any(all(self.board[c] == me for c in line) for line in LINES if action in line):
            self.winner, self.terminal = me, True
        elif not (self.board == 0).any():
            self.terminal = True

    def search_key(self) -> bytes:
        """The board and the player to move do not tell a pass apart: the count of passes joins them."""
        return self.board.tobytes() + bytes((self.to_move, self.passes))

    def planes(self, viewer: int) -> np.ndarray:
        own = (self.board == viewer).reshape(SIZE, SIZE)
        other = (self.board == FIRST + SECOND - viewer).reshape(SIZE, SIZE)
        passed = np.full((SIZE, SIZE), self.passes > 0)
        return np.stack([own, other, passed], axis=-1).astype(np.int8)

    def returns(self) -> tuple[float, float]:
        return returns_of(self.winner)
