"""Connect four as a PettingZoo AEC environment: a drop-in for PettingZoo's ``connect_four_v3``.

=================  ==============================================
Import             ``from boardgame_envs import connect_four_v0``
Create             ``connect_four_v0.env()`` or ``pettingzoo.make("aec", "boardgame_envs/connect_four-v0")``
Agents             ``["player_0", "player_1"]``; ``player_0`` moves first
Actions            ``Discrete(7)``: action ``c`` drops a piece into column ``c``, counted from the left
                   (columns ``a``..``g`` in text)
Observation        ``{"observation": Box(0, 1, (6, 7, 2), int8), "action_mask": Box(0, 1, (7,), int8)}``
Rewards            +1 win, -1 loss, 0 draw, to both agents on the final step
Render modes       ``"ansi"`` (text), ``"rgb_array"`` (a picture), ``"human"`` (a pygame window, the ``gui`` extra)
=================  ==============================================

The rules: :mod:`boardgame_envs.games.connect_four` (6 rows, 7 columns, pieces
fall to the lowest empty cell of their column, four in a row, column or
diagonal win, a full board is a draw).

Observation planes, relative to the observing agent, as in ``connect_four_v3``:
plane 0 its own pieces, plane 1 the opponent's, row 0 at the top.
``action_mask`` marks the columns that are not full for the agent to move and
is all zeros for the other, and for both once the game is over (the one
difference from ``connect_four_v3``, whose mask still offers the free columns
after a win).

Illegal moves: ``raw_env()`` raises :class:`~boardgame_envs.games.protocol.IllegalMoveError`
(a ``ValueError``) naming the column and the reason (``"column d is full"``)
and leaves the game as it was; ``env()`` follows PettingZoo's wrappers: the
offender gets -1, the other agent 0, and the game ends; the offender's info
holds ``illegal_action=True`` and the ``reason``. An action that is no column
(``7``, ``True``, ``None`` for an agent still playing) raises ``ActionOutOfBoundsError``,
which is both PettingZoo's ``AssertionError`` and a ``ValueError``.

Version history: v0, first release.
"""

from __future__ import annotations

from gymnasium.utils import EzPickle
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from boardgame_envs.envs.game_env import GameAECEnv
from boardgame_envs.envs.wrappers import safety_wrap
from boardgame_envs.games.catalog import GAMES, register_env

AGENTS = ("player_0", "player_1")


def env(render_mode: str | None = None) -> OrderEnforcingWrapper:
    """Connect four wrapped in PettingZoo's standard safety wrappers."""
    return safety_wrap(raw_env(render_mode=render_mode))


class raw_env(GameAECEnv):  # noqa: N801 (PettingZoo's module convention)
    """Connect four without wrappers; illegal moves raise ``IllegalMoveError``."""

    metadata = {**GameAECEnv.metadata, "name": "connect_four_v0"}

    def __init__(self, render_mode: str | None = None) -> None:
        EzPickle.__init__(self, render_mode=render_mode)
        super().__init__(GAMES["connect_four"].game(), AGENTS, render_mode)


register_env("connect_four", __name__, "boardgame_envs/connect_four-v0", {"boardgame_envs/ConnectFour-v0": {}})
