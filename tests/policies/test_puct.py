"""PUCT: a win in one and a forced block with a uniform evaluator; lockstep forests; renju; capacity;
budgets and root noise per tree."""

from __future__ import annotations

import numpy as np
import pytest

from ascii_boards import state_from
from boardgame_envs import tictactoe_v0
from boardgame_envs.policies import MCTSPolicy
from boardgame_envs.games.mnk import MNKGame
from boardgame_envs.games.renju import forbidden_mask
from boardgame_envs.policies.puct import PUCTForest, PUCTSearch


def uniform(state):
    return np.ones(state.game.num_actions), 0.0


def test_win_in_one_and_block():
    win = state_from("X X .\nO O .\n. . .", win_length=3)
    visits = PUCTSearch(uniform, rng=np.random.default_rng(0)).run(win, 200)
    assert visits.argmax() == 2
    block = state_from("X . .\nO O .\nX . .", win_length=3)  # X to move must take c2
    visits = PUCTSearch(uniform, rng=np.random.default_rng(0)).run(block, 400)
    assert visits.argmax() == 5


def test_mcts_policy_with_an_evaluator_acts_through_the_env():
    env = tictactoe_v0.env()
    env.reset()
    policy = MCTSPolicy(evaluator=uniform, simulations=50, seed=0)
    action = policy.act(env)
    assert env.observe("player_1")["action_mask"][action] == 1
    assert policy.search(env).sum() == 50


def test_noise_and_terminal():
    state = state_from("X X .\nO O .\n. . .", win_length=3)
    counts = PUCTSearch(uniform, dirichlet_alpha=0.3, rng=np.random.default_rng(1)).run(state, 30)
    assert counts.sum() == 30 and (counts[state.board != 0] == 0).all()
    state.play(2)
    with pytest.raises(ValueError, match="game is over"):
        PUCTSearch(uniform).run(state, 10)


def test_forest_of_many_trees_matches_one_tree_at_a_time():
    """Lockstep search over three different roots gives each the visits a lone search would."""
    roots = [
        state_from("X X .\nO O .\n. . .", win_length=3),
        state_from("X . .\nO O .\nX . .", win_length=3),
        state_from(". . .\n. . .\n. . .", win_length=3),
    ]
    forest = PUCTForest(3, roots[0].game, capacity=1 + 100 * 9)
    forest.set_roots(roots)

    def batch_uniform(forest, leaves):
        return np.ones((len(leaves), 9)), np.zeros(len(leaves))

    forest.search(100, batch_uniform)
    together = forest.root_visits()
    for b, root in enumerate(roots):
        alone = PUCTSearch(uniform).run(root, 100)
        assert (together[b] == alone).all()
        assert together[b].sum() == 100


def test_renju_search_never_visits_a_forbidden_point():
    # Black to move; g8 (row 7, col 6 on 15x15) would make two open threes: a double-three.
    text = """
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . X . . . . . . . .
        . . . . . . X . . . . . . . .
        . . . . X X . . . . . . . O O
        . . . . . . . . . . . . . O O
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
    """
    state = state_from(text, rule="renju", to_move=1)
    forbidden = forbidden_mask(state.board.reshape(15, 15)).ravel()
    assert forbidden[7 * 15 + 6], "the drawing should make g8 a double-three"
    visits = PUCTSearch(uniform, rng=np.random.default_rng(0)).run(state, 600)
    assert visits.sum() == 600 and visits[forbidden].sum() == 0
    assert (visits[~forbidden & (state.board == 0)] > 0).all()  # every legal point was tried
    assert (visits[state.board != 0] == 0).all()


def test_a_full_tree_still_counts_every_simulation():
    state = state_from(". . .\n. . .\n. . .", win_length=3)
    forest = PUCTForest(1, state.game, capacity=12)  # room for the root's 9 children and little else
    forest.set_root(0, state)
    forest.search(50, lambda f, leaves: (np.ones((len(leaves), 9)), np.zeros(len(leaves))))
    assert forest.root_visits()[0].sum() == 50


def test_forest_rejects_bad_input():
    state = state_from("X X X\nO O .\n. . .", win_length=3)
    state.terminal = True
    forest = PUCTForest(1, state.game, capacity=10)
    with pytest.raises(ValueError, match="game is over"):
        forest.set_root(0, state)
    with pytest.raises(ValueError, match="expected priors"):
        forest.expand(np.ones((1, 4)), np.zeros(1))


def test_a_confident_losing_value_keeps_the_search_on_the_priors_best_move():
    # Whoever must move is sure to lose (-0.9), and the prior prefers one point (ten times any other).
    # An unvisited move starts at its parent's value, so it does not look better than the visited ones
    # just for being unvisited: with a first-play value of 0 the search went wide (10 visits of 100 here,
    # and in renju self-play a random point instead of the block).
    game = MNKGame(9, 5, "freestyle")
    best = 40

    def losing(state):
        priors = np.full(game.num_actions, 0.01)
        priors[best] = 0.1
        return priors, -0.9

    visits = PUCTSearch(losing, rng=np.random.default_rng(0)).run(game.new_state(), 100)
    assert visits.argmax() == best and visits[best] >= 20


def test_per_tree_budgets_and_noise_on_chosen_roots():
    game = MNKGame(3, 3)
    forest = PUCTForest(3, game, 1 + 21 * 9)
    forest.set_roots([game.new_state()] * 3)
    uniform = lambda f, leaves: (np.ones((len(leaves), 9)), np.zeros(len(leaves)))
    forest.search(np.array([5, 20, 0]), uniform, np.random.default_rng(0), (0.3, 0.5), noisy=np.array([1, 0, 0], bool))
    assert forest.root_visits().sum(axis=1).tolist() == [5, 20, 0]
    priors = [forest.root_children(b)[3] for b in range(3)]
    assert not np.allclose(priors[0], 1 / 9) and np.allclose(priors[1], 1 / 9) and np.allclose(priors[2], 1 / 9)
