"""A game's catalog parameters through every Gymnasium door: ``SingleAgentEnv``, ``gymnasium.make``, ``vector.make``,
``SingleAgentVectorEnv`` and ``gymnasium.make_vec`` take ``parameters={"rows": 3}`` and build that size (the
dots-and-boxes test game, in the catalog while each test runs); a parameter the entry does not declare, a value
outside its choices, a non-dict, and parameters handed to an m,n,k game or connect four are refused with a typed
error naming what is allowed."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import boardgame_envs  # noqa: F401  (registers the ids)
from boardgame_envs import vector
from boardgame_envs.envs.factory import make_env
from boardgame_envs.envs.single_agent import SingleAgentEnv
from boardgame_envs.vector.gym_env import SingleAgentVectorEnv
from conformance.cases import in_catalog

DOTS_ID = "boardgame_envs/DotsAndBoxes-v0"


@pytest.fixture(autouse=True)
def dots():
    with in_catalog("dots_and_boxes"):
        yield


def lines(rows: int, columns: int) -> int:
    """Dots and boxes' actions on ``rows`` x ``columns`` boxes: its horizontal and vertical lines."""
    return rows * (columns + 1) + columns * (rows + 1)


def play_out(env, seed: int = 0) -> float:
    """A whole game of random legal moves on a single-agent env; the learner's return."""
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    total, done = 0.0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, terminated, truncated, info = env.step(action)
        total, done = total + reward, terminated or truncated
    return total


@pytest.mark.parametrize("rows", [1, 3])
def test_single_agent_env_builds_the_size_asked(rows):
    env = SingleAgentEnv("dots_and_boxes", parameters={"rows": rows}, opponent="random")
    game = env.aec.game
    assert (game.rows, game.columns) == (rows, 2)
    assert env.action_space.n == lines(rows, 2)
    assert env.observation_space.shape == (2 * rows + 1, 5, 3)
    assert play_out(env) in (-1.0, 0.0, 1.0)
    assert env.aec.game_state.terminal and env.aec.game_state.num_moves == lines(rows, 2)  # every line drawn


@pytest.mark.parametrize("rows", [1, 3])
def test_gymnasium_make_passes_parameters(rows):
    env = gymnasium.make(DOTS_ID, parameters={"rows": rows, "columns": rows}, opponent="greedy", flatten=True)
    assert env.action_space.n == lines(rows, rows)
    assert env.observation_space.shape == ((2 * rows + 1) ** 2 * 3,)
    assert env.unwrapped.aec.game.rows == rows
    play_out(env, seed=1)
    env.close()


@pytest.mark.parametrize("rows", [1, 3])
def test_vector_make_builds_the_size_asked(rows):
    vec = vector.make("dots_and_boxes", 4, parameters={"rows": rows})
    assert vec.game.rows == rows and vec.num_actions == lines(rows, 2)
    assert vec.legal_action_mask.shape == (4, lines(rows, 2))
    assert vec.legal_action_mask.all()  # the empty board: every line is free
    finished = 0
    for _ in range(4 * lines(rows, 2)):
        _, _, terminated, _, _ = vec.step(vec.sample_legal_actions())
        finished += int(terminated.sum())
    assert finished > 0


def test_vector_make_takes_parameters_as_keywords_as_make_env_does():
    """Keywords, as make_env takes them, or the dict; both ways at once, or a name off the entry, refused."""
    vec = vector.make("dots_and_boxes", 2, rows=3, columns=1)
    assert (vec.game.rows, vec.game.columns) == (3, 1) and vec.game == make_env("dots_and_boxes", rows=3, columns=1).unwrapped.game
    assert vector.make("dots_and_boxes", 2, rows=3, parameters={"columns": 1}).game == vec.game
    with pytest.raises(TypeError, match=r"^rows given both as a keyword and in parameters=; give each once$"):
        vector.make("dots_and_boxes", 2, rows=3, parameters={"rows": 3})
    with pytest.raises(ValueError, match=r"^dots_and_boxes takes no depth; its parameters: rows \("):
        vector.make("dots_and_boxes", 2, depth=3)
    with pytest.raises(ValueError, match=r"^dots_and_boxes: rows must be one of 1, 2, 3, got 7$"):
        vector.make("dots_and_boxes", 2, rows=7)


