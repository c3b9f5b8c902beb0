"""gomoku_v0 under an opening rule: PettingZoo's conformance tests, seats and colours, errors, rendering, views."""

from __future__ import annotations

import pickle

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import boardgame_envs  # noqa: F401 (registers the ids)
from boardgame_envs import IllegalMoveError, gomoku_v0
from boardgame_envs.envs.factory import make_env

CASES = [(9, "renju", "soosorv8"), (9, "renju", "taraguchi10"), (9, "renju", "rif"), (9, "freestyle", "swap2"),
         (15, "renju", "soosorv8"), (8, "standard", "swap2")]  # fmt: skip


def env_fn(size, rule, opening):
    return lambda render_mode=None: gomoku_v0.env(board_size=size, rule=rule, opening_rule=opening,
                                                  render_mode=render_mode)  # fmt: skip


@pytest.mark.parametrize(("size", "rule", "opening"), CASES)
def test_pettingzoo_api_and_seed_tests_pass(size, rule, opening):
    api_test(env_fn(size, rule, opening)(), num_cycles=300)
    seed_test(env_fn(size, rule, opening), num_cycles=50)


def test_render_test_passes():
    render_test(env_fn(9, "renju", "soosorv8"))


def play(env, moves: str) -> None:
    game = env.unwrapped.game
    for name in moves.split():
        env.step(game.parse_action(name))


def test_agents_are_seats_and_info_says_colour_and_phase():
    env = gomoku_v0.env(opening_rule="soosorv8")
    env.reset(seed=0)
    phase_id = env.unwrapped.game.opening.phases.index
    assert env.possible_agents == ["player_0", "player_1"] and env.agent_selection == "player_0"
    assert env.infos == {"player_0": {"color_id": 1, "phase_id": phase_id("stone")},
                         "player_1": {"color_id": 2, "phase_id": phase_id("stone")}}  # fmt: skip
    play(env, "h8 h9 i9")
    assert env.agent_selection == "player_1" and env.infos["player_1"]["phase_id"] == phase_id("swap")
    obs, *_ = env.last()
    assert {env.unwrapped.game.action_name(a) for a in np.flatnonzero(obs["action_mask"])} == {"swap", "keep"}
    play(env, "swap")
    assert env.infos["player_1"] == {"color_id": 1, "phase_id": phase_id("stone")} and env.agent_selection == "player_0"
    assert env.unwrapped.color_of("player_1") == "black" and env.unwrapped.phase == "stone"
    assert env.action_space("player_0").n == 225 + 2 + 8


def test_an_illegal_action_raises_naming_the_phase_under_raw_env_and_loses_under_env():
    raw = gomoku_v0.raw_env(opening_rule="taraguchi10")
    raw.reset()
    message = r"a15 is not the centre \(h8\): taraguchi10, first player lays black's stone 1 at the centre"
    with pytest.raises(IllegalMoveError, match=message):
        raw.step(0)
    assert raw.game_state.num_moves == 0
    env = gomoku_v0.env(opening_rule="taraguchi10")
    env.reset()
    env.last()
    env.step(0)
    assert env.rewards == {"player_0": -1, "player_1": 0} and env.terminations["player_0"]
    assert env.infos["player_0"]["illegal_action"] and "not the centre" in env.infos["player_0"]["reason"]


def test_the_wrapped_env_plays_a_won_game_to_the_seat_holding_the_colour():
    env = gomoku_v0.env(board_size=15, rule="freestyle", opening_rule="swap2")
    env.reset()
    play(env, "h8 h9 i8 black a1 j8 a2 k8 a3")  # the second player takes black and makes five
    assert env.agent_selection == "player_1"
    play(env, "l8")
    assert env.rewards == {"player_0": -1, "player_1": 1} and all(env.terminations.values())


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"opening_rule": "soosorv9"}, "unknown opening rule 'soosorv9'; expected one of soosorv1..soosorv8"),
        ({"opening_rule": "swap2"}, "swap2 is an opening rule of freestyle and standard, not of renju"),
        ({"rule": "freestyle", "opening_rule": "taraguchi10"}, "under freestyle use swap2"),
        ({"board_size": 14, "opening_rule": "soosorv8"}, "odd size"),
    ],
)
def test_rules_that_do_not_fit_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        gomoku_v0.env(**kwargs)


