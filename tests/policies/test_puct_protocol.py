"""The protocol's PUCT forest searches exactly as the numba one: same visits on the same positions and evaluator;
under an opening rule, where a player may act twice in a row, values and proofs keep their signs."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs.games.connect_four import ConnectFourGame
from boardgame_envs.games.lines import BLACK
from boardgame_envs.games.mnk import MNKGame
from boardgame_envs.games.opening_game import OpeningRuleGame
from boardgame_envs.policies.puct import LOST, WON, PUCTForest
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
    priors = forest.root_children(0)[3]
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


# ---------------------------------------------------------------- turns that do not alternate: opening rules
def swap2_state(actions: str, size: int = 9, k: int = 4):
    """A freestyle Swap2 position after ``actions`` (names, as players write them)."""
    return OpeningRuleGame(MNKGame(size, k, "freestyle"), "swap2").state_after(actions.split())


def black_is_better(forest, leaves):
    """Uniform priors; the value is +0.5 for the player to move when that player holds black, else -0.5."""
    states = [forest.leaf_states[b] for b in leaves]
    priors = np.stack([s.legal_mask() for s in states]).astype(float)
    values = np.array([0.5 if s.color_of(s.to_move) == BLACK else -0.5 for s in states])
    return priors / priors.sum(axis=1, keepdims=True), values


def test_a_player_acting_twice_keeps_the_sign_of_its_values():
    """Swap2's first player lays three stones in a row while holding black: every value it meets is +0.5 for
    it (a search negating at every ply would see -0.5). At the second player's choice, black's positions are
    worth +0.5 to the one who took black and white's -0.5 to the one who took white."""
    forest = ProtocolForest(1, swap2_state("").game)
    forest.set_root(0, swap2_state(""))
    forest.search(40, black_is_better)
    moves, visits, value_sums, *_ = forest.root_children(0)
    seen = visits > 0
    assert seen.sum() >= 30 and np.allclose(value_sums[seen] / visits[seen], 0.5)
    assert forest.root_mean_value(0) == pytest.approx(0.5)

    state = swap2_state("e5 a1 e6")  # the second player takes black, takes white, or says more
    forest.set_root(0, state)
    forest.search(60, black_is_better)
    moves, visits, value_sums, *_ = forest.root_children(0)
    q = {state.game.action_name(int(m)): s / v for m, v, s in zip(moves, visits, value_sums)}
    assert q["black"] == pytest.approx(0.5) and q["white"] == pytest.approx(-0.5)
    assert state.game.action_name(int(np.argmax(forest.root_policy()[0]))) == "black"


def test_a_proof_crosses_the_colour_choice():
    """k = 4 on 9x9 under Swap2: after `more`, black's d5 e5 f5 is an open three, so whoever takes white
    cannot stop both c5 and g5. The first player's choice is proven: taking black wins; having taken white,
    the same player is to move and loses (the threat check of normal play, and proofs backed up to a
    player who is not the opponent of the one before)."""
    state = swap2_state("d5 a1 e5 more a9 f5")
    assert state.phase == "colour" and state.to_move == 1
    game = state.game
    flat = lambda f, leaves: (np.ones((len(leaves), game.num_actions)), np.zeros(len(leaves)))
    forest = ProtocolForest(1, game, threats=True)
    forest.set_root(0, state)
    forest.search(4, flat)
    moves, _, _, _, outcomes = forest.root_children(0)
    assert {game.action_name(int(m)) for m in moves[outcomes == WON]} == {"black"}
    assert forest.proven_values()[0] == 1.0
    assert game.action_name(int(np.argmax(forest.root_policy()[0]))) == "black"

    state.play(game.parse_action("white"))
    assert state.to_move == 1 and not state.in_opening  # the first player again, now with white
    forest.set_root(0, state)
    forest.search(4, flat)
    moves, _, _, _, outcomes = forest.root_children(0)
    assert sorted(game.action_name(int(m)) for m in moves) == ["c5", "g5"] and (outcomes == LOST).all()
    assert forest.proven_values()[0] == -1.0


def test_opening_states_are_searched_alike_with_and_without_threats():
    """No threat exists during an opening: the threat check leaves its positions alone."""
    state = swap2_state("", size=9, k=5)
    visits = []
    for threats in (False, True):
        forest = ProtocolForest(1, state.game, threats=threats)
        forest.set_root(0, state)
        forest.search(120, protocol_opening_evaluate)
        visits.append(forest.root_visits()[0])
    assert (visits[0] == visits[1]).all()


def protocol_opening_evaluate(forest, leaves):
    out = [scores(s.base.board, s.base.to_move, s.base.legal_mask()) for s in (forest.leaf_states[b] for b in leaves)]
    priors = np.zeros((len(leaves), forest.game.num_actions))
    priors[:, : forest.game.points] = [p for p, _ in out]
    priors[:, forest.game.points:] = 1.0 / forest.game.num_actions
    priors *= np.stack([forest.leaf_states[b].legal_mask() for b in leaves])
    return priors, np.array([v for _, v in out])


@pytest.mark.parametrize("vcf_nodes", [0, 30])
def test_normal_play_under_an_opening_rule_is_searched_as_the_numba_forest_searches_the_base_game(vcf_nodes):
    """Past the opening, threats and proofs included: the same visits as the numba forest on the base position."""
    rng = np.random.default_rng(vcf_nodes)
    states = []
    while len(states) < 6:
        state = swap2_state("", size=9, k=5)
        for _ in range(int(rng.integers(10, 24))):
            if not state.terminal:
                state.play(int(rng.choice(state.legal_actions())))
        if not state.terminal and not state.in_opening:
            states.append(state)
    base = states[0].game.base
    fast = PUCTForest(len(states), base, 1 + 201 * 81, threats=True, vcf_nodes=vcf_nodes)
    slow = ProtocolForest(len(states), states[0].game, threats=True, vcf_nodes=vcf_nodes)
    fast.set_roots([s.base for s in states])
    slow.set_roots(states)
    fast.search(200, numba_evaluate)
    slow.search(200, protocol_opening_evaluate)
    assert (fast.root_visits() == slow.root_visits()[:, :81]).all()
    assert np.array_equal(fast.proven_values(), slow.proven_values(), equal_nan=True)
