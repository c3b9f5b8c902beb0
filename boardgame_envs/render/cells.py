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
hint's ring, a faint piece under the mouse, the game's coordinates along the
edges, the move numbers on the pieces); the pixels and the SVG are drawn
from its shapes (:mod:`~boardgame_envs.render.raster`, :mod:`~boardgame_envs.render.svg`).

Coordinates are the labels the game's action names give its columns and rows
(:func:`~boardgame_envs.games.board_labels.coordinates`, the text board's
reading), in a margin round the board; a move number goes on the cell where
that move left its piece (the state's ``last_move`` after it: connect four's
disc in the lowest free cell of its column), found by replaying the moves. A
game whose names give no coordinates, or that draws itself rather than a piece
per cell, refuses the option (ValueError) instead of ignoring it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from boardgame_envs.games.board_labels import coordinates
from boardgame_envs.games.mnk import MNKState
from boardgame_envs.games.opening_game import OpeningState
from boardgame_envs.games.protocol import action_at_cell, cell_of, check_action, draw
from boardgame_envs.render.canvas import CELL_COLOURS, CROSS_COLOURS, PALETTES, STONE_COLOURS, Canvas, Item, palette
from boardgame_envs.render.scene import BAND, BAND_TEXT, Options, Rect, Text
from boardgame_envs.render.snapshot import Snapshot, is_game_state, status_text

DEFAULT_CELL = 48  # pixels a cell, when the options name none


class CellPicture(NamedTuple):
    """A picture's size in pixels, its shapes back to front, and a line saying what it shows."""

    width: int
    height: int
    items: list[Item]
    title: str


def cell_state(source: Any) -> Any:
    """The state of the protocol that ``source`` shows, when it is drawn through the drawing hook: a state, an
    env (wrapped or raw) holding one, or a :class:`~boardgame_envs.render.snapshot.Snapshot` of one; None for the
    m,n,k family's states, envs and snapshots, which have pictures of their own."""
    if isinstance(source, Snapshot):
        return source.state
    state = source if is_game_state(source) else getattr(getattr(source, "unwrapped", None), "game_state", None)
    if not is_game_state(state) or isinstance(state, (MNKState, OpeningState)):
        return None
    return state


def _check(game: Any, name: str, action: Any) -> int | None:
    if action is None:
        return None
    reason = check_action(game, action)
    if reason is not None:
        raise ValueError(f"{name}={action!r} is no action of {game.describe()}: {reason}")
    return cell_of(game, int(action))


def edge_labels(game: Any, wanted: bool | None) -> tuple[list[str], list[str]]:
    """The column and row labels a picture of ``game`` draws along its edges: none unless ``wanted`` is True
    (coordinates are off by default on these pictures, which keep their size); the game's coordinates
    (:func:`~boardgame_envs.games.board_labels.coordinates`) when it is, or ValueError when its names give none."""
    if not wanted:
        return [], []
    columns, rows = coordinates(game)
    if not any(columns) and not any(rows):
        names = ", ".join(repr(game.action_name(a)) for a in range(min(3, game.num_actions)))
        raise ValueError(
            f"coordinates=True: {game.describe()} has no coordinates: its action names ({names}, ...) do not "
            f"split into a column and a row along its {game.shape[0]}x{game.shape[1]} cells (as 'b2' does) nor "
            f"name whole columns (as connect four's 'a'..'g' do); draw it with coordinates=False"
        )
    return columns, rows


def move_numbers(state: Any, moves: Sequence[int] | None) -> dict[int, int]:
    """The number of the move that left each piece on ``state``'s board, by cell: ``moves`` (the actions from the
    start, the first player first) replayed, each numbered on the cell it played (``last_move`` after it: connect
    four's disc where it landed); a move that is no cell (a pass) places nothing, and a cell emptied since keeps
    no number. ValueError for a game that draws itself (no piece per cell), for unknown moves and for moves
    that do not lead to ``state``."""
    game = state.game
    if getattr(game, "draw", None) is not None:
        raise ValueError(
            f"move_numbers=True: {game.describe()} draws itself (its own draw hook), not a piece per cell, "
            f"so no piece can carry a number; draw it with move_numbers=False"
        )
    if moves is None:
        raise ValueError(
            f"move_numbers=True needs the moves that led to this position ({state.num_moves} of them; none were "
            f"given, or moves of another count): draw an env (it knows them), Board.of(state, moves) or pass "
            f"moves= (the actions from the start, the first player first)"
        )
    replay, numbers = game.new_state(), {}
    for number, action in enumerate(moves, 1):
        reason = replay.illegal_reason(action)
        if reason is not None:
            raise ValueError(f"moves= do not lead to this position: move {number} ({action!r}): {reason}")
        replay.play(int(action))
        if replay.last_move >= 0:
            numbers[int(replay.last_move)] = number
    board = np.asarray(state.board)
    if replay.num_moves != state.num_moves or not np.array_equal(np.asarray(replay.board), board):
        raise ValueError(f"moves= do not lead to this position: {len(moves)} moves give another board")
    return {cell: number for cell, number in numbers.items() if board[cell]}