def test_make_env_takes_the_opening_rule_and_games_without_one_refuse_it():
    renju = make_env("renju", opening_rule=True)
    assert renju.unwrapped.game.opening.name == "soosorv8" and renju.unwrapped.game.size == 15
    gomoku = make_env("gomoku", board_size=9, rule="standard", opening_rule=True, raw=True)
    assert gomoku.game.opening.name == "swap2" and str(gomoku) == "gomoku_v0"
    assert type(make_env("gomoku", opening_rule=None, raw=True)) is gomoku_v0.raw_env
    for game in ("tictactoe", "connect_four"):
        with pytest.raises(ValueError, match=f"{game} takes no opening rule"):
            make_env(game, opening_rule="swap2")


def test_ansi_shows_the_phase_the_colours_and_the_offers():
    env = gomoku_v0.env(board_size=9, opening_rule="soosorv8", render_mode="ansi")
    env.reset()
    play(env, "e5 e6 e4 swap e7 offers=2 keep d3")
    text = env.render()
    assert text.splitlines()[7].startswith(" 3  . . . +")  # d3, offered
    assert "soosorv8: player_0 (first player) white, player_1 (second player) black" in text
    assert "phase offer: player_1 to act: soosorv8, second player offers black's fifth move 2 of 2" in text
    assert "+ offered fifth move" in text


def test_rgb_array_draws_the_base_position():
    env = gomoku_v0.env(board_size=9, opening_rule="rif", render_mode="rgb_array")
    env.reset()
    play(env, "e5 e6 e4")
    image = env.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3


def test_reset_can_play_an_opening_given_as_actions_and_decisions():
    env = gomoku_v0.env(board_size=9, opening_rule="soosorv8")
    env.reset(options={"opening": "e5 e6 e4 swap e7 offers=1"})
    assert env.agent_selection == "player_1" and env.unwrapped.phase == "swap"
    with pytest.raises(IllegalMoveError, match="move 5: swap is not a choice now: soosorv8, second player lays white"):
        env.reset(options={"opening": "e5 e6 e4 keep swap"})


def test_a_pickled_env_goes_on_mid_opening():
    env = gomoku_v0.env(board_size=9, opening_rule="soosorv8")
    env.reset()
    play(env, "e5 e6 e4 keep e7 offers=2 keep d3")
    clone = pickle.loads(pickle.dumps(env))
    np.testing.assert_array_equal(env.last()[0]["action_mask"], clone.last()[0]["action_mask"])
    play(clone, "d4")
    assert clone.unwrapped.game_state.phase == "choose" and env.unwrapped.game_state.phase == "offer"


def test_the_single_agent_view_plays_whole_games_through_the_opening():
    env = gymnasium.make("boardgame_envs/Gomoku-v0", board_size=9, opening_rule="soosorv8", opponent="random",
                         seat="random")  # fmt: skip
    rng = np.random.default_rng(0)
    for episode in range(6):
        obs, info = env.reset(seed=episode)
        assert obs.shape == (9, 9, env.unwrapped.aec.game.num_planes) and info["phase"] in ("stone", "swap")
        terminated = False
        while not terminated:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, terminated, _, info = env.step(action)
            aec = env.unwrapped.aec  # the Gymnasium view keeps the words (its info is read by no tensor maker)
            assert (info["color"], info["phase"]) == (aec.color_of(env.unwrapped.learner), aec.phase)
        assert reward in (-1.0, 0.0, 1.0)


def test_make_vec_runs_single_agent_envs_under_an_opening_rule():
    envs = gymnasium.make_vec("boardgame_envs/Renju-v0", num_envs=2, opening_rule="rif")
    obs, _ = envs.reset(seed=0)
    assert obs.shape == (2, 15, 15, envs.unwrapped.envs[0].unwrapped.aec.game.num_planes)
    with pytest.raises(ValueError, match="parallel=True"):
        gymnasium.make_vec("boardgame_envs/Renju-v0", num_envs=2, opening_rule="rif", parallel=True)
    with pytest.raises(ValueError, match="unknown opening rule"):
        gymnasium.make_vec("boardgame_envs/Renju-v0", num_envs=2, opening_rule="rif2")


def test_the_pettingzoo_registry_and_the_catalog_carry_the_opening_rule():
    import pettingzoo

    from boardgame_envs.games.catalog import game_info

    env = pettingzoo.make("aec", "boardgame_envs/gomoku-v0", board_size=9, rule="freestyle", opening_rule="swap2")
    env.reset()
    assert env.unwrapped.game.opening.name == "swap2" and env.possible_agents == ["player_0", "player_1"]
    info = game_info("renju")
    game = info.game(opening_rule="taraguchi10")
    assert info.env_kwargs(game) == {"opening_rule": "taraguchi10"}
    assert info.game(opening_rule=False) == info.game()  # False, like None: the empty board
