"""Tianshou's multi-agent PettingZoo loop on connect_four_v0 (or tictactoe_v0): DQN against a random masked player.

Tianshou (2.x) is not a dependency of boardgame_envs: the set-up's ``tianshou`` extra installs it,
and docs/libraries.md into any environment that runs the project. Our AEC env goes into
Tianshou's ``PettingZooEnv`` as it is: the ``action_mask`` in each observation becomes Tianshou's ``mask``.
The learner holds the first seat and trains against Tianshou's random masked
player, as in Tianshou's own tic-tac-toe example. At the end it plays
``--games`` games against our ``greedy`` (seats alternating, seeded) through
the arena, as the TorchRL and RLlib examples do (docs/libraries.md).

    python examples/tianshou_multiagent.py --epochs 5 --epoch-steps 2000
    python examples/tianshou_multiagent.py --game tictactoe --epochs 5 --epoch-steps 2000
"""

import argparse
import logging
import sys
import time

import numpy as np
import torch
from tianshou.algorithm import DQN, MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.env.pettingzoo_env import PettingZooEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

from boardgame_envs import connect_four_v0, tictactoe_v0
from boardgame_envs.arena import match
from boardgame_envs.selfplay.elo import CallablePolicy

GAMES = {"connect_four": connect_four_v0, "tictactoe": tictactoe_v0}

parser = argparse.ArgumentParser()
parser.add_argument("--game", choices=sorted(GAMES), default="connect_four")
parser.add_argument("--epochs", type=int, default=5)
parser.add_argument("--epoch-steps", type=int, default=2000)
parser.add_argument("--test-episodes", type=int, default=100)
parser.add_argument("--games", type=int, default=100, help="games against greedy at the end")
parser.add_argument("--seed", type=int, default=0)
args = parser.parse_args()
start_cpu, start_wall = time.process_time(), time.time()
torch.set_num_threads(1)
# Multi-agent returns are (episodes, agents); Tianshou's stats flatten them, with a warning at every epoch.
logging.getLogger("tianshou.data.stats").setLevel(logging.ERROR)
np.random.seed(args.seed)
torch.manual_seed(args.seed)


def make_env() -> PettingZooEnv:
    return PettingZooEnv(GAMES[args.game].env())


env = make_env()
n_actions = int(env.action_space.n)
net = Net(state_shape=env.observation_space["observation"].shape, action_shape=n_actions, hidden_sizes=[128, 128])
learner = DQN(
    policy=DiscreteQLearningPolicy(model=net, action_space=env.action_space, eps_training=0.2, eps_inference=0.0),
    optim=AdamOptimizerFactory(lr=1e-3),
    gamma=0.9,
    n_step_return_horizon=3,
    target_update_freq=320,
)
# The learner plays first (player_1); the second seat is a random legal mover.
algorithm = MultiAgentOffPolicyAlgorithm(
    algorithms=[learner, MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)], env=env
)

train_envs = DummyVectorEnv([make_env for _ in range(4)])
test_envs = DummyVectorEnv([make_env for _ in range(4)])
train_envs.seed(args.seed)
test_envs.seed(args.seed + 1)
train_collector = Collector[CollectStats](algorithm, train_envs, VectorReplayBuffer(20_000, 4), exploration_noise=True)
test_collector = Collector[CollectStats](algorithm, test_envs)
train_collector.reset()
train_collector.collect(n_step=256)

algorithm.run_training(
    OffPolicyTrainerParams(
        training_collector=train_collector,
        test_collector=test_collector,
        max_epochs=args.epochs,
        epoch_num_steps=args.epoch_steps,
        collection_step_num_env_steps=40,
        update_step_num_gradient_steps_per_sample=0.25,
        test_step_num_episodes=10,
        batch_size=64,
        multi_agent_return_reduction=lambda rews: rews[:, 0],  # the learner's return
        verbose=False,
        show_progress=False,
    )
)

# Greedy learner (first) against the random opponent.
algorithm.eval()
stats = Collector[CollectStats](algorithm, test_envs).collect(n_episode=args.test_episodes, reset_before_collect=True)
returns = np.asarray(stats.returns)[:, 0]  # the learner's column
wins, draws, losses = int((returns > 0).sum()), int((returns == 0).sum()), int((returns < 0).sum())
print(f"DQN (first) vs random, {len(returns)} games: {wins} wins, {draws} draws, {losses} losses")


def best_moves(observations, masks):
    """The learner's Q-network as a batched player: its best legal move."""
    with torch.no_grad():
        q_values, _ = net(torch.as_tensor(np.asarray(observations), dtype=torch.float32))
    return q_values.masked_fill(~torch.as_tensor(np.asarray(masks, dtype=bool)), -torch.inf).argmax(1).numpy()


learner_policy = CallablePolicy(best_moves, layout="hwc", name="tianshou-dqn")
result = match(GAMES[args.game].env, learner_policy, "greedy", games=args.games, seed=args.seed + 1, progress=False,
               openings=None)  # from the empty board, seats alternated, as baselines/results measured
print(f"Tianshou DQN vs greedy, {result.games} games (seats alternating): {result.wins} wins, {result.draws} draws, "
      f"{result.losses} losses; first {result.by_seat['first']}, second {result.by_seat['second']}")
print(f"process CPU {time.process_time() - start_cpu:.0f} s, wall {time.time() - start_wall:.0f} s; "
      f"command: python {' '.join(sys.argv)}")
