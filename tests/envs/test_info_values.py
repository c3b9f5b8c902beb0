"""Every AEC env's ``info`` holds numbers only, opening rules included: the RL libraries' PettingZoo wrappers read
every info value (TorchRL's ``PettingZooWrapper`` makes a tensor of each, and a string stops it). The wrappers
themselves are run over the same envs in test_library_wrappers.py, where those libraries are installed."""

from __future__ import annotations

import numpy as np
import pytest
from info_checks import not_numeric, strings_in_infos

from boardgame_envs.games.opening_rules import RULE_NAMES
from conformance.cases import ALL, OPENINGS, case_fixture

case = pytest.fixture(params=ALL + OPENINGS, ids=lambda case: case.id)(case_fixture)


def test_every_opening_rule_has_a_case():
    assert {dict(c.kwargs).get("opening_rule") for c in OPENINGS} >= set(RULE_NAMES)


def test_info_values_are_numbers_after_reset_and_along_random_games(case):
    env = case.env_fn()()
    assert strings_in_infos(env, games=3) == []


@pytest.mark.parametrize("case", OPENINGS[-3:], ids=lambda case: case.id)
def test_the_check_catches_the_words_of_the_former_default(case):
    # info_strings = True gives the words that TorchRL's wrapper could not take: the check above must see them.
    env = case.env_fn()()
    env.unwrapped.info_strings = True
    found = strings_in_infos(env, games=1)
    assert found and any("color='black'" in line for line in found) and any("phase=" in line for line in found)


def test_only_numbers_count_as_numbers():
    numbers = {"a": 1, "b": 2.5, "c": True, "d": np.int8(3), "e": np.float32(1), "f": np.zeros(3, np.int8),
               "g": np.bool_(1)}  # fmt: skip
    assert not_numeric(numbers) == {}
    words = {"a": "black", "b": None, "c": np.array(["x"]), "d": [1, 2], "e": {"x": 1}, "f": np.array([None])}
    assert list(not_numeric(words)) == list(words)
