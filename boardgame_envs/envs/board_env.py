"""One PettingZoo AEC environment over any :class:`~boardgame_envs.games.mnk.MNKGame`.

The env is a thin adapter: the rules live in the :class:`GameState` it holds
(``env.unwrapped.game_state``), which search policies clone instead of the env.
Observations are relative to the agent that observes, HWC ``int8`` planes:

====  =========================================================  ===========
plane meaning                                                    envs
====  =========================================================  ===========
0     the observing agent's stones                               all
1     the opponent's stones                                      all
2     the last move (one-hot; all zero before the first move)    gomoku
3     colour to move: all ones when black (first player) moves   gomoku
4     points forbidden for black (renju; shown to both colours)   gomoku renju
====  =========================================================  ===========
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from numba import njit
from pettingzoo import AECEnv

from boardgame_envs.envs.render import render_ansi, render_rgb
from boardgame_envs.games.lines import BLACK, EMPTY
from boardgame_envs.games.mnk import GameState, IllegalMoveError, MNKGame, opponent

RENDER_MODES = ("human", "ansi", "rgb_array")
WIN_REWARD, LOSS_REWARD, DRAW_REWARD = 1.0, -1.0, 0.0

PLANE_OWN, PLANE_OPPONENT, PLANE_LAST_MOVE, PLANE_BLACK_TO_MOVE, PLANE_FORBIDDEN = range(5)


@njit(cache=True)
def _fill_observation(board, n, me, last_move, black_to_move, forbidden, mask_forbidden, live, planes, mask):
    """Write ``me``'s planes into ``planes`` (n, n, C) and the action mask into ``mask``.

    Both arrays arrive zeroed. ``mask`` stays zero unless ``live`` (it is
    ``me``'s turn in a game still going); ``mask_forbidden`` removes the
    renju-forbidden points from it (black to move under renju).
    """
    opp = 3 - me
    channels = planes.shape[2]
    for a in range(n * n):
        r = a // n
        c = a - r * n
        v = board[a]
        if v == me:
            planes[r, c, PLANE_OWN] = 1
        elif v == opp:
            planes[r, c, PLANE_OPPONENT] = 1
        elif live and not (mask_forbidden and forbidden[a]):
            mask[a] = 1
        if channels > PLANE_BLACK_TO_MOVE:
            if black_to_move:
                planes[r, c, PLANE_BLACK_TO_MOVE] = 1
            if channels > PLANE_FORBIDDEN and forbidden[a]:
                planes[r, c, PLANE_FORBIDDEN] = 1
    if channels > PLANE_LAST_MOVE and last_move >= 0:
        planes[last_move // n, last_move % n, PLANE_LAST_MOVE] = 1


@njit(cache=True)
def _fill_observations(boards, n, to_move, last_moves, forbidden, renju, planes):
    """:func:`_fill_observation` for a batch of positions, each seen by its player to move."""
    mask = np.zeros(n * n, dtype=np.int8)
    for b in range(boards.shape[0]):
        black_to_move = to_move[b] == BLACK
        _fill_observation(boards[b], n, to_move[b], last_moves[b], black_to_move, forbidden[b],
                          renju and black_to_move, False, planes[b], mask)  # fmt: skip


class BoardEnv(AECEnv, EzPickle):
    """Two-player, alternating-move board game as a PettingZoo ``AECEnv``.

    Subclasses fix the game, the agent names and the plane set; see
    :mod:`boardgame_envs.tictactoe_v0` and :mod:`boardgame_envs.gomoku_v0`.
    """

    metadata: dict[str, Any] = {
        "name": "board_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        game: MNKGame,
        agent_names: tuple[str, str],
        num_planes: int,
        render_mode: str | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"unknown render_mode {render_mode!r}; expected None or one of {', '.join(RENDER_MODES)}")
        super().__init__()
        self.game = game
        self.num_actions = game.num_actions
        self.render_mode = render_mode
        self.possible_agents = list(agent_names)
        self._color = {agent_names[0]: BLACK, agent_names[1]: opponent(BLACK)}
        self._agent_of = {c: a for a, c in self._color.items()}
        n = game.size
        self._num_planes = num_planes
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 1, (n, n, num_planes), np.int8),
                "action_mask": spaces.Box(0, 1, (n * n,), np.int8),
            }
        )
        act_space = spaces.Discrete(n * n)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self._no_forbidden = np.zeros(n * n, dtype=np.bool_)
        self._renju = game.rule == "renju"
        self.game_state = game.new_state()
        self.agents: list[str] = []
        self._space_seed: int | None = None

    # EzPickle alone would rebuild a fresh env from the constructor arguments;
    # a mid-game env (sent to a worker process, say) should arrive mid-game.
    def __getstate__(self) -> dict[str, Any]:
        return self.__dict__.copy()

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

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
        if seed is not None:
            self._space_seed = seed
        self.game_state = self.game.new_state()
        self.agents = agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos = {a: {} for a in agents}
        self.agent_selection = agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        live = agent == self.agent_selection and agent in self.terminations and not self.terminations[agent]
        return self._encode(self.game_state, self._color[agent], live)

    def observe_state(self, state: GameState) -> dict[str, np.ndarray]:
        """The observation that the player to move in ``state`` would get.

        For code that searches on cloned game states (AlphaZero, policies) and
        needs the network input of a position the env is not in.
        """
        return self._encode(state, state.to_move, not state.terminal)

    def observe_boards(
        self, boards: np.ndarray, to_move: np.ndarray, last_moves: np.ndarray, forbidden: np.ndarray
    ) -> np.ndarray:
        """Planes ``(B, n, n, C)`` of ``B`` positions, each seen by its player to move.

        The batch form of :meth:`observe_state` for search code that keeps bare
        boards: ``boards`` ``(B, n*n)`` int8, ``to_move`` and ``last_moves``
        ``(B,)``, ``forbidden`` ``(B, n*n)`` bool (black's forbidden points;
        ignored unless the rule is renju). The same kernel as :meth:`observe`,
        so the planes are identical to the env's.
        """
        n = self.game.size
        planes = np.zeros((len(boards), n, n, self._num_planes), dtype=np.int8)
        _fill_observations(
            np.ascontiguousarray(boards, dtype=np.int8), n, np.asarray(to_move, dtype=np.int64),
            np.asarray(last_moves, dtype=np.int64), np.asarray(forbidden, dtype=np.bool_),
            self.game.rule == "renju", planes,
        )  # fmt: skip
        return planes

    def _encode(self, state: GameState, color: int, live: bool) -> dict[str, np.ndarray]:
        n = self.game.size
        planes = np.zeros((n, n, self._num_planes), dtype=np.int8)
        mask = np.zeros(n * n, dtype=np.int8)
        renju = self._renju
        forbidden = state.forbidden() if renju else self._no_forbidden
        black_to_move = state.to_move == BLACK
        _fill_observation(
            state.board, n, color, state.last_move, black_to_move, forbidden,
            renju and black_to_move, live and not state.terminal, planes, mask,
        )  # fmt: skip
        return {"observation": planes, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if not self.agents:
            raise IllegalMoveError("the game is over and every agent is done: call reset()")
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise IllegalMoveError(
                    f"the game is over: {agent} must step with None (got {action!r}) to leave"
                )
            self._was_dead_step(action)
            return
        state = self.game_state
        reason = state.illegal_reason(action)
        if reason is not None:
            raise IllegalMoveError(reason)
        state._place(int(action))
        self._cumulative_rewards[agent] = 0.0
        if state.terminal:
            black_r, white_r = state.returns()
            for a in self.agents:
                self.rewards[a] = black_r if self._color[a] == BLACK else white_r
                self.terminations[a] = True
            self._accumulate_rewards()
        self.agent_selection = self._agent_of[state.to_move]
        if self.render_mode == "human":
            self.render()

    # --------------------------------------------------------------- outputs
    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            from gymnasium import logger

            logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'rgb_array'")
            return None
        if self.render_mode == "rgb_array":
            return render_rgb(self.game_state)
        text = render_ansi(self.game_state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def state(self) -> np.ndarray:
        """The board ``(n, n)`` int8: 0 empty, 1 black (first player), 2 white."""
        n = self.game.size
        return self.game_state.board.reshape(n, n).copy()

    def close(self) -> None:
        pass

    @property
    def color_to_move(self) -> int:
        return self.game_state.to_move

    def __str__(self) -> str:
        return self.metadata["name"]


__all__ = ["BoardEnv", "IllegalMoveError", "EMPTY"]
