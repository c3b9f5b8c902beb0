"""Self-play on Ray workers: the same :class:`SelfPlay`, in actors on any number of machines.

``AlphaZeroConfig(backend="ray", workers=W)`` starts ``W`` actors (one CPU
each), each with its own envs and a CPU copy of the network. Every iteration
the learner's weights are put in Ray's object store once, each worker plays
its share of the games, and the examples come back to the learner (which may
sit on a GPU). A deadline (the trainer's budget) is watched by the learner:
workers still playing when it comes are stopped, their games dropped, and
:class:`~boardgame_envs.alphazero.selfplay.OutOfTime` is raised, as local
self-play does. :meth:`RaySelfPlay.close` stops the actors (the trainer calls it
at the end of ``train()``, also on an error). Nothing here schedules, ships or retries by hand: that is Ray's
job.

Across machines: start a cluster (``ray start --head`` on one machine,
``ray start --address=HEAD:6379`` on the others) and run the trainer on any
of them, or call ``ray.init(address=...)`` before ``train()``. Without a
cluster, ``ray.init()`` starts a local one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
import ray
import torch

from boardgame_envs.alphazero.config import AlphaZeroConfig
from boardgame_envs.alphazero.network import PolicyValueNet
from boardgame_envs.alphazero.selfplay import Examples, OutOfTime, SelfPlay, SelfPlayStats


class SelfPlayWorker:
    """A Ray actor: plays games with the weights it is sent."""

    def __init__(self, env_fn: Callable[[], Any], config: AlphaZeroConfig, seed: int, net_hparams: dict) -> None:
        torch.set_num_threads(config.torch_threads or 1)
        self.selfplay = SelfPlay(env_fn, config, seed)
        self.net = PolicyValueNet(**net_hparams)

    def play(self, weights: dict[str, torch.Tensor], games: int) -> tuple[Examples, SelfPlayStats]:
        self.net.load_state_dict(weights)
        self.net.eval()
        return self.selfplay.play(self.net, games)


class RaySelfPlay:
    """Drop-in for :class:`SelfPlay` whose games run on ``config.workers`` Ray actors."""

    def __init__(self, env_fn: Callable[[], Any], config: AlphaZeroConfig, seed: int) -> None:
        if not ray.is_initialized():
            ray.init()
        seeds = np.random.SeedSequence(seed).generate_state(config.workers)
        self.config = config
        self.env_fn = env_fn
        self.seeds = [int(s) % 2**31 for s in seeds]
        self.workers: list[Any] = []

    def play(self, net: PolicyValueNet, games: int, deadline: float | None = None) -> tuple[Examples, SelfPlayStats]:
        """``games`` games shared among the workers; :class:`OutOfTime` (the workers stopped) if ``deadline``
        (a ``time.perf_counter()`` value of this process) comes before every share is back."""
        if not self.workers:  # the network's shape is known only now
            actor = ray.remote(num_cpus=1)(SelfPlayWorker)
            self.workers = [actor.remote(self.env_fn, self.config, s, net.hparams) for s in self.seeds]
        weights = ray.put({k: v.detach().cpu() for k, v in net.state_dict().items()})
        share = -(-games // len(self.workers))  # ceil
        refs = [w.play.remote(weights, share) for w in self.workers]
        timeout = None if deadline is None else max(0.0, deadline - time.perf_counter())
        _, pending = ray.wait(refs, num_returns=len(refs), timeout=timeout)
        if pending:
            self.close()  # a worker cannot be interrupted mid-game; a later play starts new ones
            raise OutOfTime(f"{len(refs) - len(pending)} of {len(refs)} Ray workers had played their share "
                            f"at the deadline")  # fmt: skip
        parts = ray.get(refs)
        stats = SelfPlayStats()
        for _, s in parts:
            stats.add(s)
        examples = Examples(*(np.concatenate([getattr(e, f) for e, _ in parts]) for f in ("planes", "masks", "policies", "values")))
        return examples, stats

    def close(self) -> None:
        """Stop the actors (their games in progress are dropped); a later :meth:`play` starts new ones."""
        for worker in self.workers:
            ray.kill(worker)
        self.workers = []
