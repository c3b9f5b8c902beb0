"""The Gymnasium vector view: make_vec, agreement with the single-agent view, opponents, seeds, conventions."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import boardgame_envs  # noqa: F401  (registers the ids)
from boardgame_envs import gomoku_v0, vector
from boardgame_envs.envs.single_agent import SingleAgentEnv
from boardgame_envs.games.notation import parse_point
from boardgame_envs.policies import RandomPolicy
from boardgame_envs.policies.base import Forfeit
from boardgame_envs.vector import IllegalActionsError
from boardgame_envs.vector.gym_env import SingleAgentVectorEnv
from boardgame_envs.vector.opponents import GreedyOpponent

IDS = ["boardgame_envs/TicTacToe-v0", "boardgame_envs/Gomoku-v0", "boardgame_envs/Renju-v0"]


@pytest.mark.parametrize("env_id", IDS)
def test_make_vec_gives_the_native_vector_env(env_id):
    envs = gymnasium.make_vec(env_id, num_envs=4, vectorization_mode="vector_entry_point", opponent="random")
    assert isinstance(envs, SingleAgentVectorEnv) and envs.num_envs == 4
    assert envs.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    single = gymnasium.make(env_id)
    assert envs.single_observation_space == single.observation_space
    assert envs.single_action_space == single.action_space
    obs, info = envs.reset(seed=0)
    assert envs.observation_space.contains(obs)
    assert info["action_mask"].shape == (4, single.action_space.n) and info["action_mask"].dtype == np.bool_
    np.testing.assert_array_equal(envs.action_masks(), info["action_mask"])
    assert gymnasium.make_vec(env_id, num_envs=2).unwrapped.__class__ is SingleAgentVectorEnv  # the default mode


def deterministic_reply(observation, mask):
    """An opponent that is a function of the position: the same in the single-agent and the vector view."""
    legal = np.flatnonzero(mask)
    return int(legal[int(observation.sum()) * 7 % len(legal)])


def batched_reply(observations, masks):
    return np.array([deterministic_reply(o, m) for o, m in zip(observations, masks)])


@pytest.mark.parametrize(
    "kwargs",
    [
        {"game": "tictactoe", "seat": "first"},
        {"game": "tictactoe", "seat": "second", "channels_first": True},
        {"game": "gomoku", "board_size": 7, "win_length": 4, "seat": "second", "flatten": True},
        {"game": "gomoku", "board_size": 9, "rule": "renju", "seat": "first"},
    ],
)
def test_same_games_as_the_single_agent_view(kwargs):
    """The same learner actions and the same (position-determined) opponent give the same steps, game by game."""
    num_envs = 5
    envs = SingleAgentVectorEnv(num_envs, opponent=batched_reply, **kwargs)
    singles = [SingleAgentEnv(opponent=deterministic_reply, **kwargs) for _ in range(num_envs)]
    obs, info = envs.reset(seed=0)
    for b, env in enumerate(singles):
        single_obs, single_info = env.reset(seed=b)
        np.testing.assert_array_equal(obs[b], single_obs)
        np.testing.assert_array_equal(info["action_mask"][b], single_info["action_mask"])
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(60):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in envs.action_masks()])
        obs, rewards, terminated, truncated, info = envs.step(actions)
        for b, env in enumerate(singles):
            single_obs, reward, done, _, single_info = env.step(int(actions[b]))
            assert (rewards[b], terminated[b]) == (reward, done)
            if done:
                finished += 1
                np.testing.assert_array_equal(info["final_obs"][b], single_obs)
                single_obs, single_info = env.reset()
            else:
                assert info["final_obs"][b] is None if "final_obs" in info else True
            np.testing.assert_array_equal(obs[b], single_obs)
            np.testing.assert_array_equal(info["action_mask"][b], single_info["action_mask"])
    assert finished >= num_envs


def greedy_picks(moves, seeds=40, epsilon=0.0):
    """The points the batched greedy opponent picks, over ``seeds`` seeds, in the tic-tac-toe game after ``moves``."""
    vec = vector.make("tictactoe", 1)
    for a in moves:
        vec.step(np.array([a]))
    return {int(GreedyOpponent(epsilon, seed).actions(vec, np.ones(1, dtype=bool))[0]) for seed in range(seeds)}


def test_greedy_wins_else_blocks():
    # O to move:   wins at 5 (X's threat at 2 waits)   blocks at 2      epsilon=1: any empty cell
    #                X X .                             X X .            X . .
    #                O O .                             . O .            . O .
    #                X . .                             . . .            . . X
    assert greedy_picks([0, 3, 1, 4, 6]) == {5}
    assert greedy_picks([0, 4, 1]) == {2}
    assert greedy_picks([0, 4, 8], epsilon=1.0) == {1, 2, 3, 5, 6, 7}


@pytest.mark.parametrize("rule", ["freestyle", "renju"])
def test_batched_greedy_is_the_registry_greedy(rule):
    """On mid-game positions, the batched player picks among exactly the points GreedyPolicy picks among."""
    from boardgame_envs.policies.registry import make_policy

    vec = vector.make("gomoku", 4, board_size=9, rule=rule, seed=0)
    for _ in range(14):
        vec.step(vec.sample_legal_actions())
    where = np.ones(4, dtype=bool)
    batched = [{int(GreedyOpponent(0.0, s).actions(vec, where)[g]) for s in range(30)} for g in range(4)]
    env = gomoku_v0.raw_env(9, 5, rule)
    env.reset()
    for g in range(4):
        env.game_state = vec.game_state(g)
        env.agent_selection = env.possible_agents[vec.current_player[g]]
        single = {make_policy("greedy", seed=s).act(env) for s in range(30)}
        assert batched[g] == single, f"game {g}"


def test_greedy_renju_black_does_not_block_on_a_forbidden_point():
    # 9x9 renju, black (X) to move. White's four a5-d5 wins at e5, but e5 is black's
    # double-three (column e: e5 e6 e7; diagonal: e5 f4 g3), so black may not block there.
    #   9 . . . . . . . . X
    #   8 . . . . . . . . .
    #   7 . . . . X . . . .
    #   6 . . . . X . . . .
    #   5 O O O O e . . . .
    #   4 . . . . . X . . .
    #   3 . . . . . . X . .
    #   2 . . . . . . . . .
    #   1 O . . . . . . . .
    #     a b c d e f g h i
    vec = vector.make("gomoku", 1, board_size=9, rule="renju")
    for point in ["e7", "a5", "e6", "b5", "g3", "c5", "f4", "d5", "i9", "a1"]:
        vec.step(np.array([parse_point(point, 9)]))
    e5 = parse_point("e5", 9)
    assert vec.current_player[0] == 0 and vec.forbidden[0, e5]
    picks = {int(GreedyOpponent(0.0, s).actions(vec, np.ones(1, bool))[0]) for s in range(20)}
    assert e5 not in picks and all(vec.legal_action_mask[0, p] for p in picks)


def test_per_game_policies_play_legal_moves():
    envs = SingleAgentVectorEnv(6, game="tictactoe", opponent="mcts:simulations=30", seat="random")
    envs.reset(seed=3)
    other = SingleAgentVectorEnv(3, game="gomoku", board_size=7, win_length=4, opponent=RandomPolicy(seed=0))
    other.reset(seed=0)
    rng = np.random.default_rng(0)
    for env in (envs, other):
        for _ in range(12):
            masks = env.action_masks()
            env.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
            assert env.engine.current_player.tolist() == env._seats.tolist()  # the learner's turn everywhere


def test_seed_fixes_seats_and_opponent():
    def run(seed):
        envs = SingleAgentVectorEnv(8, game="gomoku", board_size=7, win_length=4, seat="random", opponent="greedy")
        obs, info = envs.reset(seed=seed)
        out = [obs, info["seat"]]
        for _ in range(10):
            obs, *_ = envs.step(np.argmax(envs.action_masks(), axis=1))
            out.append(obs)
        return out

    a, b, c = run(5), run(5), run(6)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c))


def test_illegal_actions():
    envs = SingleAgentVectorEnv(3, game="tictactoe", opponent="greedy")
    envs.reset(seed=0)
    envs.step(np.array([4, 4, 4]))  # the learner (X) takes the centre; greedy O answers at random
    masks = envs.action_masks()
    legal = int(np.flatnonzero(masks[1])[0])
    obs, rewards, terminated, _, info = envs.step(np.array([4, legal, 9]))  # occupied, legal, off the board
    assert info["illegal_action"].tolist() == [True, False, True]
    assert rewards[[0, 2]].tolist() == [-1.0, -1.0] and terminated[[0, 2]].all()
    assert info["final_obs"][0][1, 1].tolist() == [1, 0]  # the board as it was: X in the centre, nothing added
    assert envs.engine.num_moves[[0, 2]].tolist() == [0, 0]  # reset in the same step
    strict = SingleAgentVectorEnv(2, game="tictactoe", illegal_action="raise")
    strict.reset(seed=0)
    strict.step(np.array([4, 0]))
    before = strict.engine.boards.copy()
    with pytest.raises(IllegalActionsError, match="game 0: b2 is occupied"):
        strict.step(np.array([4, 8]))
    np.testing.assert_array_equal(strict.engine.boards, before)


def test_record_episode_statistics_wrapper_counts_games():
    envs = gymnasium.wrappers.vector.RecordEpisodeStatistics(
        SingleAgentVectorEnv(16, game="tictactoe", opponent="random")
    )
    envs.reset(seed=0)
    episodes = 0
    for _ in range(10):
        *_, info = envs.step(np.argmax(envs.unwrapped.action_masks(), axis=1))
        if "episode" in info:
            episodes += int(info["_episode"].sum())
            assert set(np.unique(info["episode"]["r"][info["_episode"]])) <= {-1.0, 0.0, 1.0}
    assert episodes >= 16


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"game": "go"}, "unknown game 'go'"),
        ({"seat": "middle"}, "unknown seat 'middle'"),
        ({"illegal_action": "skip"}, "illegal_action must be one of"),
        ({"opponent": 3}, "opponent must be a policy spec"),
        ({"opponent": "greedy:epsilon=2"}, r"epsilon must be a number in \[0, 1\]"),
        ({"opponent": "nobody"}, "unknown policy 'nobody'"),
        ({"render_mode": "human"}, "does not render"),
    ],
)
def test_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        SingleAgentVectorEnv(2, **kwargs)


class Quitter:
    """A policy that loses by its own fault on every move, as a crashed external engine does."""

    name = "quitter"

    def act(self, env):
        raise Forfeit("engine crashed")


def test_an_opponent_forfeit_is_a_win_for_the_learner():
    envs = SingleAgentVectorEnv(3, game="tictactoe", opponent=Quitter())
    envs.reset(seed=0)
    obs, rewards, terminated, _, info = envs.step(np.array([0, 1, 2]))
    assert rewards.tolist() == [1.0, 1.0, 1.0] and terminated.all()
    assert info["opponent_forfeit"].tolist() == ["engine crashed"] * 3 and info["_opponent_forfeit"].all()
    assert envs.engine.num_moves.tolist() == [0, 0, 0]  # reset in the same step
    with pytest.raises(Forfeit, match="engine crashed"):  # a forfeit of the opening move propagates
        SingleAgentVectorEnv(2, game="tictactoe", opponent=Quitter(), seat="second").reset(seed=0)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"seat": "middle"}, ValueError, "unknown seat"),
        ({"illegal_action": "ignore"}, ValueError, "illegal_action"),
        ({"channels_first": "yes"}, TypeError, "channels_first must be True or False"),
        ({"channels_first": True, "flatten": True}, ValueError, "exclude each other"),
    ],
)
def test_the_vector_view_checks_its_options_as_the_single_agent_view_does(kwargs, error, message):
    for make_view in (lambda: SingleAgentEnv("tictactoe", **kwargs),
                      lambda: gymnasium.make_vec("boardgame_envs/TicTacToe-v0", num_envs=2,
                                                 vectorization_mode="vector_entry_point", **kwargs)):  # fmt: skip
        with pytest.raises(error, match=message):
            make_view()
