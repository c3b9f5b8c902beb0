"""The m,n,k game on a square board: the pure rules every other layer drives.

Tic-tac-toe is ``MNKGame(3, 3)``; gomoku is ``MNKGame(15, 5, rule)`` with
``rule`` one of:

* ``"freestyle"``: ``k`` or more in a row wins, for both colours;
* ``"standard"``: exactly ``k`` in a row wins; an overline wins for nobody;
* ``"renju"``: black (who moves first) wins only with exactly five and may not
  play the forbidden points of :mod:`boardgame_envs.games.renju` (overline,
  double-four, double-three); white wins with five or more.

A :class:`MNKState` is a flat ``int8`` board plus a few scalars (and, under
renju, black's forbidden points, kept up to date move by move by
:mod:`~boardgame_envs.games.renju_mask`), so cloning is a few array copies.
Its invariant: ``board``, ``to_move``, ``num_moves``, ``last_move``,
``winner`` and ``terminal`` always describe a position reachable by legal
play, because :meth:`MNKState.play` validates before it mutates.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from boardgame_envs._compat import renamed_attributes
from boardgame_envs.games.compile_notice import compile_notice
from boardgame_envs.games.kernel_cache import cached_kernel
from boardgame_envs.games.lines import BLACK, EMPTY, WHITE, opponent, win_code, wins_at
from boardgame_envs.games.notation import parse_point, point_name
from boardgame_envs.games.protocol import EnvNamesExplained, IllegalMoveError, returns_of

# The renju kernel has an explicit signature, so it compiles (once, then loads from numba's cache) on import.
with compile_notice("the renju rules kernel", 9):
    from boardgame_envs.games import renju, renju_mask

RULES = ("freestyle", "standard", "renju")
MIN_SIZE, MAX_SIZE = 3, 19
NO_MOVE = -1

# The observation planes of the family, in this order; a game shows the first ``num_planes`` of them.
# The AEC env, the batched engine and MNKState.planes all index planes by these names.
PLANE_OWN, PLANE_OPPONENT, PLANE_LAST_MOVE, PLANE_BLACK_TO_MOVE, PLANE_FORBIDDEN = range(5)
# The family's rules packed in one int64 array for the numba kernels (MNKGame.rules_array), the one layout
# every kernel reads: the searches take it as it is, the batched engine's config extends it.
R_N, R_K, R_EXACT_BLACK, R_EXACT_WHITE, R_RENJU = range(5)
RULES_SIZE = 5
MARKS = {"stones": ("black", "white"), "crosses": ("X", "O")}


# The family's one encoder of a position into planes: MNKState.planes and the AEC env use it (the
# batched engine's writers in games/mnk_kernels.py are its twins, compared cell by cell in the tests).
@cached_kernel()
def fill_observation(board, n, me, last_move, black_to_move, forbidden, mask_forbidden, live, planes, mask):
    """Write ``me``'s planes into ``planes`` (n, n, C) and the action mask into ``mask``.

    Both arrays arrive zeroed. ``mask`` stays zero unless ``live`` (it is
    ``me``'s turn in a game still going); ``mask_forbidden`` removes the
    renju-forbidden points from it (black to move under renju).
    """
    opp = opponent(me)
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


@cached_kernel()
def fill_observations(boards, n, to_move, last_moves, forbidden, renju, planes):
    """:func:`fill_observation` for a batch of positions, each seen by its player to move."""
    mask = np.zeros(n * n, dtype=np.int8)
    for b in range(boards.shape[0]):
        black_to_move = to_move[b] == BLACK
        fill_observation(boards[b], n, to_move[b], last_moves[b], black_to_move, forbidden[b],
                          renju and black_to_move, False, planes[b], mask)  # fmt: skip


@dataclass(frozen=True)
class MNKGame:
    """Rules of one m,n,k game: board ``size``, ``win_length`` (k) and ``rule``; a ``Game`` of the protocol.

    Tic-tac-toe is the one variant with its own conventions, settled here and
    nowhere else: ``MNKGame(3, 3)`` is named ``"tictactoe"``, shows two planes
    (PettingZoo's ``tictactoe_v3`` layout) and calls its players X and O. Every
    other variant is ``"gomoku"`` with four planes (five under renju) and black
    and white stones. ``name``, ``planes`` and ``marks`` override those
    defaults (the catalog names 15x15 renju ``"renju"``); they take no part in
    equality, so two games with the same rules are the same game.
    Derived once: ``num_actions`` (``size * size``), ``shape``, ``num_planes`` and ``is_renju``.
    """

    size: int = 15
    win_length: int = 5
    rule: str = "freestyle"
    name: str | None = field(default=None, compare=False)
    planes: int | None = field(default=None, compare=False)
    marks: str | None = field(default=None, compare=False)

    family = "mnk"  # as_family(game, "mnk"): the searches' m,n,k numba paths apply (batches go by kernels())

    def __post_init__(self) -> None:
        if self.rule not in RULES:
            raise ValueError(f"unknown rule {self.rule!r}; expected one of {', '.join(RULES)}")
        if not isinstance(self.size, (int, np.integer)) or not MIN_SIZE <= self.size <= MAX_SIZE:
            raise ValueError(f"board size must be an integer in {MIN_SIZE}..{MAX_SIZE}, got {self.size!r}")
        if not isinstance(self.win_length, (int, np.integer)) or not 2 <= self.win_length <= self.size:
            raise ValueError(
                f"win_length must be an integer in 2..board_size ({self.size}), got {self.win_length!r}"
            )
        if self.rule == "renju" and (self.win_length != 5 or self.size < 5):
            raise ValueError(
                f"rule 'renju' is defined for five in a row on boards of 5x5 or more; "
                f"got win_length={self.win_length}, size={self.size}"
            )
        tictactoe = (self.size, self.win_length, self.rule) == (3, 3, "freestyle")
        marks = ("crosses" if tictactoe else "stones") if self.marks is None else self.marks
        if marks not in MARKS:
            raise ValueError(f"unknown marks {self.marks!r}; expected one of {', '.join(MARKS)}")
        planes = (2 if tictactoe else 5 if self.rule == "renju" else 4) if self.planes is None else self.planes
        if planes not in (2, 4, 5) or (planes == 5) != (self.rule == "renju"):
            raise ValueError(f"planes must be 2, 4 or 5 (5 only and always under renju), got {self.planes!r}")
        object.__setattr__(self, "name", ("tictactoe" if tictactoe else "gomoku") if self.name is None else self.name)
        object.__setattr__(self, "marks", marks)
        # Read on every move: plain attributes, worked out once (the dataclass is frozen).
        object.__setattr__(self, "num_actions", int(self.size) * int(self.size))
        object.__setattr__(self, "shape", (int(self.size), int(self.size)))
        object.__setattr__(self, "num_planes", planes)
        object.__setattr__(self, "is_renju", self.rule == "renju")
        # _exact_by_color[c]: whether colour c needs exactly k; index 0 unused.
        exact = tuple(self.rule == "standard" or (self.rule == "renju" and c == BLACK) for c in (EMPTY, BLACK, WHITE))
        object.__setattr__(self, "_exact_by_color", exact)
        # _win_codes[c]: what lines.wins_at needs to know of colour c's win, packed in one int.
        codes = tuple(c << 17 | win_code(int(self.size), int(self.win_length), exact[c]) for c in (EMPTY, BLACK, WHITE))
        object.__setattr__(self, "_win_codes", codes)

    def rules_array(self) -> np.ndarray:
        """The rules packed for the kernels: ``[n, k, exact_black, exact_white, renju]`` (indices ``R_*``)."""
        rules = [self.size, self.win_length, self.exact(BLACK), self.exact(WHITE), self.is_renju]
        return np.array(rules, dtype=np.int64)

    def exact(self, color: int) -> bool:
        """Whether ``color`` needs exactly ``k`` (an overline does not win)."""
        return self._exact_by_color[color]

    def player_name(self, color: int) -> str:
        """A colour as players call it: black and white, or X and O (``marks="crosses"``)."""
        return MARKS[self.marks][0 if color == BLACK else 1]

    color_name = player_name  # the family's own word for it

    def new_state(self) -> MNKState:
        """The empty board, black (the first player) to move."""
        return MNKState(self)

    def kernels(self) -> str:
        """The batched kernels (the protocol's optional hook), named as ``"module:attribute"``: the family's
        arrays stepped in numba (:class:`~boardgame_envs.games.mnk_batch.MNKBatch`), which
        ``boardgame_envs.vector.make("gomoku", ...)`` drives. A name, not an import: that module builds on
        this one. A subclass inherits it; one whose rules the family's kernels do not play returns None."""
        return "boardgame_envs.games.mnk_batch:MNKBatch"

    def describe(self) -> str:
        """The game in words: ``"15x15, 5 in a row, renju"``."""
        return f"{self.size}x{self.size}, {self.win_length} in a row, {self.rule}"

    def action_name(self, action: int) -> str:
        """``action`` in renju notation (``"h8"``)."""
        return point_name(int(action), self.size)

    def parse_action(self, text: str) -> int:
        """``"h8"`` (renju notation) or ``"row,col"`` as an action."""
        return parse_point(text, self.size)

    def symmetries(self) -> Sequence[np.ndarray]:
        """The 8 symmetries of the square as action permutations (those of :mod:`boardgame_envs.games.symmetry`)."""
        n = self.size
        cells = np.arange(n * n).reshape(n, n)
        perms = []
        for s in range(8):
            image = np.rot90(cells, s % 4)
            if s >= 4:
                image = np.fliplr(image)
            perm = np.empty(n * n, dtype=np.int64)
            perm[image.reshape(-1)] = np.arange(n * n)  # the cell shown at position p came from image[p]
            perms.append(perm)
        return perms


class MNKState(EnvNamesExplained):
    """A position of an :class:`MNKGame`; mutate only through :meth:`play`."""

    __slots__ = (
        "game", "board", "to_move", "num_moves", "last_move", "winner", "terminal",
        "_forbidden", "_mask_info", "_num_forbidden",
    )  # fmt: skip

    def __init__(self, game: MNKGame) -> None:
        self.game = game
        self.board = np.zeros(game.num_actions, dtype=np.int8)
        self.to_move = BLACK
        self.num_moves = 0
        self.last_move = NO_MOVE
        self.winner = EMPTY  # BLACK or WHITE once won; EMPTY while playing or after a draw
        self.terminal = False
        # Renju: black's forbidden points, built on first use, then kept up to
        # date move by move (renju_mask.update); _mask_info is its bookkeeping.
        self._forbidden: np.ndarray | None = None
        self._mask_info: np.ndarray | None = None
        self._num_forbidden = 0

    @classmethod
    def from_position(cls, game: MNKGame, board: np.ndarray, to_move: int, last_move: int = NO_MOVE) -> MNKState:
        """A non-terminal position given by its stones, for search code that tracks bare boards.

        The caller vouches that the position is reachable and not over; the
        board is copied.
        """
        state = cls(game)
        state.board[:] = board
        state.to_move = to_move
        state.num_moves = int(np.count_nonzero(state.board))
        state.last_move = last_move
        return state

    def clone(self) -> MNKState:
        other = MNKState.__new__(MNKState)
        other.game = self.game
        other.board = self.board.copy()
        other.to_move = self.to_move
        other.num_moves = self.num_moves
        other.last_move = self.last_move
        other.winner = self.winner
        other.terminal = self.terminal
        other._num_forbidden = self._num_forbidden
        if self._mask_info is None:
            other._forbidden = self._forbidden  # None, or the all-False mask of another rule
            other._mask_info = None
        else:
            other._forbidden = self._forbidden.copy()
            other._mask_info = self._mask_info.copy()
        return other

    # ------------------------------------------------------------------ rules
    def forbidden(self) -> np.ndarray:
        """Bool ``(n*n,)``: empty points black may not play (all False unless renju).

        The array is the state's own and changes with the next move: read it,
        copy it if it must last, never write to it.
        """
        if self._forbidden is None:
            self._forbidden = np.zeros(self.game.num_actions, dtype=np.bool_)
            if self.game.is_renju:
                self._mask_info = renju_mask.new_info(self.game.size)
                self._num_forbidden = renju_mask.rebuild(self.board, self.game.size, self._forbidden, self._mask_info)
        return self._forbidden

    def forbidden_count(self) -> int:
        """How many points :meth:`forbidden` marks (0 unless renju)."""
        if self._forbidden is None:
            self.forbidden()
        return self._num_forbidden

    def legal_mask(self) -> np.ndarray:
        """Bool ``(n*n,)``: the actions the player to move may take (none once terminal)."""
        if self.terminal:
            return np.zeros(self.game.num_actions, dtype=np.bool_)
        mask = self.board == EMPTY
        if self.to_move == BLACK and self.game.is_renju:
            mask &= ~self.forbidden()
        return mask

    def legal_actions(self) -> np.ndarray:
        return np.flatnonzero(self.legal_mask())

    def illegal_reason(self, action: object) -> str | None:
        """Why ``action`` is illegal here, or None if it is legal."""
        n = self.game.size
        if type(action) is int and 0 <= action < n * n and self.board[action] == EMPTY and not self.terminal:
            # The common case, decided without building any message.
            if self.to_move != BLACK or not self.game.is_renju or not self.forbidden()[action]:
                return None
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            return f"action {action!r} is not an integer in 0..{n * n - 1}"
        if not 0 <= action < n * n:
            return f"action {action} is out of range 0..{n * n - 1} on a {n}x{n} board"
        name = point_name(int(action), n)
        if self.terminal:
            return f"{name} cannot be played: the game is over"
        if self.board[action] != EMPTY:
            return f"{name} is occupied (by {self.game.player_name(int(self.board[action]))})"
        if self.to_move == BLACK and self.game.is_renju and self.forbidden()[action]:
            return f"{name} is forbidden for black: {self.forbidden_kind(int(action))}"
        return None

    def forbidden_kind(self, action: int) -> str | None:
        """``"overline"``, ``"double-four"``, ``"double-three"`` or None for black at ``action``."""
        if not self.game.is_renju or self.board[action] != EMPTY:
            return None
        return renju.KIND_NAMES.get(renju.forbidden_kind_flat(self.board, self.game.size, action))

    def play(self, action: int) -> None:
        """Place the mover's stone at ``action``; raise :class:`IllegalMoveError` if illegal."""
        reason = self.illegal_reason(action)
        if reason is not None:
            raise IllegalMoveError(reason)
        self._place(int(action))

    def _place(self, action: int) -> None:
        """:meth:`play` without validation, for callers that already know it is legal."""
        game = self.game
        color = self.to_move
        board = self.board
        board[action] = color
        self.num_moves = moves = self.num_moves + 1
        self.last_move = action
        self.to_move = BLACK + WHITE - color
        info = self._mask_info
        if info is not None:
            self._num_forbidden = renju_mask.update(board, game.size, action, self._forbidden, info)
        # Fewer than k stones on the board cannot hold a line of k: skip the check.
        if moves >= game.win_length and wins_at(board, action, game._win_codes[color]):
            self.winner = color
            self.terminal = True
        elif moves == game.num_actions:
            self.terminal = True
        # Under renju every empty point can be forbidden for black in theory;
        # black with no legal move ends the game as a draw.
        elif color == WHITE and game.is_renju:
            if self.forbidden_count() == game.num_actions - moves:
                self.terminal = True

    def planes(self, viewer: int) -> np.ndarray:
        """The observation planes ``(n, n, num_planes)`` int8 as ``viewer`` sees them (the env's layout)."""
        game = self.game
        n = game.size
        out = np.zeros((n, n, game.num_planes), dtype=np.int8)
        forbidden = self.forbidden()  # all False unless renju
        fill_observation(self.board, n, viewer, self.last_move, self.to_move == BLACK, forbidden, False, False,
                         out, np.zeros(game.num_actions, dtype=np.int8))  # fmt: skip
        return out

    def returns(self) -> tuple[float, float]:
        """Final rewards ``(black, white)``: +1 win, -1 loss, 0 draw or unfinished."""
        return returns_of(self.winner)

    def __repr__(self) -> str:
        g = self.game
        status = "over" if self.terminal else ("black" if self.to_move == BLACK else "white") + " to move"
        return f"<MNKState {g.size}x{g.size} k={g.win_length} {g.rule}, {self.num_moves} moves, {status}>"


# Old names (``GameState``, 0.1.0) answer with a DeprecationWarning naming the new one: _compat.RENAMED.
__getattr__ = renamed_attributes(__name__)
