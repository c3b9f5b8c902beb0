"""Many games of one kind stepped at once: the batched two-player engine, one array API for every game.

>>> from boardgame_envs import vector
>>> vec = vector.make("gomoku", 256, board_size=15, rule="renju")
>>> obs = vec.reset(seed=0)
>>> obs, rewards, terminated, truncated, info = vec.step(vec.sample_legal_actions())

Every game of the batch is at the turn of its *mover* (``current_player``, the
seat to move: 0 for the first player, black, X or red, 1 for the second).
Observations are the AEC env's planes seen by the mover, ``(B, rows, columns,
C)`` int8, byte for byte what ``env.observe(agent)["observation"]`` gives for
the same position; ``legal_action_mask`` ``(B, num_actions)`` bool (under
renju it excludes black's forbidden points); rewards are by seat, ``(B, 2)``
float32: the game's ``returns()`` on the step that ends it (+1 / -1 for a win),
0 otherwise.

Auto-reset follows Gymnasium's **same-step** mode
(``gymnasium.vector.AutoresetMode.SAME_STEP``): a game that ends on a step is
reset within that step, so the returned observation, mask and mover are the
new game's; the finished game's observation is in ``info["final_obs"]`` (rows
flagged by ``info["_final_obs"]``), seen by the player the AEC env selects
once the game is over (the one who did not act on the final step, in a game
whose turns alternate), and its result is that step's ``rewards`` row. With
``autoreset=False`` a finished game stays over (``terminated`` stays True, its
mask empty, its actions ignored) until ``reset(options={"reset_mask": ...})``.

Illegal actions: with ``illegal_action="raise"`` (default) ``step`` raises
:class:`IllegalActionsError` (a ``ValueError``) naming the games and why, and
changes nothing; with ``"lose"`` an illegal action ends its game as
PettingZoo's wrappers do (the offender -1, the other player 0, the board
unchanged) and ``info["illegal_action"]`` flags it.

**Backends.** The games live in a *batch*, arrays with one row per game, which
:class:`VectorGames` drives through four calls (``reset``, ``step``,
``observe``, ``state``). A game brings its own through the protocol's hook
``game.kernels()``, the one way a backend is chosen: the m,n,k family's
(:class:`~boardgame_envs.games.mnk_batch.MNKBatch`, numba,
:mod:`boardgame_envs.games.mnk_kernels`) and connect four's (bitboards in
numba, :mod:`boardgame_envs.games.connect_four_kernels`); any other game is
stepped state by state in Python
(:class:`~boardgame_envs.vector.loop_batch.LoopBatch`), behind the same API.
``parallel=True`` spreads the numba backends' loops over numba's threads.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardgame_envs.games.catalog import game_info, load
from boardgame_envs.games.parameters import given
from boardgame_envs.games.protocol import IllegalMoveError
from boardgame_envs.vector import sampling
from boardgame_envs.vector.loop_batch import LoopBatch

ILLEGAL_ACTIONS = ("raise", "lose")

__all__ = ["ILLEGAL_ACTIONS", "IllegalActionsError", "VectorGames", "batch_class", "make"]


class IllegalActionsError(IllegalMoveError):
    """Illegal actions in some games of a batch; ``games`` holds their indices."""

    def __init__(self, message: str, games: np.ndarray) -> None:
        super().__init__(message)
        self.games = games


def batch_class(game: Any) -> type:
    """The backend that steps ``game``: its own kernels (``game.kernels()``), else the loop over its states.

    ``game.kernels()`` returns the batch class or its ``"module:attribute"`` name
    (a name lets the kernels' module import the game's without a circle), or
    None for a variant without kernels. The hook alone decides: a game's
    ``family`` names the searches' fast paths, not its batches.
    """
    hook = getattr(game, "kernels", None)
    own = hook() if callable(hook) else None
    if own is not None:
        return load(own) if isinstance(own, str) else own
    return LoopBatch


class VectorGames:
    """``num_envs`` games of one game, stepped together; see the module docstring.

    Build it with :func:`make`. State (read-only views through the properties):
    ``current_player`` ``(B,)``, ``num_moves``, ``legal_action_mask``, ``over``,
    ``boards`` ``(B, rows * columns)`` int8 (0 empty, 1 or 2 the player's piece),
    ``last_move`` (the last cell, -1 before the first move); m,n,k also
    ``forbidden`` (black's forbidden points; renju only) and ``size``.
    ``game_state(b)`` is game ``b`` as the game's own ``State``.
    """

    def __init__(
        self,
        game: Any,
        num_envs: int,
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
        self.autoreset = bool(autoreset)
        self.illegal_action = illegal_action
        self.parallel = bool(parallel)
        self.batch = batch_class(game)(game, b, parallel=self.parallel)
        self.num_actions = self.batch.num_actions
        self.obs_shape = tuple(self.batch.obs_shape)
        self.num_planes = self.obs_shape[2]
        self._obs_size = int(np.prod(self.obs_shape))
        self._sample_kernel = sampling.sample_parallel if parallel else sampling.sample_serial
        self._raise = illegal_action == "raise"
        self._everywhere = np.ones(b, dtype=np.bool_)
        self._rng = np.zeros(b, dtype=np.uint64)
        self._seed_rng(seed)

    # ------------------------------------------------------------ state
    @property
    def current_player(self) -> np.ndarray:
        """Seat to move in each game, ``(B,)`` int8: 0 the first player, 1 the second."""
        return self.batch.to_move - np.int8(1)

    @property
    def num_moves(self) -> np.ndarray:
        return _read_only(self.batch.num_moves)

    @property
    def boards(self) -> np.ndarray:
        return _read_only(self.batch.boards)

    @property
    def last_move(self) -> np.ndarray:
        return _read_only(self.batch.last_move)

    @property
    def legal_action_mask(self) -> np.ndarray:
        """The movers' legal actions ``(B, num_actions)`` bool; a live view: copy it to keep it past the next step."""
        return _read_only(self.batch.legal)

    @property
    def over(self) -> np.ndarray:
        """Games finished and waiting for a reset (only ever True with ``autoreset=False``)."""
        return _read_only(self.batch.over)

    @property
    def illegal(self) -> np.ndarray:
        """The games whose action was illegal on the last step (a copy)."""
        return self.batch.illegal.copy()

    @property
    def forbidden(self) -> np.ndarray:
        """Black's forbidden points ``(B, N*N)`` bool, whoever is to move (all False unless renju); m,n,k only."""
        return _read_only(self._family_array("forbidden"))

    @property
    def size(self) -> int:
        """The board's side (m,n,k only)."""
        return self._family_array("size")

    def _family_array(self, name: str) -> Any:
        value = getattr(self.batch, name, None)
        if value is None:
            raise AttributeError(f"{self.game.name} has no {name!r}: it is the m,n,k family's")
        return value

    # -------------------------------------------------------------- api
    def _seed_rng(self, seed: int | None) -> None:
        self._rng[:] = np.random.SeedSequence(seed).generate_state(self.num_envs, np.uint64)

    def reset(self, seed: int | None = None, options: dict | None = None) -> np.ndarray:
        """Start positions, the first player to move; planes ``(B, rows, columns, C)``.

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
        self.batch.reset(where)
        return self.observe()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Each game's mover plays its ``actions[b]``; ``(obs, rewards, terminated, truncated, info)``."""
        b = self.num_envs
        obs = np.empty((b, self._obs_size), dtype=np.int8)
        # np.zeros asks calloc for zeroed memory; zeros_like fills an empty array by copyto (1 µs more
        # for 256 15x15 games).
        final_obs = np.zeros(obs.shape, dtype=np.int8) if self.autoreset else None
        rewards, terminated = self._advance(actions, self._everywhere, obs, final_obs)
        info: dict[str, Any] = {}
        if final_obs is not None:
            info["final_obs"] = final_obs.reshape(b, *self.obs_shape)
            info["_final_obs"] = terminated
        if self.illegal_action == "lose":
            info["illegal_action"] = info["_illegal_action"] = self.batch.illegal.copy()
        return obs.reshape(b, *self.obs_shape), rewards, terminated, np.zeros(b, dtype=np.bool_), info

    def _advance(
        self, actions: Any, where: np.ndarray, obs: np.ndarray | None = None, final_obs: np.ndarray | None = None,
        raise_illegal: bool | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
        """Play ``actions`` in the games flagged by ``where`` (the others keep their position).

        For views that drive the engine: planes go into ``obs`` (``(B, rows *
        columns * C)`` int8) when given, finished games' into ``final_obs``
        (and they reset) when given and ``autoreset``; ``raise_illegal``
        overrides ``illegal_action`` for this call (an opponent's illegal move
        is a bug to report, not a loss). Returns ``(rewards, terminated)``.
        """
        actions = self._check_actions(actions)
        raising = self._raise if raise_illegal is None else raise_illegal
        rewards = np.empty((self.num_envs, 2), dtype=np.float32)
        terminated = np.empty(self.num_envs, dtype=np.bool_)
        bad = self.batch.step(actions, where, raising, self.autoreset, obs, final_obs, rewards, terminated)
        if bad and raising:
            raise self._illegal_error(actions)
        return rewards, terminated

    def _check_actions(self, actions: Any) -> np.ndarray:
        if type(actions) is np.ndarray and actions.dtype == np.int64 and actions.shape == (self.num_envs,):
            return actions  # what sample_legal_actions and the policies give, taken as it is
        array = np.asarray(actions)
        if array.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), one per game; got shape {array.shape}")
        if array.dtype.kind not in "iu":
            raise TypeError(f"actions must be integers, got {array.dtype}")
        return array.astype(np.int64, copy=False)

    def _illegal_error(self, actions: np.ndarray) -> IllegalActionsError:
        games = np.flatnonzero(self.batch.illegal)
        shown = [f"game {g}: {self.illegal_reason(int(g), int(actions[g]))}" for g in games[:5]]
        more = f" and {len(games) - 5} more" if len(games) > 5 else ""
        return IllegalActionsError(f"illegal actions in {len(games)} game(s): {'; '.join(shown)}{more}", games)

    def illegal_reason(self, game: int, action: int) -> str | None:
        """Why ``action`` is illegal for game ``game``'s mover (the AEC env's words), or None if legal."""
        if self.batch.over[game]:
            return "the game is over: reset it"
        return self.game_state(game).illegal_reason(action)

    def game_state(self, game: int) -> Any:
        """Game ``game`` as the game's own ``State`` (a copy), for the per-game code of the rules and policies."""
        return self.batch.state(int(game))

    def observe(self, viewers: np.ndarray | None = None) -> np.ndarray:
        """Planes ``(B, rows, columns, C)`` of every game as seen by ``viewers`` (seats ``(B,)``; default the movers)."""
        players = self.batch.to_move if viewers is None else (np.asarray(viewers) + 1).astype(np.int8)
        out = np.empty((self.num_envs, self._obs_size), dtype=np.int8)
        self.batch.observe(players, out)
        return out.reshape(self.num_envs, *self.obs_shape)

    def sample_legal_actions(self, seed: int | None = None) -> np.ndarray:
        """A uniformly random legal action for each game's mover, ``(B,)`` int64 (-1 for a game that is over).

        Drawn in numba from one splitmix64 stream per game; ``seed`` reseeds
        the streams first (so does ``reset(seed=)``).
        """
        if seed is not None:
            self._seed_rng(seed)
        out = np.empty(self.num_envs, dtype=np.int64)
        self._sample_kernel(self.batch.legal, self.batch.num_legal, self._rng, out)
        return out

    def __repr__(self) -> str:
        return f"<VectorGames {self.num_envs} x {self.game.describe()}>"


def _read_only(array: np.ndarray) -> np.ndarray:
    view = array.view()
    view.flags.writeable = False
    return view


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
    parameters: dict[str, Any] | None = None,
    **game_parameters: Any,
) -> VectorGames:
    """``num_envs`` games of a catalog game (``"tictactoe"``, ``"gomoku"``, ``"renju"``, ``"connect_four"``, ...), reset.

    ``board_size``, ``win_length`` and ``rule`` as for the AEC envs (None: the
    game's default; gomoku's is 15x15 renju; a game with no such choice refuses
    them); a game's declared parameters by keyword, as :func:`~boardgame_envs.envs.factory.make_env`
    takes them (``vector.make("dots_and_boxes", 64, rows=3)``), or as one dict,
    ``parameters={"rows": 3}``, which is how a parameter named like one of this
    function's own arguments (``seed``, ``parallel``) is given; each within its
    choices, else ``ValueError`` naming them (an m,n,k game refuses them; one
    given both ways is a ``TypeError``). See the module docstring for the
    rest. ``parallel=True`` runs the numba backends' loops over games on
    numba's threads (``numba.set_num_threads``).
    """
    chosen_parameters = given(parameters)
    twice = sorted(set(chosen_parameters) & set(game_parameters))
    if twice:
        raise TypeError(f"{', '.join(twice)} given both as a keyword and in parameters=; give each once")
    chosen = game_info(game).game(board_size, win_length, rule, **chosen_parameters, **game_parameters)
    vec = VectorGames(chosen, num_envs, autoreset=autoreset, illegal_action=illegal_action, parallel=parallel,
                      seed=seed)  # fmt: skip
    vec.reset()
    return vec
