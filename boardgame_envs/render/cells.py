"""Pictures of games played on cells (connect four): a disc per cell, the last one ringed.

The m,n,k family has its own pictures (stones on the points of a grid,
:mod:`boardgame_envs.render.scene`); this one draws any state of the
Game/State protocol from its ``board``, ``game.shape`` and ``last_move``, in
the colours of the game's ``marks`` (:data:`PALETTES`: connect four's red and
yellow discs in a blue frame for ``"discs"``, black and white stones on wood
for ``"stones"`` and any game that names none). A last move that was no cell
(a pass, :func:`~boardgame_envs.games.protocol.last_other_action`) is drawn as
a bar in the last move's colour along the picture's bottom edge, so a picture
shows that the player passed; the picture keeps its size either way.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardgame_envs.games.protocol import action_at_cell, cell_of, last_other_action

# A cell game's colours: the frame, an empty cell, the first player's piece, the second's, the last move's mark.
CELL_COLOURS = np.array([(28, 78, 196), (245, 245, 245), (214, 40, 40), (240, 200, 30), (20, 20, 20)], dtype=np.uint8)
STONE_COLOURS = np.array([(220, 179, 92), (196, 152, 70), (22, 22, 22), (246, 246, 240), (214, 38, 38)], dtype=np.uint8)
PALETTES = {"discs": CELL_COLOURS, "stones": STONE_COLOURS}  # by the game's ``marks``; "stones" when it names none


def palette(game: Any) -> np.ndarray:
    """The colours ``game`` is drawn in, by its ``marks`` (the rows as in :data:`CELL_COLOURS`)."""
    marks = getattr(game, "marks", None)
    return PALETTES.get(marks if isinstance(marks, str) else "stones", STONE_COLOURS)


def render_cells(state: Any, cell: int = 48) -> np.ndarray:
    """Any protocol state as a ``(rows * cell, columns * cell, 3)`` uint8 picture: a disc a cell, the last ringed,
    a pass shown as a bar along the bottom edge."""
    rows, cols = state.game.shape
    colours = palette(state.game)
    y, x = np.mgrid[0:cell, 0:cell] + 0.5
    r = np.hypot(y - cell / 2, x - cell / 2)
    disc, ring = r < cell * 0.4, (r >= cell * 0.4) & (r < cell * 0.46)
    image = np.empty((rows * cell, cols * cell, 3), dtype=np.uint8)
    image[...] = colours[0]
    for i, value in enumerate(state.board):
        tile = image[(i // cols) * cell:(i // cols + 1) * cell, (i % cols) * cell:(i % cols + 1) * cell]
        tile[disc] = colours[1 + int(value)]
        if i == state.last_move:
            tile[ring] = colours[4]
    if last_other_action(state) is not None:
        image[-max(2, cell // 12):] = colours[4]
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
        """The action a click at ``(x, y)`` means (:func:`~boardgame_envs.games.protocol.action_at_cell`: a
        column in connect four, else the cell itself), or None."""
        cell = self.cell_at(x, y)
        return None if cell is None else action_at_cell(self.game, cell)

    def center(self, action: int) -> tuple[float, float]:
        """A pixel that means ``action``: the centre of its cell (of its column's top cell, for a column).

        An action that is no cell (a pass) has no place on the board: ValueError (the window gives it a button).
        """
        cell = cell_of(self.game, action)
        if cell is None:
            raise ValueError(f"{self.game.action_name(action)} is no cell of the board: it has no place in the picture")
        return (cell % self.cols + 0.5) * self.cell, (cell // self.cols + 0.5) * self.cell
