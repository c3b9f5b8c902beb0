"""The perfect player on connect four: value-keeping moves, seeded ties, and its fallback past the budget."""

from __future__ import annotations

import numpy as np
import pytest

from games.connect_four_plain import plain_score, random_line
from boardgame_envs.games.catalog import game_info
from boardgame_envs.games.connect_four_solver import state_of_moves
from boardgame_envs.policies import PerfectPolicy, make_policy


def late_lines(count: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    out: list[str] = []
    while len(out) < count:
        line = random_line(rng, int(rng.integers(34, 38)))
        if line is not None:
            out.append(line)
    return out


def column_values(state) -> dict[int, int]:
    """Each legal column's score by plain negamax (the solver's independent reference)."""
    out = {}
    for column in map(int, state.legal_actions()):
        child = state.clone()
        child.play(column)
        out[column] = (43 - state.num_moves) // 2 if child.winner else 0 if child.terminal else -plain_score(child)
    return out


def test_every_move_keeps_the_value_and_ties_follow_the_seed():
    policy = make_policy("perfect", seed=3)
    picks = []
    for line in late_lines(12, seed=0):
        state = state_of_moves(line)
        values = column_values(state)
        column = policy.act(state)
        assert np.sign(values[column]) == np.sign(max(values.values())), line
        picks.append(column)
    again = make_policy("perfect", seed=3)
    assert [again.act(state_of_moves(line)) for line in late_lines(12, seed=0)] == picks
    assert policy.fallbacks == 0


def test_past_its_budget_it_plays_the_named_fallback_and_counts_it():
    policy = make_policy("perfect:nodes=1", seed=0)
    state = state_of_moves("4")
    column = policy.act(state)
    assert column in state.legal_actions() and policy.fallbacks == 1


def test_from_won_positions_it_wins_every_game_against_random():
    game = game_info("connect_four").game()
    policy, other = make_policy("perfect", seed=0), make_policy("random", seed=0)
    policy.check_game(game)
    won = [line for line in late_lines(30, seed=1) if max(column_values(state_of_moves(line)).values()) > 0]
    assert len(won) >= 5
    for line in won:
        state = state_of_moves(line)
        mover = state.to_move
        while not state.terminal:
            state.play((policy if state.to_move == mover else other).act(state))
        assert state.winner == mover, line


def test_in_a_lost_position_it_holds_out_longest():
    """Every move loses: it plays one of those a perfect opponent needs longest to punish (plain negamax's scores)."""
    policy = make_policy("perfect", seed=0)
    lost = [line for line in late_lines(60, seed=2) if max(column_values(state_of_moves(line)).values()) < 0]
    assert len(lost) >= 5
    slower = 0
    for line in lost:
        values = column_values(state_of_moves(line))
        column = policy.act(state_of_moves(line))
        assert values[column] == max(values.values()), line
        slower += len(set(values.values())) > 1  # positions where a random losing move could lose sooner
    assert slower >= 3 and policy.fallbacks == 0


def test_fallback_names_alphabeta_or_a_shipped_network_and_is_checked_against_the_game():
    for bad in ("pretrained:connect-four", "", "Alpha Beta", 3):
        with pytest.raises(ValueError, match="fallback must be 'alphabeta' or the name of a shipped"):
            PerfectPolicy(fallback=bad)
    with pytest.raises(ValueError, match="at most 1,000,000,000"):
        make_policy("perfect:nodes=1000000000000")
    game = game_info("connect_four").game()
    with pytest.raises(ValueError, match="no pretrained network 'no-such-net'"):
        make_policy("perfect:fallback=no-such-net").check_game(game)
    with pytest.raises(ValueError, match="trained on 15x15"):
        make_policy("perfect:fallback=renju-15x15").check_game(game)


def test_a_network_fallback_plays_the_moves_past_the_budget():
    policy = make_policy("perfect:nodes=1,fallback=connect-four", seed=0)
    network = make_policy("pretrained:connect-four", seed=0)
    state = state_of_moves("44")
    policy.check_game(state.game)
    assert policy.act(state) == network.act(state) and policy.fallbacks == 1
