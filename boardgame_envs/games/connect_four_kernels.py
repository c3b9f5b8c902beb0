"""Connect four's batched kernels: many games stepped per numba call, on bitboards.

What :meth:`ConnectFourGame.kernels() <boardgame_envs.games.connect_four.ConnectFourGame.kernels>`
hands the batched engine (:mod:`boardgame_envs.vector`): :class:`ConnectFourBatch`,
``B`` games held in arrays with one row per game, and the kernels that step them.

A game is two bitboards (``bits[b, p]``, player ``p + 1``'s pieces) in the
classic layout: column ``c`` owns bits ``7c .. 7c + 6``, bit ``7c + h`` is the
cell ``h`` above the floor, and the seventh bit of each column stays empty so
that no shift carries a line from one column into the next. Four in a row is
then four shifts and masks (:func:`four_in_a_row`). Beside them the batch keeps
the flat board of :class:`~boardgame_envs.games.connect_four.ConnectFourState`
(``boards`` ``(B, 42)`` int8, row 0 at the top), from which the observation
planes are written, and the column heights. Invariant: after every kernel,
each row describes a position reachable by legal play, and ``legal`` /
``num_legal`` agree with it; ``tests/vector/test_connect_four_vs_aec.py`` holds
the batch to the AEC env move for move.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from boardgame_envs.games.batched import check_actions
from boardgame_envs.games.connect_four import COLUMNS, ROWS, ConnectFourGame, ConnectFourState
from boardgame_envs.games.kernel_cache import cached_kernel

CELLS = ROWS * COLUMNS
COLUMN_BITS = ROWS + 1  # a column's bits, the empty guard bit on top included
PARALLEL_BLOCKS = 64  # step_parallel shares the games out in this many blocks (or one per game, if fewer)

# The planes of one cell as one little-endian int16 word: plane 0 (the viewer's pieces) in the low byte.
OWN_WORD, OTHER_WORD = 1, 256


@cached_kernel(inline="always")
def four_in_a_row(m):
    """Whether bitboard ``m`` holds four in a row: shift 1 is a column, 7 a row, 6 and 8 the diagonals."""
    for s in (1, COLUMN_BITS, COLUMN_BITS - 1, COLUMN_BITS + 1):
        pairs = m & (m >> np.uint64(s))
        if pairs & (pairs >> np.uint64(2 * s)):
            return True
    return False


@cached_kernel(inline="always")
def write_planes(boards, b, viewer, words):
    """Game ``b``'s planes as player ``viewer`` sees them into row ``b`` of ``words`` (the planes as int16).

    ``ConnectFourState.planes(viewer)`` byte for byte: plane 0 the viewer's
    pieces, plane 1 the other player's, cells rows first from the top.
    """
    one = np.int16(OWN_WORD if viewer == 1 else OTHER_WORD)
    two = np.int16(OTHER_WORD if viewer == 1 else OWN_WORD)
    for i in range(CELLS):
        v = boards[b, i]
        words[b, i] = (v == 1) * one + (v == 2) * two


@cached_kernel(inline="always")
def new_game(b, boards, heights, bits, to_move, num_moves, last_move, legal, num_legal, over):
    """Game ``b`` back to the empty board, the first player to move."""
    for i in range(CELLS):
        boards[b, i] = 0
    for c in range(COLUMNS):
        heights[b, c] = 0
        legal[b, c] = True
    bits[b, 0] = 0
    bits[b, 1] = 0
    to_move[b] = 1
    num_moves[b] = 0
    last_move[b] = -1
    num_legal[b] = COLUMNS
    over[b] = False


@cached_kernel(inline="always")
def play(b, column, boards, heights, bits, to_move, num_moves, last_move, legal, num_legal):
    """Game ``b``'s mover drops a piece into legal ``column``; return the winner, 0 if the game goes on, -1 drawn."""
    color = to_move[b]
    h = heights[b, column]
    cell = (ROWS - 1 - h) * COLUMNS + column
    boards[b, cell] = color
    heights[b, column] = h + 1
    if h + 1 == ROWS:
        legal[b, column] = False
        num_legal[b] -= 1
    mine = bits[b, color - 1] | (np.uint64(1) << np.uint64(column * COLUMN_BITS + h))
    bits[b, color - 1] = mine
    moves = num_moves[b] + 1
    num_moves[b] = moves
    last_move[b] = cell
    to_move[b] = 3 - color
    if four_in_a_row(mine):
        return color
    if moves == CELLS:
        return -1
    return 0


