"""Exact RIF renju forbidden moves for black: overline, double-four, double-three.

Black (who moves first) may not play a point that makes an overline, two
fours or two threes at once, unless the same move makes a five. A *three*
counts only if it can become a straight four by a move that is itself
allowed and makes no five (RIF: "without at the same time a five in a row
is made"), so deciding a three may need deciding another point first: the
check recurses on hypothetical stones, bounded by the empty points of the
position, never by a depth cut. ``docs/renju.md`` states every rule as
implemented, with diagrams.

What a stone makes in one line (five, overline, fours, straight-four
points) depends only on the ten points within ``REACH`` of it on that line,
so it is read from a table built once from the per-line rules below;
:mod:`~boardgame_envs.games.renju_mask` keeps a game's mask up to date move
by move with the same table.

Boards are flat ``int8`` arrays (index ``row * n + col``, 0 empty, 1 black,
2 white). The kernels place hypothetical stones on the array they are given
and always take them back before returning: the board is unchanged after
every call.
"""

from __future__ import annotations

import numpy as np

from boardgame_envs.games.kernel_cache import cached_kernel
from boardgame_envs.games.lines import BLACK, DIRECTIONS, EMPTY, WHITE

KIND_NONE, KIND_OVERLINE, KIND_DOUBLE_FOUR, KIND_DOUBLE_THREE = 0, 1, 2, 3
# The recursion's own answer for a point that makes a five: black may play it
# (a five wins), but a straight four completed there is no three (RIF: a three
# becomes a straight four "without at the same time making a five").
KIND_FIVE = -1
KIND_NAMES = {KIND_OVERLINE: "overline", KIND_DOUBLE_FOUR: "double-four", KIND_DOUBLE_THREE: "double-three"}

FIVE = 5
NO_POINT = -1
STRAIGHT_FOUR = -1  # _fours_in_line's answer for one four with two five-points


@cached_kernel(inline="always")
def _black_at(board, n, r, c):
    return 0 <= r < n and 0 <= c < n and board[r * n + c] == BLACK


@cached_kernel()
def _five_points(board, n, idx, dr, dc):
    """Run length through black ``idx`` along (dr, dc) and the points that make it exactly five.

    Returns ``(run, left, right)``: ``left``/``right`` is the empty point just
    past either end of the run if a black stone there makes an unbroken line
    of exactly five (joining any black stones beyond it), else ``NO_POINT``.
    """
    r0 = idx // n
    c0 = idx - r0 * n
    back = 0
    while _black_at(board, n, r0 - (back + 1) * dr, c0 - (back + 1) * dc):
        back += 1
    fwd = 0
    while _black_at(board, n, r0 + (fwd + 1) * dr, c0 + (fwd + 1) * dc):
        fwd += 1
    run = back + fwd + 1
    left = NO_POINT
    right = NO_POINT
    for side in (-1, 1):
        k = back + 1 if side < 0 else fwd + 1
        r = r0 + side * k * dr
        c = c0 + side * k * dc
        if not (0 <= r < n and 0 <= c < n) or board[r * n + c] != EMPTY:
            continue
        beyond = 0
        while _black_at(board, n, r + side * (beyond + 1) * dr, c + side * (beyond + 1) * dc):
            beyond += 1
        if run + 1 + beyond == FIVE:
            if side < 0:
                left = r * n + c
            else:
                right = r * n + c
    return run, left, right


@cached_kernel()
def _fours_in_line(board, n, idx, dr, dc):
    """Fours through black ``idx`` in one line: 0, 1 or 2, and -1 for a straight four.

    A straight four (``.XXXX.``) has two five-points but is one four; two
    five-points that are not the two ends of one unbroken four (``X.XXX.X``
    played in the middle) are two fours in the same line.
    """
    run, left, right = _five_points(board, n, idx, dr, dc)
    if left == NO_POINT and right == NO_POINT:
        return 0
    if left != NO_POINT and right != NO_POINT:
        return STRAIGHT_FOUR if run == 4 else 2
    return 1


# What a black stone makes in one line is decided by the ten points within
# REACH of it on that line (a run that reaches further is an overline,
# whatever lies beyond). So each line's answer is read from a table indexed
# by those ten points, in base 3 (0 empty, 1 black, 2 white or off the
# board), and built once by the per-line rules above.
REACH = 5
LINE_KEYS = 3 ** (2 * REACH)
LINE_FIVE, LINE_OVERLINE = 1, 2  # flags; then the fours (2 bits) and the straight-four points
FOURS_SHIFT, POINTS_SHIFT, OFFSET_BITS = 2, 4, 4
OFFSET_MASK = (1 << OFFSET_BITS) - 1


