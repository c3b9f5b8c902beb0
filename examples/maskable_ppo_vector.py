"""MaskablePPO (sb3-contrib) on 64 tic-tac-toe games at once, in one process, through the batched engine.

``gymnasium.make_vec`` builds the native vector env (the opponent replies inside
``step``, in numba); ``SB3VecEnv`` hands it to SB3 as a ``VecEnv``.

    python examples/maskable_ppo_vector.py --steps 100000
"""

import argparse

import gymnasium
import torch
import numpy as np
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import VecMonitor

import boardgame_envs  # noqa: F401  (registers the ids)
from boardgame_envs.vector.sb3 import SB3VecEnv

# One torch thread: small networks lose more to thread sync than they gain
# (on 2 cores, 2,048 PPO steps took 5.2 s instead of 158 s).
torch.set_num_threads(1)

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=100_000)
parser.add_argument("--envs", type=int, default=64)
parser.add_argument("--games", type=int, default=1000, help="games against random to score the result")
args = parser.parse_args()

envs = gymnasium.make_vec("boardgame_envs/TicTacToe-v0", num_envs=args.envs, opponent="random", seat="random",
                          flatten=True)  # fmt: skip
venv = VecMonitor(SB3VecEnv(envs))
model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=256, seed=0, verbose=0)
model.learn(args.steps)

# Play games against random with the trained policy, --envs at a time.
obs = venv.reset()
results = []
while len(results) < args.games:
    actions, _ = model.predict(obs, action_masks=envs.action_masks(), deterministic=True)
    obs, rewards, dones, infos = venv.step(actions)
    results += rewards[dones].tolist()
results = np.array(results)
print(f"{len(results)} games against random after {args.steps} steps: {(results == 1).mean():.0%} won, "
      f"{(results == 0).mean():.0%} drawn, {(results == -1).mean():.0%} lost")
