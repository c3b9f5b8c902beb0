"""TorchRL PPO on connect four against an opponent pool (built-in levels and the learner's own snapshots).

TorchRL is not a dependency of boardgame_envs: the set-up's ``torchrl`` extra installs it, and
docs/libraries.md installs it into any environment that runs the project, torch held.
The learner sees our Gymnasium single-agent view through TorchRL's ``GymWrapper``; the
opponent moves inside ``step`` and is drawn for each game from an ``OpponentPool``: uniform
random, ``greedy`` at three noise levels, and frozen copies of the learner added as it trains,
sampled by the learner's losses against each (prioritised fictitious self-play). The rest is
TorchRL's own PPO: a ``Collector``, ``GAE``, ``ClipPPOLoss``, and a ``MaskedCategorical``
actor that only ever picks legal columns. At the end the learner plays 100 games against
``greedy`` (seats alternating, seeded) through the arena.

    python examples/torchrl_connect_four.py                   # 250,000 moves, about 12 CPU-minutes
    python examples/torchrl_connect_four.py --frames 4096     # a smoke test, seconds

What it reaches on our 2-core machine: baselines/results/library_examples_connect_four.md.
"""

import argparse
import sys
import tempfile
import time
from pathlib import Path

import gymnasium
import numpy as np
import torch
from tensordict.nn import TensorDictModule
from torch import nn
from torchrl.collectors import Collector
from torchrl.data import LazyTensorStorage, ReplayBuffer, SamplerWithoutReplacement
from torchrl.envs import GymWrapper
from torchrl.modules import MaskedCategorical, ProbabilisticActor, ValueOperator
from torchrl.objectives import ClipPPOLoss
from torchrl.objectives.value import GAE

import boardgame_envs  # noqa: F401 (registers the Gymnasium ids)
from boardgame_envs import connect_four_v0
from boardgame_envs.arena import match
from boardgame_envs.selfplay import OpponentPool
from boardgame_envs.selfplay.elo import CallablePolicy

parser = argparse.ArgumentParser()
parser.add_argument("--frames", type=int, default=250_000, help="learner moves to train on")
parser.add_argument("--frames-per-batch", type=int, default=4096)
parser.add_argument("--cpu-minutes", type=float, default=None, help="stop training at this much process CPU time")
parser.add_argument("--snapshot-every", type=int, default=5, help="batches between snapshots joining the pool")
parser.add_argument("--games", type=int, default=100, help="games against greedy at the end")
parser.add_argument("--seed", type=int, default=0)
args = parser.parse_args()
torch.set_num_threads(1)  # small networks run fastest on one thread
torch.manual_seed(args.seed)
start_cpu, start_wall = time.process_time(), time.time()
ROWS, COLS, PLANES = 6, 7, 2


class MaskInObservation(gymnasium.ObservationWrapper):
    """The view keeps the legal moves in ``info``; TorchRL's wrapper reads them best from the observation."""

    def __init__(self, env):
        super().__init__(env)
        self.observation_space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0.0, 1.0, (ROWS * COLS * PLANES,), np.float32),
            "action_mask": gymnasium.spaces.MultiBinary(COLS),
        })  # fmt: skip

    def observation(self, observation):
        mask = self.env.unwrapped.action_masks()
        return {"observation": observation.reshape(-1).astype(np.float32), "action_mask": mask.astype(np.int8)}


