"""Connect four's rules, each case a position drawn by hand (X the first player, O the second, row 0 at the top)."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs.games.connect_four import COLUMNS, ROWS, ConnectFourGame, window_score
from boardgame_envs.games.protocol import FIRST, SECOND, IllegalMoveError

CHARS = {".": 0, "X": FIRST, "O": SECOND}


def drawn(text: str) -> np.ndarray:
    rows = [line.replace(" ", "") for line in text.strip().splitlines()]
    assert len(rows) == ROWS and all(len(r) == COLUMNS for r in rows)
    return np.array([CHARS[c] for row in rows for c in row], dtype=np.int8)


def played(moves: str):
    state = ConnectFourGame().new_state()
    for name in moves.split():
        state.play(state.game.parse_action(name))
    return state


def test_pieces_fall_to_the_lowest_empty_cell():
    state = played("d d e c")
    assert (state.board == drawn("""
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . O . . .
        . . O X X . .
    """)).all()
    assert state.last_move == 5 * 7 + 2 and state.to_move == FIRST and not state.terminal


@pytest.mark.parametrize("moves, how", [
    ("a b a b a b a", "a column"),
    ("a a b b c c d", "a row"),
    ("a b b c c d c d d g d", "a rising diagonal"),
    ("g f f e e d e d d a d", "a falling diagonal"),
])  # fmt: skip
def test_four_in_a_line_wins_for_the_mover(moves, how):
    state = played(moves)
    assert state.terminal and state.winner == FIRST, how
    assert state.returns() == (1.0, -1.0)
    assert not state.legal_mask().any()


def test_three_in_a_row_with_a_gap_does_not_win():
    state = played("a a b b d d")  # X: a1 b1 . d1
    assert (state.board[35:] == drawn("""
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        O O . O . . .
        X X . X . . .
    """)[35:]).all()
    assert not state.terminal
    state.play(2)  # c fills the gap: four
    assert state.winner == FIRST


def test_a_full_column_is_illegal_and_the_state_stays_as_it_was():
    state = played("c c c c c c")
    assert state.legal_mask().tolist() == [True, True, False, True, True, True, True]
    before = state.board.copy()
    with pytest.raises(IllegalMoveError, match="^column c is full$"):
        state.play(2)
    assert (state.board == before).all() and state.num_moves == 6
    assert state.illegal_reason(7) == "action 7 is out of range 0..6"
    assert state.illegal_reason(True) == "action True is not an integer in 0..6"


def test_a_full_board_without_four_is_a_draw():
    # Columns filled in pairs so that no line of four forms: a b, then c d, e f, g on its own.
    order = "a b a b a b b a b a b a c d c d c d d c d c d c e f e f e f f e f e f e g g g g g g"
    state = played(order)
    assert state.terminal and state.winner == 0 and state.num_moves == 42
    assert state.returns() == (0.0, 0.0)


def test_notation_and_symmetries():
    game = ConnectFourGame()
    assert [game.action_name(a) for a in range(7)] == list("abcdefg")
    assert game.parse_action(" D ") == 3 and game.parse_action("6") == 6
    with pytest.raises(ValueError, match="as a column"):
        game.parse_action("h")
    identity, mirror = game.symmetries()
    assert identity.tolist() == list(range(7)) and mirror.tolist() == [6, 5, 4, 3, 2, 1, 0]
    assert game.player_name(FIRST) == "red" and game.player_name(SECOND) == "yellow"


def test_planes_are_relative_to_the_viewer():
    state = played("d c")
    mine, theirs = state.planes(FIRST)[..., 0], state.planes(FIRST)[..., 1]
    assert mine[5, 3] == 1 and theirs[5, 2] == 1 and mine.sum() == 1 and theirs.sum() == 1
    assert (state.planes(SECOND)[..., 0] == theirs).all()


def test_clone_is_independent_and_rollouts_are_seeded():
    state = played("d d")
    copy = state.clone()
    copy.play(0)
    assert state.num_moves == 2 and state.board[35] == 0
    assert state.rollout(7) == state.rollout(7)
    assert {state.rollout(s) for s in range(40)} <= {0, FIRST, SECOND}
    assert state.num_moves == 2  # a rollout leaves the state alone


def test_window_score_counts_open_lines_only():
    # X: b1 c1 d1, three in the bottom row with e1 open; O: a1 b2.
    state = played("b b c a d")
    assert window_score(state.board, FIRST, ROWS, COLUMNS, 4) > window_score(state.board, SECOND, ROWS, COLUMNS, 4)
    assert window_score(state.board, FIRST, ROWS, COLUMNS, 4) == -window_score(state.board, SECOND, ROWS, COLUMNS, 4)
    assert -1 < state.evaluate() < 1
