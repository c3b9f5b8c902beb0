"""Opponents for the batched games: one call chooses the moves of every game that waits for one.

An opponent has ``actions(vec, where) -> (B,) int64``: a legal action for the
mover of each game of ``vec`` (a :class:`~boardgame_envs.vector.engine.VectorGames`)
flagged in ``where``; entries of the other games are ignored. ``seed(seed)``
restarts its random stream.

* ``"random"`` (:class:`RandomOpponent`) and ``"greedy"`` / ``"greedy:epsilon=E"``
  (:class:`GreedyOpponent`: the registry's one-ply player, a winning point, else
  one that stops the opponent's win, else the best line, with a share ``E`` of
  random moves) run in numba over the whole batch: ``"random"`` for every game,
  ``"greedy"`` for the m,n,k family and connect four (its twin of the
  registry's connect-four scores); on any other game ``"greedy"`` is the
  registry's player asked game by game.
* A callable ``(observations, action_masks) -> actions`` (:class:`BatchedCallable`)
  gets the planes and masks of the waiting games in one batch: a frozen network
  answers them all in one forward pass (self-play).
* Anything else :func:`~boardgame_envs.policies.registry.make_policy` builds (a
  spec such as ``"mcts:simulations=200"``, a policy object with ``act(state)``)
  plays each waiting game in turn, handed a fresh state of that game's position
  (:class:`PerGamePolicy`): correct for every policy, and as slow as the policy
  times the number of games.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from boardgame_envs.games.connect_four import COLUMNS, ROWS, WIN_LENGTH, window_score
from boardgame_envs.games.connect_four_kernels import COLUMN_BITS, ConnectFourBatch, four_in_a_row
from boardgame_envs.games.kernel_cache import cached_kernel
from boardgame_envs.games.lines import BLACK, opponent
from boardgame_envs.games.mnk_batch import MNKBatch
from boardgame_envs.policies.base import Forfeit
from boardgame_envs.policies.greedy import GreedyPolicy, greedy_scores
from boardgame_envs.vector import sampling
from boardgame_envs.vector.engine import VectorGames

BATCHED = ("random", "greedy")  # registry kinds that run batched here


class _Seeded:
    """A splitmix64 stream per game (grown to the batch size on first use), as the engine's sampler."""

    def __init__(self, seed: int | None = None) -> None:
        self._seed = seed
        self._rng = np.zeros(0, dtype=np.uint64)

    def seed(self, seed: int | None) -> None:
        self._seed = seed
        self._rng = np.zeros(0, dtype=np.uint64)

    def _stream(self, num_envs: int) -> np.ndarray:
        if self._rng.size != num_envs:
            self._rng = np.random.SeedSequence(self._seed).generate_state(num_envs, np.uint64)
        return self._rng


class RandomOpponent(_Seeded):
    """Uniformly random legal moves (never a forbidden point for black), drawn in numba."""

    name = "random"

    def actions(self, vec: VectorGames, where: np.ndarray) -> np.ndarray:
        out = np.empty(vec.num_envs, dtype=np.int64)
        sampling.sample_serial(vec.batch.legal, vec.batch.num_legal, self._stream(vec.num_envs), out)
        return out


@cached_kernel()
def _greedy_batch(boards, to_move, legal, num_legal, where, rules, epsilon, rng, out):
    """:class:`~boardgame_envs.policies.greedy.GreedyPolicy`'s move in each game flagged in ``where``.

    Its scores (:func:`~boardgame_envs.policies.greedy.greedy_scores`: win, else
    block, else line potential), ties broken uniformly; a uniformly random legal
    move with probability ``epsilon``, or when no scored point is playable.
    """
    scale = 1 << 30
    for b in range(boards.shape[0]):
        if not where[b]:
            continue
        if num_legal[b] == 0:
            out[b] = -1
            continue
        if epsilon > 0.0 and sampling.uniform_below(rng, b, scale) < epsilon * scale:
            sampling.sample_one(b, legal, num_legal, rng, out)
            continue
        scores = greedy_scores(boards[b].copy(), rules, to_move[b])
        best = scores.max()
        if best < 0:
            sampling.sample_one(b, legal, num_legal, rng, out)
            continue
        seen = 0
        for i in range(scores.size):
            if scores[i] == best:
                seen += 1
                if sampling.uniform_below(rng, b, seen) == 0:  # reservoir sampling: uniform among the best
                    out[b] = i


