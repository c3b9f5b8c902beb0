"""The searches over the Game/State protocol (policies/generic.py), on connect four positions drawn by hand."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs.games.connect_four import ConnectFourGame
from boardgame_envs.policies import make_policy
from boardgame_envs.policies.generic import LOSS, WIN, WIN_SCORE, alphabeta_scores, greedy_scores, mcts

SEARCHERS = ["greedy", "mcts:simulations=300", "uct:playouts=2000", "alphabeta:nodes=2000"]


def played(moves: str):
    state = ConnectFourGame().new_state()
    for name in moves.split():
        state.play(state.game.parse_action(name))
    return state


# The bottom four rows.
# X to move, three in column a:      O to move, X threatens a4:
#   . . . . . . .  <- a4 wins          . . . . . . .  <- O must take a4
#   X . . . . . .                      X . . . . . .
#   X O . . . . .                      X O . . . . .
#   X O O . . . .                      X O . . . . .
WIN_NOW = "a b a b a c"
BLOCK_NOW = "a b a b a"


@pytest.mark.parametrize("spec", SEARCHERS)
def test_every_search_takes_a_win_and_blocks_a_threat(spec):
    assert make_policy(spec, seed=0).act(played(WIN_NOW)) == 0
    assert make_policy(spec, seed=0).act(played(BLOCK_NOW)) == 0


@pytest.mark.parametrize("spec", SEARCHERS)
def test_the_same_seed_plays_the_same_game(spec):
    def game(seed):
        state, moves = ConnectFourGame().new_state(), []
        players = [make_policy(spec, seed=seed), make_policy("random", seed=seed)]
        while not state.terminal:
            moves.append(players[state.num_moves % 2].act(state.clone()))
            state.play(moves[-1])
        return moves

    assert game(3) == game(3)


def test_mcts_solver_proves_the_win_and_the_losses():
    visits, proofs = mcts(played(WIN_NOW), 200, 1.4, np.random.default_rng(0))
    assert proofs[0] == WIN
    visits, proofs = mcts(played(BLOCK_NOW), 2000, 1.4, np.random.default_rng(0))
    assert all(proofs[a] == LOSS for a in range(1, 7))  # every move but the block lets X win at once
    assert proofs[0] != LOSS


def test_alphabeta_scores_wins_and_losses_by_distance():
    scores, depth = alphabeta_scores(played(WIN_NOW), 4, None)
    assert scores[0] == WIN_SCORE - 1 and depth == 1  # decided at depth 1
    scores, _ = alphabeta_scores(played(BLOCK_NOW), 3, None)
    assert all(scores[a] == -(WIN_SCORE - 2) for a in range(1, 7)) and scores[0] > -(WIN_SCORE - 3)


def test_greedy_scores_say_win_block_or_blunder():
    scores = greedy_scores(played(WIN_NOW))
    assert scores[0] == 2.0
    scores = greedy_scores(played(BLOCK_NOW))
    assert scores[0] > -1 and all(scores[a] == -1.5 for a in range(1, 7))
    full = played("c c c c c c")
    assert greedy_scores(full)[2] == -np.inf  # a full column is no move


def test_a_time_limit_needs_the_mnk_kernels():
    state = played("d")
    with pytest.raises(ValueError, match="connect_four: alpha-beta with a time limit"):
        make_policy("alphabeta:time_limit=0.1").act(state)
    with pytest.raises(ValueError, match="connect_four: MCTS with an evaluator or a time limit"):
        make_policy("mcts:simulations=None,time_limit=0.1").act(state)


def test_stronger_budgets_beat_weaker_ones():
    """A sanity check of the ladder's order on connect four: 6 games, colours alternating."""
    def score(a, b, games=6):
        total = 0.0
        for i in range(games):
            state = ConnectFourGame().new_state()
            players = [make_policy(a, seed=i), make_policy(b, seed=100 + i)]
            first = i % 2
            while not state.terminal:
                state.play(players[(state.num_moves + first) % 2].act(state.clone()))
            mover_a = 1 if first == 0 else 2
            total += 0.5 if state.winner == 0 else float(state.winner == mover_a)
        return total / games

    assert score("greedy", "random") >= 5 / 6
    assert score("mcts:simulations=500", "greedy") >= 4 / 6


def test_alphabeta_stops_deepening_once_every_move_is_lost():
    """O to move with a full column, facing two threats it cannot both stop: every legal move is a proven loss."""
    # Column g is full; X holds b1 c1 d1 with a1 and e1 both open.
    state = played("g g g g g g b f c f d")
    assert not state.legal_mask()[6] and not state.terminal and state.to_move == 2
    scores, depth = alphabeta_scores(state, 8, None)
    legal = scores[state.legal_mask()]
    assert (legal <= -(WIN_SCORE - 2)).all() and depth == 2
