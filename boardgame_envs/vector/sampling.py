"""The batched engine's random legal moves: one splitmix64 stream per game, drawn in numba for any backend.

Every backend keeps ``legal`` ``(B, num_actions)`` bool and ``num_legal``
``(B,)``; :func:`sample_serial` / :func:`sample_parallel` draw a uniformly
random legal action for each game from those two arrays alone, so
``VectorGames.sample_legal_actions`` and the batched random and greedy
opponents (:mod:`boardgame_envs.vector.opponents`) draw the same way whatever
steps the game. Invariant: a game's draws depend only on its own stream
(``rng[b]``), so a seed reproduces the same moves in every backend.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from boardgame_envs.games.kernel_cache import cached_kernel

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
SKIP_BLOCK = 16  # points counted at once while looking for the drawn legal action


@cached_kernel(inline="always")
def uniform_below(rng, b, m):
    """A draw from ``0..m-1`` by game ``b``'s splitmix64 stream (bias below m / 2**32)."""
    z = rng[b] + _GOLDEN
    rng[b] = z
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    z = z ^ (z >> np.uint64(31))
    return np.int64(((z >> np.uint64(32)) * np.uint64(m)) >> np.uint64(32))


@cached_kernel(inline="always")
def sample_one(b, legal, num_legal, rng, out):
    """A uniformly random legal action for game ``b``'s mover into ``out[b]`` (-1 if it has none)."""
    m = num_legal[b]
    if m == 0:
        out[b] = -1
        return
    # The j-th legal action: whole blocks of points are skipped while j lies past
    # their legal count (a block's count is a short sum that LLVM vectorizes),
    # then the block holding it is counted down point by point, without a branch
    # on each point (legal rows of random play are irregular: such branches
    # mispredict often). A j in the row's second half is the (m - 1 - j)-th legal
    # action counted from the end (``num_legal`` is exact), so it is looked for
    # from there: half the points to count, on average. The same action as counting
    # down the whole row (a call on 256 15x15 games of random play, the development
    # machine: 14.5 µs counting from the start with the blocks, 13.0 from the nearer end).
    j = uniform_below(rng, b, m)
    row = legal[b]
    n = row.size
    if 2 * j < m:
        start = 0
        while start + SKIP_BLOCK <= n:
            count = 0
            for i in range(start, start + SKIP_BLOCK):
                count += row[i]
            if j < count:
                break
            j -= count
            start += SKIP_BLOCK
        for i in range(start, n):
            j -= row[i]
            if j < 0:
                out[b] = i
                return
    else:
        j = m - 1 - j
        end = n
        while end >= SKIP_BLOCK:
            count = 0
            for i in range(end - SKIP_BLOCK, end):
                count += row[i]
            if j < count:
                break
            j -= count
            end -= SKIP_BLOCK
        for i in range(end - 1, -1, -1):
            j -= row[i]
            if j < 0:
                out[b] = i
                return


@cached_kernel()
def sample_serial(legal, num_legal, rng, out):
    """A uniformly random legal action for each game's mover (-1 where there is none)."""
    for b in range(legal.shape[0]):
        sample_one(b, legal, num_legal, rng, out)


@cached_kernel(parallel=True)
def sample_parallel(legal, num_legal, rng, out):
    """:func:`sample_serial` with the games shared among numba's threads."""
    for b in prange(legal.shape[0]):
        sample_one(b, legal, num_legal, rng, out)
