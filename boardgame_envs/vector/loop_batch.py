"""The batched engine's backend for a game without kernels: its protocol states stepped in a Python loop.

Any game of the Game/State protocol gets ``vector.make``, ``gymnasium.make_vec``
and ``SB3VecEnv`` through :class:`LoopBatch`: the same arrays and calls as the
numba backends, each game a :class:`~boardgame_envs.games.protocol.State`
played by ``play``, observed by ``planes(viewer)``, masked by ``legal_mask()``
and scored by ``returns()`` (so a misère game, a score, a pass or a player who
moves twice in a row come out as the AEC env gives them). Kernels are only a
speed-up: this is the reference the others agree with.
"""

from __future__ import annotations

from typing import Any

import numpy as np


class LoopBatch:
    """``num_envs`` states of ``game`` behind the backend's arrays (see :class:`~boardgame_envs.vector.VectorGames`).

    ``to_move`` (the player to move, 1 or 2), ``num_moves``, ``legal`` ``(B, A)``
    with ``num_legal``, ``over``, ``illegal``, ``boards`` ``(B, rows * columns)``
    (the states' cells) and ``last_move`` are kept in step with the states.
    """

    def __init__(self, game: Any, num_envs: int, parallel: bool = False) -> None:
        if parallel:
            raise ValueError(f"parallel=True spreads numba kernels over threads, and {game.name} has none (no "
                             "game.kernels()): its games are stepped one after another; drop parallel")  # fmt: skip
        self.game = game
        self.num_envs = b = num_envs
        self.num_actions = a = int(game.num_actions)
        rows, cols = game.shape
        self.obs_shape = (rows, cols, int(game.num_planes))
        self.states = [game.new_state() for _ in range(b)]
        self.boards = np.zeros((b, rows * cols), dtype=np.int8)
        self.to_move = np.ones(b, dtype=np.int8)
        self.num_moves = np.zeros(b, dtype=np.int32)
        self.last_move = np.full(b, -1, dtype=np.int32)
        self.legal = np.zeros((b, a), dtype=np.bool_)
        self.num_legal = np.zeros(b, dtype=np.int32)
        self.over = np.zeros(b, dtype=np.bool_)
        self.illegal = np.zeros(b, dtype=np.bool_)
        self.reset(np.ones(b, dtype=np.bool_))

    def _sync(self, b: int) -> None:
        """Row ``b`` of the arrays from its state."""
        state = self.states[b]
        self.boards[b] = state.board
        self.num_moves[b] = state.num_moves
        self.last_move[b] = state.last_move
        if state.terminal:
            self.legal[b] = False
        else:
            self.to_move[b] = state.to_move  # meaningless once terminal (the protocol): the last value stays
            self.legal[b] = state.legal_mask()
        self.num_legal[b] = np.count_nonzero(self.legal[b])

    def reset(self, where: np.ndarray) -> None:
        for b in np.flatnonzero(where):
            self.states[b] = self.game.new_state()
            self.over[b] = False
            self._sync(b)

    def step(self, actions: np.ndarray, where: np.ndarray, raising: bool, autoreset: bool, obs: np.ndarray | None,
             final_obs: np.ndarray | None, rewards: np.ndarray, terminated: np.ndarray) -> int:  # fmt: skip
        """Play ``actions`` in the games flagged by ``where``; planes into ``obs`` / ``final_obs`` ``(B, rows *
        columns * planes)`` when given; return the number of illegal actions (nothing changed if ``raising``)."""
        live = where & ~self.over
        rows = np.flatnonzero(live)
        chosen = actions[rows]
        in_range = (chosen >= 0) & (chosen < self.num_actions)
        self.illegal[:] = False
        self.illegal[rows] = ~in_range
        self.illegal[rows[in_range]] = ~self.legal[rows[in_range], chosen[in_range]]
        bad = int(np.count_nonzero(self.illegal))
        if bad and raising:
            return bad
        rewards[:] = 0.0
        terminated[:] = self.over
        for b in rows:
            state = self.states[b]
            mover = int(state.to_move)
            if self.illegal[b]:
                rewards[b, mover - 1] = -1.0  # as PettingZoo's wrappers: the offender -1, the other player 0
                viewer = 3 - mover
            else:
                state.play(int(actions[b]))
                if not state.terminal:
                    self._sync(b)
                    continue
                rewards[b] = state.returns()
                viewer = int(state.to_move)  # whom the AEC env selects once the game is over
            terminated[b] = True
            if autoreset and final_obs is not None:
                final_obs[b] = state.planes(viewer).reshape(-1)
                self.states[b] = self.game.new_state()
            else:
                self.over[b] = True
            self._sync(b)
            if self.over[b]:
                self.legal[b] = False
                self.num_legal[b] = 0
        if obs is not None:
            self.observe(self.to_move, obs)
        return bad

    def observe(self, viewers: np.ndarray, out: np.ndarray) -> None:
        """Planes ``(B, rows * columns * planes)`` int8 of every game as player ``viewers[b]`` sees it."""
        for b, state in enumerate(self.states):
            out[b] = state.planes(int(viewers[b])).reshape(-1)

    def state(self, b: int) -> Any:
        """Game ``b``'s state (a copy)."""
        return self.states[b].clone()
