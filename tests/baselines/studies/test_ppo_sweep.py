"""The PPO sweep: each variant runs as its own process on the same budget and gets a row with its rating."""

from __future__ import annotations

import csv

import pytest

from baseline_scripts import load_baseline


@pytest.fixture(scope="module")
def script():
    return load_baseline("studies/ppo_sweep")


def test_a_variant_runs_and_is_rated(script, tmp_path):
    out = tmp_path / "sweep"
    assert script.main(["--out", str(out), "--only", "layers3", "--cpu-minutes", "0.002", "--games", "2",
                        "--rate-games", "2", "--jobs", "1"]) == 0  # fmt: skip
    (row,) = list(csv.DictReader(open(out / "sweep.csv")))
    assert row["variant"] == "layers3" and row["flags"] == "--layers 3" and row["rc"] == "0"
    assert int(row["games"]) == 2 and float(row["low"]) <= float(row["elo"]) <= float(row["high"])
    assert int(row["steps"]) > 0 and int(row["steps_per_cpu_s"]) > 0
    assert "| layers3 | --layers 3 |" in (out / "sweep.md").read_text()


def test_an_unknown_variant_is_refused(script, tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        script.main(["--out", str(tmp_path), "--only", "defaults,nope"])
    assert exc.value.code == 2
    assert "unknown variants nope" in capsys.readouterr().err
