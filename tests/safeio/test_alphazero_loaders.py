"""AlphaZero checkpoints from strangers: tensors only, storage and network size checked, one line naming the file."""

from __future__ import annotations

import time

import pytest
import torch
from marker_pickles import payloads, proof_that_it_would_run

from boardgame_envs.alphazero import NetworkPolicy
from boardgame_envs.alphazero import checkpoint as checkpoint_module
from boardgame_envs.alphazero.checkpoint import CheckpointError, load_checkpoint
from boardgame_envs.alphazero.network import PolicyValueNet
from boardgame_envs.cli import main as cli_main

GAME = {"size": 3, "win_length": 3, "rule": "freestyle"}


def small_checkpoint():
    net = PolicyValueNet(2, 3, 1, 8)
    return {"format": 1, "game": GAME, "net_hparams": dict(net.hparams), "net": net.state_dict()}


def test_a_marker_pickle_anywhere_in_a_checkpoint_never_runs(tmp_path, capsys):
    marker = tmp_path / "marker"
    proof_that_it_would_run(marker)
    for payload in payloads(marker):
        for place in ("top", "net", "hparams", "deep"):
            checkpoint = small_checkpoint()
            if place == "top":
                checkpoint["optimizer"] = payload
            elif place == "net":
                checkpoint["net"]["extra"] = payload
            elif place == "hparams":
                checkpoint["net_hparams"]["channels"] = payload
            else:
                checkpoint["buffer"] = [{"x": (1, [payload])}]
            path = tmp_path / "planted.pt"
            torch.save(checkpoint, path)
            with pytest.raises(CheckpointError, match="planted.pt: the checkpoint cannot be read safely") as info:
                NetworkPolicy.from_checkpoint(str(path))
            assert "\n" not in str(info.value) and "could run code" in str(info.value)
            assert cli_main(["demo", "tictactoe", "--first", f"checkpoint:{path}"]) == 2
            assert capsys.readouterr().err.count("\n") == 1
            assert not marker.exists()


def test_a_trainer_resuming_from_a_planted_latest_never_runs_it(tmp_path, capsys):
    marker = tmp_path / "marker"
    run = tmp_path / "run"
    run.mkdir()
    checkpoint = small_checkpoint()
    checkpoint["optimizer"] = payloads(marker)[0]
    torch.save(checkpoint, run / "latest.pt")
    args = ["train", "tictactoe", "--iterations", "1", "--out", str(run), "--no-progress"]
    assert cli_main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "latest.pt" in err and "could run code" in err
    assert not marker.exists()


def test_a_zero_stride_checkpoint_stating_a_huge_network_is_refused_in_one_line(tmp_path, monkeypatch):
    # 64 blocks of 1,024 channels, every tensor one value expanded: a small file that was 3-5 GB once built
    hparams = {"in_planes": 2, "board_size": 3, "blocks": 64, "channels": 1024}
    with torch.device("meta"):
        shapes = {key: (t.shape, t.dtype) for key, t in PolicyValueNet(**hparams).state_dict().items()}
    weights = {key: torch.zeros((), dtype=dtype).expand(shape) for key, (shape, dtype) in shapes.items()}
    path = tmp_path / "zero.pt"
    torch.save({"format": 1, "game": GAME, "net_hparams": hparams, "net": weights}, path)
    assert path.stat().st_size < 300_000

    def never(*args, **kwargs):
        raise AssertionError("a network was built")

    monkeypatch.setattr(checkpoint_module, "PolicyValueNet", never)
    start = time.perf_counter()
    with pytest.raises(CheckpointError) as info:
        NetworkPolicy.from_checkpoint(str(path))
    assert time.perf_counter() - start < 1.0
    text = str(info.value)
    assert "\n" not in text and text.startswith(f"{path}: ") and "(a zero stride)" in text


def test_a_network_past_the_parameter_cap_is_refused_before_it_is_built(tmp_path, monkeypatch):
    path = tmp_path / "net.pt"
    torch.save(small_checkpoint(), path)
    count = sum(p.numel() for p in PolicyValueNet(2, 3, 1, 8).state_dict().values())
    monkeypatch.setattr(checkpoint_module, "NETWORK_PARAMETERS_LIMIT", count - 1)
    with pytest.raises(CheckpointError, match=f"net.pt: its stated network shape is {count:,} parameters, over the limit"):
        NetworkPolicy.from_checkpoint(str(path))
    monkeypatch.setattr(checkpoint_module, "NETWORK_PARAMETERS_LIMIT", count)
    assert NetworkPolicy.from_checkpoint(str(path)).net is not None


def test_a_checkpoint_on_dev_zero_or_a_fifo_is_refused(tmp_path):
    import os

    link = tmp_path / "latest.pt"
    link.symlink_to("/dev/zero")
    with pytest.raises(CheckpointError, match="latest.pt"):
        load_checkpoint(link)  # not a regular file: "no checkpoint at", before anything is read
    os.mkfifo(tmp_path / "fifo.pt")
    with pytest.raises(CheckpointError, match="fifo.pt"):
        load_checkpoint(tmp_path / "fifo.pt")
