"""Pictures of any game of the protocol: the game's own drawing on a canvas, a status band, and where clicks land.

The m,n,k family has its own pictures (stones on the points of a grid,
coordinates, forbidden points: :mod:`boardgame_envs.render.scene`); every other
game is drawn by the protocol's drawing hook (:func:`~boardgame_envs.games.protocol.draw`)
on a :class:`~boardgame_envs.render.canvas.Canvas`: its own ``draw(state,
canvas)`` (lines, dots and owned boxes), else the cell look, a piece per cell in
the game's ``marks`` (connect four's discs, stones, X and O) with the last one
marked. A last move that was no cell (a pass,
:func:`~boardgame_envs.games.protocol.last_other_action`) is a bar along the
board's bottom edge, so a picture shows that the player passed and keeps its
size. :func:`layout_cells` adds what the options ask for (a status band, a
hint's ring, a faint piece under the mouse); the pixels and the SVG are drawn
from its shapes (:mod:`~boardgame_envs.render.raster`, :mod:`~boardgame_envs.render.svg`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from boardgame_envs.games.mnk import MNKState
from boardgame_envs.games.opening_game import OpeningState
from boardgame_envs.games.protocol import action_at_cell, cell_of, check_action, draw, last_other_action
from boardgame_envs.render.canvas import CELL_COLOURS, CROSS_COLOURS, PALETTES, STONE_COLOURS, Canvas, Item, palette
from boardgame_envs.render.scene import BAND, BAND_TEXT, Options, Rect, Text

DEFAULT_CELL = 48  # pixels a cell, when the options name none


class CellPicture(NamedTuple):
    """A picture's size in pixels, its shapes back to front, and a line saying what it shows."""

    width: int
    height: int
    items: list[Item]
    title: str


def cell_state(source: Any) -> Any:
    """The state of the protocol that ``source`` shows, when it is drawn through the drawing hook: a state, or an
    env (wrapped or raw) holding one; None for the m,n,k family's states and envs and for a
    :class:`~boardgame_envs.render.snapshot.Snapshot`, which have pictures of their own."""
    if hasattr(type(source), "legal_mask"):
        state = source
    else:
        state = getattr(getattr(source, "unwrapped", None), "game_state", None)
    if state is None or isinstance(state, (MNKState, OpeningState)):
        return None
    return state if hasattr(state, "board") and hasattr(getattr(state, "game", None), "shape") else None


def status_text(state: Any) -> str:
    """One line: ``"Move 4 · Red to move"`` (with the last move's name after one that was no cell), or the result."""
    game = state.game
    if state.terminal:
        who = f"{game.player_name(state.winner).capitalize()} wins" if state.winner else "Draw"
        return f"{who} · {state.num_moves} moves"
    text = f"Move {state.num_moves + 1} · {game.player_name(state.to_move).capitalize()} to move"
    other = last_other_action(state)
    return text if other is None else f"{text} · last move: {game.action_name(other)}"


def _check(game: Any, name: str, action: Any) -> int | None:
    if action is None:
        return None
    reason = check_action(game, action)
    if reason is not None:
        raise ValueError(f"{name}={action!r} is no action of {game.describe()}: {reason}")
    return cell_of(game, int(action))


def layout_cells(state: Any, options: Options) -> CellPicture:
    """The shapes of ``state``'s picture with ``options``: the game's drawing (the protocol's hook), a hint's
    green ring, a faint piece of the player to move at ``ghost`` (in the cell look), the status band.

    ``cell`` sets the pixels a cell (default :data:`DEFAULT_CELL`), ``status``
    and ``note`` the band; ``coordinates`` and ``move_numbers`` are the m,n,k
    pictures' and change nothing here.
    """
    game = state.game
    canvas = Canvas(game, options.cell or DEFAULT_CELL)
    draw(state, canvas)
    hint, ghost = _check(game, "hint", options.hint), _check(game, "ghost", options.ghost)
    if ghost is not None and not state.terminal and getattr(game, "draw", None) is None:
        canvas.piece(ghost, state.to_move, alpha=0.5)
    if hint is not None:
        canvas.ring(*canvas.center(hint))
    items, width, height = canvas.items, canvas.width, canvas.height
    status = status_text(state)
    if options.status:
        band = max(22, round(canvas.cell * 0.6))
        text = options.note or status
        # Smaller type for a long line, so that it fits the width (about 0.56 em a character).
        size = min(band * 0.5, 0.92 * width / (0.56 * max(1, len(text))))
        items = [*items, Rect(0, height, width, height + band, BAND), Text(width / 2, height + band / 2, text, size, BAND_TEXT)]
        height += band
    return CellPicture(width, height, items, f"{game.describe()}: {status}")


class CellGeometry:
    """Where things are in a cell picture: the cell under a pixel, the centre of an action."""

    def __init__(self, game: Any, cell: int = DEFAULT_CELL) -> None:
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
        column in connect four, a line in dots and boxes, else the cell itself), or None."""
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


__all__ = ["CELL_COLOURS", "CROSS_COLOURS", "PALETTES", "STONE_COLOURS", "CellGeometry", "CellPicture", "cell_state",
           "layout_cells", "palette", "status_text"]  # fmt: skip
