"""The built-in policies under opening rules: each phase's decision, worked by hand with a value drawn as weights."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs import gomoku_v0
from boardgame_envs.games.mnk import MNKGame
from boardgame_envs.games.notation import parse_point
from boardgame_envs.games.opening_game import OpeningRuleGame
from boardgame_envs.policies import RandomPolicy, make_policy
from boardgame_envs.policies.generic import alphabeta_scores
from boardgame_envs.policies.opening_phase import decide, scores


def weighted(weights: dict[str, float], offset: float = 0.0, n: int = 9):
    """A value: black's stones count their weight, white's the opposite, plus ``offset``, all for black."""
    table = np.zeros(n * n)
    for name, w in weights.items():
        table[parse_point(name, n)] = w

    def value(base) -> float:
        v_black = table[base.board == 1].sum() - table[base.board == 2].sum() + offset
        return v_black if base.to_move == 1 else -v_black

    return value


def at(opening: str, moves: str, rule: str = "renju", n: int = 9):
    game = OpeningRuleGame(MNKGame(n, 5, rule), opening)
    return game.state_after(moves.split())


def name(state, action: int) -> str:
    return state.game.action_name(action)


RNG = np.random.default_rng(0)


@pytest.mark.parametrize(("weights", "decision"), [({"e4": 0.5}, "swap"), ({"e6": 0.5}, "keep")])
def test_a_swap_takes_the_better_colour(weights, decision):
    state = at("soosorv8", "e5 e6 e4")  # the second player, white, may swap
    assert name(state, decide(state, weighted(weights), RNG)) == decision


def test_offers_are_the_best_for_black_none_symmetric_and_white_takes_the_worst():
    # Black e4 e5, white e6 e7: d3 and f3 are mirror images, worth the same; d6 comes next.
    state = at("soosorv8", "e5 e6 e4 keep e7 offers=2 keep")
    value = weighted({"d3": 0.9, "f3": 0.9, "d6": 0.5, "c5": 0.1})
    cache: dict = {}
    for _ in range(2):
        state.play(decide(state, value, RNG, cache))
    offered = {name(state, a) for a in state.offers}
    assert offered in ({"d3", "d6"}, {"f3", "d6"})
    assert state.phase == "choose" and name(state, decide(state, value, RNG, cache)) == "d6"


def test_the_declared_number_makes_the_kth_fifth_move_most_even():
    state = at("soosorv8", "e5 e6 e4 keep e7")  # white declares; black may swap afterwards
    # Fifth moves for black: d3 (or f3) 0.8, d6 0.4, c5 -0.08, every other -0.1: the 3rd is the most even.
    value = weighted({"d3": 0.9, "f3": 0.9, "d6": 0.5, "c5": 0.02}, offset=-0.1)
    assert name(state, decide(state, value, RNG)) == "offers=3"
    state.play(state.game.parse_action("offers=3"))
    # Black, to swap or not, weighs what it keeps after its offers: the 3rd best fifth move, -0.08: it swaps.
    assert name(state, decide(state, value, RNG)) == "swap"


@pytest.mark.parametrize(("offset", "decision"), [(0.5, "offers=10"), (-0.5, "swap")])
def test_taraguchi_black_offers_only_while_the_nth_fifth_move_still_favours_it(offset, decision):
    state = at("taraguchi10", "e5 keep e6 keep e4 keep e7")
    assert state.phase == "choice"
    assert name(state, decide(state, weighted({}, offset), RNG)) == decision
    assert scores(state, weighted({}, offset))[state.game.parse_action("keep")] < 0  # never keep


def test_a_stone_that_may_be_taken_over_leaves_the_position_even():
    state = at("soosorv8", "e5")  # the first player lays white's stone within 3x3; a swap comes after
    value = weighted({"e5": 0.2, "d6": 0.2})  # white at d6 cancels black's e5; elsewhere black keeps 0.2
    assert name(state, decide(state, value, RNG)) == "d6"


def test_a_stone_no_swap_follows_is_the_policy_move_in_play():
    state = at("rif", "e5 e6 e4 keep")  # white's 4th: black offers and white chooses, no swap
    a1 = state.game.parse_action("a1")
    assert decide(state, weighted({}), RNG, search=lambda base: a1) == a1


@pytest.mark.parametrize(("offset", "decision"), [(0.3, "black"), (-0.3, "white")])
def test_swap2_takes_the_better_colour(offset, decision):
    state = at("swap2", "e5 e6 f5", rule="freestyle")
    assert name(state, decide(state, weighted({}, offset), RNG)) == decision
    state = at("swap2", "e5 e6 f5 more d4 g7", rule="freestyle")
    assert state.phase == "colour" and name(state, decide(state, weighted({}, offset), RNG)) == decision


def test_random_is_uniform_over_the_mask():
    state = at("soosorv8", "e5")
    policy = RandomPolicy(seed=0)
    counts: dict[str, int] = {}
    for _ in range(800):
        move = name(state, policy.act(state))
        counts[move] = counts.get(move, 0) + 1
    assert set(counts) == {"d4", "d5", "d6", "e4", "e6", "f4", "f5", "f6"}  # the central 3x3, nothing else
    assert min(counts.values()) > 60
    swap = at("soosorv8", "e5 e6 e4")
    assert {name(swap, policy.act(swap)) for _ in range(50)} == {"swap", "keep"}


SPECS = ["greedy", "alphabeta:nodes=300", "mcts:simulations=40"]
RULES = [("renju", "soosorv8"), ("renju", "taraguchi10"), ("renju", "rif"), ("freestyle", "swap2")]


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize(("rule", "opening"), RULES)
def test_policies_play_whole_games_under_every_rule(spec, rule, opening):
    env = gomoku_v0.raw_env(board_size=9, rule=rule, opening_rule=opening)  # an illegal action would raise
    env.reset()
    players = {"player_0": make_policy(spec, seed=0), "player_1": make_policy(spec, seed=1)}
    phases = set()
    while not env.game_state.terminal:
        phases.add(env.game_state.phase)
        env.step(players[env.agent_selection].act(env))
    assert "play" in phases and len(phases) >= 3


@pytest.mark.parametrize("spec", ["greedy", "alphabeta:nodes=500"])
def test_after_the_opening_a_policy_plays_its_move_of_the_base_game(spec):
    state = at("soosorv8", "e5 e6 e4 keep e7 offers=1 keep d3 d3 b2")
    assert state.phase == "play"
    assert make_policy(spec, seed=3).act(state) == make_policy(spec, seed=3).act(state.base)


def test_search_and_move_scores_span_the_whole_action_space():
    opening = at("soosorv8", "e5 e6 e4")
    mcts = make_policy("mcts:simulations=30", seed=0)
    counts = mcts.search(opening)
    assert counts.shape == (opening.game.num_actions,) and counts.sum() == 1 and counts[81:83].sum() == 1
    play = at("soosorv8", "e5 e6 e4 keep e7 offers=1 keep d3 d3")
    counts = mcts.search(play)
    assert counts.shape == (play.game.num_actions,) and counts[81:].sum() == 0 and counts.sum() > 0
    alphabeta = make_policy("alphabeta:nodes=300", seed=0)
    with pytest.raises(ValueError, match="in its opening .*swap colours"):
        alphabeta.move_scores(opening)
    assert alphabeta.move_scores(play).shape == (play.game.num_actions,)


def test_the_protocol_alpha_beta_searches_opening_states_too():
    state = at("soosorv8", "e5 e6 e4")
    found, depth = alphabeta_scores(state, 2, 5_000)
    finite = {name(state, a) for a in np.flatnonzero(np.isfinite(found))}
    assert finite == {"swap", "keep"} and depth >= 1
