"""The Gumbel root: sequential halving spends the budget exactly and as planned, the improved policy
follows the values, and a win found by the search is played."""

from __future__ import annotations

import numpy as np
import pytest
from ascii_boards import state_from

from boardgame_envs.games.connect_four import ConnectFourGame
from boardgame_envs.games.mnk import MNKGame
from boardgame_envs.policies.puct import PUCTForest
from boardgame_envs.policies.puct_gumbel import (
    completed_q,
    gumbel_search,
    halving_phase,
    improved_policy,
)
from boardgame_envs.policies.puct_protocol import ProtocolForest


def flat(num_actions: int, value: float = 0.0):
    return lambda forest, leaves: (np.ones((len(leaves), num_actions)), np.full(len(leaves), value))


@pytest.mark.parametrize("k", [1, 2, 3, 4, 16])
def test_sequential_halving_spends_exactly_the_budget(k):
    game = MNKGame(9, 5)
    budgets = np.array([1, 2, 3, 5, 8, 13, 16, 32, 33, 100])
    forest = PUCTForest(len(budgets), game, 1 + 101 * 81)
    forest.set_roots([game.new_state()] * len(budgets))
    gumbel_search(forest, budgets, flat(81), k, np.random.default_rng(k))
    assert forest.root_visits().sum(axis=1).tolist() == budgets.tolist()


def test_sequential_halving_follows_its_plan():
    # 16 simulations over 4 candidates, 2 phases: 2 each (8), then the better 2 take the other 8 (4 each).
    game = MNKGame(9, 5)
    forest = PUCTForest(1, game, 1 + 17 * 81)
    forest.set_root(0, game.new_state())
    gumbel_search(forest, 16, flat(81), 4, np.random.default_rng(0))
    assert sorted(forest.root_visits()[0][forest.root_visits()[0] > 0].tolist()) == [2, 2, 6, 6]
    assert halving_phase(16, 4, 32, 32) == 1 and halving_phase(2, 4, 32, 8) == 4 and halving_phase(3, 2, 4, 1) == 1


def test_the_improved_policy_puts_its_mass_on_the_best_value():
    # Four children, equal priors; the second is worth most, the fourth was never visited.
    visits = np.array([4.0, 4.0, 4.0, 0.0])
    q = np.array([0.1, 0.8, -0.5, 0.0])
    priors = np.full(4, 0.25)
    policy = improved_policy(np.log(priors), visits, q * visits, priors, 0.0)
    assert np.argmax(policy) == 1 and policy[1] > 0.85 and policy[2] == policy.min()
    # By hand: the unvisited child's value is the mixed value (root 0, the searched ones by their priors),
    # values are rescaled to [0, 1] and multiplied by (50 + 4) * 0.1; equal priors drop out of the softmax.
    mixed = (0.0 + 12 * (0.1 + 0.8 - 0.5) / 3) / 13
    completed = np.array([0.1, 0.8, -0.5, mixed])
    assert np.allclose(completed_q(visits, q * visits, priors, 0.0), completed)
    logits = 5.4 * (completed + 0.5) / 1.3
    assert np.allclose(policy, np.exp(logits) / np.exp(logits).sum())
    # A prior that prefers a worse move is overruled by the values, not ignored: it keeps some mass.
    skewed = np.array([0.7, 0.1, 0.1, 0.1])
    policy = improved_policy(np.log(skewed), visits, q * visits, skewed, 0.0)
    assert np.argmax(policy) == 1 and policy[0] > policy[2]


@pytest.mark.parametrize("forest_class", [PUCTForest, ProtocolForest])
def test_a_win_found_by_the_search_is_played_at_eight_simulations(forest_class):
    state = state_from("X X .\nO O .\n. . .", win_length=3)  # X wins at c1
    forest = forest_class(1, state.game, 1 + 9 * 9)
    forest.set_root(0, state)
    moves, policies = gumbel_search(forest, 8, flat(9), 16)
    assert moves[0] == 2 and np.argmax(policies[0]) == 2 and policies[0][2] > 0.5
    assert forest.root_visits().sum() == 8


def test_gumbel_root_on_connect_four_and_bad_k():
    game = ConnectFourGame()
    forest = ProtocolForest(2, game)
    forest.set_roots([game.new_state()] * 2)
    moves, policies = gumbel_search(forest, 12, flat(7), 4, np.random.default_rng(0))
    assert np.allclose(policies.sum(axis=1), 1.0) and forest.root_visits().sum(axis=1).tolist() == [12, 12]
    assert all(0 <= move < 7 for move in moves)
    with pytest.raises(ValueError, match="gumbel_k"):
        gumbel_search(forest, 12, flat(7), 0)
