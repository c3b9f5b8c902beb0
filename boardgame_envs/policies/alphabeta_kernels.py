"""The numba kernels of :class:`~boardgame_envs.policies.alphabeta.AlphaBetaPolicy`.

Negamax with a transposition table, root scores, move ordering with forced
moves, and the continuous-four (VCF) search, on a flat ``int8`` board and the
``rules`` array of :mod:`boardgame_envs.policies.kernels`.

Every kernel has an explicit signature, so numba compiles them when this
module is imported and caches them on disk, the recursive one included
(``vcf``; ``negamax`` keeps its nodes in a table of frames instead): a recursive
kernel whose types numba infers cannot be cached (loading it back crashed,
numba 0.68), and compiling the search
afresh cost every process 5-7 s before its first move. The policy imports
this module on its first move, under a one-line notice for the one run that
compiles. The score constants live here too: numba freezes a global into the
machine code it caches, and only a change to this file invalidates that cache.
"""

from __future__ import annotations

import numpy as np

from boardgame_envs.games.kernel_cache import cached_kernel
from boardgame_envs.games.lines import BLACK, DIRECTIONS, EMPTY, opponent, reach
from boardgame_envs.policies.kernels import R_EXACT_BLACK, R_EXACT_WHITE, R_K, R_N, R_RENJU, allowed, candidates, wins

WIN = 1_000_000
INF = 10 * WIN
MATE = WIN - 1_000  # scores beyond ±MATE are wins/losses in (WIN - |score|) plies; no game is 1,000 plies long
TT_BITS = 20  # entries of the table: 2**TT_BITS (the index mask); small boards use a slice of it
EXACT, LOWER, UPPER = 0, 1, 2  # a table entry's bound: column 3, its two low bits (the colour to move above them)
SMALL_BOARD = 25  # boards up to 5x5: every legal move is a candidate (no width cut), searched to the end

# Argument types: a board, the rules array and a colour come first everywhere.
BOARD = "int8[::1], int64[::1], int64"
TABLE = "int64[:, ::1]"


@cached_kernel(f"int64({BOARD})")
def evaluate(board, rules, color):
    """Static score for ``color`` to move: its open k-windows minus the opponent's."""
    n = rules[R_N]
    k = rules[R_K]
    score = 0
    for d in range(4):
        dr = DIRECTIONS[d, 0]
        dc = DIRECTIONS[d, 1]
        for r in range(n):
            for c in range(n):
                er = r + (k - 1) * dr
                ec = c + (k - 1) * dc
                if not (0 <= er < n and 0 <= ec < n):
                    continue
                mine = 0
                theirs = 0
                for i in range(k):
                    v = board[(r + i * dr) * n + c + i * dc]
                    if v == color:
                        mine += 1
                    elif v != EMPTY:
                        theirs += 1
                if theirs == 0 and mine > 0:
                    score += 6**mine
                elif mine == 0 and theirs > 0:
                    score -= 5**theirs  # the side to move gets the tempo: its lines count a bit more
    return score


