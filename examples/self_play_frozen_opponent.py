"""Self-play: the opponent is a frozen copy of the learner, refreshed every round.

    python examples/self_play_frozen_opponent.py --rounds 3 --steps 4000
"""

import argparse

import numpy as np
from sb3_contrib import MaskablePPO

from boardgame_envs.envs.single_agent import BoardGameEnv

parser = argparse.ArgumentParser()
parser.add_argument("--rounds", type=int, default=3)
parser.add_argument("--steps", type=int, default=4000)
args = parser.parse_args()


class Frozen:
    """The opponent callable: (observation planes, action mask) -> action, from a saved learner."""

    def __init__(self, model):
        self.model = model

    def __call__(self, planes, mask):
        action, _ = self.model.predict(planes.astype(np.float32).reshape(-1), action_masks=mask.astype(bool), deterministic=False)
        return int(action)


env = BoardGameEnv("tictactoe", opponent="random", seat="random", flatten=True)
model = MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=64, seed=0, verbose=0)
for round_ in range(args.rounds):
    model.learn(args.steps, reset_num_timesteps=False)
    frozen = MaskablePPO("MlpPolicy", env, seed=round_)
    frozen.set_parameters(model.get_parameters())
    env.opponent = env._opponent_spec = Frozen(frozen)
    print(f"round {round_ + 1}: learner trained {model.num_timesteps} steps; opponent refreshed")
