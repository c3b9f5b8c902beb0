"""Every game's rules keep the protocol's promises: symmetries map legal moves to legal moves and planes to
planes, an illegal move raises and changes nothing, a finished game reports its outcome by its returns."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs.games.protocol import IllegalMoveError, State, cell_symmetries, check_action, returns_of
from conformance.cases import ALL, case_fixture

NOT_ACTIONS = [-1, 10**6, True, 1.5, None, "3"]


case = pytest.fixture(params=ALL, ids=lambda case: case.id)(case_fixture)


def random_game(game, seed):
    """The states of one uniformly random game, the start and the end included."""
    rng = np.random.default_rng(seed)
    state, states = game.new_state(), []
    while True:
        states.append(state.clone())
        if state.terminal:
            return states
        state.play(int(rng.choice(state.legal_actions())))


def snapshot(state):
    return (state.board.tobytes(), state.to_move, state.num_moves, state.last_move, state.terminal, state.winner,
            state.legal_mask().tobytes(), state.planes(1).tobytes(), state.planes(2).tobytes(), tuple(state.returns()))


def test_symmetries_map_legal_masks_and_planes(case):
    game = case.game()
    actions, cells = list(game.symmetries()), list(cell_symmetries(game))
    assert len(actions) == len(cells) >= 1
    np.testing.assert_array_equal(actions[0], np.arange(game.num_actions))  # the identity first
    for perm in actions:
        assert sorted(perm.tolist()) == list(range(game.num_actions))
    rng = np.random.default_rng(0)
    for seed in (0, 1):
        images = [game.new_state() for _ in actions]
        state = game.new_state()
        while not state.terminal:
            action = int(rng.choice(state.legal_actions()))
            state.play(action)
            for image, perm in zip(images, actions):
                image.play(int(perm[action]))  # the same game, seen through the symmetry
            mask, planes = state.legal_mask(), state.planes(state.to_move).reshape(-1, game.num_planes)
            for image, perm, cperm in zip(images, actions, cells):
                moved = np.zeros_like(mask)
                moved[perm] = mask
                np.testing.assert_array_equal(image.legal_mask(), moved)
                moved_planes = np.zeros_like(planes)
                moved_planes[cperm] = planes
                np.testing.assert_array_equal(image.planes(state.to_move).reshape(-1, game.num_planes), moved_planes)
                assert (image.terminal, image.winner) == (state.terminal, state.winner)


def test_an_illegal_move_raises_in_one_line_and_changes_nothing(case):
    game = case.game()
    states = random_game(game, 3)
    for state in (states[0], states[len(states) // 2], states[-1]):
        assert isinstance(state, State)
        before = snapshot(state)
        illegal = [int(a) for a in np.flatnonzero(~state.legal_mask())] + NOT_ACTIONS
        for action in illegal:
            reason = state.illegal_reason(action)
            assert isinstance(reason, str) and reason and "\n" not in reason, (action, reason)
            with pytest.raises(IllegalMoveError) as raised:
                state.play(action)
            assert str(raised.value) == reason
            assert snapshot(state) == before, action
        for action in map(int, state.legal_actions()):
            assert state.illegal_reason(action) is None
    for action in NOT_ACTIONS:
        assert check_action(game, action) is not None


def test_a_finished_game_reports_its_outcome_by_its_returns(case):
    game = case.game()
    for seed in range(4):
        end = random_game(game, seed)[-1]
        assert end.terminal and not end.legal_mask().any() and len(end.legal_actions()) == 0
        first, second = end.returns()
        assert first == -second and first in (-1.0, 0.0, 1.0)
        assert returns_of(end.winner) == (first, second)  # winner is the player the returns favour