@pytest.mark.parametrize("rows", [1, 3])
def test_vector_env_and_make_vec_pass_parameters(rows):
    direct = SingleAgentVectorEnv(3, "dots_and_boxes", parameters={"rows": rows})
    made = gymnasium.make_vec(DOTS_ID, num_envs=3, vectorization_mode="vector_entry_point", parameters={"rows": rows})
    synced = gymnasium.make_vec(DOTS_ID, num_envs=2, vectorization_mode="sync", parameters={"rows": rows})
    for envs in (direct, made, synced):
        assert envs.single_action_space.n == lines(rows, 2)
        assert envs.single_observation_space.shape == (2 * rows + 1, 5, 3)
        _, info = envs.reset(seed=0)
        assert info["action_mask"].shape[1] == lines(rows, 2)
        envs.close()
    assert direct.engine.game.rows == made.engine.game.rows == rows


def every_door(parameters):
    """Each door built with ``parameters`` on the dots-and-boxes test game."""
    return {
        "SingleAgentEnv": lambda: SingleAgentEnv("dots_and_boxes", parameters=parameters),
        "gymnasium.make": lambda: gymnasium.make(DOTS_ID, parameters=parameters),
        "vector.make": lambda: vector.make("dots_and_boxes", 2, parameters=parameters),
        "SingleAgentVectorEnv": lambda: SingleAgentVectorEnv(2, "dots_and_boxes", parameters=parameters),
        "make_vec": lambda: gymnasium.make_vec(DOTS_ID, num_envs=2, vectorization_mode="vector_entry_point",
                                               parameters=parameters),
    }  # fmt: skip


@pytest.mark.parametrize("door", list(every_door({})))
def test_an_undeclared_parameter_names_the_declared_ones(door):
    with pytest.raises(ValueError, match=r"dots_and_boxes takes no depth; its parameters: rows \(1, 2, 3; default 2\), "
                                         r"columns \(1, 2, 3; default 2\)"):  # fmt: skip
        every_door({"depth": 2})[door]()


@pytest.mark.parametrize("door", list(every_door({})))
@pytest.mark.parametrize("value", [7, 0, "3", True])
def test_a_value_outside_the_choices_names_them(door, value):
    with pytest.raises(ValueError, match=r"dots_and_boxes: rows must be one of 1, 2, 3, got "):
        every_door({"rows": value})[door]()


@pytest.mark.parametrize("door", list(every_door({})))
@pytest.mark.parametrize("parameters", [3, "rows=3", [("rows", 3)], {3: 3}])
def test_parameters_that_are_no_dict_of_names_are_a_type_error(door, parameters):
    with pytest.raises(TypeError, match=r"parameters must be a dict of a game's parameters by name, e\.g\. \{'rows': 3\}"):
        every_door(parameters)[door]()


@pytest.mark.parametrize("game, says", [
    ("tictactoe", "tictactoe takes board_size, win_length and rule; rows does not apply"),
    ("gomoku", "gomoku takes board_size, win_length and rule; rows does not apply"),
    ("connect_four", "connect_four takes no rows; it takes no parameters"),
])  # fmt: skip
def test_parameters_for_a_game_without_them_are_refused(game, says):
    for build in (lambda: SingleAgentEnv(game, parameters={"rows": 3}),
                  lambda: vector.make(game, 2, parameters={"rows": 3}),
                  lambda: SingleAgentVectorEnv(2, game, parameters={"rows": 3})):  # fmt: skip
        with pytest.raises(ValueError, match=says):
            build()


def test_no_parameters_and_empty_parameters_give_the_default_size():
    for parameters in (None, {}):
        assert SingleAgentEnv("dots_and_boxes", parameters=parameters).action_space.n == lines(2, 2)
        assert vector.make("dots_and_boxes", 1, parameters=parameters).num_actions == lines(2, 2)
    assert SingleAgentEnv("tictactoe", parameters={}).action_space.n == 9  # none given: nothing to refuse
