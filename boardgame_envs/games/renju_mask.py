"""Black's forbidden points kept up to date move by move, exactly (renju).

:func:`~boardgame_envs.games.renju.judge` decides a point ``p`` from one
table value per line through it (five, overline, fours, straight-four
points), each a function of the points within ``REACH`` of ``p`` on that
line; it recurses (judging straight-four points with ``p`` placed) only
when two lines could be threes. This module keeps those per-line values
for every empty point, and after a move ``m`` it recomputes only what ``m``
can change:

* the value of line ``d`` of a point ``p`` on ``m``'s line ``d``, when the
  rules read ``m`` for it: the per-line rules read from ``p`` up to its
  third non-black point, never past a white stone or the edge, so ``m``
  (empty until now) counts only if at most two empty points and no white
  stone lie between ``p`` and ``m``;
* the decision of every such ``p``, and of every point whose last recursion
  judged a point within ``REACH`` of ``m`` on one of that point's lines
  ("links": the recursion reads nothing else).

``tests/games/test_renju_mask.py`` checks the result against
:func:`~boardgame_envs.games.renju.forbidden_mask_flat` after every move of
many games. The state is two arrays, which a game state copies when it is
cloned: the bool mask and an ``int32`` ``info`` array holding
``info[COUNT]`` (forbidden points), ``info[LINKS]`` (links), ``info[OVERFLOW]``
(set when the links did not fit: every update then rebuilds everything),
the line values ``info[VALUES + 4 * p + d]``, and the links as pairs
``(point, judged point)``; a judged point ``ANY_POINT`` stands for more than
``TRACE`` of them, and makes its point be decided again after every move.
"""

from __future__ import annotations

import numpy as np

from boardgame_envs.games.kernel_cache import cached_kernel
from boardgame_envs.games.lines import BLACK, DIRECTIONS, EMPTY, WHITE, reach
from boardgame_envs.games.renju import (
    FOURS_SHIFT,
    KIND_NONE,
    LINE_FIVE,
    LINE_OVERLINE,
    LINE_TABLE,
    POINTS_SHIFT,
    REACH,
    judge,
    line_key,
)

COUNT, LINKS, OVERFLOW, VALUES = 0, 1, 2, 3
TRACE = 64  # judged points listed per decision; more and the point is decided after every move
LINKS_PER_POINT = 8  # room for links, per point of the board
ANY_POINT = -1
POW_REACH = 3**REACH  # a base-3 code of REACH points is below this


def new_info(n: int) -> np.ndarray:
    """An ``info`` array for an ``n x n`` board, to be filled by :func:`rebuild`."""
    return np.zeros(VALUES + 4 * n * n + 2 * LINKS_PER_POINT * n * n, dtype=np.int32)


@cached_kernel(inline="always")
def _first_link(n):
    return VALUES + 4 * n * n


@cached_kernel()
def _add_links(p, n, info, trace):
    """Store the points ``trace`` lists as links of ``p``."""
    count = trace[0]
    links = info[LINKS]
    first = _first_link(n)
    room = (info.shape[0] - first) // 2
    if count >= trace.shape[0]:  # too many to list: decide p after every move
        if links == room:
            info[OVERFLOW] = 1
            return
        info[first + 2 * links] = p
        info[first + 2 * links + 1] = ANY_POINT
        info[LINKS] = links + 1
        return
    start = links
    for i in range(1, count + 1):
        q = trace[i]
        seen = False
        for j in range(start, links):
            if info[first + 2 * j + 1] == q:
                seen = True
                break
        if seen:
            continue
        if links == room:
            info[OVERFLOW] = 1
            break
        info[first + 2 * links] = p
        info[first + 2 * links + 1] = q
        links += 1
    info[LINKS] = links


@cached_kernel()
def _decide(board, n, p, info, trace):
    """Whether black may not play empty ``p``, from its four line values (judging only a possible double-three)."""
    base = VALUES + 4 * p
    fours = 0
    candidate_lines = 0
    overline = False
    for d in range(4):
        v = info[base + d]
        if v & LINE_FIVE:
            return False
        if v & LINE_OVERLINE:
            overline = True
        fours += (v >> FOURS_SHIFT) & 3
        if v >> POINTS_SHIFT:
            candidate_lines += 1
    if overline or fours >= 2:
        return True
    if candidate_lines < 2:
        return False
    trace[0] = 0
    forbidden = judge(board, n, p, trace) > KIND_NONE
    if trace[0]:
        _add_links(p, n, info, trace)
    return forbidden


