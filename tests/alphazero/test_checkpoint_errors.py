"""Damaged checkpoints give one clear line naming the file, everywhere a checkpoint is read."""

from __future__ import annotations

import pytest
from lock_holders import held_elsewhere, left_by_a_killed_holder
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


# ---------------------------------------------------------------- shapes, words, network-only files, the run lock


def _net_checkpoint(**changes):
    from boardgame_envs.alphazero.network import PolicyValueNet

    net = PolicyValueNet(2, 3, 1, 8)
    checkpoint = {"format": 1, "game": {"size": 3, "win_length": 3, "rule": "freestyle"},
                  "net_hparams": dict(net.hparams), "net": net.state_dict()}  # fmt: skip
    for key, value in changes.items():
        if value is None:
            del checkpoint[key]
        else:
            checkpoint[key] = value
    return checkpoint


@pytest.mark.parametrize(("changes", "words"), [
    ({"net_hparams": {"in_planes": 2, "board_size": 3, "blocks": 1, "channels": -4}}, "channels=-4, expected 1..1024"),
    ({"net_hparams": {"in_planes": 2, "board_size": 3, "blocks": 1, "channels": 10**9}}, "channels=1000000000"),
    ({"net_hparams": {"in_planes": 2, "board_size": 5, "blocks": 1, "channels": 8}}, "do not fit"),
    ({"net": None}, "no net"),
    ({"net": "weights"}, "no network weights"),
])  # fmt: skip
def test_damaged_shapes_are_one_checkpoint_error_in_words(changes, words, tmp_path):
    path = tmp_path / "net.pt"
    torch.save(_net_checkpoint(**changes), path)
    with pytest.raises(CheckpointError, match=words) as info:
        NetworkPolicy.from_checkpoint(path)
    assert "\n" not in str(info.value) and "net.pt" in str(info.value)


def test_unreadable_files_are_described_in_words_without_torchs_advice(tmp_path):
    torch.save({"format": 1, "x": object.__new__(_Pickled)}, tmp_path / "pickled.pt")
    for path in [*_damaged(tmp_path), tmp_path / "pickled.pt"]:
        with pytest.raises(CheckpointError) as info:
            load_checkpoint(path)
        text = str(info.value)
        assert "weights_only" not in text and "Errno" not in text and "Error:" not in text and "KeyError" not in text
    with pytest.raises(CheckpointError, match="could run code"):
        load_checkpoint(tmp_path / "pickled.pt")


class _Pickled:
    pass


def _trainer(out, **overrides):
    from boardgame_envs import tictactoe_v0
    from boardgame_envs.alphazero import AlphaZeroConfig, AlphaZeroTrainer

    config = AlphaZeroConfig.for_game("tictactoe", out=str(out), iterations=1, games_per_iteration=2, parallel_games=2,
                                      simulations=2, train_steps=1, batch_size=4, eval_every=0, progress=False, **overrides)  # fmt: skip
    return AlphaZeroTrainer(tictactoe_v0.env, config)


def test_a_network_only_file_is_refused_as_a_run_to_resume(tmp_path):
    (tmp_path / "run").mkdir()
    torch.save(_net_checkpoint(), tmp_path / "run" / "latest.pt")
    with pytest.raises(CheckpointError, match="holds a network only") as info:
        _trainer(tmp_path / "run")
    assert "optimizer" not in str(info.value)
    assert not (tmp_path / "run" / ".trainer.lock").exists()  # refused: the lock is let go


def test_a_live_trainer_holds_the_run_and_a_dead_ones_lock_is_taken_over(tmp_path, capsys):
    import os

    from boardgame_envs.alphazero.checkpoint import RunInUseError

    run = tmp_path / "run"
    run.mkdir()
    with held_elsewhere(run / ".trainer.lock") as other:
        with pytest.raises(RunInUseError, match=f"in use by another trainer \\(pid {other.pid}\\)"):
            _trainer(run)
    dead = left_by_a_killed_holder(run / ".trainer.lock")
    trainer = _trainer(run)
    assert f"taking over the lock of {run} (pid {dead}, no longer running)" in capsys.readouterr().err
    assert (run / ".trainer.lock").read_text().strip() == str(os.getpid())
    trainer.release_lock()
    assert not (run / ".trainer.lock").exists()


