"""The replay buffer: the most recent self-play positions, sampled uniformly."""

from __future__ import annotations

import numpy as np
import torch


class ReplayBuffer:
    """A ring of ``capacity`` examples ``(planes, mask, policy, value)``.

    ``planes`` are stored as the env gives them (``(n, n, C)`` int8), masks as
    bool, policy targets (visit shares) and value targets (the final result
    for the player to move) as float32.
    """

    def __init__(self, capacity: int, plane_shape: tuple[int, ...], num_actions: int) -> None:
        self.capacity = capacity
        self.planes = np.zeros((capacity, *plane_shape), dtype=np.int8)
        self.masks = np.zeros((capacity, num_actions), dtype=np.bool_)
        self.policies = np.zeros((capacity, num_actions), dtype=np.float32)
        self.values = np.zeros(capacity, dtype=np.float32)
        self.size = 0
        self.next = 0  # where the next example goes

    def __len__(self) -> int:
        return self.size

    def add(self, planes: np.ndarray, masks: np.ndarray, policies: np.ndarray, values: np.ndarray) -> None:
        """Append a batch, overwriting the oldest examples once full."""
        for start in range(0, len(planes), self.capacity):
            end = min(start + self.capacity, len(planes))
            rows = (self.next + np.arange(end - start)) % self.capacity
            self.planes[rows] = planes[start:end]
            self.masks[rows] = masks[start:end]
            self.policies[rows] = policies[start:end]
            self.values[rows] = values[start:end]
            self.next = int((self.next + end - start) % self.capacity)
            self.size = min(self.capacity, self.size + end - start)

    def sample(self, batch_size: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
        """``batch_size`` examples drawn uniformly with replacement."""
        if self.size == 0:
            raise ValueError("the replay buffer is empty")
        rows = rng.integers(self.size, size=batch_size)
        return self.planes[rows], self.masks[rows], self.policies[rows], self.values[rows]

    def state_dict(self) -> dict:
        """Tensors only, so a checkpoint loads with ``weights_only=True``."""
        return {
            "planes": torch.from_numpy(self.planes[: self.size].copy()),
            "masks": torch.from_numpy(self.masks[: self.size].copy()),
            "policies": torch.from_numpy(self.policies[: self.size].copy()),
            "values": torch.from_numpy(self.values[: self.size].copy()),
            "next": self.next,
        }

    def load_state_dict(self, state: dict) -> None:
        size = len(state["values"])
        if size > self.capacity:
            raise ValueError(f"saved buffer holds {size} examples, more than capacity {self.capacity}")
        self.planes[:size] = state["planes"].numpy()
        self.masks[:size] = state["masks"].numpy()
        self.policies[:size] = state["policies"].numpy()
        self.values[:size] = state["values"].numpy()
        self.size = size
        self.next = int(state["next"]) % self.capacity
