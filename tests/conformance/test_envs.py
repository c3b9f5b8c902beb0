"""Every game's envs pass the ecosystem's own checks: PettingZoo's api, seed and render tests, Gymnasium's
``check_env`` and ``make_vec``; cases from the catalog (tests/conformance/cases.py)."""

from __future__ import annotations

import pickle

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test

import boardgame_envs  # noqa: F401  (registers the ids)
from boardgame_envs.games.catalog import GAMES
from boardgame_envs.games.protocol import as_family
from conformance.cases import ALL, CATALOG, DEFAULTS, TEST_GAMES, case_fixture

case = pytest.fixture(params=ALL, ids=lambda case: case.id)(case_fixture)
entry_case = pytest.fixture(params=DEFAULTS + TEST_GAMES, ids=lambda case: case.id)(case_fixture)


def test_pettingzoo_api(case):
    api_test(case.env_fn()(), num_cycles=200)


def test_pettingzoo_seed(case):
    seed_test(case.env_fn(), num_cycles=30)


def test_pettingzoo_render(case):
    render_test(case.env_fn())


def test_spaces_metadata_and_a_pickled_env_mid_game(case):
    env = case.env_fn()()
    meta = env.unwrapped.metadata
    assert meta["is_parallelizable"] is False and meta["render_fps"] > 0
    assert set(meta["render_modes"]) == {"human", "ansi", "rgb_array"}
    assert meta["name"] == case.info.module.rpartition(".")[2]
    a, b = env.possible_agents
    assert env.observation_space(a) is env.observation_space(a)  # stable, and shared by the agents
    assert env.observation_space(a) == env.observation_space(b) and env.action_space(a) == env.action_space(b)
    for agent in env.possible_agents:
        assert agent.split("_")[0].isalpha() and agent.split("_")[1].isdigit()
    game = env.unwrapped.game
    assert env.observation_space(a)["observation"].shape == (*game.shape, game.num_planes)
    assert env.action_space(a).n == game.num_actions
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(3):
        obs, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    clone = pickle.loads(pickle.dumps(env))
    for x, y in zip(env.last()[0].values(), clone.last()[0].values()):
        np.testing.assert_array_equal(x, y)
    assert env.agent_selection == clone.agent_selection
    action = int(np.flatnonzero(env.last()[0]["action_mask"])[0])
    env.step(action)
    clone.step(action)  # the copy plays on as the original does
    np.testing.assert_array_equal(env.unwrapped.state(), clone.unwrapped.state())


def test_rgb_array_is_a_picture(case):
    env = case.env_fn()(render_mode="rgb_array")
    env.reset(seed=0)
    img = env.render()
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3 and min(img.shape[:2]) >= 100
    if as_family(case.game(), "mnk") is not None:  # the m,n,k pictures: a status band below the board
        assert img.shape[1] >= 300 and img.shape[0] > img.shape[1]


def test_gymnasium_check_env_and_make_vec(entry_case):
    for env_id in entry_case.info.gymnasium_ids:
        check_gymnasium_id(env_id, entry_case.info.batched)


def check_gymnasium_id(env_id, kernels):
    env = gymnasium.make(env_id, opponent="random")
    check_env(env.unwrapped, skip_render_check=True)
    env.close()
    vec = gymnasium.make_vec(env_id, num_envs=2, opponent="random")
    obs, info = vec.reset(seed=0)
    assert obs["observation"].shape[0] == 2 if isinstance(obs, dict) else obs.shape[0] == 2
    rng = np.random.default_rng(0)
    for _ in range(12):
        masks = obs["action_mask"] if isinstance(obs, dict) else info["action_mask"]
        # A finished game's mask is empty: the next step resets it (Gymnasium's autoreset) whatever the action.
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        obs, reward, terminated, truncated, info = vec.step(actions)
        assert reward.shape == (2,) and np.all(np.abs(reward) <= 1)
    # The batched engine for every game: its numba kernels where the catalog derived them, else its loop.
    assert type(vec.unwrapped).__name__ == "SingleAgentVectorEnv"
    assert (type(vec.unwrapped.engine.batch).__name__ != "LoopBatch") == kernels
    vec.close()


def test_pettingzoo_registry_makes_every_game(entry_case):
    import pettingzoo

    info = entry_case.info
    env = pettingzoo.make("aec", info.pettingzoo_id, **info.env_kwargs(info.game()))
    env.reset(seed=0)
    assert env.unwrapped.game == info.game()


def test_every_catalog_entry_has_a_case_and_an_id():
    assert {case.entry for case in CATALOG} == set(GAMES)
    assert all(GAMES[name].gymnasium_ids for name in GAMES)  # a Gymnasium id for every game