# Explicit signatures: these compile on import (with the renju kernel, under
# its compile notice), not silently in the middle of a first game.
@cached_kernel("int64(int8[::1], int64, boolean[::1], int32[::1])")
def rebuild(board, n, forbidden, info):
    """Fill ``forbidden`` and ``info`` for ``board`` from scratch; return the number forbidden."""
    info[LINKS] = 0
    info[OVERFLOW] = 0
    trace = np.empty(TRACE + 1, dtype=np.int64)
    total = 0
    for p in range(n * n):
        forbidden[p] = False
        if board[p] != EMPTY:
            continue
        r0 = p // n
        c0 = p - r0 * n
        for d in range(4):
            info[VALUES + 4 * p + d] = LINE_TABLE[line_key(board, n, r0, c0, DIRECTIONS[d, 0], DIRECTIONS[d, 1])]
        if _decide(board, n, p, info, trace):
            forbidden[p] = True
            total += 1
    info[COUNT] = total
    return total


@cached_kernel(inline="always")
def _within_reach(a, b, n):
    """Whether points ``a`` and ``b`` share a line and lie at most ``REACH`` apart on it."""
    ra = a // n
    rb = b // n
    dr = abs(ra - rb)
    dc = abs((a - ra * n) - (b - rb * n))
    return (dr == 0 or dc == 0 or dr == dc) and max(dr, dc) <= REACH


@cached_kernel("int64(int8[::1], int64, int64, boolean[::1], int32[::1])")
def update(board, n, move, forbidden, info):
    """Bring ``forbidden`` and ``info`` up to date after a stone (either colour) was put on ``move``.

    Returns the number of forbidden points.
    """
    if info[OVERFLOW]:
        return rebuild(board, n, forbidden, info)
    links = info[LINKS]
    first = _first_link(n)
    todo = np.empty(4 * 2 * 3 + links, dtype=np.int64)
    # The line through the move, 2 * REACH points each way (off the board: white, as line_key reads
    # it), as base-3 prefix codes: ``codes[i]`` is the code of the line's first ``i`` points. The key
    # line_key gives a point is then the code of the REACH points before it times 3 ** REACH plus
    # that of the REACH after it, two differences of prefix codes: the line is read once a direction,
    # not ten points for every point decided again.
    codes = np.empty(4 * REACH + 2, dtype=np.int64)
    marked = np.zeros(n * n, dtype=np.bool_)
    marked[move] = True
    size = 0
    rm = move // n
    cm = move - rm * n
    span = 2 * REACH
    for d in range(4):
        dr = DIRECTIONS[d, 0]
        dc = DIRECTIONS[d, 1]
        # The offsets t in -span..span whose point is on the board: lo..hi (the rest reads as white).
        lo = -reach(rm, cm, -dr, -dc, n, span)
        hi = reach(rm, cm, dr, dc, n, span)
        step = dr * n + dc
        code = 0
        codes[0] = 0
        for i in range(2 * span + 1):
            t = i - span
            code = code * 3 + (board[move + t * step] if lo <= t <= hi else WHITE)
            codes[i + 1] = code
        for sign in (-1, 1):
            empties = 0
            for k in range(1, REACH + 1):
                r = rm + sign * k * dr
                c = cm + sign * k * dc
                if not (0 <= r < n and 0 <= c < n):
                    break
                p = r * n + c
                v = board[p]
                if v == BLACK:
                    continue
                if v != EMPTY:
                    break  # white: the rules read nothing past it
                i = span + sign * k  # p's place on the line: codes[i] codes the points before it
                before = codes[i] - codes[i - REACH] * POW_REACH
                after = codes[i + 1 + REACH] - codes[i + 1] * POW_REACH
                info[VALUES + 4 * p + d] = LINE_TABLE[before * POW_REACH + after]
                if not marked[p]:
                    marked[p] = True
                    todo[size] = p
                    size += 1
                empties += 1
                if empties == 3:
                    break
    for i in range(links):
        p = info[first + 2 * i]
        q = info[first + 2 * i + 1]
        if not marked[p] and (q == ANY_POINT or _within_reach(q, move, n)):
            marked[p] = True
            todo[size] = p
            size += 1
    # Links of the points decided again are made anew; the move's point has none now.
    kept = 0
    for i in range(links):
        p = info[first + 2 * i]
        if not marked[p]:
            info[first + 2 * kept] = p
            info[first + 2 * kept + 1] = info[first + 2 * i + 1]
            kept += 1
    info[LINKS] = kept
    count = info[COUNT]
    if forbidden[move]:
        forbidden[move] = False
        count -= 1
    trace = np.empty(TRACE + 1, dtype=np.int64)
    for i in range(size):
        p = todo[i]
        now = _decide(board, n, p, info, trace)
        if now != forbidden[p]:
            forbidden[p] = now
            count += 1 if now else -1
    info[COUNT] = count
    return count
