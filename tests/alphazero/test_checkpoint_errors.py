"""Damaged checkpoints give one clear line naming the file, everywhere a checkpoint is read."""

from __future__ import annotations

import pytest
import torch

from boardgame_envs.alphazero import NetworkPolicy
from boardgame_envs.alphazero.checkpoint import CheckpointError, load_checkpoint
from boardgame_envs.cli import main as cli_main


def _damaged(tmp_path):
    files = {"empty.pt": b"", "text.pt": b"hello, not a checkpoint\n"}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    torch.save({"something": 1}, tmp_path / "foreign.pt")
    torch.save({"format": 1}, tmp_path / "incomplete.pt")
    good = tmp_path / "good.pt"
    torch.save({"x": torch.zeros(1000)}, good)
    (tmp_path / "truncated.pt").write_bytes(good.read_bytes()[: len(good.read_bytes()) // 2])
    return [tmp_path / n for n in ("empty.pt", "text.pt", "foreign.pt", "incomplete.pt", "truncated.pt")]


def test_load_checkpoint_names_the_file(tmp_path):
    for path in _damaged(tmp_path):
        with pytest.raises(CheckpointError, match=str(path.name)) as info:
            load_checkpoint(path)
        assert "\n" not in str(info.value)
    with pytest.raises(FileNotFoundError, match="no checkpoint"):
        load_checkpoint(tmp_path / "missing.pt")


def test_policies_and_the_cli_refuse_them_in_one_line(tmp_path, capsys):
    for path in _damaged(tmp_path):
        with pytest.raises(ValueError, match=path.name):
            NetworkPolicy.from_checkpoint(path)
        assert cli_main(["demo", "tictactoe", "--first", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and path.name in err


def test_resume_from_a_corrupt_latest_says_how_to_start_afresh(tmp_path, capsys):
    (tmp_path / "latest.pt").write_bytes(b"\x00" * 10)
    args = ["train", "tictactoe", "--iterations", "1", "--out", str(tmp_path), "--no-progress"]
    assert cli_main(args) == 2
    assert "to start afresh" in capsys.readouterr().err
