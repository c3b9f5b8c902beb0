"""Threat-aware PUCT: wins, blocks, wins by fours and renju's forbidden blocks at one or two simulations,
where a plain search misled by its priors plays elsewhere; MCTS-Solver proofs held to the exact solver."""

from __future__ import annotations

import numpy as np
import pytest
from ascii_boards import state_from
from threat_positions import (
    FORBIDDEN_BLOCK,
    FOUR_TO_BLOCK,
    VCF_IN_THREE,
    WIN_BESIDE_A_BLOCK,
    at,
)

from boardgame_envs.games.connect_four import ConnectFourGame
from boardgame_envs.games.mnk import MNKGame
from boardgame_envs.games.renju import forbidden_mask
from boardgame_envs.games.solver import Solver
from boardgame_envs.policies.puct import DRAWN, LOST, WON, PUCTForest
from boardgame_envs.policies.puct_protocol import ProtocolForest
from boardgame_envs.policies.threats import (
    CANNOT_BLOCK,
    MUST_BLOCK,
    WIN_BY_FOURS,
    WIN_NOW,
    leaf_threats,
)


def decoyed(num_actions: int, decoy: int):
    """A batch evaluator whose priors put 100 times more weight on ``decoy`` than on any other point."""

    def evaluate(forest, leaves):
        priors = np.ones((len(leaves), num_actions))
        priors[:, decoy] = 100.0
        return priors, np.zeros(len(leaves))

    return evaluate


def play(state, simulations: int, decoy: int, threats: bool, vcf_nodes: int = 0) -> tuple[int, float]:
    """The move a one-tree search plays (the most probable of its policy) and the root's proven value."""
    forest = PUCTForest(1, state.game, 1 + (simulations + 1) * state.game.num_actions, threats=threats,
                        vcf_nodes=vcf_nodes)  # fmt: skip
    forest.set_root(0, state)
    forest.search(simulations, decoyed(state.game.num_actions, decoy))
    return int(np.argmax(forest.root_policy()[0])), float(forest.proven_values()[0])


@pytest.mark.parametrize("simulations", [1, 2])
def test_a_four_is_blocked(simulations):
    state = state_from(FOUR_TO_BLOCK)
    assert state.to_move == 1
    assert play(state, simulations, at(7, 2), threats=False)[0] == at(7, 2)  # the plain search takes the decoy
    assert play(state, simulations, at(7, 2), threats=True)[0] == at(2, 6)


@pytest.mark.parametrize("simulations", [1, 2])
def test_a_win_at_once_comes_before_a_block(simulations):
    state = state_from(WIN_BESIDE_A_BLOCK, to_move=1)
    assert play(state, simulations, at(2, 6), threats=False)[0] == at(2, 6)
    move, value = play(state, simulations, at(2, 6), threats=True)
    assert move in (at(3, 1), at(8, 1)) and value == 1.0


@pytest.mark.parametrize("simulations", [1, 2])
def test_a_win_by_three_fours(simulations):
    state = state_from(VCF_IN_THREE)
    assert state.to_move == 1
    decoy = at(4, 4)
    assert play(state, simulations, decoy, threats=False)[0] == decoy
    assert play(state, simulations, decoy, threats=True)[0] == decoy  # immediate threats alone do not see it
    move, value = play(state, simulations, decoy, threats=True, vcf_nodes=100)
    assert move == at(1, 4) and value == 1.0


@pytest.mark.parametrize("simulations", [1, 2])
def test_a_forbidden_block_is_no_block_under_renju(simulations):
    state = state_from(FORBIDDEN_BLOCK, rule="renju", to_move=2)
    block, four = at(7, 6, 15), at(6, 7, 15)
    assert forbidden_mask(state.board.reshape(15, 15)).ravel()[block], "the drawing should make g8 a double-three"
    assert play(state, simulations, 0, threats=False)[0] == 0
    move, value = play(state, simulations, 0, threats=True, vcf_nodes=100)
    assert move == four and value == 1.0
    # After h9, black cannot stop the five: the threat check calls the position lost for black.
    state.play(four)
    blocks = np.zeros(225, dtype=np.int64)
    status, _, count = leaf_threats(state.board.copy(), state.game.rules_array(), 1, state.legal_mask(), 0, blocks)
    assert status == CANNOT_BLOCK and count == 0


def test_leaf_threats_statuses_and_blocks():
    rules = MNKGame(9, 5, "freestyle").rules_array()
    blocks = np.zeros(81, dtype=np.int64)
    cases = [(FOUR_TO_BLOCK, 1, (MUST_BLOCK, -1, 1)), (WIN_BESIDE_A_BLOCK, 1, (WIN_NOW, at(3, 1), 0)),
             (VCF_IN_THREE, 1, (WIN_BY_FOURS, at(1, 4), 0))]  # fmt: skip
    for text, color, expected in cases:
        state = state_from(text, to_move=color)
        board = state.board.copy()
        assert leaf_threats(board, rules, color, state.legal_mask(), 100, blocks) == expected
        assert (board == state.board).all()
    state = state_from(FOUR_TO_BLOCK)
    leaf_threats(state.board.copy(), rules, 1, state.legal_mask(), 0, blocks)
    assert blocks[0] == at(2, 6)


