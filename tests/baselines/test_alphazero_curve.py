"""baselines/alphazero_curve.py: snapshots rated on the ladder (resumably), drawn and tabled against CPU-hours."""

from __future__ import annotations

import json

import pytest
from baseline_scripts import load_baseline

from boardgame_envs import tictactoe_v0
from boardgame_envs.alphazero import AlphaZeroConfig, AlphaZeroTrainer

TINY = dict(parallel_games=16, games_per_iteration=16, simulations=8, train_steps=4, batch_size=32,
            blocks=1, channels=8, progress=False, eval_every=0, tensorboard=False)  # fmt: skip


def test_each_snapshot_is_rated_once_and_drawn_against_cpu_hours(tmp_path, capsys):
    curve = load_baseline("alphazero_curve")
    run = tmp_path / "ttt"
    config = AlphaZeroConfig.for_game("tictactoe", out=str(run), iterations=2, snapshot_every=1, **TINY)
    AlphaZeroTrainer(tictactoe_v0.env, config).train()
    assert curve.main(["rate", str(run), "--games", "2", "--simulations", "0"]) == 0
    points = json.loads((run / "curve.json").read_text())["points"]
    assert [p["snapshot"] for p in points] == ["iter-0000.pt", "iter-0001.pt", "iter-0002.pt"]
    assert all(p["ladder"] == "tictactoe" and p["games"] == 2 for p in points)
    assert 0 == points[0]["cpu_hours"] < points[1]["cpu_hours"] < points[2]["cpu_hours"]  # untrained, then trained
    assert points[0]["command"].startswith("boardgame-envs rate checkpoint:") and "--games 2" in points[0]["command"]
    curve.main(["rate", str(run), "--games", "2", "--simulations", "0"])  # nothing new: nothing rated again
    assert len(json.loads((run / "curve.json").read_text())["points"]) == 3
    png = tmp_path / "curve.png"
    assert curve.main(["plot", str(run), "--out", str(png), "--labels", "tiny"]) == 0 and png.stat().st_size > 1000
    capsys.readouterr()
    curve.main(["table", str(run)])
    assert capsys.readouterr().out.count("| ttt | iter-") == 3
    assert curve.main(["plot", str(run), "--out", str(png), "--labels", "a,b"]) == 2  # one label per run
    assert curve.main(["rate", str(tmp_path)]) == 2  # no snapshots there


def test_max_points_spreads_the_rated_snapshots_over_the_cpu_hours():
    spread = load_baseline("alphazero_curve").spread
    cpu = [0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0]
    assert spread(cpu, 3) == [0, 4, 8]  # first, middle, last
    assert spread(cpu, 5) == [0, 2, 4, 6, 8]
    assert spread([0.0, 1.0, 2.0, 100.0], 3) == [0, 2, 3]  # by CPU time, not by index: 50 is nearest 2.0 of the rest
    assert spread(cpu[:2], 5) == [0, 1] and spread(cpu, 1) == [8]


def test_max_points_rates_only_that_many(tmp_path):
    curve = load_baseline("alphazero_curve")
    run = tmp_path / "ttt"
    config = AlphaZeroConfig.for_game("tictactoe", out=str(run), iterations=3, snapshot_every=1, **TINY)
    AlphaZeroTrainer(tictactoe_v0.env, config).train()
    assert curve.main(["rate", str(run), "--games", "2", "--simulations", "0", "--max-points", "2"]) == 0
    points = json.loads((run / "curve.json").read_text())["points"]
    assert [p["snapshot"] for p in points] == ["iter-0000.pt", "iter-0003.pt"]
    assert curve.main(["rate", str(run), "--max-points", "0"]) == 2
    # Chosen iterations: the one not rated yet is rated, the rated one is not rated again.
    assert curve.main(["rate", str(run), "--games", "2", "--simulations", "0", "--iterations", "1,3"]) == 0
    points = json.loads((run / "curve.json").read_text())["points"]
    assert [p["snapshot"] for p in points] == ["iter-0000.pt", "iter-0003.pt", "iter-0001.pt"]
    assert curve.main(["rate", str(run), "--iterations", "1,7"]) == 2  # no such snapshot
    assert curve.main(["rate", str(run), "--iterations", "one"]) == 2
    assert curve.snapshot_iteration(run / "snapshots" / "iter-0012.pt") == 12


