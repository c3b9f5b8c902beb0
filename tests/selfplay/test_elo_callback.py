"""Elo while training: the SB3 callback on a tiny tic-tac-toe run, the tracker's CPU budget, the plain function."""

from __future__ import annotations

import csv
import math
import re
import time

import gymnasium
import numpy as np
import pytest

import boardgame_envs  # noqa: F401
from boardgame_envs.ladder import levels
from boardgame_envs.selfplay import EloCallback, EloTracker, OpponentPool, rate_during_training
from boardgame_envs.ladder.rating import nearest
from boardgame_envs.selfplay.elo import CallablePolicy, _start_of


def first_legal(observations, masks):
    return np.asarray(masks).argmax(axis=1)


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def test_callback_rates_logs_keeps_the_best_and_feeds_the_pool(tmp_path):
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import configure

    pool = OpponentPool(["random"], seed=0)
    env = gymnasium.make("boardgame_envs/TicTacToe-v0", opponent=pool, seat="random")
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64, n_epochs=1, seed=0)
    model.set_logger(configure(str(tmp_path / "log"), ["csv"]))
    callback = EloCallback("tictactoe", every=128, games=8, seed=0, max_share=1.0, csv_path=tmp_path / "elo.csv",
                           best_path=tmp_path / "best.zip", pool=pool)  # fmt: skip
    model.learn(384, callback=callback)
    tracker = callback.tracker
    assert [steps for steps, _ in tracker.ratings] == [128, 256, 384]
    written = rows(tmp_path / "elo.csv")
    assert [int(r["timesteps"]) for r in written] == [128, 256, 384]
    assert all(int(r["games"]) == 8 and r["skipped"] == "0" for r in written)
    for row, (_, rating) in zip(written, tracker.ratings):
        assert float(row["low"]) <= float(row["elo"]) <= float(row["high"]) or not math.isfinite(rating.elo)
    best_steps, best = tracker.best
    assert best.low == max(r.low for _, r in tracker.ratings) and (tmp_path / "best.zip").is_file()
    assert pool.snapshots == ["step-128", "step-256", "step-384"]
    logged = rows(tmp_path / "log" / "progress.csv")
    assert any(r.get("elo/elo") not in (None, "") for r in logged)  # through the SB3 logger (TensorBoard alike)
    # Each rating starts near the last estimate: its first games are against the built-in level nearest it.
    for (_, before), (_, after) in zip(tracker.ratings, tracker.ratings[1:]):
        assert next(iter(after.per_level)) == nearest(levels("tictactoe"), _start_of(before)).name


def test_a_model_of_another_game_fails_when_training_starts():
    from sb3_contrib import MaskablePPO

    env = gymnasium.make("boardgame_envs/Gomoku-v0", board_size=7, rule="freestyle")
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=16, seed=0)
    with pytest.raises(ValueError, match="trained on another game"):
        model.learn(16, callback=EloCallback("tictactoe", every=8))


def test_ratings_stay_within_their_share_of_the_cpu(tmp_path):
    """A loop of pure training CPU: ratings are put off so that they take at most max_share of the time."""
    def slow(observations, masks):  # a learner that costs 10 ms of CPU a move: a rating costs about 0.2 s
        end = time.process_time() + 0.01
        while time.process_time() < end:
            pass
        return first_legal(observations, masks)

    tracker = EloTracker("tictactoe", every=1, games=4, max_share=0.25, csv_path=tmp_path / "elo.csv")
    learner = CallablePolicy(slow, "hwc")
    steps, made = 0, 0
    while made < 4:
        end = time.process_time() + 0.05
        while time.process_time() < end:  # "training"
            pass
        steps += 1
        made += tracker.update(steps, learner) is not None
    assert tracker.skipped > 0
    # A rating starts only while the share is within 25%: one rating's cost is the most it can exceed that by.
    assert tracker.cpu_share <= 0.25 + tracker._last_cost / (time.process_time() - tracker._clock0)
    written = rows(tmp_path / "elo.csv")
    assert sum(r["skipped"] == "1" for r in written) == tracker.skipped
    assert len(written) == tracker.skipped + len(tracker.ratings)


