"""MaskablePPO (sb3-contrib) on tic-tac-toe against the built-in random player, with no glue code.

    python examples/maskable_ppo_quickstart.py --steps 20000
"""

import argparse

import gymnasium
import torch
from sb3_contrib import MaskablePPO

import boardgame_envs  # noqa: F401  (registers the ids)
from boardgame_envs.vector.sb3 import BoardCNN

# One torch thread: small networks lose more to thread sync than they gain
# (on 2 cores, 2,048 PPO steps took 5.2 s instead of 158 s).
torch.set_num_threads(1)

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=20_000)
args = parser.parse_args()

env = gymnasium.make("boardgame_envs/TicTacToe-v0", opponent="random", seat="random", channels_first=True)
model = MaskablePPO(
    "CnnPolicy", env, n_steps=256, batch_size=64, seed=0, verbose=0,
    policy_kwargs={"features_extractor_class": BoardCNN},
)
model.learn(args.steps)

obs, info = env.reset(seed=1)
terminated = False
while not terminated:
    action, _ = model.predict(obs, action_masks=env.unwrapped.action_masks(), deterministic=True)
    obs, reward, terminated, truncated, info = env.step(action)
print("episode reward against random:", reward)
