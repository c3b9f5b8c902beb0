"""Gomoku (freestyle, standard or renju) and other square m,n,k games as a PettingZoo AEC environment.

=================  ==============================================
Import             ``from boardgame_envs import gomoku_v0``
Create             ``gomoku_v0.env()`` (15x15 renju), ``gomoku_v0.env(board_size=9, rule="freestyle")``, or
                   ``pettingzoo.make("aec", "boardgame_envs/gomoku-v0", rule="renju")``
Agents             ``["black_0", "white_0"]``; black moves first
Actions            ``Discrete(N * N)``: action ``a`` is cell ``(a // N, a % N)``, row 0 at the top;
                   in renju notation that point is column ``"abcdefghijklmnopqrs"[a % N]``,
                   row ``N - a // N`` (on 15x15, action 112 is the centre, ``h8``)
Observation        ``{"observation": Box(0, 1, (N, N, C), int8), "action_mask": Box(0, 1, (N*N,), int8)}``,
                   C = 4, or 5 under renju
Rewards            +1 win, -1 loss, 0 draw, to both agents on the final step
Render modes       ``"ansi"``, ``"rgb_array"``, ``"human"`` (a pygame window, the ``gui`` extra)
=================  ==============================================

Arguments
---------
``board_size``: N, 5..19 (default 15). ``win_length``: k, 2..N (default 5);
``gomoku_v0.env(board_size=6, win_length=4)`` is six-by-six four-in-a-row.
``rule`` (default: ``"renju"``, the package's flagship, for five in a row;
``"freestyle"`` for any other ``win_length``, where renju is not defined):

* ``"freestyle"``: k or more in a row wins;
* ``"standard"``: exactly k in a row wins, an overline (k+1 or more) wins for
  nobody, for either colour;
* ``"renju"`` (k must be 5): black wins with exactly five and may not play an
  overline, a double-four or a double-three (the RIF definitions, see
  ``docs/renju.md``); white wins with five or more and has no restriction.

The game is drawn when the board is full (or, under renju, when black has no
legal point left).

Observation planes (relative to the observing agent)
----------------------------------------------------
0. own stones; 1. opponent's stones; 2. the last move, one-hot;
3. colour to move: all ones when black is to move, all zeros when white is
   (so the empty board is not all zeros);
4. (renju only) the empty points forbidden for black, shown to both agents.

``action_mask`` marks the legal points for the agent to move (under renju,
black's forbidden points are excluded) and is all zeros for the other agent.

Illegal moves: ``raw_env()`` raises :class:`~boardgame_envs.games.mnk.IllegalMoveError`
(a ``ValueError``) whose message names the point and the reason, e.g.
``"h8 is forbidden for black: double-three"``, and leaves the game as it was;
``env()`` follows PettingZoo's wrappers: the offender gets -1, the other agent 0,
and the game ends; the offender's info holds ``illegal_action=True`` and the
``reason``. An action that is no point of the board (``9``, ``True``, ``None``
for an agent still playing) raises ``ActionOutOfBoundsError``, which is both
PettingZoo's ``AssertionError`` and a ``ValueError``, naming the legal points.

Opening rules
-------------
``opening_rule`` (default None: play from the empty board) plays the game as
tournaments do, under an opening rule of :mod:`boardgame_envs.games.opening_rules`:
``"soosorv1"`` .. ``"soosorv8"``, ``"taraguchi1"`` .. ``"taraguchi10"`` and
``"rif"`` under renju (odd boards; Taraguchi from 9x9), ``"swap2"`` under
freestyle and standard; ``True`` takes the rule's default (``"soosorv8"``
under renju, ``"swap2"`` otherwise). Another name, or a rule of the other
kind of game, raises ``ValueError`` listing the valid ones. Then:

* the agents are the seats ``["player_0", "player_1"]`` (``player_0`` acts
  first) for the whole game; the swaps decide which colour each plays, and
  each agent's ``info`` says it in numbers, for the RL libraries' wrappers:
  ``"color_id"`` (1 black, 2 white) and ``"phase_id"``, the index in
  ``env.unwrapped.game.opening.phases`` of the phase (``"stone"``, ``"swap"``,
  ``"declare"``, ``"choice"``, ``"swap2"``, ``"colour"``, ``"offer"``,
  ``"choose"``, then ``"play"``); in words, ``env.unwrapped.color_of(agent)``
  and ``env.unwrapped.phase`` (``env.unwrapped.info_strings = True`` puts the
  words back in the info, as it was: see the version history);
* actions are ``Discrete(N * N + D)``: the points, then the rule's ``D``
  decisions (``"swap"``, ``"keep"``, ``"offers=K"``; Swap2's ``"black"``,
  ``"white"``, ``"more"``); ``env.unwrapped.game.action_name(a)`` names one;
  the mask holds exactly the actions of the phase (zones, symmetric offers
  refused, black's forbidden points);
* the observation adds to the planes above (seen from the colour the agent
  holds) the offered fifth moves, "I hold black", "I am to act", the phase
  one-hot and, under Soosõrv, the declared number of offers (the layout:
  :mod:`boardgame_envs.games.opening_game`);
* an illegal action raises ``IllegalMoveError`` naming the phase under
  ``raw_env()`` and loses under ``env()``, as in the plain game; ``"ansi"``
  shows the phase, the colours and the offered stones;
* ``reset(options={"opening": "h8 h9 i9 keep ..."})`` plays those actions
  (points and decisions) from the start.

Version history: v0, first release; during 0.1.0 the default ``rule`` became
``"renju"`` (it was ``"freestyle"``), the catalog's default for gomoku, which
``demo``, ``arena``, ``play``, ``ladder`` and ``rate`` share; ``opening_rule``
came in 0.1.0 as well. Unreleased: under an opening rule each agent's info holds
``color_id`` and ``phase_id`` (numbers) instead of ``color`` and ``phase``
(words), which TorchRL's ``PettingZooWrapper`` could not take.
"""

