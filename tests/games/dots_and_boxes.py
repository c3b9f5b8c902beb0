"""A test game whose actions are edges, with extra turns and a score: dots and boxes (2x2 boxes by default).

Two players take turns drawing a line between two neighbouring dots. A player
who completes the fourth side of a box owns it and must draw again (an extra
turn: the same player moves twice or more running); once every line is drawn
the player with more boxes wins, an equal count is a draw. With
``scoring="margin"`` the returns carry the margin instead of +1/-1/0: the box
difference over the number of boxes, for the first player (a zero-sum score in
[-1, 1] whose sign names the winner).

The board is the grid of dots, lines and boxes, ``2 * rows + 1`` by
``2 * columns + 1`` cells, row 0 at the top: a dot sits where the row and the
column are both even, a box where both are odd, a line between. ``board``
holds, flat and rows first, the player who drew each line and the owner of
each box (0: not yet). An action is a line, numbered in reading order of its
cell, and is named by that cell as on the grid: column letter, row number
counted from the top (``"b1"``: the top line of the top-left box).
Written against the Game/State protocol alone (not in the shipped catalog), it
holds the searches, the envs, the conformance kit and the catalog's variants
(a game with sizes) to the protocol; ``scores`` is a list, so a ``clone`` that
shared it would show (the kit's mutation tests build such a clone on purpose).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from boardgame_envs.games.protocol import FIRST, SECOND, IllegalMoveError, check_action, returns_of

SCORINGS = ("win", "margin")


class DotsAndBoxesGame:
    """Dots and boxes on ``rows`` x ``columns`` boxes; one object serves every state of that size."""

    family = "dots_and_boxes"
    num_planes = 3  # the lines drawn, the viewer's boxes, the opponent's boxes

    def __init__(self, rows: int = 2, columns: int = 2, scoring: str = "win", name: str = "dots_and_boxes") -> None:
        for label, value in (("rows", rows), ("columns", columns)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 1 <= value <= 5:
                raise ValueError(f"{label} must be an integer in 1..5, got {value!r}")
        if scoring not in SCORINGS:
            raise ValueError(f"scoring must be one of {', '.join(SCORINGS)}, got {scoring!r}")
        self.rows, self.columns, self.scoring, self.name = int(rows), int(columns), scoring, name
        self.shape = (2 * self.rows + 1, 2 * self.columns + 1)
        height, width = self.shape
        cells = np.arange(height * width)
        row, col = cells // width, cells % width
        self.line_cells = cells[(row + col) % 2 == 1]  # action a is the line on cell line_cells[a]
        self.box_cells = cells[(row % 2 == 1) & (col % 2 == 1)]
        self.num_actions = len(self.line_cells)
        self._action_of = np.full(height * width, -1, dtype=np.int64)
        self._action_of[self.line_cells] = np.arange(self.num_actions)
        # For each line, the boxes beside it (one or two), each with the cells of its other three sides.
        sides = {int(b): [int(b + d) for d in (-width, width, -1, 1)] for b in self.box_cells}
        self.boxes_of_line = [
            [(box, [c for c in cells if c != line]) for box, cells in sides.items() if line in cells]
            for line in map(int, self.line_cells)
        ]  # fmt: skip

    def new_state(self) -> DotsAndBoxesState:
        return DotsAndBoxesState(self)

    def describe(self) -> str:
        margin = ", scored by the margin" if self.scoring == "margin" else ""
        return f"dots and boxes, {self.rows}x{self.columns} boxes{margin}"

    def cell_of_action(self, action: int) -> int:
        return int(self.line_cells[int(action)])

    def action_of_cell(self, cell: int) -> int | None:
        action = int(self._action_of[int(cell)]) if 0 <= int(cell) < self._action_of.size else -1
        return None if action < 0 else action

    def action_name(self, action: int) -> str:
        reason = check_action(self, action)
        if reason is not None:
            raise ValueError(reason)
        row, col = divmod(self.cell_of_action(action), self.shape[1])
        return "abcdefghijk"[col] + str(row + 1)

    def parse_action(self, text: str) -> int:
        word = str(text).strip().lower()
        height, width = self.shape
        if 2 <= len(word) <= 3 and word[0].isalpha() and word[1:].isdigit():
            col, row = ord(word[0]) - ord("a"), int(word[1:]) - 1
            if 0 <= col < width and 0 <= row < height:
                action = self.action_of_cell(row * width + col)
                if action is not None:
                    return action
                raise ValueError(f"{word} is a dot or a box, not a line")
        last = "abcdefghijk"[width - 1] + str(height)
        raise ValueError(f"cannot read {str(text).strip()[:40]!r} as a line: write its cell, a1..{last}")

    def player_name(self, player: int) -> str:
        return "A" if player == FIRST else "B"

    def cell_symmetries(self) -> Sequence[np.ndarray]:
        """The grid's symmetries as cell permutations (8 on a square of boxes, 4 otherwise), the identity first."""
        grid = np.arange(self.shape[0] * self.shape[1]).reshape(self.shape)
        if self.rows == self.columns:
            images = [np.rot90(grid, turns) for turns in range(4)]
            images += [image.T for image in images]
        else:
            images = [grid, grid[::-1], grid[:, ::-1], grid[::-1, ::-1]]
        return [np.argsort(image.reshape(-1)) for image in images]  # the image's cell i holds c: where c goes

    def symmetries(self) -> Sequence[np.ndarray]:
        return [self._action_of[perm[self.line_cells]] for perm in self.cell_symmetries()]

    marks = "crosses"  # drawn as X and O are, on paper: the first player's lines and boxes red, the second's blue

    def draw(self, state: DotsAndBoxesState, canvas: Any) -> None:
        """The drawing hook (docs/render.md): owned boxes shaded in their owner's colour, the lines drawn so far in
        their player's (the last one thicker), then the dots; in board units, a cell of the grid being 1."""
        width = self.shape[1]
        for box in map(int, self.box_cells):
            if state.board[box]:
                r, c = divmod(box, width)
                canvas.fill(c - 0.5, r - 0.5, c + 1.5, r + 1.5, int(state.board[box]))  # from dot to dot
        for cell in map(int, self.line_cells):
            if state.board[cell]:
                r, c = divmod(cell, width)
                dx, dy = (1, 0) if r % 2 == 0 else (0, 1)  # a row of dots holds the horizontal lines
                canvas.line(c + 0.5 - dx, r + 0.5 - dy, c + 0.5 + dx, r + 0.5 + dy, int(state.board[cell]),
                            width=0.2 if cell == state.last_move else 0.12)  # fmt: skip
        for r in range(0, self.shape[0], 2):
            for c in range(0, width, 2):
                canvas.dot(c + 0.5, r + 0.5, radius=0.12)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DotsAndBoxesGame) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple:
        return self.name, self.rows, self.columns, self.scoring


