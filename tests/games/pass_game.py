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

from boardgame_envs.games.protocol import FIRST, SECOND, IllegalMoveError, check_action
from games.three_by_three import SIZE, BoardGame, BoardState, completes_line, square_symmetries

PASS = SIZE * SIZE  # the one action that is no cell


class PassGame(BoardGame):
    """Tic-tac-toe with a pass; one object serves every state."""

    name = "place_or_pass"
    family = "place_or_pass"
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
        return square_symmetries()

    def symmetries(self) -> Sequence[np.ndarray]:
        """The cells' symmetries, the pass staying the pass."""
        return [np.append(perm, PASS) for perm in self.cell_symmetries()]


class PassState(BoardState):
    """A position of :class:`PassGame`; change it only through :meth:`play` (``last_move`` is -1 after a pass)."""

    def __init__(self, game: PassGame) -> None:
        super().__init__(game)
        self.last_action = -1  # the last action, the pass included
        self.passes = 0  # passes in a row

    def legal_mask(self) -> np.ndarray:
        if self.terminal:
            return np.zeros(self.game.num_actions, dtype=np.bool_)
        return np.append(self.board == 0, True)

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
        if completes_line(self.board, me, action):
            self.winner, self.terminal = me, True
        elif not (self.board == 0).any():
            self.terminal = True

    def search_key(self) -> bytes:
        """The board and the player to move do not tell a pass apart: the count of passes joins them."""
        return self.board.tobytes() + bytes((self.to_move, self.passes))

    def planes(self, viewer: int) -> np.ndarray:
        passed = np.full((SIZE, SIZE), self.passes > 0)
        return np.stack([*self.stone_planes(viewer), passed], axis=-1).astype(np.int8)
