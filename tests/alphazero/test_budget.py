"""A budget is the whole run's: the warm start fits inside ``minutes``, every phase watches the clock, a run
that learned nothing says so, and the Python API says what it resumes as the CLI does."""

from __future__ import annotations

import functools
import re
import time

import pytest

from boardgame_envs import gomoku_v0, tictactoe_v0
from boardgame_envs.alphazero import AlphaZeroConfig, AlphaZeroTrainer, load_checkpoint
from boardgame_envs.alphazero import budget
from boardgame_envs.alphazero.budget import Clock, clock_text, needed_minutes, warm_plan, warm_step_target
from boardgame_envs.cli import main as cli_main

SIX = functools.partial(gomoku_v0.env, board_size=6, win_length=4, rule="freestyle")
TINY = dict(blocks=1, channels=8, parallel_games=4, games_per_iteration=4, simulations=4, train_steps=2,
            batch_size=16, eval_every=0, tensorboard=False, workers=1)  # fmt: skip
NO_LEARNING, PARTIAL = "no learning: ", "no self-play iterations, only part of the warm start: "
SLACK_S = 5.0  # process start-up of the warm-start worker, a game or a step past a deadline, the last save


def six_config(out, **overrides) -> AlphaZeroConfig:
    base = dict(warm_start="alphabeta:nodes=200", warm_games=5000, warm_steps=1000, progress=False)
    return AlphaZeroConfig.for_game("gomoku", 6, out=str(out), **{**TINY, **base, **overrides})


@pytest.fixture(scope="module", autouse=True)
def compiled_kernels(tmp_path_factory):
    """Compile the kernels these runs use (alpha-beta's in the warm-start worker, the search's, the learner's)
    once, untimed: on a fresh clone numba's cache is cold, and a first call's compiling (10-20 s) inside a timed
    run measured numba, not the budget (CI: 18.9 s for a 6 s budget)."""
    out = tmp_path_factory.mktemp("compile")
    AlphaZeroTrainer(SIX, six_config(out, warm_games=2, warm_steps=50, iterations=1)).train()


def test_fewer_games_mean_proportionally_fewer_steps_down_to_a_floor():
    assert warm_step_target(1000, 600, 600) == 1000 and warm_step_target(1000, 900, 600) == 1000
    assert warm_step_target(1000, 150, 600) == 250
    assert warm_step_target(1000, 3, 600) == budget.WARM_MIN_STEPS  # the floor
    assert warm_step_target(20, 3, 600) == 20  # a floor never above what was asked for
    assert budget.warm_floor(250) == budget.WARM_MIN_STEPS and budget.warm_floor(20) == 20


def test_the_plan_names_each_phase_and_its_share_of_the_budget():
    line = warm_plan(3, None, 600, 1000, "alphabeta:nodes=1000")
    assert line == ("budget 3 min, warm start included: alphabeta:nodes=1000 games (up to 600) until 0:54, "
                    "learning steps (up to 1000) until 1:30, then self-play iterations")  # fmt: skip
    alone = warm_plan(10, 0, 0, 1000, "greedy")  # iterations=0: the warm start is the call; its games are played
    assert alone == "budget 10 min, warm start included: learning steps (up to 1000) until 10:00"
    assert clock_text(3725) == "1:02:05" and clock_text(0.2) == "0:01"
    # 1 s a game, 0.1 s a step: 600 games need 600 s in the games' share (30%), 700 s in the warm start's (50%).
    assert needed_minutes(1.0, 0.1, 600, 1000) == pytest.approx(max(600 / 0.3, 700 / 0.5) / 60)
    assert needed_minutes(None, 0.1, 600, 1000) is None


def test_a_clock_without_minutes_never_runs_out():
    clock = Clock(None)
    assert clock.deadline is None and clock.at(0.5) is None and clock.fits(1e9) and not clock.passed()
    short = Clock(0.001)  # 60 ms
    assert short.fits(0.0) and not short.fits(1.0)
    time.sleep(0.07)
    assert short.passed()


