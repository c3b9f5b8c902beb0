"""The Gymnasium view: checkers, rewards on the opponent's winning reply, seats, seeds, illegal actions, vector envs."""

from __future__ import annotations

import subprocess
import sys

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import boardgame_envs  # noqa: F401
from boardgame_envs import IllegalMoveError
from boardgame_envs.envs.single_agent import SingleAgentEnv, register_gymnasium_envs

IDS = ["boardgame_envs/TicTacToe-v0", "boardgame_envs/Gomoku-v0", "boardgame_envs/Renju-v0"]


def scripted(*moves):
    """A callable opponent that plays ``moves`` in order (and fails loudly if asked for more)."""
    it = iter(moves)
    return lambda observation, mask: next(it)


@pytest.mark.parametrize("env_id", IDS)
def test_checkers_pass(env_id):
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    check_env(gymnasium.make(env_id).unwrapped)
    check_env(gymnasium.make(env_id, seat="random", flatten=True).unwrapped)
    sb3_check_env(gymnasium.make(env_id, flatten=True).unwrapped)
    with pytest.warns(UserWarning):  # SB3 notes our 0/1 planes are not 0..255 images of 36x36+; that is deliberate
        sb3_check_env(gymnasium.make(env_id, channels_first=True).unwrapped)


def test_spaces():
    assert SingleAgentEnv().observation_space == gymnasium.spaces.Box(0, 1, (3, 3, 2), np.uint8)
    env = gymnasium.make("boardgame_envs/Gomoku-v0", board_size=9, channels_first=True)
    assert env.observation_space.shape[1:] == (9, 9) and env.action_space.n == 81
    renju = gymnasium.make("boardgame_envs/Renju-v0", flatten=True)
    assert renju.action_space.n == 225 and renju.observation_space.shape[0] % 225 == 0


def test_opponent_winning_reply_returns_minus_one_on_that_step():
    # Learner (second, O) plays the middle row; the opponent (X) completes the top row:
    #   X X X
    #   O O .
    #   . . .
    env = SingleAgentEnv("tictactoe", opponent=scripted(0, 1, 2), seat="second")
    env.reset(seed=0)
    steps = [env.step(a)[1:4] for a in (3, 4)]
    assert steps == [(0.0, False, False), (-1.0, True, False)]
    assert type(steps[-1][0]) is float and type(steps[-1][1]) is bool
    assert not env.action_masks().any()


def test_learner_win_and_draw():
    env = SingleAgentEnv("tictactoe", opponent=scripted(3, 4), seat="first")
    env.reset(seed=0)
    assert env.step(0)[1:3] == (0.0, False)
    assert env.step(1)[1:3] == (0.0, False)
    assert env.step(2)[1:3] == (1.0, True)  # top row; the opponent does not reply
    # A full board with no line (learner X first):
    #   X O X
    #   X O O
    #   O X X
    draw = SingleAgentEnv("tictactoe", opponent=scripted(1, 4, 5, 6), seat="first")
    draw.reset(seed=0)
    results = [draw.step(a)[1:3] for a in (0, 2, 3, 7, 8)]
    assert results == [(0.0, False)] * 4 + [(0.0, True)]


def test_seats():
    second = SingleAgentEnv("tictactoe", opponent=scripted(4), seat="second")
    obs, info = second.reset(seed=0)
    assert info["seat"] == "second" and second.learner == second.aec.possible_agents[1]
    assert obs[1, 1, 1] == 1 and obs[..., 0].sum() == 0  # the opponent's stone, seen from the learner's side
    assert info["action_mask"].sum() == 8
    seats = set()
    for seed in range(20):
        env = SingleAgentEnv("tictactoe", seat="random")
        seat = env.reset(seed=seed)[1]["seat"]
        assert SingleAgentEnv("tictactoe", seat="random").reset(seed=seed)[1]["seat"] == seat  # same seed, same seat
        assert (env.aec.game_state.board != 0).sum() == (seat == "second")
        seats.add(seat)
    assert seats == {"first", "second"}


def test_observation_is_the_learners_and_masks_agree():
    env = SingleAgentEnv("gomoku", board_size=7, rule="freestyle", seat="second", opponent="random", channels_first=True)
    obs, info = env.reset(seed=0)
    assert obs.shape == (4, 7, 7) and obs.dtype == np.uint8 and env.observation_space.contains(obs)
    assert obs[1].sum() == 1 and obs[0].sum() == 0  # the opponent (black) has moved once
    np.testing.assert_array_equal(info["action_mask"], env.action_masks())
    assert env.action_masks().sum() == 48
    assert SingleAgentEnv("tictactoe", flatten=True).reset(seed=0)[0].shape == (18,)


def test_callable_opponent_sees_its_own_view_in_the_learners_encoding():
    seen = []

    def opponent(observation, mask):
        seen.append((observation.copy(), mask.copy()))
        return int(np.flatnonzero(mask)[0])

    env = SingleAgentEnv("tictactoe", opponent=opponent, seat="first", channels_first=True)
    env.reset(seed=0)
    env.step(4)  # learner X in the centre; the opponent replies in the first free cell, 0
    observation, mask = seen[0]
    assert observation.shape == env.observation_space.shape and observation.dtype == np.uint8
    assert observation[0].sum() == 0 and observation[1, 1, 1] == 1  # the centre stone is the opponent's (the learner's)
    assert mask.dtype == bool and mask.sum() == 8 and not mask[4]
    assert env.aec.game_state.board[0] != 0


