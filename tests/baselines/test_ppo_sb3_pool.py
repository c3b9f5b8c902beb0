"""The MaskablePPO pool recipe: a run cut in two and resumed computes what the unbroken run computes, and its guards."""

from __future__ import annotations

import csv
import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from lock_holders import held_elsewhere
import torch

from baseline_scripts import load_baseline
from boardgame_envs.safeio import load_tensors
from marker_pickles import payloads

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
    counters = load_tensors(tmp_path / "cut" / "state.pt")["counters"]  # tensors and plain values only
    assert counters["rollouts"] == 4 and counters["steps"] == 4 * 2 * 16 and counters["cpu_s"] > 0
    assert len(list((tmp_path / "cut" / "pool" / "snapshots").iterdir())) == 2  # --max-snapshots holds


def test_the_budget_stops_the_run_and_rates_it_on_the_ladder(script, tmp_path):
    out = tmp_path / "run"
    assert script.main(["--out", str(out), "--cpu-hours", "0.0001", "--rate-games", "4", *TINY]) == 0
    rows = list(csv.DictReader(open(out / "curve.csv")))
    assert len(rows) >= 2 and int(rows[0]["steps"]) == 0 and int(rows[-1]["steps"]) > 0
    assert all(int(r["games"]) == 4 and float(r["low"]) <= float(r["elo"]) <= float(r["high"]) for r in rows)
    counters = load_tensors(out / "state.pt")["counters"]
    assert counters["cpu_s"] >= 0.36 and 0 < counters["rate_cpu_s"] < counters["cpu_s"]


def test_a_resume_with_another_recipe_is_refused_in_one_line(script, tmp_path, capsys):
    out = str(tmp_path / "run")
    script.main(["--out", out, "--max-rollouts", "1", "--rate-games", "0", *TINY])
    with pytest.raises(SystemExit) as exc:
        script.main(["--out", out, "--max-rollouts", "2", "--lr", "0.1", *TINY])
    assert exc.value.code == 2
    assert "other settings (lr)" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "message"), [
    (["--game", "chess"], "--game 'chess': neither a catalog game (tictactoe, gomoku, renju, connect_four"),
    (["--game", "tictactoe", "--rule", "renju"], "tictactoe is played on a fixed board and rule"),
    (["--game", "gomoku", "--board-size", "7", "--rule", "freestyle"], "no ladder for gomoku 7x7 rule 'freestyle'"),
    (["--game", "renju", "--opening-rule", "swap2"], "--opening-rule swap2: this recipe's games start from"),
])  # fmt: skip
def test_a_game_it_cannot_train_or_rate_is_one_line(script, tmp_path, capsys, argv, message):
    with pytest.raises(SystemExit) as exc:
        script.main(["--out", str(tmp_path / "x"), *argv])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and message in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "x").exists()


def test_the_way_a_game_is_played_comes_from_the_game(script):
    from boardgame_envs.games.catalog import GAMES
    from games.dots_and_boxes import DotsAndBoxesGame
    from games.pass_game import PassGame

    gomoku = GAMES["gomoku"]
    assert script.plan(gomoku.game(9, None, "freestyle")) == {"cnn": True, "max_snapshots": 3}  # as gomoku9 was
    assert script.plan(gomoku.game()) == {"cnn": True, "max_snapshots": 2}  # as renju was
    assert script.plan(GAMES["connect_four"].game()) == {"cnn": False, "max_snapshots": 5}  # as connect_four was
    assert script.plan(GAMES["tictactoe"].game())["cnn"]
    assert not script.plan(PassGame())["cnn"] and not script.plan(DotsAndBoxesGame())["cnn"]  # a pass; lines


def test_tictactoe_trains_and_rates_on_the_ladder_as_a_spec(script, tmp_path, capsys):
    out = tmp_path / "ttt"
    assert script.main(["--out", str(out), "--game", "tictactoe", "--max-rollouts", "1", "--rate-games", "4", *TINY]) == 0
    assert json.loads((out / "run.json").read_text())["game"] == "tictactoe"
    assert [int(r["games"]) for r in csv.DictReader(open(out / "curve.csv"))] == [4]
    from recipe_games import rate_on_the_ladder

    rate_on_the_ladder(f"sb3:{out / 'model.zip'}", "tictactoe", capsys)


