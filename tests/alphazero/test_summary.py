"""The trainer's record of a run (metrics.jsonl) and its end-of-run picture (summary.png)."""

from __future__ import annotations

import json

import pytest

from boardgame_envs import tictactoe_v0
from boardgame_envs.alphazero import AlphaZeroConfig, AlphaZeroTrainer
from boardgame_envs.alphazero.summary import METRICS, SUMMARY, plot_summary, read_metrics

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