from __future__ import annotations

from typing import Any

from gymnasium.utils import EzPickle
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from boardgame_envs.envs.board_env import MNKAECEnv
from boardgame_envs.envs.opening_env import OpeningRuleEnv
from boardgame_envs.envs.wrappers import safety_wrap
from boardgame_envs.games.catalog import GAMES, register_env

AGENTS = ("black_0", "white_0")
SEATS = ("player_0", "player_1")  # under an opening rule: seats, whose colours the opening decides
GAME = GAMES["gomoku"]
MIN_BOARD_SIZE, MAX_BOARD_SIZE = GAME.sizes


def env(
    board_size: int = GAME.default_size, win_length: int = GAME.default_win_length, rule: str | None = None,
    opening_rule: Any = None, render_mode: str | None = None,
) -> OrderEnforcingWrapper:  # fmt: skip
    """Gomoku wrapped in PettingZoo's standard safety wrappers."""
    e = raw_env(board_size=board_size, win_length=win_length, rule=rule, opening_rule=opening_rule,
                render_mode=render_mode)  # fmt: skip
    return safety_wrap(e)


def _arguments(
    board_size: int = GAME.default_size, win_length: int = GAME.default_win_length, rule: str | None = None,
    opening_rule: Any = None, render_mode: str | None = None,
) -> dict[str, Any]:  # fmt: skip
    """``raw_env``'s arguments by name (how ``__new__`` reads them)."""
    return {"board_size": board_size, "win_length": win_length, "rule": rule, "opening_rule": opening_rule,
            "render_mode": render_mode}  # fmt: skip


class raw_env(MNKAECEnv):  # noqa: N801 (PettingZoo's module convention)
    """Gomoku without wrappers; illegal moves raise ``IllegalMoveError``.

    With an ``opening_rule`` the env is an :class:`opening_raw_env` (the
    generic env over the opening-rule game): the plain game keeps its own
    fast path untouched.
    """

    metadata = {**MNKAECEnv.metadata, "name": "gomoku_v0"}

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        if cls is raw_env:
            arguments = _arguments(*args, **kwargs)
            if arguments["opening_rule"] is not None and arguments["opening_rule"] is not False:
                return opening_raw_env(**arguments)
        return super().__new__(cls)

    def __init__(
        self, board_size: int = GAME.default_size, win_length: int = GAME.default_win_length,
        rule: str | None = None, opening_rule: Any = None, render_mode: str | None = None,
    ) -> None:  # fmt: skip
        EzPickle.__init__(self, board_size=board_size, win_length=win_length, rule=rule, render_mode=render_mode)
        game = GAME.game(board_size, win_length, rule)
        super().__init__(game, AGENTS, 5 if game.is_renju else 4, render_mode)


class opening_raw_env(OpeningRuleEnv):  # noqa: N801 (PettingZoo's module convention)
    """Gomoku under an opening rule, without wrappers: what ``raw_env(opening_rule=...)`` returns."""

    metadata = {**OpeningRuleEnv.metadata, "name": "gomoku_v0"}

    def __init__(
        self, board_size: int = GAME.default_size, win_length: int = GAME.default_win_length,
        rule: str | None = None, opening_rule: Any = True, render_mode: str | None = None,
    ) -> None:  # fmt: skip
        EzPickle.__init__(self, board_size=board_size, win_length=win_length, rule=rule, opening_rule=opening_rule,
                          render_mode=render_mode)  # fmt: skip
        game = GAME.game(board_size, win_length, rule, opening_rule)
        super().__init__(game, SEATS, render_mode)


# Renju is gomoku's env fixed to 15x15 renju: one PettingZoo id for both, a Gymnasium id each.
register_env("gomoku", __name__, "boardgame_envs/gomoku-v0", {"boardgame_envs/Gomoku-v0": {}})
register_env("renju", __name__, "boardgame_envs/gomoku-v0", {"boardgame_envs/Renju-v0": {}})