def test_same_seed_same_episode():
    def episode(seed):
        env = SingleAgentEnv("gomoku", board_size=7, opponent=("mcts", {"simulations": 200}), seat="random")
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        frames = [obs]
        terminated = False
        while not terminated:
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            obs, _, terminated, _, _ = env.step(action)
            frames.append(obs)
        return np.stack(frames)

    np.testing.assert_array_equal(episode(5), episode(5))
    env = SingleAgentEnv("tictactoe", seat="second")
    firsts = set()
    for _ in range(2):
        env.set_opponent("random", seed=3)
        firsts.add(int(np.flatnonzero(env.reset()[0][..., 1].reshape(-1))[0]))
    assert len(firsts) == 1  # set_opponent(seed=) fixes the opponent without a seeded reset


@pytest.mark.parametrize("bad", [4, 9, -1, 2.5, "3", None])
def test_illegal_actions_lose(bad):
    env = SingleAgentEnv("tictactoe", opponent=scripted(0))
    env.reset(seed=0)
    env.step(4)  # the centre is now occupied
    before = env.aec.game_state.board.copy()
    obs, reward, terminated, truncated, info = env.step(bad)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert isinstance(info["reason"], str) and not env.action_masks().any()
    np.testing.assert_array_equal(env.aec.game_state.board, before)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(1)
    assert env.reset(seed=0)[1]["action_mask"].all()  # reset clears the forfeit


def test_illegal_actions_raise():
    strict = SingleAgentEnv("tictactoe", illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalMoveError, match="out of range"):
        strict.step(42)
    strict.step(np.int64(0))  # numpy integers (what SB3 passes) are fine
    with pytest.raises(IllegalMoveError, match="occupied"):
        strict.step(0)


def test_renju_forbidden_point_loses_or_raises():
    # Black (learner) builds two open twos crossing at h8; white plays the corners.
    # h8 would make two open threes at once (row 8 f-g-h, column h 8-9-10): forbidden.
    #   10 . . X .
    #    9 . . X .
    #    8 X X * .
    #      f g h i
    n = 15
    corners = (0, 14, 210, 224)
    for mode in ("lose", "raise"):
        env = SingleAgentEnv("gomoku", rule="renju", opponent=scripted(*corners), seat="first", illegal_action=mode)
        env.reset(seed=0)
        for r, c in [(7, 5), (5, 7), (7, 6), (6, 7)]:
            assert env.step(r * n + c)[1:3] == (0.0, False)
        h8 = 7 * n + 7
        assert not env.action_masks()[h8] and env.action_masks().sum() == 225 - 8 - 1
        if mode == "raise":
            with pytest.raises(IllegalMoveError, match="double-three"):
                env.step(h8)
        else:
            _, reward, terminated, _, info = env.step(h8)
            assert (reward, terminated) == (-1.0, True) and "double-three" in info["reason"]


def test_bad_arguments():
    with pytest.raises(ValueError, match="seat"):
        SingleAgentEnv(seat="middle")
    with pytest.raises(ValueError, match="illegal_action"):
        SingleAgentEnv(illegal_action="ignore")
    with pytest.raises(ValueError, match="game"):
        SingleAgentEnv(game="chess")
    with pytest.raises(ValueError, match="opponent"):
        SingleAgentEnv(opponent=42)
    with pytest.raises(ValueError, match="unknown policy"):
        SingleAgentEnv(opponent="grandmaster")
    with pytest.raises(ValueError, match="render_mode"):
        SingleAgentEnv(render_mode="pygame")


def test_render_passthrough():
    env = SingleAgentEnv("tictactoe", render_mode="ansi", opponent=scripted(0))
    env.reset(seed=0)
    env.step(4)
    text = env.render()
    assert isinstance(text, str) and "X" in text and "O" in text
    image = gymnasium.make("boardgame_envs/TicTacToe-v0", render_mode="rgb_array")
    image.reset(seed=0)
    frame = image.render()
    assert frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8
    assert SingleAgentEnv().render() is None


def test_make_vec_and_registration():
    register_gymnasium_envs()  # a second call leaves the ids alone
    assert all(env_id in gymnasium.registry for env_id in IDS)
    vec = gymnasium.make_vec("boardgame_envs/TicTacToe-v0", num_envs=2, vectorization_mode="sync", flatten=True)
    obs, info = vec.reset(seed=0)
    assert obs.shape == (2, 18) and info["action_mask"].shape == (2, 9)
    obs, reward, terminated, truncated, info = vec.step(np.array([4, 4]))
    assert reward.tolist() == [0.0, 0.0] and not terminated.any()
    vec.close()


def test_ids_need_the_import_or_the_module_prefix():
    code = (
        "import gymnasium\n"
        "try:\n    gymnasium.make('boardgame_envs/TicTacToe-v0')\nexcept gymnasium.error.Error:\n    print('plain id fails')\n"
        "env = gymnasium.make('boardgame_envs:boardgame_envs/TicTacToe-v0')\n"
        "print(env.reset(seed=0)[0].shape)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split("\n")[:2] == ["plain id fails", "(3, 3, 2)"]
