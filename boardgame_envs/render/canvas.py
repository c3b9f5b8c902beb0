"""What a game draws: the :class:`Canvas` handed to its ``draw(state, canvas)`` hook, and the colours of each look.

A game says how its board looks through the protocol's drawing hook
(:func:`boardgame_envs.games.protocol.draw`): its own ``game.draw(state,
canvas)`` (lines, dots and owned boxes for dots and boxes), else the cell look
(:func:`boardgame_envs.games.protocol.draw_cells`: a piece per cell). The game
draws in *board units*, never pixels: the board is ``game.shape`` cells, ``x``
runs along the columns from 0 to ``columns`` and ``y`` down the rows from 0 to
``rows``, so cell ``(r, c)`` is the unit square from ``(c, r)`` to ``(c + 1, r
+ 1)`` and its centre is ``(c + 0.5, r + 0.5)``. Colours are the players'
(``player`` 1 or 2; 0 is the look's ink), taken from the game's look,
``game.marks``: ``"discs"`` (connect four's red and yellow in a blue frame),
``"stones"`` (black and white on wood; a game that names none) or ``"crosses"``
(X and O, red and blue ink on paper).

The canvas only records shapes, in pixels: :class:`~boardgame_envs.render.scene.Rect`,
``Line``, ``Circle`` and ``Text`` (the m,n,k pictures' own shapes) and :class:`Disc`,
a disc or ring with hard edges, which keeps the cell look's pixels exactly as they
were; :mod:`~boardgame_envs.render.raster` and :mod:`~boardgame_envs.render.svg`
draw them.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from boardgame_envs.render.scene import RGB, Circle, Line, Rect, Shape, Text

# A look's colours: the frame, an empty cell, the first player's piece, the second's, the last move's mark.
CELL_COLOURS = np.array([(28, 78, 196), (245, 245, 245), (214, 40, 40), (240, 200, 30), (20, 20, 20)], dtype=np.uint8)
STONE_COLOURS = np.array([(220, 179, 92), (196, 152, 70), (22, 22, 22), (246, 246, 240), (214, 38, 38)], dtype=np.uint8)
CROSS_COLOURS = np.array([(250, 250, 245), (250, 250, 245), (200, 50, 50), (40, 90, 200), (255, 214, 90)], dtype=np.uint8)
PALETTES = {"discs": CELL_COLOURS, "stones": STONE_COLOURS, "crosses": CROSS_COLOURS}  # by the game's ``marks``
INK: dict[str, RGB] = {"discs": (20, 20, 20), "stones": (50, 36, 20), "crosses": (50, 50, 60)}  # lines and dots of nobody
HINT: RGB = (30, 150, 70)
NUMBER_DARK: RGB = (20, 20, 20)  # a move number on a light piece
NUMBER_LIGHT: RGB = (245, 245, 245)  # on a dark one, and the coordinates on connect four's blue frame
DISC_RADIUS, RING_RADIUS = 0.4, 0.46  # of a cell: a piece of the cell look, and the ring round the last one


def look(game: Any) -> str:
    """The look ``game`` is drawn in: its ``marks`` when that names one of :data:`PALETTES`, else ``"stones"``."""
    marks = getattr(game, "marks", None)
    return marks if isinstance(marks, str) and marks in PALETTES else "stones"


def palette(game: Any) -> np.ndarray:
    """The colours ``game`` is drawn in, by its ``marks`` (the rows as in :data:`CELL_COLOURS`)."""
    return PALETTES[look(game)]


class Disc(NamedTuple):
    """A disc (``inner`` 0) or a ring, in pixels, with hard edges: the pixels whose centres lie at a distance
    ``inner <= d < outer`` from ``(cx, cy)``, blended at ``alpha``."""

    cx: float
    cy: float
    inner: float
    outer: float
    color: RGB
    alpha: float = 1.0


Item = Shape | Disc


class Canvas:
    """The board of ``game`` at ``cell`` pixels a cell, on which a game draws in board units (module docstring).

    ``items`` are the shapes drawn so far, back to front, in pixels; the frame of
    the look's background comes first.
    """

    def __init__(self, game: Any, cell: int = 48) -> None:
        self.game = game
        self.rows, self.columns = (int(v) for v in game.shape)
        self.cell = int(cell)
        self.look = look(game)
        self.colours = PALETTES[self.look]
        self.ink: RGB = INK[self.look]
        self.width, self.height = self.columns * self.cell, self.rows * self.cell
        self.items: list[Item] = [Rect(0, 0, self.width, self.height, self.rgb(0))]

    # ------------------------------------------------------------- colours and places
    def rgb(self, row: int) -> RGB:
        """Row ``row`` of the look's colours (0 the frame, 1 an empty cell, 2 and 3 the players, 4 the last move)."""
        return tuple(int(v) for v in self.colours[row])  # type: ignore[return-value]

    def colour(self, player: int) -> RGB:
        """``player``'s colour (1 or 2); the look's ink for 0."""
        if player not in (0, 1, 2):
            raise ValueError(f"player must be 0 (nobody: ink), 1 or 2, got {player!r}")
        return self.ink if player == 0 else self.rgb(1 + player)

    def center(self, cell: int) -> tuple[float, float]:
        """The centre of flat ``cell``, in board units."""
        if not 0 <= int(cell) < self.rows * self.columns:
            raise ValueError(f"cell {cell!r} is not on the {self.rows}x{self.columns} board")
        r, c = divmod(int(cell), self.columns)
        return c + 0.5, r + 0.5

    def _px(self, x: float, y: float) -> tuple[float, float]:
        return x * self.cell, y * self.cell

    # ------------------------------------------------------------- the cell look
    def board(self) -> None:
        """What the look shows under its pieces: the lines between the cells for crosses, nothing more for discs and
        stones (their empty cells are pieces of nobody)."""
        if self.look != "crosses":
            return
        w = max(2.0, self.cell * 0.05)
        for c in range(1, self.columns):
            self.items.append(Line(c * self.cell, 0, c * self.cell, self.height, self.ink, w))
        for r in range(1, self.rows):
            self.items.append(Line(0, r * self.cell, self.width, r * self.cell, self.ink, w))

    def piece(self, cell: int, player: int, alpha: float = 1.0) -> None:
        """``player``'s piece in ``cell`` in the game's look (0: the empty cell's hole; crosses draw nothing there)."""
        x, y = self._px(*self.center(cell))
        if self.look != "crosses":
            self.items.append(Disc(x, y, 0.0, self.cell * DISC_RADIUS, self.rgb(1 + self.check(player)), alpha))
            return
        p, colour = self.cell, self.colour(self.check(player))
        if player == 1:
            arm = p * 0.27
            self.items.append(Line(x - arm, y - arm, x + arm, y + arm, colour, p * 0.1, alpha))
            self.items.append(Line(x - arm, y + arm, x + arm, y - arm, colour, p * 0.1, alpha))
        elif player == 2:
            self.items.append(Circle(x, y, p * 0.29, None, colour, p * 0.1, alpha))

    def last(self, cell: int) -> None:
        """Mark ``cell`` as the last move's: a ring round the piece (a frame inside the cell for crosses)."""
        x, y = self._px(*self.center(cell))
        if self.look != "crosses":
            self.items.append(Disc(x, y, self.cell * DISC_RADIUS, self.cell * RING_RADIUS, self.rgb(4)))
            return
        h, w = self.cell / 2, max(2.0, self.cell * 0.06)
        self.items.append(Rect(x - h + w, y - h + w, x + h - w, y + h - w, None, self.rgb(4), w))

    def number(self, cell: int, player: int, number: int) -> None:
        """``number`` (the move that placed it) on ``player``'s piece in ``cell``: centred, in dark or light ink by
        the piece's brightness; in the cell's top left corner for crosses, as the m,n,k pictures number X and O."""
        x, y = self._px(*self.center(cell))
        text, p = str(number), self.cell
        if self.look == "crosses":
            self.items.append(Text(x - p * 0.38, y - p * 0.36, text, p * 0.16, self.ink, "start"))
            return
        r, g, b = self.rgb(1 + self.check(player))
        ink = NUMBER_DARK if 0.299 * r + 0.587 * g + 0.114 * b > 128 else NUMBER_LIGHT
        self.items.append(Text(x, y, text, p * (0.4 if len(text) < 3 else 0.32), ink))

    def label_colour(self) -> RGB:
        """The colour of the coordinates in the margin, on the look's frame: light on connect four's blue, the
        look's ink on wood and paper."""
        return NUMBER_LIGHT if self.look == "discs" else self.ink

    def passed(self) -> None:
        """The last move was no cell (a pass): a bar in the last move's colour along the bottom edge."""
        bar = max(2, self.cell // 12)
        self.items.append(Rect(0, self.height - bar, self.width, self.height, self.rgb(4)))

    @staticmethod
    def check(player: int) -> int:
        if player not in (0, 1, 2):
            raise ValueError(f"a cell holds 0 (empty), 1 or 2, got {player!r}")
        return int(player)

    # ------------------------------------------------------------- free drawing
    def line(self, x0: float, y0: float, x1: float, y1: float, player: int = 0, width: float = 0.1) -> None:
        """A line from ``(x0, y0)`` to ``(x1, y1)``, ``width`` of a cell thick, in ``player``'s colour."""
        self.items.append(Line(*self._px(x0, y0), *self._px(x1, y1), self.colour(player), width * self.cell))

    def dot(self, x: float, y: float, radius: float = 0.1, player: int = 0) -> None:
        """A filled dot at ``(x, y)``, ``radius`` of a cell."""
        self.items.append(Circle(*self._px(x, y), radius * self.cell, self.colour(player)))

    def fill(self, x0: float, y0: float, x1: float, y1: float, player: int = 0, alpha: float = 0.3) -> None:
        """A region from ``(x0, y0)`` to ``(x1, y1)`` tinted in ``player``'s colour (an owned box)."""
        self.items.append(Rect(*self._px(x0, y0), *self._px(x1, y1), self.colour(player), alpha=alpha))

    def text(self, x: float, y: float, text: str, player: int = 0, size: float = 0.4) -> None:
        """``text`` centred on ``(x, y)``, ``size`` of a cell high."""
        self.items.append(Text(*self._px(x, y), str(text), size * self.cell, self.colour(player)))

    def ring(self, x: float, y: float, radius: float = 0.44, width: float = 0.08, color: RGB = HINT) -> None:
        """A ring at ``(x, y)`` (a hint's mark)."""
        self.items.append(Circle(*self._px(x, y), radius * self.cell, None, color, width * self.cell))


__all__ = ["CELL_COLOURS", "STONE_COLOURS", "CROSS_COLOURS", "PALETTES", "Canvas", "Disc", "look", "palette"]
