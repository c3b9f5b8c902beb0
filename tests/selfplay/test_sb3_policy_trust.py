"""SB3 zips from strangers: nothing unpickled, every size capped before it costs, one line naming the file.

The models of tests/selfplay/test_sb3_policy.py (and the shipped one) load through the package's reader
and act as SB3's own loader makes them act; every place a pickle can hide in a zip is planted with one
that leaves a marker file if anything runs it, and the marker never appears.
"""

from __future__ import annotations

import io
import json
import time
import zipfile

import gymnasium
import numpy as np
import pytest
import torch
from marker_pickles import payloads, proof_that_it_would_run, serialized

import boardgame_envs  # noqa: F401
from boardgame_envs.cli import main as cli_main
from boardgame_envs.policies.registry import make_policy
from boardgame_envs.safeio import FileRefusedError
from boardgame_envs.selfplay import sb3_file
from boardgame_envs.selfplay.sb3_policy import load_model

SHIPPED = sb3_file.Path(boardgame_envs.__file__).parent / "alphazero" / "pretrained" / "sb3-connect-four.zip"


@pytest.fixture(scope="module")
def zips(tmp_path_factory):
    """Small untrained models of each algorithm, saved by SB3 (with an activation class, an optimizer class
    and the package's BoardCNN in their policy_kwargs, so that those are pickled)."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import A2C, DQN, PPO

    from boardgame_envs.vector.sb3 import BoardCNN

    folder = tmp_path_factory.mktemp("trust")
    ttt = dict(id="boardgame_envs/TicTacToe-v0")
    cnn = {"features_extractor_class": BoardCNN, "features_extractor_kwargs": {"features_dim": 8, "channels": 4}}
    made = {
        "maskable": (MaskablePPO, "MlpPolicy", {}, {"n_steps": 16, "batch_size": 16}, {"net_arch": [16]}),
        "ppo_tanh": (PPO, "MlpPolicy", {"flatten": True}, {"n_steps": 16, "batch_size": 16},
                     {"net_arch": {"pi": [16], "vf": [8]}, "activation_fn": torch.nn.Tanh}),
        "a2c": (A2C, "MlpPolicy", {}, {"n_steps": 4}, {"net_arch": [8, 8], "optimizer_class": torch.optim.RMSprop,
                                                        "share_features_extractor": False}),
        "dqn": (DQN, "MlpPolicy", {}, {}, {"net_arch": [16], "activation_fn": torch.nn.ELU}),
        "cnn": (MaskablePPO, "CnnPolicy", {"channels_first": True}, {"n_steps": 16, "batch_size": 16}, cnn),
        "dqn_cnn": (DQN, "CnnPolicy", {"channels_first": True}, {}, cnn),
    }  # fmt: skip
    paths = {}
    for name, (cls, policy, env_kwargs, kwargs, policy_kwargs) in made.items():
        model = cls(policy, gymnasium.make(**ttt, **env_kwargs), seed=0, policy_kwargs=policy_kwargs, **kwargs)
        paths[name] = folder / f"{name}.zip"
        model.save(paths[name])
    return paths


def sb3_loaded(path):
    from stable_baselines3.common.base_class import BaseAlgorithm  # noqa: F401

    from boardgame_envs.selfplay.sb3_policy import algorithm_of

    schedules = {"learning_rate": 0.0, "lr_schedule": lambda _: 0.0, "clip_range": lambda _: 0.0,
                 "exploration_schedule": lambda _: 0.0}  # fmt: skip
    return algorithm_of(path).load(str(path), device="cpu", custom_objects=schedules)


@pytest.mark.parametrize("name", ["maskable", "ppo_tanh", "a2c", "dqn", "cnn", "dqn_cnn", "shipped"])
def test_models_act_as_sb3s_own_loader_makes_them_act(zips, name):
    path = SHIPPED if name == "shipped" else zips[name]
    ours, theirs = load_model(path), sb3_loaded(path)
    assert ours.algorithm == type(theirs).__name__
    assert ours.observation_space == theirs.observation_space and ours.action_space == theirs.action_space
    assert type(ours.policy) is type(theirs.policy)
    for key, tensor in theirs.policy.state_dict().items():
        assert torch.equal(ours.policy.state_dict()[key], tensor), key
    rng = np.random.default_rng(0)
    obs = rng.integers(0, 2, size=(64, *theirs.observation_space.shape)).astype(np.uint8)
    assert np.array_equal(ours.predict(obs)[0], theirs.predict(obs, deterministic=True)[0])
    count = sb3_file.parameter_count(ours.algorithm, sb3_file.read_plan(path).policy_class,
                                     sb3_file.read_plan(path).kwargs, ours.observation_space.shape, ours.action_space.n)
    assert count == sum(p.numel() for p in ours.policy.parameters())  # the cap's count is the network's


def rewrite(source, target, data=None, entries=None, drop=()):
    """A copy of the zip ``source`` with ``data`` changed by ``data(parsed)`` and entries replaced or added."""
    entries = dict(entries or {})
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(target, "w") as dst:
        for item in src.namelist():
            if item in drop:
                continue
            content = src.read(item)
            if item == "data" and data is not None:
                parsed = json.loads(content)
                data(parsed)
                content = json.dumps(parsed).encode()
            dst.writestr(item, entries.pop(item, content))
        for item, content in entries.items():
            dst.writestr(item, content)
    return target


def refused(path, *words) -> str:
    start = time.perf_counter()
    with pytest.raises(FileRefusedError) as info:
        load_model(path)
    assert time.perf_counter() - start < 1.0
    text = str(info.value)
    assert "\n" not in text and text.startswith(f"{path}: ") and "weights_only" not in text, text
    for word in words:
        assert word in text, text
    return text


def plant_everywhere(zips, tmp_path, marker):
    """(zip, what happens) for a marker pickle in each place an SB3 zip can hold one."""
    cases = []
    for i, payload in enumerate(payloads(marker)):
        bad = {":type:": "<class 'x'>", ":serialized:": serialized(payload)}

        def extra(d, bad=bad):
            d["extra_entry"] = bad

        def space(d, bad=bad):
            d["observation_space"][":serialized:"] = bad[":serialized:"]
            d["action_space"][":serialized:"] = bad[":serialized:"]

        def kwargs(d, bad=bad):
            d["policy_kwargs"] = {**bad, "net_arch": [16]}

        def policy_class(d, bad=bad):
            d["policy_class"][":serialized:"] = bad[":serialized:"]

        def nested(d, bad=bad):
            d["policy_kwargs"] = {"net_arch": [16], "features_extractor_kwargs": {"x": bad}}

        buffer = io.BytesIO()
        torch.save({"w": payload}, buffer)
        for name, change, entries, outcome in [
            ("extra", extra, None, "'extra_entry' is a pickled Python object"),
            ("space", space, None, None),  # the spaces are rebuilt from their plain fields: the pickle is ignored
            ("kwargs", kwargs, None, "policy_kwargs is a pickle that is refused"),
            ("class", policy_class, None, "policy class is a pickle that is refused"),
            ("nested", nested, None, "not a plain setting"),
            ("policy", None, {"policy.pth": buffer.getvalue()}, "could run code"),
            ("variables", None, {"pytorch_variables.pth": buffer.getvalue()}, None),  # never read: acting needs none
            ("optimizer", None, {"policy.optimizer.pth": buffer.getvalue()}, None),
        ]:  # fmt: skip
            cases.append((rewrite(zips["maskable"], tmp_path / f"{name}{i}.zip", change, entries), outcome))
    return cases


def test_a_marker_pickle_in_any_place_of_a_zip_never_runs(zips, tmp_path):
    marker = tmp_path / "marker"
    proof_that_it_would_run(marker)
    for path, outcome in plant_everywhere(zips, tmp_path, marker):
        if outcome is None:
            assert load_model(path).action_space.n == 9  # a clean load: the pickle is left alone
        else:
            refused(path, outcome)
        assert not marker.exists(), path


def test_the_cli_and_the_pool_loader_refuse_a_planted_zip_in_one_line(zips, tmp_path, capsys):
    from boardgame_envs.selfplay.pool import default_snapshot_loader

    marker = tmp_path / "marker"
    path = rewrite(zips["maskable"], tmp_path / "bad.zip",
                   lambda d: d.update(evil={":serialized:": serialized(payloads(marker)[1])}))  # fmt: skip
    assert cli_main(["rate", f"sb3:{path}", "tictactoe", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad.zip: its data entry 'evil' is a pickled Python object" in err
    assert cli_main(["demo", "tictactoe", "--first", f"sb3:{path}"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    with pytest.raises(ValueError, match="bad.zip"):
        default_snapshot_loader(str(path))
    assert not marker.exists()


def test_a_huge_net_arch_in_plain_json_is_refused_before_anything_is_built(zips, tmp_path):
    path = rewrite(zips["maskable"], tmp_path / "huge.zip", lambda d: d.update(policy_kwargs={"net_arch": [15000, 15000]}))
    assert path.stat().st_size < 100_000
    refused(path, "its network would have 450,750,010 parameters", "over the limit of 25,000,000")


@pytest.mark.parametrize(("net_arch", "words"), [
    ([-5], "holds -5, not a layer width from 1 to 65,536"),
    ([0], "holds 0"), ([True], "holds True"), ("64", "not a list"), ({"pi": [8], "qf": [8]}, "not pi and vf"),
    ([8] * 65, "at most 64 layer widths"),
])  # fmt: skip
def test_a_bad_net_arch_is_one_line(zips, tmp_path, net_arch, words):
    path = rewrite(zips["maskable"], tmp_path / "arch.zip", lambda d: d.update(policy_kwargs={"net_arch": net_arch}))
    refused(path, words)


def test_mismatched_weights_are_one_line(zips, tmp_path):
    path = rewrite(zips["maskable"], tmp_path / "mismatch.zip", lambda d: d.update(policy_kwargs={"net_arch": [17]}))
    refused(path, "its weights do not fit the network its data describes: size mismatch for", "[16, 18]", "[17, 18]")
    path = rewrite(zips["maskable"], tmp_path / "noweights.zip", drop=("policy.pth",))
    refused(path, "has no 'policy.pth' entry")


def declare_size(path, name: str, size: int) -> None:
    """Make the zip at ``path`` declare ``size`` unpacked bytes for its entry ``name`` (as a zip bomb does)."""
    import struct

    data = bytearray(path.read_bytes())
    for signature, size_at, name_length_at, name_at in ((b"PK\x03\x04", 22, 26, 30), (b"PK\x01\x02", 24, 28, 46)):
        at = data.find(signature)
        while at >= 0:
            length = struct.unpack_from("<H", data, at + name_length_at)[0]
            if data[at + name_at: at + name_at + length] == name.encode():
                struct.pack_into("<I", data, at + size_at, size)
            at = data.find(signature, at + 4)
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("declared", [300_000_000, 100])
def test_an_inflating_policy_pth_is_refused_without_inflating_it(zips, tmp_path, declared):
    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(zips["maskable"]) as src, zipfile.ZipFile(bomb, "w") as dst:
        for item in src.namelist():
            if item != "policy.pth":
                dst.writestr(item, src.read(item))
        dst.writestr("policy.pth", b"\0" * 1_000_000, compress_type=zipfile.ZIP_DEFLATED)
    declare_size(bomb, "policy.pth", declared)  # a bomb's size, or a size that lies below what inflates
    assert bomb.stat().st_size < 100_000
    if declared > 1_000_000:
        refused(bomb, "'policy.pth' entry unpacks to 300,000,000 bytes, over the 268,435,456-byte limit")
    else:
        refused(bomb, "'policy.pth' entry is damaged")  # inflating stops at the declared size, and the check fails


def test_data_nested_100000_deep_is_one_line(zips, tmp_path):
    path = tmp_path / "deep.zip"
    with zipfile.ZipFile(zips["maskable"]) as src, zipfile.ZipFile(path, "w") as dst:
        for item in src.namelist():
            dst.writestr(item, b"[" * 100_000 if item == "data" else src.read(item))
    refused(path, "nests its JSON deeper than the reader goes")


@pytest.mark.parametrize("cut", [0.5, 0.99])
def test_a_truncated_or_junk_zip_is_one_line(zips, tmp_path, cut):
    data = zips["maskable"].read_bytes()
    path = tmp_path / "model.zip"
    path.write_bytes(data[: int(len(data) * cut)])
    refused(path, "not a model saved by Stable-Baselines3")


def test_custom_classes_are_refused_naming_the_field(zips, tmp_path):
    import pickle

    class_pickle = serialized(pickle.loads(pickle.dumps(torch.nn.Softmax)))  # a torch class off the allow-list
    path = rewrite(zips["maskable"], tmp_path / "custom.zip",
                   lambda d: d.update(policy_kwargs={":serialized:": class_pickle}))  # fmt: skip
    refused(path, "policy_kwargs is a pickle that is refused (it names torch.nn.modules.activation.Softmax)")
    kwargs = {":serialized:": serialized({"net_arch": [16], "activation_fn": torch.nn.ReLU, "lr": 1})}
    path = rewrite(zips["maskable"], tmp_path / "unknown.zip", lambda d: d.update(policy_kwargs=kwargs))
    refused(path, "its policy_kwargs has lr, which sb3: does not build")
    odd_space = rewrite(zips["maskable"], tmp_path / "dict.zip",
                        lambda d: d["observation_space"].update({":type:": "<class 'gymnasium.spaces.dict.Dict'>"}))
    refused(odd_space, "its observation space is a Dict, which sb3: does not load")


def test_a_spec_names_the_file_on_its_one_line(zips, tmp_path):
    path = rewrite(zips["maskable"], tmp_path / "s.zip", lambda d: d.update(policy_kwargs={"net_arch": [-5]}))
    with pytest.raises(ValueError, match="s.zip: its net_arch holds -5"):
        make_policy(f"sb3:{path}")
