"""A connect-four position as two bitboards, for the solver: what can be played, what wins, what loses.

The layout is the batched engine's (:mod:`boardgame_envs.games.connect_four_kernels`):
column ``c`` owns bits ``7c .. 7c + 6``, bit ``7c + h`` is the cell ``h`` above the
floor, and the seventh bit of each column stays empty so that no shift carries a
line from one column into the next. A position is ``(current, mask)``: ``mask``
holds every piece, ``current`` the pieces of the player to move. Playing a move
bit ``m`` gives ``(current ^ mask, mask | m)``: the opponent becomes the player to
move. ``current + mask`` is a unique key of the position (in each column the sum
marks the first empty cell with a carry, and the guard bit takes the carry of a
full column), so the table stores it whole and never confuses two positions.

Invariant: the kernels here only read a position; each takes and returns uint64
words, and every shift amount is a uint64 so numba never mixes in signed words.
"""

from __future__ import annotations

import numpy as np

from boardgame_envs.games.connect_four import COLUMNS, ROWS, ConnectFourState
from boardgame_envs.games.connect_four_kernels import COLUMN_BITS, four_in_a_row
from boardgame_envs.games.kernel_cache import cached_kernel

CELLS = ROWS * COLUMNS
BOTTOM = np.uint64(sum(1 << (COLUMN_BITS * c) for c in range(COLUMNS)))  # the floor cell of every column
BOARD = np.uint64(int(BOTTOM) * ((1 << ROWS) - 1))  # every playable cell
# Columns in the order the search tries them when nothing else tells them apart: centre first.
CENTRE_FIRST = np.array(sorted(range(COLUMNS), key=lambda c: (abs(2 * c - COLUMNS + 1), c)), dtype=np.int64)

_ONE = np.uint64(1)
_S1, _S2, _S3 = np.uint64(1), np.uint64(2), np.uint64(3)


@cached_kernel(inline="always")
def column_cells(column):
    """Every playable cell of ``column``."""
    return np.uint64((1 << ROWS) - 1) << np.uint64(COLUMN_BITS * column)


@cached_kernel(inline="always")
def possible(mask):
    """The cell each non-full column would take next (adding a column's floor carries to its first empty cell)."""
    return (mask + BOTTOM) & BOARD


@cached_kernel(inline="always")
def popcount(x):
    """The number of set bits of a uint64 word."""
    x = x - ((x >> _S1) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> _S2) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x * np.uint64(0x0101010101010101)) >> np.uint64(56)


@cached_kernel(inline="always")
def winning_cells(pieces, mask):
    """The empty cells (reachable or not) where one more of ``pieces`` would complete four in a row.

    For each direction (shift 1 up a column, 7 along a row, 6 and 8 the
    diagonals) a cell wins when three pieces lie on one side of it, or two on
    one side and one on the other.
    """
    found = (pieces << _S1) & (pieces << _S2) & (pieces << _S3)  # three below (a column only grows upwards)
    for s in (COLUMN_BITS, COLUMN_BITS - 1, COLUMN_BITS + 1):
        s1 = np.uint64(s)
        s2 = np.uint64(2 * s)
        s3 = np.uint64(3 * s)
        pair = (pieces << s1) & (pieces << s2)  # two before the cell
        found |= pair & (pieces << s3)
        found |= pair & (pieces >> s1)
        pair = (pieces >> s1) & (pieces >> s2)  # two after it
        found |= pair & (pieces << s1)
        found |= pair & (pieces >> s3)
    return found & (BOARD ^ mask)


@cached_kernel(inline="always")
def can_win_now(current, mask):
    """Whether the player to move has a move that completes four at once."""
    return (winning_cells(current, mask) & possible(mask)) != np.uint64(0)


@cached_kernel(inline="always")
def safe_moves(current, mask):
    """The moves that do not lose at once, as cells (zero: every move loses; call only when the mover cannot win now).

    A move loses at once when it leaves the opponent a winning cell to play:
    if the opponent already has one playable, the mover must take it (two: lost),
    and no move may go just below a cell where the opponent would win.
    """
    reachable = possible(mask)
    threats = winning_cells(current ^ mask, mask)
    forced = reachable & threats
    if forced != np.uint64(0):
        if forced & (forced - _ONE):
            return np.uint64(0)
        reachable = forced
    return reachable & ~(threats >> _S1)


@cached_kernel(inline="always")
def move_threats(current, mask, move):
    """How many cells the mover would threaten to win at after playing ``move``: the search's ordering key."""
    return popcount(winning_cells(current | move, mask | move))


def position_of_state(state: ConnectFourState) -> tuple[int, int, int]:
    """``(current, mask, moves)`` of a live :class:`ConnectFourState` (as Python ints, for the kernels' uint64)."""
    mine = theirs = 0
    board = state.board.reshape(ROWS, COLUMNS)
    for c in range(COLUMNS):
        for h in range(ROWS):
            piece = int(board[ROWS - 1 - h, c])
            if piece:
                bit = 1 << (COLUMN_BITS * c + h)
                if piece == state.to_move:
                    mine |= bit
                else:
                    theirs |= bit
    return mine, mine | theirs, int(state.num_moves)


def has_four(pieces: int) -> bool:
    """Whether ``pieces`` (a player's bitboard) hold four in a row: the batched engine's test."""
    return bool(four_in_a_row(np.uint64(pieces)))

