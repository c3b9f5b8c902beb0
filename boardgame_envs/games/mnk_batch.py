"""The m,n,k family's backend of the batched engine: its arrays, stepped by :mod:`boardgame_envs.games.mnk_kernels`.

Tic-tac-toe, gomoku and renju (black's forbidden points kept by the rules'
incremental mask) as :class:`MNKBatch`, one of the backends that
:class:`~boardgame_envs.vector.engine.VectorGames` drives through the same
few calls (``reset``, ``step``, ``observe``, ``state``).
"""

from __future__ import annotations

import numpy as np

from boardgame_envs.games import renju_mask
from boardgame_envs.games import mnk_kernels as K
from boardgame_envs.games.lines import BLACK
from boardgame_envs.games.mnk import MNKGame, MNKState


class MNKBatch:
    """``num_envs`` games of one :class:`MNKGame` as arrays, one row per game.

    The arrays every backend has (``to_move`` colours 1 black / 2 white,
    ``num_moves``, ``legal`` with ``num_legal``, ``over``, ``illegal``), and the
    family's: ``boards`` ``(B, N*N)`` int8 (0 empty, 1 black, 2 white),
    ``last_move`` (-1 before the first move), ``forbidden`` (black's forbidden
    points; renju only) with ``renju_info``, the incremental mask's bookkeeping.
    """

    def __init__(self, game: MNKGame, num_envs: int, parallel: bool = False) -> None:
        self.game = game
        self.num_envs = b = num_envs
        self.num_actions = nn = game.num_actions
        self.size = n = game.size
        self.num_planes = planes = game.num_planes  # the game's own count, as its states' planes() show
        self.obs_shape = (n, n, planes)
        self._step_kernel = K.step_parallel if parallel else K.step_serial
        cfg = np.zeros(K.CFG_SIZE, dtype=np.int64)
        cfg[: K.RULES_SIZE] = game.rules_array()
        cfg[K.CFG_PLANES] = planes
        self._cfg = {}  # (autoreset, observe) -> the cfg array of those settings
        for autoreset in (False, True):
            for observe in (False, True):
                cfg[K.CFG_AUTORESET], cfg[K.CFG_OBSERVE] = autoreset, observe
                self._cfg[autoreset, observe] = cfg.copy()
        self.boards = np.zeros((b, nn), dtype=np.int8)
        self.to_move = np.full(b, BLACK, dtype=np.int8)
        self.num_moves = np.zeros(b, dtype=np.int32)
        self.last_move = np.full(b, -1, dtype=np.int32)
        self.forbidden = np.zeros((b, nn), dtype=np.bool_)
        # The incremental renju mask's bookkeeping, a row per game (one unused column otherwise).
        if game.is_renju:
            self._renju_empty = renju_mask.new_info(n)
            renju_mask.rebuild(np.zeros(nn, dtype=np.int8), n, np.zeros(nn, dtype=np.bool_), self._renju_empty)
        else:
            self._renju_empty = np.zeros(1, dtype=np.int32)
        self._renju_info = np.zeros((b, self._renju_empty.size), dtype=np.int32)
        self.legal = np.ones((b, nn), dtype=np.bool_)
        self.num_legal = np.full(b, nn, dtype=np.int32)
        self.over = np.zeros(b, dtype=np.bool_)
        self.illegal = np.zeros(b, dtype=np.bool_)
        self._no_obs = np.zeros((0, nn * planes), dtype=np.int8)

    def reset(self, where: np.ndarray) -> None:
        K.reset_games(self.boards, self.to_move, self.num_moves, self.last_move, self.forbidden, self._renju_info,
                      self._renju_empty, self.legal, self.num_legal, self.over, where)  # fmt: skip

    def step(self, actions: np.ndarray, where: np.ndarray, raising: bool, autoreset: bool, obs: np.ndarray | None,
             final_obs: np.ndarray | None, rewards: np.ndarray, terminated: np.ndarray) -> int:  # fmt: skip
        """Play ``actions`` in the games flagged by ``where``; planes into ``obs`` / ``final_obs`` ``(B, N*N*C)``
        when given; return the number of illegal actions (nothing changed if ``raising`` and any)."""
        cfg = self._cfg[autoreset and final_obs is not None, obs is not None]
        obs = self._no_obs if obs is None else obs
        final_obs = self._no_obs if final_obs is None else final_obs
        return self._step_kernel(
            cfg, self.boards, self.to_move, self.num_moves, self.last_move, self.forbidden, self._renju_info,
            self._renju_empty, self.legal, self.num_legal, self.over, actions, where, raising, self.illegal,
            obs, final_obs, rewards, terminated,
        )  # fmt: skip

    def observe(self, viewers: np.ndarray, out: np.ndarray) -> None:
        """Planes ``(B, N*N*C)`` int8 of every game as player ``viewers[b]`` (a colour) sees it."""
        K.observe(self.boards, viewers, self.to_move, self.last_move, self.forbidden, out)

    def state(self, b: int) -> MNKState:
        """Game ``b`` as a :class:`MNKState` (a copy)."""
        return MNKState.from_position(self.game, self.boards[b], int(self.to_move[b]), int(self.last_move[b]))
