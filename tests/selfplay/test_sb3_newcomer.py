"""A newcomer's SB3 mistakes get their true cause and the way forward, in one line: a path without the ``.zip``
that SB3's ``save()`` added, an SB3 zip handed to ``checkpoint:`` or ``boardnet:``, a model with a Dict observation
space, a policy class of the user's own, and ``Sb3Policy(model)`` (the fallback docs/trust.md gives) on a Dict model."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium import spaces

import boardgame_envs  # noqa: F401  (registers the envs)
from boardgame_envs.cli import main
from boardgame_envs.games.catalog import game_info
from boardgame_envs.policies.registry import PolicySpecError, make_policy
from boardgame_envs.selfplay.sb3_policy import Sb3Policy


class DictEnv(gymnasium.Env):
    """Tic-tac-toe's shapes as a PettingZoo-style dict: what a newcomer wraps the AEC env into."""

    observation_space = spaces.Dict({"observation": spaces.Box(0, 1, (3, 3, 2), np.int8),
                                     "action_mask": spaces.Box(0, 1, (9,), np.int8)})  # fmt: skip
    action_space = spaces.Discrete(9)

    def reset(self, seed=None, options=None):
        return self.observation_space.sample(), {}

    def step(self, action):
        return self.observation_space.sample(), 0.0, True, False, {}


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from stable_baselines3 import PPO

    class MyPolicy(MaskableActorCriticPolicy):  # a class of the training script
        pass

    folder = tmp_path_factory.mktemp("newcomer")
    env = gymnasium.make("boardgame_envs/TicTacToe-v0")
    small = dict(n_steps=16, batch_size=16, seed=0, policy_kwargs={"net_arch": [8]})
    (folder / "run").mkdir()
    MaskablePPO("MlpPolicy", env, **small).save(folder / "run" / "model")  # SB3 writes run/model.zip
    dict_model = PPO("MultiInputPolicy", DictEnv(), **small)
    dict_model.save(folder / "dict.zip")
    MaskablePPO(MyPolicy, env, **small).save(folder / "custom.zip")
    return folder, dict_model


def _line(capsys, argv):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_a_path_without_the_zip_names_the_zip(models, capsys):
    folder, _ = models
    err = _line(capsys, ["rate", f"sb3:{folder}/run/model", "tictactoe", "--games", "2"])
    assert f"no SB3 model at {folder}/run/model, but there is {folder}/run/model.zip" in err
    assert f"give sb3:{folder}/run/model.zip" in err
    assert make_policy(f"sb3:{folder}/run/model.zip").name.endswith("model.zip")  # and that spec plays


@pytest.mark.parametrize("kind, what", [("checkpoint", "an AlphaZero checkpoint"), ("boardnet", "a BoardNet file")])
def test_an_sb3_zip_given_to_a_torch_loader_is_named_with_the_spec_that_plays_it(models, capsys, kind, what):
    folder, _ = models
    path = f"{folder}/run/model.zip"
    err = _line(capsys, ["rate", f"{kind}:{path}", "tictactoe", "--games", "2"])
    assert f"{path} is a model saved by Stable-Baselines3 (a zip of data and policy.pth), not {what}" in err
    assert f"play it as sb3:{path}" in err and "damaged" not in err


def test_a_torch_file_that_is_damaged_is_still_said_to_be(tmp_path, capsys):
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"PK\x03\x04 not really a zip")
    err = _line(capsys, ["rate", str(bad), "tictactoe", "--games", "2"])
    assert "Stable-Baselines3" not in err and "bad.pt" in err


def test_a_dict_observation_model_is_refused_for_its_space(models, capsys):
    folder, _ = models
    err = _line(capsys, ["rate", f"sb3:{folder}/dict.zip", "tictactoe", "--games", "2"])
    assert "its observation space is a Dict (keys action_mask, observation), which sb3: does not load" in err
    assert "pickle" not in err and "SingleAgentEnv, vector.make" in err


def test_a_policy_class_of_ones_own_is_refused_for_what_it_is(models, capsys):
    folder, _ = models
    err = _line(capsys, ["rate", f"sb3:{folder}/custom.zip", "tictactoe", "--games", "2"])
    assert "unknown algorithm" not in err
    assert "its policy class is one of its own (defined in" in err and "Sb3Policy(model)" in err


def test_the_fallback_on_a_dict_model_is_a_clear_error(models):
    _, dict_model = models
    with pytest.raises(ValueError, match=r"the model sees a Dict observation space \(keys action_mask, observation\)"):
        Sb3Policy(dict_model)


def test_the_fallback_plays_a_custom_policy_class_model(models):
    from sb3_contrib import MaskablePPO

    folder, _ = models
    trusted = MaskablePPO.load(folder / "custom.zip")  # SB3's own loader: the test's own file
    policy = Sb3Policy(trusted, name="custom")
    state = game_info("tictactoe").game().new_state()
    assert state.legal_mask()[policy.act(state)]


def test_a_spec_error_names_the_kind(models):
    folder, _ = models
    with pytest.raises(PolicySpecError):
        make_policy(f"boardnet:{folder}/run/model.zip")
