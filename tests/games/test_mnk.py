"""Win detection and the rules of the m,n,k game, on positions drawn by hand."""

from __future__ import annotations

import numpy as np
import pytest

from ascii_boards import state_from
from boardgame_envs.games.lines import BLACK, WHITE
from boardgame_envs.games.mnk import IllegalMoveError, MNKGame
from boardgame_envs.games.notation import parse_point, point_name


def _after(text, move, rule="freestyle", k=5, to_move=BLACK):
    state = state_from(text, win_length=k, rule=rule, to_move=to_move)
    state.play(move)
    return state


# Each case: a 9x9 position, the winning point (row, col), the colour to move.
WINS = {
    "row in the middle": (
        """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . X X . X X . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        """,
        (3, 3),
        BLACK,
    ),
    "column on the left edge": (
        """
        O . . . . . . . .
        O . . . . . . . .
        O . . . . . . . .
        O . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        """,
        (4, 0),
        WHITE,
    ),
    "main diagonal into the bottom-right corner": (
        """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . X . . . .
        . . . . . X . . .
        . . . . . . X . .
        . . . . . . . X .
        . . . . . . . . .
        """,
        (8, 8),
        BLACK,
    ),
    "anti-diagonal from the top-right corner": (
        """
        . . . . . . . . .
        . . . . . . . O .
        . . . . . . O . .
        . . . . . O . . .
        . . . . O . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        """,
        (0, 8),
        WHITE,
    ),
    "bottom row, right edge": (
        """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . X X X X .
        """,
        (8, 8),
        BLACK,
    ),
}


@pytest.mark.parametrize("rule", ["freestyle", "standard"])
@pytest.mark.parametrize("name", sorted(WINS))
def test_five_wins(name, rule):
    text, (r, c), color = WINS[name]
    state = _after(text, r * 9 + c, rule=rule, to_move=color)
    assert state.terminal and state.winner == color


def test_four_is_not_a_win_and_a_broken_line_is_not_five():
    text = """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . X X X . . X . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        """
    state = _after(text, 3 * 9 + 4)  # X X X X . X: four, a gap, one
    assert not state.terminal and state.winner == 0


def test_white_stone_interrupts_the_line():
    text = """
        . . . . . . . . .
        . . . . . . . . .
        X X O X X X . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        """
    state = _after(text, 2 * 9 + 6)  # X X O X X X X: only four after the white stone
    assert not state.terminal


OVERLINE = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    X X X . X X . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    """


@pytest.mark.parametrize("color", [BLACK, WHITE])
def test_overline_wins_in_freestyle_only(color):
    text = OVERLINE if color == BLACK else OVERLINE.replace("X", "O")
    free = _after(text, 3 * 9 + 3, rule="freestyle", to_move=color)
    assert free.terminal and free.winner == color
    std = _after(text, 3 * 9 + 3, rule="standard", to_move=color)
    assert not std.terminal and std.winner == 0


def test_standard_overline_in_one_line_and_five_in_another_wins():
    text = """
        . . . . . . . . .
        . . . X . . . . .
        . . . X . . . . .
        X X X . X X . . .
        . . . X . . . . .
        . . . X . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        """
    state = _after(text, 3 * 9 + 3, rule="standard")  # row: six; column: exactly five
    assert state.terminal and state.winner == BLACK


def test_tictactoe_lines_and_draw():
    game = MNKGame(3, 3)
    for line in ([0, 1, 2], [0, 3, 6], [0, 4, 8], [2, 4, 6], [6, 7, 8], [2, 5, 8]):
        state = game.new_state()
        fillers = [a for a in range(9) if a not in line][:2]
        for a, b in zip(line[:2], fillers):
            state.play(a)
            state.play(b)
        state.play(line[2])
        assert state.terminal and state.winner == BLACK, line
    state = game.new_state()
    for a in [0, 1, 2, 4, 3, 5, 7, 6, 8]:  # X O X / X O O / O X X: no line
        state.play(a)
    assert state.terminal and state.winner == 0 and state.returns() == (0.0, 0.0)


def test_k_in_a_row_on_small_boards():
    state = _after(
        """
        . . . . . .
        . O O O . .
        . X X X . .
        . . . . . .
        . . . . . .
        . . . . . .
        """,
        2 * 6 + 4,
        k=4,
    )
    assert state.winner == BLACK


def test_illegal_moves_raise_and_change_nothing():
    state = MNKGame(9, 5).new_state()
    state.play(40)
    before = (state.board.copy(), state.to_move, state.num_moves, state.last_move)
    for bad, words in [(40, "occupied"), (81, "out of range"), (-1, "out of range"), (2.0, "not an integer"), (True, "not an integer")]:
        with pytest.raises(IllegalMoveError, match=words):
            state.play(bad)
        assert (state.board == before[0]).all() and (state.to_move, state.num_moves, state.last_move) == before[1:]
    with pytest.raises(IllegalMoveError, match="e5 is occupied"):
        state.play(40)


def test_no_move_after_the_end():
    state = MNKGame(3, 3).new_state()
    for a in [0, 3, 1, 4, 2]:
        state.play(a)
    with pytest.raises(IllegalMoveError, match="game is over"):
        state.play(8)
    assert not state.legal_mask().any()


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"rule": "pro"}, "freestyle, standard, renju"),
        ({"size": 2}, "3..19"),
        ({"size": 20}, "3..19"),
        ({"size": 9, "win_length": 10}, "2..board_size"),
        ({"size": 15, "win_length": 6, "rule": "renju"}, "five in a row"),
    ],
)
def test_bad_game_arguments(kwargs, words):
    with pytest.raises(ValueError, match=words):
        MNKGame(**kwargs)


def test_clone_is_independent():
    state = MNKGame(9, 5).new_state()
    state.play(0)
    twin = state.clone()
    twin.play(1)
    assert state.board[1] == 0 and state.num_moves == 1 and twin.num_moves == 2


@pytest.mark.parametrize("n", [3, 9, 15, 19])
def test_notation_round_trip(n):
    for a in range(n * n):
        assert parse_point(point_name(a, n), n) == a
        assert parse_point(f"{a // n},{a % n}", n) == a
    assert point_name(7 * 15 + 7, 15) == "h8" and point_name(0, 15) == "a15"


@pytest.mark.parametrize("text", ["z9", "h16", "15,0", "hello", ""])
def test_notation_rejects_nonsense(text):
    with pytest.raises(ValueError):
        parse_point(text, 15)


def test_legal_mask_matches_empties():
    state = MNKGame(5, 4).new_state()
    rng = np.random.default_rng(0)
    for _ in range(6):
        state.play(int(rng.choice(state.legal_actions())))
    np.testing.assert_array_equal(state.legal_mask(), state.board == 0)
