"""Alpha-beta search: negamax, iterative deepening, Zobrist transposition table, threat search.

On tic-tac-toe the search is full-width to the end of the game, so it plays
perfectly; among moves of equal value it picks with its seeded RNG. On
gomoku boards the root first takes an immediate win, blocks the opponent's
immediate win, and plays a winning continuous-four sequence (VCF) if its
search finds one within ``VCF_POSITIONS`` positions; otherwise it searches the best-looking candidates near the stones,
deepening while its node budget lasts, and scores leaves by counting, for each
colour, the k-windows that hold only its stones (more stones, more score).
Under renju black never considers a forbidden point, and a four that black
could only stop on a forbidden point counts as unstoppable. Under a tournament
opening rule it takes the opening's decisions by a 2-ply search of each
position it weighs (:mod:`~boardgame_envs.policies.opening_phase`; at most
:data:`OPENING_NODES` nodes each), and searches the base game once play begins.
"""

from __future__ import annotations

import time
from types import ModuleType
from typing import Any

import numpy as np

from boardgame_envs.games.compile_notice import compile_notice
from boardgame_envs.games.protocol import as_family
from boardgame_envs.policies import generic, opening_phase
from boardgame_envs.policies.base import check_budget, check_positive, check_positive_int, game_state_of, random_argmax
from boardgame_envs.policies.kernels import R_N, rules_of

# Measured on the development machine (2 cores, shared): the kernels' one compilation (13.8 s,
# `bench firstmove --cold`, load 1; 9.7 s before the search kept its nodes in a frame table).
COMPILE_S = 15
_kernels: ModuleType | None = None


def search_kernels() -> ModuleType:
    """The module of numba kernels (:mod:`~boardgame_envs.policies.alphabeta_kernels`), imported on first use.

    Importing it loads the kernels from numba's on-disk cache, or compiles them
    once (saying so on stderr), before any clock of a timed move starts.
    """
    global _kernels
    if _kernels is None:
        with compile_notice("the alpha-beta search kernels", COMPILE_S):
            from boardgame_envs.policies import alphabeta_kernels

        _kernels = alphabeta_kernels
    return _kernels


def static_value(base: Any) -> float:
    """The static count of open k-windows (the search's leaf evaluation) for the colour to move, in (-1, 1).

    The value greedy weighs an opening's decisions by (:func:`opening_phase.decide`): a position's
    look without a search.
    """
    score = search_kernels().evaluate(base.board.copy(), base.game.rules_array(), base.to_move)
    return float(np.tanh(score / opening_phase.STATIC_SCALE))


