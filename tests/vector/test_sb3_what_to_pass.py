"""SB3VecEnv refuses what it cannot wrap with one message: what it got, and the call that gives what it takes."""

from __future__ import annotations

import gymnasium
import pytest

import boardgame_envs  # noqa: F401  (registers the ids)

pytest.importorskip("stable_baselines3")
from boardgame_envs.vector.sb3 import SB3VecEnv  # noqa: E402


def refusal(env) -> str:
    with pytest.raises(TypeError) as err:
        SB3VecEnv(env)
    return str(err.value)


def test_a_sync_vector_env_names_itself_and_the_vector_entry_point_call():
    envs = gymnasium.make_vec("boardgame_envs/ConnectFour-v0", num_envs=3, vectorization_mode="sync", opponent="greedy")
    said = refusal(envs)
    assert "got SyncVectorEnv of 'boardgame_envs/ConnectFour-v0' (vectorization_mode='sync')" in said
    assert said.endswith("pass gymnasium.make_vec('boardgame_envs/ConnectFour-v0', num_envs=3, "
                         "vectorization_mode='vector_entry_point', opponent='greedy')")  # fmt: skip
    SB3VecEnv(gymnasium.make_vec("boardgame_envs/ConnectFour-v0", num_envs=3,
                                 vectorization_mode="vector_entry_point", opponent="greedy"))  # what it said works


def test_a_single_env_an_opening_rule_and_a_foreign_env():
    said = refusal(gymnasium.make("boardgame_envs/TicTacToe-v0"))
    assert "got a single env" in said and "make_vec('boardgame_envs/TicTacToe-v0', num_envs=64" in said
    envs = gymnasium.make_vec("boardgame_envs/Gomoku-v0", num_envs=2, board_size=15, opening_rule="soosorv8")
    said = refusal(envs)
    assert "plays no opening rule (opening_rule='soosorv8')" in said
    assert "DummyVecEnv([lambda: gymnasium.make('boardgame_envs/Gomoku-v0', board_size=15, opening_rule='soosorv8')] * 2)" in said
    said = refusal(gymnasium.make_vec("CartPole-v1", num_envs=2))
    assert "got CartPoleVectorEnv of 'CartPole-v1'" in said and "SingleAgentVectorEnv(64, game=...)" in said
