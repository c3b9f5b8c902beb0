"""The 8 board symmetries: hand-checked images, group laws, and agreement with the env's own encoding."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs import gomoku_v0, tictactoe_v0
from boardgame_envs.games.mnk import MNKState
from boardgame_envs.games.symmetry import (
    NUM_SYMMETRIES,
    inverse,
    random_symmetries,
    symmetries,
    transform_action,
    transform_actions,
    transform_planes,
)


def test_images_of_the_corner_and_an_edge_cell_drawn_by_hand():
    # 3x3 cells:  0 1 2 / 3 4 5 / 6 7 8. A quarter turn counter-clockwise takes the
    # top-left corner to the bottom-left, the top edge to the left edge; the mirror
    # swaps left and right.
    assert [transform_action(0, s, 3) for s in range(8)] == [0, 6, 8, 2, 2, 8, 6, 0]
    assert [transform_action(1, s, 3) for s in range(8)] == [1, 3, 7, 5, 1, 5, 7, 3]
    assert all(transform_action(4, s, 3) == 4 for s in range(8))  # the centre stays
    assert transform_actions(np.arange(9), 1).tolist() == [2, 5, 8, 1, 4, 7, 0, 3, 6]


def test_the_eight_are_distinct_and_each_has_its_inverse():
    cells = np.arange(25)
    images = {tuple(transform_actions(cells, s)) for s in range(NUM_SYMMETRIES)}
    assert len(images) == NUM_SYMMETRIES
    for s in range(NUM_SYMMETRIES):
        assert (transform_actions(transform_actions(cells, s), inverse(s)) == cells).all()


@pytest.mark.parametrize("sym", [-1, 8, 1.5, True, "1"])
def test_bad_symmetry_is_a_value_error(sym):
    with pytest.raises(ValueError, match="0..7"):
        transform_actions(np.arange(9), sym)


def test_actions_must_be_a_square_board():
    with pytest.raises(ValueError, match="square"):
        transform_actions(np.arange(10), 1)


def random_position(env, rng, moves):
    """A position reached by ``moves`` random legal moves in the env's game."""
    state = env.game.new_state()
    for _ in range(moves):
        if state.terminal:
            break
        legal = state.legal_actions()
        state.play(int(legal[rng.integers(len(legal))]))
    return state


@pytest.mark.parametrize(
    "make_env",
    [tictactoe_v0.raw_env, lambda: gomoku_v0.raw_env(board_size=9, rule="renju"), lambda: gomoku_v0.raw_env(7, 4)],
)
def test_planes_and_masks_move_exactly_as_the_env_encodes_the_moved_board(make_env):
    """Observe a position, and the same position with its stones moved by ``s``: the two must agree.

    Under renju this also checks that black's forbidden points move with the
    stones, i.e. that the rules (as implemented) have the square's symmetry.
    """
    env = make_env()
    rng = np.random.default_rng(0)
    n = env.game.size
    for trial in range(20):
        state = random_position(env, rng, int(rng.integers(0, n * n // 2)))
        if state.terminal:
            continue
        obs = env.observe_state(state)
        for s in range(NUM_SYMMETRIES):
            last = -1 if state.last_move < 0 else transform_action(state.last_move, s, n)
            moved = MNKState.from_position(env.game, transform_actions(state.board, s), state.to_move, last)
            expected = env.observe_state(moved)
            assert (transform_planes(obs["observation"], s) == expected["observation"]).all()
            assert (transform_actions(obs["action_mask"], s) == expected["action_mask"]).all()


def test_symmetries_and_random_symmetries_keep_examples_consistent():
    env = gomoku_v0.raw_env(board_size=7, rule="renju")
    state = random_position(env, np.random.default_rng(3), 12)
    obs = env.observe_state(state)
    planes, mask = obs["observation"], obs["action_mask"]
    policy = mask / mask.sum()
    policy[np.flatnonzero(mask)[0]] += 1.0  # one marked move
    marked = int(policy.argmax())
    images = list(symmetries(planes, mask, policy))
    assert len(images) == 8 and (images[0][0] == planes).all()
    for s, (p, m, pi) in enumerate(images):
        assert int(pi.argmax()) == transform_action(marked, s, 7)
        assert (m == transform_actions(mask, s)).all()
    # A batch in CHW layout, each example with its own random symmetry.
    batch = np.repeat(planes.transpose(2, 0, 1)[None], 16, axis=0)
    masks = np.repeat(mask[None], 16, axis=0)
    policies = np.repeat(policy[None], 16, axis=0)
    p2, m2, pi2 = random_symmetries(batch, masks, policies, np.random.default_rng(0), channels_first=True)
    seen = set()
    for i in range(16):
        s = next(s for s in range(8) if (transform_actions(policy, s) == pi2[i]).all())
        seen.add(s)
        assert (p2[i] == transform_planes(batch[i], s, channels_first=True)).all()
        assert (m2[i] == transform_actions(mask, s)).all()
    assert len(seen) > 1 and (batch[0] == planes.transpose(2, 0, 1)).all()  # inputs untouched


def test_random_permutations_move_planes_and_actions_together_on_connect_four():
    """Connect four's mirror: a piece in column a lands in column g, and so do that column's mask and policy."""
    from boardgame_envs.games.connect_four import ConnectFourGame
    from boardgame_envs.games.protocol import cell_symmetries
    from boardgame_envs.games.symmetry import random_permutations

    game = ConnectFourGame()
    state = game.new_state()
    state.play(0)  # a piece in column a
    planes = state.planes(1).transpose(2, 0, 1)[None].repeat(64, axis=0)  # (B, C, H, W)
    masks = np.tile(np.array([1, 1, 1, 1, 1, 1, 0], dtype=bool), (64, 1))
    policies = np.tile(np.array([0.7, 0.3, 0, 0, 0, 0, 0]), (64, 1))
    out_p, out_m, out_pi = random_permutations(planes, masks, policies, np.random.default_rng(0),
                                               cell_symmetries(game), game.symmetries())  # fmt: skip
    mirrored = out_p[:, 0, 5, 6] == 1
    assert 0 < mirrored.sum() < 64  # both symmetries drawn
    assert (out_p[mirrored, 0, 5, 0] == 0).all() and (out_p[~mirrored, 0, 5, 0] == 1).all()
    assert (out_m[mirrored, 0] == 0).all() and (out_m[mirrored, 6] == 1).all()
    assert np.allclose(out_pi[mirrored, 6], 0.7) and np.allclose(out_pi[~mirrored, 0], 0.7)
