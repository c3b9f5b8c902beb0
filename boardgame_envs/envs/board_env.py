"""One PettingZoo AEC environment over any :class:`~boardgame_envs.games.mnk.MNKGame`.

The env is a thin adapter: the rules live in the :class:`MNKState` it holds
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

from boardgame_envs.envs.game_env import RESET_OPTIONS, GameAECEnv, check_reset_arguments  # noqa: F401 (re-exported)
from boardgame_envs.envs.text import render_ansi
from boardgame_envs.games.kernel_cache import cached_kernel
from boardgame_envs.games.lines import BLACK, EMPTY, WHITE, opponent
from boardgame_envs.games.mnk import (
    PLANE_BLACK_TO_MOVE,
    PLANE_FORBIDDEN,
    PLANE_LAST_MOVE,
    PLANE_OPPONENT,
    PLANE_OWN,
    MNKState,
    IllegalMoveError,
    MNKGame,
    fill_observation,
    fill_observations,
)
from boardgame_envs.games.notation import point_name
from boardgame_envs.games.opening_positions import as_opening
from boardgame_envs._compat import renamed_attributes

RENDER_MODES = ("human", "ansi", "rgb_array")
WIN_REWARD, LOSS_REWARD, DRAW_REWARD = 1.0, -1.0, 0.0



@cached_kernel()
def _mark_forbidden(forbidden, planes, mask, black_to_move):
    """Set the forbidden plane of ``planes`` (n, n, C) and, with black to move, clear those points of ``mask``."""
    n = planes.shape[0]
    for a in range(forbidden.shape[0]):
        if forbidden[a]:
            r = a // n
            planes[r, a - r * n, PLANE_FORBIDDEN] = 1
            if black_to_move:
                mask[a] = 0


class MNKAECEnv(GameAECEnv):
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
        if num_planes != game.num_planes:
            raise ValueError(f"{game.name} shows {game.num_planes} planes, not {num_planes}")
        super().__init__(game, agent_names, render_mode)
        n = game.size
        self._num_planes = num_planes
        self._no_forbidden = np.zeros(n * n, dtype=np.bool_)
        self._renju = game.is_renju
        # The planes of each viewer, kept up to date move by move (see _sync_views).
        # With a colour-to-move plane there are two arrays a viewer, one for each
        # value of that plane, so observe() only copies one of them.
        blank = np.zeros((n, n, num_planes), dtype=np.int8)
        self._blanks = [blank]
        if num_planes > PLANE_BLACK_TO_MOVE:
            black_moves = blank.copy()
            black_moves[:, :, PLANE_BLACK_TO_MOVE] = 1
            self._blanks.append(black_moves)
        self._last_move_index = [(a // n, a % n, PLANE_LAST_MOVE) for a in range(n * n)]
        self._has_last_move_plane = num_planes > PLANE_LAST_MOVE
        self._make_views()

    # EzPickle alone would rebuild a fresh env from the constructor arguments;
    # a mid-game env (sent to a worker process, say) should arrive mid-game.
    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()  # a copy of __dict__, the window left behind
        # The view arrays hold flat views of each other, which a pickle would
        # turn into separate copies; the receiver makes new ones.
        for name in ("_views", "_view_blank", "_view_buffer", "_view_flat", "_empty", "_no_moves"):
            state.pop(name, None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._make_views()

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a game: the empty board, or with ``options={"opening": ...}`` a given start position.

        The opening is a move string in renju notation (``"h8 h9 i9"``), a list
        of actions (or point names), a :class:`boardgame_envs.games.opening_positions.Opening`,
        or the name of a built-in opening (``"rif26/Kagetsu"``); its moves are
        played in order, black first, and the player to move after them moves
        next. An illegal opening raises :class:`ValueError` naming the move and
        leaves the env as it was; so does an unknown option key (a misspelt
        ``"opening"`` would otherwise start the game from the empty board).
        """
        super().reset(seed, options)

    def _opening_state(self, opening: object) -> tuple[MNKState, list[int]]:
        """The position after ``opening`` (see :meth:`reset`), checked move by move, and its moves."""
        state = self.game.new_state()
        n = self.game.size
        opening = as_opening(opening, n)
        for i, action in enumerate(opening.moves):
            reason = state.illegal_reason(action)
            if reason is not None:
                raise IllegalMoveError(f"opening {opening}, move {i + 1}: {reason}")
            state._place(action)
            if state.terminal:
                result = {BLACK: "black wins", WHITE: "white wins"}.get(state.winner, "a draw")
                raise IllegalMoveError(f"opening {opening} ends the game at move {i + 1} ({point_name(action, n)}: {result})")
        return state, list(opening.moves)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self.game_state
        if state is not self._views_state or state.num_moves != self._views_moves:
            self._sync_views(state)
        black_to_move = 1 if state.to_move == BLACK else 0  # an int: a list index, whatever to_move's type
        planes = self._views[self._color[agent]][black_to_move].copy()
        if self._has_last_move_plane and state.last_move >= 0:
            planes[self._last_move_index[state.last_move]] = 1
        live = agent == self.agent_selection and not state.terminal and not self.terminations.get(agent, True)
        mask = (self._empty if live else self._no_moves).copy()
        if self._renju and state.forbidden_count():  # (with none, the copied planes are right as they are)
            _mark_forbidden(state.forbidden(), planes, mask, black_to_move == 1)
        return {"observation": planes, "action_mask": mask}

    def _make_views(self) -> None:
        """Allocate the viewers' plane arrays; :meth:`_sync_views` fills them.

        ``_views[colour][black_to_move]`` holds the stone planes (and the
        colour-to-move plane) as ``colour`` sees them, all of them views of
        ``_view_buffer``; ``_stone_offsets[colour]`` says where in that buffer
        a stone of ``colour`` is written; ``_empty`` is the empty points as int8.
        """
        # All the arrays are views of one buffer, so a new game clears them in one assignment.
        per_color = len(self._blanks)
        self._view_blank = np.stack(self._blanks * 2)
        self._view_buffer = self._view_blank.copy()
        arrays = {BLACK: list(self._view_buffer[:per_color]), WHITE: list(self._view_buffer[per_color:])}
        # Index 0: white to move, 1: black to move (one array serves both without that plane).
        self._views = {color: a * (3 - len(a)) for color, a in arrays.items()}
        # A stone of ``colour`` at action ``a`` is a 1 at ``offset + a * C`` of the flat
        # buffer for each offset in ``_stone_offsets[colour]``: the own-stone plane of
        # that colour's arrays and the opponent plane of the other colour's.
        self._view_flat = self._view_buffer.reshape(-1)
        size = self._view_blank[0].size
        own = {BLACK: range(per_color), WHITE: range(per_color, 2 * per_color)}
        self._stone_offsets = {
            color: tuple(j * size + PLANE_OWN for j in own[color])
            + tuple(j * size + PLANE_OPPONENT for j in own[opponent(color)])
            for color in (BLACK, WHITE)
        }
        self._empty = np.ones(self.num_actions, dtype=np.int8)
        self._no_moves = np.zeros(self.num_actions, dtype=np.int8)  # the mask of an agent not to move
        self._views_state: MNKState | None = None  # the state the views describe, at _views_moves moves
        self._views_moves = -1

    def _sync_views(self, state: MNKState) -> None:
        """Fill the viewers' plane arrays for ``state``; ``step`` then keeps them up to date."""
        self._view_buffer[...] = self._view_blank
        if state.num_moves:
            n = self.game.size
            board = state.board.reshape(n, n)
            for color, views in self._views.items():
                for planes in views:
                    planes[:, :, PLANE_OWN] = board == color
                    planes[:, :, PLANE_OPPONENT] = board == opponent(color)
            self._empty[:] = state.board == EMPTY
        else:
            self._empty.fill(1)
        self._views_state = state
        self._views_moves = state.num_moves

    def observe_state(self, state: MNKState) -> dict[str, np.ndarray]:
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
        ignored unless the rule is renju). The planes are the ones
        :meth:`observe` gives for the same positions (the tests compare the two).
        """
        n = self.game.size
        planes = np.zeros((len(boards), n, n, self._num_planes), dtype=np.int8)
        fill_observations(
            np.ascontiguousarray(boards, dtype=np.int8), n, np.asarray(to_move, dtype=np.int64),
            np.asarray(last_moves, dtype=np.int64), np.asarray(forbidden, dtype=np.bool_),
            self.game.is_renju, planes,
        )  # fmt: skip
        return planes

    def _encode(self, state: MNKState, color: int, live: bool) -> dict[str, np.ndarray]:
        n = self.game.size
        planes = np.zeros((n, n, self._num_planes), dtype=np.int8)
        mask = np.zeros(n * n, dtype=np.int8)
        renju = self._renju
        forbidden = state.forbidden() if renju else self._no_forbidden
        black_to_move = state.to_move == BLACK
        fill_observation(
            state.board, n, color, state.last_move, black_to_move, forbidden,
            renju and black_to_move, live and not state.terminal, planes, mask,
        )  # fmt: skip
        return {"observation": planes, "action_mask": mask}

    def _play(self, agent: str, action: Any) -> None:
        """:meth:`step` for ``agent``, the agent to move and still playing: validate ``action``, then play it."""
        state = self.game_state
        color = state.to_move
        # The common case (an int on an empty point, no renju restriction to
        # look up) is decided here; anything else asks the rules why.
        if not (
            type(action) is int
            and 0 <= action < self.num_actions
            and not state.terminal
            and state.board[action] == EMPTY
            and not (self._renju and color == BLACK and state.forbidden()[action])
        ):
            reason = state.illegal_reason(action)
            if reason is not None:
                raise IllegalMoveError(reason)
            action = int(action)
        in_sync = state is self._views_state and state.num_moves == self._views_moves
        state._place(action)
        self.moves.append(action)
        if in_sync:
            # The new stone, in every viewer's planes.
            flat = self._view_flat
            i = action * self._num_planes
            for offset in self._stone_offsets[color]:
                flat[offset + i] = 1
            self._empty[action] = 0
            self._views_moves += 1
        if state.terminal or self.render_mode == "human":
            self._after_move(agent)  # the end of the game, or a window to update: GameAECEnv's bookkeeping
            return
        # The move of a game that goes on, as _after_move has it, without a call's cost (a step is ~4 µs).
        self._cumulative_rewards[agent] = 0.0
        self.agent_selection = self._agent_of[state.to_move]

    # --------------------------------------------------------------- outputs
    def render(self) -> str | np.ndarray | None:
        """``"ansi"``: the board as text; ``"rgb_array"``: a picture; ``"human"``: the picture in a pygame window.

        Pictures come from :func:`boardgame_envs.render.rgb` with the keywords
        in ``render_options``; the window is updated after every step and
        closed by :meth:`close`.
        """
        mode = self.render_mode
        if mode is None:
            from gymnasium import logger

            logger.warn("render() called without a render_mode; pass render_mode='ansi', 'rgb_array' or 'human'")
            return None
        if mode == "ansi":
            return render_ansi(self.game_state)
        from boardgame_envs.render import Board, rgb

        board = Board.of(self)
        frame = rgb(board, **self.render_options)
        if mode == "rgb_array":
            return frame
        if self._window is None:
            from boardgame_envs.render.window import Window

            self._window = Window(fps=self.metadata["render_fps"])
        self._window.show(frame, title=board.title())
        return None

    def board(self) -> Any:
        """The position as a :class:`boardgame_envs.render.Board`: it shows itself in Jupyter (SVG)."""
        from boardgame_envs.render import Board

        return Board.of(self)


__all__ = ["MNKAECEnv", "IllegalMoveError", "EMPTY"]


__getattr__ = renamed_attributes(__name__)  # the old name BoardEnv, with a warning until it goes
