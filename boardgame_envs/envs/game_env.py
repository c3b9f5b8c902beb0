"""One PettingZoo AEC environment over any game of the Game/State protocol.

The env is an adapter: the rules live in the state it holds
(``env.unwrapped.game_state``), which policies are handed (or clone) instead
of the env. Observations are the state's planes as the observing agent sees
them (``state.planes(player)``) with the action mask of the agent to move,
all zeros for the other. Rewards are +1 / -1 / 0 to both agents on the final
step. ``raw_env`` subclasses raise :class:`IllegalMoveError` for an illegal
action (the game stays as it was); :func:`boardgame_envs.envs.wrappers.safety_wrap`
gives PettingZoo's behaviour (an illegal move loses).

:class:`GameAECEnv` is the whole env for a game with no faster path;
:class:`~boardgame_envs.envs.board_env.MNKAECEnv` (the m,n,k family) keeps its
observation planes up to date move by move and overrides the hot calls.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv

from boardgame_envs.envs.text import render_text
from boardgame_envs.games.protocol import FIRST, SECOND, IllegalMoveError
from boardgame_envs._compat import renamed_attributes

RESET_OPTIONS = ("opening",)  # the keys reset(options=...) accepts


def check_reset_arguments(seed: Any, options: Any) -> None:
    """Refuse a ``reset`` seed that is not a non-negative integer, options that are not a dict, or unknown keys."""
    if seed is not None:
        if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
            raise TypeError(f"seed must be None or a non-negative integer, got {seed!r}")
        if seed < 0:
            raise ValueError(f"seed must be None or a non-negative integer, got {seed}")
    if options is not None:
        if not isinstance(options, Mapping):
            raise TypeError(f"options must be None or a dict, got {options!r}")
        # PettingZoo's api_test probes reset with options={"options": 1}: tolerated, as nothing else is.
        unknown = sorted(map(repr, set(options) - set(RESET_OPTIONS) - {"options"}))
        if unknown:
            # An error, not a warning: a misspelt "opening" would silently start from the empty board.
            known = ", ".join(map(repr, RESET_OPTIONS))
            raise ValueError(f"unknown reset option(s) {', '.join(unknown)}; accepted: {known}")


class GameAECEnv(AECEnv, EzPickle):
    """A two-player, alternating-move game of the protocol as a PettingZoo ``AECEnv``.

    Env modules subclass it as ``raw_env`` with the game and the agent names
    fixed (``connect_four_v0``); the first agent moves first.
    """

    metadata: dict[str, Any] = {
        "name": "game_v0",
        "render_modes": ["ansi", "rgb_array", "human"],  # text, render/cells.py's picture, a pygame window
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(self, game: Any, agent_names: tuple[str, str], render_mode: str | None = None) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            modes = ", ".join(self.metadata["render_modes"])
            raise ValueError(f"unknown render_mode {render_mode!r}; expected None or one of {modes}")
        super().__init__()
        self.game = game
        self.num_actions = game.num_actions
        self.render_mode = render_mode
        self.possible_agents = list(agent_names)
        self._color = {agent_names[0]: FIRST, agent_names[1]: SECOND}
        self._agent_of = {c: a for a, c in self._color.items()}
        rows, cols = game.shape
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 1, (rows, cols, game.num_planes), np.int8),
                "action_mask": spaces.Box(0, 1, (game.num_actions,), np.int8),
            }
        )
        act_space = spaces.Discrete(game.num_actions)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self.game_state = game.new_state()
        self.moves: list[int] = []  # the actions played since reset, the first player's first
        self.agents: list[str] = []
        self._space_seed: int | None = None
        self._has_reset = False
        self._window: Any = None  # the "human" window, opened on the first render
        # Keywords for the pictures of render() ("rgb_array", "human"): cell, coordinates, move_numbers, status,
        # ...; see boardgame_envs.render.rgb. A keyword it does not know (TypeError) or an option the game cannot
        # have (ValueError: coordinates where the action names give none) raises when render() draws.
        self.render_options: dict[str, Any] = {}

    # ---------------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        if self._space_seed is not None:
            # reset(seed=) seeds the (shared) action space here, on first use:
            # seeding a space builds a new generator, which would cost a third
            # of a whole tic-tac-toe game if every reset paid for it.
            self.action_spaces[agent].seed(self._space_seed)
            self._space_seed = None
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ core
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a game: the start position, or with ``options={"opening": ...}`` a given one.

        An opening is a list of actions (or, for games that name them, their
        names in a string: ``"h8 h9 i9"``), played in order from the start; an
        illegal opening raises :class:`IllegalMoveError` naming the move and
        leaves the env as it was, and so does an unknown option key.
        """
        check_reset_arguments(seed, options)
        if options and options.get("opening") is not None:
            state, moves = self._opening_state(options["opening"])
        else:
            state, moves = self.game.new_state(), []
        self._has_reset = True
        if seed is not None:
            self._space_seed = int(seed)  # numpy integers too: Gymnasium seeds spaces with Python ints only
        self.game_state = state
        self.moves = moves
        first, second = self.possible_agents  # dict displays: the cheapest way to build these, every game
        self.agents = [first, second]
        self.rewards = {first: 0.0, second: 0.0}
        self._cumulative_rewards = {first: 0.0, second: 0.0}
        self.terminations = {first: False, second: False}
        self.truncations = {first: False, second: False}
        self.infos = {first: {}, second: {}}
        self.agent_selection = first if state.to_move == FIRST else second
        if self.render_mode == "human":
            self.render()

    def _opening_moves(self, opening: Any) -> tuple[str, list[int]]:
        """``opening`` as a label for messages and its actions (a list of ints, or of names, or one string)."""
        if isinstance(opening, (bytes, bytearray)):
            raise TypeError(f"an opening is a string of move names or a list of actions, not bytes: {opening!r}")
        items = opening.split() if isinstance(opening, str) else list(opening)
        moves = []
        for item in items:
            if isinstance(item, str):
                moves.append(self.game.parse_action(item))
            elif isinstance(item, (bool, np.bool_)) or not isinstance(item, (int, np.integer)):
                raise TypeError(f"opening moves are actions (integers) or their names, got {item!r}")
            else:
                moves.append(int(item))
        return " ".join(map(str, items)), moves

    def _opening_state(self, opening: Any) -> tuple[Any, list[int]]:
        """The position after ``opening``, checked move by move, and its moves."""
        label, moves = self._opening_moves(opening)
        state = self.game.new_state()
        for i, action in enumerate(moves):
            reason = state.illegal_reason(action)
            if reason is not None:
                raise IllegalMoveError(f"opening {label}, move {i + 1}: {reason}")
            state.play(action)
            if state.terminal:
                raise IllegalMoveError(f"opening {label} ends the game at move {i + 1}")
        return state, moves

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self.game_state
        live = agent == self.agent_selection and not state.terminal and not self.terminations.get(agent, True)
        mask = state.legal_mask().astype(np.int8) if live else np.zeros(self.num_actions, dtype=np.int8)
        return {"observation": state.planes(self._color[agent]), "action_mask": mask}

    def observe_state(self, state: Any) -> dict[str, np.ndarray]:
        """The observation that the player to move in ``state`` would get (for search code on cloned states)."""
        live = not state.terminal
        mask = state.legal_mask().astype(np.int8) if live else np.zeros(self.num_actions, dtype=np.int8)
        return {"observation": state.planes(state.to_move), "action_mask": mask}

    def no_agents_error(self) -> IllegalMoveError:
        """The error for a step or ``last()`` with no agent left: before the first reset, or after the game."""
        if not self._has_reset:
            return IllegalMoveError("call reset() before the first step")
        return IllegalMoveError("the game is over and every agent is done: call reset()")

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self.agents:
            raise self.no_agents_error()
        return super().last(observe)

    def step(self, action: int | None) -> None:
        if not self.agents:
            raise self.no_agents_error()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise IllegalMoveError(f"the game is over: {agent} must step with None (got {action!r}) to leave")
            self._was_dead_step(action)
            return
        self._play(agent, action)

    def _was_dead_step(self, action: None) -> None:
        """``AECEnv._was_dead_step`` for two agents: the same effects, in fewer operations.

        Every game ends with two of these calls, one per agent, so they are a
        fair share of a short game. With at most one other agent left, the
        next dead agent is that one or none; the rest is PettingZoo's code
        as it stands (``tests/envs/test_board_env.py`` compares the two).
        """
        agents = self.agents
        if action is not None or len(agents) > 2:
            super()._was_dead_step(action)  # raises on an action; the general case otherwise
            return
        agent = self.agent_selection
        terminations, truncations, rewards = self.terminations, self.truncations, self.rewards
        assert terminations[agent] or truncations[agent], "an agent that was not dead as attempted to be removed"
        del terminations[agent], truncations[agent], rewards[agent], self._cumulative_rewards[agent], self.infos[agent]
        agents.remove(agent)
        skip = getattr(self, "_skip_agent_selection", None)
        if agents and (terminations[agents[0]] or truncations[agents[0]]):
            if skip is None:
                self._skip_agent_selection = agent
            self.agent_selection = agents[0]
        else:
            if skip is not None:
                self.agent_selection = skip
            self._skip_agent_selection = None
        for other in rewards:
            rewards[other] = 0

    def _play(self, agent: str, action: Any) -> None:
        """:meth:`step` for ``agent``, the agent to move and still playing: the state validates, then plays."""
        state = self.game_state
        state.play(action)  # raises IllegalMoveError, the state unchanged, if illegal
        self.moves.append(int(action))
        self._after_move(agent)

    def _after_move(self, agent: str) -> None:
        """Rewards, terminations and the next agent after ``agent``'s move."""
        state = self.game_state
        self._cumulative_rewards[agent] = 0.0
        if state.terminal:
            first_r, second_r = state.returns()
            for a in self.agents:
                self.rewards[a] = first_r if self._color[a] == FIRST else second_r
                self.terminations[a] = True
            self._accumulate_rewards()
        self.agent_selection = self._agent_of[state.to_move]
        if self.render_mode == "human":
            self.render()

    # --------------------------------------------------------------- outputs
    def render(self) -> Any:
        """``"ansi"``: the board as text; ``"rgb_array"``: a picture of the cells; ``"human"``: it in a window.

        Pictures come from :func:`boardgame_envs.render.rgb` with the keywords in ``render_options``, over
        ``status=False`` (no status band unless asked: the cells alone, 48 pixels a cell by default).
        """
        if self.render_mode is None:
            from gymnasium import logger

            modes = ", ".join(self.metadata["render_modes"])
            logger.warn(f"render() called without a render_mode; pass one of {modes}")
            return None
        if self.render_mode == "ansi":
            return render_text(self.game_state)
        from boardgame_envs.render import rgb

        frame = rgb(self, **{"status": False, **self.render_options})
        if self.render_mode == "rgb_array":
            return frame
        if self._window is None:
            from boardgame_envs.render.window import Window

            self._window = Window(fps=self.metadata["render_fps"])
        self._window.show(frame, title=f"{self.game.name}, {self.game_state.num_moves} moves")
        return None

    def state(self) -> np.ndarray:
        """The board ``(rows, columns)`` int8: 0 empty, 1 the first player's, 2 the second's."""
        return self.game_state.board.reshape(self.game.shape).copy()

    def close(self) -> None:
        """Close the ``"human"`` window, if one is open."""
        if self._window is not None:
            self._window.close()
            self._window = None

    # A mid-game env (sent to a worker process, say) arrives mid-game; a window stays where it was opened.
    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_window": None}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def __str__(self) -> str:
        return self.metadata["name"]


__getattr__ = renamed_attributes(__name__)  # the old name GameEnv, with a warning until it goes
