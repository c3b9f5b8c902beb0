"""The connect-four solver: against plain negamax, positions worked out by hand, and its own consistency.

The published facts of the empty board (the first player wins, with the centre
column only; the seven first moves score -2 -1 0 1 0 -1 -2) cost 26 CPU-minutes to prove:
``baselines/connect_four_solver_check.py --empty`` proved them (it also compares the solver with
Pascal Pons's over many positions; baselines/results/connect_four_solver.md). The
last test here runs that comparison on a few positions when ``C4SOLVER_PONS``
names his ``c4solver`` binary, and says why it skips when it does not.
"""

from __future__ import annotations

import os
import subprocess

import numpy as np
import pytest

from games.connect_four_plain import drawn, plain_score, random_line
from boardgame_envs.games.connect_four_solver import (
    ConnectFourSolver, SolverBudgetError, describe, moves_to_end, state_of_moves,
)  # fmt: skip


@pytest.fixture(scope="module")
def solver() -> ConnectFourSolver:
    return ConnectFourSolver(table_slots=1 << 20)


def late_positions(count: int, seed: int, lo: int, hi: int) -> list[str]:
    rng = np.random.default_rng(seed)
    out: list[str] = []
    while len(out) < count:
        line = random_line(rng, int(rng.integers(lo, hi + 1)))
        if line is not None:
            out.append(line)
    return out


def test_scores_agree_with_plain_negamax_on_late_positions(solver):
    for moves in late_positions(40, seed=0, lo=34, hi=38):
        state = state_of_moves(moves)
        assert solver.score(state) == plain_score(state), moves
        assert solver.outcome(state) == np.sign(plain_score(state)), moves


def test_a_position_scores_its_best_column_and_every_column_agrees_with_plain_negamax(solver):
    for moves in late_positions(12, seed=1, lo=34, hi=37):
        state = state_of_moves(moves)
        scores = solver.move_scores(state)
        assert sorted(scores) == state.legal_actions().tolist()
        for column, value in scores.items():
            child = state.clone()
            child.play(column)
            expected = (43 - state.num_moves) // 2 if child.winner else 0 if child.terminal else -plain_score(child)
            assert value == expected, (moves, column)
        assert max(scores.values()) == solver.score(state)


def test_mid_game_positions_score_their_best_column(solver):
    for moves in late_positions(8, seed=2, lo=16, hi=22):
        scores = solver.move_scores(moves)
        assert solver.score(moves) == max(scores.values()), moves
        signs = solver.move_scores(moves, exact=False)
        assert signs == {c: int(np.sign(v)) for c, v in scores.items()}


def test_a_win_with_the_next_piece():
    state = drawn(
        """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        O O . . . . .
        X X X . . . O
        """
    )  # X to move after 6 moves: d1 completes the row with X's 4th piece, 22 - 4 = 18
    solver = ConnectFourSolver(table_slots=1 << 16)
    assert solver.score(state) == 18
    assert describe(18, 6) == "win in 1 move"
    child = state.clone()
    child.play(6)  # g2 instead: O blocks d1 and X has no win with its 4th piece left
    assert solver.score(child, -18, -17) == -17


def test_a_double_threat_loses_for_the_player_to_move_whatever_it_blocks():
    state = drawn(
        """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . O O . . . .
        . X X X . . .
        """
    )  # O to move after 5 moves: X wins at a1 or e1 with its 4th piece
    solver = ConnectFourSolver(table_slots=1 << 16)
    assert solver.score(state) == -18
    assert set(solver.move_scores(state).values()) == {-18}
    assert moves_to_end(-18, 5) == 1 and describe(-18, 5) == "loss in 1 move"


def test_only_the_move_that_makes_two_threats_wins_at_once():
    state = drawn(
        """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        O . X X . . O
        """
    )  # X to move: e1 threatens b1 and f1, and O can block one; X wins with its 4th piece
    solver = ConnectFourSolver(table_slots=1 << 18)
    assert solver.score(state) == 18
    for column in range(7):
        child = state.clone()
        child.play(column)
        # "18 or more for X" is "-18 or less for O": a null window at the far end, which costs little.
        assert (solver.score(child, -18, -17) == -18) == (column == 4), column
    assert moves_to_end(18, 4) == 2 and describe(18, 4) == "win in 2 moves"


def test_a_line_in_the_published_test_sets_format():
    # "moves score" as Pons's test sets write a position; his solver gives -1 for this one too.
    moves, score = "2252576253462244111563365343671351441 -1".split()
    assert ConnectFourSolver(table_slots=1 << 16).score(moves) == int(score)


def test_a_budget_too_small_answers_nothing_and_leaves_the_table_sound():
    solver = ConnectFourSolver(node_limit=50, table_slots=1 << 18)
    moves = "4453"
    with pytest.raises(SolverBudgetError, match="within 50 nodes after 4 moves"):
        solver.score(moves)
    solver.node_limit = 10**9
    line = late_positions(1, seed=3, lo=20, hi=20)[0]
    fresh = ConnectFourSolver(table_slots=1 << 18).score(line)
    assert solver.score(line) == fresh


@pytest.mark.parametrize("moves, message", [
    ("448", "move 3 of '448' is '8': write columns as digits 1..7"),
    ("4a", "move 2 of '4a' is 'a'"),
    ("1111111", "move 7 (1) of '1111111': column a is full"),
    ("12121212", "move 8 (2) of '12121212': column b cannot be played: the game is over"),
])  # fmt: skip
def test_bad_move_strings_are_refused_naming_the_move(moves, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        state_of_moves(moves)


def test_a_finished_game_is_not_solved():
    with pytest.raises(ValueError, match="the game is over"):
        ConnectFourSolver(table_slots=1 << 16).score("1212121")


PONS = os.environ.get("C4SOLVER_PONS")


@pytest.mark.skipif(not PONS, reason="set C4SOLVER_PONS to Pascal Pons's c4solver binary (github.com/PascalPons/connect4, "
                    "built with make) to compare with it")  # fmt: skip
def test_every_column_agrees_with_pons_solver(solver):
    lines = late_positions(20, seed=4, lo=12, hi=30)
    out = subprocess.run([PONS, "-a"], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=600)
    answers = [row.split() for row in out.stdout.splitlines() if row.strip()]
    assert len(answers) == len(lines)
    for moves, row in zip(lines, answers):
        assert row[0] == moves
        theirs = {c: int(v) for c, v in enumerate(row[1:]) if int(v) != -1000}  # -1000: a full column
        assert solver.move_scores(moves) == theirs, moves
