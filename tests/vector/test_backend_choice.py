"""The batched engine picks a game's backend by the protocol's ``kernels()`` hook alone.

The m,n,k family reaches its numba batch (``games/mnk_batch.py``) through
``MNKGame.kernels()``, as connect four reaches its bitboards; a game's
``family`` names the searches' fast paths and plays no part: a game that only
borrows the name ``"mnk"`` gets the loop over its states (the family's arrays
would read rules it does not have), and an ``MNKGame`` subclass that returns
None from the hook opts out of the kernels. Opening-rule games have no hook
and are stepped by the loop, as before.
"""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs import vector
from boardgame_envs.games.catalog import GAMES, load
from boardgame_envs.games.mnk import MNKGame
from boardgame_envs.games.mnk_batch import MNKBatch
from boardgame_envs.games.opening_game import OpeningRuleGame
from boardgame_envs.vector.engine import VectorGames, batch_class
from boardgame_envs.vector.loop_batch import LoopBatch
from games.misere_game import AvoidThreeGame


class BorrowedFamily(AvoidThreeGame):
    """Misère tic-tac-toe that calls itself ``"mnk"``: the family's name, none of its rules, no kernels() hook."""

    family = "mnk"


class LoopedMNK(MNKGame):
    """An m,n,k game whose author turns the batched kernels off through the hook."""

    def kernels(self) -> None:
        return None


class KeptMNK(MNKGame):
    """A subclass that changes nothing: it inherits the family's kernels."""


@pytest.mark.parametrize("game", [MNKGame(3, 3), MNKGame(7, 4), MNKGame(9, 5, "standard"), MNKGame(15, 5, "renju"),
                                  KeptMNK(6, 4)], ids=repr)  # fmt: skip
def test_an_mnk_game_names_its_batch_class_through_the_hook(game):
    assert game.kernels() == "boardgame_envs.games.mnk_batch:MNKBatch"
    assert load(game.kernels()) is MNKBatch is batch_class(game)
    assert isinstance(VectorGames(game, 2).batch, MNKBatch)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_catalog_game_is_stepped_by_what_its_hook_names(name):
    game = GAMES[name].game()
    hook = getattr(game, "kernels", None)
    named = hook() if callable(hook) else None
    expected = LoopBatch if named is None else load(named)
    assert batch_class(game) is expected
    assert isinstance(vector.make(name, 2).batch, expected)
    assert GAMES[name].batched == (named is not None)


def test_the_family_name_alone_gets_the_loop_and_plays_the_game_it_is():
    borrowed, plain = VectorGames(BorrowedFamily(), 3, seed=5), VectorGames(AvoidThreeGame(), 3, seed=5)
    assert isinstance(borrowed.batch, LoopBatch)
    borrowed.reset(), plain.reset()
    ended = 0
    for _ in range(30):
        actions = borrowed.sample_legal_actions()
        np.testing.assert_array_equal(actions, plain.sample_legal_actions())
        a, b = borrowed.step(actions), plain.step(actions)
        for x, y in zip(a[:4], b[:4]):
            np.testing.assert_array_equal(x, y)
        ended += int(a[2].sum())
        np.testing.assert_array_equal(borrowed.boards, plain.boards)
    assert ended >= 3  # 3x3 games end (and reset) within 30 moves: the losses by three in a row were seen


def test_an_mnk_subclass_that_returns_none_is_looped_and_agrees_with_the_kernels():
    looped, fast = VectorGames(LoopedMNK(5, 4), 4, seed=2), VectorGames(MNKGame(5, 4), 4, seed=2)
    assert isinstance(looped.batch, LoopBatch) and isinstance(fast.batch, MNKBatch)
    np.testing.assert_array_equal(looped.reset(), fast.reset())
    for _ in range(40):
        actions = fast.sample_legal_actions()
        np.testing.assert_array_equal(actions, looped.sample_legal_actions())
        for x, y in zip(looped.step(actions)[:4], fast.step(actions)[:4]):
            np.testing.assert_array_equal(x, y)
        np.testing.assert_array_equal(looped.legal_action_mask, fast.legal_action_mask)


def test_an_opening_rule_game_has_no_hook_and_is_looped():
    game = OpeningRuleGame(MNKGame(15, 5, "renju"), "soosorv8")
    assert getattr(game, "kernels", None) is None and batch_class(game) is LoopBatch
    vec = vector.make("gomoku", 2, parameters={"opening_rule": "soosorv8"})
    assert vec.game == game and isinstance(vec.batch, LoopBatch)
    assert vec.obs_shape == (15, 15, game.num_planes)
