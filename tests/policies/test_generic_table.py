"""The protocol's alpha-beta keeps wins and losses in its table, counted from the node, and so solves small games.

Its table keeps a win or a loss as a distance from the node where it was found
(policies/generic.py, ``_to_table``), so a result found once serves at any ply
and in every later iteration; checked here against the conformance kit's exact
minimax (tests/conformance/exact.py), which owes nothing to the search: on
misère tic-tac-toe from every position (up to symmetry) at the default budget, on 2x2 dots and
boxes (extra turns, and a margin in the returns) from the empty board within a
stated number of nodes, and, where one position comes up at different plies
(a game with a pass), to the exact ply of every win and loss.
"""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs.policies import make_policy
from boardgame_envs.policies.alphabeta import DEFAULT_NODES
from boardgame_envs.policies.generic import MATE_BOUND, WIN_SCORE, alphabeta_scores
from conformance.exact import ExactValues
from games.dots_and_boxes import DotsAndBoxesGame
from games.misere_game import AvoidThreeGame, TwoStonesGame
from games.pass_game import PassGame


class RandomGame:
    """A random small game: positions 0..n-1, moves only to higher ones (so one position is met by paths of
    several lengths), a random player to move in each (turns need not alternate), random returns at the ends,
    margins among them."""

    name = family = "random_dag"
    shape = (1, 1)

    def __init__(self, seed: int, n: int = 40, width: int = 3) -> None:
        rng = np.random.default_rng(seed)
        self.num_actions = width
        self.to_move = rng.integers(1, 3, size=n)
        self.children: list[list[int]] = []
        self.returns = rng.choice([-1.0, -0.5, 0.0, 0.5, 1.0], size=n)
        for i in range(n):
            ahead = range(i + 1, min(n, i + 9))
            end = i >= n - 2 or (i > 3 and rng.random() < 0.25)
            self.children.append([] if end else [int(c) for c in rng.choice(ahead, min(len(ahead), width), replace=False)])

    def new_state(self) -> RandomState:
        return RandomState(self, 0)


class RandomState:
    def __init__(self, game: RandomGame, at: int) -> None:
        self.game, self.at = game, at
        self.terminal = not game.children[at]
        self.to_move = int(game.to_move[at])
        self.board = np.array([at], dtype=np.int64)

    def clone(self) -> RandomState:
        return RandomState(self.game, self.at)

    def legal_actions(self) -> np.ndarray:
        return np.arange(len(self.game.children[self.at]))

    def play(self, action: int) -> None:
        self.__init__(self.game, self.game.children[self.at][action])

    def returns(self) -> tuple[float, float]:
        r = float(self.game.returns[self.at])
        return r, -r


def up_to_symmetry(game, positions):
    """One position of each set of symmetric ones (a turned or mirrored position has the turned or mirrored values)."""
    seen, out = set(), []
    for state in positions:
        images = []
        for perm in game.symmetries():
            image = np.empty_like(state.board)
            image[perm] = state.board
            images.append(image.tobytes())
        if (min(images), state.to_move) not in seen:
            seen.add((min(images), state.to_move))
            out.append(state)
    return out


def proven(scores: np.ndarray, depth: int, plies_left: int) -> bool:
    """Whether the best score is settled: a win or a loss, or a search that reached the end of every line."""
    return abs(scores.max()) > MATE_BOUND or depth >= plies_left


@pytest.mark.parametrize("game", [AvoidThreeGame(), TwoStonesGame()], ids=lambda g: g.name)
def test_misere_tictactoe_is_solved_from_every_position_at_the_default_budget(game):
    exact = ExactValues()
    policy = make_policy("alphabeta", seed=0)  # the default budget
    assert policy.nodes == DEFAULT_NODES == 4000
    positions = up_to_symmetry(game, exact.positions(game))
    assert len(positions) == 627 and not positions[0].num_moves  # every live position up to symmetry, the start first
    wrong = []
    for state in positions:
        scores = policy.move_scores(state)
        truth = exact.move_values(state)
        best = int(np.argmax(scores))
        if not proven(scores, policy.last_depth, int((state.board == 0).sum())):
            wrong.append((state.board.tolist(), "not solved", policy.last_depth, scores.max()))
        elif np.sign(scores.max()) != exact.value(state) or truth[best] != exact.value(state):
            wrong.append((state.board.tolist(), "wrong", scores.max(), exact.value(state)))
    assert not wrong, (len(wrong), wrong[:3])


@pytest.mark.parametrize("scoring", ["win", "margin"])
def test_two_by_two_dots_and_boxes_is_solved_from_the_empty_board(scoring):
    """From the empty board within 8,000 nodes (7,180 and 7,575 measured; 304,048 and 2,732,699 before the table
    kept wins and losses), each best move's score exactly the plies-scored minimax, every other move bounded from
    above and below the best."""
    game = DotsAndBoxesGame(scoring=scoring)
    state = game.new_state()
    scores, depth = alphabeta_scores(state, 100, 8_000)
    assert depth >= game.num_actions  # reached the end of every line
    exact = ExactValues()
    truth = {}
    for action in map(int, state.legal_actions()):
        child = state.clone()
        child.play(action)
        sub = exact.ply_score(child, 1, WIN_SCORE)
        truth[action] = sub if child.to_move == state.to_move else -sub
    best = max(truth.values())
    assert scores.max() == best and best == {"win": WIN_SCORE - 12, "margin": WIN_SCORE / 2 - 12}[scoring]
    for action, value in truth.items():
        if value == best:
            assert scores[action] == best, action
        else:
            assert value <= scores[action] < best, (action, value, scores[action])


def test_a_win_found_at_one_ply_serves_at_another_with_its_own_distance():
    """In the pass game one position comes up at different plies (a pass by each side between the same
    stones); the table counts a win or a loss from its node, so every score keeps its exact ply."""
    game = PassGame()
    exact = ExactValues()
    rng = np.random.default_rng(0)
    checked = 0
    for seed in range(12):
        state = game.new_state()
        while not state.terminal:
            if state.num_moves >= 3:
                scores, _ = alphabeta_scores(state, 100, None)
                assert scores.max() == exact.ply_score(state, 0, WIN_SCORE), (state.board.tolist(), state.passes)
                checked += 1
            legal = state.legal_actions()
            state.play(int(legal[rng.integers(len(legal))]))
    assert checked > 30


def test_the_table_is_exact_on_random_games_where_positions_recur_at_other_plies():
    """A win or a loss reused at another ply keeps its own distance: with the table's scores counted from the root
    (not from their node), some of these games' scores come out a few plies off."""
    for seed in range(150):
        state, exact = RandomGame(seed).new_state(), ExactValues()
        scores, _ = alphabeta_scores(state, 100, None)
        assert scores.max() == exact.ply_score(state, 0, WIN_SCORE), seed
        assert round(scores.max() / WIN_SCORE, 1) == exact.value(state), seed  # the return: +-1, +-0.5 or 0


@pytest.mark.parametrize("scoring", ["win", "margin"])
def test_dots_and_boxes_values_are_exact_across_the_game(scoring):
    """Every 80th live 2x2 position (extra turns, margins): the best score's return is the exact value."""
    game = DotsAndBoxesGame(scoring=scoring)
    exact = ExactValues()
    for state in exact.positions(game)[::80]:
        scores, _ = alphabeta_scores(state, 100, None)
        assert scores.max() == exact.ply_score(state, 0, WIN_SCORE)
        assert round(scores.max() / WIN_SCORE, 2) == exact.value(state)
