"""A user's mistakes with the envs: each is refused at once, with one line naming the bad value and what is accepted."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import boardgame_envs  # noqa: F401 (registers the Gymnasium ids)
from boardgame_envs import IllegalMoveError, gomoku_v0, tictactoe_v0
from boardgame_envs.envs.wrappers import ActionOutOfBoundsError


def _one_line(info: pytest.ExceptionInfo) -> str:
    text = str(info.value)
    assert "\n" not in text
    return text


@pytest.mark.parametrize("make", [tictactoe_v0.env, tictactoe_v0.raw_env])
@pytest.mark.parametrize(("seed", "error"), [(-1, ValueError), (1.5, TypeError), ("abc", TypeError),
                                             ([1, 2], TypeError), (True, TypeError)])  # fmt: skip
def test_reset_refuses_a_seed_that_is_not_a_non_negative_integer(make, seed, error):
    env = make()
    with pytest.raises(error) as info:
        env.reset(seed=seed)
    assert repr(seed) in _one_line(info) and "non-negative integer" in str(info.value)
    env.reset(seed=np.int64(3))  # numpy integers are integers
    assert env.action_space(env.agents[0]).n == 9


def test_reset_refuses_unknown_options():
    """An error: a misspelt "opening" would start from the empty board. PettingZoo's API test probe passes."""
    env = gomoku_v0.env()
    with pytest.raises(ValueError, match=r"^unknown reset option\(s\) 'openning'; accepted: 'opening'$"):
        env.reset(options={"openning": "h8"})
    env.reset(options={"options": 1})  # what pettingzoo.test.api_test sends
    with pytest.raises(TypeError, match="options must be None or a dict"):
        env.reset(options=["opening"])


@pytest.mark.parametrize("action", [True, 9, -1, 2.0, "4", None])
def test_env_step_with_no_action_of_the_board_names_it_and_the_legal_moves(action):
    env = tictactoe_v0.env()
    env.reset()
    env.step(4)
    with pytest.raises(ActionOutOfBoundsError) as info:
        env.step(action)
    text = _one_line(info)
    assert text.startswith(f"player_2 cannot play {action!r}:") and "0 (a3)" in text and "4 (b2)" not in text
    assert isinstance(info.value, ValueError) and isinstance(info.value, AssertionError)  # ours, and PettingZoo's type
    env.step(np.int64(0))  # a numpy integer is an action: the game goes on
    assert env.unwrapped.game_state.num_moves == 2


def test_the_wrapped_env_keeps_the_reason_of_an_illegal_move_in_the_offenders_info():
    env = tictactoe_v0.env()
    env.reset()
    env.step(4)
    env.step(4)  # player_2 plays on X's cell: PettingZoo's rule, the offender loses
    assert env.rewards["player_2"] == -1
    assert env.infos["player_2"] == {"illegal_action": True, "reason": "b2 is occupied (by X)"}
    assert env.infos["player_1"] == {}


@pytest.mark.parametrize("make", [tictactoe_v0.env, tictactoe_v0.raw_env])
def test_last_and_step_after_every_agent_is_done(make):
    env = make()
    env.reset()
    for a in (0, 3, 1, 4, 2):
        env.step(a)
    env.step(None)
    env.step(None)
    with pytest.raises(IllegalMoveError, match=r"^the game is over and every agent is done: call reset\(\)$"):
        env.last()


def test_raw_env_before_reset():
    env = tictactoe_v0.raw_env()
    for call in (lambda: env.step(0), env.last):
        with pytest.raises(IllegalMoveError, match=r"^call reset\(\) before the first step$"):
            call()


def test_occupied_says_x_and_o_on_tictactoe_and_colours_on_gomoku():
    env = tictactoe_v0.raw_env()
    env.reset()
    env.step(0)
    with pytest.raises(IllegalMoveError, match=r"^a3 is occupied \(by X\)$"):
        env.step(0)
    env = gomoku_v0.raw_env(board_size=9)
    env.reset()
    env.step(40)
    with pytest.raises(IllegalMoveError, match=r"^e5 is occupied \(by black\)$"):
        env.step(40)


# ------------------------------------------------------------ the Gymnasium view


@pytest.mark.parametrize(("env_id", "kwargs", "named"), [
    ("boardgame_envs/TicTacToe-v0", {"board_size": 5}, "board_size=5"),
    ("boardgame_envs/TicTacToe-v0", {"rule": "renju"}, "rule='renju'"),
    ("boardgame_envs/Renju-v0", {"rule": "freestyle"}, "rule='freestyle'"),
    ("boardgame_envs/Renju-v0", {"board_size": 9}, "board_size=9"),
])  # fmt: skip
def test_arguments_that_do_not_apply_are_refused_at_construction(env_id, kwargs, named):
    with pytest.raises(ValueError) as info:
        gymnasium.make(env_id, **kwargs)
    assert named in _one_line(info) and "does not apply" in str(info.value)


def test_renju_v0_is_15x15_renju():
    env = gymnasium.make("boardgame_envs/Renju-v0", rule="renju")
    game = env.unwrapped.aec.game
    assert (game.size, game.win_length, game.rule) == (15, 5, "renju")


@pytest.mark.parametrize("name", ["channels_first", "flatten"])
def test_flags_must_be_booleans(name):
    with pytest.raises(TypeError, match=f"{name} must be True or False, got 'yes'"):
        gymnasium.make("boardgame_envs/TicTacToe-v0", **{name: "yes"})
    with pytest.raises(ValueError, match="exclude each other"):
        gymnasium.make("boardgame_envs/TicTacToe-v0", channels_first=True, flatten=True)


def test_an_opponent_that_cannot_play_the_board_is_refused_at_construction():
    with pytest.raises(ValueError) as info:
        gymnasium.make("boardgame_envs/Gomoku-v0", board_size=9, opponent="perfect")
    assert "perfect player" in _one_line(info) and "9x9" in str(info.value)
    env = gymnasium.make("boardgame_envs/TicTacToe-v0", opponent="random")
    with pytest.raises(ValueError, match="perfect player"):
        gymnasium.make("boardgame_envs/Gomoku-v0", board_size=9).unwrapped.set_opponent("perfect")
    env.unwrapped.set_opponent("perfect")  # tic-tac-toe: fine


def test_action_masks_through_the_wrappers_and_before_reset():
    from sb3_contrib.common.maskable.utils import get_action_masks

    env = gymnasium.make("boardgame_envs/TicTacToe-v0")
    with pytest.raises(gymnasium.error.ResetNeeded, match="call reset"):
        env.unwrapped.action_masks()
    env.reset(seed=0)
    assert env.unwrapped.action_masks().all()
    assert env.get_wrapper_attr("action_masks")().all()
    assert get_action_masks(env).all()  # sb3-contrib's helper finds it through Gymnasium's wrappers


def test_the_gymnasium_view_checks_reset_options_as_the_aec_env_does():
    env = gymnasium.make("boardgame_envs/TicTacToe-v0")
    with pytest.raises(ValueError, match="unknown reset option"):
        env.reset(options={"openning": "b2"})
    with pytest.raises(TypeError, match="options must be None or a dict"):
        env.reset(options="b2")
