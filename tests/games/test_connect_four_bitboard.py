"""The solver's bitboard position against the package's rules, cell by cell."""

from __future__ import annotations

import numpy as np
import pytest

from games.connect_four_plain import drawn, random_line
from boardgame_envs.games.connect_four import COLUMNS, ROWS, wins_at
from boardgame_envs.games.connect_four_bitboard import (
    COLUMN_BITS, can_win_now, has_four, popcount, position_of_state, possible, safe_moves, winning_cells,
)  # fmt: skip
from boardgame_envs.games.connect_four_solver import state_of_moves


def bit(cell: int) -> int:
    """The bit of flat cell ``cell`` (row 0 at the top)."""
    row, column = divmod(cell, COLUMNS)
    return 1 << (COLUMN_BITS * column + ROWS - 1 - row)


def positions(count: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        line = random_line(rng, int(rng.integers(0, 30)))
        if line is not None:
            out.append(state_of_moves(line))
    return out


def wins_for_mover(state, cell: int) -> bool:
    board = state.board.copy()
    board[cell] = state.to_move
    return bool(wins_at(board, cell, ROWS, COLUMNS, 4))


def test_winning_cells_are_the_empty_cells_that_complete_four():
    for state in positions(150):
        current, mask, _ = position_of_state(state)
        found = int(winning_cells(np.uint64(current), np.uint64(mask)))
        expected = sum(bit(c) for c in range(ROWS * COLUMNS) if state.board[c] == 0 and wins_for_mover(state, c))
        assert found == expected, state.board.reshape(ROWS, COLUMNS)


def test_possible_is_the_next_cell_of_each_open_column():
    for state in positions(50, seed=1):
        _, mask, _ = position_of_state(state)
        expected = sum(1 << (COLUMN_BITS * c + int(state.heights[c])) for c in range(COLUMNS) if state.heights[c] < ROWS)
        assert int(possible(np.uint64(mask))) == expected


def test_safe_moves_are_the_moves_after_which_the_opponent_cannot_win_at_once():
    checked = 0
    for state in positions(300, seed=2):
        current, mask, _ = position_of_state(state)
        if can_win_now(np.uint64(current), np.uint64(mask)):
            assert any(state.clone().play(c) is None and wins_for_mover(state, c + COLUMNS * (ROWS - 1 - int(state.heights[c])))
                       for c in state.legal_actions())  # fmt: skip
            continue
        safe = int(safe_moves(np.uint64(current), np.uint64(mask)))
        expected = 0
        for c in map(int, state.legal_actions()):
            child = state.clone()
            child.play(c)
            if not child.terminal and not any(
                wins_for_mover(child, d + COLUMNS * (ROWS - 1 - int(child.heights[d]))) for d in child.legal_actions()
            ):  # fmt: skip
                expected |= 1 << (COLUMN_BITS * c + int(state.heights[c]))
        assert safe == expected
        checked += 1
    assert checked > 200


def test_a_double_threat_leaves_no_safe_move():
    state = drawn(
        """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . O O . . . .
        . X X X . . .
        """
    )  # O to move; X wins at a1 or e1 next, and O can block only one
    current, mask, _ = position_of_state(state)
    assert int(safe_moves(np.uint64(current), np.uint64(mask))) == 0


def test_keys_are_unique_and_popcount_counts_bits():
    seen: dict[int, tuple[int, int]] = {}
    for state in positions(400, seed=3):
        current, mask, moves = position_of_state(state)
        assert int(popcount(np.uint64(mask))) == moves == bin(mask).count("1")
        key = current + mask
        assert seen.setdefault(key, (current, mask)) == (current, mask)
    assert len(seen) > 300


@pytest.mark.parametrize("pieces, four", [(0b1111, True), (0b10111, False), (1 | 1 << 7 | 1 << 14 | 1 << 21, True),
                                          (1 | 1 << 8 | 1 << 16 | 1 << 24, True), (1 << 3 | 1 << 4 | 1 << 5 | 1 << 7, False)])  # fmt: skip
def test_has_four_uses_the_engines_test(pieces, four):
    # The last case is three at the top of column a and one at the foot of b: the guard bit keeps them apart.
    assert has_four(pieces) is four
