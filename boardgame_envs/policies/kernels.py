"""Numba helpers shared by the search policies: rules on raw arrays, candidate moves.

Search code works on a flat ``int8`` board plus the game's rules packed into
one array (:meth:`~boardgame_envs.games.mnk.MNKGame.rules_array`, indexed by
the ``R_*`` names of :mod:`boardgame_envs.games.mnk`), so every kernel takes
the same arguments.
"""

from __future__ import annotations

import numpy as np

from boardgame_envs.games.kernel_cache import cached_kernel
from boardgame_envs.games.lines import (
    BLACK,
    DIRECTIONS,
    EMPTY,
    makes_win,
    opponent,
    wins_both_by_steps,
    wins_by_steps,
    wins_by_windows,
)
from boardgame_envs.games.mnk import R_EXACT_BLACK, R_EXACT_WHITE, R_K, R_N, R_RENJU, MNKState  # noqa: F401 (R_* re-exported)
from boardgame_envs.games.renju import KIND_NONE, forbidden_kind_flat


def rules_of(state: MNKState) -> np.ndarray:
    """The ``rules`` array of a game state's game."""
    return state.game.rules_array()


@cached_kernel(inline="always")
def exact_win(rules, color):
    """Whether ``color`` needs exactly ``k`` in a row (an overline does not win)."""
    return (rules[R_EXACT_BLACK] if color == BLACK else rules[R_EXACT_WHITE]) != 0


@cached_kernel(inline="always")
def wins(board, rules, idx, color):
    """Whether ``color`` playing empty ``idx`` completes a winning line (board unchanged)."""
    board[idx] = color
    result = makes_win(board, rules[R_N], idx, color, rules[R_K], exact_win(rules, color))
    board[idx] = EMPTY
    return result


@cached_kernel(inline="always")
def allowed(board, rules, idx, color):
    """Whether ``color`` may play empty ``idx``: only black under renju is ever refused."""
    if color != BLACK or rules[R_RENJU] == 0:
        return True
    return forbidden_kind_flat(board, rules[R_N], idx) == KIND_NONE


@cached_kernel(inline="always")
def place(board, bits, idx, color, on_bits):
    """Put a ``color`` stone on empty ``idx``: on ``board``, and on the bitboards ``bits`` if ``on_bits``."""
    board[idx] = color
    if on_bits:
        bits[color] |= np.int64(1) << idx


@cached_kernel(inline="always")
def wins_both_placed(board, bits, steps, offsets, masks, ends, idx, color, k, exact, exact_other, on_bits):
    """``(color wins at empty idx, its opponent wins there)``: on the bitboards if ``on_bits``, else by steps.

    ``steps, offsets`` and ``masks, ends`` are the board's
    :func:`~boardgame_envs.games.lines.line_steps` and :func:`~boardgame_envs.games.lines.line_windows`.
    """
    if on_bits:
        other = opponent(color)
        return wins_by_windows(bits[color], masks, ends, idx, exact), wins_by_windows(bits[other], masks, ends, idx,
                                                                                      exact_other)  # fmt: skip
    return wins_both_by_steps(board, steps, offsets, idx, color, k, exact, exact_other)


@cached_kernel()
def random_rollout(board, rules, color, empties, stones, bits, steps, offsets, masks, ends):
    """Uniformly random legal moves to the end; returns the winner (0 for a draw).

    Mutates ``board``, ``stones`` (stones of each colour on the board, indexed
    by colour: no line check until a colour has ``k`` stones) and ``bits`` (one
    int64 of stones per colour, kept on boards with bitboards: ``masks`` of
    width > 0); ``empties`` is scratch space of the board's size.
    ``steps, offsets`` and ``masks, ends`` are the board's
    :func:`~boardgame_envs.games.lines.line_steps` and
    :func:`~boardgame_envs.games.lines.line_windows`, built once by the caller:
    the line check after each move is most of a rollout's cost.
    """
    # One compiled loop for each way of checking lines, chosen once a rollout: a branch per move
    # between the two cost more than the bitboards saved (measured in the MCTS kernel).
    if masks.shape[1] > 0:
        return rollout_on(board, rules, color, empties, stones, bits, steps, offsets, masks, ends, True)
    return rollout_on(board, rules, color, empties, stones, bits, steps, offsets, masks, ends, False)


@cached_kernel(inline="always")
def rollout_on(board, rules, color, empties, stones, bits, steps, offsets, masks, ends, on_bits):
    """:func:`random_rollout`, on the bitboards if ``on_bits``, else by steps.

    Inlined where it is called: with ``on_bits`` a constant there, numba compiles only that way
    (a caller specialised on it, like the MCTS kernel, calls this directly).
    """
    k = rules[R_K]
    count = 0
    for a in range(board.size):
        empties[count] = a  # kept only if empty: no branch to mispredict on a random board
        count += board[a] == EMPTY
    while count > 0:
        # Draw among the empties; a point black may not play is parked past
        # ``tries`` for this turn only.
        tries = count
        chosen = -1
        while tries > 0:
            j = np.random.randint(tries)
            if allowed(board, rules, empties[j], color):
                chosen = j
                break
            tries -= 1
            empties[j], empties[tries] = empties[tries], empties[j]
        if chosen < 0:
            return 0
        a = empties[chosen]
        count -= 1
        empties[chosen] = empties[count]
        place(board, bits, a, color, on_bits)
        stones[color] += 1
        if on_bits:
            if stones[color] >= k and wins_by_windows(bits[color], masks, ends, a, exact_win(rules, color)):
                return color
        elif stones[color] >= k and wins_by_steps(board, steps, offsets, a, color, k, exact_win(rules, color)):
            return color
        color = opponent(color)
    return 0


@cached_kernel()
def candidates(board, n, radius, out):
    """Empty points within ``radius`` (Chebyshev) of a stone; the centre on an empty board.

    Writes them into ``out`` and returns how many. With ``radius >= n`` every
    empty point is a candidate (small boards search everything).
    """
    count = 0
    if radius >= n:
        for a in range(n * n):
            out[count] = a  # kept only if empty: no branch to mispredict
            count += board[a] == EMPTY
        return count
    near = np.zeros(n * n, dtype=np.bool_)
    stones = 0
    for a in range(n * n):
        if board[a] != EMPTY:
            stones += 1
            r0 = a // n
            c0 = a - r0 * n
            for r in range(max(0, r0 - radius), min(n, r0 + radius + 1)):
                for c in range(max(0, c0 - radius), min(n, c0 + radius + 1)):
                    near[r * n + c] = True
    if stones == 0:
        out[0] = (n // 2) * n + n // 2
        return 1
    for a in range(n * n):
        if near[a] and board[a] == EMPTY:
            out[count] = a
            count += 1
    return count


@cached_kernel()
def line_potential(board, n, k, idx, color):
    """How much ``color`` gains by playing ``idx``: sum over k-windows through it with no enemy stone.

    Each such window holding ``m`` of ``color``'s stones scores ``8 ** m``,
    so a move that extends a long open line outranks several short ones.
    """
    total = 0
    r0 = idx // n
    c0 = idx - r0 * n
    for d in range(4):
        dr = DIRECTIONS[d, 0]
        dc = DIRECTIONS[d, 1]
        for start in range(-k + 1, 1):
            own = 0
            ok = True
            for i in range(k):
                r = r0 + (start + i) * dr
                c = c0 + (start + i) * dc
                if not (0 <= r < n and 0 <= c < n):
                    ok = False
                    break
                v = board[r * n + c]
                if v == color:
                    own += 1
                elif v != EMPTY:
                    ok = False
                    break
            if ok:
                total += 8**own
    return total
