"""The bounded learning test: MaskablePPO through an opponent pool on tic-tac-toe beats random in 88% of games.

About half a minute of one core (50,000 steps; 16-29 s of training CPU on the 2-core development machine
at load 3-7): if learning breaks (rewards, observations, masks, the pool's opponents, the SB3 adapter),
the learner stays near the untrained policy's 50% (measured: 69.3% first, 30.8% second, by ``python
tests/selfplay/test_learning.py 0 0``) and this fails. For scale, against random moves (4,000 games a
seat): uniform random play wins 57.7% first and 27.7% second (42.7% overall), the pool's
``greedy:epsilon=0.5`` 72.2%, the one-ply ``greedy`` bot 93.4%; the best possible is 99.5% first and
93.9% second (96.7% overall, by exact expectimax). Seeds 0-7 of this setting (``python
tests/selfplay/test_learning.py SEED``) measured 92.5, 91.5, 91.6, 91.3, 92.85, 91.6, 90.9 and 90.0% over
1,000 games a seat (mean 91.5, sd 0.9: the 88% threshold is 4.1 sd below the mean, so a platform on which
seed 0 plays out differently is no likelier to fail; seed 0, the one here: 99.7% first, 85.3% second).
At 100,000 steps the same seeds measured 91.7-93.55% (mean 92.6, sd 0.7) against a 90% threshold (3.9 sd):
the same margin at twice the CPU. 40,000 steps measured 88.4-93.1% (seed 7 at 88.4), too close.
128x128 and 10 epochs a rollout are what give the margin (64x64 and 4 epochs measured 90.9 and 88.45% for
seeds 0 and 1 at 100,000 steps). 1,000 games a seat keep the score's own noise near half a point.
"""

from __future__ import annotations

import time
from typing import Any

import gymnasium
import numpy as np
import pytest
import torch

import boardgame_envs  # noqa: F401
from boardgame_envs.selfplay import OpponentPool
from boardgame_envs.vector.gym_env import SingleAgentVectorEnv


def wins_against_random(model, seat: str, games: int = 1000) -> float:
    """The share of ``games`` the greedy learner wins in ``seat`` against uniform random moves."""
    env = SingleAgentVectorEnv(games, opponent="random", seat=seat)
    obs, info = env.reset(seed=123)
    result = np.full(games, np.nan)
    while np.isnan(result).any():
        actions, _ = model.predict(obs, action_masks=info["action_mask"], deterministic=True)
        obs, rewards, done, _, info = env.step(actions)
        first = done & np.isnan(result)  # each game counts once: the first game played in its slot
        result[first] = rewards[first]
    return float((result == 1).mean())


def learn(seed: int = 0, steps: int = 50_000) -> tuple[Any, OpponentPool, float]:
    """The test's recipe: MaskablePPO through a uniform pool of random, greedy:epsilon=0.5 and a snapshot
    of the learner every 12,500 steps; returns the model, the pool and the training's process CPU seconds."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback, EveryNTimesteps

    from boardgame_envs.vector.sb3 import SB3VecEnv

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        pool = OpponentPool(["random", "greedy:epsilon=0.5"], seed=seed)  # uniform over the levels and snapshots
        venv = SB3VecEnv(gymnasium.make_vec("boardgame_envs/TicTacToe-v0", num_envs=16, opponent=pool, seat="random"))

        class Snapshot(BaseCallback):
            def _on_step(self) -> bool:
                pool.add_snapshot(self.model)
                return True

        # 10 epochs a rollout and a 128x128 network: with 4 and 64x64 the second seat stopped near 80-85%.
        model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=256, n_epochs=10, learning_rate=1e-3,
                            ent_coef=0.01, seed=seed, policy_kwargs={"net_arch": [128, 128]})  # fmt: skip
        cpu = time.process_time()
        if steps:
            model.learn(steps, callback=EveryNTimesteps(12_500, Snapshot()))
        cpu = time.process_time() - cpu
    finally:
        torch.set_num_threads(threads)
    return model, pool, cpu


@pytest.mark.slow
def test_maskable_ppo_through_the_pool_beats_random():
    model, pool, cpu = learn(seed=0)
    assert pool.snapshots == ["snapshot-1", "snapshot-2", "snapshot-3", "snapshot-4"]
    played = pool.results()
    assert all(sum(played[name]) > 100 for name in pool.names[:-1])  # every member but the newest has played
    first, second = wins_against_random(model, "first"), wins_against_random(model, "second")
    print(f"learning test: wins against random {first:.3f} first, {second:.3f} second; {cpu:.1f} s CPU training")
    assert (first + second) / 2 >= 0.88, (first, second, cpu)


if __name__ == "__main__":  # python tests/selfplay/test_learning.py SEED [STEPS]: one seed's score (STEPS 0: untrained)
    import sys

    model, _, cpu = learn(int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 50_000)
    first, second = wins_against_random(model, "first"), wins_against_random(model, "second")
    print(f"seed {sys.argv[1]}: {first:.3f} first, {second:.3f} second, {(first + second) / 2:.4f} overall; "
          f"{cpu:.1f} s CPU training")
