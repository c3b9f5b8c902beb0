"""The networks shipped with the package: each loads, plays legal moves; tic-tac-toe never loses."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardgame_envs import tictactoe_v0
from boardgame_envs.alphazero import PRETRAINED, NetworkPolicy
from boardgame_envs.alphazero.pretrained import UnknownPretrainedError
from boardgame_envs.arena import match
from boardgame_envs.envs.factory import make_env
from boardgame_envs.games.catalog import game_info
from boardgame_envs.policies.registry import PolicySpecError, make_policy


def env_of(entry):
    return make_env(entry.game, entry.board_size, entry.win_length, entry.rule)


@pytest.mark.parametrize("name", sorted(PRETRAINED))
def test_loads_and_plays_legal_moves(name):
    entry = PRETRAINED[name]
    game = game_info(entry.game).game(entry.board_size, entry.win_length, entry.rule)
    if entry.kind == "alphazero":
        policy = make_policy(f"pretrained:{name}:simulations=16", seed=0)
        assert isinstance(policy, NetworkPolicy) and policy.simulations == 16 and policy.game == game
    else:  # a PPO recipe's model: its policy alone, no search to set
        policy = make_policy(f"pretrained:{name}", seed=0)
        policy.check_game(game)  # raises for any game but its own
        with pytest.raises(PolicySpecError, match="takes sample"):
            make_policy(f"pretrained:{name}:simulations=16")
        with pytest.raises(ValueError, match="not an AlphaZero network"):
            NetworkPolicy.from_pretrained(name)
    assert policy.name == f"pretrained:{name}"
    env = env_of(entry)
    env.reset(seed=0)
    for ply in range(12):
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        action = policy.act(env)
        assert env.observe(env.agent_selection)["action_mask"][action] == 1, (name, ply, action)
        env.step(action)


def test_the_shipped_set_and_its_size():
    assert {"tictactoe", "gomoku-8x8", "renju-15x15", "renju-15x15-v1", "connect-four"} <= set(PRETRAINED)
    assert {"ppo-connect-four", "sb3-connect-four", "ppo-gomoku9", "ppo-renju"} <= set(PRETRAINED)  # the PPO recipes' models (issue 39)
    assert sum(entry.path.stat().st_size for entry in PRETRAINED.values()) <= 10 * 2**20
    assert all(entry.path.stat().st_size < 2 * 2**20 for entry in PRETRAINED.values() if entry.kind != "alphazero")
    # The weights go into the wheel as package data.
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    shipped = pyproject["tool"]["setuptools"]["package-data"]["boardgame_envs.alphazero"]
    assert {"pretrained/*.pt", "pretrained/*.zip"} <= set(shipped)


def test_default_simulations_are_the_entrys():
    policy = NetworkPolicy.from_pretrained("tictactoe", seed=0)
    assert policy.simulations == PRETRAINED["tictactoe"].simulations and policy.name == "pretrained:tictactoe"


def test_bad_thread_count_is_refused():
    with pytest.raises(ValueError, match="torch_threads must be a positive integer"):
        NetworkPolicy(None, torch_threads=0)


def test_unknown_name_lists_the_known_ones():
    with pytest.raises(UnknownPretrainedError, match="no pretrained network 'chess'.*tictactoe"):
        make_policy("pretrained:chess")


@pytest.mark.slow
def test_tictactoe_never_loses_to_perfect_play():
    result = match(tictactoe_v0.env, "pretrained:tictactoe", "perfect", games=100, seed=0, progress=False)
    assert result.losses == 0, result.by_seat


@pytest.mark.parametrize("name", sorted(PRETRAINED))
def test_each_network_is_rated_on_its_own_games_ladder(name):
    from boardgame_envs.ladder import LADDERS, ladder_for

    entry = PRETRAINED[name]
    rating = entry.ladder_rating
    assert rating is not None, f"{name} has no ladder rating"
    ladder = LADDERS[rating.ladder]
    assert ladder is ladder_for(entry.game, entry.rule, entry.board_size) and entry.win_length in (3, 5, None)
    assert rating.low < rating.elo < rating.high and rating.games >= 2
    assert f"{rating.elo:+.0f}" in entry.rating  # the prose says the same


def test_ladder_command_lists_the_networks_rated_on_it(capsys):
    from boardgame_envs.cli import main

    assert main(["ladder", "gomoku", "--board-size", "8"]) == 0
    out = capsys.readouterr().out
    assert "gomoku8/12" in out and "pretrained:gomoku-8x8" in out and "+1453" in out
    assert main(["ladder", "renju"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # Each network as it was rated: the renju network with its threat search, the first one without.
    assert any("pretrained:renju-15x15 " in line and "with the threat search" in line for line in lines)
    assert any("pretrained:renju-15x15-v1" in line and "threat" not in line for line in lines)
    assert main(["ladder", "gomoku", "--board-size", "9"]) == 0
    assert any("pretrained:ppo-gomoku9" in line and "no search" in line for line in capsys.readouterr().out.splitlines())
    assert main(["ladder", "gomoku15"]) == 0
    assert "pretrained" not in capsys.readouterr().out  # none rated there


def test_the_renju_network_plays_as_it_was_rated():
    """pretrained:renju-15x15 was rated with its threat search, so it plays with it unless told otherwise."""
    entry = PRETRAINED["renju-15x15"]
    policy = NetworkPolicy.from_pretrained("renju-15x15", seed=0)
    assert entry.threats and (policy.threats, policy.vcf_nodes, policy.simulations) == (True, 50, 400)
    assert not NetworkPolicy.from_pretrained("renju-15x15", threats=False, seed=0).threats
    assert not NetworkPolicy.from_pretrained("renju-15x15-v1", seed=0).threats  # rated with plain PUCT