@cached_kernel()
def _step_games(lo, hi, boards, heights, bits, to_move, num_moves, last_move, legal, num_legal, over,
                actions, where, illegal, autoreset, observe, obs, final_obs, rewards, terminated):  # fmt: skip
    """Games ``lo..hi-1``' share of a step: their moves, results, auto-resets and planes."""
    for b in range(lo, hi):
        rewards[b, 0] = 0.0
        rewards[b, 1] = 0.0
        terminated[b] = over[b]
        if where[b] and not over[b]:
            color = to_move[b]
            if illegal[b]:
                # As PettingZoo's wrappers: the offender gets -1, the other player 0; the board stays.
                rewards[b, color - 1] = -1.0
                result = -1
            else:
                result = play(b, actions[b], boards, heights, bits, to_move, num_moves, last_move, legal, num_legal)
                if result > 0:
                    rewards[b, result - 1] = 1.0
                    rewards[b, 2 - result] = -1.0
            if result != 0:
                terminated[b] = True
                if autoreset:
                    # Seen by the player who did not act on the final step, as the AEC env's last() shows it.
                    write_planes(boards, b, 3 - color, final_obs)
                    new_game(b, boards, heights, bits, to_move, num_moves, last_move, legal, num_legal, over)
                else:
                    over[b] = True
                    num_legal[b] = 0
                    for c in range(COLUMNS):
                        legal[b, c] = False
        if observe:
            write_planes(boards, b, to_move[b], obs)


@cached_kernel()
def step_serial(boards, heights, bits, to_move, num_moves, last_move, legal, num_legal, over, actions, where,
                raise_illegal, illegal, autoreset, observe, obs, final_obs, rewards, terminated):  # fmt: skip
    """Step the games flagged in ``where``; return the number of illegal actions.

    With ``raise_illegal`` and any illegal action, nothing is changed (the
    caller raises); otherwise an illegal action loses for its mover. ``obs``
    and ``final_obs`` are the planes as int16 words ``(B, 42)`` (written when
    ``observe`` / ``autoreset``).
    """
    bad = check_actions(legal, over, actions, where, illegal)
    if bad and raise_illegal:
        return bad
    _step_games(0, boards.shape[0], boards, heights, bits, to_move, num_moves, last_move, legal, num_legal, over,
                actions, where, illegal, autoreset, observe, obs, final_obs, rewards, terminated)  # fmt: skip
    return bad


@cached_kernel(parallel=True)
def step_parallel(boards, heights, bits, to_move, num_moves, last_move, legal, num_legal, over, actions,
                  where, raise_illegal, illegal, autoreset, observe, obs, final_obs, rewards, terminated):  # fmt: skip
    """:func:`step_serial` with blocks of games shared among numba's threads."""
    bad = check_actions(legal, over, actions, where, illegal)
    if bad and raise_illegal:
        return bad
    total = boards.shape[0]
    blocks = min(total, PARALLEL_BLOCKS)
    for i in prange(blocks):
        _step_games(i * total // blocks, (i + 1) * total // blocks, boards, heights, bits, to_move, num_moves,
                    last_move, legal, num_legal, over, actions, where, illegal, autoreset, observe, obs,
                    final_obs, rewards, terminated)  # fmt: skip
    return bad


