"""A one-ply player: take a win, block the opponent's win, else extend the best line.

The cheap, weak rung between random play and search on the strength ladder.
Every move it scores the empty points near the stones (all points on boards up
to 5x5): a point that wins at once outranks one that stops the opponent's
immediate win (blocks a four), which outranks the rest, ranked by
:func:`~boardgame_envs.policies.kernels.line_potential` for both colours (so it
both extends its own lines and cuts the opponent's). With probability
``epsilon`` it plays a uniformly random legal move instead, which makes a
continuous knob from random (``epsilon=1``) to the plain one-ply player
(``epsilon=0``). Under renju black never picks a forbidden point. Under a
tournament opening rule it takes the opening's decisions by the static count of
open k-windows (alpha-beta's leaf evaluation, :func:`~boardgame_envs.policies.alphabeta.static_value`;
the reasoning in :mod:`~boardgame_envs.policies.opening_phase`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardgame_envs.games.kernel_cache import cached_kernel
from boardgame_envs.games.protocol import as_family
from boardgame_envs.policies import generic, opening_phase
from boardgame_envs.policies.alphabeta import static_value
from boardgame_envs.policies.base import game_state_of, random_argmax
from boardgame_envs.policies.kernels import R_K, R_N, allowed, candidates, line_potential, rules_of, wins

WIN_SCORE = 1 << 40
BLOCK_SCORE = 1 << 39
RADIUS = 2


@cached_kernel()
def greedy_scores(board, rules, color):
    """Scores ``(n*n,)`` of ``color``'s moves: win, else block, else line potential; -1 where not considered."""
    n = rules[R_N]
    k = rules[R_K]
    scores = np.full(n * n, -1, dtype=np.int64)
    cand = np.empty(n * n, dtype=np.int64)
    count = candidates(board, n, n if n * n <= 25 else RADIUS, cand)
    for i in range(count):
        a = cand[i]
        if not allowed(board, rules, a, color):
            continue
        if wins(board, rules, a, color):
            scores[a] = WIN_SCORE
        elif allowed(board, rules, a, 3 - color) and wins(board, rules, a, 3 - color):
            scores[a] = BLOCK_SCORE
        else:
            scores[a] = line_potential(board, n, k, a, color) + line_potential(board, n, k, a, 3 - color)
    return scores


class GreedyPolicy:
    """One-ply play (win, block, extend lines), with a share ``epsilon`` of uniformly random moves.

    Args:
        epsilon: probability in [0, 1] of a uniformly random legal move instead of the greedy one.
        seed: seeds the random moves and the choice among equally scored points.
    """

    name = "greedy"

    def __init__(self, epsilon: float = 0.0, seed: int | None = None) -> None:
        if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be a number in [0, 1], got {epsilon!r}")
        self.epsilon = float(epsilon)
        self.rng = np.random.default_rng(seed)
        self._opening_cache: dict = {}

    def act(self, state: Any) -> int:
        state = game_state_of(state)  # an env stands for its state
        if self.epsilon > 0.0 and self.rng.random() < self.epsilon:
            legal = state.legal_actions()
            return int(legal[self.rng.integers(len(legal))])
        if opening_phase.pending(state):
            return opening_phase.decide(state, static_value, self.rng, self._opening_cache, self._move)
        return self._move(opening_phase.playing_state(state))

    def _move(self, state: Any) -> int:
        """The one-ply move in ``state`` (a game's normal play)."""
        if as_family(state.game, "mnk") is None:
            return random_argmax(generic.greedy_scores(state), self.rng)
        scores = greedy_scores(state.board.copy(), rules_of(state), state.to_move)
        if scores.max() < 0:  # every point near the stones is forbidden for black: play any legal point
            legal = state.legal_actions()
            return int(legal[self.rng.integers(len(legal))])
        return random_argmax(scores, self.rng)
