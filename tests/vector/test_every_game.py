"""The batched engine plays every game: each catalog case and test game against its AEC env, move for move.

Cases come from the conformance kit (tests/conformance/cases.py), so a game added to
the catalog is played here with no edit. A game without kernels is stepped by the
loop over its states (``LoopBatch``); the same loop is also held to the numba
backends of the games that have them, and dots and boxes (extra turns, a margin in
``returns()``) to its AEC env. The Gymnasium view and ``SB3VecEnv`` run on every id.
"""

from __future__ import annotations

import contextlib

import gymnasium
import numpy as np
import pytest

import boardgame_envs  # noqa: F401  (registers the ids)
from boardgame_envs import vector
from boardgame_envs.envs.game_env import GameAECEnv
from boardgame_envs.envs.single_agent import SingleAgentEnv
from boardgame_envs.games.catalog import GameInfo
from boardgame_envs.vector import engine
from boardgame_envs.vector.engine import VectorGames
from boardgame_envs.vector.gym_env import SingleAgentVectorEnv
from boardgame_envs.vector.loop_batch import LoopBatch
from conformance import cases
from conformance.cases import ALL, CATALOG, TEST_GAMES, case_fixture
from games.dots_and_boxes import DotsAndBoxesGame

case = pytest.fixture(params=ALL, ids=lambda case: case.id)(case_fixture)
# The catalog's cases whose game brings numba kernels (game.kernels()): a game without them has only the loop.
KERNEL_CASES = [case for case in CATALOG if engine.batch_class(case.game()) is not LoopBatch]
kernel_case = pytest.fixture(params=KERNEL_CASES, ids=lambda case: case.id)(case_fixture)


def play_against_aec(vec, envs, steps, rng, reset=True):
    """Random legal moves in both, comparing every step (from a reset of both, or on from where they are);
    returns how many games ended."""
    seats = {agent: i for i, agent in enumerate(envs[0].possible_agents)}

    def compare(obs):
        for b, env in enumerate(envs):
            view = env.observe(env.agent_selection)
            np.testing.assert_array_equal(obs[b], view["observation"], err_msg=f"planes of game {b}")
            np.testing.assert_array_equal(vec.legal_action_mask[b], view["action_mask"].astype(bool))
            assert vec.current_player[b] == seats[env.agent_selection]
            np.testing.assert_array_equal(vec.boards[b], env.game_state.board)

    if reset:
        for env in envs:
            env.reset()
        compare(vec.reset(seed=1))
    finished = 0
    for _ in range(steps):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in vec.legal_action_mask])
        obs, rewards, terminated, truncated, info = vec.step(actions)
        for b, env in enumerate(envs):
            env.step(int(actions[b]))
            state = env.game_state
            assert terminated[b] == state.terminal
            expected = [env.rewards[a] for a in env.possible_agents] if state.terminal else [0.0, 0.0]
            np.testing.assert_allclose(rewards[b], expected, rtol=1e-6)
            if state.terminal:
                finished += 1
                np.testing.assert_array_equal(info["final_obs"][b], env.observe(env.agent_selection)["observation"])
                env.reset()
        compare(obs)
    return finished


def test_every_game_against_its_aec_env(case):
    num_envs = 4
    vec = vector.make(case.entry, num_envs, **dict(case.kwargs))  # a game's parameters by keyword, as make_env
    envs = [case.env_fn(raw=True)() for _ in range(num_envs)]
    rng = np.random.default_rng(0)
    finished, steps = play_against_aec(vec, envs, 40, rng), 40
    while not finished and steps < 10 * vec.num_actions:  # a long game: on until one ends (and resets) in both
        finished, steps = play_against_aec(vec, envs, 40, rng, reset=False), steps + 40
    assert finished >= 1, f"no random game of {case.id} ended in {steps} moves"
    if not case.info.batched:
        assert isinstance(vec.batch, LoopBatch)


def test_extra_turns_and_margins_against_the_aec_env():
    """Dots and boxes: a player who closes a box moves again, and the returns carry the margin."""
    game = DotsAndBoxesGame(2, 2, scoring="margin")
    vec = VectorGames(game, 5)
    envs = [GameAECEnv(game, ("player_0", "player_1")) for _ in range(5)]
    moved_twice = []
    original = vec.batch.step

    def watch(*args):
        before = vec.current_player.copy()
        result = original(*args)
        moved_twice.append(((vec.current_player == before) & (vec.num_moves > 0)).any())
        return result

    vec.batch.step = watch
    assert play_against_aec(vec, envs, 60, np.random.default_rng(2)) >= 5
    assert any(moved_twice)  # a player moved twice running


def test_the_loop_agrees_with_the_kernels(kernel_case, monkeypatch):
    """The loop over states (the reference every game gets) and the numba backends play the same games."""
    kwargs = dict(kernel_case.kwargs)
    fast = vector.make(kernel_case.entry, 6, seed=4, **kwargs)
    monkeypatch.setattr(engine, "batch_class", lambda game: LoopBatch)
    slow = vector.make(kernel_case.entry, 6, seed=4, **kwargs)
    assert isinstance(slow.batch, LoopBatch) and not isinstance(fast.batch, LoopBatch)
    for _ in range(30):
        actions = fast.sample_legal_actions()
        np.testing.assert_array_equal(actions, slow.sample_legal_actions())
        for x, y in zip(fast.step(actions), slow.step(actions)):
            if isinstance(x, dict):
                np.testing.assert_array_equal(x["final_obs"], y["final_obs"])
            else:
                np.testing.assert_array_equal(x, y)
        np.testing.assert_array_equal(fast.legal_action_mask, slow.legal_action_mask)
        np.testing.assert_array_equal(fast.last_move, slow.last_move)


