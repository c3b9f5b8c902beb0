"""Many games of one kind stepped at once: the batched two-player engine.

>>> from boardgame_envs import vector
>>> vec = vector.make("gomoku", 256, board_size=15, rule="renju")
>>> obs = vec.reset(seed=0)
>>> obs, rewards, terminated, truncated, info = vec.step(vec.sample_legal_actions())

Every game of the batch is at the turn of its *mover* (``current_player``, the
seat to move: 0 for the first player, black or X, 1 for the second).
Observations are the AEC env's planes seen by the mover, ``(B, N, N, C)``
int8, byte for byte what ``env.observe(agent)["observation"]`` gives for the
same position; ``legal_action_mask`` ``(B, N*N)`` bool excludes black's
forbidden points under renju; rewards are by seat, ``(B, 2)`` float32: +1 / -1
on the step that wins, 0 otherwise.

Auto-reset follows Gymnasium's **same-step** mode
(``gymnasium.vector.AutoresetMode.SAME_STEP``): a game that ends on a step is
reset within that step, so the returned observation, mask and mover are the
new game's; the finished game's observation is in ``info["final_obs"]`` (rows
flagged by ``info["_final_obs"]``), seen by the player who did not act on the
final step (what the AEC env's ``last()`` shows the agent selected after the
game ended), and its result is that step's ``rewards`` row. With
``autoreset=False`` a finished game stays over (``terminated`` stays True, its
mask empty, its actions ignored) until ``reset(options={"reset_mask": ...})``.

Illegal actions: with ``illegal_action="raise"`` (default) ``step`` raises
:class:`IllegalActionsError` (a ``ValueError``) naming the games and why, and
changes nothing; with ``"lose"`` an illegal action ends its game as
PettingZoo's wrappers do (the offender -1, the other player 0, the board
unchanged) and ``info["illegal_action"]`` flags it.

All loops over games run in numba (:mod:`boardgame_envs.vector.kernels`), over
the games of :mod:`boardgame_envs.games`; ``parallel=True`` spreads them over
numba's threads.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardgame_envs.games import renju_mask
from boardgame_envs.games.catalog import game_info
from boardgame_envs.games.lines import BLACK
from boardgame_envs.games.mnk import MNKState, IllegalMoveError, MNKGame
from boardgame_envs.vector import kernels as K

ILLEGAL_ACTIONS = ("raise", "lose")


class IllegalActionsError(IllegalMoveError):
    """Illegal actions in some games of a batch; ``games`` holds their indices."""

    def __init__(self, message: str, games: np.ndarray) -> None:
        super().__init__(message)
        self.games = games


class VectorGames:
    """``num_envs`` games of one :class:`MNKGame`, stepped together; see the module docstring.

    Build it with :func:`make`. State arrays (read-only views through the
    properties): ``boards`` ``(B, N*N)`` int8 (0 empty, 1 black, 2 white),
    ``current_player`` ``(B,)``, ``num_moves``, ``last_move`` (-1 before the
    first move), ``forbidden`` (black's forbidden points; renju only),
    ``legal_action_mask``.
    """

    def __init__(
        self,
        game: MNKGame,
        num_envs: int,
        num_planes: int,
        *,
        autoreset: bool = True,
        illegal_action: str = "raise",
        parallel: bool = False,
        seed: int | None = None,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action must be one of {', '.join(ILLEGAL_ACTIONS)}, got {illegal_action!r}")
        self.game = game
        self.num_envs = b = int(num_envs)
        self.num_actions = nn = game.num_actions
        self.size = n = game.size
        self.num_planes = num_planes
        self.obs_shape = (n, n, num_planes)
        self.autoreset = bool(autoreset)
        self.illegal_action = illegal_action
        self.parallel = bool(parallel)
        self._step_kernel = K.step_parallel if parallel else K.step_serial
        self._sample_kernel = K.sample_parallel if parallel else K.sample_serial
        self._raise = illegal_action == "raise"
        cfg = np.zeros(K.CFG_SIZE, dtype=np.int64)
        cfg[: K.RULES_SIZE] = game.rules_array()
        cfg[K.CFG_PLANES], cfg[K.CFG_AUTORESET], cfg[K.CFG_OBSERVE] = num_planes, autoreset, 1
        self._cfg = cfg
        self._cfg_quiet = cfg.copy()  # the same, without writing observations
        self._cfg_quiet[K.CFG_OBSERVE] = 0
        self._boards = np.zeros((b, nn), dtype=np.int8)
        self._to_move = np.full(b, BLACK, dtype=np.int8)
        self._num_moves = np.zeros(b, dtype=np.int32)
        self._last_move = np.full(b, -1, dtype=np.int32)
        self._forbidden = np.zeros((b, nn), dtype=np.bool_)
        # The incremental renju mask's bookkeeping, a row per game (one unused column otherwise).
        if game.is_renju:
            self._renju_empty = renju_mask.new_info(n)
            renju_mask.rebuild(np.zeros(nn, dtype=np.int8), n, np.zeros(nn, dtype=np.bool_), self._renju_empty)
        else:
            self._renju_empty = np.zeros(1, dtype=np.int32)
        self._renju_info = np.zeros((b, self._renju_empty.size), dtype=np.int32)
        self._legal = np.ones((b, nn), dtype=np.bool_)
        self._num_legal = np.full(b, nn, dtype=np.int32)
        self._over = np.zeros(b, dtype=np.bool_)
        self._everywhere = np.ones(b, dtype=np.bool_)
        self._illegal = np.zeros(b, dtype=np.bool_)
        self._rng = np.zeros(b, dtype=np.uint64)
        self._seed_rng(seed)

    # ------------------------------------------------------------ state
    @property
    def boards(self) -> np.ndarray:
        return _read_only(self._boards)

    @property
    def current_player(self) -> np.ndarray:
        """Seat to move in each game, ``(B,)`` int8: 0 first player (black / X), 1 second."""
        return self._to_move - np.int8(BLACK)

    @property
    def num_moves(self) -> np.ndarray:
        return _read_only(self._num_moves)

    @property
    def last_move(self) -> np.ndarray:
        return _read_only(self._last_move)

    @property
    def forbidden(self) -> np.ndarray:
        """Black's forbidden points ``(B, N*N)`` bool, whoever is to move (all False unless renju)."""
        return _read_only(self._forbidden)

    @property
    def legal_action_mask(self) -> np.ndarray:
        """The movers' legal actions ``(B, N*N)`` bool; a live view: copy it to keep it past the next step."""
        return _read_only(self._legal)

    @property
    def over(self) -> np.ndarray:
        """Games finished and waiting for a reset (only ever True with ``autoreset=False``)."""
        return _read_only(self._over)

    # -------------------------------------------------------------- api
    def _seed_rng(self, seed: int | None) -> None:
        self._rng[:] = np.random.SeedSequence(seed).generate_state(self.num_envs, np.uint64)

    def reset(self, seed: int | None = None, options: dict | None = None) -> np.ndarray:
        """Empty boards, black to move; planes ``(B, N, N, C)``.

        ``seed`` reseeds :meth:`sample_legal_actions`. ``options={"reset_mask": mask}``
        resets only the games where the bool ``(B,)`` mask is True.
        """
        if seed is not None:
            self._seed_rng(seed)
        where = self._everywhere
        if options and "reset_mask" in options:
            where = np.asarray(options["reset_mask"])
            if where.shape != (self.num_envs,) or where.dtype != np.bool_:
                raise ValueError(f"reset_mask must be a bool array of shape ({self.num_envs},), got {where!r}")
        K.reset_games(self._boards, self._to_move, self._num_moves, self._last_move, self._forbidden,
                      self._renju_info, self._renju_empty, self._legal, self._num_legal, self._over, where)  # fmt: skip
        return self.observe()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Each game's mover plays its ``actions[b]``; ``(obs, rewards, terminated, truncated, info)``."""
        b = self.num_envs
        obs = np.empty((b, self.num_actions * self.num_planes), dtype=np.int8)
        final_obs = np.zeros_like(obs) if self.autoreset else obs[:0]
        rewards, terminated = self._advance(actions, self._everywhere, self._cfg, obs, final_obs)
        info: dict[str, Any] = {}
        if self.autoreset:
            info["final_obs"] = final_obs.reshape(b, *self.obs_shape)
            info["_final_obs"] = terminated
        if self.illegal_action == "lose":
            info["illegal_action"] = info["_illegal_action"] = self._illegal.copy()
        return obs.reshape(b, *self.obs_shape), rewards, terminated, np.zeros(b, dtype=np.bool_), info

    def _advance(
        self, actions: Any, where: np.ndarray, cfg: np.ndarray, obs: np.ndarray, final_obs: np.ndarray,
        raise_illegal: bool | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
        """Play ``actions`` in the games flagged by ``where`` (the others keep their position).

        For views that drive the engine: ``cfg`` is ``self._cfg`` (planes into ``obs``)
        or ``self._cfg_quiet`` (none); ``raise_illegal`` overrides ``illegal_action``
        for this call (an opponent's illegal move is a bug to report, not a loss).
        Returns ``(rewards, terminated)``.
        """
        actions = self._check_actions(actions)
        if final_obs.shape[0] != self.num_envs and cfg[K.CFG_AUTORESET]:
            raise ValueError("final_obs needs a row per game when games reset themselves")
        raising = self._raise if raise_illegal is None else raise_illegal
        rewards = np.empty((self.num_envs, 2), dtype=np.float32)
        terminated = np.empty(self.num_envs, dtype=np.bool_)
        planes = self.num_planes
        bad = self._step_kernel(
            cfg, self._boards, self._to_move, self._num_moves, self._last_move, self._forbidden, self._renju_info,
            self._renju_empty, self._legal, self._num_legal, self._over, actions, where, raising, self._illegal,
            obs, K.words_of(obs, planes), final_obs, K.words_of(final_obs, planes), rewards, terminated,
        )  # fmt: skip
        if bad and raising:
            raise self._illegal_error(actions)
        return rewards, terminated

    def _check_actions(self, actions: Any) -> np.ndarray:
        array = np.asarray(actions)
        if array.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), one per game; got shape {array.shape}")
        if array.dtype.kind not in "iu":
            raise TypeError(f"actions must be integers, got {array.dtype}")
        return array.astype(np.int64, copy=False)

    def _illegal_error(self, actions: np.ndarray) -> IllegalActionsError:
        games = np.flatnonzero(self._illegal)
        shown = [f"game {g}: {self.illegal_reason(int(g), int(actions[g]))}" for g in games[:5]]
        more = f" and {len(games) - 5} more" if len(games) > 5 else ""
        return IllegalActionsError(f"illegal actions in {len(games)} game(s): {'; '.join(shown)}{more}", games)

    def illegal_reason(self, game: int, action: int) -> str | None:
        """Why ``action`` is illegal for game ``game``'s mover (the AEC env's words), or None if legal."""
        if self._over[game]:
            return "the game is over: reset it"
        return self.game_state(game).illegal_reason(action)

    def game_state(self, game: int) -> MNKState:
        """Game ``game`` as a :class:`MNKState` (a copy), for the per-game code of the rules and policies."""
        state = MNKState.from_position(self.game, self._boards[game], int(self._to_move[game]),
                                        int(self._last_move[game]))  # fmt: skip
        return state

    def observe(self, viewers: np.ndarray | None = None) -> np.ndarray:
        """Planes ``(B, N, N, C)`` of every game as seen by ``viewers`` (seats ``(B,)``; default the movers)."""
        colors = self._to_move if viewers is None else (np.asarray(viewers) + BLACK).astype(np.int8)
        out = np.empty((self.num_envs, self.num_actions * self.num_planes), dtype=np.int8)
        K.observe(self._boards, colors, self._to_move, self._last_move, self._forbidden, out,
                  K.words_of(out, self.num_planes))  # fmt: skip
        return out.reshape(self.num_envs, *self.obs_shape)

    def sample_legal_actions(self, seed: int | None = None) -> np.ndarray:
        """A uniformly random legal action for each game's mover, ``(B,)`` int64 (-1 for a game that is over).

        Drawn in numba from one splitmix64 stream per game; ``seed`` reseeds the
        streams first (so does ``reset(seed=)``).
        """
        if seed is not None:
            self._seed_rng(seed)
        out = np.empty(self.num_envs, dtype=np.int64)
        self._sample_kernel(self._legal, self._num_legal, self._rng, out)
        return out

    def __repr__(self) -> str:
        g = self.game
        return f"<VectorGames {self.num_envs} x {g.size}x{g.size} k={g.win_length} {g.rule}>"


def _read_only(array: np.ndarray) -> np.ndarray:
    view = array.view()
    view.flags.writeable = False
    return view


def num_planes(game: MNKGame) -> int:
    """The AEC env's plane count for ``game``: 2 for tic-tac-toe (3x3, three in a row), 4 for gomoku, 5 under renju."""
    if (game.size, game.win_length) == (3, 3):
        return 2
    return 5 if game.is_renju else 4


def make(
    game: str,
    num_envs: int,
    *,
    board_size: int | None = None,
    win_length: int | None = None,
    rule: str | None = None,
    autoreset: bool = True,
    illegal_action: str = "raise",
    parallel: bool = False,
    seed: int | None = None,
) -> VectorGames:
    """``num_envs`` games of a catalog game (``"tictactoe"``, ``"gomoku"``, ``"renju"``), reset.

    ``board_size``, ``win_length`` and ``rule`` as for the AEC envs (None: the game's
    default; gomoku's is 15x15 renju); see the module docstring for the rest.
    ``parallel=True`` runs the per-game loops on numba's threads (``numba.set_num_threads``).
    """
    mnk = game_info(game).game(board_size, win_length, rule)
    vec = VectorGames(mnk, num_envs, num_planes(mnk), autoreset=autoreset, illegal_action=illegal_action,
                      parallel=parallel, seed=seed)  # fmt: skip
    vec.reset()
    return vec
