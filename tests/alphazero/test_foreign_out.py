"""``train --out DIR`` never writes beside another tool's run: a folder holding files the trainer does not write
and no ``latest.pt`` to resume is refused in one line, before anything in it is touched (as the PPO recipes refuse
a folder that is not theirs)."""

from __future__ import annotations

import json

import pytest

from boardgame_envs.alphazero.checkpoint import CheckpointError
from boardgame_envs.alphazero.ledger import check_own_folder
from boardgame_envs.cli import main


def _sb3_run(folder):
    folder.mkdir()
    (folder / "run.json").write_text(json.dumps({"recipe": "ppo_sb3_pool", "game": "tictactoe", "format": 1}))
    (folder / "latest.zip").write_bytes(b"PK\x05\x06" + bytes(18))  # an (empty) zip where the SB3 model would be
    return sorted(p.name for p in folder.iterdir())


def test_train_refuses_an_sb3_runs_folder_and_touches_nothing(tmp_path, capsys):
    folder = tmp_path / "sb3run"
    before = _sb3_run(folder)
    assert main(["train", "tictactoe", "--out", str(folder), "--iterations", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "not an AlphaZero run (no latest.pt) and not empty: it holds latest.zip, run.json (a run of a PPO recipe" in err
    assert sorted(p.name for p in folder.iterdir()) == before  # no lock, no metrics, no snapshot beside its files


def test_the_trainers_own_leftovers_and_a_new_or_empty_folder_are_its_own(tmp_path):
    check_own_folder(tmp_path / "missing")
    check_own_folder(tmp_path)
    for name in ("metrics.jsonl", "summary.png", ".trainer.lock", ".latest.pt.x1y2.tmp"):
        (tmp_path / name).write_text("")
    (tmp_path / "snapshots").mkdir()
    (tmp_path / "tensorboard").mkdir()
    check_own_folder(tmp_path)  # a run killed before its first checkpoint: started again, not refused
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(CheckpointError, match="it holds notes.txt; it is left as it is: pick a new --out"):
        check_own_folder(tmp_path)
    (tmp_path / "latest.pt").write_text("")
    check_own_folder(tmp_path)  # a checkpoint to resume: whether it is one is load_checkpoint's to say
