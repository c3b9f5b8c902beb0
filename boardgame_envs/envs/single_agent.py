"""A Gymnasium single-agent view of our games: the opponent moves inside ``step``.

>>> import gymnasium, boardgame_envs            # the import registers the ids
>>> env = gymnasium.make("boardgame_envs/TicTacToe-v0", opponent="mcts")

Each catalog game's env module registers its ids (:func:`boardgame_envs.games.catalog.register_env`;
every game's are in ``GAMES[name].gymnasium_ids``). Today: ``boardgame_envs/TicTacToe-v0``,
``boardgame_envs/Gomoku-v0`` (kwargs ``board_size``, ``win_length``, ``rule``, ``opening_rule``;
default 15x15 renju, as everywhere in the package), ``boardgame_envs/Renju-v0`` (15x15 renju, fixed:
other sizes or rules raise; ``opening_rule`` applies) and ``boardgame_envs/ConnectFour-v0`` (no
kwargs). The ``game`` argument is a name of :mod:`boardgame_envs.games.catalog`; ``parameters``
(a dict) picks the size of a game whose catalog entry declares parameters (``{"rows": 3}``, the
names and values its entry lists; an m,n,k game takes ``board_size``, ``win_length`` and ``rule``
instead, and refuses them). Gymnasium 1.x
does not import packages for you: run
``import boardgame_envs`` first, or write the id as
``"boardgame_envs:boardgame_envs/TicTacToe-v0"`` (Gymnasium imports the part
before the colon; use this form in ``SubprocVecEnv`` / ``make_vec`` workers).

* ``opponent``: a policy spec (``"random"``, ``"mcts:simulations=200"``, a checkpoint path; see
  :mod:`boardgame_envs.policies.registry`), a pair
  ``(name, kwargs)`` such as ``("mcts", {"simulations": 200})``, a policy
  object (``act(state) -> action``, the protocol of :mod:`boardgame_envs.policies`; this view
  hands it the inner AEC env, which every built-in policy turns into the state with
  :func:`~boardgame_envs.policies.game_state_of`: a policy of your own does the same), or a callable
  ``(observation, action_mask) -> action``. The callable sees the opponent's
  own view encoded exactly like the learner's observations (same space), so a
  frozen copy of the learner plays as it is: self-play. ``set_opponent``
  swaps it between episodes (also through ``VecEnv.env_method``).
* ``opponent=pool``: an opponent pool (:class:`boardgame_envs.selfplay.OpponentPool`, or any
  object with the three methods of :func:`is_opponent_pool`): each game draws its
  opponent with ``pool.sample()`` at its reset, plays what ``pool.opponent(name)``
  gives (a spec, a policy, or a *batched* callable ``(observations, action_masks) ->
  actions``, called here with a batch of one), and reports the learner's score
  (1, 0.5, 0: by the sign of its return, so a game scored by a margin counts as a win, a
  draw or a loss) with ``pool.record(name, score)`` when the game ends; a game left by a
  ``reset`` before its end records nothing. ``info["opponent"]`` names the game's
  opponent. Under ``SubprocVecEnv`` each process holds its own copy of the pool (its
  counts stay in that process); the batched vector env shares one pool over all its games.
* ``opening_rule`` (gomoku and renju): a tournament opening rule (``"soosorv8"``,
  ``"taraguchi10"``, ``"rif"``, ``"swap2"``, or True for the rule's default; see
  :mod:`boardgame_envs.gomoku_v0`). The learner and the opponent then take every
  decision of the opening (swaps, offers, the choice) through the same actions,
  and ``seat`` names the learner's seat, not its colour; ``info["color"]`` and
  ``info["phase"]`` say what it holds and where the game stands, in words (the AEC
  env's own info says them in numbers, ``color_id`` and ``phase_id``).
  ``gymnasium.make_vec`` with an opening rule runs the single-agent envs in turn
  (Gymnasium's ``SyncVectorEnv``): the batched engine plays the plain games only.
* ``seat``: ``"first"``, ``"second"`` or ``"random"`` (drawn from ``np_random``,
  so ``reset(seed=...)`` fixes it); on a seeded reset the opponent's generator
  (its ``rng`` attribute, which all built-in policies have) is reseeded from
  the same seed, so a seed fixes the whole episode.
* ``illegal_action``: ``"lose"`` (default: the episode ends with -1, the board
  unchanged and ``info["illegal_action"] = True``) or ``"raise"``
  (``IllegalMoveError``). An opponent whose ``act`` raises
  :class:`~boardgame_envs.policies.base.Forfeit` (an external engine that crashed,
  timed out or played an illegal move) loses: the step returns +1, terminated, with
  ``info["opponent_forfeit"]`` the reason (a forfeit of its first move in ``reset``
  propagates).

Invariant: between steps it is always the learner's turn or the game is over.
Rewards are Python floats: +1 when the learner wins, -1 when it loses
(including on the step where the opponent's reply wins), 0 otherwise.
Observations are the learner's planes of the AEC env as a ``uint8`` Box with
values 0/1: HWC by default, CHW with ``channels_first=True`` (for CNNs such as
``boardgame_envs.vector.sb3.BoardCNN``), 1-D with ``flatten=True`` (for MLPs). The
action mask is not in the observation: read it from ``info["action_mask"]`` or
``env.action_masks()`` (what sb3-contrib's MaskablePPO calls).
"""

