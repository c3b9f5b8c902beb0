"""The MaskablePPO pool recipe: a run cut in two and resumed computes what the unbroken run computes, and its guards."""

from __future__ import annotations

import csv
import json

import pytest
import torch

from baseline_scripts import load_baseline

pytest.importorskip("sb3_contrib")

TINY = ["--n-envs", "2", "--n-steps", "16", "--batch-size", "16", "--epochs", "1", "--net", "8",
        "--checkpoint-every", "1", "--max-snapshots", "2"]  # fmt: skip


@pytest.fixture(scope="module")
def script():
    return load_baseline("ppo_sb3_pool")


def weights(path):
    from sb3_contrib import MaskablePPO

    return MaskablePPO.load(path, device="cpu").policy.state_dict()


@pytest.mark.parametrize("game", ["connect_four", "gomoku9"])
def test_a_resumed_run_ends_where_the_unbroken_run_ends(script, tmp_path, game):
    args = ["--game", game, "--rate-games", "0", *TINY]
    assert script.main(["--out", str(tmp_path / "whole"), "--max-rollouts", "4", *args]) == 0
    cut = str(tmp_path / "cut")
    assert script.main(["--out", cut, "--max-rollouts", "1", *args]) == 0
    assert script.main(["--out", cut, "--max-rollouts", "4", *args]) == 0
    whole, resumed = weights(tmp_path / "whole" / "model.zip"), weights(tmp_path / "cut" / "model.zip")
    assert all(torch.equal(whole[k], resumed[k]) for k in whole)
    assert (tmp_path / "whole" / "pool" / "pool.json").read_text() == (tmp_path / "cut" / "pool" / "pool.json").read_text()
    counters = torch.load(tmp_path / "cut" / "state.pt", weights_only=False)["counters"]
    assert counters["rollouts"] == 4 and counters["steps"] == 4 * 2 * 16 and counters["cpu_s"] > 0
    assert len(list((tmp_path / "cut" / "pool" / "snapshots").iterdir())) == 2  # --max-snapshots holds


def test_the_budget_stops_the_run_and_rates_it_on_the_ladder(script, tmp_path):
    out = tmp_path / "run"
    assert script.main(["--out", str(out), "--cpu-hours", "0.0001", "--rate-games", "4", *TINY]) == 0
    rows = list(csv.DictReader(open(out / "curve.csv")))
    assert len(rows) >= 2 and int(rows[0]["steps"]) == 0 and int(rows[-1]["steps"]) > 0
    assert all(int(r["games"]) == 4 and float(r["low"]) <= float(r["elo"]) <= float(r["high"]) for r in rows)
    counters = torch.load(out / "state.pt", weights_only=False)["counters"]
    assert counters["cpu_s"] >= 0.36 and 0 < counters["rate_cpu_s"] < counters["cpu_s"]


def test_a_resume_with_another_recipe_is_refused_in_one_line(script, tmp_path, capsys):
    out = str(tmp_path / "run")
    script.main(["--out", out, "--max-rollouts", "1", "--rate-games", "0", *TINY])
    with pytest.raises(SystemExit) as exc:
        script.main(["--out", out, "--max-rollouts", "2", "--lr", "0.1", *TINY])
    assert exc.value.code == 2
    assert "other settings (lr)" in capsys.readouterr().err


def activation_of(path):
    from sb3_contrib import MaskablePPO

    return MaskablePPO.load(path, device="cpu").policy.activation_fn


def test_the_activation_option_builds_that_network(script, tmp_path):
    for activation, layer in (("tanh", torch.nn.Tanh), ("relu", torch.nn.ReLU)):
        out = tmp_path / activation
        script.main(["--out", str(out), "--max-rollouts", "1", "--rate-games", "0", "--activation", activation, *TINY])
        assert activation_of(out / "model.zip") is layer


def test_a_run_of_the_former_defaults_resumes_with_its_own_settings(script, tmp_path):
    """Runs saved before --activation existed, with --lr 3e-4 then the default, go on as they began."""
    out = tmp_path / "old"
    script.main(["--out", str(out), "--max-rollouts", "1", "--rate-games", "0", "--lr", "3e-4", *TINY])
    settings = json.loads((out / "settings.json").read_text())
    del settings["activation"]  # the key the former script did not write
    (out / "settings.json").write_text(json.dumps(settings))
    assert script.main(["--out", str(out), "--max-rollouts", "2", "--rate-games", "0", *TINY]) == 0
    resumed = json.loads((out / "settings.json").read_text())
    assert resumed["lr"] == 3e-4 and resumed.get("activation", "tanh") == "tanh"
    assert activation_of(out / "model.zip") is torch.nn.Tanh


def test_a_rating_made_after_the_last_checkpoint_is_dropped_on_resume(script, tmp_path):
    out = tmp_path / "run"
    assert script.main(["--out", str(out), "--max-rollouts", "1", "--rate-games", "0", *TINY]) == 0
    curve = out / "curve.csv"  # a kill after a rating and before the next checkpoint leaves a row it does not count
    curve.write_text("cpu_hours,steps,rollouts,elo,low,high,games,rate_cpu_s,rate_share\n0.01,32,1,5,1,9,4,1,0.1\n")
    assert script.main(["--out", str(out), "--max-rollouts", "2", "--rate-games", "0", *TINY]) == 0
    assert curve.read_text() == "cpu_hours,steps,rollouts,elo,low,high,games,rate_cpu_s,rate_share\n"
