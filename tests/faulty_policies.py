"""Policies that misbehave on purpose, importable by worker processes (tests/ is on sys.path)."""

from __future__ import annotations

from typing import Any

from boardgame_envs.policies.random import RandomPolicy


class Occupier(RandomPolicy):
    """Plays on an occupied point (an illegal move) at its second move; random before."""

    name = "occupier"

    def act(self, env: Any) -> int:
        state = env.unwrapped.game_state
        if state.num_moves >= 2:
            return int(state.last_move)
        return super().act(env)


class Crasher(RandomPolicy):
    """Raises at its first move of any game after the ``after``-th stone."""

    name = "crasher"

    def __init__(self, seed: int | None = None, after: int = 2, error: type[BaseException] = ValueError) -> None:
        super().__init__(seed=seed)
        self.after, self.error = after, error

    def act(self, env: Any) -> int:
        if env.unwrapped.game_state.num_moves >= self.after:
            raise self.error("boom")
        return super().act(env)


class InterruptAtGame:
    """A factory f(seed) whose policies raise KeyboardInterrupt from the ``game``-th built on (as Ctrl-C would)."""

    def __init__(self, game: int) -> None:
        self.game, self.built = game, 0

    def __call__(self, seed: int | None) -> Any:
        self.built += 1
        if self.built >= self.game:
            return Crasher(seed=seed, after=0, error=KeyboardInterrupt)
        return RandomPolicy(seed=seed)


def occupier(seed: int | None) -> Occupier:
    return Occupier(seed=seed)


def crasher(seed: int | None) -> Crasher:
    return Crasher(seed=seed)