@cached_kernel(inline="always")
def order_into(board, rules, color, width, rows, r):
    """:func:`ordered_moves` into row ``r`` of ``rows``, with rows ``r + 1`` and ``r + 2`` as its scratch.

    The search gives every ply its three rows of one array allocated per
    search: nothing is allocated per node, and indexing the 2-D array (rather
    than taking a row as an array of its own) takes no reference count.
    """
    n = rules[R_N]
    k = rules[R_K]
    other = opponent(color)
    exact_black = rules[R_EXACT_BLACK] != 0  # exact_win(), read here: an inlined call takes a reference to rules
    exact_white = rules[R_EXACT_WHITE] != 0
    exact_mine = exact_black if color == BLACK else exact_white
    exact_theirs = exact_white if color == BLACK else exact_black
    renju = rules[R_RENJU] != 0
    cand = r + 1
    keys = r + 2
    if n * n <= SMALL_BOARD:
        count = 0  # every empty point: candidates() with a radius of n, inline
        for a in range(n * n):
            if board[a] == EMPTY:
                rows[cand, count] = a
                count += 1
    else:
        count = candidates(board, n, 2, rows[cand])
    blocks = 0
    threats = 0
    m = 0
    # The loop below calls no function that takes an array on the common path: numba gives
    # every array argument of a call (inlined or not) a reference, an atomic add and subtract
    # a candidate each, more than the scans below cost on a small board.
    for i in range(count):
        a = rows[cand, i]
        r0 = a // n
        c0 = a - r0 * n
        # Both colours' wins at a (wins() for each), in one walk a side: along each direction
        # the first neighbour on a side decides whose run that side can extend. A run is
        # followed k points at most, enough to tell exactly k from an overline.
        wins_mine = False
        wins_theirs = False
        for d in range(4):
            dr = DIRECTIONS[d, 0]
            dc = DIRECTIONS[d, 1]
            step = dr * n + dc  # along the line, in flat indices
            run_mine = 1
            run_theirs = 1
            for sign in (1, -1):
                room = reach(r0, c0, sign * dr, sign * dc, n, k)
                if room == 0:
                    continue
                v = board[a + sign * step]
                if v == EMPTY:
                    continue
                run = 1
                while run < room and board[a + (run + 1) * sign * step] == v:
                    run += 1
                if v == color:
                    run_mine += run
                else:
                    run_theirs += run
            if run_mine == k or (run_mine > k and not exact_mine):
                wins_mine = True
            if run_theirs == k or (run_theirs > k and not exact_theirs):
                wins_theirs = True
        mine = not (renju and color == BLACK) or allowed(board, rules, a, color)  # only black is ever refused
        if mine and wins_mine:
            rows[r, 0] = a
            return 1, 1
        if wins_theirs and (not (renju and other == BLACK) or allowed(board, rules, a, other)):
            threats += 1
            if mine:
                rows[r, blocks] = a
                blocks += 1
            continue
        if mine and threats == 0:
            rows[cand, m] = a  # a move to rank, unless a win or a threat turns up further on
            m += 1
    if threats > 0:
        return (blocks, 0) if blocks > 0 else (0, -1)
    # No win and no threat: rank the moves. Done only now, since nearly half the nodes of a
    # tic-tac-toe solve have a win or a threat to answer, found by the cheaper scan above.
    for i in range(m):
        a = rows[cand, i]
        r0 = a // n
        c0 = a - r0 * n
        # line_potential(color) + line_potential(other) at a, each point read twice at most: the
        # k-windows through a along a direction slide over the 2k - 1 points around it, each step
        # adding one point and dropping one; a window scores 8 ** m for the colour holding its
        # m stones when the other holds none (8 ** 0 for each colour when it is empty).
        total = 0
        for d in range(4):
            dr = DIRECTIONS[d, 0]
            dc = DIRECTIONS[d, 1]
            step = dr * n + dc
            back = reach(r0, c0, -dr, -dc, n, k - 1)  # points on the board behind a, up to k - 1
            ahead = reach(r0, c0, dr, dc, n, k - 1)
            if back + ahead + 1 < k:
                continue  # no k-window through a fits on the board this way
            in_mine = 0
            in_theirs = 0
            for j in range(-back, -back + k):  # the first window
                v = board[a + j * step]
                if v == color:
                    in_mine += 1
                elif v != EMPTY:
                    in_theirs += 1
            start = -back
            while True:
                if in_theirs == 0:
                    total += 8**in_mine
                if in_mine == 0:
                    total += 8**in_theirs
                if start + k - 1 >= ahead:
                    break
                v = board[a + start * step]  # leaves the window
                if v == color:
                    in_mine -= 1
                elif v != EMPTY:
                    in_theirs -= 1
                start += 1
                v = board[a + (start + k - 1) * step]  # enters it
                if v == color:
                    in_mine += 1
                elif v != EMPTY:
                    in_theirs += 1
        rows[keys, i] = -total
    take = m if (width <= 0 or n * n <= SMALL_BOARD) else min(width, m)
    # The first ``take`` of the candidates stably sorted by key (a stable sort's order, ties by
    # candidate order), by insertion: at most ``take`` kept, so O(m * take) with no allocation.
    kept = 0
    for i in range(m):
        a = rows[cand, i]
        key = rows[keys, i]
        j = kept
        while j > 0 and rows[keys, j - 1] > key:  # keys[:kept] hold the kept moves' keys, in order
            j -= 1
        if j >= take:
            continue
        last = kept if kept < take else take - 1
        for t in range(last, j, -1):
            rows[r, t] = rows[r, t - 1]
            rows[keys, t] = rows[keys, t - 1]
        rows[r, j] = a
        rows[keys, j] = key
        if kept < take:
            kept += 1
    return take, 0


