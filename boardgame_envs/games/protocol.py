"""The Game/State protocol: what every layer above ``games`` may assume of a game.

A game is a small state machine behind two objects. A :class:`Game` is one
variant (15x15 renju, tic-tac-toe, connect four): its name, its action count,
its board shape and observation planes, the names of its actions and its
symmetries. A :class:`State` is one position of it, changed only through
:meth:`State.play`, which validates before it mutates, so a state always
describes a position reachable by legal play.

The AEC env, the single-agent view, the arena, the ladder and the generic
searches (:mod:`boardgame_envs.policies.generic`) drive states through these
calls alone, so a new game changes none of them. It brings its rules module, an
env module that registers itself (:func:`boardgame_envs.games.catalog.register_env`),
and its entry in the catalog's ``GAMES``; the package imports every env module
named ``<game>_v<N>`` at its root (docs/games.md walks through one).

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

**Cells and other actions.** ``board`` is the flat cells, rows first. An
action is a *cell action* when it puts something on (or chooses) a cell, and
an *other action* when it does not: a pass, an opening rule's "swap". A game
whose actions are exactly its cells needs nothing more. Any other game says
which is which with ``cell_of_action(action) -> int | None`` (a cell that
stands for the action, connect four's column: its top cell; None for an
other action) and, where a click on a cell means an action,
``action_of_cell(cell) -> int | None``. :func:`cell_of`, :func:`action_at_cell`
and :func:`other_actions` read them with that default: actions below
``rows * columns`` are their cells, the rest are other actions. An other
action is named and entered by its name alone (``action_name`` /
``parse_action``: ``"pass"``): the terminal reads the name, the play window
gives it a button labelled with it, the text board ends with ``last move:
pass`` and the pictures draw a bar along the bottom edge after one.
``last_move`` is the *cell* of the last move, -1 before the first move and
after an other action; a game with other actions also keeps ``last_action``
(the last action of any kind, -1 before the first), which
:func:`last_other_action` reads for the fronts.

**How a game looks** is its drawing hook: :func:`draw` calls the game's own
``draw(state, canvas)`` (lines, dots, owned regions on a
:class:`boardgame_envs.render.canvas.Canvas`, in board units), else
:func:`draw_cells`, a piece per cell in the game's ``marks``; every picture of
a game other than m,n,k is drawn through it (docs/render.md).

A family of games may also have numba kernels over flat arrays for the hot
paths of the searches (the m,n,k family's PUCT and alpha-beta); a game names
its family in ``game.family``, :func:`as_family` says whether a family's
kernels apply, and callers fall back to the protocol otherwise. The kernels
are not objects handed to a generic numba search: numba compiles a function
per kernel it is passed, and such compilations do not load from its on-disk
cache (measured: every new process compiled again), so each family keeps its
own fast paths and every other game gets the protocol's searches.

**Batched kernels (optional).** ``game.kernels()`` names the class that
steps many games of it at once in numba, as ``"module:attribute"`` (a name,
so that the kernels' module may import the game's), or returns the class, or
None. The batched engine (:mod:`boardgame_envs.vector`) builds it as
``cls(game, num_envs, parallel=False)``: one row per game in arrays
(``to_move`` players 1/2, ``num_moves``, ``boards``, ``last_move``, ``legal``
``(B, num_actions)`` with ``num_legal``, ``over``, ``illegal``), changed by
``reset(where)``, ``step(actions, where, raising, autoreset, obs, final_obs,
rewards, terminated) -> number of illegal actions``, ``observe(viewers,
out)``, and read back as a state by ``state(b)``. Without it the engine steps
the game's states in a Python loop behind the same API, so kernels are only a
speed-up. The hook is the one way to them; its users in the package are the
m,n,k family's (:mod:`boardgame_envs.games.mnk_batch`) and connect four's
(:mod:`boardgame_envs.games.connect_four_kernels`, bitboards, the model).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from boardgame_envs._compat import renamed_attributes

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
    last_move: int  # the last cell played, flat (-1 before the first move and after an action that is no cell)
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


# What a policy written for the old ``act(env)`` reads of the env, and what the state offers instead.
ENV_ONLY_NAMES = {
    "unwrapped": "the state is the position itself (what env.unwrapped.game_state was)",
    "last": "state.legal_mask() is the action mask, state.planes(state.to_move) the observation",
    "observe": "state.planes(player) is the observation, state.legal_mask() the action mask",
    "agent_selection": "state.to_move is the player to move (1 or 2)",
}


class StateIsNotEnvError(AttributeError):
    """A policy read an env's attribute (``unwrapped``, ``last``, ...) of the game state it was handed.

    Policies are called ``act(state)`` since the Game/State protocol; one written for
    ``act(env)`` meets this error, which says what to read instead. The message is built
    only when shown, so a ``getattr(state, "unwrapped", default)`` probe stays cheap.
    """

    def __init__(self, state_type: str, name: str) -> None:
        super().__init__(state_type, name)
        self.state_type, self.name = state_type, name

    def __str__(self) -> str:
        return (f"{self.state_type} has no attribute {self.name!r}: a policy is handed a game state now, not an env "
                f"(policy.act(state), not act(env)); {ENV_ONLY_NAMES[self.name]}. Read the state instead; a policy that "
                f"may be handed either starts with state = game_state_of(state), as the built-in ones do "
                f"(docs/games.md, \"Policies act on a state\")")  # fmt: skip


class _EnvOnly:
    """A class attribute that raises :class:`StateIsNotEnvError` when read on an instance."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, state: Any, owner: type) -> Any:
        if state is None:
            return self
        raise StateIsNotEnvError(owner.__name__, self.name)