def test_a_save_cut_short_is_cleaned_at_the_next_start(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / ".latest.pt.abc123.tmp").write_bytes(b"")
    trainer = _trainer(run)
    assert not list(run.glob("*.tmp"))
    trainer.release_lock()


def test_a_full_disk_is_one_line_and_the_old_checkpoint_survives(tmp_path, monkeypatch):
    import errno

    from boardgame_envs.alphazero import checkpoint as ckpt

    path = tmp_path / "latest.pt"
    ckpt.save_checkpoint(path, _net_checkpoint())
    before = path.read_bytes()

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(ckpt.torch, "save", full)
    with pytest.raises(CheckpointError) as info:
        ckpt.save_checkpoint(path, _net_checkpoint())
    assert str(info.value).startswith(f"cannot write {path}: no room on the disk at ")  # the disk named
    assert str(info.value).endswith("bytes free); the previous checkpoint is kept")
    assert path.read_bytes() == before and not list(tmp_path.glob("*.tmp"))


def test_a_stated_shape_the_weights_do_not_fill_is_refused_before_anything_is_built(tmp_path, monkeypatch):
    # A 170 KB file stating blocks=64, channels=1024 (both in range) made a 5 GB network before its
    # weights were compared: the stored tensors' shapes are checked against the stated shape first.
    from boardgame_envs.alphazero import checkpoint as checkpoint_module

    stated = {"in_planes": 2, "board_size": 3, "blocks": 64, "channels": 1024}
    path = tmp_path / "big.pt"
    torch.save(_net_checkpoint(net_hparams=stated), path)
    assert path.stat().st_size < 200_000
    real = checkpoint_module.PolicyValueNet

    def built_only_on_meta(*args, **kwargs):  # a network with memory behind it would be the 5 GB one
        device = torch.empty(0).device
        assert device.type == "meta", f"a {kwargs or args} network was built on {device}"
        return real(*args, **kwargs)

    monkeypatch.setattr(checkpoint_module, "PolicyValueNet", built_only_on_meta)
    with pytest.raises(CheckpointError, match="do not fit") as info:
        NetworkPolicy.from_checkpoint(path)
    text = str(info.value)
    assert "\n" not in text and "big.pt" in text and len(text) < 300
    assert "[1024, 2, 3, 3]" in text and "[8, 2, 3, 3]" in text  # the first tensor that differs, both shapes


def test_weights_that_fit_build_the_network(tmp_path):
    path = tmp_path / "net.pt"
    torch.save(_net_checkpoint(), path)
    policy = NetworkPolicy.from_checkpoint(path)
    assert next(policy.net.parameters()).device.type == "cpu"


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_weights_that_are_not_finite_are_refused_naming_the_first_bad_tensor(bad, tmp_path, capsys):
    checkpoint = _net_checkpoint()
    keys = [k for k, t in checkpoint["net"].items() if t.is_floating_point()]
    first, later = keys[1], keys[-1]  # the message names the first, in the network's order
    checkpoint["net"][first].view(-1)[:3] = bad
    checkpoint["net"][later].view(-1)[0] = float("nan")
    path = tmp_path / "diverged.pt"
    torch.save(checkpoint, path)
    kind = "NaN" if bad != bad else "infinity"
    with pytest.raises(CheckpointError, match=f"diverged.pt: its weights are not finite \\({first} holds {kind}: 3 of"):
        NetworkPolicy.from_checkpoint(path)
    assert load_checkpoint(path)["net"][first].isnan().any() == (kind == "NaN")  # the file still reads, for a look
    assert cli_main(["demo", "tictactoe", "--first", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "diverged.pt" in err and first in err


def test_a_run_whose_latest_weights_are_not_finite_is_not_resumed(tmp_path):
    """Training on from NaN weights would only spread them: the trainer refuses as the policies do."""
    out = tmp_path / "run"
    _trainer(out).train()
    checkpoint = torch.load(out / "latest.pt", weights_only=False)
    first = next(k for k, t in checkpoint["net"].items() if t.is_floating_point())
    checkpoint["net"][first].view(-1)[0] = float("nan")
    torch.save(checkpoint, out / "latest.pt")
    with pytest.raises(CheckpointError, match=f"latest.pt: its weights are not finite \\({first} holds NaN") as info:
        _trainer(out)
    assert "earlier snapshot" in str(info.value)
    assert not (out / ".trainer.lock").exists()  # refused: the lock is let go
