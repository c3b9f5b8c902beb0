"""The single-file PPO: a run cut in two and resumed computes what the unbroken run computes, and its guards."""

from __future__ import annotations

import csv

import pytest
import torch

from baseline_scripts import load_baseline

TINY = ["--num-envs", "8", "--rollout", "4", "--minibatch", "16", "--epochs", "1", "--channels", "4", "--layers", "2",
        "--max-snapshots", "2", "--checkpoint-every", "2"]  # fmt: skip


@pytest.fixture(scope="module")
def script():
    return load_baseline("ppo_selfplay")


def weights(path):
    return torch.load(path, weights_only=True)["weights"]


def test_a_resumed_run_ends_where_the_unbroken_run_ends(script, tmp_path):
    assert script.main(["--out", str(tmp_path / "whole"), "--max-updates", "6", "--rate-games", "0", *TINY]) == 0
    cut = str(tmp_path / "cut")
    assert script.main(["--out", cut, "--max-updates", "2", "--rate-games", "0", *TINY]) == 0
    assert script.main(["--out", cut, "--max-updates", "6", "--rate-games", "0", *TINY]) == 0
    whole, resumed = weights(tmp_path / "whole" / "final.pt"), weights(tmp_path / "cut" / "final.pt")
    assert all(torch.equal(whole[k], resumed[k]) for k in whole)
    # The pools drew the same games: the same members with the same results.
    assert (tmp_path / "whole" / "pool" / "pool.json").read_text() == (tmp_path / "cut" / "pool" / "pool.json").read_text()
    state = torch.load(tmp_path / "cut" / "checkpoint.pt", weights_only=False)["counters"]
    assert state["updates"] == 6 and state["steps"] == 6 * 8 * 4 and state["cpu_s"] > 0
    assert len(list((tmp_path / "cut" / "pool" / "snapshots").iterdir())) == 2  # max_snapshots holds


def test_another_seed_trains_another_network(script, tmp_path):
    script.main(["--out", str(tmp_path / "a"), "--max-updates", "2", "--rate-games", "0", *TINY])
    script.main(["--out", str(tmp_path / "b"), "--max-updates", "2", "--rate-games", "0", "--seed", "1", *TINY])
    a, b = weights(tmp_path / "a" / "final.pt"), weights(tmp_path / "b" / "final.pt")
    assert not all(torch.equal(a[k], b[k]) for k in a)


def test_the_budget_stops_the_run_and_rates_it_on_the_ladder(script, tmp_path):
    out = tmp_path / "run"
    assert script.main(["--out", str(out), "--cpu-hours", "0.0001", "--rate-games", "4", *TINY]) == 0
    rows = list(csv.DictReader(open(out / "curve.csv")))
    assert len(rows) >= 2  # the first point, before any training, and the budget's last
    assert int(rows[0]["steps"]) == 0 and int(rows[-1]["steps"]) > 0
    assert all(int(r["games"]) == 4 and float(r["low"]) <= float(r["elo"]) <= float(r["high"]) for r in rows)
    counters = torch.load(out / "checkpoint.pt", weights_only=False)["counters"]
    assert counters["cpu_s"] >= 0.36 and 0 < counters["rate_cpu_s"] < counters["cpu_s"]


def test_a_resume_with_another_recipe_is_refused_in_one_line(script, tmp_path, capsys):
    out = str(tmp_path / "run")
    script.main(["--out", out, "--max-updates", "1", "--rate-games", "0", *TINY])
    with pytest.raises(SystemExit) as exc:
        script.main(["--out", out, "--max-updates", "2", "--lr", "0.1", *TINY])
    assert exc.value.code == 2
    assert "other settings (lr)" in capsys.readouterr().err


def test_an_unknown_game_is_refused(script, tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        script.main(["--out", str(tmp_path / "x"), "--game", "connect_four"])
    assert exc.value.code == 2
    assert "--game must be one of gomoku9, renju" in capsys.readouterr().err


def test_a_rating_made_after_the_last_checkpoint_is_dropped_on_resume(script, tmp_path):
    out = tmp_path / "run"
    assert script.main(["--out", str(out), "--max-updates", "2", "--rate-games", "0", *TINY]) == 0
    curve = out / "curve.csv"  # a kill after a rating and before the next checkpoint leaves a row it does not count
    curve.write_text("cpu_hours,steps,updates,elo,low,high,games,rate_cpu_s,rate_share\n0.01,64,2,5,1,9,4,1,0.1\n")
    assert script.main(["--out", str(out), "--max-updates", "4", "--rate-games", "0", *TINY]) == 0
    assert curve.read_text() == "cpu_hours,steps,updates,elo,low,high,games,rate_cpu_s,rate_share\n"
