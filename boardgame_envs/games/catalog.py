"""The one table of games: names, board sizes, rules, defaults and registry ids.

Everything that offers a choice of game reads it from here: the command line's
choices, defaults and help, the PettingZoo and Gymnasium registrations, the
single-agent view and the AlphaZero defaults. Gomoku's default everywhere is the
package's flagship, 15x15 renju (and freestyle for a k other than five, where
renju is not defined).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardgame_envs.games.mnk import RULES, MNKGame


@dataclass(frozen=True)
class GameInfo:
    """One game of the package and how it is named and sized everywhere."""

    name: str  # as the command line, the single-agent view and the ladder spell it
    summary: str
    module: str  # the PettingZoo module, ``boardgame_envs.<module>``
    pettingzoo_id: str
    sizes: tuple[int, int]  # smallest and largest board side
    default_size: int
    default_win_length: int
    rules: tuple[str, ...]
    default_rule: str
    gymnasium_ids: dict[str, dict[str, Any]] = field(default_factory=dict)  # id -> fixed kwargs

    @property
    def fixed(self) -> bool:
        """Whether board size, k and rule are fixed (tic-tac-toe, renju) rather than chosen."""
        return self.sizes[0] == self.sizes[1] and len(self.rules) == 1

    def game(self, board_size: int | None = None, win_length: int | None = None, rule: str | None = None) -> MNKGame:
        """The :class:`MNKGame` for these arguments (None: the default); arguments that do not apply raise."""
        if self.fixed:
            defaults = {"board_size": self.default_size, "win_length": self.default_win_length, "rule": self.default_rule}
            given = {"board_size": board_size, "win_length": win_length, "rule": rule}
            bad = [f"{k}={v!r}" for k, v in given.items() if v is not None and v != defaults[k]]
            if bad:
                other = " (use gomoku for other sizes and rules)" if self.module == "gomoku_v0" else ""
                raise ValueError(f"{self.name} is played on a fixed board and rule; {', '.join(bad)} does not apply{other}")
        size = self.default_size if board_size is None else board_size
        if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or not self.sizes[0] <= size <= self.sizes[1]:
            raise ValueError(f"board_size must be an integer in {self.sizes[0]}..{self.sizes[1]}, got {size!r}")
        k = self.default_win_length if win_length is None else win_length
        rule = self.default_rule_for(k) if rule is None else rule
        if rule not in self.rules:
            raise ValueError(f"unknown rule {rule!r}; expected one of {', '.join(self.rules)}")
        return MNKGame(int(size), k, rule)

    def default_rule_for(self, win_length: int) -> str:
        """The rule when none is given: the game's default where it is defined (renju: five in a row only),
        else the first rule of the game (freestyle)."""
        if self.default_rule == "renju" and win_length != 5:
            return self.rules[0]
        return self.default_rule


GAMES: dict[str, GameInfo] = {
    "tictactoe": GameInfo(
        name="tictactoe", summary="3x3, three in a row", module="tictactoe_v0",
        pettingzoo_id="boardgame_envs/tictactoe-v0", sizes=(3, 3), default_size=3, default_win_length=3,
        rules=("freestyle",), default_rule="freestyle",
        gymnasium_ids={"boardgame_envs/TicTacToe-v0": {}},
    ),
    "gomoku": GameInfo(
        name="gomoku", summary="N x N (5..19), k in a row; freestyle, standard or renju", module="gomoku_v0",
        pettingzoo_id="boardgame_envs/gomoku-v0", sizes=(5, 19), default_size=15, default_win_length=5,
        rules=RULES, default_rule="renju",
        gymnasium_ids={"boardgame_envs/Gomoku-v0": {}},
    ),
    "renju": GameInfo(
        name="renju", summary="gomoku on 15x15 under the RIF renju rules (black's forbidden moves)",
        module="gomoku_v0", pettingzoo_id="boardgame_envs/gomoku-v0", sizes=(15, 15), default_size=15,
        default_win_length=5, rules=("renju",), default_rule="renju",
        gymnasium_ids={"boardgame_envs/Renju-v0": {}},
    ),
}  # fmt: skip


def game_info(name: str) -> GameInfo:
    """The catalog entry of ``name``; an unknown name raises ``ValueError`` listing the games."""
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {name!r}; expected one of {', '.join(GAMES)}") from None