from __future__ import annotations

import operator
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from boardgame_envs.envs.opening_env import OpeningRuleEnv
from boardgame_envs.games.catalog import GAMES, game_info, load
from boardgame_envs.games.mnk import IllegalMoveError
from boardgame_envs.games.parameters import given
from boardgame_envs.policies.base import Forfeit
from boardgame_envs.policies.registry import make_policy
from boardgame_envs._compat import renamed_attributes

SEATS = ("first", "second", "random")
ILLEGAL = ("lose", "raise")


def check_view_options(seat: str, illegal_action: str, channels_first: Any, flatten: Any) -> None:
    """The checks of the arguments the single-agent view and its vector twin share."""
    if seat not in SEATS:
        raise ValueError(f"unknown seat {seat!r}; expected one of {', '.join(SEATS)}")
    if illegal_action not in ILLEGAL:
        raise ValueError(f"illegal_action must be one of {', '.join(ILLEGAL)}, got {illegal_action!r}")
    for name, value in (("channels_first", channels_first), ("flatten", flatten)):
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{name} must be True or False, got {value!r}")
    if channels_first and flatten:
        raise ValueError("channels_first and flatten exclude each other: CHW planes for a CNN, or 1-D for an MLP")


def is_opponent_pool(opponent: Any) -> bool:
    """Whether ``opponent`` is a pool of opponents rather than one: it has ``sample() -> name``,
    ``opponent(name)`` (a spec, a policy, or a batched callable) and ``record(name, score)``."""
    return all(callable(getattr(opponent, method, None)) for method in ("sample", "opponent", "record"))


def game_score(reward: float) -> float:
    """The learner's score of a finished game from its return: 1 won, 0.5 drawn, 0 lost (a margin counts by its
    sign, so a game scored by the margin is still a win, a draw or a loss to a pool)."""
    return 0.5 + 0.5 * float(np.sign(reward))


