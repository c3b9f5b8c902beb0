"""Tic-tac-toe as a PettingZoo AEC environment.

=================  ==============================================
Import             ``from boardgame_envs import tictactoe_v0``
Create             ``tictactoe_v0.env()`` or ``pettingzoo.make("aec", "boardgame_envs/tictactoe-v0")``
Agents             ``["player_1", "player_2"]``; ``player_1`` plays X and moves first
Actions            ``Discrete(9)``: action ``a`` is cell ``(a // 3, a % 3)``, row 0 at the top
Observation        ``{"observation": Box(0, 1, (3, 3, 2), int8), "action_mask": Box(0, 1, (9,), int8)}``
Rewards            +1 win, -1 loss, 0 draw, to both agents on the final step
Render modes       ``"ansi"``, ``"rgb_array"``, ``"human"`` (a pygame window, the ``gui`` extra)
=================  ==============================================

Cell indexes::

    0 | 1 | 2        a3 b3 c3
    3 | 4 | 5        a2 b2 c2
    6 | 7 | 8        a1 b1 c1

Observation planes, relative to the observing agent: plane 0 its own marks,
plane 1 the opponent's (the same two planes as PettingZoo's ``tictactoe_v3``,
which indexes cells column-major; this env is row-major). ``action_mask``
marks the empty cells for the agent to move and is all zeros for the other.

Illegal moves: ``raw_env()`` raises :class:`~boardgame_envs.games.mnk.IllegalMoveError`
(a ``ValueError``) naming the cell and the reason and leaves the game as it was;
``env()`` follows PettingZoo's wrappers: the offender gets -1, the other agent 0,
and the game ends; the offender's info holds ``illegal_action=True`` and the
``reason``. An action that is no point of the board (``9``, ``True``, ``None``
for an agent still playing) raises ``ActionOutOfBoundsError``, which is both
PettingZoo's ``AssertionError`` and a ``ValueError``, naming the legal points.

Version history: v0, first release.
"""

from __future__ import annotations

from gymnasium.utils import EzPickle
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from boardgame_envs.envs.board_env import MNKAECEnv
from boardgame_envs.envs.wrappers import safety_wrap
from boardgame_envs.games.catalog import GAMES, register_env

AGENTS = ("player_1", "player_2")
NUM_PLANES = 2


def env(render_mode: str | None = None) -> OrderEnforcingWrapper:
    """Tic-tac-toe wrapped in PettingZoo's standard safety wrappers."""
    e = raw_env(render_mode=render_mode)
    return safety_wrap(e)


class raw_env(MNKAECEnv):  # noqa: N801 (PettingZoo's module convention)
    """Tic-tac-toe without wrappers; illegal moves raise ``IllegalMoveError``."""

    metadata = {**MNKAECEnv.metadata, "name": "tictactoe_v0"}

    def __init__(self, render_mode: str | None = None) -> None:
        EzPickle.__init__(self, render_mode=render_mode)
        super().__init__(GAMES["tictactoe"].game(), AGENTS, NUM_PLANES, render_mode)


register_env("tictactoe", __name__, "boardgame_envs/tictactoe-v0", {"boardgame_envs/TicTacToe-v0": {}})