def test_rate_during_training_starts_near_the_given_elo():
    table = levels("tictactoe")
    top = max(table, key=lambda lv: lv.elo)
    rating = rate_during_training(CallablePolicy(first_legal, "hwc"), "tictactoe", games=2, seed=0, start=10_000)
    assert list(rating.per_level) == [top.name]
    rating = rate_during_training(CallablePolicy(first_legal, "hwc"), "tictactoe", games=2, seed=0, start=-500)
    assert list(rating.per_level) == [min(table, key=lambda lv: lv.elo).name]


def test_rate_during_training_takes_a_batched_callable_with_its_layout():
    with pytest.raises(ValueError, match="layout"):
        rate_during_training(first_legal, "tictactoe", games=2)
    rating = rate_during_training(first_legal, "tictactoe", games=4, seed=1, layout="flat")
    assert rating.games == 4


def test_tracker_mistakes():
    with pytest.raises(ValueError, match="every"):
        EloTracker("tictactoe", every=0)
    with pytest.raises(ValueError, match="max_share"):
        EloTracker("tictactoe", every=10, max_share=0)
    with pytest.raises(ValueError, match="ladder"):
        EloTracker("chess", every=10)
    tracker = EloTracker("tictactoe", every=1, games=2, best_path="best.zip")
    with pytest.raises(TypeError, match="save="):
        tracker.update(1, CallablePolicy(first_legal, "hwc"))


def test_a_bad_layout_fails_when_the_tracker_is_built_not_at_its_first_rating():
    with pytest.raises(ValueError, match="unknown layout 'nhwc'; expected one of hwc, chw, flat"):
        EloTracker("tictactoe", every=10, layout="nhwc")
    with pytest.raises(ValueError, match="unknown layout"):
        EloCallback("tictactoe", every=10, layout="NHWC")
    with pytest.raises(TypeError, match="print_ratings"):
        EloTracker("tictactoe", every=10, print_ratings="yes")


LINE = r"elo at {steps} steps: Elo .*\(95% .* \.\. .*\), 4 games, \d+\.\d CPU-s \(ratings \d+\.\d% of the CPU\)"


def test_print_ratings_prints_one_line_per_rating(capsys):
    tracker = EloTracker("tictactoe", every=2, games=4, seed=0, max_share=1.0, layout="hwc", print_ratings=True)
    for steps in range(1, 6):
        tracker.update(steps, first_legal)
    out = capsys.readouterr().out.splitlines()
    assert len(out) == len(tracker.ratings) == 2  # due at 2 and 4: nothing printed between ratings
    for line, (steps, rating) in zip(out, tracker.ratings):
        assert re.fullmatch(LINE.format(steps=f"{steps:,}"), line), line
        assert rating.describe() in line
    heard = []
    quiet = EloTracker("tictactoe", every=1, games=4, layout="hwc", max_share=1.0, print_ratings=heard.append)
    quiet.update(1_000, first_legal)
    assert capsys.readouterr().out == "" and len(heard) == 1 and heard[0] == quiet.line()
    assert re.fullmatch(LINE.format(steps="1,000"), heard[0]), heard[0]
    assert EloTracker("tictactoe", every=1, layout="hwc").line() == ""  # nothing rated yet


def test_callback_verbose_prints_one_line_per_rating(capsys):
    from sb3_contrib import MaskablePPO

    env = gymnasium.make("boardgame_envs/TicTacToe-v0", opponent="random", seat="random")
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, n_epochs=1, seed=0)
    model.learn(64, callback=EloCallback("tictactoe", every=32, games=4, max_share=1.0, verbose=1))
    out = [line for line in capsys.readouterr().out.splitlines() if line.startswith("elo ")]
    assert [re.fullmatch(LINE.format(steps=steps), line) is not None for steps, line in zip((32, 64), out)] == [True] * 2
    assert len(out) == 2
