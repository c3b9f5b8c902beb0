"""The exact solver against facts of tic-tac-toe worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest

from ascii_boards import state_from
from boardgame_envs import tictactoe_v0
from boardgame_envs.games.mnk import MNKGame
from boardgame_envs.games.solver import Solver, solver_for
from boardgame_envs.policies.perfect import PerfectPolicy

TTT = MNKGame(3, 3)


def test_empty_board_is_a_draw_and_every_opening_draws():
    solver = solver_for(TTT)
    state = TTT.new_state()
    assert solver.value(state) == 0
    np.testing.assert_array_equal(solver.action_values(state), np.zeros(9))


def test_only_the_centre_saves_o_after_a_corner_opening():
    # X in a corner: O must take the centre; any other reply loses to a fork.
    state = TTT.new_state()
    state.play(0)
    values = solver_for(TTT).action_values(state)
    assert values[4] == 0
    assert all(values[a] == -1 for a in (1, 2, 3, 5, 6, 7, 8))


def test_win_in_one_and_forced_block():
    state = state_from(
        """
        X X .
        O O .
        . . .
        """,
        win_length=3,
    )
    solver = solver_for(TTT)
    assert solver.value(state) == 1
    assert list(solver.optimal_actions(state)) == [2]
    state.play(5)  # X ignores its win and blocks instead: O must now block c3
    assert list(solver.optimal_actions(state)) == [2]


def test_fork_is_a_win():
    # X on a3 and c1, O on b2. O's corner reply c3 loses: X takes a1, which
    # blocks O's diagonal c3-b2-a1 and threatens both column a and row 1.
    state = state_from(
        """
        X . .
        . O .
        . . X
        """,
        win_length=3,
        to_move=2,
    )
    state.play(2)
    assert solver_for(TTT).value(state) == 1
    assert 6 in solver_for(TTT).optimal_actions(state)


def test_solver_refuses_big_boards():
    with pytest.raises(ValueError, match="too large"):
        Solver(MNKGame(9, 5))


def test_perfect_policies_always_draw_each_other():
    for seed in range(20):
        env = tictactoe_v0.env()
        env.reset()
        players = {a: PerfectPolicy(seed=seed * 2 + i) for i, a in enumerate(env.possible_agents)}
        for agent in env.agent_iter():
            _, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else players[agent].act(env))
        assert env.unwrapped.game_state.winner == 0