@cached_kernel(f"UniTuple(int64, 2)({BOARD}, int64, int64[::1])")
def ordered_moves(board, rules, color, width, out):
    """Ordered moves for ``color``: a win alone, else forced blocks, else the best ``width``.

    Returns ``(count, status)``: status 1 if the first move wins at once,
    -1 if the opponent has a win that cannot be blocked, else 0. The order
    is the candidates' stably sorted by ``-(line_potential(color) +
    line_potential(opponent))``.
    """
    n = rules[R_N]
    rows = np.empty((3, n * n), dtype=np.int64)
    count, status = order_into(board, rules, color, width, rows, 0)
    out[:count] = rows[0, :count]
    return count, status


@cached_kernel(inline="always")
def _to_table(v, ply):
    """A score as the table keeps it: a win or loss counted in plies from this node, not from the root.

    The same position is met at different plies (and at the next move's root), so a
    distance from the root would be wrong when read back elsewhere.
    """
    if v > MATE:
        return v + ply
    if v < -MATE:
        return v - ply
    return v


@cached_kernel(inline="always")
def _from_table(v, ply):
    """The inverse of :func:`_to_table` at ``ply``."""
    if v > MATE:
        return v - ply
    if v < -MATE:
        return v + ply
    return v


# Columns of negamax's frames: one row a ply, the state of a node whose moves are being searched.
F_COLOR, F_DEPTH, F_ALPHA, F_ALPHA0, F_BETA, F_KEY, F_SLOT, F_COUNT, F_NEXT, F_BEST, F_BEST_MOVE = range(11)


