"""The trainer's record of a run (metrics.jsonl) and its end-of-run picture (summary.png)."""

from __future__ import annotations

import json
import os

import pytest

from boardgame_envs import tictactoe_v0
from boardgame_envs.alphazero import AlphaZeroConfig, AlphaZeroTrainer
from boardgame_envs.alphazero import ledger  # where the trainer saves its checkpoint
from boardgame_envs.alphazero.summary import METRICS, SUMMARY, append_metrics, plot_summary, read_metrics, sync_metrics
from boardgame_envs.safeio import DiskFullError, FileRefusedError

TINY = dict(parallel_games=8, games_per_iteration=8, simulations=4, train_steps=2, batch_size=16,
            blocks=1, channels=8, eval_games=2, progress=False)  # fmt: skip


def test_metrics_cover_the_whole_run_across_a_resume_and_are_drawn(tmp_path):
    pytest.importorskip("matplotlib")
    from PIL import Image

    config = dict(out=str(tmp_path), eval_every=1, eval_opponents=("random",), **TINY)
    AlphaZeroTrainer(tictactoe_v0.env, AlphaZeroConfig.for_game("tictactoe", iterations=2, **config)).train()
    AlphaZeroTrainer(tictactoe_v0.env, AlphaZeroConfig.for_game("tictactoe", iterations=3, **config)).train()
    rows = read_metrics(tmp_path)
    assert [r["iteration"] for r in rows] == [1.0, 2.0, 3.0]
    assert all("loss" in r and 0 <= r["score_vs_random"] <= 1 for r in rows)
    with Image.open(tmp_path / SUMMARY) as img:
        assert img.size == (1000, 400)


def test_read_metrics_keeps_the_last_row_of_an_iteration_and_skips_a_cut_line(tmp_path):
    lines = [{"iteration": 1.0, "loss": 2.0}, {"iteration": 2.0, "loss": 1.5}, {"iteration": 2.0, "loss": 1.4}]
    (tmp_path / METRICS).write_text("".join(json.dumps(r) + "\n" for r in lines) + '{"iteration": 3.0, "lo')
    assert read_metrics(tmp_path) == [lines[0], lines[2]]
    assert read_metrics(tmp_path / "nowhere") == []


def test_plot_without_rows_or_scores(tmp_path):
    pytest.importorskip("matplotlib")
    with pytest.raises(ValueError, match="no iterations"):
        plot_summary([], tmp_path / "x.png")
    path = plot_summary([{"iteration": 1.0, "loss": 1.0}], tmp_path / "x.png")
    assert path.stat().st_size > 5000


def logged(out):
    """The iterations of metrics.jsonl as written, line by line (read_metrics would hide a repeat)."""
    return [json.loads(line)["iteration"] for line in (out / METRICS).read_text().splitlines()]


def test_a_save_lost_to_a_full_disk_does_not_log_its_iteration_twice(tmp_path, monkeypatch, capsys):
    """Iteration 3 is logged, its checkpoint fails (a full disk), the run resumes from 2 and plays 3 again."""
    config = dict(out=str(tmp_path), **TINY)
    real = ledger.save_checkpoint

    def full_at_three(path, checkpoint):
        if checkpoint.get("iteration") == 3 and path.name == "latest.pt":
            raise DiskFullError(path)
        real(path, checkpoint)

    monkeypatch.setattr(ledger, "save_checkpoint", full_at_three)
    with pytest.raises(DiskFullError):
        AlphaZeroTrainer(tictactoe_v0.env, AlphaZeroConfig.for_game("tictactoe", iterations=4, **config)).train()
    assert logged(tmp_path) == [1.0, 2.0, 3.0]  # logged before the save that failed
    monkeypatch.setattr(ledger, "save_checkpoint", real)
    AlphaZeroTrainer(tictactoe_v0.env, AlphaZeroConfig.for_game("tictactoe", iterations=4, **config)).train()
    assert logged(tmp_path) == [1.0, 2.0, 3.0, 4.0]  # not 1, 2, 3, 3, 4
    assert "dropped 1 row(s) logged after the checkpoint (iteration 2)" in capsys.readouterr().err


def write_rows(tmp_path, *rows, tail=""):
    (tmp_path / METRICS).write_text("".join(json.dumps(r) + "\n" for r in rows) + tail)


def test_sync_drops_rows_past_the_checkpoint_and_a_cut_line_rewriting_the_file_whole(tmp_path, capsys):
    rows = [{"iteration": 0.0, "warm_loss": 3.0}, {"iteration": 1.0, "loss": 2.0}, {"iteration": 2.0, "loss": 1.5}]
    write_rows(tmp_path, *rows, tail='{"iteration": 3.0, "lo')
    assert sync_metrics(tmp_path, 1) == 2
    assert [json.loads(line) for line in (tmp_path / METRICS).read_text().splitlines()] == rows[:2]
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and "dropped 1 row(s) logged after the checkpoint" in err[0] and "cut short" in err[1]
    assert sync_metrics(tmp_path, 1, warm_done=False) == 1  # a warm start the checkpoint has not finished
    assert [json.loads(line) for line in (tmp_path / METRICS).read_text().splitlines()] == rows[1:2]
    before = os.stat(tmp_path / METRICS)
    assert sync_metrics(tmp_path, 1) == 0 and os.stat(tmp_path / METRICS).st_mtime_ns == before.st_mtime_ns
    assert sync_metrics(tmp_path / "nowhere", 3) == 0


def test_a_metrics_log_that_is_not_text_or_endless_is_one_line_naming_it(tmp_path):
    (tmp_path / METRICS).write_bytes(b'{"iteration": 1.0}\n\xff\xfe\n')
    with pytest.raises(FileRefusedError, match="metrics log is not UTF-8") as exc:
        sync_metrics(tmp_path, 1)
    assert str(exc.value).startswith(str(tmp_path / METRICS)) and "\n" not in str(exc.value)
    (tmp_path / METRICS).unlink()
    os.symlink("/dev/zero", tmp_path / METRICS)
    with pytest.raises(FileRefusedError, match="a character device, not a regular file"):
        read_metrics(tmp_path)


def test_a_full_disk_while_rewriting_leaves_the_log_as_it_was(tmp_path, monkeypatch):
    write_rows(tmp_path, {"iteration": 1.0}, {"iteration": 2.0})
    before = (tmp_path / METRICS).read_bytes()

    def full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(DiskFullError, match="no room on the disk at"):
        sync_metrics(tmp_path, 1)
    assert (tmp_path / METRICS).read_bytes() == before and [p.name for p in tmp_path.iterdir()] == [METRICS]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_while_logging_names_the_disk(tmp_path, monkeypatch):
    from boardgame_envs.alphazero import summary

    # /dev/full fails every write with ENOSPC; a link to it is refused as a device, so the log is opened on it directly
    monkeypatch.setattr(summary, "open_append", lambda path, what, **text: open("/dev/full", "a", **text))
    with pytest.raises(DiskFullError, match="metrics.jsonl: no room on the disk at"):
        append_metrics(tmp_path, {"iteration": 1.0})