@cached_kernel()
def _greedy_connect_four(boards, heights, bits, to_move, num_moves, legal, num_legal, where, epsilon, rng, out):
    """The registry's ``greedy`` on connect four (``policies.generic.greedy_scores``) in each game flagged in ``where``.

    Its scores, column by column: a drop that wins 2, one that fills the board
    (a draw) 0, one after which the opponent wins at once -1.5, else the
    heuristic value after it (``-0.999 tanh(window_score / 40)`` for the
    opponent, as ``ConnectFourState.evaluate``); ties broken uniformly; a
    uniformly random legal column with probability ``epsilon``.
    """
    scale = 1 << 30
    board = np.empty(ROWS * COLUMNS, dtype=np.int8)
    scores = np.empty(COLUMNS, dtype=np.float64)
    one = np.uint64(1)
    for b in range(boards.shape[0]):
        if not where[b]:
            continue
        if num_legal[b] == 0:
            out[b] = -1
            continue
        if epsilon > 0.0 and sampling.uniform_below(rng, b, scale) < epsilon * scale:
            sampling.sample_one(b, legal, num_legal, rng, out)
            continue
        me = to_move[b]
        mine, theirs = bits[b, me - 1], bits[b, 2 - me]
        board[:] = boards[b]
        best = -np.inf
        for c in range(COLUMNS):
            scores[c] = -np.inf
            if not legal[b, c]:
                continue
            h = heights[b, c]
            if four_in_a_row(mine | (one << np.uint64(c * COLUMN_BITS + h))):
                scores[c] = 2.0
            elif num_moves[b] + 1 == ROWS * COLUMNS:
                scores[c] = 0.0
            else:
                threat = False
                for c2 in range(COLUMNS):
                    h2 = heights[b, c2] + (1 if c2 == c else 0)
                    if h2 < ROWS and four_in_a_row(theirs | (one << np.uint64(c2 * COLUMN_BITS + h2))):
                        threat = True
                        break
                if threat:
                    scores[c] = -1.5
                else:
                    cell = (ROWS - 1 - h) * COLUMNS + c
                    board[cell] = me
                    scores[c] = -0.999 * np.tanh(window_score(board, 3 - me, ROWS, COLUMNS, WIN_LENGTH) / 40.0)
                    board[cell] = 0
            best = max(best, scores[c])
        seen = 0
        for c in range(COLUMNS):
            if scores[c] == best:
                seen += 1
                if sampling.uniform_below(rng, b, seen) == 0:  # reservoir sampling: uniform among the best
                    out[b] = c


class GreedyOpponent(_Seeded):
    """The registry's ``greedy`` player (win, else block, else extend lines; ``epsilon`` random).

    Batched in numba on the m,n,k family and connect four; on any other game
    the registry's :class:`~boardgame_envs.policies.greedy.GreedyPolicy` plays
    each waiting game in turn.
    """

    name = "greedy"

    def __init__(self, epsilon: float = 0.0, seed: int | None = None) -> None:
        self._policy = GreedyPolicy(epsilon, seed)  # checks epsilon as the registry's player does
        super().__init__(seed)
        self.epsilon = float(epsilon)

    def seed(self, seed: int | None) -> None:
        super().seed(seed)
        self._policy.rng = np.random.default_rng(seed)

    def actions(self, vec: VectorGames, where: np.ndarray) -> np.ndarray:
        out = np.full(vec.num_envs, -1, dtype=np.int64)
        batch = vec.batch
        if isinstance(batch, MNKBatch):
            game = vec.game
            rules = np.array([game.size, game.win_length, game.exact(BLACK), game.exact(opponent(BLACK)),
                              game.is_renju], dtype=np.int64)  # as policies.kernels.rules_of  # fmt: skip
            _greedy_batch(batch.boards, batch.to_move, batch.legal, batch.num_legal, where, rules, self.epsilon,
                          self._stream(vec.num_envs), out)  # fmt: skip
        elif isinstance(batch, ConnectFourBatch):
            _greedy_connect_four(batch.boards, batch.heights, batch.bits, batch.to_move, batch.num_moves, batch.legal,
                                 batch.num_legal, where, self.epsilon, self._stream(vec.num_envs), out)  # fmt: skip
        else:
            for g in np.flatnonzero(where & (batch.num_legal > 0)):
                out[g] = self._policy.act(vec.game_state(int(g)))
        return out


