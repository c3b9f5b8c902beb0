"""connect_four_v0: PettingZoo's conformance tests, and the same game as PettingZoo's connect_four_v3 move for move."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from pettingzoo.classic import connect_four_v3
from pettingzoo.test import api_test, render_test, seed_test

import boardgame_envs  # noqa: F401 (registers the ids)
from boardgame_envs import IllegalMoveError, connect_four_v0
from boardgame_envs.envs.factory import make_env
from boardgame_envs.envs.wrappers import ActionOutOfBoundsError


def test_pettingzoo_api_seed_and_render():
    api_test(connect_four_v0.env(), num_cycles=300)
    seed_test(connect_four_v0.env, num_cycles=50)
    render_test(connect_four_v0.env)


def test_same_agents_spaces_observations_masks_and_rewards_as_connect_four_v3():
    rng = np.random.default_rng(0)
    for _ in range(20):
        ours, theirs = connect_four_v0.env(), connect_four_v3.env()
        ours.reset(), theirs.reset()
        assert ours.possible_agents == theirs.possible_agents == ["player_0", "player_1"]
        agent = ours.possible_agents[0]
        assert ours.observation_space(agent)["observation"].shape == theirs.observation_space(agent)["observation"].shape
        assert ours.action_space(agent).n == theirs.action_space(agent).n == 7
        for a_ours, a_theirs in zip(ours.agent_iter(), theirs.agent_iter()):
            assert a_ours == a_theirs
            obs_o, rew_o, term_o, trunc_o, _ = ours.last()
            obs_t, rew_t, term_t, trunc_t, _ = theirs.last()
            assert (obs_o["observation"] == obs_t["observation"]).all()
            if term_o:  # one deliberate difference: once the game is over no column is legal here
                assert not obs_o["action_mask"].any()
            else:
                assert (obs_o["action_mask"] == obs_t["action_mask"]).all()
            assert (rew_o, term_o, trunc_o) == (rew_t, term_t, trunc_t)
            for agent in ours.agents:  # the other agent's view too
                assert (ours.observe(agent)["observation"] == theirs.observe(agent)["observation"]).all()
            action = None if term_o else int(rng.choice(np.flatnonzero(obs_o["action_mask"])))
            ours.step(action), theirs.step(action)


def test_illegal_moves_raise_under_raw_env_and_lose_under_env():
    raw = connect_four_v0.raw_env()
    raw.reset()
    for _ in range(6):
        raw.step(2)
    with pytest.raises(IllegalMoveError, match="^column c is full$"):
        raw.step(2)
    assert raw.game_state.num_moves == 6
    env = connect_four_v0.env()
    env.reset()
    for _ in range(6):
        env.step(2)
    env.step(2)  # player_0 plays into the full column
    assert env.rewards == {"player_0": -1, "player_1": 0}
    assert env.infos["player_0"]["reason"] == "column c is full"
    env = connect_four_v0.env()
    env.reset()
    with pytest.raises(ActionOutOfBoundsError):
        env.step(7)


def test_openings_by_column_names_or_actions():
    env = connect_four_v0.raw_env()
    env.reset(options={"opening": "d d c"})
    assert env.moves == [3, 3, 2] and env.agent_selection == "player_1"
    env.reset(options={"opening": [3, 4]})
    assert env.agent_selection == "player_0"
    with pytest.raises(TypeError, match="not bytes"):
        env.reset(options={"opening": b"d"})
    with pytest.raises(IllegalMoveError, match="move 7: column a is full"):
        env.reset(options={"opening": [0] * 7})


def test_text_and_pictures():
    env = connect_four_v0.env(render_mode="ansi")
    env.reset(options={"opening": "d"})
    text = env.render()
    assert text.splitlines()[0] == " a b c d e f g" and text.splitlines()[6] == " . . .[X]. . ."
    env = connect_four_v0.env(render_mode="rgb_array")
    env.reset()
    frame = env.render()
    assert frame.shape == (6 * 48, 7 * 48, 3) and frame.dtype == np.uint8


def test_the_catalog_builds_it_everywhere():
    env = make_env("connect_four")
    env.reset()
    assert env.unwrapped.metadata["name"] == "connect_four_v0"
    with pytest.raises(ValueError, match="takes no board size"):
        make_env("connect_four", board_size=7)
    single = gymnasium.make("boardgame_envs/ConnectFour-v0", opponent="greedy")
    obs, info = single.reset(seed=1)
    assert obs.shape == (6, 7, 2) and info["action_mask"].shape == (7,)
    total = 0.0
    for _ in range(30):
        obs, reward, terminated, truncated, info = single.step(int(np.flatnonzero(info["action_mask"])[0]))
        total += reward
        if terminated:
            break
    assert terminated and total == -1.0  # always the leftmost column loses to a player who blocks and wins
    vec = gymnasium.make_vec("boardgame_envs/ConnectFour-v0", num_envs=3, opponent="random")
    obs, info = vec.reset(seed=0)
    assert obs.shape == (3, 6, 7, 2)
    vec.step(np.array([3, 3, 3]))
