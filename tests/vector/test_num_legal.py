"""Every backend keeps ``num_legal`` exactly ``legal``'s count: the sampler reads a draw in a row's second half
from the row's end (the (m - 1 - j)-th legal action from the end), which is the j-th only if ``m`` is exact."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from boardgame_envs import vector
from boardgame_envs.games.catalog import GAMES
from boardgame_envs.vector.engine import VectorGames
from games.misere_game import AvoidThreeGame

# Every catalog game on its defaults (renju: 15x15, black's forbidden points in the mask), a game
# without kernels (the loop backend) and a batch without auto-reset.
CASES = {
    **{name: functools.partial(vector.make, name, 8) for name in GAMES},
    "a game without kernels (the loop)": lambda: VectorGames(AvoidThreeGame(), 16, seed=3),
    "no auto-reset": lambda: vector.make("tictactoe", 16, autoreset=False),
}


@pytest.mark.parametrize("make", CASES.values(), ids=CASES.keys())
def test_num_legal_is_the_legal_count_after_every_step(make):
    vec = make()
    vec.reset(seed=0)
    batch = vec.batch
    ended = 0
    for _ in range(150):
        np.testing.assert_array_equal(batch.num_legal, batch.legal.sum(axis=1))
        actions = vec.sample_legal_actions()
        live = actions >= 0
        assert np.all(batch.legal[np.flatnonzero(live), actions[live]])  # each draw is a legal point
        _, _, terminated, _, _ = vec.step(np.where(live, actions, 0))
        ended += int(terminated.sum())
    np.testing.assert_array_equal(batch.num_legal, batch.legal.sum(axis=1))
    assert ended > 0