def test_a_tiny_budget_with_a_warm_start_ends_within_it_and_says_no_learning(tmp_path, capsys):
    # 20,000 alpha-beta games and 1,000 steps asked for, 3 seconds given: before budgets this ran for an hour.
    # Batches of 16,384 positions: far fewer than the warm start's floor of 50 steps fit in what is left.
    trainer = AlphaZeroTrainer(SIX, six_config(tmp_path / "api", warm_games=20_000, minutes=0.05, batch_size=16384))
    began = time.perf_counter()
    assert trainer.train() == []
    assert time.perf_counter() - began < 3.0 + SLACK_S
    assert trainer.iteration == 0 and not trainer.warm["done"]
    assert trainer.warm["steps"] < budget.WARM_MIN_STEPS
    # Not a game in time, or a few learning steps on a few games: either way no learning, and said so.
    said = NO_LEARNING if not trainer.learned else PARTIAL
    assert trainer.account().startswith(said)
    # The command line says the same and does not offer the untrained network as a result.
    args = ["train", "gomoku", "--board-size", "6", "--win-length", "4", "--rule", "freestyle", "--minutes", "0.05",
            "--warm-start", "alphabeta:nodes=200", "--warm-games", "20000", "--warm-steps", "1000", "--workers", "1",
            "--blocks", "1", "--channels", "8", "--parallel-games", "4", "--games-per-iteration", "4",
            "--simulations", "4", "--batch-size", "16384", "--eval-every", "0", "--no-tensorboard", "--no-progress",
            "--out", str(tmp_path / "cli")]  # fmt: skip
    assert cli_main(args) == 0
    out = capsys.readouterr().out
    assert f"\n{NO_LEARNING}" in out or f"\n{PARTIAL}" in out
    assert "checkpoint:" not in out and "--opponent" not in out
    assert "nothing to play against yet; the same command goes on with more minutes" in out


def test_a_warm_start_cut_to_its_share_leaves_the_rest_to_self_play(tmp_path, capsys):
    # 6 seconds: games until 1.8 s, learning steps until 3 s (fewer games: fewer steps, at least the floor).
    config = six_config(tmp_path, minutes=0.1, progress=True)
    trainer = AlphaZeroTrainer(SIX, config)
    began = time.perf_counter()
    trainer.train()
    took = time.perf_counter() - began
    assert took < 6.0 + SLACK_S
    warm = trainer.warm
    target = warm_step_target(1000, warm["games"], 5000)
    assert 0 < warm["games"] < 5000 and warm["done"] and warm["cut"]
    assert warm["steps"] == target or (warm.get("cut") and budget.warm_floor(target) <= warm["steps"] < target)
    account = trainer.account()
    assert account.startswith(f"warm start cut to fit the budget ({warm['games']} of 5000 games")
    assert f"{trainer.iteration} self-play iterations" in account
    captured = capsys.readouterr()
    assert "budget 0.1 min, warm start included: alphabeta:nodes=200 games (up to 5000) until 0:02" in captured.out
    assert re.search(rf"warm-start games stopped at {warm['games']} of 5000", captured.out)
    assert account in captured.out


def test_a_cut_warm_start_below_its_floor_goes_on_at_the_next_call(tmp_path):
    trainer = AlphaZeroTrainer(SIX, six_config(tmp_path, warm_games=4, warm_steps=200, iterations=1))
    trainer.warm_start(deadline=time.perf_counter(), final=True)  # the games, then the clock is out: no steps
    assert trainer.warm["games"] == 4 and trainer.warm["steps"] == 0 and not trainer.warm["done"]
    assert not trainer.learned and trainer.account().startswith("no learning: the budget's share for warm-start learning")
    # The next call goes on with the steps; cut once it has its floor (one chunk of 50), it is complete at that size.
    resumed = AlphaZeroTrainer(SIX, six_config(tmp_path, warm_games=4, warm_steps=200, iterations=1))
    assert resumed.opening_line() == f"resuming the warm start ({tmp_path}/latest.pt; 4 of 4 games, 0 of 200 learning steps)"
    real = resumed.learn

    def slow_learn(steps, deadline=None):
        losses = real(steps)  # the whole chunk, whatever the clock...
        time.sleep(0.6)  # ... which passes the deadline meanwhile
        return losses

    resumed.learn = slow_learn
    resumed.warm_start(deadline=time.perf_counter() + 0.5, final=True)
    assert resumed.warm["steps"] == budget.WARM_MIN_STEPS and resumed.warm["done"] and resumed.warm["cut"]
    resumed.learn = real
    assert [r["iteration"] for r in resumed.train()] == [1.0]  # straight to self-play
    assert resumed.warm["steps"] == budget.WARM_MIN_STEPS
    assert resumed.account() == "warm start cut to fit the budget (4 of 4 games, 50 of 200 learning steps); 1 self-play iterations"


