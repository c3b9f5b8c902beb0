"""AlphaZero end to end on tic-tac-toe in seconds: train, checkpoint, resume (also after a kill), play."""

from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
import torch

from boardgame_envs import gomoku_v0, tictactoe_v0
from boardgame_envs.alphazero import AlphaZeroConfig, AlphaZeroTrainer, NetworkPolicy, load_checkpoint
from boardgame_envs.alphazero.trainer import schedule_progress
from boardgame_envs.arena import match
from boardgame_envs.cli import main as cli_main

TINY = dict(parallel_games=16, games_per_iteration=16, simulations=8, train_steps=4, batch_size=32,
            blocks=1, channels=8, eval_games=2, progress=False)  # fmt: skip


def tiny_config(out, **overrides) -> AlphaZeroConfig:
    return AlphaZeroConfig.for_game("tictactoe", out=None if out is None else str(out), **{**TINY, **overrides})


def test_end_to_end_train_writes_a_loadable_checkpoint_and_tensorboard(tmp_path):
    trainer = AlphaZeroTrainer(tictactoe_v0.env, tiny_config(tmp_path, iterations=2, eval_every=2))
    rows = trainer.train()
    assert [r["iteration"] for r in rows] == [1.0, 2.0]
    assert trainer.games_played >= 32 and len(trainer.buffer) > 0
    assert all(np.isfinite(r["loss"]) and r["loss"] > 0 for r in rows)
    assert "score_vs_mcts" in rows[1] and "score_vs_mcts" not in rows[0]
    checkpoint = load_checkpoint(tmp_path)  # weights_only=True inside
    assert checkpoint["iteration"] == 2 and checkpoint["game"] == {"size": 3, "win_length": 3, "rule": "freestyle"}
    assert any(name.startswith("events.out.tfevents") for name in os.listdir(tmp_path / "tensorboard"))
    assert not [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]  # no half-written files left


def test_resume_continues_from_the_checkpoint(tmp_path):
    AlphaZeroTrainer(tictactoe_v0.env, tiny_config(tmp_path, iterations=2, eval_every=0)).train()
    saved = load_checkpoint(tmp_path)
    resumed = AlphaZeroTrainer(tictactoe_v0.env, tiny_config(tmp_path, iterations=3, eval_every=0))
    assert resumed.iteration == 2 and resumed.games_played == saved["games_played"]
    assert len(resumed.buffer) == len(saved["buffer"]["values"])
    for name, tensor in resumed.net.state_dict().items():
        assert torch.equal(tensor, saved["net"][name]), name
    rows = resumed.train()
    assert [r["iteration"] for r in rows] == [3.0]
    # A checkpoint of another game or another network is refused, not silently mixed in.
    with pytest.raises(ValueError, match="is for"):
        AlphaZeroTrainer(functools.partial(gomoku_v0.env, board_size=5, win_length=4), tiny_config(tmp_path))
    with pytest.raises(ValueError, match="network"):
        AlphaZeroTrainer(tictactoe_v0.env, tiny_config(tmp_path, channels=16))


KILLED_RUN = """
import sys
from boardgame_envs import tictactoe_v0
from boardgame_envs.alphazero import AlphaZeroConfig, AlphaZeroTrainer
config = AlphaZeroConfig.for_game("tictactoe", out=sys.argv[1], iterations=1000, eval_every=0, **{tiny})
trainer = AlphaZeroTrainer(tictactoe_v0.env, config)
while True:
    trainer.run_iteration()
    print("done", trainer.iteration, flush=True)
"""


