"""The kit catches broken rules: games broken on purpose fail its checks, the right game passes them.

Each mutant is the dots-and-boxes test game (tests/games/dots_and_boxes.py) with
one rule broken, as a slip in a game's code would break it, and each must fail the
kit's checks (tests/conformance/checks.py) where that slip shows: a winner
inverted (consistent with itself, so only the author's known positions can tell),
an extra turn missing (likewise), a clone that shares its scores list (the full
state check). The checks are the functions the kit's tests run on every game.
"""

from __future__ import annotations

import pytest

from boardgame_envs.games.protocol import FIRST, SECOND
from conformance.checks import check_policy_game, run_rule_checks
from conformance.known_positions import KNOWN
from games.dots_and_boxes import DotsAndBoxesGame, DotsAndBoxesState

DOTS = KNOWN["dots_and_boxes"]


class InvertedWinnerState(DotsAndBoxesState):
    def play(self, action):
        super().play(action)
        if self.terminal and self.winner:
            self.winner = FIRST + SECOND - self.winner  # the player with fewer boxes wins; returns follow winner


class NoExtraTurnState(DotsAndBoxesState):
    def play(self, action):
        mover = self.to_move
        super().play(action)
        if not self.terminal and self.to_move == mover:
            self.to_move = FIRST + SECOND - mover  # closing a box no longer earns another line


class SharedScoresState(DotsAndBoxesState):
    def clone(self):
        other = super().clone()
        other.scores = self.scores  # the slip: the clone's scores are the original's list
        return other


def mutant(state_class):
    class Mutant(DotsAndBoxesGame):
        def new_state(self):
            return state_class(self)

    return Mutant()


def failures(game):
    return {name for name, failure in run_rule_checks(game, DOTS).items() if failure is not None}


def test_the_right_game_passes_every_check():
    assert failures(DotsAndBoxesGame()) == set()


@pytest.mark.parametrize("state_class, caught_by", [
    (InvertedWinnerState, {"known positions"}),
    (NoExtraTurnState, {"known positions"}),
    (SharedScoresState, {"clones", "searches leave the state alone"}),
], ids=["inverted winner", "no extra turn", "shared scores list"])  # fmt: skip
def test_a_broken_rule_fails_the_kit(state_class, caught_by):
    failed = failures(mutant(state_class))
    assert caught_by <= failed, failed


def test_the_known_positions_say_what_broke():
    said = run_rule_checks(mutant(InvertedWinnerState), DOTS)["known positions"]
    assert "returns (1.0, -1.0), not (-1.0, 1.0)" in said
    said = run_rule_checks(mutant(NoExtraTurnState), DOTS)["known positions"]
    assert "player 1 is to move, not 2" in said
    said = run_rule_checks(mutant(SharedScoresState), DOTS)["clones"]
    assert said.startswith("playing on its clone changed the state it was handed: scores: [")


def test_a_search_that_rewrites_the_handed_state_fails_the_policy_check():
    """The policies' check compares every field before and after act: MCTS on a clone that shares the scores list
    rewrites the handed state's scores, as it did before the kit compared every field."""
    with pytest.raises(AssertionError, match=r"mcts\.act changed the state it was handed: scores: \[0, 0\] -> "):
        check_policy_game(_mcts(), mutant(SharedScoresState), FIRST, seed=0)
    assert check_policy_game(_mcts(), DotsAndBoxesGame(), FIRST, seed=0) > 0


def _mcts():
    from boardgame_envs.policies import make_policy

    return make_policy("mcts:simulations=60", seed=0)