@cached_kernel(inline="always")
def line_key(board, n, r0, c0, dr, dc):
    """Base-3 index of the ten points within ``REACH`` of ``(r0, c0)`` along ``(dr, dc)``, far end first."""
    key = 0
    for k in range(-REACH, REACH + 1):
        if k == 0:
            continue
        r = r0 + k * dr
        c = c0 + k * dc
        key = key * 3 + (board[r * n + c] if 0 <= r < n and 0 <= c < n else WHITE)
    return key


@cached_kernel()
def _build_line_table():
    """For every ``line_key``: five, overline, how many fours, and the straight-four points.

    The line is laid on row 0 of a ``(2 * REACH + 1)``-wide board with black
    at its centre, and judged by :func:`_five_points` and
    :func:`_fours_in_line` exactly as a move is: a line with a four gets no
    straight-four points (it is not also a three). Points are offsets from
    the centre plus ``REACH + 1`` (0: none), ``OFFSET_BITS`` each.
    """
    width = 2 * REACH + 1
    board = np.full(width * width, WHITE, dtype=np.int8)
    table = np.zeros(LINE_KEYS, dtype=np.int32)
    for key in range(LINE_KEYS):
        rest = key
        for col in range(width - 1, -1, -1):
            if col == REACH:
                continue
            board[col] = rest % 3
            rest //= 3
        board[REACH] = BLACK
        run, left, right = _five_points(board, width, REACH, 0, 1)
        if run == FIVE:
            table[key] = LINE_FIVE
            continue
        if run > FIVE:
            table[key] = LINE_OVERLINE
            continue
        if left != NO_POINT or right != NO_POINT:
            # Two five-points are one straight four when they close one unbroken four.
            table[key] = (2 if left != NO_POINT and right != NO_POINT and run != 4 else 1) << FOURS_SHIFT
            continue
        # Only a stone just past either end of the centre's unbroken run can
        # make that run a straight four; no other point changes the run.
        value = 0
        shift = POINTS_SHIFT
        back = 1
        while board[REACH - back] == BLACK:
            back += 1
        fwd = 1
        while REACH + fwd < width and board[REACH + fwd] == BLACK:
            fwd += 1
        for e in (REACH - back, REACH + fwd):
            if e >= width or board[e] != EMPTY:
                continue
            board[e] = BLACK
            if _fours_in_line(board, width, REACH, 0, 1) == STRAIGHT_FOUR:
                value |= (e + 1) << shift
                shift += OFFSET_BITS
            board[e] = EMPTY
        table[key] = value
    return table


LINE_TABLE = _build_line_table()


# An explicit signature: numba's on-disk cache of a recursive function whose
# type is inferred leaves an unresolved symbol for callers compiled later.
@cached_kernel("int64(int8[::1], int64, int64, int64[::1])")
def judge(board, n, idx, trace):
    """Kind of move black makes at empty ``idx``: ``KIND_FIVE``, ``KIND_NONE`` or a forbidden kind.

    Five first (it overrides everything), then overline, two fours, and last
    two real threes; a line that holds a four is not also counted as a three.
    A three is real when one of its straight-four points judges ``KIND_NONE``
    with ``idx`` on the board: neither forbidden nor a five.

    Every point judged in the recursion is appended to ``trace``
    (``trace[0]`` counts them, ``trace[1:]`` holds as many as fit), so that
    the incremental mask knows what the answer depends on: the cells within
    ``REACH`` of ``idx`` or of a traced point, along their four lines.
    """
    r0 = idx // n
    c0 = idx - r0 * n
    fours = 0
    overline = False
    candidate_lines = 0
    v0 = v1 = v2 = v3 = 0
    for d in range(4):
        v = LINE_TABLE[line_key(board, n, r0, c0, DIRECTIONS[d, 0], DIRECTIONS[d, 1])]
        if v & LINE_FIVE:
            return KIND_FIVE
        if v & LINE_OVERLINE:
            overline = True
        fours += (v >> FOURS_SHIFT) & 3
        if v >> POINTS_SHIFT:
            candidate_lines += 1
        if d == 0:
            v0 = v
        elif d == 1:
            v1 = v
        elif d == 2:
            v2 = v
        else:
            v3 = v
    if overline:
        return KIND_OVERLINE
    if fours >= 2:
        return KIND_DOUBLE_FOUR
    if candidate_lines < 2:
        return KIND_NONE
    # Two lines or more could be threes: each is one if black may play one of
    # its straight-four points, with idx on the board, without making a five.
    board[idx] = BLACK
    threes = 0
    for d in range(4):
        v = v0 if d == 0 else v1 if d == 1 else v2 if d == 2 else v3
        points = v >> POINTS_SHIFT
        if points == 0:
            continue
        step = DIRECTIONS[d, 0] * n + DIRECTIONS[d, 1]
        while points:
            e = idx + ((points & OFFSET_MASK) - REACH - 1) * step
            points >>= OFFSET_BITS
            count = trace[0] + 1
            trace[0] = count
            if count < trace.shape[0]:
                trace[count] = e
            if judge(board, n, e, trace) == KIND_NONE:
                threes += 1
                break
        candidate_lines -= 1
        if threes >= 2 or threes + candidate_lines < 2:
            break
    board[idx] = EMPTY
    return KIND_DOUBLE_THREE if threes >= 2 else KIND_NONE