def test_a_killed_run_loses_at_most_the_iteration_under_way(tmp_path):
    script = KILLED_RUN.format(tiny=repr(TINY))
    proc = subprocess.Popen([sys.executable, "-c", script, str(tmp_path)], stdout=subprocess.PIPE, text=True)
    done = 0
    try:
        deadline = time.monotonic() + 120
        while done < 3 and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if line.startswith("done"):
                done = int(line.split()[1])
        assert done >= 3, "the training subprocess made no progress"
        proc.send_signal(signal.SIGKILL)  # mid-iteration, most likely mid-self-play
    finally:
        proc.kill()
        proc.wait()
    checkpoint = load_checkpoint(tmp_path)
    assert checkpoint["iteration"] >= done  # every iteration reported done was saved
    resumed = AlphaZeroTrainer(tictactoe_v0.env, tiny_config(tmp_path, iterations=checkpoint["iteration"] + 1))
    assert resumed.iteration == checkpoint["iteration"]
    assert [r["iteration"] for r in resumed.train()] == [checkpoint["iteration"] + 1.0]


def test_network_policy_never_picks_an_illegal_or_forbidden_point():
    # Renju 9x9 positions where black has forbidden points; an untrained net, greedy and searching.
    env = gomoku_v0.raw_env(board_size=9, rule="renju")
    net = AlphaZeroTrainer(functools.partial(gomoku_v0.raw_env, board_size=9, rule="renju"),
                           AlphaZeroConfig(blocks=1, channels=8, out=None)).net  # fmt: skip
    rng = np.random.default_rng(0)
    forbidden_seen = 0
    for trial in range(30):
        env.reset()
        for _ in range(int(rng.integers(4, 30))):
            legal = env.game_state.legal_actions()
            env.step(int(legal[rng.integers(len(legal))]))
            if env.game_state.terminal:
                break
        state = env.game_state
        if state.terminal or state.to_move != 1:
            continue
        forbidden_seen += int(state.forbidden().sum())
        mask = env.observe(env.agent_selection)["action_mask"].astype(bool)
        for sims in (0, 16):
            policy = NetworkPolicy(net, env.game, simulations=sims, seed=trial)
            assert mask[policy.act(env)]
            dist = policy.distribution(env)
            assert dist[~mask].sum() == 0.0 and abs(dist.sum() - 1.0) < 1e-6
    assert forbidden_seen > 0  # the positions did exercise the renju mask


def test_network_policy_from_checkpoint_plays_in_the_arena_and_the_cli(tmp_path, capsys):
    AlphaZeroTrainer(tictactoe_v0.env, tiny_config(tmp_path, iterations=1, eval_every=0)).train()
    path = str(tmp_path / "latest.pt")
    policy = NetworkPolicy.from_checkpoint(path, seed=0)
    result = match(tictactoe_v0.env, lambda seed: NetworkPolicy.from_checkpoint(path, seed=seed), "random",
                   games=4, progress=False)  # fmt: skip
    assert result.games == 4
    with pytest.raises(ValueError, match="trained on"):
        env = gomoku_v0.env(board_size=5, win_length=4)
        env.reset()
        policy.act(env)
    assert cli_main(["demo", "tictactoe", "--first", path, "--second", "random"]) == 0
    assert "moves:" in capsys.readouterr().out
    assert cli_main(["demo", "gomoku", "--first", path]) == 2
    assert "trained on" in capsys.readouterr().err
    assert cli_main(["demo", "tictactoe", "--first", str(tmp_path / "missing.pt")]) == 2
    assert "no checkpoint" in capsys.readouterr().err


def test_cli_train_runs_and_resumes(tmp_path, capsys):
    args = ["train", "tictactoe", "--iterations", "1", "--out", str(tmp_path), "--no-progress",
            "--parallel-games", "8", "--games-per-iteration", "8", "--simulations", "4", "--blocks", "1",
            "--channels", "8", "--train-steps", "2", "--eval-every", "0"]  # fmt: skip
    assert cli_main(args) == 0
    assert cli_main([*args[:2], "--iterations", "2", *args[4:]]) == 0
    out = capsys.readouterr().out
    assert "resumed from 1" in out and "latest.pt" in out
    assert f"summary plot: {tmp_path / 'summary.png'}" in out and (tmp_path / "summary.png").is_file()


