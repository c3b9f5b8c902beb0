"""The numba kernel of the exact solver (:mod:`boardgame_envs.games.solver`): alpha-beta over -1/0/+1.

The search works on k-windows (every line of k cells), so it decides freestyle
k-in-a-row (a line of k or more wins). Its only cuts are rules of the game:

* a side to move with k-1 stones in a window the opponent has not touched wins
  at once (its last cell is empty: the game would have ended otherwise);
* a side facing two such opponent windows with different empty cells loses, and
  facing one it must block there (any other move loses at once);
* an empty cell in no window that either side can still fill is never played: a
  stone there changes nothing, and by the extra-stone argument behind strategy
  stealing a stone in a live cell is never worse than that pass;
* a position where no window can be filled by either side is a draw.

Positions are cached by a 64-bit Zobrist key in a table of lower and upper bounds.
Both kernels have explicit signatures, so numba compiles them when this module is
first imported and caches them on disk, the recursive one included.
"""

from __future__ import annotations

import numpy as np

from boardgame_envs.games.kernel_cache import cached_kernel


@cached_kernel("int64(int64, int64)")
def order_weight(own, other):
    # Prefer cells that extend our open windows (steeply by count) and block the opponent's.
    if other == 0:
        return 1 << (3 * own)
    if own == 0:
        return 1 << (3 * other - 1)
    return 0


@cached_kernel("int64(int64, int64, int64, int64, int8[::1], int64[:, ::1], int64[:, ::1], int64[:, ::1], int64, "
    "int64[:, ::1], int64[::1], int64[::1], int8[::1], int8[::1], int8[::1], int64[::1])")
def negamax(side, alpha, beta, stones, board, count, win, cwin, k, zob, key, tt_key, tt_lo, tt_hi, tt_move, nodes):
    """Value of the position for ``side`` (0 first player, 1 second) to move, fail-soft in (alpha, beta).

    ``count[s, w]`` is side ``s``'s stones in window ``w``; ``key`` the position's Zobrist
    key (updated in place and restored); the ``tt_*`` arrays are the bounds table.
    """
    nodes[0] += 1
    cells = board.shape[0]
    other = 1 - side
    if stones == cells:
        return 0
    # Immediate win, then forced block (or two threats: lost), and whether any window is still live.
    live = False
    for w in range(win.shape[0]):
        if count[other, w] == 0:
            live = True
            if count[side, w] == k - 1:
                return 1
        elif count[side, w] == 0:
            live = True
    if not live:
        return 0
    block = -1
    for w in range(win.shape[0]):
        if count[side, w] == 0 and count[other, w] == k - 1:
            for i in range(k):
                cell = win[w, i]
                if board[cell] == 0:
                    if block >= 0 and block != cell:
                        return -1
                    block = cell
    slot = key[0] & (tt_key.shape[0] - 1)
    lo, hi = -1, 1
    best_move = -1
    if tt_key[slot] == key[0]:
        lo, hi, best_move = tt_lo[slot], tt_hi[slot], tt_move[slot]
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
    alpha0 = alpha
    # Candidate moves: the forced block, else every empty cell in a live window, best first.
    moves = np.empty(cells, dtype=np.int64)
    scores = np.empty(cells, dtype=np.int64)
    n = 0
    if block >= 0:
        moves[0] = block
        scores[0] = 0
        n = 1
    else:
        for cell in range(cells):
            if board[cell] != 0:
                continue
            s = 0
            for j in range(cwin.shape[1]):
                w = cwin[cell, j]
                if w < 0:
                    break
                s += order_weight(count[side, w], count[other, w])
            if s > 0:
                if cell == best_move:
                    s = 1 << 60
                moves[n] = cell
                scores[n] = s
                n += 1
        if n == 0:
            return 0
        order = np.argsort(-scores[:n])
        moves[:n] = moves[:n][order]
    best = -2
    chosen = -1
    for i in range(n):
        cell = moves[i]
        board[cell] = side + 1
        key[0] ^= zob[side, cell]
        for j in range(cwin.shape[1]):
            w = cwin[cell, j]
            if w < 0:
                break
            count[side, w] += 1
        value = -negamax(other, -beta, -alpha, stones + 1, board, count, win, cwin, k, zob, key,
                          tt_key, tt_lo, tt_hi, tt_move, nodes)
        for j in range(cwin.shape[1]):
            w = cwin[cell, j]
            if w < 0:
                break
            count[side, w] -= 1
        key[0] ^= zob[side, cell]
        board[cell] = 0
        if value > best:
            best, chosen = value, cell
        if best > alpha:
            alpha = best
        if alpha >= beta:
            break
    # Store what this search proved: an exact value, or a bound when the window cut it short.
    new_lo, new_hi = lo, hi
    if best >= beta:
        new_lo = max(lo, best)
    elif best <= alpha0:
        new_hi = min(hi, best)
    else:
        new_lo, new_hi = best, best
    tt_key[slot] = key[0]
    tt_lo[slot] = new_lo
    tt_hi[slot] = new_hi
    tt_move[slot] = chosen
    return best
