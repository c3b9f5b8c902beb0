"""The solver's move order: threats first, then centre first; every move once."""

from __future__ import annotations

import numpy as np

from games.connect_four_plain import drawn
from boardgame_envs.games.connect_four_bitboard import COLUMN_BITS, position_of_state, possible
from boardgame_envs.games.connect_four_sorter import order_moves


def columns_in_order(state) -> list[int]:
    current, mask, _ = position_of_state(state)
    row = np.zeros(7, dtype=np.uint64)
    n = order_moves(np.uint64(current), np.uint64(mask), possible(np.uint64(mask)), row)
    return [(int(row[i]).bit_length() - 1) // COLUMN_BITS + 1 for i in range(n)]  # columns 1..7


def test_on_an_empty_board_the_centre_comes_first():
    state = drawn("\n".join([". . . . . . ."] * 6))
    assert columns_in_order(state) == [4, 3, 5, 2, 6, 1, 7]


def test_a_move_that_makes_two_threats_comes_before_quieter_ones():
    state = drawn(
        """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        O . X X . . O
        """
    )  # X to move: e1 (column 5) threatens b1 and f1, b1 (2) threatens e1 (a1 is O's)
    order = columns_in_order(state)
    assert order[:2] == [5, 2]
    assert sorted(order) == [1, 2, 3, 4, 5, 6, 7]
