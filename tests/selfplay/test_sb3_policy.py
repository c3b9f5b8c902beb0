"""``sb3:PATH`` specs: MaskablePPO, PPO, A2C and DQN zips as policies, legal moves only, one-line errors."""

from __future__ import annotations

import subprocess
import sys

import gymnasium
import numpy as np
import pytest

import boardgame_envs  # noqa: F401
from boardgame_envs.games.catalog import game_info
from boardgame_envs.policies.registry import PolicySpecError, make_policy
from boardgame_envs.selfplay.sb3_policy import Sb3Actor, algorithm_of, encode, layout_of

SMALL = {"net_arch": [16]}


@pytest.fixture(scope="module")
def zips(tmp_path_factory):
    """One small untrained model of each algorithm and layout, saved as SB3 saves them."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import A2C, DQN, PPO

    from boardgame_envs.vector.sb3 import BoardCNN

    folder = tmp_path_factory.mktemp("zips")
    ttt = dict(id="boardgame_envs/TicTacToe-v0")
    made = {
        "maskable": (MaskablePPO, "MlpPolicy", {}, {"n_steps": 16, "batch_size": 16}),
        "ppo_flat": (PPO, "MlpPolicy", {"flatten": True}, {"n_steps": 16, "batch_size": 16}),
        "a2c": (A2C, "MlpPolicy", {}, {"n_steps": 4}),
        "dqn": (DQN, "MlpPolicy", {}, {}),
        "cnn": (MaskablePPO, "CnnPolicy", {"channels_first": True}, {"n_steps": 16, "batch_size": 16}),
    }
    paths = {}
    for name, (cls, policy, env_kwargs, kwargs) in made.items():
        kw = dict(SMALL)
        if policy == "CnnPolicy":
            kw = {"features_extractor_class": BoardCNN, "features_extractor_kwargs": {"features_dim": 8, "channels": 4}}
        model = cls(policy, gymnasium.make(**ttt, **env_kwargs), seed=0, policy_kwargs=kw, **kwargs)
        paths[name] = folder / f"{name}.zip"
        model.save(paths[name])
    gomoku = MaskablePPO("MlpPolicy", gymnasium.make("boardgame_envs/Gomoku-v0", board_size=7), n_steps=16,
                         batch_size=16, seed=0, policy_kwargs=SMALL)  # fmt: skip
    paths["gomoku7"] = folder / "gomoku7.zip"
    gomoku.save(paths["gomoku7"])
    return paths


def test_the_algorithm_is_read_from_the_file(zips):
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import A2C, DQN, PPO

    expected = {"maskable": MaskablePPO, "ppo_flat": PPO, "a2c": A2C, "dqn": DQN, "cnn": MaskablePPO}
    assert {name: algorithm_of(zips[name]) for name in expected} == expected


@pytest.mark.parametrize("name", ["maskable", "ppo_flat", "a2c", "dqn", "cnn"])
def test_each_model_plays_its_best_legal_move(zips, name):
    policy = make_policy(f"sb3:{zips[name]}")
    game = game_info("tictactoe").game()
    state = game.new_state()
    for a in (4, 0, 8, 2):  # the centre and three corners: five points stay empty, X to move
        state.play(a)
    layout = {"ppo_flat": "flat", "cnn": "chw"}.get(name, "hwc")
    obs = encode(state.planes(state.to_move)[None], layout)
    scores = policy.actor.scores(obs)[0]
    legal = state.legal_mask()
    best = int(np.flatnonzero(legal)[np.argmax(scores[legal])])
    assert policy.act(state) == best
    only = legal & (np.arange(9) == np.flatnonzero(legal)[-1])
    assert policy.actor(obs, only[None])[0] == np.flatnonzero(only)[0]  # a single legal move is taken


def test_sample_true_samples_among_legal_moves_only(zips):
    policy = make_policy(f"sb3:{zips['maskable']}:sample=true", seed=0)
    state = game_info("tictactoe").game().new_state()
    state.play(4)
    moves = {policy.act(state) for _ in range(60)}
    assert len(moves) > 2 and 4 not in moves


def test_a_seed_fixes_the_samples(zips):
    state = game_info("tictactoe").game().new_state()
    a, b = (make_policy(f"sb3:{zips['maskable']}:sample=true", seed=3) for _ in range(2))
    assert [a.act(state) for _ in range(12)] == [b.act(state) for _ in range(12)]


def test_mistakes_are_one_line_errors(zips, tmp_path):
    game = game_info("tictactoe").game()
    with pytest.raises(ValueError, match="trained on another game"):
        make_policy(f"sb3:{zips['gomoku7']}").check_game(game)
    with pytest.raises(FileNotFoundError, match="no SB3 model"):
        make_policy(f"sb3:{tmp_path / 'missing.zip'}")
    (tmp_path / "junk.zip").write_text("not a zip")
    with pytest.raises(ValueError, match="not a model saved by Stable-Baselines3"):
        make_policy(f"sb3:{tmp_path / 'junk.zip'}")
    with pytest.raises(ValueError, match="DQN"):
        make_policy(f"sb3:{zips['dqn']}:sample=true")
    with pytest.raises(PolicySpecError, match="layout"):
        make_policy(f"sb3:{zips['maskable']}:layout=nhwc")
    with pytest.raises(ValueError, match="laid out as chw"):
        make_policy(f"sb3:{zips['maskable']}:layout=chw").check_game(game)
    with pytest.raises(PolicySpecError, match="needs a target"):
        make_policy("sb3")


def test_an_unknown_algorithm_is_named(zips, tmp_path):
    import json
    import zipfile

    odd = tmp_path / "odd.zip"
    with zipfile.ZipFile(zips["maskable"]) as src, zipfile.ZipFile(odd, "w") as dst:
        for item in src.namelist():
            data = src.read(item)
            if item == "data":
                parsed = json.loads(data)
                parsed["policy_class"]["__module__"] = "sb3_contrib.qrdqn.policies"
                data = json.dumps(parsed).encode()
            dst.writestr(item, data)
    with pytest.raises(ValueError, match="unknown algorithm"):
        algorithm_of(odd)


def test_a_shape_that_fits_two_layouts_must_be_named():
    assert layout_of((3, 3, 2), (3, 3, 2)) == "hwc" and layout_of((18,), (3, 3, 2)) == "flat"
    with pytest.raises(ValueError, match="layout=hwc or layout=chw"):
        layout_of((5, 5, 5), (5, 5, 5))


def test_the_command_line_takes_sb3_specs(zips):
    """rate and demo play an sb3: model; one of another game is one line on stderr, exit status 2."""
    cli = [sys.executable, "-m", "boardgame_envs"]
    out = subprocess.run([*cli, "demo", "tictactoe", "--first", f"sb3:{zips['maskable']}"], capture_output=True,
                         text=True, timeout=120)  # fmt: skip
    assert out.returncode == 0 and "moves:" in out.stdout, out.stderr[-2000:]
    out = subprocess.run([*cli, "rate", f"sb3:{zips['gomoku7']}", "tictactoe", "--games", "2"], capture_output=True,
                         text=True, timeout=120)  # fmt: skip
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "trained on another game" in out.stderr


def test_the_spec_sets_one_torch_thread_unless_told(zips, torch_threads):
    import torch

    torch.set_num_threads(2)
    make_policy(f"sb3:{zips['maskable']}")
    assert torch.get_num_threads() == 1  # one position a move: a second thread only spins
    make_policy(f"sb3:{zips['maskable']}:torch_threads=2")
    assert torch.get_num_threads() == 2
    make_policy(f"sb3:{zips['maskable']}:torch_threads=none")  # left as it is
    assert torch.get_num_threads() == 2
    with pytest.raises(PolicySpecError, match="torch_threads must be a positive integer, got 0"):
        make_policy(f"sb3:{zips['maskable']}:torch_threads=0")
