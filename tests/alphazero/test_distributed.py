"""Self-play on Ray workers feeds the same learner (skipped where Ray is not installed)."""

from __future__ import annotations

import pytest

ray = pytest.importorskip("ray")

from boardgame_envs import tictactoe_v0  # noqa: E402
from boardgame_envs.alphazero import AlphaZeroConfig, AlphaZeroTrainer  # noqa: E402


@pytest.fixture
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_ray_backend_trains_an_iteration(local_ray, tmp_path):
    config = AlphaZeroConfig.for_game(
        "tictactoe", backend="ray", workers=2, parallel_games=8, games_per_iteration=16, simulations=4,
        blocks=1, channels=8, train_steps=2, batch_size=16, iterations=2, eval_every=0, out=str(tmp_path),
        progress=False,
    )  # fmt: skip
    trainer = AlphaZeroTrainer(tictactoe_v0.env, config)
    rows = trainer.train()
    assert [r["iteration"] for r in rows] == [1.0, 2.0]
    assert trainer.games_played >= 32  # each of the 2 workers played its 8 games, twice
    assert len(trainer.buffer) >= 32 * 5  # a tic-tac-toe game has at least 5 positions