@cached_kernel()
def forbidden_kind_flat(board, n, idx):
    """Kind of forbidden move black makes at empty ``idx`` (``KIND_NONE`` if allowed)."""
    kind = judge(board, n, idx, np.zeros(1, dtype=np.int64))
    return KIND_NONE if kind == KIND_FIVE else kind


@cached_kernel()
def _candidates(board, n, out):
    """Mark in ``out`` the empty points with enough black stones near them to be forbidden.

    A necessary condition for every kind: a four or an overline needs three
    other black stones within distance 4 on one line through the point; two
    threes need two other black stones within distance 3 on each of two
    lines; in both cases with no white stone in between. Counted from the
    black stones outward, so the cost is per stone.
    """
    near4 = np.zeros((4, n * n), dtype=np.int8)
    near3 = np.zeros((4, n * n), dtype=np.int8)
    for s in range(n * n):
        if board[s] != BLACK:
            continue
        r0 = s // n
        c0 = s - r0 * n
        for d in range(4):
            dr = DIRECTIONS[d, 0]
            dc = DIRECTIONS[d, 1]
            for sign in (-1, 1):
                for k in range(1, 5):
                    r = r0 + sign * k * dr
                    c = c0 + sign * k * dc
                    # A white stone or the edge ends every pattern through s.
                    if not (0 <= r < n and 0 <= c < n) or board[r * n + c] > BLACK:
                        break
                    near4[d, r * n + c] += 1
                    if k <= 3:
                        near3[d, r * n + c] += 1
    count = 0
    for idx in range(n * n):
        out[idx] = False
        if board[idx] != EMPTY:
            continue
        lines_with_two = 0
        for d in range(4):
            if near4[d, idx] >= 3:
                lines_with_two = 2
                break
            if near3[d, idx] >= 2:
                lines_with_two += 1
        if lines_with_two >= 2:
            out[idx] = True
            count += 1
    return count


@cached_kernel()
def forbidden_mask_flat(board, n, out):
    """Fill bool ``out`` (n*n) with black's forbidden points; return how many there are."""
    _candidates(board, n, out)
    trace = np.zeros(1, dtype=np.int64)
    total = 0
    for idx in range(n * n):
        if out[idx]:
            if judge(board, n, idx, trace) > KIND_NONE:
                total += 1
            else:
                out[idx] = False
    return total


def _check_board(board: np.ndarray) -> np.ndarray:
    array = np.asarray(board)
    if array.ndim != 2 or array.shape[0] != array.shape[1]:
        raise ValueError(f"board must be a square (N, N) array, got shape {array.shape}")
    if array.shape[0] < FIVE:
        raise ValueError(f"renju needs a board of at least 5x5, got {array.shape[0]}x{array.shape[1]}")
    if not np.issubdtype(array.dtype, np.integer):
        raise TypeError(f"board must hold integers 0 (empty), 1 (black), 2 (white); got dtype {array.dtype}")
    if array.size and (array.min() < 0 or array.max() > 2):
        raise ValueError("board values must be 0 (empty), 1 (black) or 2 (white)")
    return np.ascontiguousarray(array, dtype=np.int8).ravel().copy()


def forbidden_mask(board: np.ndarray) -> np.ndarray:
    """Bool ``(N, N)``: True at the empty points where black may not play.

    ``board`` is ``(N, N)``, 0 empty, 1 black, 2 white. Whose turn it is does
    not matter: the mask is black's restriction, whoever looks at it.
    """
    flat = _check_board(board)
    n = int(np.asarray(board).shape[0])
    out = np.zeros(n * n, dtype=np.bool_)
    forbidden_mask_flat(flat, n, out)
    return out.reshape(n, n)


def forbidden_kind(board: np.ndarray, row: int, col: int) -> str | None:
    """``"overline"``, ``"double-four"``, ``"double-three"``, or None if black may play ``(row, col)``.

    None also for an occupied point (it is not a move). When several kinds
    apply the first of overline, double-four, double-three is named.
    """
    flat = _check_board(board)
    n = int(np.asarray(board).shape[0])
    if not (0 <= row < n and 0 <= col < n):
        raise ValueError(f"point ({row}, {col}) is off the {n}x{n} board")
    idx = row * n + col
    if flat[idx] != EMPTY:
        return None
    return KIND_NAMES.get(int(forbidden_kind_flat(flat, n, idx)))