def __getattr__(name: str) -> Any:
    # The score constants (WIN, INF, ...) live with the kernels; reading one here loads them.
    if name in ("WIN", "INF", "MATE", "SMALL_BOARD"):
        return getattr(search_kernels(), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


SMALL_BOARD_NODES = 2_000_000  # the one full-depth search on boards up to 5x5 (tic-tac-toe needs a few thousand)
VCF_POSITIONS = 300  # positions the continuous-four search may visit a move (see below)
DEFAULT_NODES = 4_000  # per move: on the development machine, about what 0.5 s of search reached (depth 5, now and then 6)
GENERIC_MAX_DEPTH = 100  # games without the m,n,k kernels: the deepening stops at the node budget first
OPENING_NODES = 2_000  # one position weighed in an opening decision: a 2-ply search (about 110 nodes at width 10)


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
        check_budget("depth", depth, allow_none=True)
        check_budget("nodes", nodes, allow_none=True)
        check_budget("time_limit", time_limit, allow_none=True)
        check_positive_int("width", width)
        self.depth = None if depth is None else int(depth)
        self.nodes = None if nodes is None else int(nodes)
        self.time_limit = time_limit
        self.width = int(width)
        self.rng = np.random.default_rng(seed)
        # One table per game: the same board under other rules (or another k) has other values.
        self._tables: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray]] = {}
        # The same by game object, with its rules array: a move's lookup without building either again.
        self._by_game: dict[Any, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self.last_depth = 0
        self._opening_cache: dict = {}
        self._budget = np.zeros(1, dtype=np.int64)  # _search's node budget, reused (see there)

    def _table(self, rules: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        game = tuple(int(x) for x in rules)
        if game not in self._tables:
            cells = game[R_N] * game[R_N]
            zob = np.random.default_rng(cells).integers(1, 2**62, size=(2, cells), dtype=np.int64)
            k = search_kernels()
            bits = 14 if cells <= k.SMALL_BOARD else k.TT_BITS
            self._tables[game] = (zob, np.zeros((1 << bits, 5), dtype=np.int64))
        return self._tables[game]

    def _game_tables(self, game: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(rules, zob, tt)`` of ``game``: its rules array and :meth:`_table`'s pair, built once per game.

        Games are frozen dataclasses, equal when their rules are: a dict lookup
        replaces building the rules array and its tuple every move (a solve of
        tic-tac-toe is a fraction of a millisecond, so these add up).
        """
        entry = self._by_game.get(game)
        if entry is None:
            rules = game.rules_array()
            entry = self._by_game[game] = (rules, *self._table(rules))
        return entry

    def act(self, state: Any) -> int:
        state = game_state_of(state)  # an env stands for its state
        if opening_phase.pending(state):
            return opening_phase.decide(state, self._opening_value, self.rng, self._opening_cache, self._move)
        return self._move(opening_phase.playing_state(state))

    def _move(self, state: Any) -> int:
        """The searched move in ``state`` (a game's normal play)."""
        if as_family(state.game, "mnk") is None:
            return random_argmax(self._generic_scores(state), self.rng)
        k = search_kernels()
        n = state.game.size
        if n * n > k.SMALL_BOARD:
            rules = rules_of(state)
            board = state.board.copy()
            first = np.empty(n * n, dtype=np.int64)
            count, status = k.ordered_moves(board, rules, state.to_move, self.width, first)
            if status == 1:
                return int(first[0])  # a five now beats any longer plan
            # Bounded, so that a position rich in fours cannot stall a move for hours (it did, in a
            # renju ladder game); 300 positions cost at most 0.3 s on 15x15 renju here, and the
            # searches that find a win visit far fewer.
            found = k.vcf(board, rules, state.to_move, 12, np.array([VCF_POSITIONS], dtype=np.int64))
            if found >= 0:
                return int(found)
        scores = self._search(state)
        top = scores.max()
        if top <= -k.INF:
            legal = state.legal_actions()
            return int(legal[self.rng.integers(len(legal))])
        return random_argmax(scores, self.rng, top)

    def move_scores(self, env: Any) -> np.ndarray:
        """The root scores ``(n*n,)`` int64 of the search :meth:`act` runs, for analysis.

        From the side to move: ``WIN - p`` for a win in ``p`` plies, ``-(WIN - p)``
        for a loss in ``p`` plies (``WIN`` is
        :data:`~boardgame_envs.policies.alphabeta_kernels.WIN`), heuristic values in between,
        ``-INF`` for moves not searched (illegal, or cut by ``width``).
        The best moves' scores are exact; any other move's is an upper bound
        below the best, so a score at or below ``-(WIN - depth)`` proves a loss
        while a higher one does not prove the move safe. Unlike :meth:`act`,
        no shortcut for an immediate win or a forced win by fours comes first.
        Under an opening rule, once play has begun, the scores of the base game's
        points (the decisions get ``-INF``); during the opening it raises ``ValueError``.
        """
        state = game_state_of(env)
        if opening_phase.pending(state):
            raise ValueError(f"move_scores analyses normal play; the game is in its opening "
                             f"({state.describe_phase()}): act() takes the opening's decisions")  # fmt: skip
        inner = opening_phase.playing_state(state)
        scores = self._generic_scores(inner) if as_family(inner.game, "mnk") is None else self._search(inner)
        if inner is not state:
            padded = np.full(state.game.num_actions, -search_kernels().INF, dtype=scores.dtype)
            padded[: scores.size] = scores
            return padded
        return scores

    def _opening_value(self, base: Any) -> float:
        """A base position's value in [-1, 1] for its colour to move: the best score of a 2-ply search."""
        k = search_kernels()
        rules = rules_of(base)
        board = base.board.copy()
        zob, tt = self._table(rules)
        key = 0
        for a in np.flatnonzero(board):
            key ^= int(zob[board[a] - 1, a])
        budget = np.array([OPENING_NODES], dtype=np.int64)
        best = int(k.root_scores(board, rules, base.to_move, 2, key, zob, tt, self.width, budget).max())
        if best <= -k.INF:
            return 0.0  # no move at all: the game is drawn
        if abs(best) >= k.MATE:
            return 1.0 if best > 0 else -1.0
        return float(np.tanh(best / opening_phase.STATIC_SCALE))

    def _generic_scores(self, state: Any) -> np.ndarray:
        """The protocol's alpha-beta (:mod:`~boardgame_envs.policies.generic`) for games without the m,n,k kernels."""
        if self.time_limit is not None:
            raise ValueError(f"{state.game.name}: alpha-beta with a time limit needs the m,n,k kernels; give nodes=N")
        depth = self.depth or GENERIC_MAX_DEPTH  # no depth given: as deep as the nodes allow
        scores, self.last_depth = generic.alphabeta_scores(state, depth, self.nodes)
        return scores

    def _search(self, state: Any) -> np.ndarray:
        """Iterative deepening to ``depth`` within ``time_limit``: the deepest complete iteration's root scores."""
        rules, zob, tt = self._game_tables(state.game)
        board = state.board.copy()
        color = state.to_move
        n = state.game.size
        empties = board.size - int(np.count_nonzero(board))
        k = search_kernels()  # loaded (or compiled) before the clock starts
        small = n * n <= k.SMALL_BOARD
        max_depth = self.depth or (empties if small else 6)
        key = 0
        if empties < board.size:  # (numpy calls add up on a sub-millisecond solve: none for an empty board)
            for a in np.flatnonzero(board):
                key ^= int(zob[board[a] - 1, a])
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        # Boards up to 5x5 are solved outright (deepening would only repeat work), within a larger budget.
        nodes_left = None if self.nodes is None else (SMALL_BOARD_NODES if small else self.nodes)
        best_scores = None  # no complete iteration yet
        for depth in range(max_depth if small else 1, max_depth + 1):
            started = time.perf_counter() if deadline is not None else 0.0
            cap = 2_000_000 if deadline is not None else 10**9  # a time-limited iteration still has a node cap
            budget = self._budget  # the kernel counts down in it; one array for all the policy's searches here
            budget[0] = cap if nodes_left is None else min(cap, nodes_left)
            scores = k.root_scores(board, rules, color, depth, key, zob, tt, self.width, budget)
            if budget[0] < 0:
                break  # ran out of nodes: keep the last complete iteration
            best_scores = scores
            self.last_depth = depth
            if (small and depth >= empties) or scores.max() >= k.WIN - max_depth:
                break  # solved to the end (tested first: no numpy call), or a forced win found
            if nodes_left is not None:
                used = int(min(cap, nodes_left) - budget[0])
                nodes_left -= used
                if 4 * used > nodes_left:
                    break
            if deadline is not None:
                spent = time.perf_counter() - started
                if time.perf_counter() + 4 * spent > deadline:
                    break
        return np.full(n * n, -k.INF, dtype=np.int64) if best_scores is None else best_scores