def test_loop_illegal_actions_raise_or_lose():
    with cases.in_catalog():
        vec = vector.make("avoid_three", 2)
        vec.step(np.array([4, 4]))
        with pytest.raises(vector.IllegalActionsError, match=r"1 game\(s\): game 1: "):
            vec.step(np.array([0, 4]))
        assert vec.num_moves.tolist() == [1, 1]
        lose = vector.make("avoid_three", 2, illegal_action="lose")
        lose.step(np.array([4, 4]))
        obs, rewards, terminated, _, info = lose.step(np.array([0, 4]))
        assert terminated.tolist() == [False, True] and rewards.tolist() == [[0, 0], [0, -1]]
        assert info["illegal_action"].tolist() == [False, True] and lose.num_moves.tolist() == [2, 0]
        assert info["final_obs"][1].sum() == 1  # the board as it was, the illegal piece not placed
        with pytest.raises(ValueError, match="parallel=True spreads numba kernels over threads"):
            vector.make("avoid_three", 2, parallel=True)


def deterministic_reply(observation, mask):
    legal = np.flatnonzero(mask)
    return int(legal[int(observation.sum()) * 7 % len(legal)])


def batched_reply(observations, masks):
    return np.array([deterministic_reply(o, m) for o, m in zip(observations, masks)])


DOTS = cases.TemporaryGame(
    GameInfo(name="dots_and_boxes", summary="dots and boxes (a test game)", factory="games.dots_and_boxes:DotsAndBoxesGame"),
    DotsAndBoxesGame, "boardgame_envs.dots_and_boxes_v0", "boardgame_envs/dots_and_boxes-v0",
    {"boardgame_envs/DotsAndBoxes-v0": {}},
)  # fmt: skip


@pytest.mark.parametrize("game", ["connect_four", "avoid_three", "dots_and_boxes"])
@pytest.mark.parametrize("seat", ["first", "second"])
def test_gym_view_agrees_with_the_single_agent_view(game, seat, monkeypatch):
    """Game by game, the vector view gives the single-agent view's steps (the opponent replies until the
    learner is to move again: dots and boxes has extra turns)."""
    monkeypatch.setitem(cases.TEST_ENTRIES, DOTS.entry.name, DOTS)
    with cases.in_catalog(game) if game != "connect_four" else contextlib.nullcontext():
        num_envs = 4
        envs = SingleAgentVectorEnv(num_envs, game=game, opponent=batched_reply, seat=seat)
        singles = [SingleAgentEnv(game=game, opponent=deterministic_reply, seat=seat) for _ in range(num_envs)]
        obs, info = envs.reset(seed=0)
        for b, env in enumerate(singles):
            np.testing.assert_array_equal(obs[b], env.reset(seed=b)[0])
        rng = np.random.default_rng(1)
        finished = 0
        for _ in range(40):
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in envs.action_masks()])
            obs, rewards, terminated, truncated, info = envs.step(actions)
            for b, env in enumerate(singles):
                single_obs, reward, done, _, single_info = env.step(int(actions[b]))
                assert (rewards[b], terminated[b]) == (reward, done)
                if done:
                    finished += 1
                    np.testing.assert_array_equal(info["final_obs"][b], single_obs)
                    single_obs, single_info = env.reset()
                np.testing.assert_array_equal(obs[b], single_obs)
                np.testing.assert_array_equal(info["action_mask"][b], single_info["action_mask"])
        assert finished >= num_envs


@pytest.mark.parametrize("entry", [c for c in CATALOG if not c.kwargs] + TEST_GAMES, ids=lambda c: c.id)
def test_make_vec_and_sb3_on_every_id(entry):
    pytest.importorskip("stable_baselines3")
    from boardgame_envs.vector.sb3 import SB3VecEnv

    with entry.active():
        for env_id in entry.info.gymnasium_ids:
            envs = gymnasium.make_vec(env_id, num_envs=3, vectorization_mode="vector_entry_point", opponent="greedy")
            venv = SB3VecEnv(envs)
            venv.reset()
            rng = np.random.default_rng(0)
            dones, steps = 0, 0
            while not dones and steps < 10 * envs.single_action_space.n:  # on until a game ends, however long
                steps += 1
                masks = np.stack(venv.env_method("action_masks"))
                venv.step_async(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
                obs, rewards, done, infos = venv.step_wait()
                assert obs.shape == (3, *envs.single_observation_space.shape)
                dones += int(done.sum())
                for g in np.flatnonzero(done):
                    assert infos[g]["terminal_observation"].shape == envs.single_observation_space.shape
            assert dones >= 1, f"no game of {env_id} ended in {steps} steps"
