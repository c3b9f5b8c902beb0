"""Self-play on Ray workers feeds the same learner, and the workers stop with train() (skipped without Ray)."""

from __future__ import annotations

import functools

import numpy as np
import pytest

ray = pytest.importorskip("ray")

from boardgame_envs import gomoku_v0, tictactoe_v0  # noqa: E402
from boardgame_envs.alphazero import AlphaZeroConfig, AlphaZeroTrainer  # noqa: E402
from boardgame_envs.alphazero.distributed import RaySelfPlay  # noqa: E402


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.fixture
def started_workers(monkeypatch):
    """The actor handles of every RaySelfPlay that plays, to check later that they were stopped."""
    handles = []
    play = RaySelfPlay.play

    def recording_play(self, net, games, deadline=None):
        try:
            return play(self, net, games, deadline)
        finally:
            handles.extend(self.workers)

    monkeypatch.setattr(RaySelfPlay, "play", recording_play)
    return handles


def assert_stopped(handles):
    assert handles
    for handle in handles:
        with pytest.raises(ray.exceptions.RayActorError):
            ray.get(handle.play.remote({}, 1), timeout=60)


def ray_config(out, **overrides):
    return AlphaZeroConfig.for_game(
        "tictactoe", backend="ray", workers=2, parallel_games=8, games_per_iteration=16, simulations=4,
        blocks=1, channels=8, train_steps=2, batch_size=16, iterations=2, eval_every=0, out=out,
        progress=False, **overrides,
    )  # fmt: skip


def test_ray_backend_trains_an_iteration_and_stops_its_workers(local_ray, started_workers, tmp_path):
    trainer = AlphaZeroTrainer(tictactoe_v0.env, ray_config(str(tmp_path)))
    rows = trainer.train()
    assert [r["iteration"] for r in rows] == [1.0, 2.0]
    assert trainer.games_played >= 32  # each of the 2 workers played its 8 games, twice
    assert len(trainer.buffer) >= 32 * 5  # a tic-tac-toe game has at least 5 positions
    assert_stopped(started_workers)


def test_the_workers_stop_when_training_fails(local_ray, started_workers, monkeypatch):
    trainer = AlphaZeroTrainer(tictactoe_v0.env, ray_config(None))

    def broken_learner(steps, deadline=None):
        raise RuntimeError("out of memory")

    monkeypatch.setattr(trainer, "learn", broken_learner)
    with pytest.raises(RuntimeError, match="out of memory"):
        trainer.train()
    assert_stopped(started_workers)


def test_ray_self_play_stops_its_workers_at_the_deadline(local_ray, monkeypatch):
    """The budget holds on Ray too: workers still playing at the deadline are stopped and OutOfTime is raised."""
    from boardgame_envs.alphazero.network import PolicyValueNet
    from boardgame_envs.alphazero.selfplay import OutOfTime

    config = ray_config(None)
    selfplay = RaySelfPlay(tictactoe_v0.env, config, seed=0)
    net = PolicyValueNet(board_size=3, in_planes=2, blocks=1, channels=8)
    handles = []
    kill = ray.kill
    monkeypatch.setattr(ray, "kill", lambda actor: (handles.append(actor), kill(actor)))
    with pytest.raises(OutOfTime, match="Ray workers had played their share at the deadline"):
        selfplay.play(net, 10_000, deadline=0.0)  # long past: nothing can be back
    assert len(handles) == 2 and selfplay.workers == []
    assert_stopped(handles)


def test_ray_warm_start_plays_the_same_games_as_local_workers(local_ray):
    six = functools.partial(gomoku_v0.env, board_size=6, win_length=4, rule="freestyle")
    buffers = []
    for backend in ("local", "ray"):
        config = AlphaZeroConfig.for_game("gomoku", 6, warm_start="alphabeta:nodes=200", warm_games=4, warm_steps=0,
                                          blocks=1, channels=8, backend=backend, workers=2, out=None, progress=False)  # fmt: skip
        trainer = AlphaZeroTrainer(six, config)
        trainer.warm_start()
        n = len(trainer.buffer)
        buffers.append((trainer.buffer.planes[:n].copy(), trainer.buffer.policies[:n].copy(), trainer.buffer.values[:n].copy()))
    for local, remote in zip(*buffers):
        np.testing.assert_array_equal(local, remote)
