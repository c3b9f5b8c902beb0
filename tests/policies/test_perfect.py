"""The perfect player refuses, in one line, any game the exact solvers cannot solve, and plays tic-tac-toe."""

from __future__ import annotations

import pytest

from boardgame_envs.games.catalog import game_info
from boardgame_envs.policies import make_policy


@pytest.mark.parametrize(
    "name, kwargs, says",
    [
        ("renju", {}, "not 15x15, 5 in a row, renju"),
        ("gomoku", dict(board_size=7, rule="standard"), "not 7x7, 5 in a row, standard"),
        ("gomoku", dict(board_size=9, rule="freestyle"), "at most 64 points"),
    ],
)
def test_perfect_refuses_a_game_the_solver_cannot_solve_in_one_line(name, kwargs, says):
    game = game_info(name).game(**kwargs)
    policy = make_policy("perfect", seed=0)
    for attempt in (policy.check_game, lambda g: policy.act(g.new_state())):
        with pytest.raises(ValueError) as info:
            attempt(game)
        assert says in str(info.value) and "\n" not in str(info.value)


def test_perfect_never_loses_tictactoe_against_random():
    game = game_info("tictactoe").game()
    for seed in range(3):
        state, players = game.new_state(), [make_policy("perfect", seed=seed), make_policy("random", seed=seed)]
        while not state.terminal:
            state.play(players[state.num_moves % 2].act(state))
        assert state.winner in (0, 1)
