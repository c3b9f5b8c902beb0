"""A board picture as a list of shapes: the one layout that pixels, SVG and the window all draw.

:func:`layout` turns a :class:`~boardgame_envs.render.snapshot.Snapshot` and the
drawing options into rectangles, lines, circles and text in pixel
coordinates; :mod:`~boardgame_envs.render.raster` and
:mod:`~boardgame_envs.render.svg` each draw those few shapes, so the two
pictures carry the same content by construction. :class:`Geometry` maps
points to pixels and back (the window uses it for clicks). Under an opening
rule the fifth moves on offer are hollow black stones numbered in the order
offered, and the status line names the step of the opening.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from boardgame_envs.games.lines import BLACK
from boardgame_envs.games.notation import COLUMNS
from boardgame_envs.render.snapshot import Snapshot

RGB = tuple[int, int, int]

WOOD: RGB = (220, 179, 92)
GRID: RGB = (50, 36, 20)
STONE_BLACK: RGB = (22, 22, 22)
STONE_WHITE: RGB = (246, 246, 240)
RED: RGB = (214, 38, 38)
GREEN: RGB = (30, 150, 70)
BAND: RGB = (58, 44, 30)
BAND_TEXT: RGB = (250, 244, 230)
PAPER: RGB = (250, 250, 245)
INK: RGB = (50, 50, 60)
MARK_X: RGB = (200, 50, 50)
MARK_O: RGB = (40, 90, 200)
LAST_CELL: RGB = (255, 238, 170)

DEFAULT_CELL = {"gomoku": 32, "tictactoe": 100}
MIN_CELL = 12


class Rect(NamedTuple):
    x0: float
    y0: float
    x1: float
    y1: float
    fill: RGB | None
    outline: RGB | None = None
    width: float = 0
    alpha: float = 1.0


class Line(NamedTuple):
    x0: float
    y0: float
    x1: float
    y1: float
    color: RGB
    width: float
    alpha: float = 1.0


class Circle(NamedTuple):
    cx: float
    cy: float
    r: float
    fill: RGB | None
    outline: RGB | None = None
    width: float = 0
    alpha: float = 1.0


class Text(NamedTuple):
    x: float
    y: float
    text: str
    size: float
    color: RGB
    anchor: str = "middle"  # "start", "middle" or "end" of the text at x; y is the text's vertical centre


Shape = Rect | Line | Circle | Text


@dataclass(frozen=True)
class Geometry:
    """Where things are: point ``(row, col)`` is drawn at ``(x0 + col * pitch, y0 + row * pitch)``.

    On tic-tac-toe the "points" are the centres of the cells.
    """

    n: int
    pitch: float
    x0: float
    y0: float
    width: int
    height: int  # the whole picture, the status band included
    band: float  # height of the status band at the bottom (0 without one)

    def center(self, action: int) -> tuple[float, float]:
        row, col = divmod(action, self.n)
        return self.x0 + col * self.pitch, self.y0 + row * self.pitch

    def action_at(self, x: float, y: float) -> int | None:
        """The point nearest to pixel ``(x, y)``, if it is within half a cell of it."""
        col = round((x - self.x0) / self.pitch)
        row = round((y - self.y0) / self.pitch)
        if not (0 <= row < self.n and 0 <= col < self.n):
            return None
        cx, cy = self.x0 + col * self.pitch, self.y0 + row * self.pitch
        if max(abs(x - cx), abs(y - cy)) > self.pitch / 2:
            return None
        return row * self.n + col


@dataclass(frozen=True)
class Options:
    """How to draw a board; every field is a keyword of ``rgb``, ``svg`` and ``animate``.

    ``cell``: pixels between two lines of a gomoku board (default 32, more on
    boards under 11x11) or the side of a tic-tac-toe cell (default 100).
    ``coordinates``: letters and numbers around a gomoku board (tic-tac-toe
    has none); None (the default) means on for m,n,k boards and off for any
    other game's picture, where True labels the edges from the game's action
    names (:func:`~boardgame_envs.render.cells.edge_labels`). ``move_numbers``:
    number the stones in the order played (when the moves are known; any other
    game: :func:`~boardgame_envs.render.cells.move_numbers`). ``status``: the band at the bottom saying who is
    to move or who won; ``note`` replaces its text (e.g. "thinking…").
    ``ghost``: a faint stone of the player to move at that action (hover);
    ``hint``: a green ring at that action.
    """

    cell: int | None = None
    coordinates: bool | None = None
    move_numbers: bool = False
    status: bool = True
    ghost: int | None = None
    hint: int | None = None
    note: str | None = None

    def __post_init__(self) -> None:
        if self.cell is not None and (not isinstance(self.cell, int) or isinstance(self.cell, bool) or self.cell < MIN_CELL):
            raise ValueError(f"cell must be an integer number of pixels >= {MIN_CELL}, got {self.cell!r}")
        if not (self.coordinates is None or isinstance(self.coordinates, bool)):
            raise ValueError(f"coordinates must be True, False or None (the picture's default), got {self.coordinates!r}")
        if not isinstance(self.move_numbers, bool):
            raise ValueError(f"move_numbers must be True or False, got {self.move_numbers!r}")


def options(**keywords: object) -> Options:
    """:class:`Options` from keywords; an unknown one raises a ``TypeError`` listing those there are."""
    known = Options.__dataclass_fields__
    unknown = sorted(set(keywords) - set(known))
    if unknown:
        raise TypeError(f"unknown drawing option(s) {', '.join(map(repr, unknown))}; expected: {', '.join(known)}")
    return Options(**keywords)  # type: ignore[arg-type]


def star_points(n: int) -> tuple[int, ...]:
    """The marked points of a go-style board: the 4th lines' corners and the centre (15x15: d4 d12 h8 l4 l12)."""
    if n < 7:
        return ()
    edge = 3 if n >= 13 else 2
    far = n - 1 - edge
    points = [(edge, edge), (edge, far), (far, edge), (far, far)]
    if n % 2:
        points.append((n // 2, n // 2))
    return tuple(sorted(r * n + c for r, c in points))


def geometry(board: Snapshot, options: Options) -> Geometry:
    n = board.size
    if board.is_tictactoe:
        cell = options.cell or DEFAULT_CELL["tictactoe"]
        margin = round(cell * 0.16)
        band = round(cell * 0.42) if options.status else 0
        side = 2 * margin + 3 * cell
        return Geometry(n, cell, margin + cell / 2, margin + cell / 2, side, side + band, band)
    cell = options.cell or max(DEFAULT_CELL["gomoku"], round(340 / n))  # small boards drawn larger
    margin = round(cell * (1.15 if options.coordinates is not False else 0.7))
    band = round(cell * 0.95) if options.status else 0
    side = 2 * margin + (n - 1) * cell
    return Geometry(n, cell, margin, margin, side, side + band, band)


def layout(board: Snapshot, options: Options) -> tuple[Geometry, list[Shape], list[Shape]]:
    """The shapes of ``board`` drawn with ``options``, back to front, in two parts.

    The first part (board, grid, star points, coordinates, status band) is
    the same for every position of a game with the same options, so the
    pixels' side draws it once; the second holds what the position adds.
    """
    geo = geometry(board, options)
    for name in ("ghost", "hint"):
        action = getattr(options, name)
        if action is not None and not 0 <= action < geo.n * geo.n:
            raise ValueError(f"{name}={action!r} is not a point of the {geo.n}x{geo.n} board (0..{geo.n * geo.n - 1})")
    back: list[Shape] = []
    front: list[Shape] = []
    if board.is_tictactoe:
        _tictactoe(board, options, geo, back, front)
    else:
        _gomoku(board, options, geo, back, front)
    if options.status:
        top = geo.height - geo.band
        back.append(Rect(0, top, geo.width, geo.height, BAND))
        text = options.note or board.status()
        if not board.is_tictactoe:
            text = f"{board.title()} · {text}"
        # Smaller type for a long line, so that it fits the width (about 0.56 em a character).
        size = min(geo.band * 0.44, 0.92 * geo.width / (0.56 * len(text)))
        front.append(Text(geo.width / 2, top + geo.band / 2, text, size, BAND_TEXT))
    return geo, back, front


def _numbers(board: Snapshot, options: Options) -> dict[int, int]:
    if not options.move_numbers or board.moves is None:
        return {}
    return {action: i + 1 for i, action in enumerate(board.moves)}


def _gomoku(board: Snapshot, options: Options, geo: Geometry, back: list[Shape], out: list[Shape]) -> None:
    n, p = geo.n, geo.pitch
    lo_x, lo_y = geo.x0, geo.y0
    hi_x, hi_y = lo_x + (n - 1) * p, lo_y + (n - 1) * p
    back.append(Rect(0, 0, geo.width, geo.height - geo.band, WOOD))
    thin = max(1.0, p / 28)
    for i in range(n):
        w = 2 * thin if i in (0, n - 1) else thin
        back.append(Line(lo_x, lo_y + i * p, hi_x, lo_y + i * p, GRID, w))
        back.append(Line(lo_x + i * p, lo_y, lo_x + i * p, hi_y, GRID, w))
    for a in star_points(n):
        x, y = geo.center(a)
        back.append(Circle(x, y, max(2.0, p * 0.13), GRID))
    if options.coordinates is not False:  # None: the m,n,k pictures' default, on
        size, gap = p * 0.4, p * 0.72
        for i in range(n):
            x, y = lo_x + i * p, lo_y + i * p
            letter, rank = COLUMNS[i], str(n - i)
            back.append(Text(x, lo_y - gap, letter, size, GRID))
            back.append(Text(x, hi_y + gap, letter, size, GRID))
            back.append(Text(lo_x - gap, y, rank, size, GRID))
            back.append(Text(hi_x + gap, y, rank, size, GRID))

    forbidden = board.shown_forbidden()
    arm, cross_w = p * 0.2, max(1.5, p / 11)
    for a in map(int, forbidden.nonzero()[0]):
        x, y = geo.center(a)
        out.append(Line(x - arm, y - arm, x + arm, y + arm, RED, cross_w))
        out.append(Line(x - arm, y + arm, x + arm, y - arm, RED, cross_w))

    numbers = _numbers(board, options)
    radius = p * 0.47
    for a in map(int, board.stones.nonzero()[0]):
        x, y = geo.center(a)
        color = int(board.stones[a])
        if color == BLACK:
            out.append(Circle(x, y, radius, STONE_BLACK))
        else:
            out.append(Circle(x, y, radius, STONE_WHITE, GRID, max(1.0, p / 24)))
        if a in numbers:
            ink = RED if a == board.last_move else (STONE_WHITE if color == BLACK else STONE_BLACK)
            label = str(numbers[a])
            out.append(Text(x, y, label, p * (0.44 if len(label) < 3 else 0.36), ink))
        elif a == board.last_move:
            out.append(Circle(x, y, p * 0.13, RED))

    for number, a in enumerate(board.offers, 1):  # fifth moves on offer: hollow black stones, numbered
        x, y = geo.center(a)
        out.append(Circle(x, y, radius * 0.88, STONE_BLACK, STONE_BLACK, max(1.5, p / 12), 0.22))
        out.append(Circle(x, y, radius * 0.88, None, STONE_BLACK, max(1.5, p / 12)))
        out.append(Text(x, y, str(number), p * 0.46, STONE_BLACK))
    _win_line(board, geo, out, p * 0.16, RED, 0.65)
    if options.hint is not None:
        x, y = geo.center(options.hint)
        out.append(Circle(x, y, radius, None, GREEN, max(2.0, p / 9)))
    if options.ghost is not None and not board.terminal:
        x, y = geo.center(options.ghost)
        out.append(Circle(x, y, radius, STONE_BLACK if board.to_move == BLACK else STONE_WHITE, None, 0, 0.5))


def _tictactoe(board: Snapshot, options: Options, geo: Geometry, back: list[Shape], out: list[Shape]) -> None:
    p = geo.pitch
    left, top = geo.x0 - p / 2, geo.y0 - p / 2
    back.append(Rect(0, 0, geo.width, geo.height - geo.band, PAPER))
    if board.last_move >= 0:
        x, y = geo.center(board.last_move)
        out.append(Rect(x - p / 2, y - p / 2, x + p / 2, y + p / 2, LAST_CELL))
    w = max(2.0, p * 0.05)
    for i in (1, 2):
        out.append(Line(left + i * p, top, left + i * p, top + 3 * p, INK, w))
        out.append(Line(left, top + i * p, left + 3 * p, top + i * p, INK, w))
    numbers = _numbers(board, options)
    for a in map(int, board.stones.nonzero()[0]):
        _mark(geo, a, int(board.stones[a]), out, 1.0)
        if a in numbers:
            x, y = geo.center(a)
            out.append(Text(x - p * 0.38, y - p * 0.36, str(numbers[a]), p * 0.16, INK, "start"))
    _win_line(board, geo, out, p * 0.07, GREEN, 0.8)
    if options.hint is not None:
        x, y = geo.center(options.hint)
        h = p * 0.44
        out.append(Rect(x - h, y - h, x + h, y + h, None, GREEN, max(2.0, p * 0.04)))
    if options.ghost is not None and not board.terminal:
        _mark(geo, options.ghost, board.to_move, out, 0.35)


def _mark(geo: Geometry, action: int, color: int, out: list[Shape], alpha: float) -> None:
    x, y = geo.center(action)
    p = geo.pitch
    w = p * 0.1
    if color == BLACK:
        arm = p * 0.27
        out.append(Line(x - arm, y - arm, x + arm, y + arm, MARK_X, w, alpha))
        out.append(Line(x - arm, y + arm, x + arm, y - arm, MARK_X, w, alpha))
    else:
        out.append(Circle(x, y, p * 0.29, None, MARK_O, w, alpha))


def _win_line(board: Snapshot, geo: Geometry, out: list[Shape], width: float, color: RGB, alpha: float) -> None:
    run = board.winning_line()
    if not run:
        return
    (x0, y0), (x1, y1) = geo.center(run[0]), geo.center(run[-1])
    if board.is_tictactoe:  # past the marks, towards the cell edges
        dx, dy = (x1 - x0) / 2 * 0.4, (y1 - y0) / 2 * 0.4
        x0, y0, x1, y1 = x0 - dx, y0 - dy, x1 + dx, y1 + dy
    out.append(Line(x0, y0, x1, y1, color, width, alpha))


__all__ = ["Options", "options", "Geometry", "layout", "geometry", "star_points", "Rect", "Line", "Circle", "Text"]