def batch_of_one(fn: Any) -> Any:
    """A batched callable ``(observations, action_masks) -> actions`` as this view's one-position callable."""

    def one(observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(np.asarray(fn(observation[None], action_mask[None])).reshape(-1)[0])

    one.__name__ = getattr(fn, "__name__", type(fn).__name__)
    return one


def make_opponent(spec: Any, seed: int | None = None) -> Any:
    """The opponent a spec names: any registry spec (``"mcts:simulations=200"``, ``(name, kwargs)``, a
    checkpoint path), a policy with ``act(state)`` (handed the inner AEC env), or a callable
    ``(observation, action_mask) -> action``."""
    if isinstance(spec, (str, tuple)):
        return make_policy(spec, seed=seed)
    if hasattr(spec, "act") or callable(spec):
        return spec
    raise ValueError(
        f"opponent must be a policy spec (e.g. 'mcts:simulations=200'), a (name, kwargs) pair, a policy with "
        f"act(state) or a callable (observation, action_mask) -> action; got {spec!r}"
    )


class SingleAgentEnv(gymnasium.Env):
    """One of our two-player games as a single-agent ``gymnasium.Env``; see the module docstring."""

    metadata = {"render_modes": ["ansi", "rgb_array", "human"], "render_fps": 2}

    def __init__(
        self,
        game: str = "tictactoe",
        board_size: int | None = None,
        win_length: int | None = None,
        rule: str | None = None,
        opponent: Any = "random",
        seat: str = "first",
        illegal_action: str = "lose",
        channels_first: bool = False,
        flatten: bool = False,
        render_mode: str | None = None,
        opening_rule: Any = None,
        parameters: dict[str, Any] | None = None,
    ) -> None:
        info = game_info(game)
        check_view_options(seat, illegal_action, channels_first, flatten)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}; expected None, 'ansi', 'rgb_array' or 'human'")
        # Arguments that do not apply, or are out of range, fail here.
        rules = info.game(board_size, win_length, rule, opening_rule, **given(parameters))
        self.aec = info.env_module.raw_env(render_mode=render_mode, **info.env_kwargs(rules))
        self._opening = isinstance(self.aec, OpeningRuleEnv)  # the learner's colour and the phase go in info
        self.render_mode = render_mode
        self.seat = seat
        self.illegal_action = illegal_action
        self.channels_first = bool(channels_first)
        self.flatten = bool(flatten)
        self.pool: Any = None  # an opponent pool, when ``opponent`` is one
        self.opponent_name: str | None = None  # the pool member playing the current game
        self._pooled: dict[str, tuple[Any, Any]] = {}  # member name -> (what the pool gave, the opponent built)
        self._playing = False  # a game with a pool opponent is under way and has not been recorded
        self._set(opponent)
        h, w, c = self.aec.observation_space(self.aec.possible_agents[0])["observation"].shape
        shape = (h * w * c,) if self.flatten else (c, h, w) if self.channels_first else (h, w, c)
        self.observation_space = spaces.Box(0, 1, shape, np.uint8)
        self.action_space = spaces.Discrete(self.aec.num_actions)
        self.learner = self.aec.possible_agents[0]
        self._forfeit = False  # the episode ended on a forfeit: the learner's illegal action, or the opponent's

    # ----------------------------------------------------------- opponents
    def set_opponent(self, opponent: Any, seed: int | None = None) -> None:
        """Replace the opponent (same kinds as the constructor's ``opponent``); it plays from its next move.

        ``seed`` seeds a built-in policy (or reseeds a policy object's ``rng``), so a
        curriculum that switches opponents mid-training stays reproducible.
        """
        self._set(opponent, seed)
        if seed is not None:
            self._reseed_opponent(seed)

    def _set(self, opponent: Any, seed: int | None = None) -> None:
        self._pooled, self._playing, self.opponent_name = {}, False, None
        if is_opponent_pool(opponent):
            self.pool, self.opponent = opponent, None  # each reset draws the game's opponent
        else:
            self.pool, self.opponent = None, self._fitted(make_opponent(opponent, seed))

    def _draw(self) -> None:
        """The opponent of a new game, from the pool; what a member gives is built once and kept."""
        name = self.pool.sample()
        given = self.pool.opponent(name)
        built = self._pooled.get(name)
        if built is None or built[0] is not given:  # a member replaced under the same name is built anew
            if isinstance(given, (str, tuple)) or hasattr(given, "act"):
                opponent = make_opponent(given, seed=int(self.np_random.integers(2**31)))
            elif callable(given):
                opponent = batch_of_one(given)
            else:
                raise TypeError(f"pool.opponent({name!r}) gave {given!r}: expected a spec, a policy or a batched "
                                f"callable (observations, action_masks) -> actions")  # fmt: skip
            built = self._pooled[name] = (given, self._fitted(opponent))
        self.opponent, self.opponent_name, self._playing = built[1], name, True

    def _record(self, reward: float) -> None:
        """A finished game's result, told to the pool once."""
        if self.pool is not None and self._playing:
            self._playing = False
            self.pool.record(self.opponent_name, game_score(reward))

    def _fitted(self, opponent: Any) -> Any:
        """``opponent``, once it has said it can play this game (a policy with ``check_game`` checks now)."""
        check = getattr(opponent, "check_game", None)
        if callable(check):
            check(self.aec.game)
        return opponent

    def _reseed_opponent(self, seed: int) -> None:
        rng = getattr(self.opponent, "rng", None)
        if isinstance(rng, np.random.Generator):
            self.opponent.rng = np.random.default_rng(seed)

    def _opponent_move(self) -> int:
        if hasattr(self.opponent, "act"):
            return int(self.opponent.act(self.aec))
        view = self.aec.observe(self.aec.agent_selection)
        return int(self.opponent(self._encode(view["observation"]), view["action_mask"].astype(bool)))

    # ---------------------------------------------------------------- core
    def _encode(self, planes: np.ndarray) -> np.ndarray:
        planes = planes.view(np.uint8)  # 0/1 int8 planes: same bytes
        if self.flatten:
            return planes.reshape(-1)
        return np.ascontiguousarray(planes.transpose(2, 0, 1)) if self.channels_first else planes

    def _observation(self) -> np.ndarray:
        return self._encode(self.aec.observe(self.learner)["observation"])

    def action_masks(self) -> np.ndarray:
        """Bool ``(n*n,)`` mask of the learner's legal actions (all False once the episode is over)."""
        if not self.aec.agents:
            raise gymnasium.error.ResetNeeded("call reset() before action_masks(): there is no game yet")
        if self._forfeit or self.aec.agent_selection != self.learner:
            return np.zeros(self.action_space.n, dtype=bool)
        return self.aec.game_state.legal_mask()

    def _info(self, **extra: Any) -> dict[str, Any]:
        # Under an opening rule: the colour the learner holds and the phase, in words, from the AEC env
        # (whose own info has them as numbers, for the multi-agent wrappers). A Gymnasium info is read by
        # no tensor-making wrapper unless asked, and this one holds words anyway ("seat", "opponent").
        told = {"color": self.aec.color_of(self.learner), "phase": self.aec.phase} if self._opening else {}
        if self.pool is not None:
            told = {**told, "opponent": self.opponent_name}
        return {"action_mask": self.action_masks(), **told, **extra}

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        """Start a game; the opponent moves first if it is its turn (the learner's seat is second).

        ``options={"opening": ...}`` starts from an opening, as the AEC env's
        ``reset`` does (moves such as ``"h8 h9 i9"``, a list of actions, or a
        built-in opening's name); the seat still names the learner's colour
        (``"first"``: black), so after a 3-stone opening a black learner
        waits for the opponent's (white's) move.
        """
        super().reset(seed=seed)
        self.aec.reset(options=options)
        self._forfeit = False
        if self.pool is not None:
            self._draw()
        if seed is not None:
            self._reseed_opponent(int(self.np_random.integers(2**31)))
        seat = self.seat if self.seat != "random" else ("first", "second")[int(self.np_random.integers(2))]
        self.learner = self.aec.possible_agents[0 if seat == "first" else 1]
        while not self.aec.game_state.terminal and self.aec.agent_selection != self.learner:
            self.aec.step(self._opponent_move())
        if self.aec.game_state.terminal:  # an opening that ends the game (a start position given in options)
            self._record(float(self.aec.rewards.get(self.learner, 0.0)))
        return self._observation(), self._info(seat=seat)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        """Play the learner's ``action`` and, unless that ended the game, the opponent's reply."""
        state = self.aec.game_state
        if state.terminal or self._forfeit:
            raise RuntimeError("the episode is over: call reset()")
        if not isinstance(action, (bool, np.bool_)):  # True is no point of the board, as in the AEC env
            try:
                action = operator.index(action)  # numpy integers and 0-d arrays; 2.5 or "3" stay illegal
            except TypeError:
                pass  # illegal_reason names the bad value
        reason = state.illegal_reason(action)
        if reason is not None:
            if self.illegal_action == "raise":
                raise IllegalMoveError(reason)
            self._forfeit = True
            self._record(-1.0)
            return self._observation(), -1.0, True, False, self._info(illegal_action=True, reason=reason)
        self.aec.step(action)
        # The opponent's reply: one move, or several under an opening rule (the same player lays an
        # opening's three stones, or all its fifth-move offers, in a row).
        while not state.terminal and self.aec.agent_selection != self.learner:
            try:
                reply = self._opponent_move()
            except Forfeit as exc:  # an engine that crashed, timed out or broke the rules: the learner wins
                self._forfeit = True
                self._record(1.0)
                return self._observation(), 1.0, True, False, self._info(opponent_forfeit=str(exc))
            self.aec.step(reply)
        terminated = bool(state.terminal)
        reward = float(self.aec.rewards.get(self.learner, 0.0)) if terminated else 0.0
        if terminated:
            self._record(reward)
        return self._observation(), reward, terminated, False, self._info()

    def render(self) -> Any:
        """The AEC env's rendering (``"ansi"`` text, an ``"rgb_array"`` image); None without a render_mode.

        In ``"human"`` mode the AEC env's window shows every move, the
        opponent's included, without a call to ``render``.
        """
        return self.aec.render() if self.render_mode is not None else None

    def close(self) -> None:
        """Close the ``"human"`` window, if one is open."""
        self.aec.close()


