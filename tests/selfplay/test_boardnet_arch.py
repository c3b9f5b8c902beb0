"""BoardNet's options: residual blocks and the columns head (connect four) save, load and play; old files load as before."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

import boardgame_envs.alphazero
from boardgame_envs import connect_four_v0
from boardgame_envs.games.connect_four import ConnectFourGame
from boardgame_envs.policies.registry import make_policy
from boardgame_envs.safeio import FileRefusedError, load_tensors
from boardgame_envs.selfplay import boardnet
from boardgame_envs.selfplay.boardnet import BoardNet, load_net, save_net

C4 = ConnectFourGame()
PRETRAINED = Path(boardgame_envs.alphazero.__file__).parent / "pretrained"


def refused(path, *words):
    with pytest.raises(FileRefusedError) as info:
        load_net(path)
    text = str(info.value)
    assert "\n" not in text and text.startswith(f"{path}: "), text
    assert all(word in text for word in words), text


def test_the_columns_head_gives_one_logit_per_column_from_the_points_of_that_column():
    torch.manual_seed(0)
    net = BoardNet(2, 4, 1, blocks=1, head="columns")
    obs = torch.randint(0, 2, (3, 2, 6, 7), dtype=torch.uint8)
    mask = torch.ones(3, 7, dtype=torch.bool)
    mask[1, 4] = False
    logits, value = net(obs, mask)
    assert logits.shape == (3, 7) and value.shape == (3,)
    points = net.policy(net.body(obs.float())).squeeze(1)  # (3, 6, 7): a logit per point
    assert torch.allclose(logits[0], points[0].logsumexp(0))  # a column's logit gathers its points'
    assert logits[1, 4] == -1e9  # a full column is illegal


def test_a_residual_block_adds_its_input():
    net = BoardNet(2, 4, 1, blocks=2)
    block = net.body[2]
    assert isinstance(block, boardnet.Residual)
    for conv in (block.conv1, block.conv2):
        torch.nn.init.zeros_(conv.weight), torch.nn.init.zeros_(conv.bias)
    x = torch.rand(1, 4, 5, 5)
    assert torch.equal(block(x), torch.relu(x))  # zero convolutions: the skip alone


def test_a_residual_columns_net_round_trips_and_plays_connect_four_as_a_spec(tmp_path):
    torch.manual_seed(1)
    net = BoardNet(2, 8, 1, blocks=2, head="columns")
    path = tmp_path / "c4.pt"
    save_net(net, path, game=C4)
    loaded, game = load_net(path)
    assert game == C4 and loaded.shape == (2, 8, 1) and loaded.arch == {"blocks": 2, "head": "columns"}
    assert all(torch.equal(a, b) for a, b in zip(net.state_dict().values(), loaded.state_dict().values()))
    assert boardnet.parameter_count(2, 8, 1, 2) == sum(p.numel() for p in net.parameters())
    policy = make_policy(f"boardnet:{path}", seed=0)
    env = connect_four_v0.env()
    env.reset(seed=0)
    plies = 0
    while not any(env.terminations.values()) and not any(env.truncations.values()):
        mask = env.observe(env.agent_selection)["action_mask"]
        p = policy.distribution(env)
        assert p.shape == (7,) and np.isclose(p.sum(), 1) and p[mask == 0].sum() == 0
        action = policy.act(env)
        assert mask[action] == 1
        env.step(action)
        plies += 1
    assert plies >= 7  # a whole game, full columns included where it came to that


def test_a_plain_net_is_written_as_before_and_the_shipped_networks_load_unchanged(tmp_path):
    save_net(BoardNet(3, 4, 2), tmp_path / "plain.pt")
    assert set(load_tensors(tmp_path / "plain.pt")) == {"shape", "weights"}  # the format older readers know
    for name, arch in (("ppo-renju.pt", {"blocks": 0, "head": "cells"}), ("ppo-gomoku9.pt", {"blocks": 3, "head": "cells"}),
                       ("ppo-connect-four.pt", {"blocks": 3, "head": "columns"})):  # fmt: skip
        path = PRETRAINED / name
        data = load_tensors(path)
        net, game = load_net(path)
        assert net.arch == arch and tuple(net.shape) == tuple(data["shape"])
        assert all(torch.equal(net.state_dict()[k], v) for k, v in data["weights"].items())


@pytest.mark.parametrize(("extra", "words"), [
    ({"blocks": -1}, "blocks=-1, expected 0..64"), ({"blocks": 65}, "blocks=65"), ({"blocks": True}, "blocks=True"),
    ({"blocks": "2"}, "blocks='2'"), ({"head": "rows"}, "head='rows', expected one of cells, columns"),
])  # fmt: skip
def test_bad_stated_options_are_one_line(tmp_path, extra, words):
    net = BoardNet(2, 3, 1)
    torch.save({"shape": net.shape, "weights": net.state_dict(), **extra}, tmp_path / "o.pt")
    refused(tmp_path / "o.pt", words)


def test_blocks_count_toward_the_parameter_limit_before_the_network_is_built(tmp_path, monkeypatch):
    path = tmp_path / "deep.pt"  # (2, 512, 1) is 10k parameters; 48 blocks of 512 channels are 226M
    torch.save({"shape": (2, 512, 1), "blocks": 48, "weights": {}}, path)

    def never(*args, **kwargs):
        raise AssertionError("a network was built")

    monkeypatch.setattr(boardnet.BoardNet, "__init__", never)
    refused(path, "with 48 blocks", "over the limit of 25,000,000")


def test_weights_of_another_head_or_depth_do_not_fit(tmp_path):
    deep = BoardNet(2, 3, 1, blocks=1)
    torch.save({"shape": deep.shape, "weights": deep.state_dict()}, tmp_path / "w.pt")  # blocks not stated
    refused(tmp_path / "w.pt", "its weights do not fit", "body.2.conv1")
