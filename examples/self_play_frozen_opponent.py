"""Self-play: the opponent is a frozen copy of the learner, refreshed every round.

The env hands a callable opponent its own view encoded like the learner's
observations, so the frozen model's ``predict`` plays as it is.

    python examples/self_play_frozen_opponent.py --rounds 3 --steps 4000
"""

import argparse

import torch
from sb3_contrib import MaskablePPO

from boardgame_envs.envs.single_agent import SingleAgentEnv

# One torch thread: small networks lose more to thread sync than they gain
# (on 2 cores, 2,048 PPO steps took 5.2 s instead of 158 s).
torch.set_num_threads(1)

parser = argparse.ArgumentParser()
parser.add_argument("--rounds", type=int, default=3)
parser.add_argument("--steps", type=int, default=4000)
args = parser.parse_args()


def frozen_copy(model: MaskablePPO, env: SingleAgentEnv, seed: int):
    """An opponent callable ``(observation, action_mask) -> action`` playing a snapshot of ``model``."""
    snapshot = MaskablePPO("MlpPolicy", env, seed=seed)
    snapshot.set_parameters(model.get_parameters())
    return lambda observation, mask: int(snapshot.predict(observation, action_masks=mask, deterministic=False)[0])


env = SingleAgentEnv("tictactoe", opponent="random", seat="random", flatten=True)
model = MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=64, seed=0, verbose=0)
for round_ in range(args.rounds):
    model.learn(args.steps, reset_num_timesteps=False)
    env.set_opponent(frozen_copy(model, env, seed=round_))
    print(f"round {round_ + 1}: learner trained {model.num_timesteps} steps; opponent refreshed")

# A last look: the learner against its own latest snapshot, greedy, learner first.
env.seat = "first"
obs, info = env.reset(seed=0)
terminated = False
while not terminated:
    action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
    obs, reward, terminated, truncated, info = env.step(action)
print("greedy learner vs its snapshot, reward:", reward)
