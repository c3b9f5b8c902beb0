"""The Gymnasium vector view: ``num_envs`` single-agent games on the batched engine, opponent inside ``step``.

>>> import gymnasium, boardgame_envs
>>> envs = gymnasium.make_vec("boardgame_envs/Renju-v0", num_envs=64, vectorization_mode="vector_entry_point",
...                           opponent="random")

The batched counterpart of :mod:`boardgame_envs.envs.single_agent`, with the same
arguments (``game``, ``board_size``, ``win_length``, ``rule``, ``parameters``, ``opponent``,
``seat``, ``illegal_action``, ``channels_first``, ``flatten``) and the same
observations, rewards and masks game by game, for every game of the catalog;
plus ``parallel`` (numba threads). Between steps every game is at the learner's
turn: the opponent replies until it is (more than once where a player may move
twice running).

* ``opponent``: ``"random"`` and ``"greedy"`` / ``"greedy:epsilon=E"`` (the
  registry's one-ply player: win, else block, else extend lines) run batched in
  numba (greedy on m,n,k and connect four; on another game the registry's player
  game by game); a callable ``(observations, action_masks) -> actions`` is
  called once a step with the waiting games (a frozen network: self-play);
  any other policy spec or policy object plays game by game (much slower: the
  policy's time times the number of games). See :mod:`boardgame_envs.vector.opponents`.
* ``opponent=pool``: an opponent pool (:class:`boardgame_envs.selfplay.OpponentPool`, or
  any object with ``sample()``, ``opponent(name)`` and ``record(name, score)``; see
  :func:`~boardgame_envs.envs.single_agent.is_opponent_pool`): each game draws its
  opponent at each of its resets; on a step the games that wait for the same member
  are answered together (a snapshot's batched callable plays all of them in one
  call, ``"random"`` and ``"greedy"`` stay in numba); each finished game's learner
  score (1, 0.5, 0) goes to ``pool.record``. ``info["opponent"]`` names each game's
  opponent (after the step's resets), ``info["final_opponent"]`` the finished
  games' (flagged by ``info["_final_opponent"]``). Under ``SubprocVecEnv`` each process
  has its own copy of a pool; one batched env shares one pool over all its games.
* ``seat``: ``"first"``, ``"second"`` or ``"random"`` (drawn per game at each of
  its resets from ``np_random``); ``info["seat"]`` holds each game's (0 first, 1 second).
* Auto-reset: ``AutoresetMode.SAME_STEP`` (``metadata["autoreset_mode"]``). A
  game that ends on a step is reset in that step (and the opponent opens it if
  it has the first seat); ``info["final_obs"]`` is an object array holding the
  finished games' last observations as the learner sees them (``None``
  elsewhere), flagged by ``info["_final_obs"]``, as ``SyncVectorEnv`` does.
* Action masks: ``info["action_mask"]`` ``(B, N*N)`` bool after every reset and
  step, and ``action_masks()`` (what sb3-contrib's MaskablePPO calls through
  :class:`boardgame_envs.vector.sb3.SB3VecEnv`).
* ``illegal_action="lose"`` (default): the game ends with -1, board unchanged,
  ``info["illegal_action"]`` flags it; ``"raise"``: :class:`~boardgame_envs.vector.engine.IllegalActionsError`
  naming the games, and nothing changes. An opponent policy that raises
  :class:`~boardgame_envs.policies.base.Forfeit` loses that game: +1, terminated,
  ``info["opponent_forfeit"]`` its reason (a forfeit of an opening move propagates).

Rewards ``(B,)`` float64: +1 when the learner wins, -1 when it loses (also on
the step where the opponent's reply wins), 0 otherwise.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from boardgame_envs.envs.single_agent import check_view_options, game_score, is_opponent_pool
from boardgame_envs.vector.engine import VectorGames, make
from boardgame_envs.vector.opponents import make_opponent
from boardgame_envs._compat import renamed_attributes


class SingleAgentVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games against an opponent as one ``gymnasium.vector.VectorEnv``; see the module docstring."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 1,
        game: str = "tictactoe",
        board_size: int | None = None,
        win_length: int | None = None,
        rule: str | None = None,
        opponent: Any = "random",
        seat: str = "first",
        illegal_action: str = "lose",
        channels_first: bool = False,
        flatten: bool = False,
        parallel: bool = False,
        render_mode: str | None = None,
        parameters: dict[str, Any] | None = None,
    ) -> None:
        check_view_options(seat, illegal_action, channels_first, flatten)
        if render_mode is not None:
            raise ValueError(f"the vector view does not render (render_mode={render_mode!r}); use the AEC env")
        self.engine: VectorGames = make(game, num_envs, board_size=board_size, win_length=win_length, rule=rule,
                                        autoreset=False, illegal_action=illegal_action, parallel=parallel,
                                        parameters=parameters)  # fmt: skip
        self.num_envs = b = self.engine.num_envs
        self.seat = seat
        self.illegal_action = illegal_action
        self.channels_first = bool(channels_first)
        self.flatten = bool(flatten)
        self.render_mode = None
        h, w, c = self.engine.obs_shape
        shape = (h * w * c,) if self.flatten else (c, h, w) if self.channels_first else (h, w, c)
        self.single_observation_space = spaces.Box(0, 1, shape, np.uint8)
        self.single_action_space = spaces.Discrete(self.engine.num_actions)
        self.observation_space = batch_space(self.single_observation_space, b)
        self.action_space = batch_space(self.single_action_space, b)
        self._names = np.full(b, None, dtype=object)  # each game's pool member (with a pool)
        self._set(opponent)
        self._seats = np.zeros(b, dtype=np.int8)  # the learner's seat in each game: 0 first, 1 second
        self._rows = np.arange(b)

    # ---------------------------------------------------------- helpers
    def _encode(self, planes: np.ndarray) -> np.ndarray:
        """Engine planes ``(k, N, N, C)`` int8 -> the learner's observation format (uint8, HWC / CHW / flat)."""
        planes = planes.view(np.uint8)  # 0/1 int8 planes: the same bytes
        if self.flatten:
            return planes.reshape(len(planes), -1)
        return np.ascontiguousarray(planes.transpose(0, 3, 1, 2)) if self.channels_first else planes

    def _advance(self, actions: Any, where: np.ndarray, learner: bool) -> tuple[np.ndarray, np.ndarray]:
        """Moves in the games flagged by ``where``; the learner's rewards and the games that ended.

        The opponent's illegal moves raise whatever ``illegal_action`` says: they are bugs, not losses.
        """
        rewards, terminated = self.engine._advance(actions, where, raise_illegal=None if learner else True)
        return rewards[self._rows, self._seats].astype(np.float64), terminated & where

    def _opening(self, games: np.ndarray) -> None:
        """New games in ``games``: draw the learner's seats, and let the opponent open where it is first."""
        if self.seat == "random":
            self._seats[games] = self.np_random.integers(2, size=int(games.sum()))
        else:
            self._seats[games] = 0 if self.seat == "first" else 1
        if self.pool is not None:
            for g in np.flatnonzero(games):
                self._names[g] = self.pool.sample()
            members = getattr(self.pool, "names", None)  # an OpponentPool's; a duck-typed pool may lack it
            if members is not None:
                playing, members = set(self._names), set(members)
                for name in [n for n in self._pooled if n not in playing and n not in members]:
                    del self._pooled[name]  # a member that left the pool, its last game over
        opens = games & self._opponent_to_move()
        while opens.any():  # more than once in a game where a player may move twice in a row
            replies, forfeits = self._replies(opens)
            for exc in forfeits.values():
                raise exc  # a forfeit of the opening move propagates, as in the single-agent view
            _, ended = self._advance(replies, opens, learner=False)
            opens &= ~ended & self._opponent_to_move()

    def _opponent_to_move(self) -> np.ndarray:
        """The games where the opponent is to move, ``(B,)`` bool (an unfinished game's mover is not the learner)."""
        return self.engine.current_player != self._seats

    def _replies(self, where: np.ndarray) -> tuple[np.ndarray, dict[int, Exception]]:
        """The opponent's moves in the games flagged by ``where``, and the games it forfeited (game -> exception).

        With a pool, the games that wait for the same member are answered in one call of that member.
        """
        if self.pool is None:
            replies = self.opponent.actions(self.engine, where)
            return replies, dict(getattr(self.opponent, "forfeits", None) or {})
        replies = np.full(self.num_envs, -1, dtype=np.int64)
        forfeits: dict[int, Exception] = {}
        for name in dict.fromkeys(self._names[where]):  # each member once, in the order its games come
            group = where & (self._names == name)
            member = self._member(name)
            chosen = member.actions(self.engine, group)
            replies[group] = chosen[group]
            forfeits.update(getattr(member, "forfeits", None) or {})
        return replies, forfeits

    def _member(self, name: str) -> Any:
        """The batched opponent of pool member ``name``, built once (anew if the pool replaced the member).

        A member that left the pool meanwhile (an old snapshot dropped by ``add_snapshot``) keeps
        playing the games already drawn against it; no new game draws it.
        """
        built = self._pooled.get(name)
        try:
            given = self.pool.opponent(name)
        except KeyError:
            if built is None:
                raise
            return built[1]
        if built is None or built[0] is not given:
            built = self._pooled[name] = (given, make_opponent(given, self._encode, int(self.np_random.integers(2**63))))
        return built[1]

    def _set(self, opponent: Any, seed: int | None = None) -> None:
        self._pooled: dict[str, tuple[Any, Any]] = {}  # member name -> (what the pool gave, its batched opponent)
        self._names[:] = None
        if is_opponent_pool(opponent):
            self.pool, self.opponent = opponent, None
        else:
            self.pool, self.opponent = None, make_opponent(opponent, self._encode, seed)

    def _info(self) -> dict[str, Any]:
        info = {"action_mask": self.action_masks(), "_action_mask": np.ones(self.num_envs, dtype=np.bool_),
                "seat": self._seats.copy(), "_seat": np.ones(self.num_envs, dtype=np.bool_)}  # fmt: skip
        if self.pool is not None:
            info["opponent"], info["_opponent"] = self._names.copy(), np.ones(self.num_envs, dtype=np.bool_)
        return info

    # -------------------------------------------------------------- api
    def action_masks(self) -> np.ndarray:
        """Bool ``(B, N*N)``: the learner's legal actions in each game."""
        return self.engine.legal_action_mask.copy()

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """New games everywhere; ``seed`` fixes the seats and the opponent's moves too."""
        super().reset(seed=seed)
        if seed is not None:
            for opponent in [self.opponent] if self.pool is None else [built for _, built in self._pooled.values()]:
                opponent.seed(int(self.np_random.integers(2**63)))
        self.engine.reset()
        self._opening(np.ones(self.num_envs, dtype=np.bool_))
        return self._encode(self.engine.observe()), self._info()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """The learner's moves, then the opponent's replies in the games still going; finished games restart."""
        everywhere = np.ones(self.num_envs, dtype=np.bool_)
        rewards, done = self._advance(actions, everywhere, learner=True)
        illegal = self.engine.illegal if self.illegal_action == "lose" else None
        # The opponent replies until the learner is to move again (once, where turns alternate).
        waiting = ~done & self._opponent_to_move()
        info: dict[str, Any] = {}
        while waiting.any():
            replies, forfeits = self._replies(waiting)
            if forfeits:  # the opponent lost those games by its own fault: the learner wins them
                lost = np.zeros(self.num_envs, dtype=np.bool_)
                lost[list(forfeits)] = True
                reasons = info.get("opponent_forfeit", np.full(self.num_envs, None, dtype=object))
                for g, exc in forfeits.items():
                    reasons[g] = str(exc)
                info["opponent_forfeit"] = reasons
                info["_opponent_forfeit"] = info.get("_opponent_forfeit", lost) | lost
                rewards[lost] = 1.0
                done |= lost
                waiting &= ~lost
            reply_rewards, reply_done = self._advance(replies, waiting, learner=False)
            rewards += reply_rewards
            done |= reply_done
            waiting &= ~done & self._opponent_to_move()
        if done.any():
            final = self._encode(self.engine.observe(viewers=self._seats))
            final_obs = np.full(self.num_envs, None, dtype=object)
            for g in np.flatnonzero(done):
                final_obs[g] = final[g]
            info["final_obs"], info["_final_obs"] = final_obs, done.copy()
            if self.pool is not None:
                info["final_opponent"], info["_final_opponent"] = np.where(done, self._names, None), done.copy()
                for g in np.flatnonzero(done):
                    self.pool.record(self._names[g], game_score(rewards[g]))
            self.engine.reset(options={"reset_mask": done})
            self._opening(done)
        if illegal is not None and illegal.any():
            info["illegal_action"], info["_illegal_action"] = illegal, illegal.copy()
        info.update(self._info())
        return self._encode(self.engine.observe()), rewards, done, np.zeros(self.num_envs, dtype=np.bool_), info

    def set_opponent(self, opponent: Any, seed: int | None = None) -> None:
        """Replace the opponent (same kinds as the constructor's ``opponent``); it plays from its next move.

        With a pool, every game under way draws its member now (and records its result against it).
        """
        self._set(opponent, seed)
        if self.pool is not None:
            for g in range(self.num_envs):
                self._names[g] = self.pool.sample()

    def __repr__(self) -> str:
        opponent = self.pool if self.pool is not None else self.opponent.name
        return f"SingleAgentVectorEnv({self.engine!r}, opponent={opponent!r}, seat={self.seat!r})"


__getattr__ = renamed_attributes(__name__)  # the old name BoardGameVectorEnv, with a warning until it goes
