"""Players for the arena's tests, imported as ``arena.players`` (tests/ is on sys.path, see tests/conftest.py)."""

from __future__ import annotations

from boardgame_envs.policies.registry import make_policy


class Fixed:
    """A policy spec that ignores the game's seed: the same player, move for move, in every game."""

    def __init__(self, spec: str, seed: int) -> None:
        self.spec, self.seed = spec, seed
        self.name = f"{spec}@{seed}"

    def __call__(self, seed: int):
        return make_policy(self.spec, seed=self.seed)
