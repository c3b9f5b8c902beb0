"""Every AEC env's ``info`` holds numbers only, opening rules included: the RL libraries' PettingZoo wrappers read
every info value (TorchRL's ``PettingZooWrapper`` makes a tensor of each, and a string stops it). The wrappers
themselves are run over the same envs in test_library_wrappers.py, where those libraries are installed."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from boardgame_envs.games.opening_rules import RULE_NAMES
from conformance.cases import ALL, OPENINGS, case_fixture

case = pytest.fixture(params=ALL + OPENINGS, ids=lambda case: case.id)(case_fixture)


def not_numeric(info: dict[str, Any]) -> dict[str, Any]:
    """The items of ``info`` whose value is not a number (bool, int, float, a numpy number) or a numeric array."""
    bad = {}
    for key, value in info.items():
        if isinstance(value, np.ndarray):
            ok = value.dtype.kind in "biuf"
        else:
            ok = isinstance(value, (bool, int, float, np.bool_, np.number))
        if not ok:
            bad[key] = value
    return bad


def strings_in_infos(env: Any, games: int, seed: int = 0) -> list[str]:
    """Random legal games of ``env`` (wrapped): each info value that is not a number, where it was seen."""
    rng = np.random.default_rng(seed)
    found = []

    def look(when: str) -> None:
        for agent, info in env.infos.items():
            found.extend(f"{when}, {agent}: {k}={v!r}" for k, v in not_numeric(info).items())

    for game in range(games):
        env.reset(seed=seed + game)
        look(f"game {game}, after reset")
        for turn, agent in enumerate(env.agent_iter()):
            obs, _, terminated, truncated, info = env.last()
            found.extend(f"game {game}, turn {turn}, last() of {agent}: {k}={v!r}" for k, v in not_numeric(info).items())
            env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            look(f"game {game}, after turn {turn}")
    return found


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
    numbers = {"a": 1, "b": 2.5, "c": True, "d": np.int8(3), "e": np.float32(1), "f": np.zeros(3, np.int8), "g": np.bool_(1)}
    assert not_numeric(numbers) == {}
    words = {"a": "black", "b": None, "c": np.array(["x"]), "d": [1, 2], "e": {"x": 1}, "f": np.array([None])}
    assert list(not_numeric(words)) == list(words)
