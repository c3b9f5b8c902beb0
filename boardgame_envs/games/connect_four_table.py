"""The connect-four solver's transposition table: bounds on the values of positions already searched.

One entry per slot, at ``key % size`` (``size`` a prime, so the keys' regular bit
patterns spread over the slots): the whole 49-bit key (:mod:`connect_four_bitboard`'s
``current + mask``, unique per position) and a lower and an upper bound on the value
of that position for its player to move. A new key takes the slot over; the same key
tightens its bounds. Invariant: an entry's bounds hold for its key, whatever was
searched since, because a search that stops on its budget stores nothing on its way out
(:mod:`connect_four_search`), so a hit can only ever narrow a window soundly.
"""

from __future__ import annotations

import numpy as np

from boardgame_envs.games.kernel_cache import cached_kernel

NO_LOWER, NO_UPPER = -127, 127  # the bounds of a slot that knows nothing (every value lies in -21..21)
DEFAULT_SLOTS = 1 << 23  # about 8.4M slots, 10 bytes each: 84 MB


def prime_at_most(n: int) -> int:
    """The largest prime ``<= n`` (n >= 2), by trial division: a table is made once."""
    for p in range(n, 1, -1):
        if p < 4 or (p % 2 and all(p % d for d in range(3, int(p**0.5) + 1, 2))):
            return p
    raise ValueError(f"no prime at most {n}")


class TranspositionTable:
    """The arrays of a table of ``prime_at_most(slots)`` entries; :func:`lookup` and :func:`store` work on them."""

    def __init__(self, slots: int = DEFAULT_SLOTS) -> None:
        if slots < 2:
            raise ValueError(f"a transposition table needs at least 2 slots, not {slots}")
        size = prime_at_most(int(slots))
        self.keys = np.zeros(size, dtype=np.uint64)
        self.lower = np.full(size, NO_LOWER, dtype=np.int8)
        self.upper = np.full(size, NO_UPPER, dtype=np.int8)

    @property
    def size(self) -> int:
        return len(self.keys)

    def clear(self) -> None:
        self.keys[:] = 0
        self.lower[:] = NO_LOWER
        self.upper[:] = NO_UPPER

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.keys, self.lower, self.upper


@cached_kernel(inline="always")
def lookup(keys, lower, upper, key):
    """``(lower, upper)`` bounds known for ``key``, or ``(NO_LOWER, NO_UPPER)``."""
    i = key % np.uint64(keys.shape[0])
    if keys[i] == key and (lower[i] != NO_LOWER or upper[i] != NO_UPPER):
        return np.int64(lower[i]), np.int64(upper[i])
    return np.int64(NO_LOWER), np.int64(NO_UPPER)


@cached_kernel(inline="always")
def store(keys, lower, upper, key, low, high):
    """Record ``low <= value <= high`` for ``key`` (pass NO_LOWER / NO_UPPER for a side not known)."""
    i = key % np.uint64(keys.shape[0])
    if keys[i] != key:
        keys[i] = key
        lower[i] = NO_LOWER
        upper[i] = NO_UPPER
    if low > lower[i]:
        lower[i] = low
    if high < upper[i]:
        upper[i] = high
