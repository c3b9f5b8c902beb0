"""Uniformly random legal moves: the weakest opponent, and the baseline of every table."""

from __future__ import annotations

from typing import Any

import numpy as np

from boardgame_envs.policies.base import game_state_of


class RandomPolicy:
    """Picks uniformly among the legal actions (never a renju-forbidden point for black)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, state: Any) -> int:
        legal = game_state_of(state).legal_actions()
        return int(legal[self.rng.integers(len(legal))])
