"""A test game in which the player who ends the game loses: "avoid three", misère tic-tac-toe.

Two players take turns placing a stone on an empty cell of a 3x3 board; the
player who completes three of their own stones in a row, column or diagonal
LOSES; a full board without such a line is a draw. It is written against the
Game/State protocol alone (not in the catalog), so that the tests can hold
every search, env and tool to scoring an end by ``returns()`` rather than as a
win for whoever moved last. Cells are actions, named ``a1`` (top left) to
``c3``, row 1 at the top.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from boardgame_envs.games.protocol import FIRST, SECOND, IllegalMoveError, check_action
from games.three_by_three import SIZE, BoardGame, BoardState, completes_line, square_symmetries


class AvoidThreeGame(BoardGame):
    """Misère tic-tac-toe; one object serves every state."""

    name = "avoid_three"
    family = "avoid_three"
    num_actions = SIZE * SIZE
    num_planes = 2  # own stones, the opponent's

    def new_state(self) -> AvoidThreeState:
        return AvoidThreeState(self)

    def describe(self) -> str:
        return "avoid three, 3x3 (three in a row loses)"

    def action_name(self, action: int) -> str:
        reason = check_action(self, action)
        if reason is not None:
            raise ValueError(reason)
        return "abc"[int(action) % SIZE] + str(int(action) // SIZE + 1)

    def parse_action(self, text: str) -> int:
        word = str(text).strip().lower()
        if len(word) == 2 and word[0] in "abc" and word[1] in "123":
            return (int(word[1]) - 1) * SIZE + "abc".index(word[0])
        raise ValueError(f"cannot read {str(text).strip()[:40]!r} as a cell: write a1..c3")

    def player_name(self, player: int) -> str:
        return "X" if player == FIRST else "O"

    def symmetries(self) -> Sequence[np.ndarray]:
        return square_symmetries()  # every action is a cell


class AvoidThreeState(BoardState):
    """A position of :class:`AvoidThreeGame`; change it only through :meth:`play`."""

    def legal_mask(self) -> np.ndarray:
        if self.terminal:
            return np.zeros(self.game.num_actions, dtype=np.bool_)
        return self.board == 0

    def play(self, action: int) -> None:
        reason = self.illegal_reason(action)
        if reason is not None:
            raise IllegalMoveError(reason)
        me = self.to_move
        self.board[int(action)] = me
        self.num_moves += 1
        self.last_move = int(action)
        self.to_move = FIRST + SECOND - me
        if completes_line(self.board, me, int(action)):
            self.winner, self.terminal = FIRST + SECOND - me, True  # the one who made three loses
        elif self.num_moves == self.game.num_actions:
            self.terminal = True

    def planes(self, viewer: int) -> np.ndarray:
        return np.stack(self.stone_planes(viewer), axis=-1).astype(np.int8)


class TwoStonesGame(AvoidThreeGame):
    """Avoid three under Connect6's turn order: X lays one stone, then each player two in a row.

    Turns do not alternate: the same player moves twice running, so a search
    that negates at every ply, or reads the last mover as the winner, is wrong.
    """

    name = "avoid_three_two_stones"

    def new_state(self) -> TwoStonesState:
        return TwoStonesState(self)

    def describe(self) -> str:
        return "avoid three, 3x3, two stones a turn after the first"


class TwoStonesState(AvoidThreeState):
    def play(self, action: int) -> None:
        mover = self.to_move
        super().play(action)  # validates, lays the stone, ends the game or passes the turn
        if not self.terminal and self.num_moves % 2 == 0:  # moves 1-2, 3-4, ...: the second stone is still due
            self.to_move = mover


class NumberedAvoidThree(AvoidThreeGame):
    """Avoid three with its cells named 1..9 (as on a phone's keys): names with no column and row in them, so
    the text board and the pictures have no coordinates for it."""

    def action_name(self, action: int) -> str:
        super().action_name(action)  # the range check
        return str(int(action) + 1)

    def parse_action(self, text: str) -> int:
        word = str(text).strip()
        if word.isdigit() and 1 <= int(word) <= 9:
            return int(word) - 1
        raise ValueError(f"cannot read {word[:40]!r} as a cell: write 1..9")