class DotsAndBoxesState:
    """A position of :class:`DotsAndBoxesGame`; change it only through :meth:`play`."""

    def __init__(self, game: DotsAndBoxesGame) -> None:
        self.game = game
        self.board = np.zeros(game.shape[0] * game.shape[1], dtype=np.int8)
        self.scores = [0, 0]  # boxes owned by the first and the second player
        self.to_move = FIRST
        self.winner = 0
        self.terminal = False
        self.num_moves = 0
        self.last_move = -1  # the cell of the last line drawn

    def clone(self) -> DotsAndBoxesState:
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.board, other.scores = self.board.copy(), list(self.scores)
        return other

    def legal_mask(self) -> np.ndarray:
        if self.terminal:
            return np.zeros(self.game.num_actions, dtype=np.bool_)
        return self.board[self.game.line_cells] == 0

    def legal_actions(self) -> np.ndarray:
        return np.flatnonzero(self.legal_mask())

    def illegal_reason(self, action: object) -> str | None:
        reason = check_action(self.game, action)
        if reason is not None:
            return reason
        if self.terminal:
            return "the game is over"
        if self.board[self.game.cell_of_action(int(action))]:
            return f"the line {self.game.action_name(int(action))} is drawn"
        return None

    def play(self, action: int) -> None:
        reason = self.illegal_reason(action)
        if reason is not None:
            raise IllegalMoveError(reason)
        game, me, action = self.game, self.to_move, int(action)
        cell = game.cell_of_action(action)
        self.board[cell] = me
        self.num_moves += 1
        self.last_move = cell
        closed = 0
        for box, others in game.boxes_of_line[action]:
            if all(self.board[c] for c in others):
                self.board[box] = me
                closed += 1
        self.scores[me - 1] += closed
        if self.num_moves == game.num_actions:
            self.terminal = True
            first, second = self.scores
            self.winner = FIRST if first > second else SECOND if second > first else 0
        elif not closed:
            self.to_move = FIRST + SECOND - me  # a box closed: the same player draws again

    def returns(self) -> tuple[float, float]:
        if self.game.scoring == "margin" and self.terminal:
            margin = (self.scores[0] - self.scores[1]) / len(self.game.box_cells)
            return float(margin), float(-margin)
        return returns_of(self.winner)

    def search_key(self) -> bytes:
        """Which lines are drawn (not by whom: that changes nothing ahead), the boxes' owners, who moves."""
        key = (self.board != 0).astype(np.int8)
        key[self.game.box_cells] = self.board[self.game.box_cells]
        return key.tobytes() + bytes((self.to_move,))

    def planes(self, viewer: int) -> np.ndarray:
        lines = np.zeros_like(self.board)
        lines[self.game.line_cells] = self.board[self.game.line_cells] != 0
        boxes = self.board * np.isin(np.arange(self.board.size), self.game.box_cells)
        planes = [lines, boxes == viewer, boxes == FIRST + SECOND - viewer]
        return np.stack(planes, axis=-1).reshape(*self.game.shape, 3).astype(np.int8)