def test_cli_train_warm_start_only(tmp_path, capsys):
    args = ["train", "tictactoe", "--iterations", "0", "--out", str(tmp_path), "--no-progress", "--no-tensorboard",
            "--warm-start", "greedy", "--warm-games", "2", "--warm-steps", "2", "--workers", "1", "--blocks", "1",
            "--channels", "8", "--batch-size", "16"]  # fmt: skip
    assert cli_main(args) == 0
    assert "the warm start is done (2 games, 2 learning steps)" in capsys.readouterr().out
    assert load_checkpoint(tmp_path)["iteration"] == 0


@pytest.mark.parametrize(
    "bad",
    [dict(simulations=0), dict(dirichlet_fraction=2.0), dict(backend="mpi"), dict(iterations=-1), dict(lr=0),
     dict(value_decay=1.0), dict(value_decay=-0.1)],  # fmt: skip
)
def test_bad_config_is_a_value_error(bad):
    with pytest.raises(ValueError):
        AlphaZeroConfig(**bad)


@pytest.mark.parametrize(("flag", "said"), [
    ("--simulations", "simulations must be an integer in 1..1,000,000, got 99999999999999999999"),
    ("--eval-simulations", "eval_simulations must be an integer in 0..1,000,000"),
    ("--buffer-size", "buffer_size must be an integer in 1..1,000,000,000"),
    ("--train-steps", "train_steps must be an integer in 0..1,000,000,000"),
])  # fmt: skip
def test_a_count_past_its_bound_is_one_line_naming_the_field(flag, said, tmp_path, capsys):
    argv = ["train", "tictactoe", flag, "99999999999999999999", "--minutes", "0.01", "--out", str(tmp_path)]
    assert cli_main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err and "Maximum allowed dimension" not in err


def test_train_needs_an_end():
    with pytest.raises(ValueError, match="iterations or config.minutes"):
        AlphaZeroTrainer(tictactoe_v0.env, AlphaZeroConfig(out=None)).train()


def test_value_decay_shrinks_targets_by_plies_to_the_end():
    # The same games (the value target does not steer play), with and without the decay:
    # a position t plies before the end of a decisive game gets z * (1 - 0.5 * t / 9).
    from boardgame_envs.alphazero.network import PolicyValueNet
    from boardgame_envs.alphazero.selfplay import SelfPlay

    torch.manual_seed(0)
    net = PolicyValueNet(2, 3, blocks=1, channels=8)
    net.eval()
    runs = {}
    for decay in (0.0, 0.5):
        config = tiny_config(None, value_decay=decay, temperature_moves=9)
        runs[decay], _ = SelfPlay(tictactoe_v0.env, config, seed=3).play(net, 16)
    plain, decayed = runs[0.0], runs[0.5]
    np.testing.assert_array_equal(plain.planes, decayed.planes)
    decisive = plain.values != 0
    assert decisive.any()
    assert np.all(decayed.values[~decisive] == 0)
    plies_left = (1 - decayed.values[decisive] / plain.values[decisive]) * 18
    np.testing.assert_allclose(plies_left, np.round(plies_left), atol=1e-4)
    stones = plain.planes[decisive].sum(axis=(1, 2, 3))
    game_length = stones + np.round(plies_left) + 1
    assert game_length.min() >= 5 and game_length.max() <= 9  # a tic-tac-toe win takes 5 to 9 moves
    assert (np.round(plies_left) == 0).any() and (np.round(plies_left) >= 4).any()


def test_a_resumed_run_goes_on_with_its_schedule_and_its_cpu_count(tmp_path):
    whole = AlphaZeroTrainer(tictactoe_v0.env, tiny_config(tmp_path / "whole", iterations=4, eval_every=0)).train()
    AlphaZeroTrainer(tictactoe_v0.env, tiny_config(tmp_path / "split", iterations=2, eval_every=0)).train()
    cpu_at_2 = load_checkpoint(tmp_path / "split")["cpu_s"]
    rest = AlphaZeroTrainer(tictactoe_v0.env, tiny_config(tmp_path / "split", iterations=4, eval_every=0)).train()
    # The learning rate anneals over all 4 iterations in both runs: the resumed one does not start it again.
    assert [r["lr"] for r in rest] == pytest.approx([r["lr"] for r in whole[2:]])
    assert 0 < cpu_at_2 < rest[0]["cpu_s"] < rest[1]["cpu_s"]  # CPU seconds of training go on from the checkpoint


