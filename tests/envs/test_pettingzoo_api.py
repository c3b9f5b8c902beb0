"""PettingZoo's own conformance tests on every env, rule and two board sizes."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import boardgame_envs  # noqa: F401  (registers the ids)
from boardgame_envs import gomoku_v0, tictactoe_v0
from boardgame_envs.games.mnk import RULES

GOMOKU_CASES = [(size, rule) for size in (7, 15) for rule in RULES]


def _gomoku_fn(size, rule):
    return lambda render_mode=None: gomoku_v0.env(board_size=size, rule=rule, render_mode=render_mode)


ENV_FNS = {"tictactoe": tictactoe_v0.env} | {
    f"gomoku-{size}-{rule}": _gomoku_fn(size, rule) for size, rule in GOMOKU_CASES
}


@pytest.fixture(params=sorted(ENV_FNS), ids=str)
def env_fn(request):
    return ENV_FNS[request.param]


def test_api(env_fn):
    api_test(env_fn(), num_cycles=1000)


def test_seed(env_fn):
    seed_test(env_fn, num_cycles=100)


def test_render(env_fn):
    render_test(env_fn)


def test_rgb_array_shape_and_type(env_fn):
    env = env_fn(render_mode="rgb_array")
    env.reset(seed=0)
    img = env.render()
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert img.shape[1] >= 300 and img.shape[0] > img.shape[1]  # a status band below the board


def test_pickle_round_trip_mid_game(env_fn):
    env = env_fn()
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(3):
        obs, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    clone = pickle.loads(pickle.dumps(env))
    a, b = env.last(), clone.last()
    np.testing.assert_array_equal(a[0]["observation"], b[0]["observation"])
    np.testing.assert_array_equal(a[0]["action_mask"], b[0]["action_mask"])
    assert env.agent_selection == clone.agent_selection
    action = int(np.flatnonzero(a[0]["action_mask"])[0])
    env.step(action)
    clone.step(action)
    np.testing.assert_array_equal(env.unwrapped.state(), clone.unwrapped.state())


def test_pettingzoo_registry_makes_our_envs():
    import pettingzoo

    env = pettingzoo.make("aec", "boardgame_envs/gomoku-v0", board_size=9, rule="standard")
    env.reset()
    assert env.unwrapped.game.size == 9 and env.unwrapped.game.rule == "standard"
    assert str(pettingzoo.make("aec", "boardgame_envs/tictactoe-v0")) == "tictactoe_v0"


@pytest.mark.parametrize("make", [tictactoe_v0.env, lambda: gomoku_v0.env(board_size=9)])
def test_spaces_are_stable_and_shared(make):
    env = make()
    a, b = env.possible_agents
    assert env.observation_space(a) is env.observation_space(a)
    assert env.observation_space(a) == env.observation_space(b)
    assert env.action_space(a) == env.action_space(b)
    for agent in env.possible_agents:
        assert agent.split("_")[0].isalpha() and agent.split("_")[1].isdigit()


def test_metadata():
    for mod in (tictactoe_v0, gomoku_v0):
        meta = mod.raw_env.metadata
        assert meta["is_parallelizable"] is False
        assert set(meta["render_modes"]) == {"human", "ansi", "rgb_array"}
        assert meta["name"] == mod.__name__.rsplit(".", 1)[1]
        assert meta["render_fps"] > 0


def test_reset_seed_seeds_action_space_sampling():
    def samples(seed):
        env = tictactoe_v0.env()
        env.reset(seed=seed)
        return [env.action_space(agent).sample() for agent in env.possible_agents * 10]

    assert samples(7) == samples(7)
    assert samples(7) != samples(8)
    env = tictactoe_v0.env()
    env.reset(seed=7)
    first = samples(7)
    env.reset(seed=7)  # a reset with the same seed starts the same draws again
    assert [env.action_space(agent).sample() for agent in env.possible_agents * 10] == first


def test_order_enforcing_wrapper_alone_passes_the_api_test():
    """Our OrderEnforcingWrapper over another stack than env()'s takes PettingZoo's paths, and stays conformant."""
    from boardgame_envs.envs.wrappers import OrderEnforcingWrapper

    env = OrderEnforcingWrapper(tictactoe_v0.raw_env())
    assert env._illegal is None
    api_test(env, num_cycles=200)
