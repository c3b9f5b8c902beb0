"""The connect-four solver's search: negamax with alpha-beta over exact scores, and the root that narrows it.

Scores (Pons's convention, which the published test sets use): a position's
score is for its player to move; ``0`` a draw; a win is positive and a loss
negative, ``22 - s`` in absolute value where ``s`` is how many pieces the winner
has on the board when its four is complete (so a sooner win scores higher, and
a win with the last of the 21 pieces scores 1). From a position after ``n``
moves the score lies in ``-(42 - n) // 2 .. (43 - n) // 2``.

:func:`negamax` is fail-hard alpha-beta on a position where the player to move
cannot win at once (its caller checked), using that fact to bound the score
before searching: only moves that do not lose at once are tried
(:func:`~boardgame_envs.games.connect_four_bitboard.safe_moves`), threats first
(:mod:`connect_four_sorter`), and bounds found are kept in the table
(:mod:`connect_four_table`). :func:`solve` asks it yes/no questions
("is the score above m?") with null windows, halving the interval the score can
lie in each time; it tries the interval's quarter points first, which answers
fast wins and fast losses first (an iterative deepening on the game's length).

``stats`` is ``[nodes, node_limit, stopped]``: once the nodes searched pass the
limit, the search sets ``stopped`` and unwinds storing nothing, and the caller
must discard its answer. Invariant: every bound stored is true.
"""

from __future__ import annotations

import numpy as np

from boardgame_envs.games.connect_four_bitboard import CELLS, can_win_now, safe_moves
from boardgame_envs.games.connect_four_sorter import order_moves
from boardgame_envs.games.connect_four_table import NO_LOWER, NO_UPPER, lookup, store
from boardgame_envs.games.kernel_cache import cached_kernel

NODES, LIMIT, STOPPED = 0, 1, 2  # the slots of ``stats``
SIGNATURE = ("int64(uint64, uint64, int64, int64, int64, uint64[::1], int8[::1], int8[::1], uint64[:, ::1], "
             "int64[::1])")  # fmt: skip


@cached_kernel(SIGNATURE)
def negamax(current, mask, moves, alpha, beta, keys, lower, upper, order, stats):
    """The score of the position (``moves`` pieces played) if inside ``(alpha, beta)``, else a bound on that side.

    The player to move must not be able to win at once, and the game must not
    be over. ``order`` has a row per depth for the move sorter.
    """
    stats[NODES] += 1
    if stats[NODES] > stats[LIMIT]:
        stats[STOPPED] = 1
        return 0
    safe = safe_moves(current, mask)
    if safe == np.uint64(0):  # every move lets the opponent win with its next piece
        return -((CELLS - moves) // 2)
    if moves >= CELLS - 2:  # the mover's piece and the opponent's last one: neither can make four
        return 0
    # Neither side wins with its next piece, so the opponent wins no sooner than its second.
    low = -((CELLS - 2 - moves) // 2)
    if alpha < low:
        alpha = low
        if alpha >= beta:
            return alpha
    high = (CELLS - 1 - moves) // 2  # the mover cannot win with this piece
    key = current + mask
    known_low, known_high = lookup(keys, lower, upper, key)
    if known_high < high:
        high = known_high
    if beta > high:
        beta = high
        if alpha >= beta:
            return beta
    if known_low > alpha:
        alpha = known_low
        if alpha >= beta:
            return alpha
    start = alpha
    row = order[moves]
    n = order_moves(current, mask, safe, row)
    for i in range(n):
        move = row[i]
        score = -negamax(current ^ mask, mask | move, moves + 1, -beta, -alpha, keys, lower, upper, order, stats)
        if stats[STOPPED]:
            return 0
        if score >= beta:
            store(keys, lower, upper, key, score, NO_UPPER)
            return score
        if score > alpha:
            alpha = score
    if alpha > start:  # a move scored strictly inside the window: the exact score
        store(keys, lower, upper, key, alpha, alpha)
    else:
        store(keys, lower, upper, key, NO_LOWER, alpha)
    return alpha


@cached_kernel("int64(uint64, uint64, int64, int64, int64, uint64[::1], int8[::1], int8[::1], uint64[:, ::1], int64[::1])")
def solve(current, mask, moves, lo, hi, keys, lower, upper, order, stats):
    """The score of a live position, clamped to ``lo .. hi``: the exact score with the widest bounds,
    only its sign (win, draw or loss) with ``lo, hi = -1, 1``.

    The player to move's score lies in ``lo .. hi``; each round asks one null
    window and moves one end of the interval to the answer.
    """
    if can_win_now(current, mask):
        return min(hi, (CELLS + 1 - moves) // 2)
    lo = max(lo, -((CELLS - moves) // 2))
    hi = min(hi, (CELLS + 1 - moves) // 2)
    first, last = lo, hi
    while lo < hi:
        mid = lo + (hi - lo) // 2
        # Ask near the ends first: a short win or loss is proved in a shallow search.
        if mid <= 0 and -((-lo) // 2) < mid:
            mid = -((-lo) // 2)
        elif mid >= 0 and hi // 2 > mid:
            mid = hi // 2
        r = negamax(current, mask, moves, mid, mid + 1, keys, lower, upper, order, stats)
        if stats[STOPPED]:
            return 0
        if r <= mid:
            hi = r
        else:
            lo = r
    # A bound may pass a clamped end (a win of 9 when asked only for the sign): it reads as that end.
    if lo > last:
        return last
    if hi < first:
        return first
    return lo