@pytest.mark.parametrize(("game", "options", "actions"), [
    ("dots_and_boxes", ["--param", "rows=1"], 7),  # lines; extra turns, a score
    ("place_or_pass", [], 10),  # nine cells and a pass
])  # fmt: skip
def test_a_test_game_trains_and_rates_on_its_built_ladder(script, tmp_path, capsys, monkeypatch, game, options, actions):
    from recipe_games import game_with_ladder, rate_on_the_ladder

    out = tmp_path / "run"
    with game_with_ladder(game, tmp_path / "ladders", monkeypatch, *options):
        argv = ["--out", str(out), "--game", game, *options, "--max-rollouts", "2", "--rate-games", "4", *TINY]
        assert script.main(argv) == 0
        rows = list(csv.DictReader(open(out / "curve.csv")))
        assert len(rows) == 1 and int(rows[0]["games"]) == 4 and float(rows[0]["low"]) <= float(rows[0]["elo"])
        assert load_tensors(out / "state.pt")["counters"]["rollouts"] == 2
        assert weights(out / "model.zip")["action_net.weight"].shape[0] == actions
        settings = json.loads((out / "settings.json").read_text())
        assert settings["game"] == game and settings["param"] == options[1:]
        rate_on_the_ladder(f"sb3:{out / 'model.zip'}", game, capsys, *options)


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


# ---------------------------------------------------------------- the run folder: stamp, lock, hostile files
RUN = ["--max-rollouts", "1", "--rate-games", "0", *TINY]


@pytest.fixture(scope="module")
def made(script, tmp_path_factory):
    """A finished one-rollout run (stamped, its pool holding one SB3 snapshot), copied by each test that spoils it."""
    out = tmp_path_factory.mktemp("made") / "run"
    assert script.main(["--out", str(out), *RUN]) == 0
    return out


@pytest.fixture
def run(made, tmp_path):
    return Path(shutil.copytree(made, tmp_path / "run"))