class EnvNamesExplained:
    """Mixin for a State class: reading an env-only name on it (``state.unwrapped``, ``state.last()``,
    ``state.agent_selection``, ``state.observe(...)``) raises :class:`StateIsNotEnvError`, which tells the
    author of an ``act(env)`` policy what changed. Descriptors rather than ``__getattr__``: every other
    missing attribute is looked up exactly as before, at no cost."""

    __slots__ = ()
    unwrapped = _EnvOnly()
    last = _EnvOnly()
    observe = _EnvOnly()
    agent_selection = _EnvOnly()


def as_family(game: Any, family: str) -> Any:
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


def cell_of(game: Any, action: int) -> int | None:
    """The flat cell that stands for ``action`` (where it is drawn, where a click enters it), or None for an
    action that is no cell (a pass): the game's own ``cell_of_action``, else the action itself when it is below
    ``rows * columns``."""
    own = getattr(game, "cell_of_action", None)
    if own is not None:
        cell = own(int(action))
        return None if cell is None else int(cell)
    rows, cols = game.shape
    return int(action) if 0 <= int(action) < rows * cols else None


def action_at_cell(game: Any, cell: int) -> int | None:
    """The action a click on ``cell`` means (connect four: its column), or None: the game's own
    ``action_of_cell``, else the cell itself when it is an action."""
    own = getattr(game, "action_of_cell", None)
    if own is not None:
        action = own(int(cell))
        return None if action is None else int(action)
    return int(cell) if 0 <= int(cell) < game.num_actions else None


def other_actions(game: Any) -> tuple[int, ...]:
    """The actions of ``game`` that are no cell (a pass), ascending; ``()`` for a game whose every action is a cell."""
    return tuple(a for a in range(game.num_actions) if cell_of(game, a) is None)


def last_other_action(state: Any) -> int | None:
    """The last move if it was an action that is no cell (a pass), else None: the state's ``last_action``
    when ``last_move`` is -1 after a move (a game whose actions are all cells keeps no ``last_action``)."""
    action = int(getattr(state, "last_action", -1))
    if action < 0 or state.last_move >= 0 or cell_of(state.game, action) is not None:
        return None
    return action


def draw(state: Any, canvas: Any) -> None:
    """Draw ``state`` on ``canvas`` (a :class:`boardgame_envs.render.canvas.Canvas`, in board units): the game's
    own ``draw(state, canvas)`` hook where it has one (lines, dots and owned regions), else :func:`draw_cells`;
    then, after an action that is no cell (a pass), the canvas's bar along the bottom edge."""
    own = getattr(state.game, "draw", None)
    if own is not None:
        own(state, canvas)
    else:
        draw_cells(state, canvas)
    if last_other_action(state) is not None:
        canvas.passed()


def draw_cells(state: Any, canvas: Any) -> None:
    """The cell look, every cell game's default: a piece per cell in the game's ``marks`` (connect four's discs,
    stones, X and O), an empty cell as the look shows one, the last move's cell marked."""
    canvas.board()
    for cell, value in enumerate(state.board):
        canvas.piece(cell, int(value))
        if cell == state.last_move:
            canvas.last(cell)


def check_action(game: Any, action: object) -> str | None:
    """The reason ``action`` is no action of ``game`` at all (not an int in range), or None."""
    n = game.num_actions
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        return f"action {action!r} is not an integer in 0..{n - 1}"
    if not 0 <= action < n:
        return f"action {action} is out of range 0..{n - 1}"
    return None


__getattr__ = renamed_attributes(__name__)  # old names of this module (kernels_of), with a warning
