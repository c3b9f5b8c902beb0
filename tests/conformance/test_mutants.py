"""The kit catches broken rules: games broken on purpose fail its checks, the right game passes them.

Each mutant is a test game with one rule broken, as a slip in a game's code would
break it, and each must fail the kit's checks (tests/conformance/checks.py) where
that slip shows. Dots and boxes (tests/games/dots_and_boxes.py): a winner inverted
(consistent with itself, so only the author's known positions can tell), an extra
turn missing (likewise), a clone that shares its scores list (the full state
check). Keep apart (tests/games/keep_apart.py), a game with a pass: the pass
forgotten (a player with no move ends the game), a turn skipped without one, draws
given to the second player (each caught by known positions the kit insists on,
and named in one line when they are missing), and a symmetry declared that moves
the start. The checks are the functions the kit's tests run on every game.
"""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs.games.protocol import FIRST, SECOND
from conformance import checks
from conformance.checks import check_policy_game, run_rule_checks
from conformance.known_positions import KNOWN, Known
from conformance.limits import time_limit
from games.dots_and_boxes import DotsAndBoxesGame, DotsAndBoxesState
from games.keep_apart import KeepApartGame, KeepApartState, square_symmetries

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


# Keep apart (tests/games/keep_apart.py): a pass that is forced where a player has no open cell, two passes running
# end the game, equal stones draw, and four symmetries (of the square's eight) keep its start. Each mutant breaks
# one of these as a slip in a game's code would; each fails the kit in one line that says what broke.
KEEP = KNOWN["keep_apart"]


class ForgetsThePassState(KeepApartState):
    def play(self, action):
        super().play(action)
        if not self.terminal and not self.open_cells(self.to_move).any():
            self.finish()  # the slip: a player with no cell ends the game instead of passing


class SkipsATurnState(KeepApartState):
    def play(self, action):
        super().play(action)
        if not self.terminal and not self.open_cells(self.to_move).any():
            if self.open_cells(FIRST + SECOND - self.to_move).any():
                self.to_move = FIRST + SECOND - self.to_move  # the slip: the turn passes silently, no pass played
            else:
                self.finish()


class DrawsToTheSecondState(KeepApartState):
    def finish(self):
        super().finish()
        if self.winner == 0:
            self.winner = SECOND  # the slip: an equal count goes to white (the returns follow the winner)


def keep_apart_mutant(state_class):
    class Mutant(KeepApartGame):
        def new_state(self):
            return state_class(self)

    return Mutant(4)  # the small board: the kit's generic checks are cheap there, and the slips show the same


class AllEightSymmetries(KeepApartGame):
    """The slip: the square's eight symmetries declared, though four of them swap the colours of the start."""

    def cell_symmetries(self):
        return square_symmetries(self.size)

    def symmetries(self):
        return [np.append(perm, self.pass_action) for perm in self.cell_symmetries()]


def keep_apart_failures(game, known=KEEP):
    return {name: failure for name, failure in run_rule_checks(game, known).items() if failure is not None}


def test_keep_apart_passes_every_check():
    assert keep_apart_failures(KeepApartGame(4)) == {}


@pytest.mark.parametrize("game, says", [
    (keep_apart_mutant(ForgetsThePassState), "keep_apart, size=4, after 'b1 d4 a2 a4 a1 d1' (every empty cell touches "
                                             "a white stone: black must pass): the game ended ((0.0, 0.0)), but it "
                                             "should go on"),
    (keep_apart_mutant(SkipsATurnState), "keep_apart, size=4, after 'b1 d4 a2 a4 a1 d1' (every empty cell touches a "
                                         "white stone: black must pass): player 2 is to move, not 1"),
    (keep_apart_mutant(DrawsToTheSecondState), "keep_apart, size=4, after 'b1 b4 d3 a3 a1 d1 d4 a4 pass pass' (6 "
                                               "stones each: a draw): returns (-1.0, 1.0), not (0.0, 0.0)"),
], ids=["forgets the pass", "skips a turn", "gives draws to the second player"])  # fmt: skip
def test_a_broken_pass_or_outcome_fails_the_known_positions_in_one_line(game, says):
    failed = keep_apart_failures(game)
    assert failed == {"known positions": says}


@pytest.mark.parametrize("state_class", [ForgetsThePassState, SkipsATurnState, DrawsToTheSecondState],
                         ids=["forgets the pass", "skips a turn", "gives draws to the second player"])  # fmt: skip
def test_without_positions_that_show_a_pass_the_kit_asks_for_them(state_class):
    """The minimum every game gives (a finished game, a player to move) passes these mutants; the kit asks for more."""
    minimum = [Known("", to_move=1), Known("a1 a2 b1 b2 c1", outcome=(1.0, -1.0), parameters={"size": 4})]
    failed = keep_apart_failures(keep_apart_mutant(state_class), minimum)
    assert failed == {"known positions": "keep_apart: pass is an action that is no cell: give a known position where "
                                         "it is forced (legal='pass') and one where it is illegal (illegal='pass') in "
                                         "tests/conformance/known_positions.py (a forgotten or silent pass shows only "
                                         "there)"}  # fmt: skip


def test_a_symmetry_that_moves_the_start_fails_naming_it():
    failed = keep_apart_failures(AllEightSymmetries(4))
    assert failed == {"symmetries": "keep_apart: symmetry 1 of 8: it takes a4 to a1, which does not keep the start "
                                    "position (its legal moves or planes move); declare only the symmetries that map "
                                    "the start onto itself (docs/games.md, Symmetries)"}  # fmt: skip


class NeverDecides(KeepApartGame):
    """A game whose legal moves never come: the kind of broken game only the time limit stops."""

    def new_state(self):
        state = super().new_state()
        while True:
            state.clone()


def test_a_game_that_hangs_fails_at_the_time_limit_in_one_line():
    with pytest.raises(pytest.fail.Exception) as failed:
        with time_limit(0.3, "checking keep apart"):
            run_rule_checks(NeverDecides(4), KEEP)
    assert str(failed.value) == ("checking keep apart ran past the kit's time limit of 0.3 s: a game that never "
                                 "ends, or a search that never returns?")  # fmt: skip


class PassesForeverState(KeepApartState):
    def play(self, action):
        super().play(action)
        if self.terminal and self.passes >= 2:
            self.terminal, self.winner = False, 0  # the slip: two passes running do not end the game


def test_a_game_that_never_ends_fails_each_check_that_plays_it_in_one_line(monkeypatch):
    monkeypatch.setattr(checks, "MAX_PLIES", 400)  # the kit's 10,000, made cheap for the test
    failed = keep_apart_failures(keep_apart_mutant(PassesForeverState))
    endless = ("keep_apart: a game went on past 400 plies of random moves without ending; a rule that ends it (two "
               "passes running, a full board) is missing")  # fmt: skip
    assert {name for name, said in failed.items() if said == endless} == {
        "symmetries", "illegal moves", "outcomes", "clones", "searches leave the state alone"}  # fmt: skip
    assert failed["known positions"] == ("keep_apart: the kit's exact search finds a game that does not end (a line "
                                         "goes past 200 plies)")  # fmt: skip
