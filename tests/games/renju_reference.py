"""A slow renju referee written straight from the RIF definitions, for differential tests.

It shares no code with :mod:`boardgame_envs.games.renju`: fours are counted
as distinct sets of four stones in five-point windows, and threes by looking
for the six-point window ``. X X X X .`` of a straight four, both as the
definitions read. Recursion (is the straight-four point itself allowed?) is
plain Python recursion.
"""

from __future__ import annotations

import numpy as np

DIRS = ((0, 1), (1, 0), (1, 1), (1, -1))


def _cell(board, r, c):
    n = board.shape[0]
    return int(board[r, c]) if 0 <= r < n and 0 <= c < n else 3  # 3: off the board


def _run(board, r, c, dr, dc):
    length = 1
    for sign in (1, -1):
        k = 1
        while _cell(board, r + sign * k * dr, c + sign * k * dc) == 1:
            length += 1
            k += 1
    return length


def _makes_five(board, r, c, dr, dc):
    return _run(board, r, c, dr, dc) == 5


def _fours(board, r, c, dr, dc):
    """Sets of four black stones (with the one at (r, c)) that one more stone makes exactly five."""
    found = set()
    for start in range(-4, 1):
        cells = [(r + (start + i) * dr, c + (start + i) * dc) for i in range(5)]
        values = [_cell(board, rr, cc) for rr, cc in cells]
        if values.count(1) == 4 and values.count(0) == 1:
            er, ec = cells[values.index(0)]
            board[er, ec] = 1
            if _run(board, er, ec, dr, dc) == 5:
                found.add(frozenset(cell for cell, v in zip(cells, values) if v == 1))
            board[er, ec] = 0
    return len(found)


def _straight_four(board, r, c, dr, dc):
    """Whether (r, c) is in ``. X X X X .`` with both ends making exactly five."""
    for start in range(-4, 0):
        cells = [(r + (start + i) * dr, c + (start + i) * dc) for i in range(6)]
        values = [_cell(board, rr, cc) for rr, cc in cells]
        if values == [0, 1, 1, 1, 1, 0]:
            ok = True
            for er, ec in (cells[0], cells[5]):
                board[er, ec] = 1
                ok &= _run(board, er, ec, dr, dc) == 5
                board[er, ec] = 0
            if ok:
                return True
    return False


def _three(board, r, c, dr, dc, five_clause):
    n = board.shape[0]
    for k in range(-4, 5):
        er, ec = r + k * dr, c + k * dc
        if k == 0 or not (0 <= er < n and 0 <= ec < n) or board[er, ec] != 0:
            continue
        board[er, ec] = 1
        straight = _straight_four(board, r, c, dr, dc)
        five = five_clause and any(_makes_five(board, er, ec, ddr, ddc) for ddr, ddc in DIRS)
        board[er, ec] = 0
        if straight and not five and reference_kind(board, er, ec, five_clause) is None:
            return True
    return False


def reference_kind(board: np.ndarray, r: int, c: int, five_clause: bool = True) -> str | None:
    """Kind of forbidden move black makes at empty (r, c), from the definitions.

    ``five_clause=False`` drops "without at the same time making a five" from
    the definition of a three, to show which test positions hinge on it.
    """
    assert board[r, c] == 0
    board[r, c] = 1
    try:
        if any(_makes_five(board, r, c, dr, dc) for dr, dc in DIRS):
            return None
        if any(_run(board, r, c, dr, dc) > 5 for dr, dc in DIRS):
            return "overline"
        fours = [_fours(board, r, c, dr, dc) for dr, dc in DIRS]
        if sum(fours) >= 2:
            return "double-four"
        threes = sum(1 for (dr, dc), f in zip(DIRS, fours) if f == 0 and _three(board, r, c, dr, dc, five_clause))
        return "double-three" if threes >= 2 else None
    finally:
        board[r, c] = 0


def reference_mask(board: np.ndarray) -> np.ndarray:
    board = board.copy()
    out = np.zeros(board.shape, dtype=bool)
    for r, c in zip(*np.nonzero(board == 0)):
        out[r, c] = reference_kind(board, r, c) is not None
    return out