def mlp(outputs: int) -> nn.Module:
    return nn.Sequential(nn.Linear(ROWS * COLS * PLANES, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(),
                         nn.Linear(256, outputs))  # fmt: skip


def greedy_moves(net: nn.Module):
    """A network as a batched opponent ``(observations, masks) -> actions``: its best legal column."""

    def play(observations, masks):
        with torch.no_grad():
            logits = net(torch.as_tensor(np.asarray(observations), dtype=torch.float32).flatten(1))
        return logits.masked_fill(~torch.as_tensor(np.asarray(masks, dtype=bool)), -torch.inf).argmax(1).numpy()

    return play


def load_snapshot(path: str):
    net = mlp(COLS)
    net.load_state_dict(torch.load(path, weights_only=True))
    return greedy_moves(net)


pool = OpponentPool(["random", "greedy:epsilon=0.5", "greedy:epsilon=0.25", "greedy"], sampling="pfsp",
                    seed=args.seed, snapshot_loader=load_snapshot)  # fmt: skip
view = gymnasium.make("boardgame_envs/ConnectFour-v0", opponent=pool, seat="random")
env = GymWrapper(MaskInObservation(view), categorical_action_encoding=True)
env.set_seed(args.seed)

class Logits(nn.Module):
    """The policy's logits, and the legal columns as the bool mask ``MaskedCategorical`` takes."""

    def __init__(self, net: nn.Module) -> None:
        super().__init__()
        self.net = net

    def forward(self, observation: torch.Tensor, action_mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.net(observation), action_mask.bool()


policy_net = mlp(COLS)
actor = ProbabilisticActor(
    TensorDictModule(Logits(policy_net), in_keys=["observation", "action_mask"], out_keys=["logits", "legal"]),
    in_keys={"logits": "logits", "mask": "legal"},
    distribution_class=MaskedCategorical,
    spec=env.action_spec,
    return_log_prob=True,
)
critic = ValueOperator(mlp(1), in_keys=["observation"])
advantage = GAE(gamma=0.99, lmbda=0.95, value_network=critic, average_gae=True)
loss = ClipPPOLoss(actor, critic, clip_epsilon=0.2, entropy_coeff=0.01, critic_coeff=0.5)
optimizer = torch.optim.Adam(loss.parameters(), lr=5e-4)
collector = Collector(env, actor, frames_per_batch=args.frames_per_batch, total_frames=args.frames)
buffer = ReplayBuffer(storage=LazyTensorStorage(args.frames_per_batch), sampler=SamplerWithoutReplacement(),
                      batch_size=512)  # fmt: skip
snapshots = Path(tempfile.mkdtemp(prefix="torchrl-connect-four-"))

for batch_number, batch in enumerate(collector, 1):
    with torch.no_grad():
        advantage(batch)
    buffer.extend(batch.reshape(-1))
    for _epoch in range(4):
        for _ in range(args.frames_per_batch // buffer.batch_size):
            losses = loss(buffer.sample())
            total = losses["loss_objective"] + losses["loss_critic"] + losses["loss_entropy"]
            optimizer.zero_grad()
            total.backward()
            nn.utils.clip_grad_norm_(loss.parameters(), 0.5)
            optimizer.step()
    collector.update_policy_weights_()
    if batch_number % args.snapshot_every == 0:
        path = snapshots / f"snapshot-{batch_number}.pt"
        torch.save(policy_net.state_dict(), path)
        pool.add_snapshot(path)
    frames = batch_number * args.frames_per_batch
    out_of_time = args.cpu_minutes is not None and time.process_time() - start_cpu > 60 * args.cpu_minutes
    if batch_number % 5 == 0 or frames >= args.frames or out_of_time:
        scores = ", ".join(f"{name} {w}-{d}-{l}" for name, (w, d, l) in pool.results().items())
        print(f"frames {frames}, cpu {time.process_time() - start_cpu:.0f} s: {scores}",
              flush=True)  # fmt: skip
    if out_of_time:
        break
collector.shutdown()

learner = CallablePolicy(greedy_moves(policy_net.eval()), layout="hwc", name="torchrl-ppo")
result = match(lambda: connect_four_v0.env(), learner, "greedy", games=args.games, seed=args.seed + 1, progress=False,
               openings=None)  # from the empty board, seats alternated, as baselines/results measured
print(f"TorchRL PPO vs greedy, {result.games} games (seats alternating): {result.wins} wins, {result.draws} draws, "
      f"{result.losses} losses; first {result.by_seat['first']}, second {result.by_seat['second']}")
print(f"process CPU {time.process_time() - start_cpu:.0f} s, wall {time.time() - start_wall:.0f} s; "
      f"command: python {' '.join(sys.argv)}")
