"""Workers that die: a dead worker is replayed once, then an error naming the game; never a hang, no process left."""

from __future__ import annotations

import functools
import multiprocessing
from pathlib import Path

import pytest

import process_guards

from boardgame_envs import gomoku_v0, tictactoe_v0
from boardgame_envs.arena import PolicyError, match
from boardgame_envs.arena.backends import WorkerError, Workers, run_tasks
from faulty_policies import die_always, die_once, exiter, interrupter, killer, system_exit

GOMOKU9 = functools.partial(gomoku_v0.env, board_size=9, rule="freestyle")


@pytest.mark.parametrize("faulty", [killer, exiter], ids=["SIGKILL", "os._exit"])
def test_a_worker_killed_at_move_two_stops_the_match_naming_the_game(faulty, no_process_left):
    with pytest.raises(WorkerError, match=r"game 1 of 6 \((killer|exiter) black, random white\): its worker process died "
                                          r"\((killed by SIGKILL|exited with status 3)\), also when played again"):
        match(GOMOKU9, faulty, "random", games=6, jobs=2, progress=False)
    assert multiprocessing.active_children() == []


def test_system_exit_in_a_worker_is_a_policy_error(no_process_left):
    with pytest.raises(PolicyError, match=r"policy 'system_exit' \(X\) raised SystemExit: boom"):
        match(tictactoe_v0.env, system_exit, "random", games=4, jobs=2, progress=False)


def test_system_exit_in_this_process_is_a_policy_error_too():
    with pytest.raises(PolicyError, match="raised SystemExit"):
        match(tictactoe_v0.env, system_exit, "random", games=2, progress=False)


def test_keyboard_interrupt_raised_by_a_policy_in_a_worker_is_a_worker_error(no_process_left):
    # Workers ignore Ctrl-C, so a KeyboardInterrupt there came from the policy: a fault, not an interruption.
    with pytest.raises(WorkerError, match=r"game 1 of 4 .*KeyboardInterrupt\('boom'\) was raised inside its worker"):
        match(tictactoe_v0.env, interrupter, "random", games=4, jobs=2, progress=False)


def test_a_task_whose_worker_died_once_is_played_again(tmp_path, no_process_left):
    tasks = [(str(tmp_path / f"marker-{i}"), i) for i in range(5)]
    assert list(run_tasks(die_once, tasks, jobs=2)) == [0, 1, 2, 3, 4]  # each task killed its first worker


def test_workers_outlive_a_failed_batch_and_name_the_task(no_process_left):
    with Workers(2) as workers:
        with pytest.raises(WorkerError, match=r"^task 4: its worker process died \(killed by SIGKILL\)"):
            list(workers.run(die_always, range(6)))
        assert list(workers.run(die_always, [0, 1, 2])) == [0, 1, 2]  # the pool still plays


@pytest.mark.slow
def test_a_dead_ray_worker_is_the_same_error():
    ray = pytest.importorskip("ray")
    tests = str(Path(__file__).resolve().parents[1])  # Ray's workers import faulty_policies from here
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, runtime_env={"env_vars": {"PYTHONPATH": tests}})
    try:
        with process_guards.hard_timeout(240), pytest.raises(WorkerError, match=r"game 1 of 4 .*its Ray worker died"):
            match(GOMOKU9, killer, "random", games=4, jobs=2, backend="ray", progress=False)
    finally:
        ray.shutdown()
