"""The connect-four solver's move ordering: the moves most likely to cut first.

A search that meets the best move first cuts the rest of a node's moves at once;
in connect four the best moves are mostly those that make threats. So a node's
safe moves are tried by how many cells the mover would then threaten to win at
(more first), and among equals by column, centre first (a centre piece lies on
more lines). The order is written into the row of a buffer that belongs to the
node's depth, so the recursion allocates nothing. Invariant: the row holds each
safe move exactly once.
"""

from __future__ import annotations

import numpy as np

from boardgame_envs.games.connect_four_bitboard import CENTRE_FIRST, column_cells, move_threats
from boardgame_envs.games.kernel_cache import cached_kernel


@cached_kernel(inline="always")
def order_moves(current, mask, moves, row):
    """Write the cells of ``moves`` (one per column at most) into ``row``, best first; return how many.

    Insertion sort on at most seven entries, each placed after those that
    score as high, so ties keep the centre-first order they were met in.
    """
    scores = np.empty(row.shape[0], dtype=np.int64)
    n = 0
    for c in CENTRE_FIRST:
        move = moves & column_cells(c)
        if move == np.uint64(0):
            continue
        score = np.int64(move_threats(current, mask, move))
        i = n
        while i > 0 and scores[i - 1] < score:
            row[i] = row[i - 1]
            scores[i] = scores[i - 1]
            i -= 1
        row[i] = move
        scores[i] = score
        n += 1
    return n
