"""A fresh run may start from a trained network (``init_network``) instead of random weights."""

import pytest
import torch

from boardgame_envs import gomoku_v0, tictactoe_v0
from boardgame_envs.alphazero import AlphaZeroConfig, AlphaZeroTrainer
from boardgame_envs.alphazero.checkpoint import CheckpointError, load_checkpoint
from boardgame_envs.alphazero.pretrained import pretrained


def _config(tmp_path, **overrides):
    settings = {"out": str(tmp_path / "run"), "iterations": 1, "progress": False, "tensorboard": False, "eval_every": 0}
    return AlphaZeroConfig.for_game("tictactoe", **{**settings, **overrides})


def test_a_fresh_run_starts_from_the_named_network_and_trains_on(tmp_path):
    shipped = load_checkpoint(pretrained("tictactoe").path)
    trainer = AlphaZeroTrainer(tictactoe_v0.env, _config(tmp_path, init_network="pretrained:tictactoe"))
    assert "from pretrained:tictactoe" in trainer.opening_line()
    assert trainer.warm["done"]
    for name, tensor in trainer.net.state_dict().items():
        assert torch.equal(tensor, shipped["net"][name]), name
    trainer.train()
    assert trainer.iteration == 1
    resumed = AlphaZeroTrainer(tictactoe_v0.env, _config(tmp_path, init_network="pretrained:tictactoe", iterations=2))
    assert resumed.iteration == 1  # a run with a checkpoint resumes it; the network it started from is not loaded again
    trained = load_checkpoint(tmp_path / "run" / "latest.pt")["net"]
    for name, tensor in resumed.net.state_dict().items():
        assert torch.equal(tensor, trained[name]), name


def test_a_checkpoint_file_or_a_run_folder_serves_too(tmp_path):
    first = AlphaZeroTrainer(tictactoe_v0.env, _config(tmp_path))
    first.train()
    for source in (tmp_path / "run", tmp_path / "run" / "latest.pt"):
        other = tmp_path / f"other-{source.name}"
        config = AlphaZeroConfig.for_game("tictactoe", out=str(other), iterations=1, progress=False,
                                          tensorboard=False, eval_every=0, init_network=str(source))  # fmt: skip
        branch = AlphaZeroTrainer(tictactoe_v0.env, config)
        assert all(torch.equal(a, b) for a, b in zip(branch.net.state_dict().values(), first.net.state_dict().values()))
        branch.release_lock()


def test_a_network_of_another_shape_or_game_is_one_line_and_frees_the_folder(tmp_path):
    with pytest.raises(CheckpointError, match=r"of shape .*\(set blocks and channels"):
        AlphaZeroTrainer(tictactoe_v0.env, _config(tmp_path, init_network="pretrained:tictactoe", channels=16))
    with pytest.raises(CheckpointError, match="init_network: .* is for"):
        AlphaZeroTrainer(lambda: gomoku_v0.env(board_size=8, rule="freestyle"),
                         _config(tmp_path, init_network="pretrained:tictactoe"))  # fmt: skip
    with pytest.raises(CheckpointError, match="is a sb3 network"):
        AlphaZeroTrainer(tictactoe_v0.env, _config(tmp_path, init_network="pretrained:sb3-connect-four"))
    with pytest.raises(CheckpointError, match="no checkpoint at"):
        AlphaZeroTrainer(tictactoe_v0.env, _config(tmp_path, init_network=str(tmp_path / "missing.pt")))
    trainer = AlphaZeroTrainer(tictactoe_v0.env, _config(tmp_path))  # the failed runs left no lock behind
    trainer.release_lock()


def test_a_warm_start_and_a_starting_network_together_are_refused():
    with pytest.raises(ValueError, match="not both.*--warm-start none"):
        AlphaZeroConfig.for_game("tictactoe", init_network="pretrained:tictactoe", warm_start="alphabeta")
    with pytest.raises(ValueError, match="init_network must be"):
        AlphaZeroConfig.for_game("tictactoe", init_network=" ")
