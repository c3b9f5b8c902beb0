"""The single-file PPO: a run cut in two and resumed computes what the unbroken run computes, and its guards."""

from __future__ import annotations

import csv
import json
import os
import sys
from pathlib import Path

import pytest
from lock_holders import held_elsewhere
import torch

from baseline_scripts import load_baseline
from boardgame_envs.safeio import load_tensors
from marker_pickles import payloads

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
    state = load_tensors(tmp_path / "cut" / "checkpoint.pt")["counters"]  # tensors and plain values only
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
    counters = load_tensors(out / "checkpoint.pt")["counters"]
    assert counters["cpu_s"] >= 0.36 and 0 < counters["rate_cpu_s"] < counters["cpu_s"]


def test_a_resume_with_another_recipe_is_refused_in_one_line(script, tmp_path, capsys):
    out = str(tmp_path / "run")
    script.main(["--out", out, "--max-updates", "1", "--rate-games", "0", *TINY])
    with pytest.raises(SystemExit) as exc:
        script.main(["--out", out, "--max-updates", "2", "--lr", "0.1", *TINY])
    assert exc.value.code == 2
    assert "other settings (lr)" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "message"), [
    (["--game", "chess"], "--game 'chess': neither a catalog game (tictactoe, gomoku, renju, connect_four"),
    (["--game", "gomoku9", "--board-size", "7"], "--game 'gomoku9' is a ladder's name, which fixes its game"),
    (["--game", "tictactoe", "--board-size", "4"], "tictactoe is played on a fixed board and rule"),
    (["--game", "connect_four", "--param", "rows=5"], "connect_four"),
    (["--game", "gomoku", "--board-size", "7", "--rule", "freestyle"],
     "no ladder for gomoku 7x7 rule 'freestyle'; build one with `boardgame-envs ladder build gomoku --board-size 7"),
    (["--game", "renju", "--opening-rule", "swap2"], "--opening-rule swap2: this recipe's batched games start from"),
])  # fmt: skip
def test_a_game_it_cannot_train_or_rate_is_one_line(script, tmp_path, capsys, argv, message):
    with pytest.raises(SystemExit) as exc:
        script.main(["--out", str(tmp_path / "x"), *argv])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and message in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "x").exists()


def test_tictactoe_trains_and_its_network_rates_on_the_ladder_as_a_spec(script, tmp_path, capsys):
    out = tmp_path / "ttt"
    assert script.main(["--out", str(out), "--game", "tictactoe", "--max-updates", "2", "--rate-games", "4", *TINY]) == 0
    assert json.loads((out / "run.json").read_text())["game"] == "tictactoe"
    assert [int(r["games"]) for r in csv.DictReader(open(out / "curve.csv"))] == [4]  # rated before training
    assert load_tensors(out / "final.pt")["game"] == {"size": 3, "win_length": 3, "rule": "freestyle"}
    from recipe_games import rate_on_the_ladder

    rate_on_the_ladder(f"boardnet:{out / 'final.pt'}", "tictactoe", capsys)


