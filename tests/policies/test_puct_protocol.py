"""The protocol's PUCT forest searches exactly as the numba one: same visits on the same positions and evaluator."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs.games.connect_four import ConnectFourGame
from boardgame_envs.games.mnk import MNKGame
from boardgame_envs.policies.puct import PUCTForest
from boardgame_envs.policies.puct_protocol import ProtocolForest, make_forest


def scores(board: np.ndarray, to_move: int, legal: np.ndarray) -> tuple[np.ndarray, float]:
    """A made-up but deterministic evaluator of a position: priors and a value from its stones."""
    cells = board[-legal.size:].astype(float)  # the whole board where actions are cells; else its last row
    weights = np.cos(np.arange(legal.size) * 1.7 + cells * 2.3 + to_move) + 1.5
    priors = np.where(legal, weights, 0.0)
    value = float(np.tanh(np.sin(board @ np.arange(1, board.size + 1)) + 0.3 * (to_move - 1.5)))
    return priors / priors.sum(), value


def numba_evaluate(forest, leaves):
    out = [scores(forest.leaf_board[b], forest.leaf_color[b], forest.leaf_legal[b]) for b in leaves]
    return np.array([p for p, _ in out]), np.array([v for _, v in out])


def protocol_evaluate(forest, leaves):
    out = [scores(forest.leaf_states[b].board, forest.leaf_states[b].to_move, forest.leaf_states[b].legal_mask())
           for b in leaves]  # fmt: skip
    return np.array([p for p, _ in out]), np.array([v for _, v in out])


@pytest.mark.parametrize("moves", [[], [4], [4, 0, 8], [0, 1, 3, 4]])
@pytest.mark.parametrize("simulations", [1, 30, 300])
def test_same_visits_as_the_numba_forest_on_tictactoe(moves, simulations):
    game = MNKGame(3, 3)
    states = []
    for k in range(len(moves) + 1):
        state = game.new_state()
        for a in moves[:k]:
            state.play(a)
        states.append(state)
    fast = PUCTForest(len(states), game, 1 + (simulations + 1) * 9)
    slow = ProtocolForest(len(states), game)
    fast.set_roots(states)
    slow.set_roots(states)
    fast.search(simulations, numba_evaluate)
    slow.search(simulations, protocol_evaluate)
    assert (fast.root_visits() == slow.root_visits()).all()


def test_make_forest_picks_by_family_and_noise_keeps_priors_a_distribution():
    assert isinstance(make_forest(2, MNKGame(3, 3), 100), PUCTForest)
    forest = make_forest(2, ConnectFourGame(), 0)
    assert isinstance(forest, ProtocolForest)
    state = ConnectFourGame().new_state()
    forest.set_roots([state, state])
    forest.search(0, protocol_evaluate, np.random.default_rng(0), noise=(1.0, 0.25))
    priors = [child.prior for child in forest.roots[0].children.values()]
    assert len(priors) == 7 and abs(sum(priors) - 1.0) < 1e-9
    forest.search(50, protocol_evaluate)  # the roots are expanded already: its first round is a simulation too
    assert forest.root_visits().sum(axis=1).tolist() == [51.0, 51.0]
    assert state.num_moves == 0  # the roots are clones


def test_a_finished_game_is_refused():
    state = ConnectFourGame().new_state()
    for a in [0, 1, 0, 1, 0, 1, 0]:
        state.play(a)
    with pytest.raises(ValueError, match="game is over"):
        ProtocolForest(1, state.game).set_root(0, state)
