"""RLlib PPO on connect four against an opponent pool (built-in levels and the learner's own snapshots).

RLlib is not a dependency of boardgame_envs: docs/libraries.md installs ray and RLlib's requirements
(not ``ray[rllib]``, which pins gymnasium 1.2.2 below this package's 1.4).
The learner sees our Gymnasium single-agent view; the opponent moves inside ``step`` and is
drawn for each game from an ``OpponentPool``: uniform random, ``greedy`` at three noise levels,
and frozen copies of the learner added as it trains, sampled by the learner's losses against
each (prioritised fictitious self-play). RLlib's new API stack trains it with PPO and the
action-masking RL module RLlib ships (``ActionMaskingTorchRLModule``: the observation is a dict
of ``observations`` and ``action_mask``). The env runner lives in this process
(``num_env_runners=0``), so the env it builds plays against the pool this script adds snapshots
to. At the end the learner plays 100 games against ``greedy`` (seats alternating, seeded).

    python examples/rllib_connect_four.py                     # 240,000 moves, about 12 CPU-minutes
    python examples/rllib_connect_four.py --iterations 1 --batch 1000 --games 10   # a smoke test

What it reaches on our 2-core machine: baselines/results/library_examples_connect_four.md.
"""

import argparse
import logging
import sys
import tempfile
import time
from pathlib import Path

import gymnasium
import numpy as np
import ray
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

import boardgame_envs  # noqa: F401 (registers the Gymnasium ids)
from boardgame_envs import connect_four_v0
from boardgame_envs.arena import match
from boardgame_envs.selfplay import OpponentPool
from boardgame_envs.selfplay.elo import CallablePolicy

parser = argparse.ArgumentParser()
parser.add_argument("--iterations", type=int, default=60, help="PPO iterations (each --batch learner moves)")
parser.add_argument("--batch", type=int, default=4000, help="learner moves per iteration")
parser.add_argument("--cpu-minutes", type=float, default=None, help="stop training at this much process CPU time")
parser.add_argument("--snapshot-every", type=int, default=10, help="iterations between snapshots joining the pool")
parser.add_argument("--games", type=int, default=100, help="games against greedy at the end")
parser.add_argument("--seed", type=int, default=0)
args = parser.parse_args()
torch.set_num_threads(1)  # small networks run fastest on one thread
start_cpu, start_wall = time.process_time(), time.time()
CELLS, COLS = 6 * 7 * 2, 7
OBSERVATION_SPACE = gymnasium.spaces.Dict({
    "observations": gymnasium.spaces.Box(0.0, 1.0, (CELLS,), np.float32),
    "action_mask": gymnasium.spaces.Box(0.0, 1.0, (COLS,), np.float32),
})  # fmt: skip
MODEL = {"fcnet_hiddens": [256, 256], "vf_share_layers": False}  # DefaultModelConfig's fields


def rllib_module_moves(module):
    """An RLlib module as a batched opponent ``(observations, masks) -> actions``: its best legal column."""

    def play(observations, masks):
        obs = {"observations": torch.as_tensor(np.asarray(observations), dtype=torch.float32).flatten(1),
               "action_mask": torch.as_tensor(np.asarray(masks), dtype=torch.float32)}  # fmt: skip
        with torch.no_grad():
            logits = module.forward_inference({"obs": obs})["action_dist_inputs"]
        return logits.argmax(1).numpy()

    return play


def load_snapshot(path: str):
    # The env runner's module, which algo.get_module() gives, is the inference-only one: no value function.
    module = ActionMaskingTorchRLModule(observation_space=OBSERVATION_SPACE, inference_only=True,
                                        action_space=gymnasium.spaces.Discrete(COLS), model_config=MODEL)
    module.load_state_dict(torch.load(path, weights_only=True))
    return rllib_module_moves(module.eval())


POOL = OpponentPool(["random", "greedy:epsilon=0.5", "greedy:epsilon=0.25", "greedy"], sampling="pfsp",
                    seed=args.seed, snapshot_loader=load_snapshot)  # fmt: skip


class ConnectFourVsPool(gymnasium.Wrapper):
    """The single-agent view against POOL, its observation as RLlib's action-masking module reads it."""

    def __init__(self, config=None):
        super().__init__(gymnasium.make("boardgame_envs/ConnectFour-v0", opponent=POOL, seat="random"))
        self.observation_space = OBSERVATION_SPACE

    def _observe(self, observation, info):
        return {"observations": observation.reshape(-1).astype(np.float32),
                "action_mask": info["action_mask"].astype(np.float32)}  # fmt: skip

    def reset(self, *, seed=None, options=None):
        observation, info = self.env.reset(seed=seed, options=options)
        return self._observe(observation, info), info

    def step(self, action):
        observation, reward, terminated, truncated, info = self.env.step(action)
        return self._observe(observation, info), reward, terminated, truncated, info


ray.init(num_cpus=1, include_dashboard=False, logging_level=logging.WARNING)
config = (
    PPOConfig()
    .environment(ConnectFourVsPool)
    .env_runners(num_env_runners=0)  # sample in this process: the env plays against POOL itself
    .learners(num_learners=0)
    .training(train_batch_size_per_learner=args.batch, minibatch_size=500, num_epochs=4, lr=5e-4,
              gamma=0.99, lambda_=0.95, entropy_coeff=0.01, vf_loss_coeff=0.5)  # fmt: skip
    .rl_module(rl_module_spec=RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=MODEL))
    .debugging(seed=args.seed)
)
algo = config.build_algo()
snapshots = Path(tempfile.mkdtemp(prefix="rllib-connect-four-"))
for iteration in range(1, args.iterations + 1):
    algo.train()
    if iteration % args.snapshot_every == 0:
        path = snapshots / f"snapshot-{iteration}.pt"
        torch.save(algo.get_module().state_dict(), path)
        POOL.add_snapshot(path)
    out_of_time = args.cpu_minutes is not None and time.process_time() - start_cpu > 60 * args.cpu_minutes
    if iteration % 5 == 0 or iteration == args.iterations or out_of_time:
        scores = ", ".join(f"{name} {w}-{d}-{l}" for name, (w, d, l) in POOL.results().items())
        print(f"iteration {iteration}, cpu {time.process_time() - start_cpu:.0f} s: {scores}", flush=True)
    if out_of_time:
        break

learner = CallablePolicy(rllib_module_moves(algo.get_module().eval()), layout="hwc", name="rllib-ppo")
result = match(lambda: connect_four_v0.env(), learner, "greedy", games=args.games, seed=args.seed + 1, progress=False,
               openings=None)  # from the empty board, seats alternated, as baselines/results measured
print(f"RLlib PPO vs greedy, {result.games} games (seats alternating): {result.wins} wins, {result.draws} draws, "
      f"{result.losses} losses; first {result.by_seat['first']}, second {result.by_seat['second']}")
print(f"process CPU {time.process_time() - start_cpu:.0f} s (this process; Ray's own processes apart), "
      f"wall {time.time() - start_wall:.0f} s; command: python {' '.join(sys.argv)}")
algo.stop()
ray.shutdown()
