"""baselines/connect_four_openings.py: the shipped set is the script's order, and its bounded search agrees with a
plain negamax over the package's own connect four rules."""

from __future__ import annotations

import numpy as np
import pytest

from baseline_scripts import load_baseline
from boardgame_envs.games import opening_positions
from boardgame_envs.games.connect_four import ConnectFourGame


@pytest.fixture(scope="module")
def script():
    return load_baseline("connect_four_openings")


def test_the_shipped_set_is_the_scripts_49_starts_in_its_order(script):
    assert [o.moves for o in opening_positions.load("connect_four_2ply")] == script.openings()
    assert len(set(script.openings())) == 49


def _oracle(state, depth: int) -> int:
    """+1 if the side to move forces a win within ``depth`` plies, -1 if the opponent does, else 0; no cuts."""
    if depth == 0 or state.terminal:
        return 0
    mover, best = state.to_move, -1
    for action in state.legal_actions():
        child = state.clone()
        child.play(int(action))
        if child.terminal:
            value = 1 if child.winner == mover else 0
        else:
            value = -_oracle(child, depth - 1)
        best = max(best, value)
    return best


def test_hand_drawn_positions(script):
    # Bottom rows, red X to move (c1 d1; yellow O on g1 g2):
    #   . . . . . . O
    #   . . X X . . O     e1 makes b1 and f1 threats: a win in 3 plies, none in 2
    assert script.value((2, 6, 3, 6), 3)[0] == 1 and script.value((2, 6, 3, 6), 2)[0] == 0
    # Yellow to move against red's b1 c1 d1 (yellow on g1 g2): a1 and e1 cannot both be blocked
    assert script.value((1, 6, 2, 6, 3), 2)[0] == -1 and script.value((1, 6, 2, 6, 3), 1)[0] == 0


def test_agrees_with_a_plain_negamax_on_random_positions(script):
    rng = np.random.default_rng(0)
    game = ConnectFourGame()
    checked = 0
    while checked < 24:
        state, moves = game.new_state(), []
        for _ in range(int(rng.integers(6, 22))):
            legal = state.legal_actions()
            moves.append(int(legal[rng.integers(len(legal))]))
            state.play(moves[-1])
            if state.terminal:
                break
        if state.terminal:
            continue
        for depth in (1, 2, 3, 4):
            assert script.value(tuple(moves), depth)[0] == _oracle(state, depth), (moves, depth)
        checked += 1
