"""Learning: the gradient steps that turn the replay buffer's examples into a better network.

A :class:`Learner` takes Adam steps on random batches from the replay buffer,
each example moved by a random board symmetry (``config.augment``); the loss is
the policy cross-entropy over the examples that have a policy target plus the
value MSE, with L2 through Adam's ``weight_decay``. :meth:`Learner.anneal` sets
the cosine learning rate for how far through its schedule a run is
(:func:`schedule_progress`).

Invariant: in a run, the network's weights change only in :meth:`Learner.learn`
(and when a checkpoint is restored), which leaves the network in eval mode; the
batches and symmetries are drawn from the trainer's one random generator, so a
run's learning is the same for the same seed and checkpoint.
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np
import torch
from torch.nn import functional as F

from boardgame_envs.alphazero.buffer import ReplayBuffer
from boardgame_envs.alphazero.config import AlphaZeroConfig
from boardgame_envs.alphazero.network import PolicyValueNet
from boardgame_envs.games.protocol import as_family, cell_symmetries
from boardgame_envs.games.symmetry import random_permutations, random_symmetries

__all__ = ["Learner", "schedule_progress"]


def schedule_progress(iteration: int, iterations: int | None, clock: tuple[float, float] | None) -> float:
    """How far through its learning-rate schedule a run is, from 0 to 1.

    By the run's ``iterations`` when they are set, counting resumed ones (a run split over several calls,
    each with its own ``minutes``, keeps one schedule); else by this call's ``clock``, ``(elapsed, budget)``
    in seconds; 0 with neither.
    """
    if iterations is not None:
        return min(1.0, iteration / iterations) if iterations else 1.0
    if clock is None:
        return 0.0
    elapsed, budget = clock
    return min(1.0, elapsed / budget) if budget > 0 else 1.0


class Learner:
    """Gradient steps for ``net`` (playing ``game``) on batches from ``buffer``, with ``config``'s batch size,
    augmentation and learning rates; ``rng`` draws the batches and symmetries. It owns the Adam optimizer
    (:attr:`optimizer`), which a checkpoint saves and restores."""

    def __init__(self, net: PolicyValueNet, buffer: ReplayBuffer, rng: np.random.Generator, game: Any,
                 config: AlphaZeroConfig, device: torch.device) -> None:  # fmt: skip
        self.net, self.buffer, self.rng, self.game, self.config, self.device = net, buffer, rng, game, config, device
        self.optimizer = torch.optim.Adam(net.parameters(), lr=config.lr, weight_decay=config.weight_decay)
        self._mnk = as_family(game, "mnk") is not None  # the square board's 8 symmetries, else the game's own

    def anneal(self, progress: float) -> None:
        """Cosine learning rate from ``lr`` at the start of the run to ``lr * lr_final`` at its end."""
        cfg = self.config
        factor = cfg.lr_final + (1.0 - cfg.lr_final) * 0.5 * (1.0 + math.cos(math.pi * min(max(progress, 0.0), 1.0)))
        for group in self.optimizer.param_groups:
            group["lr"] = cfg.lr * factor

    def learn(self, steps: int, deadline: float | None = None) -> dict[str, float]:
        """``steps`` gradient steps on batches from the replay buffer, fewer when ``deadline`` (a
        ``time.perf_counter()`` value) comes first; their mean losses and ``learn_steps``, the steps taken
        (nothing without a step)."""
        cfg = self.config
        totals = {"loss": 0.0, "policy_loss": 0.0, "value_loss": 0.0}
        if steps == 0 or len(self.buffer) == 0:
            return {}
        self.net.train()
        taken = 0
        for _ in range(steps):
            if deadline is not None and taken and time.perf_counter() >= deadline:
                break  # at least one step: an iteration's games are not left unlearned
            planes, masks, policies, values = self.buffer.sample(cfg.batch_size, self.rng)
            planes = planes.transpose(0, 3, 1, 2)  # HWC -> CHW
            if cfg.augment and self._mnk:
                planes, masks, policies = random_symmetries(planes, masks, policies, self.rng, channels_first=True)
            elif cfg.augment:
                planes, masks, policies = random_permutations(planes, masks, policies, self.rng,
                                                              cell_symmetries(self.game), self.game.symmetries())  # fmt: skip
            x = torch.from_numpy(np.ascontiguousarray(planes)).to(self.device).float()
            mask = torch.from_numpy(np.ascontiguousarray(masks)).to(self.device)
            target_p = torch.from_numpy(np.ascontiguousarray(policies)).to(self.device)
            target_v = torch.from_numpy(values).to(self.device)
            logits, value = self.net(x, mask)
            # Illegal actions have -inf logits and zero targets: count them as 0, not 0 * -inf.
            log_p = F.log_softmax(logits, dim=-1).masked_fill(~mask, 0.0)
            # A target of zeros is none (a cheap search's move): the mean runs over the examples that have one.
            has_target = (target_p.sum(dim=-1) > 0).float()
            policy_loss = -(target_p * log_p).sum(dim=-1).sum() / has_target.sum().clamp(min=1.0)
            value_loss = F.mse_loss(value, target_v)
            loss = policy_loss + value_loss
            self.optimizer.zero_grad(set_to_none=True)
            loss.backward()
            self.optimizer.step()
            totals["loss"] += loss.item()
            totals["policy_loss"] += policy_loss.item()
            totals["value_loss"] += value_loss.item()
            taken += 1
        self.net.eval()
        return {**{k: v / taken for k, v in totals.items()}, "learn_steps": float(taken)}
