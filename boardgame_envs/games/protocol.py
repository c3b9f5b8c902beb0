"""The Game/State protocol: what every layer above ``games`` may assume of a game.

A game is a small state machine behind two objects. A :class:`Game` is one
variant (15x15 renju, tic-tac-toe, connect four): its name, its action count,
its board shape and observation planes, the names of its actions and its
symmetries. A :class:`State` is one position of it, changed only through
:meth:`State.play`, which validates before it mutates, so a state always
describes a position reachable by legal play.

The AEC env, the single-agent view, the arena, the ladder and the generic
searches (:mod:`boardgame_envs.policies.generic`) drive states through these
calls alone, which is why a new game plugs in without touching them: a game
module, an env module, and its line in :mod:`boardgame_envs.games.catalog`.

Players are numbered 1 (the first player) and 2; 0 is nobody (``winner`` of
a draw or of a game still going).

**A finished game reports its outcome by** :meth:`State.returns` (and
``winner``), **never by who moved last.** Once ``terminal`` is True,
``returns()`` is final, ``winner`` is the player it favours (0 for a draw),
``legal_mask()`` is all False, and ``to_move`` means nothing: in some games the
player who ends the game loses (a misère game, a move that completes a
forbidden line), so a search scores an end by :func:`outcome_for` for the
player it searches for (the one who was to move before the last move), and
never reads ``to_move`` of a finished state. Turns need not alternate either
(a player may move twice in a row under an opening rule), so a search compares
a child's ``to_move`` with its own player instead of negating at every ply.

A family of games may also have numba kernels over flat arrays for the hot
paths (the m,n,k family's batched engine, PUCT and alpha-beta); a game names
its family in ``game.family``, :func:`kernels_of` says whether a family's
kernels apply, and callers fall back to the protocol otherwise. The kernels
are not objects handed to a generic numba search: numba compiles a function
per kernel it is passed, and such compilations do not load from its on-disk
cache (measured: every new process compiled again), so each family keeps its
own fast paths and every other game gets the protocol's searches.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

FIRST, SECOND = 1, 2  # the players; 0 is nobody


class IllegalMoveError(ValueError):
    """An action that the rules do not allow in the current position."""


@runtime_checkable
class Game(Protocol):
    """One game variant, as every layer sees it."""

    name: str  # its name in the catalog (the keys of games.catalog.GAMES)
    num_actions: int  # actions are 0 .. num_actions - 1
    shape: tuple[int, int]  # board rows, columns
    num_planes: int  # observation planes: planes(viewer) is (rows, columns, num_planes) int8

    def new_state(self) -> State:
        """The start position, the first player to move."""
        ...

    def describe(self) -> str:
        """The game in words, for titles and tables: ``"15x15, 5 in a row, renju"``."""
        ...

    def action_name(self, action: int) -> str:
        """An action as players write it (``"h8"``, ``"c"``); raises ValueError for a non-action."""
        ...

    def parse_action(self, text: str) -> int:
        """The action that ``text`` names; raises ValueError with a one-line explanation."""
        ...

    def player_name(self, player: int) -> str:
        """Player 1 or 2 as players call it: ``"black"``, ``"X"``, ``"red"``."""
        ...

    def symmetries(self) -> Sequence[np.ndarray]:
        """The board's symmetries as action permutations, the identity first.

        ``perm[a]`` is where action ``a`` goes. Where actions are not the
        board's cells (connect four's columns), the game also has
        ``cell_symmetries()``, the same symmetries as permutations of the
        cells, which move the planes; see :func:`cell_symmetries`.
        """
        ...


@runtime_checkable
class State(Protocol):
    """A position of a :class:`Game`; change it only through :meth:`play`."""

    game: Any
    to_move: int  # 1 or 2 while playing; unspecified once terminal (never read it there)
    winner: int  # the player returns() favours once terminal (0: a draw); 0 while playing
    terminal: bool
    num_moves: int
    last_move: int  # the last cell played, as a flat board index (-1 before the first move)
    board: np.ndarray  # flat int8 cells, rows first: 0 empty, 1 or 2 the player's stone

    def legal_mask(self) -> np.ndarray:
        """Bool ``(num_actions,)``: the actions the player to move may take (none once terminal)."""
        ...

    def legal_actions(self) -> np.ndarray:
        """The legal actions, ascending."""
        ...

    def illegal_reason(self, action: object) -> str | None:
        """Why ``action`` is illegal here, in words, or None if it is legal."""
        ...

    def play(self, action: int) -> None:
        """Play ``action`` for the player to move; raise :class:`IllegalMoveError` (state unchanged) if illegal."""
        ...

    def clone(self) -> State:
        """An independent copy."""
        ...

    def planes(self, viewer: int) -> np.ndarray:
        """The observation planes ``(rows, columns, num_planes)`` int8 as player ``viewer`` sees them."""
        ...

    def returns(self) -> tuple[float, float]:
        """Final rewards ``(first, second)``: +1 win, -1 loss, 0 draw or unfinished.

        THE outcome: every search and every env scores an end by it (see :func:`outcome_for`).
        """
        ...


def kernels_of(game: Any, family: str) -> Any:
    """``game`` if it belongs to ``family`` (e.g. ``"mnk"``), whose numba kernels then apply to it, else None.

    Search code with a numba fast path for a family asks this first and falls
    back to the protocol (clone/play) for every other game.
    """
    return game if getattr(game, "family", None) == family else None


def returns_of(winner: int) -> tuple[float, float]:
    """Final rewards ``(first, second)`` for ``winner``: +1 win, -1 loss, 0 draw or unfinished (every game's rule)."""
    if winner == FIRST:
        return 1.0, -1.0
    if winner == SECOND:
        return -1.0, 1.0
    return 0.0, 0.0


def outcome_for(state: Any, player: int) -> float:
    """What the finished ``state`` gives ``player`` (1 or 2): ``state.returns()[player - 1]``.

    How every search scores an end, for the player it searches for; never by
    who moved last, since the player who ends a game may be the one who loses.
    """
    return float(state.returns()[player - 1])


def cell_symmetries(game: Any) -> Sequence[np.ndarray]:
    """``game``'s symmetries as permutations of its cells: its own ``cell_symmetries()``, else ``symmetries()``."""
    own = getattr(game, "cell_symmetries", None)
    return own() if own is not None else game.symmetries()


def check_action(game: Any, action: object) -> str | None:
    """The reason ``action`` is no action of ``game`` at all (not an int in range), or None."""
    n = game.num_actions
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        return f"action {action!r} is not an integer in 0..{n - 1}"
    if not 0 <= action < n:
        return f"action {action} is out of range 0..{n - 1}"
    return None