def contents(folder):
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def refused(script, out, capsys):
    """Resume ``out``: exit status 2 and one line on stderr, naming what is wrong; that line."""
    capsys.readouterr()
    assert script.main(["--out", str(out), "--max-rollouts", "2", "--rate-games", "0", *TINY]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err.strip()


def test_a_folder_of_ppo_selfplay_is_refused_and_left_byte_for_byte(script, tmp_path, capsys):
    """It used to be taken for a new run: its pool's snapshots and its curve were written over."""
    other = tmp_path / "ppo"
    selfplay = load_baseline("ppo_selfplay")
    assert selfplay.main(["--out", str(other), "--max-updates", "2", "--rate-games", "0", "--num-envs", "8",
                          "--rollout", "4", "--minibatch", "16", "--epochs", "1", "--channels", "4", "--layers", "2",
                          "--checkpoint-every", "2"]) == 0  # fmt: skip
    (other / "curve.csv").write_text("cpu_hours,steps,updates,elo\n0.1,0,0,5\n")
    before = contents(other)
    for stamped in (True, False):  # a run of today's ppo_selfplay.py, and one from before the stamp
        if not stamped:
            (other / "run.json").unlink()
            before = contents(other)
        line = refused(script, other, capsys)
        assert ("a run of ppo_selfplay, not of ppo_sb3_pool" if stamped else "not a run folder of ppo_sb3_pool") in line
        assert contents(other) == before


def test_a_run_from_before_the_stamp_is_refused_saying_how_to_go_on(script, run, capsys):
    (run / "run.json").unlink()  # as an older script left it (its state.pt then unpickled numpy's RNG)
    before = contents(run)
    line = refused(script, run, capsys)
    assert "older ppo_sb3_pool.py" in line and "start a new --out" in line and "sb3:" in line
    assert contents(run) == before


def test_a_resume_never_calls_the_sb3_loader(script, run, monkeypatch):
    """The model is rebuilt from the run's settings and its state dicts loaded from state.pt."""
    from stable_baselines3.common import base_class, save_util

    def unpickler(*args, **kwargs):
        raise AssertionError("SB3's loader read the run folder")

    monkeypatch.setattr(save_util, "load_from_zip_file", unpickler)
    monkeypatch.setattr(base_class, "load_from_zip_file", unpickler)
    monkeypatch.setattr(save_util, "json_to_data", unpickler)
    assert script.main(["--out", str(run), "--max-rollouts", "2", "--rate-games", "0", *TINY]) == 0
    assert load_tensors(run / "state.pt")["counters"]["rollouts"] == 2


def test_a_run_held_by_another_process_is_refused(script, run, capsys):
    with held_elsewhere(run / ".run.lock") as other:
        before = contents(run)
        assert f"in use by another ppo_sb3_pool run (pid {other.pid})" in refused(script, run, capsys)
        assert contents(run) == before


def cut(path):
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


@pytest.mark.parametrize(
    ("spoil", "named", "message"),
    [
        (lambda run: cut(run / "state.pt"), "state.pt", "cut short"),
        (lambda run: cut(run / "pool" / "pool.json"), "pool.json", "not JSON"),
        (lambda run: (run / "pool" / "pool.json").write_text(
            (run / "pool" / "pool.json").read_text().replace('"sampling"', '"sampled"')), "pool.json", "no 'sampling'"),
        (lambda run: [cut(p) for p in (run / "pool" / "snapshots").iterdir()], "snapshots/", "cannot be loaded"),
        (lambda run: (run / "curve.csv").write_bytes(b"cpu_hours,steps\n\xff\xfe\n"), "curve.csv", "not UTF-8"),
        (lambda run: (run / "settings.json").write_text('{"game": "connect_four", "lr": "fast"}'), "settings.json",
         "lr is 'fast', not a value of --lr"),
        (lambda run: (run / "settings.json").write_text('{"game": "chess"}'), "settings.json", "not the settings"),
    ],
)
def test_a_damaged_run_file_is_one_line_naming_it(script, run, capsys, spoil, named, message):
    spoil(run)
    line = refused(script, run, capsys)
    assert named in line and message in line, line


def test_a_pickle_planted_in_the_state_never_runs(script, run, capsys):
    marker = run.parent / "marker"
    state = load_tensors(run / "state.pt")
    for payload in payloads(marker):
        state["rng"]["numpy"] = payload
        torch.save(state, run / "state.pt")
        assert "state.pt" in refused(script, run, capsys)
        assert not marker.exists()


def test_a_full_disk_at_the_state_is_one_line_naming_the_disk(script, run, capsys, monkeypatch):
    real = os.fsync

    def fsync(fd):
        if ".state.pt." in os.readlink(f"/proc/self/fd/{fd}"):
            raise OSError(28, "No space left on device")
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    assert "state.pt: no room on the disk at" in refused(script, run, capsys)
    assert load_tensors(run / "state.pt")["counters"]["rollouts"] == 1  # the last state, whole


# ---------------------------------------------------------------- a run that shows itself as it goes
@pytest.mark.parametrize("terminal", [False, True], ids=["log", "terminal"])
def test_a_run_shows_its_budget_steps_and_last_elo_as_it_goes(script, tmp_path, capsys, monkeypatch, terminal):
    from run_output import check_shows_itself

    argv = ["--out", str(tmp_path / "run"), "--cpu-hours", "0.0001", "--rate-games", "4", *TINY]
    check_shows_itself(script.main, argv, "ppo_sb3_pool connect_four", capsys, monkeypatch, terminal)


def test_a_budget_that_is_not_hours_is_one_line(script, tmp_path, capsys):
    for bad in ("-1", "nan"):
        with pytest.raises(SystemExit) as exc:
            script.main(["--out", str(tmp_path / "run"), "--cpu-hours", bad, *TINY])
        assert exc.value.code == 2
        assert "--cpu-hours must be a number of CPU-hours, 0 or more" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()
