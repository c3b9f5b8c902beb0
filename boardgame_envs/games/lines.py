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


@cached_kernel(inline="always")
def reach(r0: int, c0: int, dr: int, dc: int, n: int, cap: int) -> int:
    """How many points lie beyond ``(r0, c0)`` along ``(dr, dc)`` before the board's edge, at most ``cap``.

    Worked out once per direction, so a scan along it reads the board with no bounds test a point.
    """
    m = cap
    if dr > 0:
        m = min(m, n - 1 - r0)
    elif dr < 0:
        m = min(m, r0)
    if dc > 0:
        m = min(m, n - 1 - c0)
    elif dc < 0:
        m = min(m, c0)
    return m


@cached_kernel()
def line_steps(n: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Tables for :func:`wins_by_steps`: ``(steps, offsets)`` of an ``n x n`` board and lines of ``k``.

    Side ``j`` of a point is direction ``j // 2`` of :data:`DIRECTIONS`, forwards
    for even ``j`` and backwards for odd: ``offsets[j]`` is the flat index step
    along it, ``steps[idx, j]`` how many points lie that way before the edge,
    capped at ``k`` (a run of ``k`` on one side already makes the line longer
    than ``k``, so the check never needs to look further).
    """
    steps = np.empty((n * n, 8), dtype=np.int64)
    offsets = np.empty(8, dtype=np.int64)
    for d in range(4):
        dr = DIRECTIONS[d, 0]
        dc = DIRECTIONS[d, 1]
        offsets[2 * d] = dr * n + dc
        offsets[2 * d + 1] = -(dr * n + dc)
        for idx in range(n * n):
            r = idx // n
            c = idx - r * n
            steps[idx, 2 * d] = reach(r, c, dr, dc, n, k)
            steps[idx, 2 * d + 1] = reach(r, c, -dr, -dc, n, k)
    return steps, offsets


@cached_kernel(inline="always")
def wins_by_steps(board: np.ndarray, steps: np.ndarray, offsets: np.ndarray, idx: int, color: int, k: int,
                  exact: bool) -> bool:  # fmt: skip
    """:func:`makes_win` with the geometry read from :func:`line_steps`' tables: no division, no bounds tests.

    As there, the point ``idx`` itself counts for ``color`` whatever it holds.
    All four lines are always read: leaving at the first win costs more in
    mispredicted branches than the lines it skips (measured: ~9 ns a call on
    3x3 against ~17 ns with the early return, and ~25 ns for makes_win).
    """
    win = False
    for d in range(4):
        length = 1
        for side in range(2):
            j = 2 * d + side
            p = idx
            off = offsets[j]
            for _ in range(steps[idx, j]):
                p += off
                if board[p] != color:
                    break
                length += 1
        win = win or length == k or (length > k and not exact)
    return win


@cached_kernel(inline="always")
def wins_both_by_steps(board: np.ndarray, steps: np.ndarray, offsets: np.ndarray, idx: int, color: int, k: int,
                       exact: bool, exact_other: bool) -> tuple[bool, bool]:  # fmt: skip
    """``(color wins at idx, its opponent wins at idx)``: both :func:`wins_by_steps` answers at once.

    Each side of a line is read once: its first stone says whose run it is, so
    the two answers cost about one check (~10 ns on 3x3 against ~2 x 25 ns for
    two :func:`makes_win` calls).
    """
    mine = False
    theirs = False
    for d in range(4):
        own = 1
        other = 1
        for side in range(2):
            j = 2 * d + side
            if steps[idx, j] == 0:
                continue
            first = board[idx + offsets[j]]
            if first == EMPTY:
                continue
            run = 1
            p = idx + offsets[j]
            off = offsets[j]
            for _ in range(steps[idx, j] - 1):
                p += off
                if board[p] != first:
                    break
                run += 1
            if first == color:
                own += run
            else:
                other += run
        mine = mine or own == k or (own > k and not exact)
        theirs = theirs or other == k or (other > k and not exact_other)
    return mine, theirs


#: Boards of at most this many points also get bitboards (one int64 of stones per colour): bit 63
#: stays clear, so a window made of it alone pads :func:`line_windows`' rows and never matches.
BIT_POINTS = 63
NEVER = np.int64(1) << 63


@cached_kernel()
def line_windows(n: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Bit masks of the ``k``-point windows through each point, for :func:`wins_by_windows`: ``(masks, ends)``.

    ``masks[idx, w]`` is a window of ``k`` points in a row through ``idx``
    (bit ``p`` for point ``p``), ``ends[idx, w]`` the points just past its two
    ends that are on the board. Every row has the same width, padded with
    :data:`NEVER`, so a check runs a fixed loop (no branch to mispredict).
    Width 0 on boards of more than :data:`BIT_POINTS` points, and when no
    window fits (``k > n``): callers then check with :func:`line_steps`.
    """
    if n * n > BIT_POINTS or k > n:
        return np.zeros((n * n, 0), dtype=np.int64), np.zeros((n * n, 0), dtype=np.int64)
    masks = np.full((n * n, 4 * k), NEVER, dtype=np.int64)
    ends = np.zeros((n * n, 4 * k), dtype=np.int64)
    used = np.zeros(n * n, dtype=np.int64)
    for d in range(4):
        dr = DIRECTIONS[d, 0]
        dc = DIRECTIONS[d, 1]
        for r0 in range(n):
            for c0 in range(n):
                r1 = r0 + (k - 1) * dr  # the window's last point
                c1 = c0 + (k - 1) * dc
                if not (0 <= r1 < n and 0 <= c1 < n):
                    continue
                mask = np.int64(0)
                for i in range(k):
                    mask |= np.int64(1) << ((r0 + i * dr) * n + c0 + i * dc)
                end = np.int64(0)
                if 0 <= r0 - dr < n and 0 <= c0 - dc < n:
                    end |= np.int64(1) << ((r0 - dr) * n + c0 - dc)
                if 0 <= r1 + dr < n and 0 <= c1 + dc < n:
                    end |= np.int64(1) << ((r1 + dr) * n + c1 + dc)
                for i in range(k):
                    p = (r0 + i * dr) * n + c0 + i * dc
                    masks[p, used[p]] = mask
                    ends[p, used[p]] = end
                    used[p] += 1
    width = used.max()
    return masks[:, :width].copy(), ends[:, :width].copy()


@cached_kernel(inline="always")
def wins_by_windows(own: int, masks: np.ndarray, ends: np.ndarray, idx: int, exact: bool) -> bool:
    """:func:`makes_win` on a bitboard: whether the stones ``own`` plus ``idx`` fill a window of :func:`line_windows`.

    Under ``exact`` the window's end points must hold none of them too (a run
    of exactly ``k``). Every window of the row is tested, without branches.
    """
    stones = own | (np.int64(1) << idx)
    win = False
    for w in range(masks.shape[1]):
        mask = masks[idx, w]
        win |= ((stones & mask) == mask) & (not exact or (stones & ends[idx, w]) == 0)
    return win


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