def test_with_iterations_set_the_schedule_follows_them_not_this_calls_minutes():
    # A run split over sessions gives each call its own --minutes; the clock of one call must not anneal the rate.
    assert schedule_progress(10, 40, (3500.0, 3600.0)) == 0.25
    assert schedule_progress(40, 40, (1.0, 3600.0)) == 1.0
    assert schedule_progress(3, None, (900.0, 3600.0)) == 0.25  # minutes alone: this call's clock
    assert schedule_progress(3, None, (4000.0, 3600.0)) == 1.0 and schedule_progress(3, None, None) == 0.0


def test_snapshot_every_without_an_out_folder_keeps_nothing_and_trains():
    rows = AlphaZeroTrainer(tictactoe_v0.env, tiny_config(None, iterations=1, snapshot_every=1, eval_every=0)).train()
    assert [r["iteration"] for r in rows] == [1.0]


def test_zero_iterations_is_the_warm_start_alone_and_runs_branch_from_it(tmp_path):
    warm = dict(warm_start="greedy", warm_games=4, warm_steps=3, warm_random_moves=2, workers=1)
    trainer = AlphaZeroTrainer(tictactoe_v0.env, tiny_config(tmp_path / "warm", iterations=0, **warm))
    assert trainer.train() == []
    saved = load_checkpoint(tmp_path / "warm")
    assert saved["iteration"] == 0 and saved["warm_start"]["done"] and saved["warm_start"]["games"] == 4
    (tmp_path / "arm").mkdir()
    (tmp_path / "arm" / "latest.pt").write_bytes((tmp_path / "warm" / "latest.pt").read_bytes())
    arm = AlphaZeroTrainer(tictactoe_v0.env, tiny_config(tmp_path / "arm", iterations=1, snapshot_every=1, **warm))
    assert arm.warm["done"] and len(arm.buffer) == len(trainer.buffer) > 0  # the warm examples, not a second warm start
    rows = arm.train()
    assert [r["iteration"] for r in rows] == [1.0] and rows[0]["cpu_s"] > saved["cpu_s"] > 0
    origin = load_checkpoint(tmp_path / "arm" / "snapshots" / "iter-0000.pt")  # the branch point starts the curve
    assert origin["iteration"] == 0 and origin["cpu_s"] == saved["cpu_s"]
    assert all(torch.equal(origin["net"][k], saved["net"][k]) for k in saved["net"])
    assert (tmp_path / "arm" / "snapshots" / "iter-0001.pt").is_file()


def test_snapshots_keep_the_network_and_the_cpu_seconds_so_far(tmp_path):
    trainer = AlphaZeroTrainer(tictactoe_v0.env, tiny_config(tmp_path, iterations=4, eval_every=0, snapshot_every=2))
    rows = trainer.train()
    names = sorted(p.name for p in (tmp_path / "snapshots").iterdir())
    assert names == ["iter-0000.pt", "iter-0002.pt", "iter-0004.pt"]  # the untrained network is the curve's origin
    first = load_checkpoint(tmp_path / "snapshots" / "iter-0002.pt")
    assert first["iteration"] == 2 and first["cpu_s"] == pytest.approx(rows[1]["cpu_s"])
    policy = NetworkPolicy.from_checkpoint(str(tmp_path / "snapshots" / "iter-0004.pt"), simulations=4, seed=0)
    env = tictactoe_v0.env()
    env.reset(seed=0)
    assert 0 <= policy.act(env) < 9