def test_a_snapshot_rated_twice_is_drawn_with_its_longer_rating(tmp_path):
    curve = load_baseline("alphazero_curve")
    point = dict(snapshot="iter-0004.pt", cpu_hours=0.5, ladder="gomoku9", elo=1600.0, low=1500.0, high=1700.0,
                 simulations=100, extra="threats=false")
    rows = [dict(point, games=40), dict(point, games=100, elo=1650.0), dict(point, snapshot="iter-0000.pt", games=40,
            cpu_hours=0.1)]  # fmt: skip
    (tmp_path / "curve.json").write_text(json.dumps({"points": rows}))
    assert [(p["snapshot"], p["games"]) for p in curve.points(tmp_path)] == [("iter-0000.pt", 40), ("iter-0004.pt", 100)]


def test_points_rated_with_different_searches_are_not_one_curve(tmp_path, capsys):
    curve = load_baseline("alphazero_curve")
    point = dict(snapshot="iter-0004.pt", cpu_hours=0.5, ladder="renju", elo=2500.0, low=2400.0, high=2600.0,
                 games=30, simulations=100, extra="threats=false", rated="Elo +2500", command="rate ...",
                 games_trained=200)
    rows = [point, dict(point, snapshot="iter-0000.pt", cpu_hours=0.1, elo=2100.0),
            dict(point, simulations=400, extra="", games=100, elo=3300.0)]  # longer, but another search
    (tmp_path / "curve.json").write_text(json.dumps({"points": rows}))
    with pytest.raises(ValueError, match="several searches"):
        curve.points(tmp_path)
    plain = curve.points(tmp_path, "100 simulations, threats=false")
    assert [(p["snapshot"], p["elo"]) for p in plain] == [("iter-0000.pt", 2100.0), ("iter-0004.pt", 2500.0)]
    assert [p["elo"] for p in curve.points(tmp_path, "400 simulations")] == [3300.0]
    with pytest.raises(ValueError, match="no points rated with"):
        curve.points(tmp_path, "64 simulations")
    capsys.readouterr()
    assert curve.main(["table", str(tmp_path)]) == 2
    assert "--search" in capsys.readouterr().err
    assert curve.main(["table", str(tmp_path), "--search", "400 simulations"]) == 0
    assert capsys.readouterr().out.count("| iter-") == 1
    assert curve.main(["plot", str(tmp_path), "--out", str(tmp_path / "c.png")]) == 2


def test_a_run_started_from_another_network_continues_its_cpu_hours(tmp_path):
    curve = load_baseline("alphazero_curve")
    run = tmp_path / "ttt"
    config = AlphaZeroConfig.for_game("tictactoe", out=str(run), iterations=1, snapshot_every=1, **TINY)
    AlphaZeroTrainer(tictactoe_v0.env, config).train()
    assert curve.main(["rate", str(run), "--games", "2", "--simulations", "0", "--cpu-offset", "5.05"]) == 0
    points = json.loads((run / "curve.json").read_text())["points"]
    own = curve.snapshot_facts(run / "snapshots" / "iter-0001.pt")["cpu_s"] / 3600
    assert points[0]["cpu_hours"] == 5.05 and points[1]["cpu_hours"] == pytest.approx(5.05 + own)
    assert all(p["cpu_offset_hours"] == 5.05 for p in points)
    assert curve.main(["rate", str(run), "--cpu-offset", "-1"]) == 2
    assert curve.main(["rate", str(run), "--cpu-offset", "nan"]) == 2
