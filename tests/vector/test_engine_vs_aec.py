"""The batched engine against the AEC env, move for move, on the same action sequences.

Each case plays the same actions in ``B`` games of :func:`boardgame_envs.vector.make`
and in ``B`` raw AEC envs, and after every step compares, game by game, the
planes, the mask, the mover, black's forbidden points, the rewards by seat, the
terminations, the final observation of each finished game and the auto-reset
that follows it.
"""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs import gomoku_v0, tictactoe_v0, vector

CASES = {
    "tictactoe": ("tictactoe", {}),
    "5x5 k4 freestyle": ("gomoku", {"board_size": 5, "win_length": 4, "rule": "freestyle"}),
    "7x7 k4 standard": ("gomoku", {"board_size": 7, "win_length": 4, "rule": "standard"}),
    "9x9 freestyle": ("gomoku", {"board_size": 9, "rule": "freestyle"}),
    "9x9 renju": ("gomoku", {"board_size": 9, "rule": "renju"}),
    "15x15 renju": ("gomoku", {"board_size": 15, "rule": "renju"}),
}


def aec_env(game, kwargs):
    return tictactoe_v0.raw_env() if game == "tictactoe" else gomoku_v0.raw_env(**kwargs)


def clustered_actions(vec, rng, spread):
    """Legal actions near the mover's own stones: lines form, so wins, overlines and forbidden points occur."""
    n = vec.size
    mask = vec.legal_action_mask
    actions = np.empty(vec.num_envs, dtype=np.int64)
    for b in range(vec.num_envs):
        legal = np.flatnonzero(mask[b])
        own = np.flatnonzero(vec.boards[b] == vec.current_player[b] + 1)
        if len(own) and rng.random() < 0.8:
            rows, cols = legal // n, legal % n
            dist = np.min(np.maximum(abs(rows[:, None] - own[None, :] // n), abs(cols[:, None] - own[None, :] % n)), 1)
            near = legal[dist <= spread]
            if len(near):
                legal = near
        actions[b] = legal[rng.integers(len(legal))]
    return actions


def compare(vec, envs, obs, seats):
    for b, env in enumerate(envs):
        view = env.observe(env.agent_selection)
        np.testing.assert_array_equal(obs[b], view["observation"], err_msg=f"planes of game {b}")
        np.testing.assert_array_equal(vec.legal_action_mask[b], view["action_mask"].astype(bool), err_msg=f"mask {b}")
        assert vec.current_player[b] == seats[env.agent_selection]
        np.testing.assert_array_equal(vec.forbidden[b], env.game_state.forbidden())
        np.testing.assert_array_equal(vec.boards[b], env.game_state.board)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("policy", ["uniform", "clustered"])
def test_same_games_as_the_aec_env(case, policy):
    game, kwargs = CASES[case]
    num_envs = 6
    vec = vector.make(game, num_envs, **kwargs)
    envs = [aec_env(game, kwargs) for _ in range(num_envs)]
    seats = {agent: i for i, agent in enumerate(envs[0].possible_agents)}
    for env in envs:
        env.reset()
    obs = vec.reset(seed=3)
    compare(vec, envs, obs, seats)
    rng = np.random.default_rng(7)
    steps = {"tictactoe": 60, "15x15 renju": 160}.get(case, 120)
    finished = forbidden_seen = 0
    for _ in range(steps):
        actions = vec.sample_legal_actions() if policy == "uniform" else clustered_actions(vec, rng, 1)
        forbidden_seen += int(vec.forbidden.sum())
        obs, rewards, terminated, truncated, info = vec.step(actions)
        assert not truncated.any()
        for b, env in enumerate(envs):
            env.step(int(actions[b]))
            state = env.game_state
            assert terminated[b] == state.terminal
            expected = [env.rewards[a] for a in env.possible_agents] if state.terminal else [0.0, 0.0]
            np.testing.assert_array_equal(rewards[b], expected)
            assert info["_final_obs"][b] == state.terminal
            if state.terminal:
                finished += 1
                final = env.observe(env.agent_selection)["observation"]
                np.testing.assert_array_equal(info["final_obs"][b], final, err_msg=f"final planes of game {b}")
                env.reset()
            else:
                assert not info["final_obs"][b].any()
        compare(vec, envs, obs, seats)
    assert finished >= num_envs  # every game ended at least once on average, and was reset
    if "renju" in case and policy == "clustered":
        assert forbidden_seen > 0  # the comparison met forbidden points


@pytest.mark.parametrize("case", ["tictactoe", "9x9 renju"])
def test_parallel_plays_the_same_games(case):
    game, kwargs = CASES[case]
    serial = vector.make(game, 33, seed=5, **kwargs)
    parallel = vector.make(game, 33, seed=5, parallel=True, **kwargs)
    for _ in range(40):
        a, b = serial.sample_legal_actions(), parallel.sample_legal_actions()
        np.testing.assert_array_equal(a, b)
        for x, y in zip(serial.step(a)[:3], parallel.step(b)[:3]):
            np.testing.assert_array_equal(x, y)
    np.testing.assert_array_equal(serial.boards, parallel.boards)
