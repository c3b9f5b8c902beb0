"""k-in-a-row kernels over flat boards.

A board is a flat ``int8`` array of length ``n * n`` (index ``row * n + col``,
row 0 at the top) holding :data:`EMPTY`, :data:`BLACK` or :data:`WHITE`.
Every kernel here looks only at the four lines through one point, which is
what makes win detection incremental: a move can only complete a line that
passes through it.
"""

from __future__ import annotations

import numpy as np

from boardgame_envs.games.kernel_cache import cached_kernel

EMPTY = 0
BLACK = 1
WHITE = 2



@cached_kernel(inline="always")
def opponent(color: int) -> int:
    """The other colour: :data:`BLACK` <-> :data:`WHITE` (numba kernels and Python alike)."""
    return BLACK + WHITE - color


#: (row step, col step) of the four line directions: horizontal, vertical,
#: main diagonal (down-right), anti-diagonal (down-left).
DIRECTIONS = np.array([[0, 1], [1, 0], [1, 1], [1, -1]], dtype=np.int64)


@cached_kernel(inline="always")
def run_length(board: np.ndarray, n: int, r: int, c: int, dr: int, dc: int, color: int) -> int:
    """Length of the unbroken run of ``color`` through point ``(r, c)`` along ``(dr, dc)``.

    The point itself is counted as part of the run whatever it holds, so the
    kernel also answers "how long would the run be if I played here".
    """
    count = 1
    rr = r + dr
    cc = c + dc
    while 0 <= rr < n and 0 <= cc < n and board[rr * n + cc] == color:
        count += 1
        rr += dr
        cc += dc
    rr = r - dr
    cc = c - dc
    while 0 <= rr < n and 0 <= cc < n and board[rr * n + cc] == color:
        count += 1
        rr -= dr
        cc -= dc
    return count


@cached_kernel(inline="always")
def makes_win(board: np.ndarray, n: int, idx: int, color: int, k: int, exact: bool) -> bool:
    """True if ``color`` at ``idx`` completes a winning line.

    ``exact`` selects the rule: a run of exactly ``k`` wins (standard gomoku,
    black under renju); otherwise ``k`` or more wins (freestyle). A move that
    makes an overline in one direction and exactly ``k`` in another still wins.
    """
    r = idx // n  # once for the four directions
    c = idx - r * n
    for d in range(4):
        length = run_length(board, n, r, c, DIRECTIONS[d, 0], DIRECTIONS[d, 1], color)
        if length == k or (length > k and not exact):
            return True
    return False


def win_code(n: int, k: int, exact: bool) -> int:
    """Pack a board size, a line length and the exact rule into one int for :func:`wins_at`."""
    return n | (k << 8) | (int(exact) << 16)


@cached_kernel()
def wins_at(board: np.ndarray, idx: int, color_code: int) -> bool:
    """:func:`makes_win` for callers in Python, with ``color << 17 | win_code(n, k, exact)`` as one argument.

    Numba's dispatch costs about 0.1 µs for each argument it types, and the
    rules' side of the env calls this once a move; inside numba, call
    :func:`makes_win` directly.
    """
    return makes_win(board, color_code & 0xFF, idx, color_code >> 17, (color_code >> 8) & 0xFF,
                     (color_code >> 16) & 1 == 1)  # fmt: skip
