"""rate and the ladder build when a worker dies: an error naming the game, no hang, no process left."""

from __future__ import annotations

import pytest

from boardgame_envs.arena.backends import WorkerError
from faulty_policies import Killer, killer
from process_guards import no_process_left

from .conftest import TINY


def test_rate_stops_with_the_worker_error(tiny_table):
    from boardgame_envs.ladder import rate

    with no_process_left(), pytest.raises(WorkerError, match="its worker process died"):
        rate(killer, "tiny", games=4, jobs=2, progress=False)


def test_the_ladder_build_stops_in_one_line_and_keeps_the_log(data_dir, monkeypatch, capsys):
    from boardgame_envs.ladder import games
    from boardgame_envs.ladder.build import main

    played = games.play_one

    def kill_in_game_3(env_fn, task, players=None):  # the workers are forked after this patch: they see it
        if task.index == 3:
            Killer(after=0).act(env_fn().unwrapped.game.new_state())
        return played(env_fn, task, players)

    monkeypatch.setattr(games, "play_one", kill_in_game_3)
    with no_process_left():
        status = main(["tiny", "--jobs", "2", "--chunk", "4", "--rounds", "1", "--no-plot"])
    assert status == 1
    err = [line for line in capsys.readouterr().err.splitlines() if "build" in line]  # not the progress bar
    assert len(err) == 1 and "game 3 of random against greedy:epsilon=0.5: its worker process died" in err[0]
    log = games.read_log(TINY.log_path)
    assert len(log) >= 3 and all(r.index < 3 for r in log)  # the games played before it are logged, not it
