"""The package's exact solver and the baseline script around it: known games, an independent oracle,
hand-drawn positions, the proof checker, the command line."""

from __future__ import annotations

import numpy as np
import pytest

from ascii_boards import parse, state_from
from baseline_scripts import load_baseline
from boardgame_envs.games.mnk import MNKGame
from boardgame_envs.games.notation import point_name
from boardgame_envs.games.solver import Solver
from games.memo_solver import MemoSolver


@pytest.fixture(scope="module")
def solve_mnk():
    return load_baseline("solve_mnk")


@pytest.mark.parametrize(("size", "k", "value"), [(3, 3, 0), (4, 3, 1), (4, 4, 0)])
def test_known_games(solve_mnk, size, k, value):
    # Tic-tac-toe is a draw; three in a row on 4x4 a first-player win; four in a row on 4x4 a draw.
    assert Solver(MNKGame(size, k), tt_bits=16).first_player_value([]) == value


@pytest.mark.parametrize(("size", "k"), [(3, 3), (4, 3), (4, 4)])
def test_agrees_with_a_plain_memoised_negamax(size, k):
    # memo_solver is a plain negamax over the package's own rules, with none of the solver's cuts.
    game = MNKGame(size, k)
    memo, fast = MemoSolver(game), Solver(game, tt_bits=16)
    rng = np.random.default_rng(size * 10 + k)
    checked = 0
    fewest = 6 if k == 4 else 0  # from a near-empty board, four in a row on 4x4 takes the memoised solver minutes
    for _ in range(60):
        state = game.new_state()
        for _ in range(rng.integers(fewest, size * size)):
            state.play(int(rng.choice(state.legal_actions())))
            if state.terminal:
                break
        if not state.terminal:
            value = memo.value(state)
            # Null windows first, as first_player_value asks them, so their bounds share the table.
            assert (fast.board_value(state.board, -1, 0) <= -1) == (value == -1), state
            assert (fast.board_value(state.board, 0, 1) >= 1) == (value == 1), state
            assert fast.board_value(state.board) == value, state
            checked += 1
    assert checked > 30


def test_hand_drawn_6x6_positions(solve_mnk):
    solver = Solver(MNKGame(6, 4), tt_bits=16)
    # Black to move plays d4: b4-d4 then wins at a4 or e4, and white, with no three of its own, blocks one.
    open_three = parse(
        """
        . . . . . O
        . . . . . .
        . X X . . .
        . . . . . .
        . . . . . .
        O . . . . .
        """
    )
    # White to move: black's a6-c6 wins at d6, and f5-f3 at f6 and f2; white has no three to answer with.
    two_fours = parse(
        """
        X X X . . .
        . . . . . X
        O . O . . X
        . O . O . X
        . . . . . .
        O . . . . .
        """
    )
    assert solver.board_value(open_three) == 1
    assert solver.board_value(two_fours) == -1


def test_a_win_is_checked_move_by_move_through_the_package_rules(solve_mnk):
    # 4x4, three in a row: the solver's strategy wins against every reply the rules allow.
    won = solve_mnk.verify_first_player_win(Solver(MNKGame(4, 3), tt_bits=16), MNKGame(4, 3))
    assert won.positions > 100
    # Tic-tac-toe is a draw: no strategy of the first player's survives every reply.
    with pytest.raises(solve_mnk.NotAWin):
        solve_mnk.verify_first_player_win(Solver(MNKGame(3, 3), tt_bits=16), MNKGame(3, 3))


def test_distinct_first_moves():
    solver = Solver(MNKGame(6, 4), tt_bits=10)
    assert [point_name(cell, 6) for cell in solver.distinct_first_moves()] == [
        "a6", "b6", "c6", "b5", "c5", "c4",
    ]  # fmt: skip
    assert len(Solver(MNKGame(3, 3), tt_bits=10).distinct_first_moves()) == 3  # corner, edge, centre


def test_bad_input(solve_mnk):
    solver = Solver(MNKGame(4, 3), tt_bits=10)
    with pytest.raises(ValueError, match="at most 64 cells"):
        Solver(MNKGame(9, 5))
    with pytest.raises(ValueError, match="freestyle"):
        Solver(MNKGame(6, 4, "standard"))
    with pytest.raises(ValueError, match="0 or 1 stones more"):
        solver.board_value(np.array([1, 1] + [0] * 14))
    with pytest.raises(ValueError, match="already over"):
        solver.board_value(state_from("X X X . \n O O . . \n . . . . \n . . . .", win_length=3).board)
    with pytest.raises(ValueError, match="played twice"):
        solver.moves_value([0, 0])
    with pytest.raises(ValueError, match="16 cells"):
        solver.board_value(np.zeros(9))


def test_command_line(solve_mnk, capsys):
    solve_mnk.main(["--size", "4", "--k", "3", "--verify"])
    out = capsys.readouterr().out
    assert "  a4: +1" in out and "verified: the first player wins with b3 against every reply" in out
    solve_mnk.main(["--size", "3", "--k", "3", "--verify"])
    assert "no win to verify" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        solve_mnk.main(["--size", "4", "--k", "5"])
