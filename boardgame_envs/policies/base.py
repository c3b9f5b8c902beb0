"""The one protocol every policy follows: ``policy.act(state) -> action``.

A policy is handed a game state (a :class:`~boardgame_envs.games.protocol.State`)
and chooses a legal action for the player to move. An AEC env of this package
(wrapped or raw) is accepted in place of the state through one adapter,
:func:`game_state_of`, so ``policy.act(env)`` keeps working. A policy never
changes what it is handed: search works on clones.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Policy(Protocol):
    """Anything with ``act(state) -> int`` (a state, or an env holding one); ``name`` is used in tables."""

    name: str

    def act(self, state: Any) -> int: ...


class Forfeit(Exception):
    """Raised by ``act`` when the player loses the game by its own fault.

    An external engine that crashes, times out, answers garbage or plays an illegal
    move raises a subclass (:class:`~boardgame_envs.gomocup.EngineFault`); the
    arena and the single-agent view score the game as lost by that player, as a
    tournament manager would, instead of stopping.
    """


def game_state_of(position: Any) -> Any:
    """The game state a policy acts on: ``position`` itself, or the live state behind an AEC env.

    The one adapter from ``act(env)`` to ``act(state)``: anything with a
    ``game_state`` (an env of this package, wrapped or raw) stands for that
    state; anything else must be a state of the Game/State protocol. Raises if
    there is no move to choose.
    """
    if hasattr(type(position), "legal_mask"):  # a state: asked first, since a state's refusal of "unwrapped"
        state = position  # (StateIsNotEnvError, for act(env) policies) costs a raised exception per probe
    else:
        state = getattr(getattr(position, "unwrapped", position), "game_state", position)
    if not (hasattr(state, "legal_mask") and hasattr(state, "clone") and hasattr(state, "terminal")):
        raise TypeError(
            f"expected a game state or a boardgame_envs AEC env (wrapped or raw), got {type(position).__name__}"
        )
    if state.terminal:
        raise ValueError("the game is over: there is no move to choose")
    return state


def check_trained_on(name: str, trained_on: Any, game: Any) -> None:
    """Refuse a policy trained on another game than ``game`` (``trained_on`` None: it plays any): a ValueError
    naming both games in words (their ``describe()``, else their repr)."""
    if trained_on is None or trained_on == game:
        return
    words = [g.describe() if callable(getattr(g, "describe", None)) else repr(g) for g in (trained_on, game)]
    raise ValueError(f"{name} was trained on {words[0]}, not on {words[1]}")


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


# The most each search budget may be, stated once for every policy that searches (and the AlphaZero config):
# far above any level, recipe or pretrained player of the package (the largest of them search 256,000 alpha-beta
# nodes or 10,000 simulations a move), so that a slip of the keyboard (simulations=1000000000000) is one line
# naming the maximum, not a search that runs for days. A million simulations of MCTS on 15x15 gomoku is
# already hours a move on one core; the node cap is the alpha-beta kernel's own per-iteration cap.
SEARCH_LIMITS: dict[str, float] = {
    "simulations": 1_000_000,
    "playouts": 1_000_000,
    "nodes": 1_000_000_000,
    "vcf_nodes": 1_000_000_000,
    "depth": 400,  # deeper than any game of the catalog lasts at its default size (19x19 has 361 points)
    "time_limit": 3600.0,  # seconds a move
}


def check_budget(name: str, value: Any, allow_none: bool = False, allow_zero: bool = False) -> None:
    """Raise ValueError unless ``value`` is a search budget ``name`` may be (a key of :data:`SEARCH_LIMITS`):
    a positive integer (a positive number for ``time_limit``; 0 too with ``allow_zero``; None when allowed) at
    most the stated maximum, which the one-line error names."""
    if value is None and allow_none:
        return
    if name == "time_limit":
        check_positive(name, value)
    elif allow_zero:
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    else:
        check_positive_int(name, value)
    most = SEARCH_LIMITS[name]
    if value > most:
        unit = " seconds a move" if name == "time_limit" else ""
        raise ValueError(f"{name}={value} is more than a search may take: at most {int(most):,}{unit}")


def set_torch_threads(torch_threads: int | None) -> None:
    """Set torch's CPU threads process-wide (None: leave them); ValueError unless a positive integer or None.

    The network policies default to one: a policy scores one position at a time, too little
    work to share, and on a busy 2-core machine a second thread only spins against the first
    (``rate sb3:...`` of a 9x9 CNN model at load 3-4: about 0.8 CPU-s a game with torch's
    default threads, 0.07 with one).
    """
    check_positive_int("torch_threads", torch_threads, allow_none=True)
    if torch_threads is not None:
        import torch

        torch.set_num_threads(int(torch_threads))  # a numpy integer too


def random_argmax(scores: np.ndarray, rng: np.random.Generator, top: Any = None) -> int:
    """An index of the largest score, ties broken by ``rng``: how every seeded policy picks among equals.

    ``top``: ``scores.max()`` when the caller has it already (one numpy call fewer).
    """
    best = np.flatnonzero(scores == (scores.max() if top is None else top))
    return int(best[rng.integers(len(best))])