def test_a_lost_root_still_offers_its_blocks():
    # White has two fours (g7 and e3 both win): black, to move, is lost, and the search says so, but plays a block.
    state = state_from("""
        . . . . . . . . .
        . . . . . . . . .
        . X O O O O . . .
        . . . . . . . . .
        . . . . X . . . .
        . X . . . X . . .
        O O O O . . X . .
        X . . . . . . . .
        . . . . . . X . .
    """, to_move=1)  # fmt: skip
    forest = PUCTForest(1, state.game, 1 + 50 * 81, threats=True)
    forest.set_root(0, state)
    forest.search(20, decoyed(81, at(7, 2)))
    assert forest.proven_values()[0] == -1.0
    moves, _, _, _, outcomes = forest.root_children(0)
    assert sorted(moves) == [at(2, 6), at(6, 4)] and (outcomes == LOST).all()
    assert set(np.flatnonzero(forest.root_policy()[0])) <= {at(2, 6), at(6, 4)}


@pytest.mark.parametrize("n,k", [(3, 3), (4, 3)])
@pytest.mark.parametrize("forest_class,vcf_nodes", [(PUCTForest, 0), (PUCTForest, 50), (ProtocolForest, 0)])
def test_proofs_agree_with_the_exact_solver(n, k, forest_class, vcf_nodes):
    """Every proven root and root child of random positions has the solver's value; proven wins are played."""
    game = MNKGame(n, k)
    solver = Solver(game)
    rng = np.random.default_rng(n * 10 + vcf_nodes)
    states = []
    while len(states) < 30:
        state = game.new_state()
        for _ in range(rng.integers(0, n * n - 2)):
            if not state.terminal:
                state.play(int(rng.choice(state.legal_actions())))
        if not state.terminal:
            states.append(state)
    forest = forest_class(len(states), game, 1 + 2001 * n * n, threats=True, vcf_nodes=vcf_nodes)
    forest.set_roots(states)
    forest.search(2000, lambda f, leaves: (np.ones((len(leaves), n * n)), np.zeros(len(leaves))))
    values, policy = forest.proven_values(), forest.root_policy()
    proven = 0
    for b, state in enumerate(states):
        truth = solver.action_values(state)
        moves, _, _, _, outcomes = forest.root_children(b)
        for move, outcome in zip(moves, outcomes):
            if outcome in (WON, LOST, DRAWN):
                assert truth[move] == {WON: 1, LOST: -1, DRAWN: 0}[outcome], (state, move)
        if not np.isnan(values[b]):
            proven += 1
            assert values[b] == solver.value(state), state
            if values[b] == 1:
                assert truth[np.argmax(policy[b])] == 1
            else:
                assert truth[np.flatnonzero(policy[b])].max() == values[b]  # no proven loss played for nothing
    assert proven >= len(states) // 2


def test_a_plain_forest_is_unchanged_by_the_new_outputs():
    state = state_from(FOUR_TO_BLOCK)
    forest = PUCTForest(1, state.game, 1 + 31 * 81)
    forest.set_root(0, state)
    forest.search(30, decoyed(81, at(7, 2)))
    visits = forest.root_visits()[0]
    assert visits.sum() == 30 and np.isnan(forest.proven_values()[0])
    assert np.allclose(forest.root_policy()[0], visits / 30)


def test_threat_options_are_checked():
    game = MNKGame(9, 5)
    with pytest.raises(ValueError, match="needs threats=True"):
        PUCTForest(1, game, 100, vcf_nodes=10)
    with pytest.raises(ValueError, match="vcf_nodes must be a non-negative integer"):
        PUCTForest(1, game, 100, threats=True, vcf_nodes=-1)
    with pytest.raises(TypeError, match="threats must be True or False"):
        ProtocolForest(1, ConnectFourGame(), threats="yes")


def test_protocol_forest_wins_blocks_and_proves():
    game = ConnectFourGame()
    # Columns a-g; red (first player) has three in column d and yellow three in column a; red to move wins at d.
    state = game.new_state()
    for column in (3, 0, 3, 0, 3, 0):
        state.play(column)
    forest = ProtocolForest(1, game, threats=True)
    forest.set_root(0, state)
    forest.search(1, decoyed(7, 5))
    assert np.argmax(forest.root_policy()[0]) == 3 and forest.proven_values()[0] == 1.0
    # One move earlier, yellow to move must block at d (its own three in a needs one more move).
    state = game.new_state()
    for column in (3, 0, 3, 0, 3):
        state.play(column)
    for threats, expected in ((False, 5), (True, 3)):
        forest = ProtocolForest(1, game, threats=threats)
        forest.set_root(0, state)
        forest.search(2, decoyed(7, 5))
        assert np.argmax(forest.root_policy()[0]) == expected


def test_a_decided_root_stops_the_search():
    """A forced block (one child left) or a proven root needs no more simulations: the evaluator is called
    for the root alone, or not at all."""
    calls = []

    def evaluate(forest, leaves):
        calls.append(len(leaves))
        return decoyed(81, at(7, 2))(forest, leaves)

    for text, to_move, expected_calls in ((FOUR_TO_BLOCK, None, [1]), (WIN_BESIDE_A_BLOCK, 1, [])):
        calls.clear()
        state = state_from(text, to_move=to_move)
        forest = PUCTForest(1, state.game, 1 + 51 * 81, threats=True)
        forest.set_root(0, state)
        forest.search(50, evaluate)
        assert calls == expected_calls