def test_the_python_api_says_what_it_resumes(tmp_path, capsys):
    def config(iterations):
        return AlphaZeroConfig.for_game("tictactoe", out=str(tmp_path), iterations=iterations, progress=True,
                                        **{**TINY, "parallel_games": 8, "games_per_iteration": 8})  # fmt: skip

    AlphaZeroTrainer(tictactoe_v0.env, config(1)).train()
    first = capsys.readouterr()
    assert first.out.startswith(f"starting a new run in {tmp_path}\n")
    AlphaZeroTrainer(tictactoe_v0.env, config(2)).train()
    again = capsys.readouterr()
    assert again.out.startswith(f"resuming from iteration 1 ({tmp_path}/latest.pt)\n")
    assert "iterations: 100%" in again.err and "2/2" in again.err  # the bar names its phase and counts on from 1


def test_progress_bars_name_the_phases(tmp_path, capsys):
    config = six_config(tmp_path, warm_games=2, warm_steps=3, iterations=1, progress=True)
    AlphaZeroTrainer(SIX, config).train()
    err = capsys.readouterr().err
    assert re.search(r"warm-start games \(alphabeta:nodes=200\): 100%.*\b2/2\b", err)
    assert re.search(r"warm-start learning steps: 100%.*\b3/3\b", err)
    assert re.search(r"iterations: 100%.*\b1/1\b", err)


def test_self_play_past_its_deadline_stops_and_the_iteration_is_dropped(tmp_path):
    from boardgame_envs.alphazero.network import PolicyValueNet
    from boardgame_envs.alphazero.selfplay import OutOfTime, SelfPlay

    config = AlphaZeroConfig.for_game("tictactoe", out=None, **{**TINY, "parallel_games": 8, "games_per_iteration": 8})
    with pytest.raises(OutOfTime, match="0 of 8 self-play games had ended at the deadline"):
        SelfPlay(tictactoe_v0.env, config, seed=0).play(PolicyValueNet(2, 3, blocks=1, channels=8), 8, time.perf_counter())
    trainer = AlphaZeroTrainer(tictactoe_v0.env, AlphaZeroConfig.for_game(
        "tictactoe", out=str(tmp_path), minutes=1, progress=False, **{**TINY, "parallel_games": 8, "games_per_iteration": 8}))

    def slow_self_play(games, deadline=None):
        time.sleep(0.2)
        raise OutOfTime("0 of 8 self-play games had ended at the deadline")

    trainer.self_play = slow_self_play
    assert trainer.train() == [] and trainer.iteration == 0
    assert trainer.account() == ("no learning: the budget ended inside iteration 1 (0 of 8 self-play games had ended at "
                                 "the deadline), which is dropped (0 self-play iterations)")  # fmt: skip
    assert load_checkpoint(tmp_path)["pace"]["iteration_s"] >= 0.2  # what the next call needs to know


def test_a_resumed_call_too_short_for_an_iteration_says_so_before_starting_one(tmp_path):
    def config(**overrides):
        return AlphaZeroConfig.for_game("tictactoe", out=str(tmp_path), progress=False,
                                        **{**TINY, "parallel_games": 8, "games_per_iteration": 8, **overrides})  # fmt: skip

    AlphaZeroTrainer(tictactoe_v0.env, config(iterations=1)).train()
    assert load_checkpoint(tmp_path)["pace"]["iteration_s"] > 0  # the run's pace is kept with it
    resumed = AlphaZeroTrainer(tictactoe_v0.env, config(minutes=1))
    assert resumed.rates["iteration_s"] > 0
    resumed.rates["iteration_s"] = 150.0  # as if measured on a slow machine: 2.5 minutes an iteration
    began = time.perf_counter()
    assert resumed.train() == [] and resumed.iteration == 1
    assert time.perf_counter() - began < 1.0  # nothing started
    assert resumed.account() == ("1 self-play iterations (the next iteration (about 150 s) would end past the budget; "
                                 "one needs a budget of about 3 min)")  # fmt: skip