@cached_kernel()
def reset_games(boards, heights, bits, to_move, num_moves, last_move, legal, num_legal, over, where):
    """Put every game flagged in ``where`` back to the empty board, the first player to move."""
    for b in range(boards.shape[0]):
        if where[b]:
            new_game(b, boards, heights, bits, to_move, num_moves, last_move, legal, num_legal, over)


@cached_kernel()
def observe(boards, viewers, words):
    """Every game's planes as player ``viewers[b]`` sees them, into ``words`` (the planes as int16 ``(B, 42)``)."""
    for b in range(boards.shape[0]):
        write_planes(boards, b, viewers[b], words)


class ConnectFourBatch:
    """``num_envs`` connect-four games as arrays, stepped by the kernels above (the batched engine's backend).

    The arrays every backend of :class:`boardgame_envs.vector.VectorGames` has:
    ``to_move`` ``(B,)`` int8 (player 1 or 2), ``num_moves``, ``legal`` ``(B, 7)``
    bool with ``num_legal``, ``over`` (finished, waiting for a reset), ``illegal``
    (the last step's illegal actions); and connect four's own: ``boards``
    ``(B, 42)`` int8 (as ``ConnectFourState.board``), ``heights`` ``(B, 7)``,
    ``bits`` ``(B, 2)`` uint64 and ``last_move`` (the flat cell, -1 before the first move).
    """

    def __init__(self, game: ConnectFourGame, num_envs: int, parallel: bool = False) -> None:
        self.game = game
        self.num_envs = b = num_envs
        self.num_actions = COLUMNS
        self.obs_shape = (ROWS, COLUMNS, 2)
        self._step = step_parallel if parallel else step_serial
        self.boards = np.zeros((b, CELLS), dtype=np.int8)
        self.heights = np.zeros((b, COLUMNS), dtype=np.int8)
        self.bits = np.zeros((b, 2), dtype=np.uint64)
        self.to_move = np.ones(b, dtype=np.int8)
        self.num_moves = np.zeros(b, dtype=np.int32)
        self.last_move = np.full(b, -1, dtype=np.int32)
        self.legal = np.ones((b, COLUMNS), dtype=np.bool_)
        self.num_legal = np.full(b, COLUMNS, dtype=np.int32)
        self.over = np.zeros(b, dtype=np.bool_)
        self.illegal = np.zeros(b, dtype=np.bool_)
        self._no_words = np.zeros((0, CELLS), dtype=np.int16)

    def reset(self, where: np.ndarray) -> None:
        reset_games(self.boards, self.heights, self.bits, self.to_move, self.num_moves, self.last_move, self.legal,
                    self.num_legal, self.over, where)  # fmt: skip

    def step(self, actions: np.ndarray, where: np.ndarray, raising: bool, autoreset: bool, obs: np.ndarray | None,
             final_obs: np.ndarray | None, rewards: np.ndarray, terminated: np.ndarray) -> int:  # fmt: skip
        """Play ``actions`` in the games flagged by ``where``; planes into ``obs`` / ``final_obs`` ``(B, 84)``
        int8 when given; return the number of illegal actions (nothing changed if ``raising`` and any)."""
        words = self._no_words if obs is None else obs.view(np.int16)
        final = self._no_words if final_obs is None else final_obs.view(np.int16)
        return self._step(self.boards, self.heights, self.bits, self.to_move, self.num_moves, self.last_move,
                          self.legal, self.num_legal, self.over, actions, where, raising, self.illegal,
                          autoreset and final_obs is not None, obs is not None, words, final, rewards,
                          terminated)  # fmt: skip

    def observe(self, viewers: np.ndarray, out: np.ndarray) -> None:
        """Planes ``(B, 84)`` int8 of every game as player ``viewers[b]`` sees it."""
        observe(self.boards, viewers, out.view(np.int16))

    def state(self, b: int) -> ConnectFourState:
        """Game ``b`` as a :class:`ConnectFourState` (a copy)."""
        return ConnectFourState.from_position(self.game, self.boards[b], int(self.to_move[b]), int(self.last_move[b]))
