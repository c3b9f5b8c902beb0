"""A Gymnasium single-agent view of our games: the opponent moves inside ``step``.

>>> import gymnasium, boardgame_envs            # the import registers the ids
>>> env = gymnasium.make("boardgame_envs/TicTacToe-v0", opponent="mcts")

Ids: ``boardgame_envs/TicTacToe-v0``, ``boardgame_envs/Gomoku-v0`` (kwargs
``board_size``, ``win_length``, ``rule``) and ``boardgame_envs/Renju-v0``
(15x15 renju). Gymnasium 1.x does not import packages for you: run
``import boardgame_envs`` first, or write the id as
``"boardgame_envs:boardgame_envs/TicTacToe-v0"``.

* ``opponent``: ``"random"``, ``"mcts"``, ``"alphabeta"``, ``"perfect"``, a policy
  object (``act(env) -> action``, called on the inner AEC env), or a callable
  ``(observation, action_mask) -> action`` that sees the opponent's own view
  (a frozen copy of the learner, for self-play).
* ``seat``: ``"first"``, ``"second"`` or ``"random"`` (drawn from ``np_random``,
  so ``reset(seed=...)`` fixes it); the opponent is reseeded on every seeded reset.
* ``illegal_action``: ``"lose"`` (default: the episode ends with -1 and
  ``info["illegal_action"] = True``) or ``"raise"`` (``IllegalMoveError``).
* Rewards: +1 when the learner wins, -1 when it loses, including on the step
  where the opponent's reply wins, 0 otherwise. Observations are always the
  learner's planes (as in the AEC env), ``float32``: HWC by default,
  ``channels_first=True`` for CNNs, ``flatten=True`` for MLPs. The legal
  actions are in ``info["action_mask"]`` and ``env.action_masks()`` (for
  sb3-contrib's MaskablePPO).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from boardgame_envs.games.mnk import IllegalMoveError

SEATS = ("first", "second", "random")
ILLEGAL = ("lose", "raise")
GAMES = ("tictactoe", "gomoku")


class BoardGameEnv(gymnasium.Env):
    """One of our two-player games as a single-agent ``gymnasium.Env``."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}

    def __init__(
        self,
        game: str = "tictactoe",
        board_size: int = 15,
        win_length: int = 5,
        rule: str = "freestyle",
        opponent: Any = "random",
        seat: str = "first",
        illegal_action: str = "lose",
        channels_first: bool = False,
        flatten: bool = False,
        render_mode: str | None = None,
    ) -> None:
        from boardgame_envs import gomoku_v0, tictactoe_v0

        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}; expected one of {', '.join(GAMES)}")
        if seat not in SEATS:
            raise ValueError(f"unknown seat {seat!r}; expected one of {', '.join(SEATS)}")
        if illegal_action not in ILLEGAL:
            raise ValueError(f"illegal_action must be one of {', '.join(ILLEGAL)}, got {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}; expected None, 'ansi' or 'rgb_array'")
        if game == "tictactoe":
            self.aec = tictactoe_v0.raw_env(render_mode=render_mode)
        else:
            self.aec = gomoku_v0.raw_env(board_size, win_length, rule, render_mode=render_mode)
        self.render_mode = render_mode
        self.seat = seat
        self.illegal_action = illegal_action
        self.channels_first = channels_first
        self.flatten = flatten
        self._opponent_spec = opponent
        self.opponent = self._build_opponent(opponent, None)
        n = self.aec.game.size
        planes = self.aec.observation_space(self.aec.possible_agents[0])["observation"].shape
        shape = (planes[2], n, n) if channels_first else planes
        if flatten:
            shape = (int(np.prod(planes)),)
        self.observation_space = spaces.Box(0.0, 1.0, shape, np.float32)
        self.action_space = spaces.Discrete(n * n)
        self.learner = self.aec.possible_agents[0]
        self._forfeit = False  # the learner played an illegal action under "lose"

    # ----------------------------------------------------------- opponents
    def _build_opponent(self, spec: Any, seed: int | None) -> Any:
        if isinstance(spec, str):
            from boardgame_envs.cli import make_policy

            return make_policy(spec, seed)
        if hasattr(spec, "act") or callable(spec):
            if seed is not None and isinstance(getattr(spec, "rng", None), np.random.Generator):
                spec.rng = np.random.default_rng(seed)
            return spec
        raise ValueError(f"opponent must be a policy name, a policy with act(env), or a callable; got {spec!r}")

    def _opponent_move(self) -> int:
        if hasattr(self.opponent, "act"):
            return int(self.opponent.act(self.aec))
        obs = self.aec.observe(self.aec.agent_selection)
        return int(self.opponent(obs["observation"], obs["action_mask"]))

    # ---------------------------------------------------------------- core
    def _observation(self) -> np.ndarray:
        planes = self.aec.observe(self.learner)["observation"].astype(np.float32)
        if self.flatten:
            return planes.reshape(-1)
        return np.ascontiguousarray(planes.transpose(2, 0, 1)) if self.channels_first else planes

    def action_masks(self) -> np.ndarray:
        """Bool mask of the learner's legal actions (all False once the game is over)."""
        if self._forfeit or self.aec.agent_selection != self.learner:
            return np.zeros(self.action_space.n, dtype=bool)
        return self.aec.game_state.legal_mask()

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), **extra}

    def _reward(self) -> float:
        return float(self.aec.rewards.get(self.learner, 0.0))

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        self.aec.reset()
        self._forfeit = False
        if seed is not None:
            self.opponent = self._build_opponent(self._opponent_spec, int(self.np_random.integers(2**31)))
        seat = self.seat if self.seat != "random" else ("first" if self.np_random.integers(2) == 0 else "second")
        self.learner = self.aec.possible_agents[0 if seat == "first" else 1]
        if self.aec.agent_selection != self.learner:
            self.aec.step(self._opponent_move())
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        state = self.aec.game_state
        if state.terminal or self._forfeit:
            raise RuntimeError("the episode is over: call reset()")
        try:
            action = int(action)
        except (TypeError, ValueError):
            action = -1
        reason = state.illegal_reason(action)
        if reason is not None:
            if self.illegal_action == "raise":
                raise IllegalMoveError(reason)
            self._forfeit = True  # the board stays as it was
            return self._observation(), -1.0, True, False, self._info(illegal_action=True, reason=reason)
        self.aec.step(action)
        if not state.terminal:
            self.aec.step(self._opponent_move())
        terminated = bool(state.terminal)
        return self._observation(), self._reward() if terminated else 0.0, terminated, False, self._info()

    def render(self) -> Any:
        return self.aec.render() if self.render_mode is not None else None


def register_gymnasium_envs() -> None:
    """Register the Gymnasium ids; ids already registered are left alone."""
    entry = "boardgame_envs.envs.single_agent:BoardGameEnv"
    ids = {
        "boardgame_envs/TicTacToe-v0": {"game": "tictactoe"},
        "boardgame_envs/Gomoku-v0": {"game": "gomoku"},
        "boardgame_envs/Renju-v0": {"game": "gomoku", "board_size": 15, "rule": "renju"},
    }
    for env_id, kwargs in ids.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=entry, kwargs=kwargs)
