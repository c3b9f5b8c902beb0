"""The keep-apart test game (tests/games/keep_apart.py) against its rules: a position drawn by hand, and a plain
cell-by-cell reading of the rules along random games on every size."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs.games.protocol import FIRST, SECOND, IllegalMoveError
from games.keep_apart import SIZES, KeepApartGame


def test_the_start_and_a_position_drawn_by_hand():
    game = KeepApartGame(4)
    state = game.new_state()
    #   a b c d          X black (first), O white
    # 4 . . . .
    # 3 . O X .
    # 2 . X O .
    # 1 . . . .
    assert state.board.reshape(4, 4).tolist() == [[0, 0, 0, 0], [0, 2, 1, 0], [0, 1, 2, 0], [0, 0, 0, 0]]
    for name in "b1 d4 a2 a4 a1 d1".split():
        state.play(game.parse_action(name))
    #   a b c d
    # 4 O . . O      every empty cell (b4 c4 a3 d3 c1 d2) touches a white stone:
    # 3 . O X .      black must pass; white's open cells are b4 and d2
    # 2 X X O .
    # 1 X X . O
    assert [game.action_name(int(a)) for a in state.legal_actions()] == ["pass"] and state.to_move == FIRST
    with pytest.raises(IllegalMoveError, match="^c1 is beside a stone of white$"):
        state.play(game.parse_action("c1"))
    state.play(game.parse_action("pass"))
    assert sorted(game.action_name(int(a)) for a in state.legal_actions()) == ["b4", "d2"]
    with pytest.raises(IllegalMoveError, match="^pass only when no cell is open to you$"):
        state.play(game.parse_action("pass"))


def open_cells_by_hand(board: np.ndarray, player: int, n: int) -> set[int]:
    """The rules read cell by cell: empty, and no opponent's stone above, below, left or right."""
    rival = FIRST + SECOND - player
    out = set()
    for r in range(n):
        for c in range(n):
            near = [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))]
            if board[r * n + c] == 0 and all(board[y * n + x] != rival for y, x in near if 0 <= y < n and 0 <= x < n):
                out.add(r * n + c)
    return out


@pytest.mark.parametrize("size", SIZES)
def test_random_games_follow_the_rules_read_cell_by_cell(size):
    game = KeepApartGame(size)
    rng = np.random.default_rng(size)
    for _ in range(5):
        state, passes = game.new_state(), 0
        while not state.terminal:
            cells = open_cells_by_hand(state.board, state.to_move, size)
            expected = cells or {game.pass_action}  # a pass when, and only when, no cell is open
            assert set(map(int, state.legal_actions())) == expected
            action = int(rng.choice(sorted(expected)))
            passes = passes + 1 if action == game.pass_action else 0
            state.play(action)
            assert state.terminal == (passes == 2)
        black, white = int((state.board == FIRST).sum()), int((state.board == SECOND).sum())
        assert state.winner == (FIRST if black > white else SECOND if white > black else 0)
