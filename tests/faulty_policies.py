"""Policies that misbehave on purpose, importable by worker processes (tests/ is on sys.path)."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from typing import Any

from boardgame_envs.games.lines import BLACK
from boardgame_envs.policies.base import game_state_of
from boardgame_envs.policies.random import RandomPolicy


class Occupier(RandomPolicy):
    """Plays on an occupied point (an illegal move) at its second move; random before."""

    name = "occupier"

    def act(self, position: Any) -> int:
        state = game_state_of(position)
        if state.num_moves >= 2:
            return int(state.last_move)
        return super().act(state)


class Crasher(RandomPolicy):
    """Raises at its first move of any game after the ``after``-th stone."""

    name = "crasher"

    def __init__(self, seed: int | None = None, after: int = 2, error: type[BaseException] = ValueError) -> None:
        super().__init__(seed=seed)
        self.after, self.error = after, error

    def act(self, position: Any) -> int:
        if game_state_of(position).num_moves >= self.after:
            raise self.error("boom")
        return super().act(position)


class Killer(RandomPolicy):
    """Kills the worker process it runs in (SIGKILL, or ``os._exit``) at its first move after the ``after``-th stone.

    It refuses to kill a main process: in a test's own process it raises instead.
    """

    name = "killer"

    def __init__(self, seed: int | None = None, after: int = 2, how: str = "sigkill") -> None:
        super().__init__(seed=seed)
        self.after, self.how = after, how

    def act(self, position: Any) -> int:
        if game_state_of(position).num_moves >= self.after:
            # A forked worker has a parent process; a Ray worker never imported pytest. Else: the test's own process.
            if multiprocessing.parent_process() is None and "pytest" in sys.modules:
                raise RuntimeError("Killer runs in the main process: it kills only workers")
            if self.how == "exit":
                os._exit(3)
            os.kill(os.getpid(), signal.SIGKILL)
        return super().act(position)


class Cheater(RandomPolicy):
    """Writes a black five in a row on the state it is handed and marks the game won, then plays a random move."""

    name = "cheater"

    def act(self, position: Any) -> int:
        state = game_state_of(position)
        move = super().act(state)
        n = state.game.size
        for col in range(min(5, n)):
            state.board[col] = BLACK
        state.winner, state.terminal = BLACK, True
        return move


class Glitchy(RandomPolicy):
    """A random policy that counts a recovered glitch on every move, as an engine's ``glitches`` counter would."""

    name = "glitchy"
    glitches = 0

    def act(self, position: Any) -> int:
        self.glitches += 1
        return super().act(position)


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


def killer(seed: int | None) -> Killer:
    return Killer(seed=seed)


def exiter(seed: int | None) -> Killer:
    return Killer(seed=seed, how="exit")


def system_exit(seed: int | None) -> Crasher:
    return Crasher(seed=seed, error=SystemExit)


def interrupter(seed: int | None) -> Crasher:
    return Crasher(seed=seed, error=KeyboardInterrupt)


def cheater(seed: int | None) -> Cheater:
    return Cheater(seed=seed)


def glitchy(seed: int | None) -> Glitchy:
    return Glitchy(seed=seed)


def die_once(task: tuple[str, int]) -> int:
    """A worker task ``(marker file, value)``: kills its worker the first time (it leaves the marker), then returns value."""
    marker, value = task
    if not os.path.exists(marker):
        open(marker, "w").close()
        os.kill(os.getpid(), signal.SIGKILL)
    return value


def die_always(task: int) -> int:
    """A worker task that kills its worker when ``task`` is 3, else returns it."""
    if task == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return task
