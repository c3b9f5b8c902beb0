"""The one protocol every policy follows: ``policy.act(env) -> action``.

A policy reads the position from the env it is handed (wrapped or raw
``tictactoe_v0`` / ``gomoku_v0``), chooses a legal action for
``env.agent_selection`` and leaves the env exactly as it found it: search
works on a clone of the game state, never on a copy of the env.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np

from boardgame_envs.games.mnk import GameState


@runtime_checkable
class Policy(Protocol):
    """Anything with ``act(env) -> int``; ``name`` is used in tables."""

    name: str

    def act(self, env: Any) -> int: ...


class Forfeit(Exception):
    """Raised by ``act`` when the player loses the game by its own fault.

    An external engine that crashes, times out, answers garbage or plays an illegal
    move raises a subclass (:class:`~boardgame_envs.policies.gomocup.EngineFault`); the
    arena and the single-agent view score the game as lost by that player, as a
    tournament manager would, instead of stopping.
    """


def game_state_of(env: Any) -> GameState:
    """The live game state behind ``env``; raises if there is no move to choose."""
    state = getattr(getattr(env, "unwrapped", env), "game_state", None)
    if not isinstance(state, GameState):
        raise TypeError(
            f"expected a boardgame_envs AEC env (tictactoe_v0 / gomoku_v0, wrapped or raw), got {type(env).__name__}"
        )
    if state.terminal:
        raise ValueError("the game is over: there is no move to choose")
    return state


def check_positive(name: str, value: Any, allow_none: bool = False) -> None:
    """Raise ValueError unless ``value`` is a positive number (or None when allowed)."""
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise ValueError(f"{name} must be a positive number, got {value!r}")


def check_positive_int(name: str, value: Any, allow_none: bool = False) -> None:
    """Raise ValueError unless ``value`` is a positive integer (numpy integers too; not a bool or a float)."""
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value <= 0:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")


def random_argmax(scores: np.ndarray, rng: np.random.Generator) -> int:
    """An index of the largest score, ties broken by ``rng``: how every seeded policy picks among equals."""
    best = np.flatnonzero(scores == scores.max())
    return int(best[rng.integers(len(best))])
