"""Pictures of games played on cells (connect four): a disc per cell, the last one ringed.

The m,n,k family has its own pictures (stones on the points of a grid,
:mod:`boardgame_envs.render.scene`); this one draws any state of the
Game/State protocol from its ``board``, ``game.shape`` and ``last_move``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

# The picture of a cell game: the frame, an empty cell, the first player's piece, the second's, the last piece's ring.
CELL_COLOURS = np.array([(28, 78, 196), (245, 245, 245), (214, 40, 40), (240, 200, 30), (20, 20, 20)], dtype=np.uint8)


def render_cells(state: Any, cell: int = 48) -> np.ndarray:
    """Any protocol state as a ``(rows * cell, columns * cell, 3)`` uint8 picture: a disc a cell, the last ringed."""
    rows, cols = state.game.shape
    y, x = np.mgrid[0:cell, 0:cell] + 0.5
    r = np.hypot(y - cell / 2, x - cell / 2)
    disc, ring = r < cell * 0.4, (r >= cell * 0.4) & (r < cell * 0.46)
    image = np.empty((rows * cell, cols * cell, 3), dtype=np.uint8)
    image[...] = CELL_COLOURS[0]
    for i, value in enumerate(state.board):
        tile = image[(i // cols) * cell:(i // cols + 1) * cell, (i % cols) * cell:(i % cols + 1) * cell]
        tile[disc] = CELL_COLOURS[1 + int(value)]
        if i == state.last_move:
            tile[ring] = CELL_COLOURS[4]
    return image


class CellGeometry:
    """Where things are in :func:`render_cells`' picture: the cell under a pixel, the centre of an action."""

    def __init__(self, game: Any, cell: int = 48) -> None:
        self.game = game
        self.rows, self.cols = game.shape
        self.cell = cell
        self.width, self.height = self.cols * cell, self.rows * cell

    def cell_at(self, x: float, y: float) -> int | None:
        """The flat cell under pixel ``(x, y)``, or None off the board."""
        if not (0 <= x < self.width and 0 <= y < self.height):
            return None
        return int(y // self.cell) * self.cols + int(x // self.cell)

    def action_at(self, x: float, y: float) -> int | None:
        """The action a click at ``(x, y)`` means: the game's ``action_of_cell`` (a column), else the cell itself."""
        cell = self.cell_at(x, y)
        if cell is None:
            return None
        to_action = getattr(self.game, "action_of_cell", None)
        return to_action(cell) if to_action is not None else cell

    def center(self, action: int) -> tuple[float, float]:
        """A pixel that means ``action``: the centre of its cell (of its column's top cell, for a column)."""
        to_cell = getattr(self.game, "cell_of_action", None)
        cell = to_cell(action) if to_cell is not None else action
        return (cell % self.cols + 0.5) * self.cell, (cell // self.cols + 0.5) * self.cell
