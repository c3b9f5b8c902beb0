"""The m,n,k family's numba kernels of the batched engine: every loop over its games runs here.

They step :class:`~boardgame_envs.games.mnk_batch.MNKBatch` for the engine
(:mod:`boardgame_envs.vector`) and live with the rules they compile in, below it,
as connect four's do (:mod:`~boardgame_envs.games.connect_four_kernels`).
A batch is a few arrays with one row per game:
``boards`` ``(B, n*n)`` int8 (0 empty, 1 black, 2 white), ``to_move`` ``(B,)`` int8 colours,
``num_moves`` and ``last_move`` ``(B,)``, ``forbidden`` ``(B, n*n)`` black's forbidden points
(renju; all False otherwise) with ``renju_info`` their bookkeeping (a ``renju_mask`` info
array per game; ``renju_empty`` that of the empty board), ``legal`` ``(B, n*n)`` the mover's
legal points, ``num_legal`` ``(B,)`` their count, ``over`` ``(B,)`` games finished and not
yet reset. The rules are the kernels of :mod:`boardgame_envs.games`: wins by
:func:`~boardgame_envs.games.lines.makes_win`, forbidden points by
:func:`~boardgame_envs.games.renju_mask.update` (the incremental mask, as ``MNKState``
uses it); the bookkeeping of a move around them (:func:`_play`: stone counts, the
draw, the next colour) is the batched twin of ``MNKState._place``, held to it
move for move by ``tests/vector/test_engine_vs_aec.py``. Invariant: after every kernel, each row describes a
position reachable by legal play, and ``legal``/``num_legal`` agree with it.

Each kernel that loops over games comes twice, ``*_serial`` and ``*_parallel``
(``numba.prange`` over games): the per-game work is one shared function, and two
dispatchers of one Python function would share one on-disk cache entry.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from boardgame_envs.games import renju_mask
from boardgame_envs.games.batched import check_actions
from boardgame_envs.games.kernel_cache import cached_kernel
from boardgame_envs.games.lines import BLACK, EMPTY, makes_win, opponent
from boardgame_envs.games.mnk import (
    PLANE_BLACK_TO_MOVE,
    PLANE_FORBIDDEN,
    PLANE_LAST_MOVE,
    PLANE_OPPONENT,
    PLANE_OWN,
    R_EXACT_BLACK,
    R_EXACT_WHITE,
    R_K,
    R_N,
    R_RENJU,
    RULES_SIZE,
)

# Layout of the int64 ``cfg`` array every stepping kernel takes (one argument
# instead of eight: numba's dispatch costs per argument): the game's rules array
# (MNKGame.rules_array, the R_* layout), then the engine's own settings.
CFG_N, CFG_K, CFG_EXACT_BLACK, CFG_EXACT_WHITE, CFG_RENJU = R_N, R_K, R_EXACT_BLACK, R_EXACT_WHITE, R_RENJU
CFG_PLANES, CFG_AUTORESET, CFG_OBSERVE = range(RULES_SIZE, RULES_SIZE + 3)
CFG_SIZE = RULES_SIZE + 3

# step_parallel shares the games out in this many blocks (or one per game, if fewer).
PARALLEL_BLOCKS = 64

# The planes are the family's (games.mnk.PLANE_*), as the AEC env's (tests compare them cell by cell).


# The planes of one game, one writer per plane count, each small enough for LLVM
# to inline into a loop over games (a call per game that passes arrays costs
# reference counting, more than tic-tac-toe's planes themselves). They write
# row ``b`` of ``out`` (``(B, n*n*C)``, HWC flattened), every byte of it, as
# colour ``viewer`` sees the position; rows are indexed, never sliced, for the same reason.
@cached_kernel()
def _planes2(boards, b, nn, viewer, out):
    opp = opponent(viewer)
    for i in range(nn):
        v = boards[b, i]
        out[b, 2 * i + PLANE_OWN] = v == viewer
        out[b, 2 * i + PLANE_OPPONENT] = v == opp


@cached_kernel()
def _planes4(boards, b, nn, viewer, to_move, last, words, out):
    # A point's four planes are one 32-bit store (``words`` is ``out`` as int32) of a
    # word chosen by the point's value; little-endian: plane 0 in the low byte.
    opp = opponent(viewer)
    base = np.int32(1 << 24) if to_move == BLACK else np.int32(0)  # plane 3, black to move
    own_word = base | np.int32(1 << PLANE_OWN * 8)
    opp_word = base | np.int32(1 << PLANE_OPPONENT * 8)
    for i in range(nn):
        v = boards[b, i]
        words[b, i] = own_word if v == viewer else opp_word if v == opp else base
    if last >= 0:
        out[b, 4 * last + PLANE_LAST_MOVE] = 1


@cached_kernel()
def _planes5(boards, b, nn, viewer, to_move, last, forbidden, out):
    opp = opponent(viewer)
    btm = to_move == BLACK
    for i in range(nn):
        v = boards[b, i]
        j = 5 * i
        out[b, j + PLANE_OWN] = v == viewer
        out[b, j + PLANE_OPPONENT] = v == opp
        out[b, j + PLANE_LAST_MOVE] = 0
        out[b, j + PLANE_BLACK_TO_MOVE] = btm
        out[b, j + PLANE_FORBIDDEN] = forbidden[b, i]
    if last >= 0:
        out[b, 5 * last + PLANE_LAST_MOVE] = 1


@cached_kernel()
def write_planes(boards, b, viewer, to_move, last_move, forbidden, out):
    """Game ``b``'s planes as colour ``viewer`` sees them, into row ``b`` of ``out``.

    The same planes as the AEC env's ``observe``: own stones, the opponent's, the
    last move, all ones when black is to move, black's forbidden points; the plane
    count (2, 4 or 5) is read from the width of ``out``.
    """
    nn = boards.shape[1]
    channels = out.shape[1] // nn
    if channels == 2:
        _planes2(boards, b, nn, viewer, out)
    elif channels == 4:
        _planes4(boards, b, nn, viewer, to_move[b], last_move[b], out.view(np.int32), out)
    else:
        _planes5(boards, b, nn, viewer, to_move[b], last_move[b], forbidden, out)


@cached_kernel()
def write_rows(lo, hi, boards, viewers, to_move, last_move, forbidden, out):
    """:func:`write_planes` for games ``lo..hi-1``, each seen by ``viewers[b]``; the plane count is decided once."""
    nn = boards.shape[1]
    channels = out.shape[1] // nn
    if channels == 2:
        for b in range(lo, hi):
            _planes2(boards, b, nn, viewers[b], out)
    elif channels == 4:
        # A point's four planes as one int32 word (a row of 4 * n*n bytes is n*n words). The
        # view is taken here, not handed in: numba's dispatch costs about 0.1 µs an argument.
        words = out.view(np.int32)
        for b in range(lo, hi):
            _planes4(boards, b, nn, viewers[b], to_move[b], last_move[b], words, out)
    else:
        for b in range(lo, hi):
            _planes5(boards, b, nn, viewers[b], to_move[b], last_move[b], forbidden, out)


@cached_kernel()
def _new_game(b, boards, to_move, num_moves, last_move, forbidden, renju_info, renju_empty, legal, num_legal,
              over):  # fmt: skip
    nn = boards.shape[1]
    for i in range(nn):
        boards[b, i] = EMPTY
        forbidden[b, i] = False  # the empty board has no forbidden point
        legal[b, i] = True
    if renju_info.shape[1] > 1:
        renju_info[b, :] = renju_empty  # the incremental mask's bookkeeping of the empty board
    to_move[b] = BLACK
    num_moves[b] = 0
    last_move[b] = -1
    num_legal[b] = nn
    over[b] = False


@cached_kernel()
def _play(b, a, cfg, boards, to_move, num_moves, last_move, forbidden, renju_info, legal, num_legal):
    """Game ``b``'s mover plays legal ``a``; return the winner's colour, 0 if the game goes on, -1 if drawn."""
    n = cfg[CFG_N]
    nn = n * n
    board = boards[b]
    color = to_move[b]
    board[a] = color
    moves = num_moves[b] + 1
    num_moves[b] = moves
    last_move[b] = a
    nxt = opponent(color)
    to_move[b] = nxt
    exact = cfg[CFG_EXACT_BLACK] if color == BLACK else cfg[CFG_EXACT_WHITE]
    result = 0
    # Fewer than k stones cannot hold a line of k (as MNKState._place).
    if moves >= cfg[CFG_K] and makes_win(board, n, a, color, cfg[CFG_K], exact != 0):
        result = color
    elif moves == nn:
        result = -1
    if cfg[CFG_RENJU]:
        # The plane of forbidden points is shown to both colours, so it follows every move:
        # the rules' own incremental update, as MNKState does.
        count = renju_mask.update(board, n, a, forbidden[b], renju_info[b])
        left = nn - moves
        if nxt == BLACK:
            left -= count
        # Black with no legal point left ends the game as a draw.
        if result == 0 and nxt == BLACK and left == 0:
            result = -1
        num_legal[b] = left
        mask_forbidden = nxt == BLACK
        for i in range(nn):
            legal[b, i] = board[i] == EMPTY and not (mask_forbidden and forbidden[b, i])
    else:
        legal[b, a] = False
        num_legal[b] = nn - moves
    return result


@cached_kernel()
def _step_games(lo, hi, cfg, boards, to_move, num_moves, last_move, forbidden, renju_info, renju_empty, legal,
                num_legal, over, actions, where, illegal, obs, final_obs, rewards, terminated):  # fmt: skip
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
                result = _play(b, actions[b], cfg, boards, to_move, num_moves, last_move, forbidden, renju_info, legal,
                               num_legal)  # fmt: skip
                if result > 0:
                    rewards[b, result - 1] = 1.0
                    rewards[b, opponent(result) - 1] = -1.0
            if result != 0:
                terminated[b] = True
                if cfg[CFG_AUTORESET]:
                    # Seen by the player who did not act on the final step, as the AEC env's last() shows it.
                    write_planes(boards, b, opponent(color), to_move, last_move, forbidden, final_obs)
                    _new_game(b, boards, to_move, num_moves, last_move, forbidden, renju_info, renju_empty, legal,
                              num_legal, over)  # fmt: skip
                else:
                    over[b] = True
                    num_legal[b] = 0
                    legal[b, :] = False
    if cfg[CFG_OBSERVE]:
        write_rows(lo, hi, boards, to_move, to_move, last_move, forbidden, obs)


@cached_kernel()
def step_serial(cfg, boards, to_move, num_moves, last_move, forbidden, renju_info, renju_empty, legal, num_legal,
                over, actions, where, raise_illegal, illegal, obs, final_obs, rewards, terminated):  # fmt: skip
    """Step the games flagged in ``where``; return the number of illegal actions.

    With ``raise_illegal`` and any illegal action, nothing is changed (the caller
    raises); otherwise an illegal action loses for its mover.
    """
    bad = check_actions(legal, over, actions, where, illegal)
    if bad and raise_illegal:
        return bad
    _step_games(0, boards.shape[0], cfg, boards, to_move, num_moves, last_move, forbidden, renju_info, renju_empty,
                legal, num_legal, over, actions, where, illegal, obs, final_obs, rewards, terminated)  # fmt: skip
    return bad


@cached_kernel(parallel=True)
def step_parallel(cfg, boards, to_move, num_moves, last_move, forbidden, renju_info, renju_empty, legal, num_legal,
                  over, actions, where, raise_illegal, illegal, obs, final_obs, rewards, terminated):  # fmt: skip
    """:func:`step_serial` with blocks of games shared among numba's threads."""
    bad = check_actions(legal, over, actions, where, illegal)
    if bad and raise_illegal:
        return bad
    total = boards.shape[0]
    blocks = min(total, PARALLEL_BLOCKS)
    for i in prange(blocks):
        _step_games(i * total // blocks, (i + 1) * total // blocks, cfg, boards, to_move, num_moves, last_move,
                    forbidden, renju_info, renju_empty, legal, num_legal, over, actions, where, illegal, obs,
                    final_obs, rewards, terminated)  # fmt: skip
    return bad


@cached_kernel()
def reset_games(boards, to_move, num_moves, last_move, forbidden, renju_info, renju_empty, legal, num_legal, over,
                where):  # fmt: skip
    """Put every game flagged in ``where`` back to the empty board, black to move."""
    for b in range(boards.shape[0]):
        if where[b]:
            _new_game(b, boards, to_move, num_moves, last_move, forbidden, renju_info, renju_empty, legal, num_legal,
                      over)  # fmt: skip


@cached_kernel()
def observe(boards, viewers, to_move, last_move, forbidden, out):
    """Planes ``out[b]`` of every game as ``viewers[b]`` (a colour) sees it."""
    write_rows(0, boards.shape[0], boards, viewers, to_move, last_move, forbidden, out)