class BatchedCallable:
    """``fn(observations, action_masks) -> actions`` called once with the waiting games' planes and masks.

    ``encode`` turns the engine's int8 planes ``(k, N, N, C)`` into what ``fn``
    expects (the learner's observation format, so a frozen copy of the learner plays as it is).
    """

    def __init__(self, fn: Callable[[np.ndarray, np.ndarray], Any], encode: Callable[[np.ndarray], np.ndarray]) -> None:
        self.fn = fn
        self.encode = encode
        self.name = getattr(fn, "__name__", type(fn).__name__)

    def seed(self, seed: int | None) -> None:
        pass  # the callable owns its randomness

    def actions(self, vec: VectorGames, where: np.ndarray) -> np.ndarray:
        out = np.full(vec.num_envs, -1, dtype=np.int64)
        games = np.flatnonzero(where)
        if games.size:
            planes = vec.observe()[games]
            chosen = np.asarray(self.fn(self.encode(planes), vec.legal_action_mask[games].copy()))
            if chosen.shape != games.shape:
                raise ValueError(f"the opponent callable must return {games.size} actions, got shape {chosen.shape}")
            out[games] = chosen
        return out


class PerGamePolicy:
    """A policy with ``act(state)`` asked game by game, each handed its game's state.

    A policy that raises :class:`~boardgame_envs.policies.base.Forfeit` (an external
    engine that crashed or broke the rules) loses that game: after :meth:`actions`,
    ``forfeits`` maps those games to their exceptions and their actions are -1.
    """

    def __init__(self, policy: Any) -> None:
        self.policy = policy
        self.name = getattr(policy, "name", type(policy).__name__)
        self.forfeits: dict[int, Forfeit] = {}

    def seed(self, seed: int | None) -> None:
        if isinstance(getattr(self.policy, "rng", None), np.random.Generator):
            self.policy.rng = np.random.default_rng(seed)

    def actions(self, vec: VectorGames, where: np.ndarray) -> np.ndarray:
        out = np.full(vec.num_envs, -1, dtype=np.int64)
        self.forfeits = {}
        for g in np.flatnonzero(where):
            try:
                out[g] = int(self.policy.act(vec.game_state(int(g))))  # a fresh state: the policy may keep it
            except Forfeit as exc:
                self.forfeits[int(g)] = exc
        return out


def make_opponent(spec: Any, encode: Callable[[np.ndarray], np.ndarray], seed: int | None = None) -> Any:
    """The batched opponent for ``spec``: ``"random"``, ``"greedy"``, a callable, or a per-game registry policy."""
    if isinstance(spec, (str, tuple)):
        from boardgame_envs.policies.registry import make_policy, parse_spec

        name, target, kwargs = parse_spec(spec) if isinstance(spec, str) else (spec[0], None, spec[1])
        if name == "random" and not kwargs and target is None:
            return RandomOpponent(seed)
        if name == "greedy" and target is None and isinstance(kwargs, dict) and set(kwargs) <= {"epsilon"}:
            return GreedyOpponent(kwargs.get("epsilon", 0.0), seed)
        return PerGamePolicy(make_policy(spec, seed=seed))
    if hasattr(spec, "act"):
        return PerGamePolicy(spec)
    if callable(spec):
        return BatchedCallable(spec, encode)
    raise ValueError(
        f"opponent must be a policy spec ('random', 'greedy:epsilon=0.1', 'mcts:simulations=200', ...), a policy with "
        f"act(state) or a callable (observations, action_masks) -> actions; got {spec!r}"
    )
