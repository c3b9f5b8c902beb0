"""PettingZoo specifics of the package's envs: its registry, seeded action sampling, the order wrapper.

PettingZoo's own api, seed and render tests run on every catalog game in the
conformance kit (tests/conformance/test_envs.py), which reads the games from
the catalog: no list of games is kept here.
"""

from __future__ import annotations

from pettingzoo.test import api_test

import boardgame_envs  # noqa: F401  (registers the ids)
from boardgame_envs import tictactoe_v0


def test_pettingzoo_registry_makes_our_envs():
    import pettingzoo

    env = pettingzoo.make("aec", "boardgame_envs/gomoku-v0", board_size=9, rule="standard")
    env.reset()
    assert env.unwrapped.game.size == 9 and env.unwrapped.game.rule == "standard"
    assert str(pettingzoo.make("aec", "boardgame_envs/tictactoe-v0")) == "tictactoe_v0"


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
