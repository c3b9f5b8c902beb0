"""One check of a spec's values for the command line and an opponent pool; an Elo curve never starts again in a
file that already holds one (a second run is refused when it starts; a resumed run goes on)."""

from __future__ import annotations

import csv
import os

import gymnasium
import numpy as np
import pytest

import boardgame_envs  # noqa: F401
from boardgame_envs.cli import main
from boardgame_envs.policies.registry import PolicySpecError, check_spec
from boardgame_envs.selfplay import EloCallback, EloTracker, OpponentPool


@pytest.mark.parametrize("spec, said", [
    ("greedy:epsilon=1.5", "greedy:epsilon=1.5: epsilon must be a number in [0, 1], got 1.5"),
    ("mcts:c=-1", "mcts:c=-1: c must be a positive number, got -1"),
    ("uct:playouts=0", "uct:playouts=0: playouts must be a positive integer, got 0"),
])  # fmt: skip
def test_a_pool_refuses_what_the_command_line_refuses_in_the_same_words(spec, said, capsys):
    with pytest.raises(PolicySpecError) as pool_error:
        OpponentPool([spec])
    assert str(pool_error.value) == said
    with pytest.raises(PolicySpecError, match=said.replace("[", r"\[").replace("]", r"\]")):
        check_spec(spec)
    assert main(["arena", "tictactoe", spec, "random", "--games", "2"]) == 2
    assert said in capsys.readouterr().err


def test_a_pool_member_added_later_is_checked_the_same_way():
    pool = OpponentPool(["random"], seed=0)
    with pytest.raises(PolicySpecError, match="epsilon must be a number in"):
        pool.add("greedy:epsilon=2")


def first_legal(observations, masks):
    return np.asarray(masks).argmax(axis=1)


def _steps(path):
    with open(path) as f:
        return [int(r["timesteps"]) for r in csv.DictReader(f)]


def test_a_second_tracker_on_the_same_curve_is_refused_and_a_resumed_one_goes_on(tmp_path):
    curve = tmp_path / "elo.csv"
    first = EloTracker("tictactoe", every=100, games=2, max_share=1.0, csv_path=curve, layout="hwc")
    first.update(100, first_legal)
    first.update(200, first_legal)
    assert _steps(curve) == [100, 200]
    again = EloTracker("tictactoe", every=100, games=2, max_share=1.0, csv_path=curve, layout="hwc")
    with pytest.raises(ValueError, match=r"holds a curve up to 200 steps, and this run is at 100: its rows would "
                                         r"start again below them"):  # fmt: skip
        again.update(100, first_legal)
    assert _steps(curve) == [100, 200]  # nothing appended
    resumed = EloTracker("tictactoe", every=100, games=2, max_share=1.0, csv_path=curve, layout="hwc")
    resumed.check_curve(200)  # where the run stopped: it goes on
    resumed.update(300, first_legal)
    assert _steps(curve) == [100, 200, 300]


def test_the_callback_refuses_a_second_run_when_training_starts(tmp_path):
    from sb3_contrib import MaskablePPO

    curve = tmp_path / "elo.csv"
    env = gymnasium.make("boardgame_envs/TicTacToe-v0")
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, n_epochs=1, seed=0)
    model.learn(32, callback=EloCallback("tictactoe", every=32, games=2, max_share=1.0, csv_path=curve))
    assert _steps(curve) == [32]
    fresh = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, n_epochs=1, seed=1)
    with pytest.raises(ValueError, match="reset_num_timesteps=False"):
        fresh.learn(32, callback=EloCallback("tictactoe", every=32, games=2, max_share=1.0, csv_path=curve))
    assert _steps(curve) == [32]
    model.learn(32, callback=EloCallback("tictactoe", every=32, games=2, max_share=1.0, csv_path=curve),
                reset_num_timesteps=False)  # the same run, resumed: its curve goes on
    assert _steps(curve) == [32, 64]


def test_a_curve_path_that_is_a_fifo_is_one_line_not_a_wait(tmp_path):
    from process_guards import hard_timeout

    from boardgame_envs.safeio import FileRefusedError

    curve = tmp_path / "elo.csv"
    os.mkfifo(curve)
    tracker = EloTracker("tictactoe", every=100, games=2, max_share=1.0, csv_path=curve, layout="hwc")
    with hard_timeout(60), pytest.raises(FileRefusedError, match="not a regular file"):
        tracker.update(100, first_legal)
