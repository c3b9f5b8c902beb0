"""Headless renderings of a game state: text (``ansi``) and pixels (``rgb_array``).

Both mark the last move and, under renju, the points forbidden for black.
"""

from __future__ import annotations

import numpy as np

from boardgame_envs.games.lines import BLACK, WHITE
from boardgame_envs.games.mnk import GameState
from boardgame_envs.games.notation import COLUMNS

STONE_CHARS = {0: ".", BLACK: "X", WHITE: "O"}
FORBIDDEN_CHAR = "*"

CELL_PX = 32
MARGIN_PX = 24
BOARD_RGB = (220, 179, 92)
GRID_RGB = (40, 30, 20)
BLACK_RGB = (15, 15, 15)
WHITE_RGB = (245, 245, 240)
MARK_RGB = (220, 30, 30)


def render_ansi(state: GameState) -> str:
    """The board as text in renju notation, last move in brackets, forbidden points as ``*``."""
    n = state.game.size
    forbidden = state.forbidden() if state.game.rule == "renju" else None
    board = state.board.reshape(n, n)
    header = "    " + " ".join(COLUMNS[:n])
    lines = [header]
    for row in range(n):
        rank = n - row
        cells = []
        for col in range(n):
            a = row * n + col
            ch = STONE_CHARS[int(board[row, col])]
            if forbidden is not None and forbidden[a]:
                ch = FORBIDDEN_CHAR
            cells.append(ch)
        text = ""
        for col, ch in enumerate(cells):
            a = row * n + col
            if a == state.last_move:
                sep = "["
            elif col > 0 and a - 1 == state.last_move:
                sep = "]"
            else:
                sep = " "
            text += sep + ch
        text += "]" if state.last_move == row * n + n - 1 else " "
        lines.append(f"{rank:>2} {text}{rank:<2}".rstrip())
    lines.append(header)
    if (state.game.size, state.game.win_length) == (3, 3):  # tic-tac-toe: no stone colours
        legend = "X first player  O second player  [ ] last move"
    else:
        legend = "X black (first)  O white  [ ] last move"
    if forbidden is not None:
        legend += f"  {FORBIDDEN_CHAR} forbidden for black"
    lines.append(legend)
    return "\n".join(lines)


def render_rgb(state: GameState) -> np.ndarray:
    """The board as a ``uint8`` image ``(H, W, 3)``: wood, grid, stones, marks."""
    n = state.game.size
    size = 2 * MARGIN_PX + (n - 1) * CELL_PX
    img = np.empty((size, size, 3), dtype=np.uint8)
    img[:] = BOARD_RGB
    lo, hi = MARGIN_PX, MARGIN_PX + (n - 1) * CELL_PX
    for i in range(n):
        p = MARGIN_PX + i * CELL_PX
        img[p, lo : hi + 1] = GRID_RGB
        img[lo : hi + 1, p] = GRID_RGB

    yy, xx = np.mgrid[-CELL_PX // 2 : CELL_PX // 2, -CELL_PX // 2 : CELL_PX // 2]
    dist2 = yy * yy + xx * xx
    stone = dist2 <= (CELL_PX * 0.45) ** 2
    rim = stone & (dist2 >= (CELL_PX * 0.45 - 1.5) ** 2)
    dot = dist2 <= (CELL_PX * 0.15) ** 2
    cross = (np.abs(np.abs(yy) - np.abs(xx)) <= 1) & (np.abs(yy) <= CELL_PX // 5)
    forbidden = state.forbidden() if state.game.rule == "renju" else None

    for a in range(n * n):
        row, col = divmod(a, n)
        y0 = MARGIN_PX + row * CELL_PX - CELL_PX // 2
        x0 = MARGIN_PX + col * CELL_PX - CELL_PX // 2
        patch = img[y0 : y0 + CELL_PX, x0 : x0 + CELL_PX]
        v = int(state.board[a])
        if v:
            patch[stone] = BLACK_RGB if v == BLACK else WHITE_RGB
            patch[rim] = BLACK_RGB
            if a == state.last_move:
                patch[dot] = MARK_RGB
        elif forbidden is not None and forbidden[a]:
            patch[cross] = MARK_RGB
    return img
