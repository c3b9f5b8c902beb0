"""policies/base.py: the one check that a policy trained on one game is refused on another."""

from __future__ import annotations

import pytest

from boardgame_envs.games.catalog import game_info
from boardgame_envs.policies.base import check_trained_on


def test_a_policy_trained_on_another_game_is_refused_naming_both_in_words():
    g9, g15 = (game_info("gomoku").game(n, 5, "freestyle") for n in (9, 15))
    check_trained_on("net", None, g9)  # a policy of no particular game plays any
    check_trained_on("net", g9, game_info("gomoku").game(9, 5, "freestyle"))  # the same game, another object
    with pytest.raises(ValueError, match=r"^net was trained on 9x9, 5 in a row, freestyle, not on 15x15, 5 in a row"):
        check_trained_on("net", g9, g15)
    with pytest.raises(ValueError, match="trained on 'connect four', not on 9x9"):  # no describe(): its repr
        check_trained_on("net", "connect four", g9)
