"""Random legal play through the PettingZoo AEC API, on 15x15 renju, printed at the end."""

import numpy as np

from boardgame_envs import gomoku_v0

env = gomoku_v0.env(board_size=15, rule="renju", render_mode="ansi")
env.reset(seed=0)
rng = np.random.default_rng(0)
for agent in env.agent_iter():
    observation, reward, terminated, truncated, info = env.last()
    if terminated or truncated:
        action = None
    else:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))  # never a forbidden point
    env.step(action)
print(env.render())
print("final rewards:", env.rewards)