def make_vector_env(num_envs: int = 1, opening_rule: Any = None, parallel: bool = False, **kwargs: Any) -> Any:
    """The ids' vector entry point: the batched engine (:mod:`boardgame_envs.vector.gym_env`), or, with an
    ``opening_rule``, ``num_envs`` single-agent envs in Gymnasium's ``SyncVectorEnv``."""
    if opening_rule is None or opening_rule is False:
        return load("boardgame_envs.vector.gym_env:SingleAgentVectorEnv")(num_envs, parallel=parallel, **kwargs)
    if parallel:
        raise ValueError("parallel=True runs the batched engine's numba threads, which play no opening rule; "
                         "drop it (the games under an opening rule run one after another)")  # fmt: skip
    SingleAgentEnv(opening_rule=opening_rule, **kwargs)  # the arguments checked once, here, with their own errors
    return gymnasium.vector.SyncVectorEnv([lambda: SingleAgentEnv(opening_rule=opening_rule, **kwargs)] * num_envs)


def register_gymnasium_envs() -> None:
    """Register the Gymnasium ids; ids already registered are left alone.

    Every id also has a native vector entry point (``gymnasium.make_vec(id, num_envs=...)``):
    the batched engine of :mod:`boardgame_envs.vector.gym_env`, which steps every game
    (:func:`make_vector_env`; under an opening rule, single-agent envs in turn).
    """
    entry = "boardgame_envs.envs.single_agent:SingleAgentEnv"
    vector_entry = "boardgame_envs.envs.single_agent:make_vector_env"
    ids = {env_id: {"game": name, **fixed} for name, info in GAMES.items() for env_id, fixed in info.gymnasium_ids.items()}
    for env_id, kwargs in ids.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=entry, vector_entry_point=vector_entry, kwargs=kwargs)


__getattr__ = renamed_attributes(__name__)  # the old name BoardGameEnv, with a warning until it goes