@cached_kernel(f"int64({BOARD}, int64, int64, int64, int64, int64, {TABLE}, {TABLE}, int64, int64[::1], {TABLE})")
def negamax(board, rules, color, depth, alpha, beta, ply, key, zob, tt, width, budget, stack):
    """Score for ``color`` to move; ``budget[0]`` counts nodes and aborts the search at 0.

    Rows ``3 * p`` to ``3 * p + 2`` of ``stack`` are the move list of the node
    at ply ``p`` and the scratch of :func:`order_into` (allocated once per
    search, not per node).

    Alpha-beta depth first, the nodes below ``ply`` kept in a table of frames
    instead of numba's call stack: every call of a numba function takes a
    reference to each array it is given and drops it on return (an atomic
    add each, six arrays here) and passes some 60 words of arguments, which
    was about a third of a node's cost on tic-tac-toe. The nodes are visited
    in the same order, with the same windows, table reads and writes, and
    node count as a recursive negamax.
    """
    frames = np.empty((stack.shape[0] // 3, 11), dtype=np.int64)
    # The node to enter next: at ply p, with these colour, depth, window and key.
    p = ply
    c = color
    d = depth
    lo = alpha
    hi = beta
    h = key
    while True:
        # Enter it: either its value now (a leaf, a table hit, an exhausted budget) or a frame.
        budget[0] -= 1
        value = 0
        expand = False
        hit = False
        if budget[0] >= 0 and d > 0:
            # A table cut before the ordering, when the entry was stored by this very position
            # (same stones, same colour to move): that node was searched, so its ordering found
            # no win, no lost position and some move, and the probe after the ordering would
            # return this same value. Only the ordering's work is saved (a tenth of the nodes of
            # a tic-tac-toe solve).
            slot = h & (tt.shape[0] - 1)
            if tt[slot, 0] == h and tt[slot, 1] >= d and tt[slot, 3] >> 2 == c:
                v = _from_table(tt[slot, 2], p)
                flag = tt[slot, 3] & 3
                if flag == EXACT or (flag == LOWER and v >= hi) or (flag == UPPER and v <= lo):
                    value = v
                    hit = True
        if budget[0] >= 0 and not hit:
            count, status = order_into(board, rules, c, width, stack, 3 * p)
            if status == 1:
                value = WIN - p
            elif status == -1:
                value = -(WIN - p - 1)
            elif count == 0:
                value = 0  # no move at all: a full board (or black with only forbidden points)
            elif d <= 0:
                value = evaluate(board, rules, c)
            else:
                slot = h & (tt.shape[0] - 1)
                expand = True
                if tt[slot, 0] == h:
                    if tt[slot, 1] >= d:
                        v = _from_table(tt[slot, 2], p)
                        flag = tt[slot, 3] & 3
                        if flag == EXACT or (flag == LOWER and v >= hi) or (flag == UPPER and v <= lo):
                            value = v
                            expand = False
                    if expand:
                        # The stored best move first.
                        for i in range(count):
                            if stack[3 * p, i] == tt[slot, 4]:
                                stack[3 * p, 0], stack[3 * p, i] = stack[3 * p, i], stack[3 * p, 0]
                                break
                if expand:
                    frames[p, F_COLOR] = c
                    frames[p, F_DEPTH] = d
                    frames[p, F_ALPHA] = lo
                    frames[p, F_ALPHA0] = lo
                    frames[p, F_BETA] = hi
                    frames[p, F_KEY] = h
                    frames[p, F_SLOT] = slot
                    frames[p, F_COUNT] = count
                    frames[p, F_NEXT] = 0
                    frames[p, F_BEST] = -INF
                    frames[p, F_BEST_MOVE] = stack[3 * p, 0]
        if not expand:
            # Hand the value up until a node has a move left to try (then enter its child) or the top is done.
            while True:
                if p == ply:
                    return value
                p -= 1
                v = -value
                i = frames[p, F_NEXT]
                c = frames[p, F_COLOR]
                a = stack[3 * p, i]
                board[a] = EMPTY
                if v > frames[p, F_BEST]:
                    frames[p, F_BEST] = v
                    frames[p, F_BEST_MOVE] = a
                if v > frames[p, F_ALPHA]:
                    frames[p, F_ALPHA] = v
                i += 1
                if frames[p, F_ALPHA] < frames[p, F_BETA] and i < frames[p, F_COUNT]:
                    frames[p, F_NEXT] = i
                    break
                # This node is done: its best, into the table unless the budget ran out.
                value = frames[p, F_BEST]
                if budget[0] >= 0:
                    slot = frames[p, F_SLOT]
                    tt[slot, 0] = frames[p, F_KEY]
                    tt[slot, 1] = frames[p, F_DEPTH]
                    tt[slot, 2] = _to_table(value, p)
                    flag = UPPER if value <= frames[p, F_ALPHA0] else (LOWER if value >= frames[p, F_BETA] else EXACT)
                    tt[slot, 3] = flag | (frames[p, F_COLOR] << 2)  # the bound, and who was to move
                    tt[slot, 4] = frames[p, F_BEST_MOVE]
        # Play the node's next move (frames[p, F_NEXT]) and enter the child.
        c = frames[p, F_COLOR]
        a = stack[3 * p, frames[p, F_NEXT]]
        board[a] = c
        h = frames[p, F_KEY] ^ zob[c - 1, a]
        c = opponent(c)
        d = frames[p, F_DEPTH] - 1
        lo = -frames[p, F_BETA]
        hi = -frames[p, F_ALPHA]
        p += 1


@cached_kernel(f"int64[::1]({BOARD}, int64, int64, {TABLE}, {TABLE}, int64, int64[::1])")
def root_scores(board, rules, color, depth, key, zob, tt, width, budget):
    """Score of every root move, ``-INF`` for moves not searched.

    The best moves get their exact score; a worse move only an upper bound
    below the best (enough to tell it apart), from a narrow window around the
    best so far, re-searched in full when it turns out better.
    """
    n = rules[R_N]
    # By ply: the move list, then two rows of scratch for order_into; the root's are rows 0-2.
    stack = np.empty((3 * (depth + 2), n * n), dtype=np.int64)
    moves = stack[0]
    scores = np.full(n * n, -INF, dtype=np.int64)
    count, status = order_into(board, rules, color, width, stack, 0)
    if status == 1:
        scores[moves[0]] = WIN
        return scores
    if count == 0:
        return scores
    best = -INF
    for i in range(count):
        a = moves[i]
        board[a] = color
        child = key ^ zob[color - 1, a]
        if best == -INF:
            v = -negamax(board, rules, opponent(color), depth - 1, -INF, INF, 1, child, zob, tt, width, budget, stack)
        else:
            # Window (best - 1, best + 1): an exact score if it ties the best, a bound otherwise.
            v = -negamax(board, rules, opponent(color), depth - 1, -(best + 1), -(best - 1), 1, child, zob, tt, width, budget, stack)
            if v > best:
                v = -negamax(board, rules, opponent(color), depth - 1, -INF, INF, 1, child, zob, tt, width, budget, stack)
        board[a] = EMPTY
        scores[a] = v
        if v > best:
            best = v
    return scores


@cached_kernel(inline="always")
def _near_line(n, a, b, reach):
    """Whether ``b`` lies on one of the four lines through ``a``, at most ``reach`` points away."""
    dr = abs(b // n - a // n)
    dc = abs(b % n - a % n)
    return max(dr, dc) <= reach and (dr == 0 or dc == 0 or dr == dc)


@cached_kernel(f"int64({BOARD}, int64, int64[::1])")
def vcf(board, rules, color, max_fours, budget):
    """First move of a win by continuous fours for ``color``, or -1.

    Each move must make a four (a point where the next stone wins); the
    opponent must stop it, and may not win at once in between. ``budget[0]``
    is the number of positions the search may still visit (each costs a scan
    of the candidates): it is spent as the search goes, and when it runs out
    the search gives up and returns -1, as if there were no such win. Without
    it a position rich in fours (every four tried at every level, up to
    ``max_fours`` deep) can take hours; with it a search is bounded in work,
    the same on every machine.

    Both sides' winning points are found once a position. A trial stone at
    ``a`` changes whether a point wins only on the lines through ``a``, within
    ``k`` points (a new five through ``a``, or a five made an overline by it),
    so only those points are looked at again; a trial stone cannot give the
    opponent a win, and takes one only by standing on it.
    """
    if max_fours <= 0 or budget[0] <= 0:
        return -1
    budget[0] -= 1
    n = rules[R_N]
    reach = rules[R_K]
    other = opponent(color)
    cand = np.empty(n * n, dtype=np.int64)
    count = candidates(board, n, 2, cand)
    in_cand = np.zeros(n * n, dtype=np.bool_)
    own = np.empty(count, dtype=np.int64)  # where color wins now
    theirs = np.empty(count, dtype=np.int64)  # where the opponent wins now
    n_own = 0
    n_theirs = 0
    for j in range(count):
        b = cand[j]
        in_cand[b] = True
        if board[b] == EMPTY:
            if wins(board, rules, b, color):
                own[n_own] = b
                n_own += 1
            if allowed(board, rules, b, other) and wins(board, rules, b, other):
                theirs[n_theirs] = b
                n_theirs += 1
    for i in range(count):
        a = cand[i]
        if not allowed(board, rules, a, color):
            continue
        board[a] = color
        # Where would color win next? The opponent must stop every such point.
        wins_at = -1
        many = False
        for j in range(n_own):  # winning points off a's lines are unchanged
            b = own[j]
            if b != a and not _near_line(n, a, b, reach):
                if wins_at >= 0:
                    many = True
                    break
                wins_at = b
        ar = a // n
        ac = a % n
        for d in range(4):
            if many:
                break
            for sign in (-1, 1):
                if many:
                    break
                dr = sign * DIRECTIONS[d, 0]
                dc = sign * DIRECTIONS[d, 1]
                for step in range(1, reach + 1):
                    r = ar + dr * step
                    c = ac + dc * step
                    if r < 0 or r >= n or c < 0 or c >= n:
                        break
                    b = r * n + c
                    if in_cand[b] and board[b] == EMPTY and wins(board, rules, b, color):
                        if wins_at >= 0:
                            many = True
                            break
                        wins_at = b
        result = -1
        if wins_at >= 0:
            opp_wins = False
            for j in range(n_theirs):
                if theirs[j] != a:
                    opp_wins = True
                    break
            if not opp_wins:
                if many or not allowed(board, rules, wins_at, other):
                    result = a
                else:
                    board[wins_at] = other
                    if vcf(board, rules, color, max_fours - 1, budget) >= 0:
                        result = a
                    board[wins_at] = EMPTY
        board[a] = EMPTY
        if result >= 0:
            return result
        if budget[0] <= 0:
            return -1  # out of budget: what is left unsearched may hold a win, but we stop here
    return -1
