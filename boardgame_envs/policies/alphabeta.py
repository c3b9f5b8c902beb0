"""Alpha-beta search: negamax, iterative deepening, Zobrist transposition table, threat search.

On tic-tac-toe the search is full-width to the end of the game, so it plays
perfectly; among moves of equal value it picks with its seeded RNG. On
gomoku boards the root first takes an immediate win, blocks the opponent's
immediate win, and plays a winning continuous-four sequence (VCF) if one
exists; otherwise it searches the best-looking candidates near the stones,
deepening while its node budget lasts, and scores leaves by counting, for each
colour, the k-windows that hold only its stones (more stones, more score).
Under renju black never considers a forbidden point, and a four that black
could only stop on a forbidden point counts as unstoppable.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from numba import njit

from boardgame_envs.games.lines import DIRECTIONS, EMPTY
from boardgame_envs.policies.base import check_positive, check_positive_int, game_state_of, random_argmax
from boardgame_envs.policies.kernels import R_K, R_N, allowed, candidates, line_potential, rules_of, wins

WIN = 1_000_000
INF = 10 * WIN
MATE = WIN - 1_000  # scores beyond ±MATE are wins/losses in (WIN - |score|) plies; no game is 1,000 plies long
TT_BITS = 20  # entries of the table: 2**TT_BITS (the index mask); small boards use a slice of it
EXACT, LOWER, UPPER = 0, 1, 2
SMALL_BOARD = 25  # boards up to 5x5 are searched full-width, all moves, no pruning


@njit(cache=True)
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


@njit(cache=True)
def _moves(board, rules, color, width, out):
    """Ordered moves for ``color``: a win alone, else forced blocks, else the best ``width``.

    Returns ``(count, status)``: status 1 if the first move wins at once,
    -1 if the opponent has a win that cannot be blocked, else 0.
    """
    n = rules[R_N]
    radius = n if n * n <= SMALL_BOARD else 2
    cand = np.empty(n * n, dtype=np.int64)
    count = candidates(board, n, radius, cand)
    blocks = 0
    threats = 0
    keys = np.empty(count, dtype=np.int64)
    m = 0
    for i in range(count):
        a = cand[i]
        mine = allowed(board, rules, a, color)
        if mine and wins(board, rules, a, color):
            out[0] = a
            return 1, 1
        if wins(board, rules, a, 3 - color) and allowed(board, rules, a, 3 - color):
            threats += 1
            if mine:
                out[blocks] = a
                blocks += 1
            continue
        if mine and threats == 0:
            cand[m] = a
            keys[m] = -(line_potential(board, n, rules[R_K], a, color) + line_potential(board, n, rules[R_K], a, 3 - color))
            m += 1
    if threats > 0:
        return (blocks, 0) if blocks > 0 else (0, -1)
    order = np.argsort(keys[:m], kind="mergesort")
    take = m if (width <= 0 or n * n <= SMALL_BOARD) else min(width, m)
    for i in range(take):
        out[i] = cand[order[i]]
    return take, 0


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def _from_table(v, ply):
    """The inverse of :func:`_to_table` at ``ply``."""
    if v > MATE:
        return v - ply
    if v < -MATE:
        return v + ply
    return v


# The recursive kernels are not cached: numba's on-disk cache of a recursive
# function crashed when loaded back here (numba 0.68). They compile once per
# process in _warm_up, in about two seconds.
@njit(cache=False)
def _negamax(board, rules, color, depth, alpha, beta, ply, key, zob, tt, width, budget, stack):
    """Score for ``color`` to move; ``budget[0]`` counts nodes and aborts the search at 0.

    ``stack[ply]`` is this node's move list (allocated once per search, not per node).
    """
    budget[0] -= 1
    if budget[0] < 0:
        return 0
    moves = stack[ply]
    count, status = _moves(board, rules, color, width, moves)
    if status == 1:
        return WIN - ply
    if status == -1:
        return -(WIN - ply - 1)
    if count == 0:
        return 0  # no move at all: a full board (or black with only forbidden points)
    if depth <= 0:
        return evaluate(board, rules, color)
    slot = key & (tt.shape[0] - 1)
    alpha0 = alpha
    if tt[slot, 0] == key and tt[slot, 1] >= depth:
        v = _from_table(tt[slot, 2], ply)
        flag = tt[slot, 3]
        if flag == EXACT:
            return v
        if flag == LOWER and v >= beta:
            return v
        if flag == UPPER and v <= alpha:
            return v
    if tt[slot, 0] == key:
        # The stored best move first.
        for i in range(count):
            if moves[i] == tt[slot, 4]:
                moves[0], moves[i] = moves[i], moves[0]
                break
    best = -INF
    best_move = moves[0]
    for i in range(count):
        a = moves[i]
        board[a] = color
        v = -_negamax(board, rules, 3 - color, depth - 1, -beta, -alpha, ply + 1,
                      key ^ zob[color - 1, a], zob, tt, width, budget, stack)  # fmt: skip
        board[a] = EMPTY
        if v > best:
            best = v
            best_move = a
        if v > alpha:
            alpha = v
        if alpha >= beta:
            break
    if budget[0] >= 0:
        tt[slot, 0] = key
        tt[slot, 1] = depth
        tt[slot, 2] = _to_table(best, ply)
        tt[slot, 3] = UPPER if best <= alpha0 else (LOWER if best >= beta else EXACT)
        tt[slot, 4] = best_move
    return best


@njit(cache=False)
def _root(board, rules, color, depth, key, zob, tt, width, budget):
    """Score of every root move, ``-INF`` for moves not searched.

    The best moves get their exact score; a worse move only an upper bound
    below the best (enough to tell it apart), from a narrow window around the
    best so far, re-searched in full when it turns out better.
    """
    n = rules[R_N]
    stack = np.empty((depth + 2, n * n), dtype=np.int64)  # move lists by ply; row 0 is the root's
    moves = stack[0]
    scores = np.full(n * n, -INF, dtype=np.int64)
    count, status = _moves(board, rules, color, width, moves)
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
            v = -_negamax(board, rules, 3 - color, depth - 1, -INF, INF, 1, child, zob, tt, width, budget, stack)
        else:
            # Window (best - 1, best + 1): an exact score if it ties the best, a bound otherwise.
            v = -_negamax(board, rules, 3 - color, depth - 1, -(best + 1), -(best - 1), 1, child, zob, tt, width, budget, stack)
            if v > best:
                v = -_negamax(board, rules, 3 - color, depth - 1, -INF, INF, 1, child, zob, tt, width, budget, stack)
        board[a] = EMPTY
        scores[a] = v
        if v > best:
            best = v
    return scores


@njit(cache=False)
def vcf(board, rules, color, max_fours):
    """First move of a win by continuous fours for ``color``, or -1.

    Each move must make a four (a point where the next stone wins); the
    opponent must stop it, and may not win at once in between.
    """
    if max_fours <= 0:
        return -1
    n = rules[R_N]
    cand = np.empty(n * n, dtype=np.int64)
    count = candidates(board, n, 2, cand)
    for i in range(count):
        a = cand[i]
        if not allowed(board, rules, a, color):
            continue
        board[a] = color
        # Where would color win next? The opponent must stop every such point.
        wins_at = -1
        many = False
        for j in range(count):
            b = cand[j]
            if board[b] == EMPTY and wins(board, rules, b, color):
                if wins_at >= 0:
                    many = True
                    break
                wins_at = b
        result = -1
        if wins_at >= 0:
            opp_wins = False
            for j in range(count):
                b = cand[j]
                if board[b] == EMPTY and allowed(board, rules, b, 3 - color) and wins(board, rules, b, 3 - color):
                    opp_wins = True
                    break
            if not opp_wins:
                if many or not allowed(board, rules, wins_at, 3 - color):
                    result = a
                else:
                    board[wins_at] = 3 - color
                    if vcf(board, rules, color, max_fours - 1) >= 0:
                        result = a
                    board[wins_at] = EMPTY
        board[a] = EMPTY
        if result >= 0:
            return result
    return -1


_compiled = False


def _warm_up() -> None:
    """Compile (or load) the search kernels once per process, outside any time limit."""
    global _compiled
    if not _compiled:
        board = np.zeros(9, dtype=np.int8)
        rules = np.array([3, 3, 0, 0, 0], dtype=np.int64)
        zob = np.ones((2, 9), dtype=np.int64)
        _root(board, rules, 1, 1, 0, zob, np.zeros((16, 5), dtype=np.int64), 10, np.array([100]))
        vcf(board, rules, 1, 1)
        _compiled = True


SMALL_BOARD_NODES = 2_000_000  # the one full-depth search on boards up to 5x5 (tic-tac-toe needs a few thousand)
DEFAULT_NODES = 4_000  # per move: on the development machine, about what 0.5 s of search reached (depth 5, now and then 6)


class AlphaBetaPolicy:
    """Negamax alpha-beta with iterative deepening, a transposition table and threat search.

    The default budget counts nodes, not seconds, so the default player makes the
    same moves on every machine (under the same ``seed``).

    Args:
        depth: maximum search depth in plies (default: the whole game on boards
            up to 5x5, 6 on larger ones).
        nodes: node budget per move on boards larger than 5x5 (default
            :data:`DEFAULT_NODES`; boards up to 5x5 get :data:`SMALL_BOARD_NODES`
            whatever the number, ``None`` lifts the limit everywhere). Deepening stops when the
            next iteration would not fit (it is predicted to cost 4 times the last)
            or when an iteration runs out, which is then discarded.
        time_limit: seconds per move (default ``None``), applied the same way;
            machine-dependent: the same settings play differently on a faster machine.
        width: candidate moves kept per node on large boards (best first).
        seed: breaks ties between equally good moves.
    """

    name = "alphabeta"

    def __init__(
        self, depth: int | None = None, nodes: int | None = DEFAULT_NODES, time_limit: float | None = None,
        width: int = 10, seed: int | None = None,
    ) -> None:  # fmt: skip
        check_positive_int("depth", depth, allow_none=True)
        check_positive_int("nodes", nodes, allow_none=True)
        check_positive("time_limit", time_limit, allow_none=True)
        check_positive_int("width", width)
        self.depth = None if depth is None else int(depth)
        self.nodes = None if nodes is None else int(nodes)
        self.time_limit = time_limit
        self.width = int(width)
        self.rng = np.random.default_rng(seed)
        # One table per game: the same board under other rules (or another k) has other values.
        self._tables: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray]] = {}
        self.last_depth = 0

    def _table(self, rules: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        game = tuple(int(x) for x in rules)
        if game not in self._tables:
            cells = game[R_N] * game[R_N]
            zob = np.random.default_rng(cells).integers(1, 2**62, size=(2, cells), dtype=np.int64)
            bits = 14 if cells <= SMALL_BOARD else TT_BITS
            self._tables[game] = (zob, np.zeros((1 << bits, 5), dtype=np.int64))
        return self._tables[game]

    def act(self, env: Any) -> int:
        state = game_state_of(env)
        n = state.game.size
        if n * n > SMALL_BOARD:
            rules = rules_of(state)
            board = state.board.copy()
            first = np.empty(n * n, dtype=np.int64)
            count, status = _moves(board, rules, state.to_move, self.width, first)
            if status == 1:
                return int(first[0])  # a five now beats any longer plan
            found = vcf(board, rules, state.to_move, 12)
            if found >= 0:
                return int(found)
        scores = self._search(state)
        if scores.max() <= -INF:
            legal = state.legal_actions()
            return int(legal[self.rng.integers(len(legal))])
        return random_argmax(scores, self.rng)

    def move_scores(self, env: Any) -> np.ndarray:
        """The root scores ``(n*n,)`` int64 of the search :meth:`act` runs, for analysis.

        From the side to move: ``WIN - p`` for a win in ``p`` plies, ``-(WIN - p)``
        for a loss in ``p`` plies (``WIN`` is :data:`WIN`), heuristic values in
        between, ``-INF`` for moves not searched (illegal, or cut by ``width``).
        The best moves' scores are exact; any other move's is an upper bound
        below the best, so a score at or below ``-(WIN - depth)`` proves a loss
        while a higher one does not prove the move safe. Unlike :meth:`act`,
        no shortcut for an immediate win or a forced win by fours comes first.
        """
        return self._search(game_state_of(env))

    def _search(self, state: Any) -> np.ndarray:
        """Iterative deepening to ``depth`` within ``time_limit``: the deepest complete iteration's root scores."""
        rules = rules_of(state)
        board = state.board.copy()
        color = state.to_move
        n = state.game.size
        empties = int((board == EMPTY).sum())
        small = n * n <= SMALL_BOARD
        max_depth = self.depth or (empties if small else 6)
        _warm_up()  # compile before the clock starts, or the first move would stop at depth 1
        zob, tt = self._table(rules)
        key = 0
        for a in np.flatnonzero(board):
            key ^= int(zob[board[a] - 1, a])
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        # Boards up to 5x5 are solved outright (deepening would only repeat work), within a larger budget.
        nodes_left = None if self.nodes is None else (SMALL_BOARD_NODES if small else self.nodes)
        best_scores = np.full(n * n, -INF, dtype=np.int64)
        for depth in range(max_depth if small else 1, max_depth + 1):
            started = time.perf_counter()
            cap = 2_000_000 if deadline is not None else 10**9  # a time-limited iteration still has a node cap
            budget = np.array([cap if nodes_left is None else min(cap, nodes_left)], dtype=np.int64)
            scores = _root(board, rules, color, depth, key, zob, tt, self.width, budget)
            if budget[0] < 0:
                break  # ran out of nodes: keep the last complete iteration
            best_scores = scores
            self.last_depth = depth
            if scores.max() >= WIN - max_depth or (small and depth >= empties):
                break
            if nodes_left is not None:
                used = int(min(cap, nodes_left) - budget[0])
                nodes_left -= used
                if 4 * used > nodes_left:
                    break
            if deadline is not None:
                spent = time.perf_counter() - started
                if time.perf_counter() + 4 * spent > deadline:
                    break
        return best_scores
