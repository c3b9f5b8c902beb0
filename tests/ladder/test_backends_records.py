"""Ladder games on either backend, saved as SGF records, and the shipped logs replayed by today's code."""

from __future__ import annotations

import pytest

from boardgame_envs.arena import records
from boardgame_envs.ladder import LADDERS, rate
from boardgame_envs.ladder.build import build
from boardgame_envs.ladder.games import ladder_task, play_one, read_log, result_of

from .conftest import TINY, TINY9


@pytest.mark.parametrize("name", ["tictactoe", "gomoku9", "renju"])
def test_logged_games_replay_as_logged(name):
    """Games the shipped log holds are played again, move for move, by the code of today (the cheap levels)."""
    ladder = LADDERS[name]
    cheap = [r for r in read_log(ladder.log_path) if all(s == "random" or s.startswith("greedy") for s in (r.a, r.b))]
    assert len(cheap) >= 4
    for logged in cheap[:: len(cheap) // 4][:4]:
        task = ladder_task(logged.a, logged.b, logged.index, ladder)
        again = result_of(task, play_one(ladder.env_fn(), task))
        assert again == type(again)(**{**vars(logged), "opening": list(logged.opening)})


def test_build_saves_every_game_as_sgf(gomoku_data_dir, tmp_path):
    out = tmp_path / "games"
    build(TINY9, chunk=4, max_rounds=1, plot=False, save_games=out)
    log = read_log(TINY9.log_path)
    files = sorted(out.iterdir())
    assert [f.name for f in files] == [f"tiny9-00-01-{i:04d}.sgf" for i in range(4)] and len(log) == 4
    for result in log:
        record = records.load(out / f"tiny9-00-01-{result.index:04d}.sgf")
        a, b = "tiny9/0 (random)", "tiny9/1 (greedy:epsilon=0.5)"
        assert (record.black, record.white) == ((a, b) if result.a_first else (b, a))
        assert record.moves[:3] == result.opening and record.opening_moves == 3 and record.rule == "freestyle"
        assert len(record.moves) - 3 == result.moves
        a_colour = 1 if result.a_first else 2
        assert result.score == (0.5 if record.winner == 0 else float(record.winner == a_colour))
    assert "ON[" in (out / "tiny9-00-01-0000.sgf").read_text()  # the opening, as the arena's records mark it


def test_rate_saves_every_game_as_sgf(tiny_table, tmp_path):
    r = rate("perfect", "tiny", games=6, seed=2, progress=False, save_games=tmp_path)
    saved = [records.load(tmp_path / f"game-{i:04d}.sgf") for i in range(1, 7)]
    assert r.games == 6 and not (tmp_path / "game-0007.sgf").exists()
    assert saved[0].black == "perfect" and saved[0].white == "tiny/1 (greedy:epsilon=0.5)"  # the middle level first
    assert saved[1].white == "perfect"  # colours swapped in the pair
    points = sum(0.5 if rec.winner == 0 else float((rec.winner == 1) == (rec.black == "perfect")) for rec in saved)
    wins, draws, _ = (sum(col) for col in zip(*r.per_level.values()))
    assert points == wins + 0.5 * draws


def test_bad_backend_is_a_value_error(tiny_table, data_dir):
    with pytest.raises(ValueError, match="unknown backend 'mpi'; expected one of local, ray"):
        rate("random", "tiny", backend="mpi", progress=False)
    with pytest.raises(ValueError, match="unknown backend 'mpi'"):
        build(TINY, backend="mpi", plot=False)
    with pytest.raises(ValueError, match="jobs must be an integer of at least 1"):
        rate("random", "tiny", backend="ray", jobs=0, progress=False)


def test_ray_missing_is_one_clear_error(tiny_table, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # as on an install without the distributed extra
    with pytest.raises(ValueError, match=r"backend 'ray' needs Ray: pip install 'boardgame-envs\[distributed\]'"):
        rate("random", "tiny", backend="ray", progress=False)


@pytest.mark.slow
def test_ray_plays_the_games_the_local_processes_play(tiny_table, data_dir):
    ray = pytest.importorskip("ray")
    build(TINY, jobs=2, chunk=4, max_rounds=1, plot=False)
    local_log = TINY.log_path.read_text()
    local_rating = rate("greedy:epsilon=0.4", "tiny", games=12, seed=5, jobs=2, progress=False)
    TINY.log_path.unlink()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        build(TINY, jobs=2, chunk=4, max_rounds=1, plot=False, backend="ray")
        ray_rating = rate("greedy:epsilon=0.4", "tiny", games=12, seed=5, jobs=2, progress=False, backend="ray")
    finally:
        ray.shutdown()
    assert TINY.log_path.read_text() == local_log  # the same games, logged in the same order
    assert ray_rating == local_rating