def layout_cells(state: Any, options: Options, moves: Sequence[int] | None = None) -> CellPicture:
    """The shapes of ``state``'s picture with ``options``: the game's drawing (the protocol's hook), the move
    numbers, a hint's green ring, a faint piece of the player to move at ``ghost`` (in the cell look), the
    coordinates in a margin round the board, the status band.

    ``cell`` sets the pixels a cell (default :data:`DEFAULT_CELL`), ``status``
    and ``note`` the band. ``coordinates=True`` labels the edges
    (:func:`edge_labels`; off by default); ``move_numbers=True`` numbers the
    pieces from ``moves`` (:func:`move_numbers`). Either raises ValueError
    where the game cannot have it.
    """
    game = state.game
    columns, rows = edge_labels(game, options.coordinates)
    numbers = move_numbers(state, moves) if options.move_numbers else {}
    canvas = Canvas(game, options.cell or DEFAULT_CELL)
    draw(state, canvas)
    for cell, number in numbers.items():
        canvas.number(cell, int(state.board[cell]), number)
    hint, ghost = _check(game, "hint", options.hint), _check(game, "ghost", options.ghost)
    if ghost is not None and not state.terminal and getattr(game, "draw", None) is None:
        canvas.piece(ghost, state.to_move, alpha=0.5)
    if hint is not None:
        canvas.ring(*canvas.center(hint))
    items, width, height = canvas.items, canvas.width, canvas.height
    if columns or rows:
        items, width, height = _with_labels(canvas, columns, rows)
    status = status_text(state)
    if options.status:
        band = max(22, round(canvas.cell * 0.6))
        text = options.note or status
        # Smaller type for a long line, so that it fits the width (about 0.56 em a character).
        size = min(band * 0.5, 0.92 * width / (0.56 * max(1, len(text))))
        items = [*items, Rect(0, height, width, height + band, BAND), Text(width / 2, height + band / 2, text, size, BAND_TEXT)]
        height += band
    return CellPicture(width, height, items, f"{game.describe()}: {status}")


def _with_labels(canvas: Canvas, columns: list[str], rows: list[str]) -> tuple[list[Item], int, int]:
    """``canvas``'s shapes moved into a margin that holds the column labels above and below the board (when there
    are any) and the row labels left and right of it, on the look's frame colour."""
    p = canvas.cell
    longest = max(len(label) for label in [*columns, *rows] if label)
    pad = round(p * max(0.6, 0.25 + 0.2 * longest))
    dx, dy = (pad if any(rows) else 0), (pad if any(columns) else 0)
    width, height = canvas.width + 2 * dx, canvas.height + 2 * dy
    size = min(p * 0.4, 0.9 * pad / (0.56 * longest))
    ink = canvas.label_colour()
    items: list[Item] = [Rect(0, 0, width, height, canvas.rgb(0))]
    items += [item._replace(**_shifted(item, dx, dy)) for item in canvas.items]
    for c, label in enumerate(columns):
        for y in (dy / 2, height - dy / 2):
            items.append(Text(dx + (c + 0.5) * p, y, label, size, ink))
    for r, label in enumerate(rows):
        for x in (dx / 2, width - dx / 2):
            items.append(Text(x, dy + (r + 0.5) * p, label, size, ink))
    return items, width, height


def _shifted(item: Item, dx: int, dy: int) -> dict[str, float]:
    """The fields of ``item`` that place it, moved by whole pixels (a hard-edged disc keeps its pixels)."""
    fields = item._fields
    if "x0" in fields:  # a rectangle or a line
        return {"x0": item.x0 + dx, "y0": item.y0 + dy, "x1": item.x1 + dx, "y1": item.y1 + dy}  # type: ignore[union-attr]
    if "cx" in fields:  # a circle or a disc
        return {"cx": item.cx + dx, "cy": item.cy + dy}  # type: ignore[union-attr]
    return {"x": item.x + dx, "y": item.y + dy}  # type: ignore[union-attr]


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
           "edge_labels", "layout_cells", "move_numbers", "palette", "status_text"]  # fmt: skip
