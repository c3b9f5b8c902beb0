"""The solver's transposition table: bounds kept per key, tightened, and given up to a new key."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs.games.connect_four_table import NO_LOWER, NO_UPPER, TranspositionTable, lookup, prime_at_most, store


def test_a_stored_bound_comes_back_and_bounds_only_tighten():
    table = TranspositionTable(101)
    key = np.uint64(12345)
    assert lookup(*table.arrays(), key) == (NO_LOWER, NO_UPPER)
    store(*table.arrays(), key, 2, NO_UPPER)
    assert lookup(*table.arrays(), key) == (2, NO_UPPER)
    store(*table.arrays(), key, NO_LOWER, 5)
    store(*table.arrays(), key, 1, 9)  # looser on both sides: kept as it was
    assert lookup(*table.arrays(), key) == (2, 5)


def test_another_key_in_the_same_slot_replaces_the_entry_and_is_never_confused_with_it():
    table = TranspositionTable(101)
    size = table.size
    a, b = np.uint64(7), np.uint64(7 + size)  # the same slot
    store(*table.arrays(), a, -3, -3)
    assert lookup(*table.arrays(), b) == (NO_LOWER, NO_UPPER)
    store(*table.arrays(), b, NO_LOWER, 4)
    assert lookup(*table.arrays(), b) == (NO_LOWER, 4)
    assert lookup(*table.arrays(), a) == (NO_LOWER, NO_UPPER)
    table.clear()
    assert lookup(*table.arrays(), b) == (NO_LOWER, NO_UPPER)


def test_sizes_are_primes():
    assert [prime_at_most(n) for n in (2, 10, 100, 1 << 10)] == [2, 7, 97, 1021]
    assert TranspositionTable(1 << 10).size == 1021
    with pytest.raises(ValueError, match="at least 2 slots"):
        TranspositionTable(1)