def test_gomoku_sized_on_the_command_line_is_the_ladder_gomoku9s_game(script, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    assert script.main(["--out", str(a), "--game", "gomoku9", "--max-updates", "1", "--rate-games", "0", *TINY]) == 0
    assert script.main(["--out", str(b), "--game", "gomoku", "--board-size", "9", "--rule", "freestyle",
                        "--max-updates", "1", "--rate-games", "0", *TINY]) == 0  # fmt: skip
    assert all(torch.equal(weights(a / "final.pt")[k], v) for k, v in weights(b / "final.pt").items())
    assert json.loads((b / "config.json").read_text())["board_size"] == 9


def test_a_resume_with_another_size_of_the_game_is_refused(script, tmp_path, capsys):
    out = str(tmp_path / "run")
    base = ["--out", out, "--game", "gomoku", "--rule", "freestyle", "--rate-games", "0", *TINY]
    assert script.main([*base, "--board-size", "7", "--max-updates", "1"]) == 0
    with pytest.raises(SystemExit) as exc:
        script.main([*base, "--board-size", "8", "--max-updates", "2"])
    assert exc.value.code == 2 and "other settings (board_size)" in capsys.readouterr().err
    assert script.main(["--out", out, "--max-updates", "2"]) == 0  # its own settings, from config.json
    assert load_tensors(tmp_path / "run" / "final.pt")["game"]["size"] == 7


@pytest.mark.parametrize(("game", "options", "head"), [
    ("dots_and_boxes", ["--param", "rows=1"], {"cells": 15, "actions": 7, "others": 0}),  # 3x5 grid, 7 lines
    ("place_or_pass", [], {"cells": 9, "actions": 10, "others": 1}),  # a pass: a logit of its own
])  # fmt: skip
def test_a_test_game_trains_and_rates_on_its_built_ladder(script, tmp_path, capsys, monkeypatch, game, options, head):
    from recipe_games import game_with_ladder, rate_on_the_ladder

    out = tmp_path / "run"
    with game_with_ladder(game, tmp_path / "ladders", monkeypatch, *options):
        argv = ["--out", str(out), "--game", game, *options, "--max-updates", "2", "--rate-games", "4", *TINY]
        assert script.main(argv) == 0
        rows = list(csv.DictReader(open(out / "curve.csv")))
        assert len(rows) == 1 and int(rows[0]["games"]) == 4 and float(rows[0]["low"]) <= float(rows[0]["elo"])
        from boardgame_envs.selfplay.boardnet import load_net

        net, trained = load_net(out / "final.pt")
        assert net.arch["head"] == "actions" and trained.name == game
        named = load_tensors(out / "final.pt")["game"]  # with the parameters its entry declares, where it has any
        assert named == ({"name": game, "parameters": {"rows": 1, "columns": 2}} if options else {"name": game})
        cells, actions = len(net.arch["cell_actions"]), net.arch["num_actions"]
        others = actions - len(set(net.arch["cell_actions"]) - {-1})
        assert {"cells": cells, "actions": actions, "others": others} == head
        rate_on_the_ladder(f"boardnet:{out / 'final.pt'}", game, capsys, *options)


def test_a_rating_made_after_the_last_checkpoint_is_dropped_on_resume(script, tmp_path):
    out = tmp_path / "run"
    assert script.main(["--out", str(out), "--max-updates", "2", "--rate-games", "0", *TINY]) == 0
    curve = out / "curve.csv"  # a kill after a rating and before the next checkpoint leaves a row it does not count
    curve.write_text("cpu_hours,steps,updates,elo,low,high,games,rate_cpu_s,rate_share\n0.01,64,2,5,1,9,4,1,0.1\n")
    assert script.main(["--out", str(out), "--max-updates", "4", "--rate-games", "0", *TINY]) == 0
    assert curve.read_text() == "cpu_hours,steps,updates,elo,low,high,games,rate_cpu_s,rate_share\n"


def test_connect_four_trains_a_residual_columns_net_checkpoints_and_resumes(script, tmp_path):
    c4 = ["--game", "connect_four", "--blocks", "1", "--random-moves", "2", "--rate-games", "0", *TINY]
    assert script.main(["--out", str(tmp_path / "whole"), "--max-updates", "4", *c4]) == 0
    cut = tmp_path / "cut"
    assert script.main(["--out", str(cut), "--max-updates", "2", *c4]) == 0
    assert load_tensors(cut / "checkpoint.pt")["counters"]["updates"] == 2
    assert script.main(["--out", str(cut), "--max-updates", "4", *c4]) == 0
    whole, resumed = weights(tmp_path / "whole" / "final.pt"), weights(cut / "final.pt")
    assert all(torch.equal(whole[k], resumed[k]) for k in whole)
    assert json.loads((cut / "config.json").read_text())["blocks"] == 1
    from boardgame_envs.policies.registry import make_policy
    from boardgame_envs.games.connect_four import ConnectFourGame

    policy = make_policy(f"boardnet:{cut / 'final.pt'}")  # plays on its game: a logit per column
    assert policy.net.arch == {"blocks": 1, "head": "columns"} and policy.game == ConnectFourGame()
    state = ConnectFourGame().new_state()
    for _ in range(6):
        state.play(3)  # the middle column full
    assert policy.distribution(state).shape == (7,) and policy.act(state) != 3


def test_a_run_saved_before_the_blocks_option_resumes_with_the_plain_network(script, made, tmp_path):
    import shutil

    run = Path(shutil.copytree(made, tmp_path / "old"))
    config = json.loads((run / "config.json").read_text())
    del config["blocks"]
    (run / "config.json").write_text(json.dumps(config))
    assert script.main(["--out", str(run), "--max-updates", "3", "--rate-games", "0"]) == 0
    assert json.loads((run / "config.json").read_text())["blocks"] == 0
    assert set(load_tensors(run / "final.pt")) == {"shape", "weights", "game"}  # no blocks, no head: as before


# ---------------------------------------------------------------- the run folder: stamp, lock, hostile files
RUN = ["--max-updates", "2", "--rate-games", "0", *TINY]


@pytest.fixture(scope="module")
def made(script, tmp_path_factory):
    """A finished two-update run, copied by each test that spoils it."""
    out = tmp_path_factory.mktemp("made") / "run"
    assert script.main(["--out", str(out), *RUN]) == 0
    return out


@pytest.fixture
def run(made, tmp_path):
    import shutil

    return Path(shutil.copytree(made, tmp_path / "run"))


def contents(folder):
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def refused(script, out, capsys, *extra):
    """Resume ``out``: exit status 2 and one line on stderr, naming what is wrong; that line."""
    capsys.readouterr()
    assert script.main(["--out", str(out), "--max-updates", "4", "--rate-games", "0", *TINY, *extra]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err.strip()


def test_the_run_folder_is_stamped_and_an_unstamped_run_of_this_script_resumes_stamped(script, run):
    assert json.loads((run / "run.json").read_text()) == {"recipe": "ppo_selfplay", "game": "gomoku9", "format": 2}
    (run / "run.json").unlink()  # a run made before the stamp: the same files, read the same safe way
    assert script.main(["--out", str(run), "--max-updates", "4", "--rate-games", "0", *TINY]) == 0
    assert load_tensors(run / "checkpoint.pt")["counters"]["updates"] == 4
    assert json.loads((run / "run.json").read_text())["recipe"] == "ppo_selfplay"


def test_a_folder_of_the_other_recipe_is_refused_and_left_byte_for_byte(script, tmp_path, capsys):
    other = tmp_path / "sb3"
    other.mkdir()
    (other / "run.json").write_text(json.dumps({"recipe": "ppo_sb3_pool", "game": "gomoku9", "format": 2}))
    (other / "curve.csv").write_text("cpu_hours,steps,rollouts,elo\n0.1,0,0,5\n")
    (other / "pool").mkdir()
    (other / "pool" / "pool.json").write_text("{}")
    before = contents(other)
    assert "a run of ppo_sb3_pool, not of ppo_selfplay" in refused(script, other, capsys)
    assert contents(other) == before
    stranger = tmp_path / "stranger"  # not a run folder at all (an AlphaZero run, a home folder)
    stranger.mkdir()
    (stranger / "latest.pt").write_bytes(b"weights")
    assert "not empty and not a run folder of ppo_selfplay" in refused(script, stranger, capsys)
    assert contents(stranger) == {"latest.pt": b"weights"}


def test_a_run_held_by_another_process_is_refused(script, run, capsys):
    with held_elsewhere(run / ".run.lock") as other:
        before = contents(run)
        assert f"in use by another ppo_selfplay run (pid {other.pid})" in refused(script, run, capsys)
        assert contents(run) == before


def cut(path):
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


@pytest.mark.parametrize(
    ("spoil", "named", "message"),
    [
        (lambda run: cut(run / "checkpoint.pt"), "checkpoint.pt", "cut short"),
        (lambda run: cut(run / "pool" / "pool.json"), "pool.json", "not JSON"),
        (lambda run: (run / "pool" / "pool.json").write_text(
            (run / "pool" / "pool.json").read_text().replace('"sampling"', '"sampled"')), "pool.json", "no 'sampling'"),
        (lambda run: [cut(p) for p in (run / "pool" / "snapshots").iterdir()], "snapshots/", "cannot be loaded"),
        (lambda run: (run / "curve.csv").write_bytes(b"cpu_hours,steps\n\xff\xfe\n"), "curve.csv", "not UTF-8"),
        (lambda run: (run / "config.json").write_text('{"lr": "fast"}'), "config.json", "lr is 'fast', not a float"),
    ],
)
def test_a_damaged_run_file_is_one_line_naming_it(script, run, capsys, spoil, named, message):
    spoil(run)
    line = refused(script, run, capsys)
    assert named in line and message in line, line


def test_a_pickle_planted_in_the_checkpoint_never_runs(script, run, capsys):
    marker = run.parent / "marker"
    data = load_tensors(run / "checkpoint.pt")
    for payload in payloads(marker):
        data["counters"] = payload
        torch.save(data, run / "checkpoint.pt")
        assert "checkpoint.pt" in refused(script, run, capsys)
        assert not marker.exists()


def test_a_full_disk_at_the_checkpoint_is_one_line_naming_the_disk(script, run, capsys, monkeypatch):
    real = os.fsync

    def fsync(fd):
        if os.readlink(f"/proc/self/fd/{fd}").endswith(".tmp") and ".checkpoint.pt." in os.readlink(f"/proc/self/fd/{fd}"):
            raise OSError(28, "No space left on device")
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    line = refused(script, run, capsys)
    assert "checkpoint.pt: no room on the disk at" in line
    assert load_tensors(run / "checkpoint.pt")["counters"]["updates"] == 2  # the last checkpoint, whole


# ---------------------------------------------------------------- a run that shows itself as it goes
@pytest.mark.parametrize("terminal", [False, True], ids=["log", "terminal"])
def test_a_run_shows_its_budget_steps_and_last_elo_as_it_goes(script, tmp_path, capsys, monkeypatch, terminal):
    from run_output import check_shows_itself

    argv = ["--out", str(tmp_path / "run"), "--cpu-hours", "0.0001", "--rate-games", "4", *TINY]
    check_shows_itself(script.main, argv, "ppo_selfplay gomoku9", capsys, monkeypatch, terminal)


def test_a_budget_that_is_not_hours_is_one_line(script, tmp_path, capsys):
    for bad in ("-1", "nan"):
        with pytest.raises(SystemExit) as exc:
            script.main(["--out", str(tmp_path / "run"), "--cpu-hours", bad, *TINY])
        assert exc.value.code == 2
        assert "--cpu-hours must be a number of CPU-hours, 0 or more" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_random_opening_moves_are_played_and_left_out_of_the_policys_loss(script):
    cfg = script.Config(game="connect_four", num_envs=8, rollout=6, minibatch=16, epochs=1, channels=4, layers=1,
                        random_moves=2)  # fmt: skip
    torch.manual_seed(0)
    net = script.new_net(cfg)
    import gymnasium

    env = gymnasium.make_vec("boardgame_envs/ConnectFour-v0", num_envs=8, vectorization_mode="vector_entry_point",
                             opponent="random", seat="first", channels_first=True)  # fmt: skip
    obs, info = env.reset(seed=0)
    left = torch.tensor([0, 1, 2, 0, 1, 2, 0, 2])
    batch = script.rollout(cfg, env, net, (torch.from_numpy(obs), torch.from_numpy(info["action_mask"]), left.clone()))
    policy = batch["policy"].view(6, 8)
    assert torch.equal(policy[0], left == 0) and torch.equal(policy[1], left <= 1) and policy[2].all()  # first k moves
    # A batch of random moves alone trains the value and leaves the policy head as it was.
    batch["policy"][:] = False
    head = net.policy.weight.detach().clone()
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    stats = script.learn(cfg, net, opt, batch)
    assert torch.equal(net.policy.weight, head) and stats["pg"] == 0 and stats["vf"] > 0
    cfg0 = script.Config(game="connect_four")  # the option off: no draw from torch's RNG, so older runs go on as they were
    state = torch.get_rng_state()
    assert torch.equal(script.random_moves(cfg0, 5), torch.zeros(5, dtype=torch.long))
    assert torch.equal(torch.get_rng_state(), state)
